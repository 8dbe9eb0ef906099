import { BACKGROUND_EXPORT_ROWS } from '@kb/contracts/exports';
import path from 'node:path';
import os from 'node:os';
import type { AdmissionLimits } from './http/admission.ts';

/** Every environment variable the server reads, read once here (CONVENTIONS: never keyed on NODE_ENV). */
export interface AppConfig {
  /**
   * KB_MODE: `demo` (default: a laptop or a trial) or `production` (a team's server: no demo
   * accounts, the published demo password refused, MFA_SECRET_KEY required, the first super admin
   * made with a one-time set-up token; docs/operations.md "Deploying on a network").
   */
  mode: 'demo' | 'production';
  port: number;
  host: string;
  /**
   * Demo accounts (one per role, password DEMO_PASSWORD, printed at start): seeded and their
   * password accepted only in demo mode, and there only on loopback unless DEMO_ACCOUNTS=on; anyone
   * who reaches a server can read the password in the README.
   */
  demoAccounts: boolean;
  /** Why demo accounts are on or off, and whether others may reach the server (the start-up banner's line). */
  demoAccountsWhy: { reason: string; reachable: boolean };
  /** Unset means the embedded PGlite database in `${dataDir}/db`. */
  databaseUrl: string | undefined;
  dataDir: string;
  /** Folder of ChEMBL release files the super-admin page can import (KB_IMPORT_DIR, default `<DATA_DIR>/imports`). */
  kbImportDir: string;
  /** Folder of the target-prediction model (PREDICTION_MODEL_DIR, default `<DATA_DIR>/models/chembl-multitask`). */
  predictionModelDir: string;
  /** Seed the demo knowledge base and datasets (and the demo users, when `demoAccounts`) into an empty database. */
  seedDemo: boolean;
  /** Size of the demo knowledge base seeded on first start (`none` skips it). */
  demoDataSize: 'S' | 'M' | 'L' | 'none';
  /** HMAC secret for tokens; when unset one is generated once and kept in the database. */
  jwtSecret: string | undefined;
  /** Shown to clients as `applicationDiff` (spec §3 login result). */
  serverName: string;
  /** Public origin used in e-mailed links. */
  publicUrl: string | undefined;
  /** How often the alert check looks for finished knowledge-base loads (ALERT_POLL_MS, default 30 s; 0 = off). */
  alertPollMs: number;
  /** Directory of the built web app. */
  webDist: string;
  logLevel: string;
  /**
   * Trust X-Forwarded-For from a reverse proxy. Off by default: otherwise any client could claim
   * another address and slip past the per-address login limit.
   */
  /** SEARCH_BITMAPS: count searches from id bitmaps in memory (issue 18). */
  searchBitmaps: boolean;
  /**
   * SEARCH_SETS (issue 62; docs/results.md "Sets held in memory"): 'memory' (default) holds a
   * search's sets in this server's memory and writes the set tables only when a reader joins them;
   * 'tables' writes them with every search (as before).
   */
  searchSets: 'memory' | 'tables';
  /** SEARCH_SETS_BUDGET_MB: memory the held sets may take (default 512). */
  searchSetsBudgetBytes: number;
  /**
   * SEARCH_COLUMN_SNAPSHOT (default on): keep the bitmap engine's columns, the structure properties
   * and the structure index's shards in `<DATA_DIR>/cache/` between starts, used only for the same data.
   */
  searchColumnSnapshot: boolean;
  /** SEARCH_HEARTBEAT_MS: how often a running search (and SAR work) writes its heartbeat and progress for other servers. */
  searchHeartbeatMs: number;
  trustProxy: boolean;
  /**
   * Limits on wrong passwords (login and the current-password check of a password change; spec §4:
   * 429), counted so that a stranger cannot lock an owner out (docs/security.md "Attempt limits"):
   * per account and address, per address across accounts, and a per-account ceiling across all
   * addresses that does not apply on addresses the account recently logged in from.
   */
  loginLimits: {
    /** Wrong passwords for one account from one address within `windowMinutes` (5). */
    perAccountAddress: number;
    /** Wrong passwords from one address, any accounts, within `windowMinutes` (20). */
    perAddress: number;
    windowMinutes: number;
    /** Wrong passwords for one account from all addresses within `accountWindowMinutes` (50). */
    perAccount: number;
    accountWindowMinutes: number;
    /** An address the account logged in from within this many days is "known" (30). */
    knownAddressDays: number;
  };
  /** Spec §5 activity cap of a search (750,000); an override exists for tests. */
  searchActivityCap: number;
  /** Chemistry engine: worker threads (0 = every core), structure-search time limit, index refresh. */
  chemistry: {
    workers: number;
    shardSize: number;
    searchTimeLimitSeconds: number;
    refreshSeconds: number;
    requestTimeLimitMs: number;
    stepTimeLimitMs: number;
    workerNice: number;
  };
  /**
   * Exports: from how many rows an export runs as a background job, rows per batch, seconds
   * without a heartbeat after which a running job counts as abandoned (a crashed or stopped
   * process) and is taken over, and how often idle processes look for queued jobs.
   */
  exports: { backgroundFromRows: number; batchRows: number; staleSeconds: number; pollMs: number };
  /**
   * Turns for heavy calls (http/admission.ts): how many run at once on this server (default 2 on
   * the embedded database, whose one connection they share; 6 on a server, whose pool holds 12),
   * how many of each class one user may run at once, how many may wait, and for how long.
   */
  admission: AdmissionLimits;
  /** On a PostgreSQL server: longest any statement of the API may run (seconds; 0 = no limit). */
  statementTimeoutSeconds: number;
  /**
   * Key material for the TOTP secrets at rest (MFA_SECRET_KEY, any long random text); unset means
   * one generated once and kept in app_settings (docs/operations.md "Second factor").
   */
  mfaSecretKey: string | undefined;
  /**
   * WASM_EAGER_COMPILE (default on): RDKit's WebAssembly compiled optimised at start-up, for 20–27 %
   * faster structure searches at the cost of a few seconds of both cores per start
   * (chemistry/wasm-compile.ts). The browser suite's short-lived servers, whose knowledge bases
   * are a few thousand structures, turn it off, as the API tests never turn it on.
   */
  wasmEagerCompile: boolean;
  /**
   * API_DOCS (default on): the OpenAPI document and Swagger UI at /api/docs, public (the contract of
   * every call, no data: what scripts and client generators read); off answers 404 there.
   */
  apiDocs: boolean;
  /** Mail: the SMTP relay (SMTP_URL; unset = the outbox only) and the sender address (MAIL_FROM). */
  mail: { smtpUrl: string | undefined; from: string };
  /**
   * Product analytics (spec §7 pendodetails): off unless PENDO_API_KEY is set. When on, the web
   * app loads the agent from `agentHost` and it reports to `dataHost`; the Content-Security-Policy
   * allows those two hosts then, and only then.
   */
  pendo: { apiKey: string | undefined; agentHost: string; dataHost: string };
}

/** A setting that does not hold: main.ts prints its message (not a stack) and stops. */
export class ConfigError extends Error {}

function bool(value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  return !['false', '0', 'no', 'off'].includes(value.toLowerCase());
}

function int(value: string | undefined, fallback: number): number {
  const n = Number.parseInt(value ?? '', 10);
  return Number.isFinite(n) ? n : fallback;
}

function demoSize(value: string | undefined): AppConfig['demoDataSize'] {
  const v = (value || 'S').toUpperCase();
  if (v === 'S' || v === 'M' || v === 'L') return v;
  if (v === 'NONE') return 'none';
  throw new ConfigError(`DEMO_DATA_SIZE must be S, M, L or none, not "${value}".`);
}

/** A bare host name (it goes into the Content-Security-Policy and a script URL). */
function host(value: string | undefined, fallback: string, name: string): string {
  const v = value?.trim() || fallback;
  if (!/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$/i.test(v))
    throw new ConfigError(`${name} must be a host name such as ${fallback}, not "${value}".`);
  return v.toLowerCase();
}

/** Whether an address to listen on is this machine only. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\./.test(host);
}

function mode(value: string | undefined): AppConfig['mode'] {
  const v = (value || 'demo').trim().toLowerCase();
  if (v === 'demo' || v === 'production') return v;
  throw new ConfigError(`KB_MODE must be demo or production, not "${value}".`);
}

/**
 * Whether the server is this machine's alone: it listens on loopback, no reverse proxy forwards to
 * it (TRUST_PROXY) and its public address, when set, is this machine.
 */
function servesThisMachineOnly(env: NodeJS.ProcessEnv, host: string): boolean {
  const publicHost = env.PUBLIC_URL ? (URL.parse(env.PUBLIC_URL)?.hostname ?? '') : 'localhost';
  return isLoopback(host) && !bool(env.TRUST_PROXY, false) && isLoopback(publicHost.replace(/^\[|\]$/g, ''));
}

/**
 * DEMO_ACCOUNTS on/off, or by default: demo mode on this machine only (a production start refuses
 * them); with why, as the start-up banner says it.
 */
function demoAccounts(
  env: NodeJS.ProcessEnv,
  kbMode: AppConfig['mode'],
  host: string,
  seedDemo: boolean,
): AppConfig['demoAccountsWhy'] & { on: boolean } {
  const asked = env.DEMO_ACCOUNTS?.trim();
  const reachable = !servesThisMachineOnly(env, host);
  if (asked) {
    const on = bool(asked, false);
    if (on && kbMode === 'production') {
      throw new ConfigError(
        "KB_MODE=production refuses DEMO_ACCOUNTS=on: the demo accounts' password is published. Remove DEMO_ACCOUNTS, or start in demo mode.",
      );
    }
    return {
      on,
      reason: on ? (reachable ? 'DEMO_ACCOUNTS=on, and others may reach this server' : 'DEMO_ACCOUNTS=on') : 'DEMO_ACCOUNTS=off',
      reachable,
    };
  }
  if (kbMode === 'production') return { on: false, reason: 'production mode', reachable };
  if (!seedDemo) return { on: false, reason: 'no demo seeding: SEED_DEMO=false, or a PostgreSQL server', reachable };
  if (reachable)
    return { on: false, reason: 'others may reach this server (HOST, TRUST_PROXY or PUBLIC_URL); DEMO_ACCOUNTS=on keeps them', reachable };
  return { on: true, reason: 'demo mode on this machine only', reachable };
}

const demoAccountsOf = ({ on, reason, reachable }: AppConfig['demoAccountsWhy'] & { on: boolean }) => ({
  demoAccounts: on,
  demoAccountsWhy: { reason, reachable },
});

const repoRoot = path.resolve(import.meta.dirname, '../../..');

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const databaseUrl = env.DATABASE_URL || undefined;
  const kbMode = mode(env.KB_MODE);
  // Loopback unless told otherwise: a network sees the server only when its operator asks
  // (HOST=0.0.0.0, docs/operations.md "Deploying on a network").
  const listenOn = env.HOST || '127.0.0.1';
  // The demo data is on by default for the embedded database only, and never in production unless asked.
  const seedDemo = bool(env.SEED_DEMO, databaseUrl === undefined && kbMode === 'demo');
  const mfaSecretKey = env.MFA_SECRET_KEY || undefined;
  if (kbMode === 'production' && (!mfaSecretKey || mfaSecretKey.length < 32)) {
    // In the database, the key would sit beside the secrets it protects (docs/operations.md "Second factor").
    throw new ConfigError(
      'KB_MODE=production needs MFA_SECRET_KEY: at least 32 characters of random text, kept outside the database (for example: openssl rand -base64 48).',
    );
  }
  return {
    mode: kbMode,
    port: int(env.PORT, 8080),
    host: listenOn,
    ...demoAccountsOf(demoAccounts(env, kbMode, listenOn, seedDemo)),
    databaseUrl,
    dataDir: path.resolve(env.DATA_DIR || path.join(repoRoot, 'var')),
    kbImportDir: path.resolve(env.KB_IMPORT_DIR || path.join(path.resolve(env.DATA_DIR || path.join(repoRoot, 'var')), 'imports')),
    predictionModelDir: path.resolve(
      env.PREDICTION_MODEL_DIR || path.join(path.resolve(env.DATA_DIR || path.join(repoRoot, 'var')), 'models', 'chembl-multitask'),
    ),
    seedDemo,
    demoDataSize: demoSize(env.DEMO_DATA_SIZE),
    jwtSecret: env.JWT_SECRET || undefined,
    serverName: env.SERVER_NAME || os.hostname(),
    publicUrl: env.PUBLIC_URL || `http://localhost:${int(env.PORT, 8080)}`,
    alertPollMs: Math.max(0, int(env.ALERT_POLL_MS, 30_000)),
    webDist: path.resolve(env.WEB_DIST || path.join(repoRoot, 'apps/web/dist')),
    logLevel: env.LOG_LEVEL || 'info',
    // Count searches from id bitmaps in memory (issue 18) instead of writing their sets.
    searchBitmaps: bool(env.SEARCH_BITMAPS, true),
    searchSets: env.SEARCH_SETS === 'tables' ? 'tables' : 'memory',
    searchSetsBudgetBytes: Math.max(16, int(env.SEARCH_SETS_BUDGET_MB, 512)) * 1024 * 1024,
    searchColumnSnapshot: bool(env.SEARCH_COLUMN_SNAPSHOT, true),
    searchHeartbeatMs: Math.max(100, int(env.SEARCH_HEARTBEAT_MS, 2_000)),
    trustProxy: bool(env.TRUST_PROXY, false),
    searchActivityCap: int(env.SEARCH_ACTIVITY_CAP, 750_000),
    chemistry: {
      workers: int(env.CHEM_WORKERS, 0),
      shardSize: int(env.CHEM_SHARD_SIZE, 8192),
      // Seconds, fractions allowed (tests use a millisecond).
      searchTimeLimitSeconds: Number.parseFloat(env.STRUCTURE_SEARCH_TIME_LIMIT_SECONDS ?? '') || 120,
      refreshSeconds: int(env.CHEM_INDEX_REFRESH_SECONDS, 60),
      // Watchdog: a request (preview, depiction) past this is stopped by ending its worker; so is one
      // search step (one shard) past the step limit (docs/security.md "Chemistry engine").
      requestTimeLimitMs: int(env.CHEM_REQUEST_TIME_LIMIT_MS, 10_000),
      stepTimeLimitMs: int(env.CHEM_STEP_TIME_LIMIT_MS, 30_000),
      // The structure workers' nice value (0–19; Linux): searches then yield the CPU to requests
      // (logins, pages, health) and to the database when both wait for it.
      workerNice: Math.min(19, Math.max(0, int(env.CHEM_WORKER_NICE, 0))),
    },
    exports: {
      backgroundFromRows: int(env.EXPORT_BACKGROUND_ROWS, BACKGROUND_EXPORT_ROWS),
      batchRows: int(env.EXPORT_BATCH_ROWS, 2000),
      staleSeconds: Number.parseFloat(env.EXPORT_STALE_SECONDS ?? '') || 30,
      pollMs: int(env.EXPORT_POLL_MS, 2000),
    },
    admission: {
      // Three on a PostgreSQL server, not six: since issue 62 a heavy call's work is mostly the
      // server's main thread (sets, charts and filters in memory), where six at once only
      // interleave. At L with 20 users, 3 against 6: logins p95 164–169 against 311–347 ms, pages
      // 150 against 229 ms, searches p95 unchanged but 5–12 % fewer of them done, charts p95 4–18 %
      // slower (docs/benchmarks.md, issue 62 session 23).
      concurrent: int(env.ADMISSION_CONCURRENT, databaseUrl ? 3 : 2),
      perUser: {
        search: int(env.ADMISSION_SEARCHES_PER_USER, 2),
        structure: int(env.ADMISSION_PREVIEWS_PER_USER, 2),
        chart: int(env.ADMISSION_CHARTS_PER_USER, 3),
        export: int(env.ADMISSION_EXPORTS_PER_USER, 2),
      },
      maxQueuedPerUser: int(env.ADMISSION_QUEUED_PER_USER, 20),
      maxWaitMs: int(env.ADMISSION_MAX_WAIT_SECONDS, 600) * 1000,
    },
    statementTimeoutSeconds: int(env.STATEMENT_TIMEOUT_SECONDS, 300),
    mfaSecretKey,
    apiDocs: bool(env.API_DOCS, true),
    wasmEagerCompile: bool(env.WASM_EAGER_COMPILE, true),
    mail: { smtpUrl: env.SMTP_URL || undefined, from: env.MAIL_FROM || 'KB Search <no-reply@localhost>' },
    pendo: {
      apiKey: env.PENDO_API_KEY?.trim() || undefined,
      agentHost: host(env.PENDO_AGENT_HOST, 'cdn.pendo.io', 'PENDO_AGENT_HOST'),
      dataHost: host(env.PENDO_DATA_HOST, 'app.pendo.io', 'PENDO_DATA_HOST'),
    },
    loginLimits: {
      perAccountAddress: int(env.LOGIN_LIMIT_PER_ACCOUNT_ADDRESS, 5),
      perAddress: int(env.LOGIN_LIMIT_PER_ADDRESS, 20),
      windowMinutes: int(env.LOGIN_LIMIT_WINDOW_MINUTES, 15),
      perAccount: int(env.LOGIN_LIMIT_PER_ACCOUNT, 50),
      accountWindowMinutes: int(env.LOGIN_LIMIT_ACCOUNT_WINDOW_MINUTES, 60),
      knownAddressDays: int(env.LOGIN_KNOWN_ADDRESS_DAYS, 30),
    },
  };
}
