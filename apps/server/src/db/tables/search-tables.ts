import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T> = ColumnType<T, string, string>;

/** Kysely types of migration 0003_search.sql; `Database` (db/schema.ts) extends this. */
export interface SearchTables {
  /** Every search run, for the trackers and usage dashboards (migration 0016). */
  search_log: {
    id: Generated<number>;
    user_id: number | null;
    search_session_id: string | null;
    summary: string;
    counts: ColumnType<unknown, string | null | undefined, string | null>;
    duration_ms: number;
    failed: Generated<boolean>;
    created_at: Timestamp;
  };
  search_structures: { set_id: number; str_id: number; similarity: Generated<number | null> };
  search_activities: {
    set_id: number;
    act_id: number /** NULL: an activity of a compound without structure. */;
    str_id: number | null;
    gvk_id: number | null;
    assay_id: number | null;
    ref_id: number | null;
    target_id: number | null;
    similarity: Generated<number | null>;
  };
  search_compounds: { set_id: number; gvk_id: number };
  search_assays: { set_id: number; assay_id: number; activities: Generated<number | null>; similarity: Generated<number | null> };
  search_references: { set_id: number; ref_id: number; activities: Generated<number | null>; similarity: Generated<number | null> };
  search_clinical_compounds: { set_id: number; clinical_compound_id: number; similarity: Generated<number | null> };
  /** One row per set whose rows are kept (migration 0011): written with the sets, lost with them. */
  search_set_marks: { set_id: number; criteria_hash: string; written_at: Timestamp };
  saved_criteria: {
    criteria_id: Generated<number>;
    user_id: number;
    criteria_name: string;
    criteria: Json<unknown>;
    applied_filters: ColumnType<unknown, string | undefined, string>;
    is_active: Generated<boolean>;
    created_at: Timestamp;
    /** Migration 0026: "alert me", the last load the user was told about, the last new-activity count. */
    alert: Generated<boolean>;
    alert_since_load: ColumnType<number | string | null, number | null | undefined, number | null>;
    alert_last_count: number | null;
  };
}

/** Columns migration 0011 adds to search_sessions (declared in db/schema.ts): who runs the search. */
export interface SessionRunColumns {
  /** `host:pid:instance` of the API process running the session's search. */
  run_owner: string | null;
  /** Last sign of life of that process (heartbeat while the search runs). */
  run_heartbeat_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** The run rebuilds sets lost in a crash (results calls wait for it rather than answering 409). */
  run_recovery: Generated<boolean>;
  /** 0028: the running process's progress, written with each heartbeat (read by other servers). */
  run_progress: ColumnType<unknown, string | null | undefined, string | null>;
  /** 0028: a cancel asked through another server; the running process aborts at its next heartbeat. */
  cancel_requested_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

/** The six id-set tables of a search session (the spec's "log tables"). */
export const SEARCH_SET_TABLES = [
  'search_structures',
  'search_activities',
  'search_compounds',
  'search_assays',
  'search_references',
  'search_clinical_compounds',
] as const satisfies ReadonlyArray<keyof SearchTables>;
