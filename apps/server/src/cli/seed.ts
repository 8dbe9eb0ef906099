// `npm run seed -- --size S|M|L [--seed 42] [--database-url postgres://...] [--workers n]`
// Seeds the synthetic demo knowledge base into DATABASE_URL, else the embedded DB in DATA_DIR/db.
// Resumable: re-run the same command after an interruption and it continues with the next chunk.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { ChemPool } from '../modules/knowledge-base/chem/chem-pool.ts';
import { seedDemoKnowledgeBase } from '../modules/knowledge-base/demo/demo-seed.ts';
import { refreshDerivedData } from '../modules/knowledge-base/derived-data.ts';
import type { DemoSize, SeedProgress } from '../modules/knowledge-base/demo/demo-seed.ts';

/** `resumedAt`: chunks already done before this run (a resumed run's rate counts only its own). */
function progressBar(p: SeedProgress, startedAt: number, resumedAt: number): string {
  const width = 30;
  const filled = Math.round((p.chunksDone / p.chunksTotal) * width);
  const seconds = (performance.now() - startedAt) / 1000;
  const thisRun = p.chunksDone - resumedAt;
  const eta = thisRun > 0 ? (seconds / thisRun) * (p.chunksTotal - p.chunksDone) : 0;
  return (
    `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${p.chunksDone}/${p.chunksTotal} chunks, ` +
    `${p.structures.toLocaleString('en')} structures, ${p.activities.toLocaleString('en')} activities, ` +
    `${seconds.toFixed(0)} s, eta ${eta.toFixed(0)} s`
  );
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      size: { type: 'string', default: 'S' },
      seed: { type: 'string', default: '42' },
      'database-url': { type: 'string' },
      workers: { type: 'string' },
    },
  });
  const size = (values.size ?? 'S').toUpperCase();
  if (!['S', 'M', 'L'].includes(size)) throw new Error(`--size must be S, M or L (got ${values.size})`);
  const config = loadConfig();
  const url = values['database-url'] ?? config.databaseUrl;
  if (size === 'L' && !url) throw new Error('Size L needs a PostgreSQL server: pass --database-url or set DATABASE_URL.');
  // Started first: the workers load RDKit (WASM) while the database starts and migrates.
  const pool = new ChemPool(values.workers ? Number.parseInt(values.workers, 10) : undefined);
  const handle = await openDatabase({ url, pgliteDir: url ? undefined : path.join(config.dataDir, 'db') }).catch(async (error: unknown) => {
    await pool.close();
    throw error;
  });
  try {
    await migrateToLatest(handle);
    const startedAt = performance.now();
    const tty = process.stderr.isTTY;
    let resumedAt: number | undefined;
    const summary = await seedDemoKnowledgeBase(handle, {
      size: size as DemoSize,
      seed: Number.parseInt(values.seed ?? '42', 10),
      pool,
      onProgress: (p) => {
        resumedAt ??= p.chunksDone - 1;
        process.stderr.write(`${tty ? '\r' : ''}${progressBar(p, startedAt, resumedAt)}${tty ? '' : '\n'}`);
      },
    });
    if (tty) process.stderr.write('\n');
    if (!summary.skipped) await refreshDerivedData(handle.db, (m) => console.error(m));
    console.log(JSON.stringify(summary, null, 2));
  } finally {
    await pool.close();
    await handle.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
