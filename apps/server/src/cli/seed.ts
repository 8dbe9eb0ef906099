// `npm run seed -- --size S|M|L [--seed 42] [--database-url postgres://...] [--workers n]`
// Seeds the synthetic demo knowledge base into DATABASE_URL, else the embedded DB in DATA_DIR/db.
// Resumable: re-run the same command after an interruption and it continues with the next chunk.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { seedDemoKnowledgeBase } from '../modules/knowledge-base/demo/demo-seed.ts';
import type { DemoSize, SeedProgress } from '../modules/knowledge-base/demo/demo-seed.ts';

function progressBar(p: SeedProgress, startedAt: number): string {
  const width = 30;
  const filled = Math.round((p.chunksDone / p.chunksTotal) * width);
  const seconds = (performance.now() - startedAt) / 1000;
  const eta = p.chunksDone > 0 ? (seconds / p.chunksDone) * (p.chunksTotal - p.chunksDone) : 0;
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${p.chunksDone}/${p.chunksTotal} chunks, ` +
    `${p.structures.toLocaleString('en')} structures, ${p.activities.toLocaleString('en')} activities, ` +
    `${seconds.toFixed(0)} s, eta ${eta.toFixed(0)} s`;
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
  const handle = await openDatabase({ url, pgliteDir: url ? undefined : path.join(config.dataDir, 'db') });
  try {
    await migrateToLatest(handle);
    const startedAt = performance.now();
    const tty = process.stderr.isTTY;
    const summary = await seedDemoKnowledgeBase(handle, {
      size: size as DemoSize,
      seed: Number.parseInt(values.seed ?? '42', 10),
      ...(values.workers ? { workers: Number.parseInt(values.workers, 10) } : {}),
      onProgress: (p) => process.stderr.write(`${tty ? '\r' : ''}${progressBar(p, startedAt)}${tty ? '' : '\n'}`),
    });
    if (tty) process.stderr.write('\n');
    console.log(JSON.stringify(summary, null, 2));
  } finally {
    await handle.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
