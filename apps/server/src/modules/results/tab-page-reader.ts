import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { AppliedFilter } from '@kb/contracts/search';
import type { ResultRow, SortOrder, TabRequest } from '@kb/contracts/results';
import { SIMILARITY_COLUMN } from '@kb/contracts/results';
import type { ResultTabKey } from '@kb/contracts/result-tabs';
import type { Database } from '../../db/schema.ts';
import type { SearchService } from '../search/search-service.ts';
import { heldAssayActivities } from '../search/session-sets.ts';
import type { HeldSets } from '../search/session-sets.ts';
import { heldFilterInput, heldFilteredIds, heldSetSource, heldTabRows, withHeldStructureActivities } from './memory-pages.ts';
import type { HeldKeeper, HeldSubset } from './memory-pages.ts';
import { TAB_MODELS } from './tab-model.ts';
import type { Sql } from './tab-model.ts';
import { TAB_COLUMNS } from './tab-columns.ts';
import { ACTIVITIES_PER_ASSAY, activityInnerGrids, assayInnerGrids } from './inner-grids.ts';
import type { ResultSession } from './result-sessions.ts';
import type { FilteredRows } from './filtered-rows.ts';
import { storedFilteredRows } from './filtered-rows.ts';
import { rowScopeSql } from './row-scope.ts';
import type { RowScope } from './row-scope.ts';
import { TAB_SET, tabSet } from './set-source.ts';
import type { SetSource } from './set-source.ts';

/**
 * What names a tab's filters in the values kept with held sets: the same for the filters as applied
 * and as read back from the session row (whose jsonb orders an object's keys its own way).
 */
function filtersDescription(filters: readonly AppliedFilter[]): string {
  return `filters ${JSON.stringify(filters.map((f) => [f.chartKey, f.include ?? null, f.exclude ?? null, f.minValue ?? null, f.maxValue ?? null]))}`;
}

/**
 * Reads a tab's page rows (results-service.ts `page`): the page's ids chosen in SQL or from the
 * sets held in memory, then its columns for those rows only, with the inner grids and the
 * columns that count the session's rows.
 */
export class TabPageReader {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly search: SearchService,
    private readonly filtered: FilteredRows,
    /** Runs read work with the results' settings (ResultsService `withWorkMem`). */
    private readonly withWorkMem: <T>(fn: (trx: Kysely<Database>) => Promise<T>) => Promise<T>,
  ) {}

  /**
   * The rows of a held tab that pass its filters (result_filtered applied to the held set; rebuilt
   * first if a crash lost them), kept with the held sets under the filters' own description.
   */
  async heldFiltered(
    session: ResultSession,
    held: HeldSets,
    tab: ResultTabKey,
    filters: readonly AppliedFilter[],
    keeper: HeldKeeper,
  ): Promise<HeldSubset> {
    const key = filtersDescription(filters);
    const read = async () => {
      let stored = await storedFilteredRows(this.db, held.setId, tab);
      if (!stored) {
        const sets = heldSetSource(held, this.search.databaseKind);
        await this.filtered.ensure(session, sets, async () => {
          const rows = await this.search.heldActivityRows(session);
          return rows && heldFilterInput(held, rows);
        });
        stored = await storedFilteredRows(this.db, held.setId, tab);
      }
      // None stored after the rebuild: the filters passed no row.
      return heldFilteredIds(held, tab, stored ?? { ids: [], complement: false });
    };
    const ids = await keeper.keepAsync(`filtered ${tab} ${key}`, () => ({ value: read(), bytes: heldTabRows(held, tab) * 4 }));
    return { key, ids };
  }

  /** Keeps the rows of a held tab that passed its filters as they were applied (ascending), for `heldFiltered` to find. */
  keepFiltered(held: HeldSets, tab: ResultTabKey, filters: readonly AppliedFilter[], passed: Int32Array): void {
    this.search.heldDerived(held, `filtered ${tab} ${filtersDescription(filters)}`, () => ({
      value: Promise.resolve(passed),
      bytes: passed.byteLength,
    }));
  }

  /** Every id of a held set (or of `only` its rows) in one column's order, sorted in SQL over the set sent as a parameter (nothing written). */
  async sortHeld(held: HeldSets, tab: ResultTabKey, order: SortOrder, sortExpr: Sql, only?: Int32Array): Promise<Float64Array> {
    const model = TAB_MODELS[tab];
    const dir = sql.raw(order.direction === 'desc' ? 'DESC' : 'ASC');
    const narrowedTo = only ? { table: TAB_SET[tab].table, ids: only } : undefined;
    const relation = tabSet(tab, heldSetSource(held, this.search.databaseKind, narrowedTo));
    const { rows } = await this.withWorkMem((trx) =>
      sql<{ id: number }>`SELECT ${model.entity} AS id FROM ${model.from(held.setId, relation)} WHERE ${model.where(held.setId)}
        ORDER BY ${sortExpr} ${dir} NULLS LAST, ${model.entity} ${dir}`.execute(trx),
    );
    return Float64Array.from(rows, (row) => Number(row.id));
  }

  async readPage(
    tab: ResultTabKey,
    sets: SetSource,
    scope: RowScope,
    sortExpr: Sql,
    order: SortOrder,
    request: TabRequest,
    /** The page's rows only, as the tab's set (memory-pages.ts `heldSetRelation`). */
    set: Sql = tabSet(tab, sets),
  ): Promise<ResultRow[]> {
    const model = TAB_MODELS[tab];
    const setId = sets.setId;
    const { where, join } = rowScopeSql(tab, sets, scope);
    const dir = sql.raw(order.direction === 'desc' ? 'DESC' : 'ASC');
    const columns = TAB_COLUMNS[tab].map((column) => {
      const value = column.key === SIMILARITY_COLUMN && scope.similarity ? sql`rs.similarity` : column.value(setId);
      return sql`${value} AS ${sql.ref(column.key)}`;
    });
    // The page's ids first (sorted, limited), then its columns for those rows only: per-row lists
    // and counts are computed for ten rows, not for the whole set.
    const rows = await this.withWorkMem(async (trx) => {
      const result = await sql<ResultRow>`WITH page AS (
          SELECT ${model.entity} AS page_id, ${sortExpr} AS sort_key
          FROM ${model.from(setId, set)} ${join} WHERE ${where}
          ORDER BY sort_key ${dir} NULLS LAST, page_id ${dir}
          LIMIT ${request.pageSize} OFFSET ${request.pageNumber * request.pageSize})
        SELECT ${sql.join(columns)} FROM page JOIN ${model.from(setId, set)} ON ${model.entity} = page.page_id ${join}
        WHERE ${model.where(setId)}
        ORDER BY page.sort_key ${dir} NULLS LAST, page.page_id ${dir}`.execute(trx);
      return result.rows;
    });
    return rows;
  }

  /**
   * A page's columns that count the set tables' rows, from the sets held in memory: a structure's
   * "Activities (this search)" and an assay's inner grid of its activities in the search.
   */
  async withHeldColumns(tab: ResultTabKey, held: HeldSets, rows: ResultRow[]): Promise<ResultRow[]> {
    if (tab === 'structuretab')
      return withHeldStructureActivities(
        held,
        rows,
        rows.map((row) => Number(row.str_id)),
      );
    if (tab === 'assaytab') {
      const ids = rows.map((row) => Number(row.assay_id));
      return this.withInnerGrids(tab, held.setId, rows, heldAssayActivities(held, ids, ACTIVITIES_PER_ASSAY + 1));
    }
    return this.withInnerGrids(tab, held.setId, rows);
  }

  async withInnerGrids(
    tab: ResultTabKey,
    setId: number,
    rows: ResultRow[],
    heldMembers?: ReadonlyMap<number, readonly number[]>,
  ): Promise<ResultRow[]> {
    if (tab === 'activitiestab') {
      const grids = await activityInnerGrids(
        this.db,
        rows.map((row) => Number(row.act_id)),
      );
      return rows.map((row) => ({ ...row, innerGrids: grids.get(Number(row.act_id)) ?? '[]' }));
    }
    if (tab === 'assaytab') {
      const grids = await assayInnerGrids(
        this.db,
        setId,
        rows.map((row) => Number(row.assay_id)),
        heldMembers,
      );
      return rows.map((row) => ({ ...row, innerGrids: grids.get(Number(row.assay_id)) ?? '[]' }));
    }
    return rows;
  }
}
