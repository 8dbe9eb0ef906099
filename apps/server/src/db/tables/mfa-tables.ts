import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

/** The second factor of the admin roles (migration 0021_admin_mfa.sql). */
export interface MfaTables {
  user_mfa: {
    user_id: number;
    /** AES-256-GCM of the base32 secret (mfa-secret-box.ts); never answered after enrolment. */
    secret_encrypted: string;
    confirmed_at: NullableTimestamp;
    /** Newest accepted 30-second step (Unix time / 30: fits an integer for two millennia). */
    last_step: number | null;
    last_verified_at: NullableTimestamp;
    created_at: Timestamp;
  };
  mfa_recovery_codes: {
    id: Generated<string>;
    user_id: number;
    code_hash: string;
    used_at: NullableTimestamp;
    created_at: Timestamp;
  };
  mfa_failures: {
    id: Generated<string>;
    user_id: number;
    ip_address: string | null;
    failed_at: Timestamp;
  };
}
