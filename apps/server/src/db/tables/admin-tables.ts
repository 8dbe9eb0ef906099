import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

/** Organisations (clients) and the search log (migration 0016_administration.sql). */
export interface AdminTables {
  organisations: {
    id: Generated<number>;
    name: string;
    seats: number | null;
    contact_email: string | null;
    notes: Generated<string>;
    active: Generated<boolean>;
    created_at: Timestamp;
    updated_at: Timestamp;
  };
}
