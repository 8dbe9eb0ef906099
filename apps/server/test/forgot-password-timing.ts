/**
 * Measures how long forgot-password takes for an address with an account and for one without:
 * the median of 50 calls each way (alternating, paced, and in blocks), on a fresh database with the demo users (PGlite, and
 * the PostgreSQL server of TEST_DATABASE_URL too when it is set, in a database of its own).
 * Run: `npx tsx apps/server/test/forgot-password-timing.ts [calls]`. Not a test: timing
 * on a shared machine is noisy, so the tests check the mechanism and this script gives the figures.
 */
import { performance } from 'node:perf_hooks';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import type { DatabaseKind } from '../src/db/database.ts';
import { DATABASES, openTestDatabase } from './harness.ts';

const calls = Number.parseInt(process.argv[2] ?? '50', 10);
const KNOWN = 'full-user@demo.test';

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

async function measure(kind: DatabaseKind): Promise<string> {
  const testDb = await openTestDatabase(kind, { users: true });
  const config = loadConfig({ JWT_SECRET: 'timing-secret-that-is-long-enough-for-hs256', SERVER_NAME: 'timing' });
  const app = await buildApp({ config, database: testDb.handle });
  await app.ready();
  let n = 0;
  const timed = async (email: string): Promise<number> => {
    n += 1;
    // A new address per call keeps the per-address rate limit out of the figures.
    const remoteAddress = `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
    const start = performance.now();
    const res = await app.inject({ method: 'POST', url: '/api/pub/account/forgot-password', payload: { email }, remoteAddress });
    const ms = performance.now() - start;
    if (res.statusCode !== 200) throw new Error(`forgot-password answered ${res.statusCode}: ${res.body}`);
    return ms;
  };
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const report = (label: string, known: number[], unknown: number[]) =>
    `${kind}, ${label}: known address ${median(known).toFixed(2)} ms, unknown ${median(unknown).toFixed(2)} ms`;
  try {
    for (let i = 0; i < 5; i++) {
      await timed(KNOWN);
      await timed(`warm-${i}@nowhere.test`);
    }
    const lines: string[] = [];
    // Alternating, back to back: each call also waits for the mail the previous known call writes.
    let known: number[] = [];
    let unknown: number[] = [];
    for (let i = 0; i < calls; i++) {
      known.push(await timed(KNOWN));
      unknown.push(await timed(`ghost-${i}@nowhere.test`));
    }
    lines.push(report('alternating', known, unknown));
    // As a client that waits a moment between calls (the mail is written by then).
    known = [];
    unknown = [];
    for (let i = 0; i < calls; i++) {
      known.push(await timed(KNOWN));
      await pause(20);
      unknown.push(await timed(`paced-${i}@nowhere.test`));
      await pause(20);
    }
    lines.push(report('paced by 20 ms', known, unknown));
    // The same address again and again, back to back, then the same for unknown addresses.
    known = [];
    unknown = [];
    for (let i = 0; i < calls; i++) known.push(await timed(KNOWN));
    for (let i = 0; i < calls; i++) unknown.push(await timed(`block-${i}@nowhere.test`));
    lines.push(report('in blocks', known, unknown));
    return lines.join('\n');
  } finally {
    await app.close();
    await testDb.close();
  }
}

for (const kind of DATABASES) console.log(await measure(kind));
