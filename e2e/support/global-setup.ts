import fs from 'node:fs';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { E2E_RUN_ENV, RESULTS_DIR, preparedFolder, startServer } from './server.ts';
import { AUTHENTICATORS_PREFIX } from './second-factor.ts';
import { E2E_WORKERS } from './shared-server.ts';
import { newTestRunId } from '../../apps/server/test/test-databases.ts';

/**
 * The shared servers of the run, one per worker (shared-server.ts): starting a server is the slow
 * part, so the specs that only need pages share them instead of starting their own.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // Authenticators of an earlier run belong to servers that are gone.
  for (const file of fs.existsSync(RESULTS_DIR) ? fs.readdirSync(RESULTS_DIR) : []) {
    if (file.startsWith(AUTHENTICATORS_PREFIX)) fs.rmSync(path.join(RESULTS_DIR, file), { force: true });
  }
  // The run's name, inherited by the spec processes started after this: they share its prepared databases.
  const run = newTestRunId();
  process.env[E2E_RUN_ENV] = run;
  const servers = await Promise.all(
    Array.from({ length: E2E_WORKERS }, (_, i) =>
      startServer({ logFile: path.join(RESULTS_DIR, i === 0 ? 'e2e-server.log' : `e2e-server-${i + 1}.log`) }),
    ),
  );
  project.provide(
    'sharedServers',
    servers.map((server) => ({ baseUrl: server.baseUrl, serverLog: server.logFile })),
  );
  return async () => {
    await Promise.all(servers.map((server) => server.stop()));
    fs.rmSync(preparedFolder(run), { recursive: true, force: true });
  };
}
