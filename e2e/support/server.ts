import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildOnce, memoise } from '../../apps/server/test/build-once.ts';
import { REPO_ROOT, freePort, spawnServer } from '../../apps/server/test/server-process.ts';

export { REPO_ROOT, freePort };
export const RESULTS_DIR = path.join(REPO_ROOT, 'test-results');

/** Names the browser-test run (global-setup.ts): its prepared databases are shared by its servers. */
export const E2E_RUN_ENV = 'KB_E2E_RUN';

/** The folder of a run's prepared databases. */
export function preparedFolder(run: string): string {
  return path.join(os.tmpdir(), `kb-e2e-${run}`);
}

const prepared = new Map<string, Promise<string>>();

/** The prepared database a chunk count grows from: half of it (4 from 2, 2 from 1, 1 from none). */
const grownFrom = (chunks: number) => Math.floor(chunks / 2);

/**
 * The embedded database every server of this run with `chunks` demo chunks starts from: migrated and
 * seeded once (prepare-database.ts), then copied per server. Seeding is most of a server's start, so
 * a count grows from a copy of a smaller one (the seed resumes after the chunks it finds): the run
 * migrates once and seeds each chunk once.
 */
function preparedDatabase(chunks: number): Promise<string> {
  const run = process.env[E2E_RUN_ENV];
  if (!run)
    throw new Error(`${E2E_RUN_ENV} is not set: run the browser tests through \`npm run test:e2e\` (its global setup names the run).`);
  const folder = path.join(preparedFolder(run), `chunks-${chunks}`);
  return memoise(prepared, folder, () =>
    buildOnce(folder, async (partial) => {
      if (chunks > 0) fs.cpSync(await preparedDatabase(grownFrom(chunks)), partial, { recursive: true });
      const result = spawnSync(
        process.execPath,
        ['--import', 'tsx', path.join(REPO_ROOT, 'e2e/support/prepare-database.ts'), partial, String(chunks)],
        {
          cwd: REPO_ROOT,
          encoding: 'utf8',
          env: { ...process.env, DATABASE_URL: '' },
        },
      );
      if (result.status !== 0)
        throw new Error(`Preparing the database (${chunks} demo chunks) failed:\n${result.stdout}\n${result.stderr}`);
      if (result.stdout.trim()) console.log(result.stdout.trim());
    }),
  );
}

export interface RunningServer {
  /** Origin the browser uses, e.g. `http://localhost:41234`. */
  baseUrl: string;
  /** File receiving the server's stdout and stderr (pino JSON lines). */
  logFile: string;
  stop: () => Promise<void>;
}

/**
 * Starts the real server (server-main.ts) on a free port, in a temporary DATA_DIR holding a copy of
 * the run's prepared database with `demoChunks` demo chunks (none by default): no users yet, so the
 * server seeds the demo users as on a first start.
 */
export async function startServer(options: {
  logFile: string;
  demoChunks?: number;
  env?: Record<string, string>;
  healthTimeoutMs?: number;
}): Promise<RunningServer> {
  const webIndex = path.join(REPO_ROOT, 'apps/web/dist/index.html');
  if (!fs.existsSync(webIndex)) {
    throw new Error(`The web app is not built (${webIndex} is missing). Run the browser tests with \`npm run test:e2e\`, which builds it.`);
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kb-e2e-'));
  // Serve a snapshot of the build: a rebuild of apps/web/dist during the run (someone developing
  // the web app) would otherwise swap the asset files under the browser's feet.
  const webDist = path.join(dataDir, 'web');
  fs.cpSync(path.dirname(webIndex), webDist, { recursive: true });
  fs.cpSync(await preparedDatabase(options.demoChunks ?? 0), path.join(dataDir, 'db'), { recursive: true });
  const removeData = () => fs.rmSync(dataDir, { recursive: true, force: true });
  try {
    const server = await spawnServer({
      dataDir,
      // Always the embedded database: the browser suite must not touch a shared PostgreSQL.
      databaseUrl: '',
      logFile: options.logFile,
      host: '0.0.0.0',
      urlHost: 'localhost',
      publicUrl: true,
      healthTimeoutMs: options.healthTimeoutMs ?? 120_000,
      env: {
        SEED_DEMO: 'true',
        // The browser reaches it on 0.0.0.0: the demo logins are asked for (config.ts demoAccounts).
        DEMO_ACCOUNTS: 'on',
        // The demo knowledge base is not needed for these pages; seeding it would compete for the 2 cores.
        DEMO_DATA_SIZE: 'none',
        // A few thousand structures at most: RDKit's optimised compile (≈ 1.5 s of CPU per start,
        // config.ts wasmEagerCompile) would cost more than it saves these servers' searches.
        WASM_EAGER_COMPILE: 'off',
        JWT_SECRET: crypto.randomBytes(32).toString('base64url'),
        WEB_DIST: webDist,
        // Debug: the mailer writes mail bodies (links) on debug lines only; support/outbox.ts reads them.
        LOG_LEVEL: 'debug',
        ...options.env,
      },
    });
    return {
      baseUrl: server.baseUrl,
      logFile: options.logFile,
      stop: async () => {
        await server.stop();
        removeData();
      },
    };
  } catch (error) {
    removeData();
    throw error;
  }
}
