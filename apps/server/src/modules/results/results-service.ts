import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { AppliedFilter, SearchCriteria } from '@kb/contracts/search';
import type { ResultsSession, Selection, SortOrder, TabPage, TabRequest } from '@kb/contracts/results';
import { MAX_SELECTION, SIMILARITY_COLUMN } from '@kb/contracts/results';
import type { ResultEntity, ResultTabKey } from '@kb/contracts/result-tabs';
import { RESULT_TAB_KEYS, tabInfo } from '@kb/contracts/result-tabs';
import type { Database } from '../../db/schema.ts';
import type { AuthContext } from '../../http/auth-hook.ts';
import { HttpError, badRequest } from '../../http/errors.ts';
import { ERROR_CODES } from '@kb/contracts/errors';
import type { SearchService, SessionNeed } from '../search/search-service.ts';
import { heldActivityTypeGroups } from '../search/session-sets.ts';
import type { HeldSets, SetsNeed } from '../search/session-sets.ts';
import {
  heldFilterInput,
  heldRowsWithin,
  heldOrderedPage,
  heldSetRelation,
  heldSetSource,
  heldTabMembers,
  heldNeedOf,
  heldTabRows,
  structureActivityCounts,
} from './memory-pages.ts';
import type { HeldKeeper } from './memory-pages.ts';
import type { ChemEngine } from '../chemistry/chem-engine.ts';
import { TAB_MODELS, structuresOfRows } from './tab-model.ts';
import type { Sql } from './tab-model.ts';
import { TAB_COLUMNS, columnDef } from './tab-columns.ts';
import type { SessionRows } from './row-values.ts';
import { filtersInMemory, presenceInMemory } from './memory-filters.ts';
import type { FilterInput } from './memory-filters.ts';
import { SessionRowsCache } from './session-rows.ts';
import type { KbDictionaryCache } from '../knowledge-base/kb-dictionaries.ts';
import { prepareSimilaritySort } from './similarity-sort.ts';
import { hasSimilarityRow, structureQueryOf } from './structure-rows-shown.ts';
import type { SimilaritySort } from './similarity-sort.ts';
import {
  filteredRowCounts,
  newlyAdded,
  readySession,
  sameFilters,
  sessionCounts,
  saveFilters,
  sessionFilters,
  storedTabCount,
} from './result-sessions.ts';
import type { ResultSession } from './result-sessions.ts';
import { validateFilters } from './filter-validation.ts';
import { FilteredRows, filtersBeforeLock } from './filtered-rows.ts';
import { TabPageReader } from './tab-page-reader.ts';
import { rowScopeSql } from './row-scope.ts';
import { setTables, tabSet } from './set-source.ts';
import type { SetSource } from './set-source.ts';
import type { Narrowing, RowScope } from './row-scope.ts';
import { tabularView } from './tabular-view.ts';

/**
 * Settings of the results' transactions: memory to hash id sets of a few hundred thousand, and no
 * JIT compilation — it spent 100–500 ms compiling queries that run in a few hundred (measured at L).
 * Both in one expression (`set_config(…, true)` is SET LOCAL): one round trip, or none beside
 * another statement.
 */
const QUERY_SETTINGS = sql<string>`set_config('work_mem', '128MB', true) || set_config('jit', 'off', true)`;

/** A session with where its sets are read from (`ResultsService.sessionAndSets`). */
export interface SessionSets {
  session: ResultSession;
  sets: SetSource;
  /** The sets held in memory that `sets` reads, or null: the set tables. */
  held: HeldSets | null;
}

/**
 * The results workspace over one search session (docs/results.md): tab pages, row counts, filters,
 * selections and navigation. Every query reads the session's sets, so what a tab, a chart and a
 * selection show of one search agrees.
 */
export class ResultsService {
  /** Sessions' activity rows held between the charts and filters that read them all. */
  readonly sessionRows: SessionRowsCache;
  /** The rows of filtered tabs (result_filtered). */
  private readonly filtered: FilteredRows;
  /** Tab pages' rows (tab-page-reader.ts). */
  private readonly pages: TabPageReader;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly search: SearchService,
    private readonly engine: ChemEngine,
    /** Knowledge-base values in memory: the Activities tab's filters on them are evaluated without joins (null: in SQL). */
    private readonly dictionaries: KbDictionaryCache | null = null,
  ) {
    this.sessionRows = new SessionRowsCache(db, search.databaseKind);
    this.filtered = new FilteredRows(db, search.databaseKind, dictionaries, (session, fn) => this.lockedSession(session, fn));
    this.pages = new TabPageReader(db, search, this.filtered, (fn) => this.withWorkMem(fn));
    // Rows are held for the memory paths (charts and filters with the dictionaries) only.
    if (dictionaries) search.onSetsWritten((setId, mark, rows) => this.sessionRows.hold(setId, mark, rows));
  }

  /** The caller's ready session; with 'definition' its sets may be only in memory (`heldSets`), else they are in the set tables. */
  async session(auth: AuthContext, sessionId: string, need: SessionNeed = 'tables'): Promise<ResultSession> {
    const session = await readySession(this.db, this.search, auth, sessionId, need);
    return need === 'tables' ? this.filtered.ensure(session, setTables(session.set_id)) : session;
  }

  /**
   * The caller's ready session and where its sets are read from (set-source.ts): the sets held in
   * memory when they are (nothing is written) — recomputed from the session's definition, or run
   * again and held when the knowledge base changed since (`rerunHeld`) — else the set tables (an
   * alert's load window, sets not held in memory). Filtered tabs' rows are rebuilt if lost.
   */
  async sessionAndSets(auth: AuthContext, sessionId: string, read?: ResultSession): Promise<SessionSets> {
    // `read`: the caller's session as just read with 'definition' (its owner checked), not read again.
    const first = read ?? (await this.session(auth, sessionId, 'definition'));
    const found = await this.heldSets(first);
    const rerun = found ? null : await this.search.rerunHeld(first.id);
    const held = found ?? rerun;
    if (!held) {
      const session = await this.session(auth, sessionId);
      return { session, sets: setTables(session.set_id), held: null };
    }
    // Answered anew: its row (counts, version, the filters to apply again) is read again.
    const session = rerun ? await this.session(auth, sessionId, 'definition') : first;
    const sets = heldSetSource(held, this.search.databaseKind);
    return { session: await this.filtered.ensure(session, sets, () => this.filterInput(session, held)), sets, held };
  }

  /** What filters evaluated in memory read: the held sets' activities and tabs, else the set tables' activities. */
  private async filterInput(session: ResultSession, held: HeldSets | null): Promise<FilterInput> {
    const fromMemory = held ? await this.heldActivityRows(session) : null;
    if (held && fromMemory) return heldFilterInput(held, fromMemory);
    return { rows: await this.sessionRows.rows(session.set_id), tabIds: null };
  }

  /** The session's activity rows from its sets in memory (charts, filters), or null: read them from the set tables. */
  heldActivityRows(session: ResultSession): Promise<SessionRows | null> {
    return this.search.heldActivityRows(session);
  }

  /**
   * The held activity rows a filtered Activities or Structures tab counts in its charts: those of
   * its rows that pass its filters (an activity, or a structure's activities), made once per
   * filters and kept with the held sets; null when the sets are not held (the charts read SQL).
   */
  async heldFilteredActivityRows(session: ResultSession, tab: 'activitiestab' | 'structuretab'): Promise<SessionRows | null> {
    const held = await this.heldSets(session);
    const rows = held ? await this.heldActivityRows(session) : null;
    if (!held || !rows) return null;
    const keeper = this.keeperOf(held);
    const subset = await this.pages.heldFiltered(session, held, tab, sessionFilters(session)[tab], keeper);
    return keeper.keep(`filtered activity rows ${tab} ${subset.key}`, () => {
      const within = heldRowsWithin(rows, tab === 'activitiestab' ? rows.act! : rows.str!, subset.ids);
      return { value: within, bytes: within.count * 20 };
    });
  }

  /** What a held page or chart keeps with the held sets (search-service.ts `heldDerived`). */
  private keeperOf(held: HeldSets): HeldKeeper {
    return {
      keep: (key, make) => this.search.heldDerived(held, key, make),
      keepAsync: (key, make) => this.search.heldDerivedAsync(held, key, make),
    };
  }

  /**
   * The `activitytype` chart's groups from the session's sets in memory (session-sets.ts; types
   * lower-cased as the search columns hold them), or null: count it in SQL over the set tables.
   */
  async heldActivityTypeGroups(session: ResultSession, perStructure: boolean): Promise<ReturnType<typeof heldActivityTypeGroups> | null> {
    const held = await this.heldSets(session, ['activities']);
    return held ? heldActivityTypeGroups(held, perStructure) : null;
  }

  /** The session's sets from memory (held or recomputed, search-service.ts `heldSets`), or null: read the set tables. */
  heldSets(session: ResultSession, need: SetsNeed = 'all'): Promise<HeldSets | null> {
    return this.search.heldSets(session, need);
  }

  /**
   * A session for work its owner started earlier (a background export): no caller to check, the
   * sets rebuilt first if a crash lost them. Null when the session is gone.
   */
  async keptSessionById(sessionId: string, need: SessionNeed = 'tables'): Promise<ResultSession | null> {
    return this.search.keptSessionById(sessionId, need);
  }

  /**
   * Runs `fn` in a transaction holding the session row (FOR UPDATE), after checking it still holds
   * the same finished search: filters and similarity sorts derived from the sets never land on a
   * set that was re-run or dropped meanwhile, and two writers of one session take turns.
   */
  async lockedSession<T>(session: ResultSession, fn: (trx: Kysely<Database>, fresh: ResultSession) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(async (trx) => {
      // The results' settings (`QUERY_SETTINGS`) made by the lock's own statement: one round trip
      // fewer on every Apply, under load each a wait for the main thread too. Set before the work
      // `fn` does (the statements after it), as SET LOCAL; without the row, nothing is done anyway.
      const locked = await trx
        .selectFrom('search_sessions')
        .selectAll()
        .select(QUERY_SETTINGS.as('query_settings'))
        .where('id', '=', session.id)
        .forUpdate()
        .executeTakeFirst();
      if (!locked || locked.status !== 'ready' || locked.set_id !== session.set_id || locked.criteria_hash !== session.criteria_hash) {
        throw new HttpError(409, {
          message: 'This search changed while its results were being read. Reload the results.',
          code: ERROR_CODES.conflict,
        });
      }
      const { query_settings: _settings, ...fresh } = locked;
      return fn(trx, fresh);
    });
  }

  /** Rows of a tab in a scope; the stored count when nothing narrows it. */
  async rowCount(tab: ResultTabKey, session: ResultSession, scope: RowScope, sets: SetSource = setTables(session.set_id)): Promise<number> {
    const narrowed =
      scope.filters.length > 0 ||
      !!scope.strIdList?.length ||
      (scope.similarity && (scope.similarity.min != null || scope.similarity.max != null));
    const stored = storedTabCount(session, tab);
    if (!narrowed && stored !== null) return stored;
    const onlyFilters = !scope.strIdList?.length && !scope.similarity;
    const filtered = filteredRowCounts(session)[tab];
    if (onlyFilters && filtered != null) return filtered;
    const { where, join } = rowScopeSql(tab, sets, scope);
    return this.withWorkMem(async (trx) => {
      const { rows } = await sql<{
        n: number;
      }>`SELECT count(*)::int AS n FROM ${TAB_MODELS[tab].from(session.set_id, tabSet(tab, sets))} ${join} WHERE ${where}`.execute(trx);
      return rows[0]?.n ?? 0;
    });
  }

  /** Filter subqueries hash sets of a few hundred thousand ids: give them memory (as the search does). */
  async withWorkMem<T>(fn: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(async (trx) => {
      await sql`SELECT ${QUERY_SETTINGS}`.execute(trx);
      return fn(trx);
    });
  }

  /**
   * The order of a page: the user's, else the similarity sort's, else (a similarity search) the
   * search's own score, most similar first, else the set's key order.
   */
  private sortOf(
    tab: ResultTabKey,
    session: ResultSession,
    request: TabRequest,
    similarity: SimilaritySort | null,
  ): { order: SortOrder; expr: Sql } {
    const model = TAB_MODELS[tab];
    const scored = hasSimilarityRow((session.criteria as SearchCriteria | null) ?? null);
    const fallback: SortOrder =
      similarity || scored ? { column: SIMILARITY_COLUMN, direction: 'desc' } : { column: model.defaultSort, direction: 'asc' };
    const order: SortOrder = request.sortOrder ?? fallback;
    if (order.column === SIMILARITY_COLUMN) {
      if (similarity) return { order, expr: sql`rs.similarity` };
      if (scored) return { order, expr: columnDef(tab, SIMILARITY_COLUMN)!.value(session.set_id) };
      throw badRequest('Sorting by similarity needs a SMILES to compare with (sortSmiles).', { field: 'sortOrder' });
    }
    const column = columnDef(tab, order.column);
    const sortable = TAB_COLUMNS[tab].filter((c) => c.sortable).map((c) => c.key);
    if (!column || !column.sortable) {
      throw badRequest(`Cannot sort the ${tabInfo(tab)!.label} tab by "${order.column}". Sortable columns: ${sortable.join(', ')}.`, {
        field: 'sortOrder',
        sortable,
      });
    }
    return { order, expr: column.value(0) };
  }

  /** A similarity sort's rows, computed (once) under the session lock; null without a SMILES. */
  private async similarity(
    session: ResultSession,
    tab: ResultTabKey,
    smiles: string | null | undefined,
    sets: SetSource,
  ): Promise<SimilaritySort | null> {
    if (!smiles) return null;
    return this.lockedSession(session, (trx) => prepareSimilaritySort(trx, this.engine, sets, tab, smiles));
  }

  /** One page of a tab (spec §7 `POST /api/results/{tab}`); null when the tab has no rows (answered 204). */
  async page(auth: AuthContext, tab: ResultTabKey, request: TabRequest): Promise<TabPage | null> {
    const definition = await this.session(auth, request.sessionid, 'definition');
    const fromMemory = await this.heldPage(tab, definition, request);
    if (fromMemory !== undefined) return fromMemory;
    const { session, sets, held } = await this.sessionAndSets(auth, request.sessionid, definition);
    const filters = sessionFilters(session)[tab];
    const similarity = await this.similarity(session, tab, request.sortSmiles, sets);
    const { order, expr } = this.sortOf(tab, session, request, similarity);
    const scope: RowScope = {
      filters,
      strIdList: request.strIdList,
      similarity: similarity ? { sort: similarity, min: request.minValue ?? null, max: request.maxValue ?? null } : null,
    };
    const rowCount = await this.rowCount(tab, session, scope, sets);
    if (rowCount === 0) return null;
    checkPageExists(rowCount, request);
    const rows = await this.pages.readPage(tab, sets, scope, expr, order, request);
    const data = held ? await this.pages.withHeldColumns(tab, held, rows) : await this.pages.withInnerGrids(tab, session.set_id, rows);
    const similaritySort = similarity
      ? { smiles: similarity.smiles, minValue: request.minValue ?? 0, maxValue: request.maxValue ?? 1 }
      : null;
    return this.pageAnswer(tab, session, request, { data, rowCount, sortOrder: order, similaritySort, filters });
  }

  /** A page's answer (spec §7), however its rows were read. */
  private async pageAnswer(
    tab: ResultTabKey,
    session: ResultSession,
    request: TabRequest,
    read: Pick<TabPage, 'data' | 'rowCount' | 'sortOrder' | 'similaritySort' | 'filters'>,
  ): Promise<TabPage> {
    return {
      tab,
      ...read,
      pageNumber: request.pageNumber,
      pageSize: request.pageSize,
      strIdNewlyAddedStatus: await newlyAdded(this.db, session),
    };
  }

  /**
   * A page from the session's sets held in memory (memory-pages.ts), its rows only its filters'
   * (result_filtered, applied to the held set): in the set's key order, a similarity search's score
   * order, or any sortable column's. Undefined when it cannot be ("go to", a similarity sort, sets
   * not in memory): the SQL path answers.
   */
  private async heldPage(tab: ResultTabKey, session: ResultSession, request: TabRequest): Promise<TabPage | null | undefined> {
    const model = TAB_MODELS[tab];
    // A similarity search's rows are in score order unless the user sorts them otherwise (`sortOf`).
    const scored = hasSimilarityRow((session.criteria as SearchCriteria | null) ?? null);
    const order: SortOrder =
      request.sortOrder ?? (scored ? { column: SIMILARITY_COLUMN, direction: 'desc' } : { column: model.defaultSort, direction: 'asc' });
    const byScore = scored && order.column === SIMILARITY_COLUMN;
    const filters = sessionFilters(session)[tab];
    const narrowed = !!request.strIdList?.length || !!request.sortSmiles;
    const columnOf = columnDef(tab, order.column);
    // Another sortable column (a similarity one only in a similarity search: `sortOf` says why not otherwise).
    if (narrowed || !columnOf?.sortable || (order.column === SIMILARITY_COLUMN && !byScore)) return undefined;
    // Unfiltered, a page reads its own tab's set (with the activities): a server recomputing the
    // session makes no other (filters may read any tab's).
    const held = await this.heldSets(session, filters.length ? 'all' : heldNeedOf(tab));
    if (!held) return undefined;
    const keeper = this.keeperOf(held);
    const subset = filters.length ? await this.pages.heldFiltered(session, held, tab, filters, keeper) : null;
    const rowCount = subset ? subset.ids.length : heldTabRows(held, tab);
    if (rowCount === 0) return null;
    checkPageExists(rowCount, request);
    const sortAll = () => this.pages.sortHeld(held, tab, order, columnOf.value(0), subset?.ids);
    const ids = await heldOrderedPage(held, tab, order, byScore, request, keeper, sortAll, subset);
    const set = heldSetRelation(held, tab, ids);
    // The relation holds the page's rows only: its first page, in the same order.
    const page = { ...request, pageNumber: 0 };
    const rows = await this.pages.readPage(tab, setTables(session.set_id), { filters: [] }, columnOf.value(0), order, page, set);
    const data = await this.pages.withHeldColumns(tab, held, rows);
    return this.pageAnswer(tab, session, request, { data, rowCount, sortOrder: order, similaritySort: null, filters });
  }

  /** Filtered row count of every tab. */
  async tabCounts(session: ResultSession, sets: SetSource = setTables(session.set_id)): Promise<Record<ResultTabKey, number>> {
    const filters = sessionFilters(session);
    const entries = [];
    for (const tab of RESULT_TAB_KEYS) entries.push([tab, await this.rowCount(tab, session, { filters: filters[tab] }, sets)] as const);
    return Object.fromEntries(entries) as Record<ResultTabKey, number>;
  }

  /** The session as the results page opens it. */
  async overview(auth: AuthContext, sessionId: string): Promise<ResultsSession> {
    // Unfiltered, every tab's count is the stored one: the sets need not be in the tables for it.
    const first = await this.session(auth, sessionId, 'definition');
    const filtered = RESULT_TAB_KEYS.some((tab) => sessionFilters(first)[tab].length > 0);
    const { session, sets } = filtered
      ? await this.sessionAndSets(auth, sessionId, first)
      : { session: first, sets: setTables(first.set_id) };
    return {
      sessionid: session.id,
      kind: session.kind === 'selection' ? 'selection' : 'search',
      status: session.status,
      summary: session.summary,
      createdAt: new Date(session.created_at).toISOString(),
      counts: sessionCounts(session),
      searchcriteria: (session.criteria as SearchCriteria | null) ?? null,
      filters: sessionFilters(session),
      tabCounts: await this.tabCounts(session, sets),
      strIdNewlyAddedStatus: await newlyAdded(this.db, session),
      structureQuery: await structureQueryOf(this.engine, (session.criteria as SearchCriteria | null) ?? null),
    };
  }

  /** Replaces a tab's filters; values that no longer exist in the search are dropped and reported. */
  async applyFilters(auth: AuthContext, tab: ResultTabKey, sessionId: string, requested: readonly AppliedFilter[]) {
    const { session, sets, held } = await this.sessionAndSets(auth, sessionId);
    // Filters evaluated in memory read the session's rows once (or not at all when the charts or
    // an earlier filter read them): for which values are in the search, then for the rows that
    // pass. The lock below refuses a set re-run meanwhile for other criteria.
    const dictionaries = filtersInMemory(tab, requested, !!held) ? await this.filtered.currentDictionaries() : null;
    const input = dictionaries ? await this.filterInput(session, held) : undefined;
    const memory = dictionaries ? { dictionaries, input } : null;
    const presence =
      dictionaries && input && filtersInMemory(tab, requested, !!input.tabIds) ? presenceInMemory(dictionaries, tab, input) : undefined;
    const { kept, ignored } = await validateFilters(this.db, tab, sets, requested, presence);
    const applied = kept.map((filter) => ({ ...filter, tab }));
    // Not for an Apply of the filters already written (answered under the lock without them).
    const unchanged = filteredRowCounts(session)[tab] !== undefined && sameFilters(sessionFilters(session)[tab], applied);
    const inMemory = unchanged ? memory : await filtersBeforeLock(tab, applied, memory);
    const { rowCount, passed } = await this.lockedSession(session, async (trx, fresh) => {
      // The other tabs' filters as they are now (another apply may have changed them meanwhile).
      const all = sessionFilters(fresh);
      const rows = { ...filteredRowCounts(fresh) };
      // The same filters again (an Apply with nothing changed): their rows are written already.
      const written = rows[tab];
      if (applied.length && written !== undefined && sameFilters(all[tab], applied)) return { rowCount: written, passed: null };
      all[tab] = applied;
      const filtered = await this.filtered.write(trx, sets, tab, applied, fresh.set_id === session.set_id ? inMemory : null);
      if (applied.length) rows[tab] = filtered.count;
      else delete rows[tab];
      await saveFilters(trx, sessionId, all, rows);
      return { rowCount: applied.length ? filtered.count : (storedTabCount(fresh, tab) ?? 0), passed: filtered.passed };
    });
    // The first page after an Apply reads the passing rows from memory, not back from result_filtered.
    if (held && passed) this.pages.keepFiltered(held, tab, applied, passed);
    const message = ignored.length
      ? `Some filter values are not in these results any more and were left out: ${ignored.map((i) => `${i.chartKey} ${i.values.join(', ')}`).join('; ')}.`
      : null;
    return { tab, filters: applied, ignored, rowCount, message };
  }

  async resetAllFilters(auth: AuthContext, sessionId: string) {
    const session = await this.session(auth, sessionId, 'definition');
    await this.lockedSession(session, async (trx, fresh) => {
      await sql`DELETE FROM result_filtered WHERE set_id = ${fresh.set_id}::bigint`.execute(trx);
      await trx.updateTable('search_sessions').set({ filters: '{}' }).where('id', '=', sessionId).execute();
    });
    return { tabCounts: await this.tabCounts({ ...session, filters: {} }) };
  }

  /**
   * The rows of an explicit selection (ticked rows, nothing else narrowing the tab) from the
   * session's sets in memory: a stand-in of the set table holding the selected rows that are in
   * the search (memory-pages.ts), so counting and exporting them reads no set table. Null: use
   * `selectionScope` over the set tables.
   */
  async heldSelectionScope(
    tab: ResultTabKey,
    session: ResultSession,
    selection: Selection | null,
    narrowing: Narrowing,
  ): Promise<{ from: Sql; join: Sql; where: Sql } | null> {
    const explicit = selection && !selection.selectAll && selection.selectedIds.length > 0;
    const narrowed = sessionFilters(session)[tab].length > 0 || !!narrowing.strIdList?.length || !!narrowing.sortSmiles;
    if (!explicit || narrowed) return null;
    const held = await this.heldSets(session, heldNeedOf(tab));
    if (!held) return null;
    const model = TAB_MODELS[tab];
    const members = heldTabMembers(held, tab, selection.selectedIds);
    return { from: model.from(session.set_id, heldSetRelation(held, tab, members)), join: sql``, where: model.where(session.set_id) };
  }

  /** Whether a tab's rows can be read from the session's sets in memory (held, or recomputed with the sets the tab needs only). */
  async holdsTab(session: ResultSession, tab: ResultTabKey): Promise<boolean> {
    return (await this.heldSets(session, heldNeedOf(tab))) !== null;
  }

  /**
   * Rows of a tab by id from the session's sets in memory, as the set table's stand-in (the export
   * writer's batches); null when they are not in memory. The Structures tab's per-row activity
   * count is given apart (its column counts the set table's rows).
   */
  async heldRowsRelation(
    tab: ResultTabKey,
    session: ResultSession,
    ids: readonly number[],
  ): Promise<{ from: Sql; structureActivities: ReadonlyMap<number, number> | null } | null> {
    const held = await this.heldSets(session, heldNeedOf(tab));
    if (!held) return null;
    return {
      from: TAB_MODELS[tab].from(session.set_id, heldSetRelation(held, tab, ids)),
      structureActivities: tab === 'structuretab' ? structureActivityCounts(held, ids) : null,
    };
  }

  /**
   * The rows a selection stands for, as SQL: `FROM from join WHERE where`. Null selection = every
   * row in scope; select all = every row the user is looking at (filters, a "go to" and a similarity
   * window narrow it) minus the unselected; otherwise the ticked ids that are rows of this tab in
   * this session (ids from elsewhere are ignored). New search by selection and exports share it.
   */
  async selectionScope(
    tab: ResultTabKey,
    session: ResultSession,
    selection: Selection | null,
    narrowing: Narrowing,
    sets: SetSource = setTables(session.set_id),
  ): Promise<{ from: Sql; join: Sql; where: Sql }> {
    const model = TAB_MODELS[tab];
    const sort =
      narrowing.sortSmiles && (narrowing.minValue != null || narrowing.maxValue != null)
        ? await this.similarity(session, tab, narrowing.sortSmiles, sets)
        : null;
    const { where, join } = rowScopeSql(tab, sets, {
      filters: sessionFilters(session)[tab],
      strIdList: narrowing.strIdList,
      similarity: sort ? { sort, min: narrowing.minValue ?? null, max: narrowing.maxValue ?? null } : null,
    });
    const from = model.from(session.set_id, tabSet(tab, sets));
    if (!selection) return { from, join, where };
    if (selection.selectAll)
      return { from, join, where: sql`${where} AND ${model.entity} <> ALL(${[...selection.unselectedIds]}::bigint[])` };
    return { from, join, where: sql`${where} AND ${model.entity} = ANY(${[...selection.selectedIds]}::bigint[])` };
  }

  /** Ids of the rows a selection stands for (at most MAX_SELECTION). */
  private async selectedIds(
    tab: ResultTabKey,
    { session, sets }: SessionSets,
    selection: Selection,
    narrowing: Narrowing,
  ): Promise<number[]> {
    if (!selection.selectAll && !selection.selectedIds.length) return [];
    const { from, join, where } = await this.selectionScope(tab, session, selection, narrowing, sets);
    const rows = await this.withWorkMem(async (trx) => {
      const result = await sql<{
        id: number;
      }>`SELECT ${TAB_MODELS[tab].entity} AS id FROM ${from} ${join} WHERE ${where} LIMIT ${MAX_SELECTION + 1}`.execute(trx);
      return result.rows;
    });
    if (rows.length > MAX_SELECTION)
      throw badRequest(`A new search can start from at most ${MAX_SELECTION.toLocaleString('en-US')} rows; filter this tab first.`, {
        max: MAX_SELECTION,
      });
    return rows.map((row) => Number(row.id));
  }

  /** Spec `newsearchby/{tab}`: the selected rows as a new search (one selection row). */
  async newSearchBy(auth: AuthContext, tab: ResultTabKey, sessionId: string, selection: Selection, narrowing: Narrowing = {}) {
    const selectedCount = selection.selectAll ? 1 : selection.selectedIds.length;
    if (selectedCount === 0) throw badRequest('Select at least one row to start a new search from.', { field: 'selection' });
    const read = await this.sessionAndSets(auth, sessionId);
    const { session } = read;
    const ids = (await this.selectedIds(tab, read, selection, narrowing)).sort((a, b) => a - b);
    if (ids.length === 0)
      throw badRequest('None of the selected rows are in these results (any more). Select rows again.', { field: 'selection' });
    const info = tabInfo(tab)!;
    const noun = ENTITY_NOUNS[info.entity];
    const label = `${ids.length.toLocaleString('en-US')} ${ids.length === 1 ? noun[0] : noun[1]} selected in ${info.label}`;
    const criteria: SearchCriteria = { rows: [{ selectedOption: 'selection', entity: info.entity, ids, label, operator: null }] };
    const from = session.summary ? ` of “${session.summary.slice(0, 200)}”` : '';
    return { searchcriteria: criteria, entity: info.entity, selected: ids.length, summary: `${label}${from}` };
  }

  /** Spec `navigation/goto`: the structures of some rows, to open another tab with (strIdList). */
  async goto(auth: AuthContext, sessionId: string, fromTab: ResultTabKey, toTab: ResultTabKey, ids: readonly number[]) {
    const { session, sets } = await this.sessionAndSets(auth, sessionId);
    const { rows } = await sql<{ str_id: number }>`${structuresOfRows(fromTab, sets, ids)} LIMIT ${MAX_SELECTION + 1}`.execute(this.db);
    if (rows.length > MAX_SELECTION)
      throw badRequest(`These rows have more than ${MAX_SELECTION.toLocaleString('en-US')} structures; choose fewer rows to go to.`, {
        field: 'ids',
      });
    const strIdList = rows.map((row) => Number(row.str_id)).sort((a, b) => a - b);
    if (!strIdList.length)
      throw badRequest('None of these rows are in these results, or they have no structure to go to.', { field: 'ids' });
    const rowCount = await this.rowCount(toTab, session, { filters: sessionFilters(session)[toTab], strIdList }, sets);
    return { tab: toTab, strIdList, rowCount };
  }

  /** Spec `navigation/viewall`: every row of a tab again (its filters still apply). */
  async viewAll(auth: AuthContext, sessionId: string, tab: ResultTabKey) {
    const { session, sets } = await this.sessionAndSets(auth, sessionId);
    return { tab, rowCount: await this.rowCount(tab, session, { filters: sessionFilters(session)[tab] }, sets) };
  }

  /** Spec `tabularview/strid/{id}` (tabular-view.ts). */
  tabularView(strId: number) {
    return tabularView(this.db, strId);
  }
}

const ENTITY_NOUNS: Record<ResultEntity, [string, string]> = {
  structure: ['structure', 'structures'],
  activity: ['activity', 'activities'],
  assay: ['assay', 'assays'],
  clinicalcompound: ['development compound', 'development compounds'],
  reference: ['reference', 'references'],
};

/** A page past the last is refused, saying which page is last (the web client moves there). */
function checkPageExists(rowCount: number, request: TabRequest): void {
  const lastPage = Math.max(0, Math.ceil(rowCount / request.pageSize) - 1);
  if (request.pageNumber <= lastPage) return;
  throw badRequest(
    `Page ${request.pageNumber + 1} is beyond the last page (${lastPage + 1}) of this tab (${rowCount} rows, ${request.pageSize} per page).`,
    { field: 'pageNumber', lastPage, rowCount },
  );
}
