import type { ColumnType, Generated } from 'kysely';
import type { CreditKind } from '@kb/contracts/admin-accounts';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

/** The credit ledger (migration 0016_administration.sql): users.credit_balance is its running sum. */
export interface CreditTables {
  credit_ledger: {
    id: Generated<number>;
    user_id: number;
    delta: number;
    kind: CreditKind;
    reason: Generated<string>;
    actor_id: number | null;
    export_job_id: number | null;
    balance_after: number;
    created_at: Timestamp;
  };
}
