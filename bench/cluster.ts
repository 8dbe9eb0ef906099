/**
 * `npm run bench -- cluster [-- --size S|M|L] [--database-url URL] [--users 12] [--seconds 30] [--rounds 3] [--warmup 30] [--chem-workers 1] [--balance roundrobin|affinity|roundrobin,affinity] [--pool-admission N] [--pin] [--think S] [--server-cpu-prof DIR] [--keep]`
 *
 * Scale-out (issue 18, docs/scaling.md): search throughput of one server against two servers
 * behind HAProxy, on one PostgreSQL database, on this machine.
 *
 * - HAProxy from Debian (`apt-get install -y haproxy` when /usr/sbin/haproxy is missing, said so).
 * - The database: `--database-url`, else `postgres://postgres@127.0.0.1:5432/kb_cluster`, created
 *   when missing and seeded with `npm run seed -- --size <size>` (resumable; a complete seed is
 *   skipped). The default database is dropped at the end unless `--keep`; one named with
 *   `--database-url` is never dropped.
 * - Two server processes (the real main.ts, demo users on, no demo data seeding) on free ports, and
 *   HAProxy (health check on /api/health) in front of both; its config in a temp dir. `--balance
 *   roundrobin` (the default) spreads every call, so about half of a search's pages go to the server
 *   that did not run it and recomputes its sets; `affinity` hashes the `email` header as
 *   docs/scaling.md recommends (one user → one server), so a session's calls stay where it ran.
 *   `--balance roundrobin,affinity`: an HAProxy of each kind in front of the same two servers, and
 *   a phase through each in every round (at L, one start of the servers instead of two). Pages are
 *   also timed by where they were answered: the server that counted their search, or the other.
 * - `--users` simulated users, each on its own FULL_USER account (admission limits are per user and
 *   per server: one shared account would measure those limits, not the servers), log in once, then
 *   loop (without pause unless `--think`): a guided-search count of a new session (IC50, Ki, IC50 ≤ 1 µM, IC50 NOT Ki;
 *   at L, whose whole types pass the activity cap, the load bench's L searches, bench/support/large-mix.ts)
 *   and the first page of one of its tabs.
 * - `--rounds` times: `--seconds` against server 1 directly ("one"), then `--seconds` through
 *   HAProxy ("two"); alternating rounds spread the noise of other work on the machine over both,
 *   and the ratio is given pooled and per round (with their median).
 * - Through HAProxy, every answer's `x-kb-instance` header and HAProxy's own per-server counters
 *   (its stats page) must show both servers answering; the bench fails otherwise.
 *
 * - `--pool-admission N`: the two servers behind HAProxy admit N heavy calls at once each
 *   (`ADMISSION_CONCURRENT`), as two servers sharing one host's cores would be set (docs/scaling.md
 *   "Two servers on one host"); the server measured alone is then a third process with the default,
 *   so the comparison is one server as deployed against two set for one host. Without it, server 1
 *   is both the one measured alone and one of the two.
 * - `--pin`: each server on a core of its own (`taskset`, every thread: server i on core i − 1), as
 *   servers on hosts of their own would be; PostgreSQL, HAProxy and this bench keep every core. The
 *   server measured alone then serves half the users (`--users` / 2) and the two behind HAProxy all
 *   of them: twice the users on twice the servers, so "pages p95 unchanged" is the scale-out claim
 *   itself, and the throughput ratio to expect is ×2.
 * - `--think S`: each user pauses 0.5–1.5 × S seconds after each call (a count, then a page), as
 *   people read before the next, so one server and two serve the same offered load: the question is
 *   then the aim's own (issue 62), whether pages wait longer when the other server answers them,
 *   not how many calls two servers can push through two cores (requests a second are about equal
 *   by design). Without it, users loop without pause: the throughput measurement.
 * - `--server-cpu-prof DIR`: each server's main thread profiled (V8 `--cpu-prof` through
 *   NODE_OPTIONS, written into DIR when the server stops) to see what the other server's reads cost.
 *
 * Prints one line; writes bench/results/cluster-*.json.
 */
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../apps/server/test/server-process.ts';
import { ClusterUser, createClusterDatabase, startClusterServer } from '../apps/server/test/cluster-support.ts';
import type { Answer, ClusterDatabase, ClusterServer } from '../apps/server/test/cluster-support.ts';
import { summary, thinkTime, writeResult } from './support/bench-kit.ts';
import { largeMix } from './support/large-mix.ts';

const REPO = path.resolve(import.meta.dirname, '..');
const HAPROXY = '/usr/sbin/haproxy';

function arg(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : undefined;
}
const size = (arg('size') ?? 'S').toUpperCase();
if (!['S', 'M', 'L'].includes(size)) throw new Error(`--size must be S, M or L, not ${size}`);
const givenUrl = arg('database-url');
const databaseUrl = givenUrl ?? 'postgres://postgres@127.0.0.1:5432/kb_cluster';
const users = Number(arg('users') ?? 12);
const seconds = Number(arg('seconds') ?? 30);
const rounds = Number(arg('rounds') ?? 3);
const chemWorkers = arg('chem-workers') ?? '1';
const warmup = Number(arg('warmup') ?? 30);
const keep = process.argv.includes('--keep');
/** Each balance gets its own HAProxy in front of the same two servers, and its own phase in every round. */
const balances = [...new Set((arg('balance') ?? 'roundrobin').split(','))];
const profileDir = arg('server-cpu-prof');
const poolAdmission = arg('pool-admission');
const pin = process.argv.includes('--pin');
const thinkSeconds = Number(arg('think') ?? 0);
if (!(Number.isFinite(thinkSeconds) && thinkSeconds >= 0)) throw new Error(`--think must be a number of seconds, not ${arg('think')}`);
if (pin && poolAdmission) throw new Error('--pin and --pool-admission are two different set-ups: choose one');
if (pin && os.cpus().length < 2) throw new Error('--pin needs two cores, one per server');
if (poolAdmission !== undefined && !(Number.isInteger(Number(poolAdmission)) && Number(poolAdmission) >= 1))
  throw new Error(`--pool-admission must be a whole number of at least 1, not ${poolAdmission}`);
for (const balance of balances)
  if (!['roundrobin', 'affinity'].includes(balance))
    throw new Error(`--balance must be roundrobin, affinity or both (roundrobin,affinity), not ${balance}`);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const say = (message: string) => console.error(`[cluster] ${message}`);

// ------------------------------------------------------------------ the parts

/** Debian's HAProxy, installed when missing (the bench runs as root on a Debian machine). */
function ensureHaproxy(): string {
  if (!fs.existsSync(HAPROXY)) {
    say(`${HAPROXY} is missing: installing it with apt-get install -y haproxy`);
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    let install = spawnSync('apt-get', ['install', '-y', 'haproxy'], { stdio: ['ignore', 'inherit', 'inherit'], env });
    if (install.status !== 0) {
      say('apt-get install failed: apt-get update, then once more');
      spawnSync('apt-get', ['update'], { stdio: ['ignore', 'inherit', 'inherit'], env });
      install = spawnSync('apt-get', ['install', '-y', 'haproxy'], { stdio: ['ignore', 'inherit', 'inherit'], env });
    }
    if (install.status !== 0 || !fs.existsSync(HAPROXY)) throw new Error('Could not install haproxy (apt-get install -y haproxy).');
  }
  return spawnSync(HAPROXY, ['-v'], { encoding: 'utf8' }).stdout.split('\n')[0]!.trim();
}

/** The seeded database: the seed command resumes an interrupted seed and skips a complete one. */
async function preparedDatabase(): Promise<ClusterDatabase & { created: boolean }> {
  const url = new URL(databaseUrl);
  const database = await createClusterDatabase(databaseUrl, url.pathname.slice(1));
  say(`${database.created ? 'created' : 'using'} database ${database.name}; npm run seed -- --size ${size}`);
  const seed = spawnSync('npm', ['run', 'seed', '--', '--size', size, '--database-url', database.url], {
    cwd: REPO,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (seed.status !== 0) throw new Error(`npm run seed -- --size ${size} failed`);
  // What autovacuum would do after the bulk load, done now: otherwise it runs during the first
  // measured phase (seen: pages p95 8.9 s and twice the PostgreSQL CPU per call in that phase only).
  say('VACUUM ANALYZE');
  await database.query('VACUUM ANALYZE');
  return database;
}

/** One FULL_USER account per simulated user, with the demo password (its hash copied from a demo account). */
async function benchAccounts(database: ClusterDatabase): Promise<string[]> {
  const emails = Array.from({ length: users }, (_, i) => `cluster-bench-${i + 1}@bench.test`);
  for (const email of emails) {
    await database.query(
      `INSERT INTO users (email, password_hash, first_name, last_name, is_new_user)
         SELECT $1, password_hash, 'Cluster', 'Bench', false FROM users WHERE email = 'full-user@demo.test'
       ON CONFLICT (email) DO NOTHING`,
      [email],
    );
    await database.query(
      `INSERT INTO subscriptions (user_id, role_name, contract_id, start_date, end_date, having_flat_file_access)
         SELECT u.id, 'FULL_USER', 'BENCH-' || u.id, now() - interval '1 day', now() + interval '30 days', false FROM users u
          WHERE u.email = $1 AND NOT EXISTS (SELECT 1 FROM subscriptions s WHERE s.user_id = u.id AND s.end_date > now())`,
      [email],
    );
  }
  return emails;
}

interface Balancer {
  baseUrl: string;
  /** Requests HAProxy sent to each server so far (its `stot` counter), by server name. */
  sent(): Promise<Record<string, number>>;
  /** Server names HAProxy sees UP. */
  up(): Promise<string[]>;
  stop(): Promise<void>;
  config: string;
}

/** HAProxy in the foreground (-db) with its config in `dir`: `balance` over the servers, /api/health/ready checked. */
async function startHaproxy(dir: string, servers: ClusterServer[], balance: string): Promise<Balancer> {
  const [port, statsPort] = [await freePort(), await freePort()];
  const config = [
    'global',
    '  maxconn 4096',
    'defaults',
    '  mode http',
    '  option forwardfor',
    '  timeout connect 5s',
    '  timeout client 300s',
    '  timeout server 300s',
    'frontend kb',
    `  bind 127.0.0.1:${port}`,
    '  default_backend kb_servers',
    'backend kb_servers',
    ...(balance === 'affinity' ? ['  balance hdr(email)', '  hash-type consistent'] : ['  balance roundrobin']),
    '  option httpchk GET /api/health/ready',
    '  http-check expect status 200',
    ...servers.map((server, i) => `  server s${i + 1} 127.0.0.1:${server.port} check inter 2s fall 3 rise 2`),
    'listen stats',
    `  bind 127.0.0.1:${statsPort}`,
    '  stats enable',
    '  stats uri /stats',
    '',
  ].join('\n');
  const file = path.join(dir, `haproxy-${balance}.cfg`);
  fs.writeFileSync(file, config);
  const check = spawnSync(HAPROXY, ['-c', '-f', file], { encoding: 'utf8' });
  if (check.status !== 0) throw new Error(`haproxy -c refused the config:\n${check.stdout}${check.stderr}`);
  const logFile = path.join(dir, `haproxy-${balance}.log`);
  const log = fs.openSync(logFile, 'a');
  const child: ChildProcess = spawn(HAPROXY, ['-db', '-f', file], { stdio: ['ignore', log, log] });
  fs.closeSync(log);
  const stats = async () => {
    const text = await (await fetch(`http://127.0.0.1:${statsPort}/stats;csv`)).text();
    const [header = '', ...lines] = text.trim().split('\n');
    const columns = header.replace(/^# /, '').split(',');
    return lines
      .map((line) => Object.fromEntries(line.split(',').map((value, i) => [columns[i], value])))
      .filter((row) => row.pxname === 'kb_servers' && /^s\d+$/.test(row.svname ?? ''));
  };
  const balancer: Balancer = {
    baseUrl: `http://127.0.0.1:${port}`,
    config,
    sent: async () => Object.fromEntries((await stats()).map((row) => [row.svname!, Number(row.stot)])),
    up: async () => (await stats()).filter((row) => row.status === 'UP').map((row) => row.svname!),
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
  // A server is UP once it is ready (its search columns and structure index read): minutes at L.
  const deadline = Date.now() + 15 * 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`haproxy exited: ${fs.readFileSync(logFile, 'utf8')}`);
    try {
      if ((await balancer.up()).length === servers.length) return balancer;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('HAProxy did not see every server UP (ready) within 15 minutes');
    await sleep(250);
  }
}

// ------------------------------------------------------------------ what users do

/** Whole-type searches (S and M); at L they pass the 750,000-activity cap, so L uses the load bench's L mix (support/large-mix.ts). */
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
const TABS = ['structuretab', 'activitiestab', 'assaytab'];
const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)]!;

type Kind = 'login' | 'count' | 'page';

class Phase {
  readonly timings: Record<Kind, number[]> = { login: [], count: [], page: [] };
  readonly errors: Record<Kind, string[]> = { login: [], count: [], page: [] };
  /** Page timings by where the page was answered: the server that counted its search, or the other one (which recomputes its sets). */
  readonly pageWhere: Record<'sameServer' | 'otherServer', number[]> = { sameServer: [], otherServer: [] };
  /** Answers per `x-kb-instance`. */
  readonly instances = new Map<string, number>();
  /** Calls (count or page) answered within the phase's window, and the window's length. */
  requests = 0;
  elapsedMs = 0;
  until = Number.POSITIVE_INFINITY;
  /** CPU time spent meanwhile by the server processes and by their PostgreSQL backends (ms). */
  cpu = { servers: 0, postgres: 0 };

  async timed(
    kind: Kind,
    work: () => Promise<Answer | ClusterUser>,
    ok: (answer: Answer) => boolean = (a) => a.status === 200,
    onTimed?: (ms: number, answer: Answer) => void,
  ): Promise<Answer | ClusterUser | undefined> {
    const started = performance.now();
    try {
      const value = await work();
      const answer = value instanceof ClusterUser ? null : value;
      if (answer) this.instances.set(answer.instance ?? '(none)', (this.instances.get(answer.instance ?? '(none)') ?? 0) + 1);
      if (answer && !ok(answer)) throw new Error(`${answer.status} ${answer.text.slice(0, 200)}`);
      const ms = performance.now() - started;
      this.timings[kind].push(ms);
      if (answer) onTimed?.(ms, answer);
      // Throughput counts what finished inside the window: a call still running at its end is not served yet.
      if (kind !== 'login' && Date.now() <= this.until) this.requests += 1;
      return value;
    } catch (error) {
      this.errors[kind].push(error instanceof Error ? error.message : String(error));
      // A person reads an error before trying again; a failing server is not hammered in a loop.
      await sleep(1000);
      return undefined;
    }
  }

  figures(label: string) {
    const perSecond = this.requests / (this.elapsedMs / 1000);
    return {
      label,
      seconds: Number((this.elapsedMs / 1000).toFixed(1)),
      requests: this.requests,
      requestsPerSecond: Number(perSecond.toFixed(2)),
      login: { ...summary(this.timings.login), errors: this.errors.login.length },
      count: { ...summary(this.timings.count), errors: this.errors.count.length },
      page: { ...summary(this.timings.page), errors: this.errors.page.length },
      pageByServer: { sameServer: summary(this.pageWhere.sameServer), otherServer: summary(this.pageWhere.otherServer) },
      errorSamples: [...new Set(Object.values(this.errors).flat())].slice(0, 5),
      cpuMsPerRequest: {
        servers: Number((this.cpu.servers / Math.max(1, this.requests)).toFixed(1)),
        postgres: Number((this.cpu.postgres / Math.max(1, this.requests)).toFixed(1)),
      },
      /** Cores kept busy on average by the servers and by PostgreSQL (2 cores here, shared with other work). */
      coresBusy: {
        servers: Number((this.cpu.servers / this.elapsedMs).toFixed(2)),
        postgres: Number((this.cpu.postgres / this.elapsedMs).toFixed(2)),
      },
      instances: Object.fromEntries(this.instances),
    };
  }
}

/** Each user logs in once, then counts a new guided search and reads a page of it (pausing after each with `--think`), for `duration` seconds. */
async function runPhase(baseUrl: string, emails: string[], duration = seconds): Promise<Phase> {
  const phase = new Phase();
  const cpuBefore = await cpuNow();
  const until = Date.now() + duration * 1000;
  phase.until = until;
  await Promise.all(
    emails.map(async (email) => {
      const user = (await phase.timed('login', () => ClusterUser.logIn(baseUrl, email))) as ClusterUser | undefined;
      if (!user) return;
      const thinking = thinkTime(thinkSeconds, until);
      await thinking.start();
      while (Date.now() < until) {
        const sessionid = crypto.randomUUID();
        const counted = (await phase.timed('count', () =>
          user.call(baseUrl, 'POST', '/api/guidedsearch/allresultscount', { searchcriteria: pick(GUIDED), sessionid }),
        )) as Answer | undefined;
        await thinking.pause();
        if (!counted || Date.now() >= until) continue;
        // 204: the tab of this search has no rows (an answer all the same).
        await phase.timed(
          'page',
          () => user.call(baseUrl, 'POST', `/api/results/${pick(TABS)}`, { sessionid, pageNumber: 0, pageSize: 50 }),
          (a) => a.status === 200 || a.status === 204,
          (ms, page) => phase.pageWhere[page.instance === counted.instance ? 'sameServer' : 'otherServer'].push(ms),
        );
        await thinking.pause();
      }
    }),
  );
  phase.elapsedMs = duration * 1000;
  const cpuAfter = await cpuNow();
  phase.cpu = { servers: cpuAfter.servers - cpuBefore.servers, postgres: spentSince(cpuBefore.backends, cpuAfter.backends) };
  return phase;
}

// ------------------------------------------------------------------ where the CPU goes

const TICK_MS = 1000 / 100;

/** User + system CPU time of a process so far (ms), from /proc (0 once it is gone). */
function cpuOf(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return 0;
  }
}

/** CPU of the servers, and of each PostgreSQL backend connected to the bench database (not this probe's own). */
async function cpuNow(): Promise<{ servers: number; backends: Map<number, number> }> {
  const rows = await database.query<{ pid: number }>(
    `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`,
  );
  return {
    servers: servers.reduce((sum, server) => sum + cpuOf(server.pid), 0),
    backends: new Map(rows.map((row) => [row.pid, cpuOf(row.pid)])),
  };
}

/**
 * Backend CPU between two samples. A backend that appeared meanwhile counts whole (pools keep
 * theirs open while busy); one that closed meanwhile is lost, so this is a lower bound.
 */
function spentSince(before: Map<number, number>, after: Map<number, number>): number {
  let spent = 0;
  for (const [pid, ms] of after) spent += ms - (before.get(pid) ?? 0);
  return spent;
}

/** The phases of one kind pooled: requests over time, timings and errors together. */
function pooled(phases: Phase[], label: string) {
  const all = new Phase();
  for (const phase of phases) {
    for (const kind of ['login', 'count', 'page'] as const) {
      all.timings[kind].push(...phase.timings[kind]);
      all.errors[kind].push(...phase.errors[kind]);
    }
    all.pageWhere.sameServer.push(...phase.pageWhere.sameServer);
    all.pageWhere.otherServer.push(...phase.pageWhere.otherServer);
    for (const [instance, n] of phase.instances) all.instances.set(instance, (all.instances.get(instance) ?? 0) + n);
    all.requests += phase.requests;
    all.elapsedMs += phase.elapsedMs;
    all.cpu.servers += phase.cpu.servers;
    all.cpu.postgres += phase.cpu.postgres;
  }
  return all.figures(label);
}

/** Every thread of a process on one core (threads started later inherit it from their parent thread). */
function pinToCore(pid: number, core: number): void {
  const result = spawnSync('taskset', ['-a', '-c', '-p', String(core), String(pid)], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`taskset could not pin server ${pid} to core ${core}: ${result.stderr || result.error}`);
}

// ------------------------------------------------------------------ the run

const loadBefore = os.loadavg();
const haproxyVersion = ensureHaproxy();
say(haproxyVersion);
const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kb-cluster-bench-'));
const database = await preparedDatabase();
const servers: ClusterServer[] = [];
/** The servers behind HAProxy: both servers, or with --pool-admission the two after the one measured alone. */
let pool: ClusterServer[] = [];
const balancers: { balance: string; balancer: Balancer }[] = [];
try {
  // Behind a proxy (TRUST_PROXY) the demo accounts are off unless asked for: the bench's accounts
  // carry the demo password, so they are asked for (demo mode on this machine).
  const env: Record<string, string> = { CHEM_WORKERS: chemWorkers, TRUST_PROXY: 'true', DEMO_ACCOUNTS: 'on', LOG_LEVEL: 'warn' };
  if (profileDir) env.NODE_OPTIONS = `--cpu-prof --cpu-prof-dir=${path.resolve(profileDir)}`;
  // One after the other: the first start writes the demo users the next ones then find.
  const poolEnv = poolAdmission ? { ...env, ADMISSION_CONCURRENT: poolAdmission } : env;
  const names = poolAdmission ? ['s1', 's2', 's3'] : ['s1', 's2'];
  for (const [i, name] of names.entries())
    servers.push(
      await startClusterServer({ databaseUrl: database.url, logFile: path.join(workDir, `${name}.log`), env: i === 0 ? env : poolEnv }),
    );
  pool = poolAdmission ? servers.slice(1) : servers;
  if (pin) for (const [i, server] of servers.entries()) pinToCore(server.pid, i);
  for (const balance of balances) balancers.push({ balance, balancer: await startHaproxy(workDir, pool, balance) });
  const emails = await benchAccounts(database);
  // Pinned, one server is half the cluster: it serves half the users.
  const aloneEmails = pin ? emails.slice(0, Math.max(1, Math.floor(emails.length / 2))) : emails;
  if (size === 'L') GUIDED = (await largeMix(database.url)).guided;
  const sizes = await database.query<{ structures: number; activities: number }>(
    `SELECT (SELECT count(*)::int FROM structures) AS structures, (SELECT count(*)::int FROM activities) AS activities`,
  );
  say(
    `servers ${servers.map((s) => `${s.baseUrl} (${s.instance})`).join(', ')}; HAProxy ${balancers.map((b) => `${b.balancer.baseUrl} (${b.balance})`).join(', ')}; ${sizes[0]!.structures} structures, ${sizes[0]!.activities} activities`,
  );

  // Warm-up (not counted), through HAProxy so that both servers are warm: on a fresh database the
  // first half-minute of searches was several times slower (pages p95 17 s, 5× the PostgreSQL CPU
  // per call) while the set tables were new, whichever phase came first.
  say(`warm-up, ${warmup} s through HAProxy`);
  await runPhase(balancers[0]!.balancer.baseUrl, emails, warmup);
  if (poolAdmission) {
    say(`warm-up, ${warmup} s on server 1 alone (not behind HAProxy)`);
    await runPhase(servers[0]!.baseUrl, aloneEmails, warmup);
  }

  // Every round: server 1 alone, then the two servers behind each balance in turn.
  const one: Phase[] = [];
  const two = balancers.map(() => [] as Phase[]);
  const sentBefore = await Promise.all(balancers.map((b) => b.balancer.sent()));
  for (let round = 1; round <= rounds; round++) {
    say(`round ${round}/${rounds}: ${aloneEmails.length} users, ${seconds} s on server 1 directly`);
    one.push(await runPhase(servers[0]!.baseUrl, aloneEmails));
    for (const [i, { balance, balancer }] of balancers.entries()) {
      say(`round ${round}/${rounds}: ${users} users, ${seconds} s through HAProxy (2 servers, ${balance})`);
      two[i]!.push(await runPhase(balancer.baseUrl, emails));
    }
  }

  const single = pooled(one, 'one server, directly');
  const byBalance = await Promise.all(
    balancers.map(async ({ balance, balancer }, i) => {
      const sentAfter = await balancer.sent();
      const haproxySent = Object.fromEntries(Object.keys(sentAfter).map((name) => [name, sentAfter[name]! - (sentBefore[i]![name] ?? 0)]));
      const double = pooled(two[i]!, `two servers behind HAProxy, ${balance}`);
      const throughHaproxy = pool.map((server) => ({ instance: server.instance, answers: double.instances[server.instance] ?? 0 }));
      const spreadOk =
        throughHaproxy.every((s) => s.answers > 0) &&
        Object.values(haproxySent).every((n) => n > 0) &&
        Object.keys(haproxySent).length === pool.length;
      // Per round, and their median: a transient slowdown of the database (seen on a fresh database
      // about a minute into the searches, whichever phase ran then) skews the pooled ratio, not the median.
      const roundRatios = one.map((phase, r) =>
        Number((two[i]![r]!.figures('').requestsPerSecond / phase.figures('').requestsPerSecond).toFixed(2)),
      );
      return {
        balance,
        haproxyConfig: balancer.config,
        two: double,
        perRound: one.map((phase, r) => ({
          one: phase.figures(`round ${r + 1}, one server`),
          two: two[i]![r]!.figures(`round ${r + 1}, two servers, ${balance}`),
        })),
        ratioTwoOverOne: Number((double.requestsPerSecond / single.requestsPerSecond).toFixed(2)),
        ratioPerRound: roundRatios,
        ratioMedianOfRounds: [...roundRatios].sort((x, y) => x - y)[Math.floor(roundRatios.length / 2)]!,
        /** Pages p95 of the two servers over one server's (the aim: unchanged). */
        pagesP95TwoOverOne: Number((double.page.p95 / Math.max(single.page.p95, 0.1)).toFixed(2)),
        spread: { byHeader: throughHaproxy, byHaproxyStats: haproxySent, bothServersAnswered: spreadOk },
      };
    }),
  );
  const loadAfter = os.loadavg();
  const result = {
    date: new Date().toISOString(),
    size,
    database: database.name,
    structures: sizes[0]!.structures,
    activities: sizes[0]!.activities,
    users,
    secondsPerPhase: seconds,
    warmupSeconds: warmup,
    rounds,
    chemWorkersPerServer: Number(chemWorkers),
    cores: os.cpus().length,
    loadAverageBefore: loadBefore.map((n) => Number(n.toFixed(2))),
    loadAverageAfter: loadAfter.map((n) => Number(n.toFixed(2))),
    haproxy: haproxyVersion,
    /** ADMISSION_CONCURRENT of the two servers behind HAProxy (null: the default, and server 1 is one of them). */
    poolAdmission: poolAdmission ? Number(poolAdmission) : null,
    /** Each server on a core of its own, and server 1 alone serving half the users. */
    pinned: pin,
    usersAlone: aloneEmails.length,
    /** Mean pause after each call (s); 0: users loop without pause. */
    thinkSeconds,
    one: single,
    byBalance,
  };
  const file = writeResult('cluster', result);
  const errors = (f: typeof single) => f.login.errors + f.count.errors + f.page.errors;
  const where = (f: typeof single) =>
    f.pageByServer.otherServer.n
      ? ` (on the server that counted ${f.pageByServer.sameServer.p95}, on the other ${f.pageByServer.otherServer.p95} ms)`
      : '';
  const part = (f: typeof single) =>
    `${f.requestsPerSecond} req/s (${f.requests} in ${f.seconds} s; count p50/p95 ${f.count.p50}/${f.count.p95} ms, page p50/p95 ${f.page.p50}/${f.page.p95} ms${where(f)}, login p95 ${f.login.p95} ms, errors ${errors(f)}; ` +
    `CPU per call: servers ${f.cpuMsPerRequest.servers} ms, PostgreSQL ${f.cpuMsPerRequest.postgres} ms)`;
  const twoPart = (b: (typeof byBalance)[number]) =>
    `two behind HAProxy, ${b.balance}: ${part(b.two)}; ratio two/one ×${b.ratioTwoOverOne} pooled, per round ${b.ratioPerRound.map((r) => `×${r}`).join(' ')} (median ×${b.ratioMedianOfRounds}), pages p95 ×${b.pagesP95TwoOverOne}; ` +
    `spread ${b.spread.byHeader.map((s) => `${s.instance} ${s.answers}`).join(' / ')} (HAProxy ${Object.entries(b.spread.byHaproxyStats)
      .map(([k, v]) => `${k} ${v}`)
      .join(' / ')})`;
  console.log(
    `cluster ${size} (${result.structures} structures) ${users} users ${rounds}×${seconds} s${poolAdmission ? `, two servers admitting ${poolAdmission} each` : ''}${pin ? `, a core per server, ${aloneEmails.length} users on one server` : ''}${thinkSeconds ? `, thinking ${thinkSeconds} s` : ''}, ${result.cores} cores, load ${result.loadAverageBefore[0]}→${result.loadAverageAfter[0]}: ` +
      `one server ${part(single)}; ${byBalance.map(twoPart).join('; ')} → ${file}`,
  );
  for (const b of byBalance)
    if (!b.spread.bothServersAnswered) {
      console.error(`HAProxy (${b.balance}) did not send requests to both servers: see the spread above.`);
      process.exitCode = 1;
    }
} finally {
  await Promise.all(balancers.map((b) => b.balancer.stop()));
  await Promise.all(servers.map((server) => server.stop()));
  if (keep || givenUrl)
    say(`kept database ${database.name}${givenUrl ? ' (named with --database-url: never dropped)' : ''}; logs in ${workDir}`);
  else {
    await database.drop();
    fs.rmSync(workDir, { recursive: true, force: true });
    say(`dropped database ${database.name}`);
  }
}
