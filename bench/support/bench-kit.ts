// What every benchmark over the knowledge base shares: the database (seeded with demo S when
// empty), p50 / p95 summaries, and the JSON result file under bench/results/.
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { SearchCriteria } from '@kb/contracts/search';
import { SearchCriteriaSchema } from '@kb/contracts/search';
import type { Database } from '../../apps/server/src/db/schema.ts';
import type { AuthContext } from '../../apps/server/src/http/auth-hook.ts';
import { openDatabase } from '../../apps/server/src/db/database.ts';
import type { DatabaseHandle } from '../../apps/server/src/db/database.ts';
import { migrateToLatest } from '../../apps/server/src/db/migrate.ts';
import { seedDemoKnowledgeBase } from '../../apps/server/src/modules/knowledge-base/demo/demo-seed.ts';
import { changeCredits } from '../../apps/server/src/modules/credits/credit-ledger.ts';

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

/** How long `fn` took (ms), with its value. */
export async function time<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const started = performance.now();
  const value = await fn();
  return [performance.now() - started, value];
}

export const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

/** n, p50, p95 and max of timings in ms (one decimal). */
export function summary(ms: number[]) {
  const s = [...ms].sort((a, b) => a - b);
  return {
    n: s.length,
    p50: Number(quantile(s, 0.5).toFixed(1)),
    p95: Number(quantile(s, 0.95).toFixed(1)),
    max: Number((s.at(-1) ?? 0).toFixed(1)),
  };
}

/** The newest result a bench wrote under `name` (bench/results/<name>-*.json) that `matches`, or null. */
export function newestResult<T>(name: string, matches: (result: T) => boolean): T | null {
  const dir = path.resolve(import.meta.dirname, '..', 'results');
  const files = fs.existsSync(dir)
    ? fs
        .readdirSync(dir)
        .filter((f) => f.startsWith(`${name}-`) && f.endsWith('.json'))
        .sort()
        .reverse()
    : [];
  for (const file of files) {
    const result = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as T;
    if (matches(result)) return result;
  }
  return null;
}

/** Writes bench/results/<name>-<timestamp>.json and answers its path relative to the working directory. */
export function writeResult(name: string, result: unknown): string {
  const dir = path.resolve(import.meta.dirname, '..', 'results');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  fs.writeFileSync(file, JSON.stringify(result, null, 2));
  return path.relative(process.cwd(), file);
}

/**
 * A simulated person's pauses with think time `seconds` (issue 62): `start` spreads the crowd's first
 * actions over one pause, `pause` waits 0.5–1.5 × `seconds` between two actions (never past
 * `until`), as people read a page before the next. With 0 seconds both return at once.
 */
export function thinkTime(seconds: number, until: number) {
  const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
  return {
    start: () => (seconds ? wait(Math.random() * seconds * 1000) : Promise.resolve()),
    pause: () => (seconds ? wait(Math.min(seconds * 1000 * (0.5 + Math.random()), Math.max(0, until - Date.now()))) : Promise.resolve()),
  };
}

/** A bench user with an open session to own search sessions (their sets are per user); credits when exports need them. */
export async function benchUser(db: Kysely<Database>, email: string, credits?: number): Promise<AuthContext> {
  await sql`INSERT INTO users (email, first_name) VALUES (${email}, 'Bench') ON CONFLICT (email) DO NOTHING`.execute(db);
  if (credits !== undefined) {
    // Through the ledger (balance = SUM(ledger)): the difference to the wanted balance as an adjustment.
    await db.transaction().execute(async (trx) => {
      const user = await trx.selectFrom('users').select(['id', 'credit_balance']).where('email', '=', email).executeTakeFirstOrThrow();
      const delta = credits - user.credit_balance;
      if (delta !== 0) await changeCredits(trx, { userId: user.id, delta, kind: 'adjustment', reason: 'Bench user' });
    });
  }
  const { rows } = await sql<{ id: number; user_hash_id: string }>`SELECT id, user_hash_id FROM users WHERE email = ${email}`.execute(db);
  const user = rows[0]!;
  const { rows: opened } = await sql<{
    id: string;
  }>`INSERT INTO user_sessions (user_id, user_agent) VALUES (${user.id}, 'bench') RETURNING id`.execute(db);
  return {
    userId: user.id,
    sessionId: opened[0]!.id,
    email,
    userHashId: user.user_hash_id,
    roles: ['FULL_USER'],
    lastActivityAt: new Date(),
    secondFactor: { passed: false, enrolled: false },
  };
}

/**
 * A search of about `wanted` activities: the most common activity type under a µM ceiling picked by
 * percentile (`margin` scales the share: under 1 to stay below a cap, over 1 to reach a size).
 */
export async function activitySearchOfSize(
  db: Kysely<Database>,
  wanted: number,
  margin: number,
): Promise<{ criteria: SearchCriteria; label: string }> {
  const { rows: types } = await sql<{ t: string; n: number }>`SELECT std_activity_type AS t, count(*)::int AS n FROM activities
    WHERE micro_molarvalue IS NOT NULL GROUP BY 1 ORDER BY 2 DESC LIMIT 1`.execute(db);
  const top = types[0]!;
  const fraction = Math.min(1, (wanted * margin) / top.n);
  const { rows } = await sql<{ v: number }>`SELECT percentile_disc(${fraction}::float8) WITHIN GROUP (ORDER BY micro_molarvalue) AS v
    FROM activities WHERE std_activity_type = ${top.t} AND micro_molarvalue IS NOT NULL`.execute(db);
  const ceiling = Number(rows[0]!.v);
  const criteria = SearchCriteriaSchema.parse({
    rows: [{ selectedOption: 'activitytypes', activities: [{ activityType: top.t, activityUom: 'uM', prefix: '<=', minValue: ceiling }] }],
  });
  return { criteria, label: `${top.t} <= ${ceiling} uM` };
}
