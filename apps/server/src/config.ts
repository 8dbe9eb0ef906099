import { BACKGROUND_EXPORT_ROWS } from '@kb/contracts/exports';
import path from 'node:path';
import os from 'node:os';

/** Every environment variable the server reads, read once here (CONVENTIONS: never keyed on NODE_ENV). */
export interface AppConfig {
  port: number;
  host: string;
  /** Unset means the embedded PGlite database in `${dataDir}/db`. */
  databaseUrl: string | undefined;
  dataDir: string;
  /** Seed demo users (and demo data) into an empty database. */
  seedDemo: boolean;
  /** Size of the demo knowledge base seeded on first start (`none` skips it). */
  demoDataSize: 'S' | 'M' | 'L' | 'none';
  /** HMAC secret for tokens; when unset one is generated once and kept in the database. */
  jwtSecret: string | undefined;
  /** Shown to clients as `applicationDiff` (spec §3 login result). */
  serverName: string;
  /** Public origin used in e-mailed links. */
  publicUrl: string | undefined;
  /** Directory of the built web app. */
  webDist: string;
  logLevel: string;
  /**
   * Trust X-Forwarded-For from a reverse proxy. Off by default: otherwise any client could claim
   * another address and slip past the per-address login limit.
   */
  trustProxy: boolean;
  /** Per-account and per-address failed-login limits (spec §4: 429). */
  loginLimits: { perAccount: number; perAddress: number; windowMinutes: number };
  /** Spec §5 activity cap of a search (750,000); an override exists for tests. */
  searchActivityCap: number;
  /** Chemistry engine: worker threads (0 = every core), structure-search time limit, index refresh. */
  chemistry: { workers: number; shardSize: number; searchTimeLimitSeconds: number; refreshSeconds: number };
  /**
   * Exports: from how many rows an export runs as a background job, rows per batch, seconds
   * without a heartbeat after which a running job counts as abandoned (a crashed or stopped
   * process) and is taken over, and how often idle processes look for queued jobs.
   */
  exports: { backgroundFromRows: number; batchRows: number; staleSeconds: number; pollMs: number };
}

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
  throw new Error(`DEMO_DATA_SIZE must be S, M, L or none, not "${value}".`);
}

const repoRoot = path.resolve(import.meta.dirname, '../../..');

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const databaseUrl = env.DATABASE_URL || undefined;
  return {
    port: int(env.PORT, 8080),
    host: env.HOST || '0.0.0.0',
    databaseUrl,
    dataDir: path.resolve(env.DATA_DIR || path.join(repoRoot, 'var')),
    // Demo users are on by default for the embedded database only: a real server is someone's data.
    seedDemo: bool(env.SEED_DEMO, databaseUrl === undefined),
    demoDataSize: demoSize(env.DEMO_DATA_SIZE),
    jwtSecret: env.JWT_SECRET || undefined,
    serverName: env.SERVER_NAME || os.hostname(),
    publicUrl: env.PUBLIC_URL || `http://localhost:${int(env.PORT, 8080)}`,
    webDist: path.resolve(env.WEB_DIST || path.join(repoRoot, 'apps/web/dist')),
    logLevel: env.LOG_LEVEL || 'info',
    trustProxy: bool(env.TRUST_PROXY, false),
    searchActivityCap: int(env.SEARCH_ACTIVITY_CAP, 750_000),
    chemistry: {
      workers: int(env.CHEM_WORKERS, 0),
      shardSize: int(env.CHEM_SHARD_SIZE, 8192),
      // Seconds, fractions allowed (tests use a millisecond).
      searchTimeLimitSeconds: Number.parseFloat(env.STRUCTURE_SEARCH_TIME_LIMIT_SECONDS ?? '') || 120,
      refreshSeconds: int(env.CHEM_INDEX_REFRESH_SECONDS, 60),
    },
    exports: {
      backgroundFromRows: int(env.EXPORT_BACKGROUND_ROWS, BACKGROUND_EXPORT_ROWS),
      batchRows: int(env.EXPORT_BATCH_ROWS, 2000),
      staleSeconds: Number.parseFloat(env.EXPORT_STALE_SECONDS ?? '') || 30,
      pollMs: int(env.EXPORT_POLL_MS, 2000),
    },
    loginLimits: {
      perAccount: int(env.LOGIN_LIMIT_PER_ACCOUNT, 5),
      perAddress: int(env.LOGIN_LIMIT_PER_ADDRESS, 20),
      windowMinutes: int(env.LOGIN_LIMIT_WINDOW_MINUTES, 15),
    },
  };
}
