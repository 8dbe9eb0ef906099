import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { SearchCriteriaInput } from '@kb/contracts/search';
import { demoEmailForRole } from '@kb/contracts/roles';
import { DATABASES, authHeaders, startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { readSessionRows, readSetRows } from './row-values.ts';
import type { SessionRows } from './row-values.ts';
import { SessionRowsCache } from './session-rows.ts';

/**
 * Sessions' rows kept in memory (session-rows.ts) are the rows of the set as last written: the
 * same as a read of the table, kept while the set's mark stands, read again once the session is
 * re-run into the same set, never kept for a set without a mark, and bounded by the budget.
 */
const KI: SearchCriteriaInput = { rows: [{ selectedOption: 'activitytypes', activities: [{ activityType: 'Ki' }] }] };
const IC50: SearchCriteriaInput = { rows: [{ selectedOption: 'activitytypes', activities: [{ activityType: 'IC50' }] }] };

/** Rows as sorted "act str assay ref target" tuples, to compare whatever the read order. */
function tuples(rows: SessionRows): string[] {
  const out: string[] = [];
  for (let k = 0; k < rows.count; k++) out.push(`${rows.act![k]} ${rows.str![k]} ${rows.assay[k]} ${rows.ref[k]} ${rows.target[k]}`);
  return out.sort();
}

describe.each(DATABASES)('Session rows held in memory on %s', (kind) => {
  let t: TestApp;
  let headers: Record<string, string>;
  const sessions = { ki: crypto.randomUUID(), other: crypto.randomUUID() };
  const setIds: Record<keyof typeof sessions, number> = { ki: 0, other: 0 };

  async function run(sessionid: string, searchcriteria: SearchCriteriaInput): Promise<number> {
    const response = await t.call({
      method: 'POST',
      url: '/api/guidedsearch/allresultscount',
      headers,
      payload: { searchcriteria, sessionid },
    });
    expect(response.statusCode, response.body).toBe(200);
    return Number(
      (await t.database.db.selectFrom('search_sessions').select('set_id').where('id', '=', sessionid).executeTakeFirstOrThrow()).set_id,
    );
  }

  const fromTable = async (setId: number) =>
    tuples(await readSessionRows(t.database.db, sql`sa.set_id = ${setId}::bigint`, ['act_id', 'str_id']));

  beforeAll(async () => {
    // The rows of the set tables: sets written with every run (sets held in memory: set-parity.api.test.ts).
    t = await startTestApp(kind, { SEARCH_SETS: 'tables' }, { demoChunks: 2 });
    headers = authHeaders(await t.login(demoEmailForRole('FULL_USER')));
    setIds.ki = await run(sessions.ki, KI);
    setIds.other = await run(sessions.other, IC50);
    // The demo seed's load ended, as a finished seed leaves it: charts count in memory only then.
    await sql`UPDATE kb_loads SET status = 'complete', finished_at = now() WHERE status = 'running'`.execute(t.database.db);
    await t.app.services.kbDictionaries!.current();
  }, 600_000);
  afterAll(() => t?.close());

  it('reads a set through its index, alone, and leaves the settings of the caller as they were', async () => {
    const all = await fromTable(setIds.ki);
    const read = await readSetRows(t.database.db, setIds.ki, ['act_id', 'str_id']);
    expect(tuples(read)).toEqual(all);
    const mid = Number(read.act![Math.floor(read.count / 2)]);
    const halves = [
      await readSetRows(t.database.db, setIds.ki, ['act_id', 'str_id'], { upTo: mid }),
      await readSetRows(t.database.db, setIds.ki, ['act_id', 'str_id'], { above: mid }),
    ];
    expect([...tuples(halves[0]!), ...tuples(halves[1]!)].sort()).toEqual(all);
    // Inside a caller's transaction: set for the read, then back to what the caller had.
    const settings = await t.database.db.transaction().execute(async (trx) => {
      await sql`SET LOCAL max_parallel_workers_per_gather = 1`.execute(trx);
      const during = await readSetRows(trx, setIds.ki, ['act_id']);
      const { rows } = await sql<{
        seq: string;
        par: string;
      }>`SELECT current_setting('enable_seqscan') AS seq, current_setting('max_parallel_workers_per_gather') AS par`.execute(trx);
      return { count: during.count, ...rows[0]! };
    });
    expect(settings).toEqual({ count: read.count, seq: 'on', par: '1' });
    // Outside one: only for the read's own transaction.
    const { rows } = await sql<{ seq: string }>`SELECT current_setting('enable_seqscan') AS seq`.execute(t.database.db);
    expect(rows[0]?.seq).toBe('on');
  });

  it('answers the rows of the table and keeps them while the set stands', async () => {
    const cache = new SessionRowsCache(t.database.db, kind);
    const first = await cache.rows(setIds.ki);
    expect(first.count).toBeGreaterThan(100);
    expect(tuples(first)).toEqual(await fromTable(setIds.ki));
    expect(await cache.rows(setIds.ki), 'held').toBe(first);
    expect(cache.heldBytes).toBe(first.count * 20);
  });

  it('reads the set again once its session was re-run into it', async () => {
    const cache = new SessionRowsCache(t.database.db, kind);
    const before = await cache.rows(setIds.ki);
    const setId = await run(sessions.ki, IC50);
    expect(setId, 'a re-run writes the same set').toBe(setIds.ki);
    const after = await cache.rows(setId);
    expect(after).not.toBe(before);
    expect(tuples(after)).toEqual(await fromTable(setId));
    expect(tuples(after)).not.toEqual(tuples(before));
    expect(cache.heldBytes).toBe(after.count * 20);
    await run(sessions.ki, KI);
  }, 120_000);

  it('does not keep the rows of a set without its mark', async () => {
    const cache = new SessionRowsCache(t.database.db, kind);
    const { rows: marks } = await sql<{
      criteria_hash: string;
    }>`DELETE FROM search_set_marks WHERE set_id = ${setIds.other} RETURNING criteria_hash`.execute(t.database.db);
    try {
      const first = await cache.rows(setIds.other);
      expect(tuples(first)).toEqual(await fromTable(setIds.other));
      expect(await cache.rows(setIds.other)).not.toBe(first);
      expect(cache.heldBytes).toBe(0);
    } finally {
      await sql`INSERT INTO search_set_marks (set_id, criteria_hash) VALUES (${setIds.other}, ${marks[0]!.criteria_hash})`.execute(
        t.database.db,
      );
    }
  });

  it('holds no more than its budget, the least recently used set going first', async () => {
    const probe = new SessionRowsCache(t.database.db, kind);
    const ki = (await probe.rows(setIds.ki)).count * 20;
    const other = (await probe.rows(setIds.other)).count * 20;
    const cache = new SessionRowsCache(t.database.db, kind, Math.max(ki, other));
    const kiRows = await cache.rows(setIds.ki);
    await cache.rows(setIds.other);
    expect(cache.heldBytes).toBe(other);
    expect(await cache.rows(setIds.ki), 'evicted, read again').not.toBe(kiRows);
    expect(cache.heldBytes).toBe(ki);
  });

  it('holds the rows a search run wrote from the bitmaps, without reading them back', async () => {
    const service = t.app.services.results;
    service.sessionRows.clear();
    const early = t.app.services.search.countPaths.early;
    const setId = await run(sessions.other, KI);
    expect(t.app.services.search.countPaths.early, 'the run wrote its sets from the bitmaps').toBeGreaterThan(early);
    expect(service.sessionRows.heldBytes).toBeGreaterThan(0);
    const table = await fromTable(setId);
    // The table changes behind the held rows' back: what comes back was held, not read.
    await sql`UPDATE search_activities SET ref_id = NULL WHERE set_id = ${setId}`.execute(t.database.db);
    expect(tuples(await service.sessionRows.rows(setId))).toEqual(table);
    setIds.other = await run(sessions.other, IC50);
  }, 120_000);

  it('the unfiltered Activities charts fill the results service’s rows, which a filter then reads', async () => {
    const service = t.app.services.results;
    service.sessionRows.clear();
    const chart = await t.call({
      method: 'POST',
      url: '/api/results/chart',
      headers,
      payload: {
        sessionid: sessions.other,
        type: 'activitiestab',
        charttype: 'assaytype',
        sortType: 'count',
        sortOrder: 'desc',
        maxCount: 10,
      },
    });
    expect(chart.statusCode, chart.body).toBe(200);
    const held = service.sessionRows.heldBytes;
    expect(held).toBeGreaterThan(0);
    const type = (JSON.parse(chart.body) as { chartData: { id: string; count: number }[] }).chartData[0]!;
    // The table's rows lose their assays behind the held rows' back: only a filter that reads the
    // held rows still finds the assay type (the mark stands, as nothing but a re-run changes a set).
    await sql`UPDATE search_activities SET assay_id = NULL WHERE set_id = ${setIds.other}`.execute(t.database.db);
    const applied = await t.call({
      method: 'POST',
      url: '/api/results/applyfilters/activitiestab',
      headers,
      payload: { sessionid: sessions.other, filters: [{ chartKey: 'assaytype', include: [type.id] }] },
    });
    expect(applied.statusCode, applied.body).toBe(200);
    expect((JSON.parse(applied.body) as { rowCount: number }).rowCount).toBe(type.count);
    expect(service.sessionRows.heldBytes).toBe(held);
    setIds.other = await run(sessions.other, IC50);
  }, 120_000);
});
