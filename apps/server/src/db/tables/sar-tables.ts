import type { ColumnType } from 'kysely';
import type { SarSourceTab } from '@kb/contracts/sar';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

/** Tables of the SAR view (migration 0013_sar_sets.sql: one SAR set per search set; 0030: running work). */
export interface SarTables {
  sar_sets: { set_id: number; session_id: string; tab: SarSourceTab; compounds: number; activities: number; created_at: Timestamp };
  sar_set_structures: { set_id: number; str_id: number };
  sar_set_activities: { set_id: number; act_id: number; str_id: number; target_id: number | null };
  /** SAR work running on some server (migration 0030): its progress and a cancel asked elsewhere. */
  sar_jobs: {
    job_id: string;
    user_id: number;
    session_id: string;
    kind: string;
    phase: string;
    started_at: Timestamp;
    done: ColumnType<number, number | undefined, number>;
    total: ColumnType<number, number | undefined, number>;
    heartbeat_at: Timestamp;
    cancel_requested_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  };
}

/** The SAR tables keyed by a search set: dropped with its sets (search clearSets and purgeExpired). */
export const SAR_SET_TABLES = ['sar_sets', 'sar_set_structures', 'sar_set_activities'] as const satisfies ReadonlyArray<keyof SarTables>;
