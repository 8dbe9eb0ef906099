import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { AppliedFilter } from '@kb/contracts/search';
import type { ResultTabKey } from '@kb/contracts/result-tabs';
import { RESULT_TAB_KEYS } from '@kb/contracts/result-tabs';
import type { Database } from '../../db/schema.ts';
import type { DatabaseKind } from '../../db/database.ts';
import type { KbDictionaries, KbDictionaryCache } from '../knowledge-base/kb-dictionaries.ts';
import { filteredIdsQuery } from './tab-filters.ts';
import { readSetRows } from './row-values.ts';
import { filterInMemory, filtersInMemory, writeFilterOutcome } from './memory-filters.ts';
import type { FilterInput, FilterOutcome } from './memory-filters.ts';
import { filteredRowCounts, sameFilters, saveFilters, sessionFilters } from './result-sessions.ts';
import type { ResultSession } from './result-sessions.ts';
import type { SetSource } from './set-source.ts';

/**
 * Filters evaluated in memory: the dictionaries, the session's rows (else the set table's
 * activities, read in the transaction), and the outcome when it was found before the lock.
 */
export interface MemoryFilters {
  dictionaries: KbDictionaries;
  input?: FilterInput;
  found?: { filters: readonly AppliedFilter[]; outcome: FilterOutcome };
}

/**
 * The filters' outcome over rows already in memory, found before the caller takes the session's
 * lock: evaluating gives the main thread away between filters (workers/main-thread-turns.ts), and
 * a transaction held across those turns would hold the session row and a connection (PGlite's
 * only one) while other calls' computations ran. Answers `memory` as it is when there is nothing
 * to find first.
 */
export async function filtersBeforeLock(
  tab: ResultTabKey,
  filters: readonly AppliedFilter[],
  memory: MemoryFilters | null,
): Promise<MemoryFilters | null> {
  if (!memory?.input || !filters.length || !filtersInMemory(tab, filters, !!memory.input.tabIds)) return memory;
  return { ...memory, found: { filters, outcome: await filterInMemory(memory.dictionaries, tab, filters, memory.input) } };
}

/**
 * The rows of a session's filtered tabs, one packed id array per tab in result_filtered
 * (docs/results.md "Filters"): written when filters are applied, rebuilt when a crash emptied them.
 */
export class FilteredRows {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly databaseKind: DatabaseKind,
    /** Knowledge-base values in memory: filters on them are evaluated without joins (memory-filters.ts; null: in SQL). */
    private readonly dictionaries: KbDictionaryCache | null,
    /** Runs work holding the session row (ResultsService `lockedSession`). */
    private readonly lock: <T>(session: ResultSession, fn: (trx: Kysely<Database>, fresh: ResultSession) => Promise<T>) => Promise<T>,
  ) {}

  /**
   * The filtered rows of every filtered tab are in result_filtered (UNLOGGED: a database crash
   * empties it; the filters in the session row say what to rebuild). A search re-run after its sets
   * were lost keeps its filters but not their row counts (`_rows`): those are counted again here,
   * over the rebuilt sets, before any count is answered.
   */
  async ensure(session: ResultSession, sets: SetSource, memory?: () => Promise<FilterInput | null>): Promise<ResultSession> {
    const filters = sessionFilters(session);
    const rows = filteredRowCounts(session);
    let current = session;
    for (const tab of RESULT_TAB_KEYS) {
      if (!filters[tab].length) continue;
      const counted = rows[tab] !== undefined;
      if (counted && !rows[tab]) continue;
      if (counted && (await this.hasRows(this.db, session.set_id, tab))) continue;
      // Sets held in memory give their rows from memory; the set tables' are read in the transaction.
      const input = memory && filtersInMemory(tab, filters[tab], true) ? ((await memory()) ?? undefined) : undefined;
      const dictionaries = filtersInMemory(tab, filters[tab], !!input?.tabIds) ? await this.currentDictionaries() : null;
      const inMemory = await filtersBeforeLock(tab, filters[tab], dictionaries ? { dictionaries, input } : null);
      current = await this.lock(current, async (trx, fresh) => {
        const freshRows = filteredRowCounts(fresh);
        // Another request may have rebuilt them while this one waited for the lock.
        if (freshRows[tab] !== undefined && (!freshRows[tab] || (await this.hasRows(trx, fresh.set_id, tab)))) return fresh;
        const all = sessionFilters(fresh);
        const { count } = await this.write(trx, sets, tab, all[tab], inMemory);
        const next = { ...freshRows, [tab]: count };
        await saveFilters(trx, fresh.id, all, next);
        return { ...fresh, filters: { ...all, _rows: next } };
      });
    }
    return current;
  }

  private async hasRows(db: Kysely<Database>, setId: number, tab: ResultTabKey): Promise<boolean> {
    const { rows } = await sql<{
      one: number;
    }>`SELECT 1 AS one FROM result_filtered WHERE set_id = ${setId}::bigint AND tab = ${tab} LIMIT 1`.execute(db);
    return rows.length > 0;
  }

  /**
   * The dictionaries when they are current, asked before a locked transaction (on PGlite the
   * transaction holds the one connection: a query outside it would wait for it for ever).
   */
  async currentDictionaries(): Promise<KbDictionaries | null> {
    return (await this.dictionaries?.ifCurrent()) ?? null;
  }

  /**
   * Writes the rows of a tab that pass its filters (inside the caller's locked transaction);
   * answers how many, and with `memory` (current dictionaries, the filters `filtersInMemory`) the
   * ids that passed, evaluated in memory over `memory.input` (or the set table's activities).
   */
  async write(
    trx: Kysely<Database>,
    sets: SetSource,
    tab: ResultTabKey,
    filters: readonly AppliedFilter[],
    memory: MemoryFilters | null,
  ): Promise<{ count: number; passed: Int32Array | null }> {
    const setId = sets.setId;
    if (!filters.length) {
      await sql`DELETE FROM result_filtered WHERE set_id = ${setId}::bigint AND tab = ${tab}`.execute(trx);
      return { count: 0, passed: null };
    }
    // Otherwise the tab's row is replaced in place (an upsert on its key): no DELETE first.
    if (memory && filtersInMemory(tab, filters, !!memory.input?.tabIds)) {
      // Found before the lock for these very filters (another apply may have changed them since), else here.
      const found = memory.found && sameFilters(memory.found.filters, filters) ? memory.found.outcome : null;
      const outcome =
        found ??
        (await filterInMemory(
          memory.dictionaries,
          tab,
          filters,
          memory.input ?? { rows: await readSetRows(trx, setId, ['act_id']), tabIds: null },
        ));
      return { count: await writeFilterOutcome(trx, setId, tab, outcome, this.databaseKind), passed: outcome.passed };
    }
    // One packed row (migration 0029), an empty array when nothing passed (as the memory path writes).
    const { rows } = await sql<{ n: number }>`INSERT INTO result_filtered (set_id, tab, ids)
        SELECT ${setId}::bigint, ${tab}, coalesce(array_agg(f.id), '{}') FROM (${filteredIdsQuery(tab, sets, filters)}) f
      ON CONFLICT (set_id, tab) DO UPDATE SET ids = EXCLUDED.ids, complement = false
      RETURNING cardinality(ids) AS n`.execute(trx);
    return { count: rows[0]?.n ?? 0, passed: null };
  }
}

/** A filtered tab's stored rows (result_filtered): the ids that passed, or (`complement`) those that did not; null when none are stored. */
export async function storedFilteredRows(
  db: Kysely<Database>,
  setId: number,
  tab: ResultTabKey,
): Promise<{ ids: number[]; complement: boolean } | null> {
  const { rows } = await sql<{
    ids: (string | number)[];
    complement: boolean;
  }>`SELECT ids, complement FROM result_filtered WHERE set_id = ${setId}::bigint AND tab = ${tab}`.execute(db);
  const row = rows[0];
  return row ? { ids: row.ids.map(Number), complement: row.complement } : null;
}
