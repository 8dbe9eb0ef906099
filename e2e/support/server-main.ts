/**
 * Entry of a test server: the real server, unchanged. It has its own file so that its command line
 * differs from a developer's `tsx apps/server/src/main.ts`: stopping a dev server by name
 * (`pkill -f apps/server/src/main.ts`) must not take down the server of a test run.
 *
 * `E2E_DEMO_CHUNKS=n` first seeds n chunks of the demo knowledge base into the database the server
 * is configured with (tests that restart a server on its own data). The browser suite instead
 * starts each server on a copy of a database prepared once (server.ts).
 */
import path from 'node:path';

const chunks = Number.parseInt(process.env.E2E_DEMO_CHUNKS ?? '0', 10);
if (chunks > 0) {
  const { loadConfig } = await import('../../apps/server/src/config.ts');
  const { prepareDatabase } = await import('./prepare-database.ts');
  const config = loadConfig();
  await prepareDatabase({ url: config.databaseUrl, pgliteDir: path.join(config.dataDir, 'db') }, chunks);
}

await import('../../apps/server/src/main.ts');
