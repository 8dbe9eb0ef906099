// What every benchmark over the knowledge base shares: the database (seeded with demo S when
// empty), p50 / p95 summaries, and the JSON result file under bench/results/.
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { openDatabase } from '../../apps/server/src/db/database.ts';
import type { DatabaseHandle } from '../../apps/server/src/db/database.ts';
import { migrateToLatest } from '../../apps/server/src/db/migrate.ts';
import { seedDemoKnowledgeBase } from '../../apps/server/src/modules/knowledge-base/demo/demo-seed.ts';

/** The given PostgreSQL database, or in-memory PGlite; an empty knowledge base gets demo S first. */
export async function openBenchDatabase(url: string | undefined): Promise<DatabaseHandle> {
  const handle = await openDatabase({ url });
  await migrateToLatest(handle);
  const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM structures`.execute(handle.db);
  if (!rows[0]?.n) {
    console.error('empty knowledge base: seeding demo S first');
    await seedDemoKnowledgeBase(handle, { size: 'S' });
  }
  return handle;
}

export const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

/** n, p50, p95 and max of timings in ms (one decimal). */
export function summary(ms: number[]) {
  const s = [...ms].sort((a, b) => a - b);
  return { n: s.length, p50: Number(quantile(s, 0.5).toFixed(1)), p95: Number(quantile(s, 0.95).toFixed(1)), max: Number((s.at(-1) ?? 0).toFixed(1)) };
}

/** Writes bench/results/<name>-<timestamp>.json and answers its path relative to the working directory. */
export function writeResult(name: string, result: unknown): string {
  const dir = path.resolve(import.meta.dirname, '..', 'results');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  fs.writeFileSync(file, JSON.stringify(result, null, 2));
  return path.relative(process.cwd(), file);
}
