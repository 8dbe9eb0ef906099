import { sql } from 'kysely';
import type { RawBuilder } from 'kysely';
import type { ResultTabKey } from '@kb/contracts/result-tabs';
import type { SetSource } from './set-source.ts';

/**
 * How each results tab reads its search session's sets (docs/results.md). Aliases used throughout:
 * `ss` search_structures, `sa` search_activities, `sy` search_assays, `scc` search_clinical_compounds,
 * `sr` search_references; `s` structures, `a` activities, `ay` assays, `t` targets, `d` documents,
 * `cc` clinical_compounds, `p` clinical_phases, `st` clinical_statuses.
 */
export type Sql = RawBuilder<unknown>;

/** The record a chart or filter property belongs to (each chart dimension names one). */
export type Level = 'activity' | 'assay' | 'reference' | 'target' | 'structure' | 'clinical';

/** A relation of (tab row, property record) pairs: `from … where …`, `entity` = the tab row's id. */
export interface Facts {
  from: Sql;
  where: Sql;
  entity: Sql;
  /** One pair per tab row (count(*) counts rows); false when a tab row can pair with many records. */
  unique: boolean;
}

export interface TabModel {
  key: ResultTabKey;
  /**
   * The tab's rows joined to everything its columns read; filtered by `where`. `set`: a relation
   * standing for the set table, with its alias and columns (sets held in memory, memory-pages.ts).
   */
  from(setId: number, set?: Sql): Sql;
  where(setId: number): Sql;
  /** The row id (the tab's idColumn). */
  entity: Sql;
  /** The row's structure, for similarity sorts (null: the tab's rows are not structures). */
  strId: Sql | null;
  /** Default sort: the set's primary key order, an index read however large the set. */
  defaultSort: string;
}

const id = (setId: number) => sql`${setId}::bigint`;

export const TAB_MODELS: Record<ResultTabKey, TabModel> = {
  structuretab: {
    key: 'structuretab',
    from: (_, set = sql`search_structures ss`) => sql`${set} JOIN structures s ON s.str_id = ss.str_id`,
    where: (setId) => sql`ss.set_id = ${id(setId)}`,
    entity: sql`ss.str_id`,
    strId: sql`ss.str_id`,
    defaultSort: 'str_id',
  },
  activitiestab: {
    key: 'activitiestab',
    from: (_, set = sql`search_activities sa`) => sql`${set} JOIN activities a ON a.act_id = sa.act_id
      LEFT JOIN assays ay ON ay.assay_id = a.assay_id
      LEFT JOIN targets t ON t.target_id = a.target_id
      LEFT JOIN documents d ON d.ref_id = a.ref_id
      LEFT JOIN structures s ON s.str_id = a.str_id`,
    where: (setId) => sql`sa.set_id = ${id(setId)}`,
    entity: sql`sa.act_id`,
    strId: sql`sa.str_id`,
    defaultSort: 'act_id',
  },
  assaytab: {
    key: 'assaytab',
    from: (_, set = sql`search_assays sy`) =>
      sql`${set} JOIN assays ay ON ay.assay_id = sy.assay_id LEFT JOIN targets t ON t.target_id = ay.target_id`,
    where: (setId) => sql`sy.set_id = ${id(setId)}`,
    entity: sql`sy.assay_id`,
    strId: null,
    defaultSort: 'assay_id',
  },
  developmentcompoundstab: {
    key: 'developmentcompoundstab',
    from: (
      _,
      set = sql`search_clinical_compounds scc`,
    ) => sql`${set} JOIN clinical_compounds cc ON cc.clinical_compound_id = scc.clinical_compound_id
      LEFT JOIN clinical_phases p ON p.phase_id = cc.highest_phase_id
      LEFT JOIN clinical_statuses st ON st.status_id = cc.status_id
      LEFT JOIN structures s ON s.str_id = cc.str_id`,
    where: (setId) => sql`scc.set_id = ${id(setId)}`,
    entity: sql`scc.clinical_compound_id`,
    strId: sql`cc.str_id`,
    defaultSort: 'clinical_compound_id',
  },
  documentstab: {
    key: 'documentstab',
    from: (_, set = sql`search_references sr`) => sql`${set} JOIN documents d ON d.ref_id = sr.ref_id`,
    where: (setId) => sql`sr.set_id = ${id(setId)}`,
    entity: sql`sr.ref_id`,
    strId: null,
    defaultSort: 'ref_id',
  },
};

// ------------------------------------------------------------------ facts: tab rows × property records

/**
 * The session's records of one level, joined onto an activity `sa`. Restricted to the session's own
 * sets so a join never reaches into the whole knowledge base (2.5 M structures, 1.3 M assays at L).
 */
export function levelJoin(level: Exclude<Level, 'activity'>, sets: SetSource): Sql {
  const setId = sets.setId;
  switch (level) {
    case 'assay':
      return sql`LEFT JOIN (SELECT ay0.* FROM ${sets.table('search_assays', 'sy0')} JOIN assays ay0 ON ay0.assay_id = sy0.assay_id WHERE sy0.set_id = ${id(setId)}) ay ON ay.assay_id = sa.assay_id`;
    case 'reference':
      return sql`LEFT JOIN (SELECT d0.* FROM ${sets.table('search_references', 'sr0')} JOIN documents d0 ON d0.ref_id = sr0.ref_id WHERE sr0.set_id = ${id(setId)}) d ON d.ref_id = sa.ref_id`;
    case 'target':
      return sql`LEFT JOIN targets t ON t.target_id = sa.target_id`;
    case 'structure':
      return sql`LEFT JOIN (SELECT s0.* FROM ${sets.table('search_structures', 'ss0')} JOIN structures s0 ON s0.str_id = ss0.str_id WHERE ss0.set_id = ${id(setId)}) s ON s.str_id = sa.str_id`;
    case 'clinical':
      return sql`LEFT JOIN (SELECT cc0.* FROM ${sets.table('search_clinical_compounds', 'scc0')} JOIN clinical_compounds cc0 ON cc0.clinical_compound_id = scc0.clinical_compound_id
        WHERE scc0.set_id = ${id(setId)}) cc ON cc.str_id = sa.str_id`;
  }
}

/** A tab's rows that have their own records of a level (no detour through activities). */
function directFacts(tab: ResultTabKey, level: Level, sets: SetSource): Facts | null {
  const set = id(sets.setId);
  const key = `${tab}:${level}`;
  switch (key) {
    case 'structuretab:structure':
      return {
        from: sql`${sets.table('search_structures', 'ss')} JOIN structures s ON s.str_id = ss.str_id`,
        where: sql`ss.set_id = ${set}`,
        entity: sql`ss.str_id`,
        unique: true,
      };
    case 'structuretab:clinical':
      return {
        from: sql`${sets.table('search_clinical_compounds', 'scc')} JOIN clinical_compounds cc ON cc.clinical_compound_id = scc.clinical_compound_id`,
        where: sql`scc.set_id = ${set}`,
        entity: sql`cc.str_id`,
        unique: false,
      };
    case 'assaytab:assay':
      return {
        from: sql`${sets.table('search_assays', 'sy')} JOIN assays ay ON ay.assay_id = sy.assay_id`,
        where: sql`sy.set_id = ${set}`,
        entity: sql`sy.assay_id`,
        unique: true,
      };
    case 'assaytab:target':
      return {
        from: sql`${sets.table('search_assays', 'sy')} JOIN assays ay ON ay.assay_id = sy.assay_id LEFT JOIN targets t ON t.target_id = ay.target_id`,
        where: sql`sy.set_id = ${set}`,
        entity: sql`sy.assay_id`,
        unique: true,
      };
    case 'documentstab:reference':
      return {
        from: sql`${sets.table('search_references', 'sr')} JOIN documents d ON d.ref_id = sr.ref_id`,
        where: sql`sr.set_id = ${set}`,
        entity: sql`sr.ref_id`,
        unique: true,
      };
    case 'developmentcompoundstab:clinical':
      return {
        from: sql`${sets.table('search_clinical_compounds', 'scc')} JOIN clinical_compounds cc ON cc.clinical_compound_id = scc.clinical_compound_id`,
        where: sql`scc.set_id = ${set}`,
        entity: sql`scc.clinical_compound_id`,
        unique: true,
      };
    case 'developmentcompoundstab:structure':
      return {
        from: sql`${sets.table('search_clinical_compounds', 'scc')} JOIN clinical_compounds cc ON cc.clinical_compound_id = scc.clinical_compound_id LEFT JOIN structures s ON s.str_id = cc.str_id`,
        where: sql`scc.set_id = ${set}`,
        entity: sql`scc.clinical_compound_id`,
        unique: true,
      };
    default:
      return null;
  }
}

/**
 * Pairs of (row of `tab`, record of `level`) within one session: what a chart counts and a filter
 * tests. Rows reach records of other kinds through the session's activities: a structure has the
 * assay types of its activities in this search, a reference the targets of its activities, and so on.
 */
export function factsFor(tab: ResultTabKey, level: Level, sets: SetSource): Facts {
  const direct = directFacts(tab, level, sets);
  if (direct) return direct;
  const set = id(sets.setId);
  const join = level === 'activity' ? sql`JOIN activities a ON a.act_id = sa.act_id` : levelJoin(level, sets);
  if (tab === 'developmentcompoundstab') {
    return {
      from: sql`${sets.table('search_clinical_compounds', 'scc')} JOIN clinical_compounds ccx ON ccx.clinical_compound_id = scc.clinical_compound_id
        JOIN ${sets.table('search_activities', 'sa')} ON sa.set_id = scc.set_id AND sa.str_id = ccx.str_id ${join}`,
      where: sql`scc.set_id = ${set}`,
      entity: sql`scc.clinical_compound_id`,
      unique: false,
    };
  }
  const entity = { structuretab: sql`sa.str_id`, activitiestab: sql`sa.act_id`, assaytab: sql`sa.assay_id`, documentstab: sql`sa.ref_id` }[
    tab
  ];
  // Activities without a structure are no row of the structures tab (their entity would be NULL).
  const where = tab === 'structuretab' ? sql`sa.set_id = ${set} AND sa.str_id IS NOT NULL` : sql`sa.set_id = ${set}`;
  return {
    from: sql`${sets.table('search_activities', 'sa')} ${join}`,
    where,
    entity,
    unique: tab === 'activitiestab' && level !== 'clinical',
  };
}

/** Rows of `tab` that belong to the given structures (spec `strIdList`: "go to" from another tab). */
export function strIdRestriction(tab: ResultTabKey, sets: SetSource, strIds: readonly number[]): Sql {
  const ids = sql`ANY(${[...strIds]}::bigint[])`;
  const set = id(sets.setId);
  switch (tab) {
    case 'structuretab':
      return sql`ss.str_id = ${ids}`;
    case 'activitiestab':
      return sql`sa.str_id = ${ids}`;
    case 'assaytab':
      return sql`sy.assay_id IN (SELECT sa2.assay_id FROM ${sets.table('search_activities', 'sa2')} WHERE sa2.set_id = ${set} AND sa2.str_id = ${ids})`;
    case 'documentstab':
      return sql`sr.ref_id IN (SELECT sa2.ref_id FROM ${sets.table('search_activities', 'sa2')} WHERE sa2.set_id = ${set} AND sa2.str_id = ${ids}
        UNION SELECT c.ref_id FROM compounds c WHERE c.str_id = ${ids})`;
    case 'developmentcompoundstab':
      return sql`cc.str_id = ${ids}`;
  }
}

/** The row ids of `tab` that belong to the given structures, as `strIdRestriction` keeps them (charts of a "go to"). */
export function rowsOfStructures(tab: ResultTabKey, sets: SetSource, strIds: readonly number[]): Sql {
  const ids = sql`ANY(${[...strIds]}::bigint[])`;
  const set = id(sets.setId);
  switch (tab) {
    case 'structuretab':
      return sql`SELECT ss2.str_id FROM ${sets.table('search_structures', 'ss2')} WHERE ss2.set_id = ${set} AND ss2.str_id = ${ids}`;
    case 'activitiestab':
      return sql`SELECT sa2.act_id FROM ${sets.table('search_activities', 'sa2')} WHERE sa2.set_id = ${set} AND sa2.str_id = ${ids}`;
    case 'assaytab':
      return sql`SELECT sa2.assay_id FROM ${sets.table('search_activities', 'sa2')} WHERE sa2.set_id = ${set} AND sa2.str_id = ${ids}`;
    case 'documentstab':
      return sql`SELECT sa2.ref_id FROM ${sets.table('search_activities', 'sa2')} WHERE sa2.set_id = ${set} AND sa2.str_id = ${ids} UNION SELECT c.ref_id FROM compounds c WHERE c.str_id = ${ids}`;
    case 'developmentcompoundstab':
      return sql`SELECT cc2.clinical_compound_id FROM clinical_compounds cc2 WHERE cc2.str_id = ${ids}`;
  }
}

/** Structures of some rows of a tab (for "go to" and selections): within the session's sets. */
export function structuresOfRows(tab: ResultTabKey, sets: SetSource, ids: readonly number[]): Sql {
  const list = sql`ANY(${[...ids]}::bigint[])`;
  const set = id(sets.setId);
  switch (tab) {
    case 'structuretab':
      return sql`SELECT str_id FROM ${sets.table('search_structures', 'ss2')} WHERE set_id = ${set} AND str_id = ${list}`;
    // Activities without a structure have none to give ("go to structures" skips them).
    case 'activitiestab':
      return sql`SELECT DISTINCT str_id FROM ${sets.table('search_activities', 'sa2')} WHERE set_id = ${set} AND act_id = ${list} AND str_id IS NOT NULL`;
    case 'assaytab':
      return sql`SELECT DISTINCT str_id FROM ${sets.table('search_activities', 'sa2')} WHERE set_id = ${set} AND assay_id = ${list} AND str_id IS NOT NULL`;
    case 'documentstab':
      return sql`SELECT str_id FROM ${sets.table('search_activities', 'sa2')} WHERE set_id = ${set} AND ref_id = ${list} AND str_id IS NOT NULL
        UNION SELECT c.str_id FROM compounds c JOIN ${sets.table('search_structures', 'ss')} ON ss.set_id = ${set} AND ss.str_id = c.str_id WHERE c.ref_id = ${list}`;
    case 'developmentcompoundstab':
      return sql`SELECT DISTINCT cc.str_id FROM ${sets.table('search_clinical_compounds', 'scc')} JOIN clinical_compounds cc ON cc.clinical_compound_id = scc.clinical_compound_id
        WHERE scc.set_id = ${set} AND scc.clinical_compound_id = ${list} AND cc.str_id IS NOT NULL`;
  }
}
