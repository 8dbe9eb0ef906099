/**
 * Entry of the browser-test server: the real server, unchanged. It has its own file so that its
 * command line differs from a developer's `tsx apps/server/src/main.ts`: stopping a dev server
 * by name (`pkill -f apps/server/src/main.ts`) must not take down the server of a test run.
 *
 * `E2E_DEMO_CHUNKS=n` first seeds n chunks of the demo knowledge base (1,000 structures and about
 * 11,000 activities each) into the fresh database, for the specs that search; the server then
 * starts on that database as on any later start. Specs that only need pages leave it unset.
 */
import path from 'node:path';

const chunks = Number.parseInt(process.env.E2E_DEMO_CHUNKS ?? '0', 10);
if (chunks > 0) {
  const { loadConfig } = await import('../../apps/server/src/config.ts');
  const { openDatabase } = await import('../../apps/server/src/db/database.ts');
  const { migrateToLatest } = await import('../../apps/server/src/db/migrate.ts');
  const { seedDemoKnowledgeBase } = await import('../../apps/server/src/modules/knowledge-base/demo/demo-seed.ts');
  const config = loadConfig();
  const handle = await openDatabase({ url: config.databaseUrl, pgliteDir: path.join(config.dataDir, 'db') });
  try {
    await migrateToLatest(handle);
    const summary = await seedDemoKnowledgeBase(handle, { size: 'S', maxChunks: chunks });
    console.log(`[e2e] seeded ${chunks} demo chunks in ${summary.seconds.toFixed(1)} s: ${JSON.stringify(summary.counts)}`);
  } finally {
    await handle.close();
  }
}

await import('../../apps/server/src/main.ts');
