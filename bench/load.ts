/**
 * `npm run bench -- load [-- --database-url URL] [--seconds 300] [--users 20] [--data-dir DIR] [--mix S|L]`
 *
 * A crowd against the real server (issue "hardening"): `--users` simulated users on three accounts
 * mix guided searches (some with structure rows), structure previews, paging, filters (a chart's
 * top value applied, the first page read, then cleared), charts and small exports for `--seconds`, while a probe calls `/api/health` every 200 ms and logs in every 1.2 s
 * (under the per-address ceiling of 60 public account calls a minute), in a worker thread of its
 * own so that its figures are the server's and not the time this thread spends reading the crowd's
 * answers (whose event-loop delay the result reports too). The same probe first runs alone for 20 s: the reference the loaded figures are compared with
 * (ratios, since machines are noisy). Prints one line and writes bench/results/load-*.json.
 *
 * The server is started by this script on a free port (as the browser suite does): embedded PGlite
 * in `--data-dir` (default: a fresh temporary one, seeded with demo S on first start; pass a kept
 * directory to seed once) or the PostgreSQL database named by `--database-url` (created and seeded
 * with demo S when empty).
 *
 * `--accounts N` (issue 39): the crowd on N accounts instead of the three demo ones. With N above 3
 * the script adds `load-user-<i>@demo.test` accounts to the database (a copy of the demo full user:
 * same password, role and end date, and its credits again at each run; needs `--database-url`), so that twenty users are twenty people
 * and the per-user admission limits (2 searches at once per account) do not queue seven people
 * behind one account's searches.
 *
 * `--think S` (issue 62): each user pauses 0.5–1.5 × S seconds between two actions (users start
 * spread over one pause), as people read a page before the next: `--users 100 --think 10
 * --accounts 100` is the hundred-user mix. The crowd logs in 50 accounts a minute.
 *
 * `--server-cpu-prof DIR` writes a V8 CPU profile of the server's main thread (whole run) into DIR;
 * the server's resident memory and its peak are reported. The crowd starts once `GET /api/health/ready` answers 200, as a load balancer would send users.
 *
 * `--mix L` (issue 18, for a large knowledge base such as demo L): searches that stay under the
 * activity cap at ChEMBL size, with targets read from the database — a target with an activity
 * ceiling, a Ki range, a target NOT a mechanism, recent patents with Ki, launched compounds,
 * degraders, agonists in functional assays, properties with IC50; structure searches that are
 * selective (< 1 % of structures) or similarity ≥ 0.7 — instead of the S mix, whose whole-type
 * searches (every IC50) pass the activity cap at L and are refused.
 */
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import pg from 'pg';
import type { ReadinessResponse } from '@kb/contracts/health';
import { PRODUCT_SLUG } from '@kb/contracts/auth';
import { DEMO_PASSWORD } from '@kb/contracts/roles';
import { AUTH_HEADERS } from '@kb/contracts/session';
import { freePort } from '../apps/server/test/server-process.ts';
import { setRowsWritten } from './support/load-writes.ts';
import { summary, thinkTime, writeResult } from './support/bench-kit.ts';
import { sampleLanes } from './support/lane-sampler.ts';
import { processMemory } from './support/process-memory.ts';
import { largeMix } from './support/large-mix.ts';

const REPO = path.resolve(import.meta.dirname, '..');

function arg(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : undefined;
}
const databaseUrl = arg('database-url');
const seconds = Number(arg('seconds') ?? 300);
const users = Number(arg('users') ?? 20);
const referenceSeconds = Number(arg('reference-seconds') ?? 20);
const mix = arg('mix') === 'L' ? 'L' : 'S';
const DEMO_ACCOUNTS = ['full-user@demo.test', 'download-evaluator@demo.test', 'evaluate-user@demo.test'];
const accountCount = Math.max(1, Number(arg('accounts') ?? DEMO_ACCOUNTS.length));
/** Mean pause of a user between two actions (0: none, every user acts back to back). */
const thinkSeconds = Math.max(0, Number(arg('think') ?? 0));
/** Crowd logins per minute: under the per-address ceiling of 60 account calls a minute (all users share 127.0.0.1). */
const LOGINS_PER_MINUTE = 50;

// ------------------------------------------------------------------ the server

async function ensureDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = target.pathname.slice(1);
  const admin = new pg.Client({ connectionString: Object.assign(new URL(url), { pathname: '/postgres' }).toString() });
  await admin.connect();
  const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
  if (!rowCount) await admin.query(`CREATE DATABASE "${name.replace(/"/g, '')}"`);
  await admin.end();
}

async function startServer(): Promise<{ baseUrl: string; stop: () => Promise<void>; logFile: string; pid?: number }> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const dataDir = arg('data-dir') ?? fs.mkdtempSync(path.join(os.tmpdir(), 'kb-load-'));
  fs.mkdirSync(dataDir, { recursive: true });
  const logFile = path.join(dataDir, 'server.log');
  if (databaseUrl) await ensureDatabase(databaseUrl);
  const log = fs.openSync(logFile, 'a');
  // `--server-cpu-prof DIR`: the server's main thread profiled (V8, written when it stops) to see what a crowd costs it.
  const profileDir = arg('server-cpu-prof');
  const profile = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(profileDir)}`] : [];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', path.join(REPO, 'apps/server/src/main.ts')], {
    cwd: REPO,
    stdio: ['ignore', log, log],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl ?? '',
      SEED_DEMO: 'true',
      DEMO_DATA_SIZE: 'S',
      LOG_LEVEL: 'warn',
      JWT_SECRET: crypto.randomBytes(32).toString('base64url'),
    },
  });
  fs.closeSync(log);
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  };
  // Ready when the demo knowledge base is seeded (S: 11,000 structures), or at once on an imported
  // ChEMBL release (dataset "chembl:…", nothing to seed); the structure index is waited for below.
  const deadline = Date.now() + 15 * 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The server exited; see ${logFile}`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`The server was not ready within 15 minutes; see ${logFile}`);
    }
    try {
      const health = (await (await fetch(`${baseUrl}/api/health`)).json()) as { dataset: { structures: number; label: string } };
      const seeded =
        fs.readFileSync(logFile, 'utf8').includes('Demo knowledge base') ||
        health.dataset.structures >= 11_000 ||
        health.dataset.label.startsWith('chembl:');
      if (seeded && health.dataset.structures > 0) break;
    } catch {
      // not listening yet
    }
    await sleep(1000);
  }
  return { baseUrl, stop, logFile, pid: child.pid };
}

/**
 * The crowd's accounts: the demo ones, then copies of the demo full user (its password hash, role,
 * contract and end date) added to the database when more are asked for.
 */
async function crowdAccounts(): Promise<string[]> {
  if (accountCount <= DEMO_ACCOUNTS.length) return DEMO_ACCOUNTS.slice(0, accountCount);
  if (!databaseUrl) throw new Error('--accounts above 3 adds accounts to the database: pass --database-url');
  const emails = Array.from({ length: accountCount }, (_, i) => `load-user-${i + 1}@demo.test`);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(
      `INSERT INTO users (email, password_hash, first_name, last_name, active, is_new_user, credit_balance, created_at, password_changed_at)
       SELECT e, u.password_hash, 'Load', 'User', true, false, u.credit_balance, now(), now() FROM users u, unnest($1::text[]) AS e
       WHERE u.email = 'full-user@demo.test'
       ON CONFLICT (email) DO UPDATE SET credit_balance = EXCLUDED.credit_balance`,
      [emails],
    );
    await client.query(
      `INSERT INTO subscriptions (user_id, role_name, contract_id, end_date, start_date, created_at)
       SELECT n.id, s.role_name, s.contract_id, s.end_date, s.start_date, now()
       FROM users n JOIN users u ON u.email = 'full-user@demo.test' JOIN subscriptions s ON s.user_id = u.id
       WHERE n.email = ANY($1::text[]) AND NOT EXISTS (SELECT 1 FROM subscriptions x WHERE x.user_id = n.id)`,
      [emails],
    );
  } finally {
    await client.end();
  }
  return emails;
}

// ------------------------------------------------------------------ a client

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits (at most 15 minutes) for `GET /api/health/ready` to answer 200; returns what each part took. */
async function serverReady(baseUrl: string): Promise<string> {
  const deadline = Date.now() + 15 * 60_000;
  for (;;) {
    const response = await fetch(`${baseUrl}/api/health/ready`);
    const body = (await response.json()) as ReadinessResponse;
    const parts = body.parts.map((part) => `${part.name} ${part.state} ${part.seconds} s`).join(', ');
    if (response.status === 200) return parts;
    if (Date.now() > deadline) throw new Error(`The server was not ready within 15 minutes: ${parts}`);
    await sleep(1000);
  }
}

class Client {
  constructor(
    readonly baseUrl: string,
    private headers: Record<string, string> = {},
  ) {}

  static async login(baseUrl: string, email: string): Promise<Client> {
    const client = new Client(baseUrl);
    const answer = (await client.post(`/api/pub/${PRODUCT_SLUG}/generate-token`, { username: email, password: DEMO_PASSWORD })) as {
      token: string;
      nodeToken: string;
    };
    client.headers = {
      [AUTH_HEADERS.mainToken]: `Bearer ${answer.token}`,
      [AUTH_HEADERS.nodeToken]: `Bearer ${answer.nodeToken}`,
      [AUTH_HEADERS.email]: email,
    };
    return client;
  }

  async request(method: 'GET' | 'POST', url: string, body?: unknown): Promise<unknown> {
    const response = await fetch(this.baseUrl + url, {
      method,
      headers: { ...this.headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(180_000),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${url} → ${response.status} ${text.slice(0, 300)}`);
    return text && response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text;
  }

  post(url: string, body: unknown) {
    return this.request('POST', url, body);
  }

  get(url: string) {
    return this.request('GET', url);
  }
}

// ------------------------------------------------------------------ what users do

type Kind = 'search' | 'structureSearch' | 'preview' | 'page' | 'filter' | 'chart' | 'export' | 'health' | 'login';
const timings = new Map<Kind, number[]>();
const errors = new Map<Kind, string[]>();

async function timed<T>(kind: Kind, work: () => Promise<T>): Promise<T | undefined> {
  const started = performance.now();
  try {
    const value = await work();
    (timings.get(kind) ?? timings.set(kind, []).get(kind)!).push(performance.now() - started);
    return value;
  } catch (error) {
    (errors.get(kind) ?? errors.set(kind, []).get(kind)!).push(error instanceof Error ? error.message : String(error));
    // A person reads an error before trying again (and a failing server is not hammered in a loop).
    await sleep(1000);
    return undefined;
  }
}

let GUIDED: unknown[] = [
  { rows: [{ selectedOption: 'activitytypes', activities: [{ activityType: 'IC50' }] }] },
  { rows: [{ selectedOption: 'activitytypes', activities: [{ activityType: 'Ki' }] }] },
  { rows: [{ selectedOption: 'activitytypes', activities: [{ activityType: 'IC50', activityUom: 'uM', prefix: '<=', minValue: 1 }] }] },
  {
    rows: [
      { selectedOption: 'activitytypes', activities: [{ activityType: 'IC50' }], operator: 'NOT' },
      { selectedOption: 'activitytypes', activities: [{ activityType: 'Ki' }] },
    ],
  },
];
let STRUCTURES: unknown[] = [
  { rows: [{ selectedOption: 'structure', structure: { inputType: 'smiles', value: 'c1ccccc1', category: 'substructure' } }] },
  { rows: [{ selectedOption: 'structure', structure: { inputType: 'smiles', value: 'c1ccncc1', category: 'substructure' } }] },
  {
    rows: [
      {
        selectedOption: 'structure',
        structure: { inputType: 'smiles', value: 'CC(=O)Nc1ccc(O)cc1', category: 'similarity', similarityMin: 0.3 },
      },
    ],
  },
];

const PREVIEWS = [
  { inputType: 'smiles', value: 'c1ccccc1', category: 'substructure', limit: 12 },
  { inputType: 'smarts', value: '[$(c1ccccc1)]-[$(c1ccncc1)]', category: 'substructure', limit: 12 },
  { inputType: 'smiles', value: 'CC(=O)Nc1ccc(O)cc1', category: 'similarity', similarityMin: 0.4, limit: 12 },
  { inputType: 'smiles', value: 'C1CCNCC1', category: 'substructure', limit: 12 },
];
const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)]!;

interface UserState {
  client: Client;
  canExport: boolean;
  session: string | null;
  /** Rows of each tab of each session, as the last page said. */
  rowCounts: Map<string, number>;
}

async function runSearch(user: UserState, criteria: unknown, kind: Kind): Promise<void> {
  const sessionid = crypto.randomUUID();
  // The web's search: the count and the three log calls together, as spec §4 has it.
  const done = await timed(kind, () =>
    Promise.all([
      user.client.post('/api/guidedsearch/allresultscount', { searchcriteria: criteria, sessionid }),
      user.client.post('/api/guidedsearch/lhslogs', { searchpostobject: criteria, sessionid }),
      user.client.post('/api/guidedsearch/activitylhslogs', { searchpostobject: criteria, sessionid }),
      user.client.post('/api/guidedsearch/assaysunloggedlogs', { searchpostobject: criteria, sessionid }),
    ]),
  );
  if (done) user.session = sessionid;
}

async function act(user: UserState): Promise<void> {
  const roll = Math.random();
  if (!user.session || roll < 0.2) return runSearch(user, pick(GUIDED), 'search');
  if (roll < 0.3) return runSearch(user, pick(STRUCTURES), 'structureSearch');
  if (roll < 0.5) {
    await timed('preview', () => user.client.post('/api/guidedsearch/structures/by/smilessmarts', pick(PREVIEWS)));
    return;
  }
  if (roll < 0.75) {
    const tab = pick(['structuretab', 'activitiestab', 'assaytab']);
    // A page that exists: the first, or a later one of the rows this tab had last time.
    const rows = user.rowCounts.get(`${user.session}:${tab}`) ?? 0;
    const pageNumber = Math.floor(Math.random() * Math.min(5, Math.ceil(rows / 50)));
    const answer = (await timed('page', () =>
      user.client.post(`/api/results/${tab}`, { sessionid: user.session, pageNumber, pageSize: 50 }),
    )) as { rowCount?: number } | undefined;
    if (answer?.rowCount !== undefined) user.rowCounts.set(`${user.session}:${tab}`, answer.rowCount);
    return;
  }
  if (roll < 0.82) return filterTab(user);
  if (roll < 0.92 || !user.canExport) {
    const chart = pick(['activitytype', 'year', 'target', 'assaytype', 'bibliography']);
    await timed('chart', () =>
      user.client.post('/api/results/chart', { sessionid: user.session, type: 'activitiestab', charttype: chart, maxCount: 50 }),
    );
    return;
  }
  await timed('export', async () => {
    const page = (await user.client.post('/api/results/activitiestab', { sessionid: user.session, pageNumber: 0, pageSize: 5 })) as {
      data?: { act_id?: number }[];
    };
    const ids = (page.data ?? []).map((r) => r.act_id).filter((id): id is number => typeof id === 'number');
    if (ids.length === 0) return;
    const job = (await user.client.post('/api/export/start', {
      sessionid: user.session,
      tab: 'activitiestab',
      selection: { selectedIds: ids },
      format: 'csv',
      columns: ['act_id'],
    })) as { fileId: number | null; status: string };
    if (job.fileId) await user.client.post('/api/dashboard/downloadfile', { fileId: job.fileId });
  });
}

/**
 * A filter as the web applies one: the tab's chart read first (not timed: it is the chart kind's),
 * its most frequent value applied, the tab's first page read — the user's wait, timed as one —
 * then the filter cleared again (not timed) so the session's other pages stay unfiltered.
 */
async function filterTab(user: UserState): Promise<void> {
  const [tab, chartKey] = pick([
    ['activitiestab', 'assaytype'],
    ['activitiestab', 'target'],
    ['structuretab', 'target'],
    ['assaytab', 'organism'],
  ] as const);
  const chart = (await user.client
    .post('/api/results/chart', { sessionid: user.session, type: tab, charttype: chartKey, maxCount: 10 })
    .catch(() => null)) as { chartData?: { id: string | number }[] } | null;
  const value = chart?.chartData?.[0]?.id;
  if (value === undefined) return;
  await timed('filter', async () => {
    await user.client.post(`/api/results/applyfilters/${tab}`, { sessionid: user.session, filters: [{ chartKey, include: [value] }] });
    await user.client.post(`/api/results/${tab}`, { sessionid: user.session, pageNumber: 0, pageSize: 50 });
  });
  await user.client.post(`/api/results/applyfilters/${tab}`, { sessionid: user.session, filters: [] }).catch(() => null);
}

/**
 * Health every 200 ms, a login every 1.2 s, until `until`, in a worker thread of its own
 * (bench/support/load-probe.mjs): the crowd's answers are read on this thread, and would otherwise
 * be counted in the probe's figures.
 */
async function probe(baseUrl: string, until: number): Promise<void> {
  const worker = new Worker(new URL('./support/load-probe.mjs', import.meta.url), {
    workerData: {
      baseUrl,
      until,
      loginPath: `/api/pub/${PRODUCT_SLUG}/generate-token`,
      username: 'partial-user@demo.test',
      password: DEMO_PASSWORD,
    },
  });
  const answer = await new Promise<{ timings: Record<'health' | 'login', number[]>; errors: Record<'health' | 'login', string[]> }>(
    (resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    },
  );
  await worker.terminate();
  for (const kind of ['health', 'login'] as const) {
    (timings.get(kind) ?? timings.set(kind, []).get(kind)!).push(...answer.timings[kind]);
    (errors.get(kind) ?? errors.set(kind, []).get(kind)!).push(...answer.errors[kind]);
  }
}

function figures(kind: Kind) {
  return { ...summary(timings.get(kind) ?? []), errors: errors.get(kind)?.length ?? 0 };
}

// ------------------------------------------------------------------ the run

if (mix === 'L') {
  if (!databaseUrl) throw new Error('--mix L reads its searches from the database: pass --database-url');
  ({ guided: GUIDED, structures: STRUCTURES } = await largeMix(databaseUrl));
}
const server = await startServer();
try {
  // The crowd starts once the server is ready (`GET /api/health/ready`: search columns, chart
  // dictionaries, structure index and its frequent fragments, target prediction), as a load balancer
  // would send it users, so that the reference probe runs on an idle server.
  const startedAt = Date.now();
  // The crowd logs in first: its logins and the probe's (50 a minute) share the per-address ceiling
  // of 60 account calls a minute, so the probe starts in the next minute (below).
  const accounts = await crowdAccounts();
  const clients: Client[] = [];
  let minuteStarted = Date.now();
  for (const [i, email] of accounts.entries()) {
    if (i > 0 && i % LOGINS_PER_MINUTE === 0) {
      await sleep(Math.max(0, minuteStarted + 61_000 - Date.now()));
      minuteStarted = Date.now();
    }
    clients.push(await Client.login(server.baseUrl, email));
  }
  const readiness = await serverReady(server.baseUrl);
  const readySeconds = Math.round((Date.now() - startedAt) / 1000);
  console.error(`server ready at ${server.baseUrl} after ${readySeconds} s (${readiness}); reference probe for ${referenceSeconds} s`);
  await sleep(Math.max(0, minuteStarted + 61_000 - Date.now()));
  await probe(server.baseUrl, Date.now() + referenceSeconds * 1000);
  const reference = { health: figures('health'), login: figures('login') };
  timings.clear();
  errors.clear();

  console.error(`${users} users on ${accounts.length} accounts for ${seconds} s`);
  const until = Date.now() + seconds * 1000;
  // How late this thread (the crowd's clients) ran its callbacks: what the crowd's own figures include besides the server.
  const benchLoop = monitorEventLoopDelay({ resolution: 10 });
  benchLoop.enable();
  const lanes = databaseUrl ? await sampleLanes(databaseUrl) : null;
  const writtenBefore = databaseUrl ? await setRowsWritten(databaseUrl) : null;
  const crowd = Array.from({ length: users }, async (_, i) => {
    // The evaluation user (the third demo account) may not export.
    const account = accounts[i % accounts.length]!;
    const user: UserState = {
      client: clients[i % clients.length]!,
      canExport: account !== 'evaluate-user@demo.test',
      session: null,
      rowCounts: new Map(),
    };
    const thinking = thinkTime(thinkSeconds, until);
    await thinking.start();
    while (Date.now() < until) {
      await act(user);
      await thinking.pause();
    }
  });
  await Promise.all([probe(server.baseUrl, until), ...crowd]);
  benchLoop.disable();
  const laneOccupancy = await lanes?.stop();
  // Statistics reach pg_stat_user_tables when a backend's transaction ends (at most a second later).
  await sleep(2_000);
  const writtenAfter = databaseUrl ? await setRowsWritten(databaseUrl) : null;

  const kinds: Kind[] = ['search', 'structureSearch', 'preview', 'page', 'filter', 'chart', 'export', 'health', 'login'];
  const loaded = Object.fromEntries(kinds.map((k) => [k, figures(k)]));
  const errorSamples = Object.fromEntries([...errors].map(([k, list]) => [k, [...new Set(list)].slice(0, 5)]));
  const ratio = (a: number, b: number) => Number((a / Math.max(b, 0.1)).toFixed(1));
  const result = {
    database: databaseUrl ? 'postgres' : 'pglite',
    mix,
    users,
    accounts: accounts.length,
    thinkSeconds,
    seconds,
    readySeconds,
    readiness,
    reference,
    loaded,
    errorSamples,
    // Per lane, the share of 0.5 s samples with 0, 1, 2, … connections busy (PostgreSQL only).
    laneOccupancy,
    benchEventLoopDelayMs: {
      p50: Number((benchLoop.percentile(50) / 1e6).toFixed(1)),
      p99: Number((benchLoop.percentile(99) / 1e6).toFixed(1)),
      max: Number((benchLoop.max / 1e6).toFixed(1)),
    },
    // Issue 62: where the searches' sets live (the server's SEARCH_SETS), and the rows written to
    // the set tables (inserted, updated or deleted, from pg_stat_user_tables) per search run.
    sets: process.env.SEARCH_SETS === 'tables' ? 'tables' : 'memory',
    setRowsPerSearch:
      writtenBefore !== null && writtenAfter !== null
        ? Math.round((writtenAfter.sets - writtenBefore.sets) / Math.max(1, loaded.search!.n + loaded.structureSearch!.n))
        : null,
    // The filtered tabs' packed rows (and any similarity sort) per filter applied or cleared.
    derivedRowsPerFilter:
      writtenBefore !== null && writtenAfter !== null
        ? Number(((writtenAfter.derived - writtenBefore.derived) / Math.max(1, 2 * loaded.filter!.n)).toFixed(1))
        : null,
    serverMemory: processMemory(server.pid),
    healthP95Ratio: ratio(loaded.health!.p95, reference.health.p95),
    loginP95Ratio: ratio(loaded.login!.p95, reference.login.p95),
  };
  const file = writeResult('load', result);
  const errorsTotal = kinds.reduce((n, k) => n + (errors.get(k)?.length ?? 0), 0);
  console.log(
    `load ${result.database} (${mix} mix) ${users} users on ${accounts.length} accounts${thinkSeconds ? `, thinking ${thinkSeconds} s` : ''} ${seconds} s: errors ${errorsTotal}; health p95 ${loaded.health!.p95} ms (idle ${reference.health.p95}, ×${result.healthP95Ratio}); ` +
      `login p95 ${loaded.login!.p95} ms (idle ${reference.login.p95}, ×${result.loginP95Ratio}; probe in its own thread); ` +
      `bench thread's event-loop delay p99 ${result.benchEventLoopDelayMs.p99} ms; ` +
      `server RSS ${result.serverMemory?.rssMb ?? '?'} MB (peak ${result.serverMemory?.peakRssMb ?? '?'}); sets ${result.sets}, set-table rows written per search ${result.setRowsPerSearch ?? 'n/a'}, filtered-row writes per filter change ${result.derivedRowsPerFilter ?? 'n/a'}; ` +
      kinds
        .filter((k) => k !== 'health' && k !== 'login')
        .map((k) => `${k} n ${loaded[k]!.n} p95 ${loaded[k]!.p95}`)
        .join(', ') +
      (laneOccupancy
        ? `; connections busy at most (share of samples): ${Object.entries(laneOccupancy)
            .map(([lane, shares]) => `${lane} ${shares.length - 1} (${Math.round((shares.at(-1) ?? 0) * 100)} %)`)
            .join(', ')}`
        : '') +
      ` → ${file}`,
  );
  if (errorsTotal > 0) console.error(JSON.stringify(errorSamples, null, 2));
} finally {
  await server.stop();
}
