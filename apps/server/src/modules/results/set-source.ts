import { sql } from 'kysely';
import type { RawBuilder } from 'kysely';
import type { ResultTabKey } from '@kb/contracts/result-tabs';

type Sql = RawBuilder<unknown>;

/** The five set tables a search session's rows live in (db/tables/search-tables.ts). */
export type SetTable = 'search_structures' | 'search_activities' | 'search_assays' | 'search_references' | 'search_clinical_compounds';

/**
 * Where the SQL of a session's tabs, filters and charts reads the session's sets (issue 62): its
 * set tables, or relations with the same columns built from the sets held in memory
 * (memory-pages.ts `heldSetSource`). Every set-scoped query names its sets through this, so both
 * give the same rows by construction (results/set-parity.api.test.ts holds them equal).
 */
export interface SetSource {
  readonly setId: number;
  /** True when the sets are read from memory (the set tables may hold nothing for this session). */
  readonly inMemory: boolean;
  /** The set `table` under `alias`, ready for a FROM or JOIN: `search_activities sa` or a stand-in relation `(…) sa`. */
  table(table: SetTable, alias: string): Sql;
}

/** The session's set tables themselves. */
export function setTables(setId: number): SetSource {
  return { setId, inMemory: false, table: (table, alias) => sql`${sql.table(table)} ${sql.raw(alias)}` };
}

/** The set table of a tab's rows and the alias the tab's SQL gives it (tab-model.ts). */
export const TAB_SET: Record<ResultTabKey, { table: SetTable; alias: string }> = {
  structuretab: { table: 'search_structures', alias: 'ss' },
  activitiestab: { table: 'search_activities', alias: 'sa' },
  assaytab: { table: 'search_assays', alias: 'sy' },
  documentstab: { table: 'search_references', alias: 'sr' },
  developmentcompoundstab: { table: 'search_clinical_compounds', alias: 'scc' },
};

/** A tab's own set from `sets`, under the tab's alias. */
export function tabSet(tab: ResultTabKey, sets: SetSource): Sql {
  return sets.table(TAB_SET[tab].table, TAB_SET[tab].alias);
}
