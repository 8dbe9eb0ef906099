import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

/** Saved dynamic queries (migration 0027_dynamic_queries.sql). */
export interface DynamicQueryTables {
  dynamic_queries: {
    id: Generated<number>;
    user_id: number;
    name: string;
    /** DqQuery of the contract: jsonb, parsed by the driver; written as JSON text. */
    query: ColumnType<unknown, string, string>;
    created_at: Timestamp;
    updated_at: Timestamp;
  };
}
