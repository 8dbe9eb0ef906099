import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
import type { SearchCriteriaInput } from '@kb/contracts/search';
import { RESULT_TABS } from '@kb/contracts/result-tabs';
import { demoEmailForRole } from '@kb/contracts/roles';
import { DATABASES } from '../../../test/harness.ts';
import { ApiCaller, startServerProcess } from './server-process.test-support.ts';
import type { ServerProcess } from './server-process.test-support.ts';

/**
 * Crash consistency (docs/results.md "Sessions after a crash"): the real server in a child process,
 * killed with SIGKILL between a search and its tabs and in the middle of a search, then started
 * again on the same data. Its answers after the restart must be those of before: the same counts
 * and the same row ids, never a count without rows. On PostgreSQL a killed API process leaves the
 * UNLOGGED sets alone; a crash recovery of the server empties them, which this test does by hand
 * (TRUNCATE of every UNLOGGED table: what recovery does) as it cannot crash a shared server.
 */

const KI: SearchCriteriaInput = { rows: [{ selectedOption: 'activitytypes', activities: [{ activityType: 'Ki' }] }] };
/** Slow on purpose (4-structure index shards): its run can be caught and killed half-way. */
const CARBON_PAIRS: SearchCriteriaInput = {
  rows: [{ selectedOption: 'structure', structure: { inputType: 'smarts', value: '[#6]~[#6]', category: 'substructure' } }],
};
const SLOW_ENGINE = { CHEM_SHARD_SIZE: '4' };

type Counts = Record<string, number>;
interface Snapshot {
  counts: Counts;
  tabCounts: Record<string, number>;
  ids: Record<string, number[]>;
  exportRows: number;
}

/** Every row id of every tab (all pages), the session's counts and an export's row count. */
async function snapshot(api: ApiCaller, sessionid: string): Promise<Snapshot> {
  const session = await api.get(`/api/results/session/${sessionid}`);
  expect(session.status, JSON.stringify(session.data)).toBe(200);
  const ids: Record<string, number[]> = {};
  for (const tab of RESULT_TABS) {
    ids[tab.key] = [];
    for (let pageNumber = 0; ; pageNumber++) {
      const page = await api.post(`/api/results/${tab.path}`, { sessionid, pageNumber, pageSize: 500 });
      if (page.status === 204) break;
      expect(page.status, JSON.stringify(page.data)).toBe(200);
      const rows = page.data.data as Record<string, number>[];
      ids[tab.key]!.push(...rows.map((row) => Number(row[tab.idColumn])));
      if (ids[tab.key]!.length >= (page.data.rowCount as number)) break;
    }
  }
  const exported = await api.post('/api/guidedsearch/exportdatacount', { sessionid, tab: 'activitiestab', selection: null });
  expect(exported.status, JSON.stringify(exported.data)).toBe(200);
  return {
    counts: session.data.counts as Counts,
    tabCounts: session.data.tabCounts as Record<string, number>,
    ids,
    exportRows: exported.data.rows as number,
  };
}

/** The search flow of the search page: the three log calls and the count, together. */
async function searchFlow(api: ApiCaller, sessionid: string, criteria: SearchCriteriaInput) {
  const body = { searchpostobject: criteria, sessionid };
  const [structures, activities, assays, count] = await Promise.all([
    api.post('/api/guidedsearch/lhslogs', body),
    api.post('/api/guidedsearch/activitylhslogs', body),
    api.post('/api/guidedsearch/assaysunloggedlogs', body),
    api.post('/api/guidedsearch/allresultscount', { searchcriteria: criteria, sessionid }),
  ]);
  return { structures, activities, assays, count, counts: (count.data.rows as Counts[] | undefined)?.[0] };
}

/** Waits until a session's search is under way in the database (index wait, engine search or sets). */
async function waitUntilRunning(api: ApiCaller, sessionid: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const progress = await api.get(`/api/guidedsearch/progress/${sessionid}`);
    if (progress.data.status === 'running' && progress.data.phase) return;
    if (progress.data.status === 'ready') throw new Error('The search finished before it could be caught running.');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('The search did not start.');
}

/** A fresh database on the PostgreSQL server (the server process runs migrations on it). */
async function createPgDatabase(
  url: string,
): Promise<{ url: string; admin: (statement: string) => Promise<pg.QueryResult>; drop: () => Promise<void> }> {
  const name = `kb_crash_${crypto.randomBytes(5).toString('hex')}`;
  const run = async (target: string, statement: string) => {
    const client = new pg.Client({ connectionString: target });
    await client.connect();
    try {
      return await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await run(url, `CREATE DATABASE ${name}`);
  const own = new URL(url);
  own.pathname = `/${name}`;
  return {
    url: own.toString(),
    admin: (statement) => run(own.toString(), statement),
    drop: async () => {
      await run(url, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

describe.each(DATABASES)('search sessions after a crash on %s', (kind) => {
  let dataDir: string;
  let logFile: string;
  let database: Awaited<ReturnType<typeof createPgDatabase>> | null = null;
  let server: ServerProcess | null = null;
  let alice: ApiCaller;
  let bob: ApiCaller;
  const start = async (env: Record<string, string> = {}) => {
    server = await startServerProcess({ dataDir, databaseUrl: database?.url ?? '', logFile, env: { ...SLOW_ENGINE, ...env } });
    alice.baseUrl = server.baseUrl;
    bob.baseUrl = server.baseUrl;
    return server;
  };

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kb-crash-'));
    logFile = path.join(dataDir, 'server.log');
    if (kind === 'postgres') database = await createPgDatabase(process.env.TEST_DATABASE_URL as string);
    server = await startServerProcess({
      dataDir,
      databaseUrl: database?.url ?? '',
      logFile,
      env: { ...SLOW_ENGINE, E2E_DEMO_CHUNKS: '1' },
    });
    alice = await ApiCaller.login(server.baseUrl, demoEmailForRole('FULL_USER'));
    bob = await ApiCaller.login(server.baseUrl, demoEmailForRole('EVALUATE_USER'));
  }, 240_000);

  afterAll(async () => {
    await server?.stop();
    await database?.drop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('answers 403 to another user posting a session id whose search is running, and never its counts', async () => {
    const sessionid = crypto.randomUUID();
    const running = searchFlow(alice, sessionid, CARBON_PAIRS);
    await waitUntilRunning(alice, sessionid);
    const theirs = await searchFlow(bob, sessionid, CARBON_PAIRS);
    for (const answer of [theirs.structures, theirs.activities, theirs.assays, theirs.count]) {
      expect(answer.status).toBe(403);
      expect(answer.data.rows).toBeUndefined();
      expect(answer.data.message).toMatch(/another user/);
    }
    expect((await bob.get(`/api/guidedsearch/progress/${sessionid}`)).status).toBe(403);
    expect((await bob.post(`/api/guidedsearch/cancel/${sessionid}`)).status).toBe(403);
    expect((await bob.get(`/api/results/session/${sessionid}`)).status).toBe(403);
    const mine = await running;
    expect(mine.count.status, JSON.stringify(mine.count.data)).toBe(200);
    expect(mine.counts!.stridscount).toBeGreaterThan(0);
  }, 90_000);

  it('answers the same counts and rows after a kill -9 between the search and its tabs', async () => {
    const sessionid = crypto.randomUUID();
    const flow = await searchFlow(alice, sessionid, KI);
    expect(flow.count.status, JSON.stringify(flow.count.data)).toBe(200);
    // A filter on the Activities tab, kept across the crash (its rows are derived from the sets).
    const chart = await alice.post('/api/results/chart', { sessionid, type: 'activitiestab', charttype: 'assaytype', maxCount: 50 });
    const picked = (chart.data.chartData as { id: string; count: number }[]).find((item) => item.id !== '__none__')!;
    const applied = await alice.post('/api/results/applyfilters/activitiestab', {
      sessionid,
      filters: [{ chartKey: 'assaytype', include: [picked.id] }],
    });
    expect(applied.status, JSON.stringify(applied.data)).toBe(200);
    const before = await snapshot(alice, sessionid);
    expect(before.ids.activitiestab).toHaveLength(picked.count);
    expect(before.exportRows).toBe(picked.count);
    expect(before.ids.structuretab).toHaveLength(flow.counts!.stridscount!);

    await server!.kill9();
    if (kind === 'pglite') {
      // What PGlite itself does: reopened after the kill, the UNLOGGED tables are empty and the
      // (logged) session row still says ready. This open runs that recovery; the server finds it done.
      const db = await PGlite.create({ dataDir: path.join(dataDir, 'db') });
      const { rows } = await db.query<{ status: string; activities: number; marks: number; filtered: number }>(
        `SELECT s.status, (SELECT count(*)::int FROM search_activities) AS activities, (SELECT count(*)::int FROM search_set_marks) AS marks,
          (SELECT count(*)::int FROM result_filtered) AS filtered FROM search_sessions s WHERE s.id = $1`,
        [sessionid],
      );
      await db.close();
      expect(rows[0]).toEqual({ status: 'ready', activities: 0, marks: 0, filtered: 0 });
    } else {
      // A killed API process leaves PostgreSQL's UNLOGGED tables alone; a crash of the database
      // server empties them in recovery. Do exactly that to every one of them.
      const { rows } = await database!.admin(`SELECT string_agg(quote_ident(relname), ', ') AS names FROM pg_class
        WHERE relkind = 'r' AND relpersistence = 'u' AND relnamespace = 'public'::regnamespace`);
      expect(rows[0].names).toContain('search_set_marks');
      await database!.admin(`TRUNCATE ${rows[0].names as string}`);
    }

    await start();
    // The tabs first, as a browser left open on the results would ask.
    const after = await snapshot(alice, sessionid);
    expect(after).toEqual(before);
    // The same criteria again in the same session: the same counts, not zeros.
    const again = await searchFlow(alice, sessionid, KI);
    expect(again.counts).toEqual(flow.counts);
    expect(again.activities.data.rows).toBe(flow.activities.data.rows);
    // The server holds sets in memory (SEARCH_SETS=memory): the new process recomputed them from
    // the session's definition — the answers above are the same — and wrote no set table for them.
    if (kind === 'postgres') {
      const { rows } = await database!.admin(
        `SELECT m.written_at FROM search_set_marks m JOIN search_sessions s ON s.set_id = m.set_id WHERE s.id = '${sessionid}'`,
      );
      expect(rows).toHaveLength(0);
    }
  }, 240_000);

  it('re-runs a search killed while it ran, with the counts it should have had', async () => {
    const sessionid = crypto.randomUUID();
    const flow = searchFlow(alice, sessionid, CARBON_PAIRS);
    // Errors of the calls cut off by the kill are expected; keep them from going unhandled.
    flow.catch(() => undefined);
    await waitUntilRunning(alice, sessionid);
    await server!.kill9();
    if (kind === 'postgres') {
      const { rows } = await database!.admin(`SELECT status FROM search_sessions WHERE id = '${sessionid}'`);
      expect(rows[0].status).toBe('running');
    }

    await start();
    const expected = await alice.post('/api/guidedsearch/count', { searchcriteria: CARBON_PAIRS });
    expect(expected.status).toBe(200);
    const five = (expected.data.rows as Counts[])[0]!;
    // The results page opened on the dead run: it waits for the re-run and shows its rows.
    const session = await alice.get(`/api/results/session/${sessionid}`);
    expect(session.status, JSON.stringify(session.data)).toBe(200);
    expect(session.data.counts).toMatchObject(five);
    const structures = await alice.post('/api/results/structuretab', { sessionid, pageSize: 500, pageNumber: 0 });
    expect(structures.data.rowCount).toBe(five.stridscount);
    if (kind === 'postgres') {
      // The dead run taken up by the new process is held in memory like any run: no set written.
      const { rows } = await database!.admin(
        `SELECT count(*)::int AS n FROM search_set_marks m JOIN search_sessions s ON s.set_id = m.set_id WHERE s.id = '${sessionid}'`,
      );
      expect(rows[0].n).toBe(0);
    }
    // And the search page running it again in the same session gets the same counts.
    const again = await searchFlow(alice, sessionid, CARBON_PAIRS);
    expect(again.count.status).toBe(200);
    expect(again.counts).toMatchObject(five);
  }, 240_000);
});
