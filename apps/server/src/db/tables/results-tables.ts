import type { ColumnType } from 'kysely';

/** Tables of the results module (migration 0008_results.sql; result_filtered packed by 0029). */
export interface ResultsTables {
  result_similarity: { set_id: number; query_key: string; id: number; similarity: number };
  /** `complement`: `ids` are the rows that did not pass (tab-filters.ts `filteredRestriction`). */
  result_filtered: { set_id: number; tab: string; ids: number[]; complement: ColumnType<boolean, boolean | undefined, boolean> };
}

/** Columns migration 0008 adds to search_sessions (declared in db/schema.ts). */
export interface SessionResultColumns {
  /** Applied chart filters per tab key. */
  filters: ColumnType<unknown, string | undefined, string>;
  kb_max_str_id: number | null;
  /** 0034: which run's answer the session's sets are (a server holding sets in memory checks it). */
  sets_version: string | null;
  /** 0034: the kb_loads version that run read (the sets are recomputed from the criteria only at this version). */
  kb_version: string | null;
}
