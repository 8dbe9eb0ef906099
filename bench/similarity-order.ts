// `npm run bench -- similarity-order [--database-url postgres://...] [--activities 750000] [--assays 2000] [--rounds 5]`:
// the default order of a similarity search's tabs (issue 14). A synthetic set (its own set id, removed
// afterwards) of `--activities` activities over a tenth as many scored structures and `--assays`
// assays, then the first page's ids in score order, two ways in the same run:
//   stored  — the score kept with each set row (migration 0012, written once by copySimilarities);
//   per-row — the score looked up per row in the page query (what the first version did).
// Also the one-time cost of writing the stored scores, and a reference: the page in key order.
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { openBenchDatabase, summary, writeResult } from './support/bench-kit.ts';

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== '--'),
  options: {
    'database-url': { type: 'string' },
    activities: { type: 'string', default: '750000' },
    assays: { type: 'string', default: '2000' },
    rounds: { type: 'string', default: '5' },
  },
});
const activities = Number.parseInt(values.activities ?? '750000', 10);
const assays = Number.parseInt(values.assays ?? '2000', 10);
const structures = Math.max(1, Math.floor(activities / 10));
const rounds = Number.parseInt(values.rounds ?? '5', 10);
// Per-row assay maxima read every activity of the set for each assay: cap them so a run ends.
const PER_ROW_TIMEOUT_MS = 120_000;

const handle = await openBenchDatabase(values['database-url']);
const db = handle.db;
const SET = -7_014_014; // negative: never a real session's set id

async function time(fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

async function clear() {
  for (const table of ['search_activities', 'search_structures', 'search_assays'] as const) {
    await sql`DELETE FROM ${sql.table(table)} WHERE set_id = ${SET}`.execute(db);
  }
}

await clear();
await sql`INSERT INTO search_structures (set_id, str_id, similarity)
  SELECT ${SET}, g, 0.3 + 0.7 * random() FROM generate_series(1, ${structures}) g`.execute(db);
await sql`INSERT INTO search_activities (set_id, act_id, str_id, assay_id)
  SELECT ${SET}, g, 1 + (g % ${structures}), 1 + (g % ${assays}) FROM generate_series(1, ${activities}) g`.execute(db);
await sql`INSERT INTO search_assays (set_id, assay_id, activities)
  SELECT ${SET}, assay_id, count(*) FROM search_activities WHERE set_id = ${SET} GROUP BY assay_id`.execute(db);
await sql`ANALYZE search_structures, search_activities, search_assays`.execute(db);

// The one-time write of the stored scores (as copySimilarities does it).
const writeMs = await time(async () => {
  await sql`UPDATE search_activities sa SET similarity = ss.similarity FROM search_structures ss
    WHERE sa.set_id = ${SET} AND ss.set_id = ${SET} AND ss.str_id = sa.str_id AND ss.similarity IS NOT NULL`.execute(db);
  await sql`UPDATE search_assays sy SET similarity = m.similarity
    FROM (SELECT assay_id AS id, max(similarity) AS similarity FROM search_activities WHERE set_id = ${SET} AND similarity IS NOT NULL GROUP BY assay_id) m
    WHERE sy.set_id = ${SET} AND sy.assay_id = m.id`.execute(db);
});

const QUERIES = {
  activitiesKeyOrder: sql`SELECT sa.act_id FROM search_activities sa WHERE sa.set_id = ${SET} ORDER BY sa.act_id LIMIT 25`,
  activitiesStored: sql`SELECT sa.act_id FROM search_activities sa WHERE sa.set_id = ${SET} ORDER BY sa.similarity DESC NULLS LAST, sa.act_id LIMIT 25`,
  activitiesPerRow: sql`SELECT sa.act_id FROM search_activities sa WHERE sa.set_id = ${SET}
    ORDER BY (SELECT ssx.similarity FROM search_structures ssx WHERE ssx.set_id = ${SET} AND ssx.str_id = sa.str_id) DESC NULLS LAST, sa.act_id LIMIT 25`,
  assaysStored: sql`SELECT sy.assay_id FROM search_assays sy WHERE sy.set_id = ${SET} ORDER BY sy.similarity DESC NULLS LAST, sy.assay_id LIMIT 25`,
  assaysPerRow: sql`SELECT sy.assay_id FROM search_assays sy WHERE sy.set_id = ${SET}
    ORDER BY (SELECT max(ssx.similarity) FROM search_activities sax JOIN search_structures ssx ON ssx.set_id = sax.set_id AND ssx.str_id = sax.str_id
      WHERE sax.set_id = ${SET} AND sax.assay_id = sy.assay_id) DESC NULLS LAST, sy.assay_id LIMIT 25`,
};

const timings: Record<string, ReturnType<typeof summary> | { timedOutAfterMs: number }> = {};
for (const [name, query] of Object.entries(QUERIES)) {
  const perRowAssays = name === 'assaysPerRow';
  const ms: number[] = [];
  try {
    for (let round = 0; round < (perRowAssays ? 1 : rounds); round++) {
      ms.push(
        await time(() =>
          db.transaction().execute(async (trx) => {
            if (handle.kind !== 'pglite') await sql`SET LOCAL statement_timeout = ${sql.lit(PER_ROW_TIMEOUT_MS)}`.execute(trx);
            await query.execute(trx);
          }),
        ),
      );
    }
    timings[name] = summary(ms);
  } catch (error) {
    if (!String(error).includes('statement timeout')) throw error;
    timings[name] = { timedOutAfterMs: PER_ROW_TIMEOUT_MS };
  }
}
await clear();

const p50 = (name: string) => {
  const t = timings[name];
  return t && 'p50' in t ? t.p50 : PER_ROW_TIMEOUT_MS;
};
const ratio = (a: string, b: string) => Number((p50(a) / Math.max(0.1, p50(b))).toFixed(1));
const result = {
  date: new Date().toISOString(),
  database: handle.kind,
  activities,
  structures,
  assays,
  rounds,
  writeStoredScoresMs: Number(writeMs.toFixed(1)),
  timings,
  ratios: {
    activitiesPerRowOverStored: ratio('activitiesPerRow', 'activitiesStored'),
    activitiesStoredOverKeyOrder: ratio('activitiesStored', 'activitiesKeyOrder'),
    assaysPerRowOverStored: ratio('assaysPerRow', 'assaysStored'),
  },
};
const file = writeResult('similarity-order', result);
console.log(
  `similarity-order ${handle.kind}: ${activities} activities, ${assays} assays; write stored scores ${result.writeStoredScoresMs} ms; ` +
    `activities p50 stored ${p50('activitiesStored')} ms, per-row ${p50('activitiesPerRow')} ms (x${result.ratios.activitiesPerRowOverStored}), key order ${p50('activitiesKeyOrder')} ms; ` +
    `assays p50 stored ${p50('assaysStored')} ms, per-row ${p50('assaysPerRow')} ms (x${result.ratios.assaysPerRowOverStored}) → ${file}`,
);
await handle.close();
