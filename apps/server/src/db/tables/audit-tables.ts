import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
/** jsonb: parsed by the driver when read, written as JSON text. */
type Json = ColumnType<unknown, string | null | undefined, string | null>;

/** Every administrative change (migration 0016_administration.sql). */
export interface AuditTables {
  audit_log: {
    id: Generated<number>;
    actor_id: number | null;
    actor_email: string;
    action: string;
    target_type: string;
    target_id: string | null;
    target_label: string | null;
    before: Json;
    after: Json;
    ip_address: string | null;
    created_at: Timestamp;
  };
}
