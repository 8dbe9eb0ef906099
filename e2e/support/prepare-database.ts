/**
 * Makes the database a test server starts on: migrated, with `chunks` demo chunks of the knowledge
 * base (1,000 structures and about 11,000 activities each) when chunks > 0. The browser suite runs
 * it once per run and chunk count (server.ts) and gives each server a copy of the folder; the server
 * itself still does a first start's work on it (demo users, their logins printed).
 *
 *   node --import tsx e2e/support/prepare-database.ts <pglite folder> <chunks>
 */
import path from 'node:path';
import { openDatabase } from '../../apps/server/src/db/database.ts';
import type { OpenDatabaseOptions } from '../../apps/server/src/db/database.ts';
import { migrateToLatest } from '../../apps/server/src/db/migrate.ts';
import { seedDemoKnowledgeBase } from '../../apps/server/src/modules/knowledge-base/demo/demo-seed.ts';

/** Migrates the database `where` names and seeds `chunks` demo chunks into it. */
export async function prepareDatabase(where: OpenDatabaseOptions, chunks: number): Promise<void> {
  const handle = await openDatabase(where);
  try {
    await migrateToLatest(handle);
    if (chunks > 0) {
      const summary = await seedDemoKnowledgeBase(handle, { size: 'S', maxChunks: chunks });
      console.log(`[e2e] seeded ${chunks} demo chunks in ${summary.seconds.toFixed(1)} s: ${JSON.stringify(summary.counts)}`);
    }
  } finally {
    await handle.close();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  const [folder, chunkArg = '0'] = process.argv.slice(2);
  const chunks = Number.parseInt(chunkArg, 10);
  if (!folder || !Number.isInteger(chunks) || chunks < 0) {
    console.error('Usage: node --import tsx e2e/support/prepare-database.ts <pglite folder> <chunks>');
    process.exit(2);
  }
  await prepareDatabase({ pgliteDir: folder }, chunks);
}
