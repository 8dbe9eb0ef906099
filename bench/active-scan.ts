// `npm run bench -- active-scan [-- --database-url postgres://...] [--queries 400] [--from spread|series] [--batch 50] [--workers N]`:
// target prediction's scan of the actives alone (issue 60; docs/prediction.md "Speed"), as the
// service builds it (active-index.ts readActiveSet, ActiveScan.build, attach), timed over stored
// structures' fingerprints scored in batches as the selection sends them, one batch at a time:
// `spread` takes structures at regular intervals of str_id (unrelated: the scan's worst case),
// `series` consecutive ones from the middle of the table (analogues, as a results tab holds).
// Compare two versions by running it at each (a git worktree of the older one) on the same
// database. Prints one line and writes bench/results/active-scan-*.json.
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { openBenchDatabase, summary, writeResult } from './support/bench-kit.ts';
import { readActiveSet } from '../apps/server/src/modules/prediction/active-index.ts';
import { ActiveScan } from '../apps/server/src/modules/prediction/active-scan.ts';
import type { ScoreQuery } from '../apps/server/src/modules/prediction/active-scan.ts';
import {
  RAW_TOP_K,
  SCAN_MIN_SIMILARITY,
  ENSEMBLE_THRESHOLD,
  withParents,
  withoutStructures,
} from '../apps/server/src/modules/prediction/similarity-ensemble.ts';
import { PREDICTION_EVIDENCE_MAX, PREDICTION_NEAREST_MAX } from '@kb/contracts/prediction';

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== '--'),
  options: {
    'database-url': { type: 'string' },
    queries: { type: 'string', default: '400' },
    from: { type: 'string', default: 'spread' },
    batch: { type: 'string', default: '50' },
    workers: { type: 'string' },
  },
});
const queryCount = Number.parseInt(values.queries ?? '400', 10);
const from = values.from === 'series' ? 'series' : 'spread';
const batch = Math.max(1, Number.parseInt(values.batch ?? '50', 10));

const handle = await openBenchDatabase(values['database-url']);
const db = handle.db;
const started = performance.now();
const read = await readActiveSet(db);
const scan = await ActiveScan.build(db, read.strIds, values.workers ? { workers: Number(values.workers) } : {});
const set = withParents(withoutStructures(read, scan.withoutFingerprint), (strId) => scan.parentOfStructure(strId));
await scan.attach(set);
const buildMs = performance.now() - started;

// The queries' stored fingerprints (each its own structure excluded, as a stored compound's prediction does).
const { rows } =
  from === 'spread'
    ? await sql<{ str_id: number; fp: Uint8Array }>`WITH numbered AS (
          SELECT str_id, morgan_fp, row_number() OVER (ORDER BY str_id) AS n, count(*) OVER () AS total FROM structures WHERE morgan_fp IS NOT NULL)
        SELECT str_id::int AS str_id, morgan_fp AS fp FROM numbered WHERE (n - 1) % greatest(1, total / ${queryCount}) = 0 ORDER BY str_id LIMIT ${queryCount}`.execute(
        db,
      )
    : await sql<{ str_id: number; fp: Uint8Array }>`SELECT str_id::int AS str_id, morgan_fp AS fp FROM structures
        WHERE morgan_fp IS NOT NULL AND str_id >= (SELECT (min(str_id) + max(str_id)) / 2 FROM structures) ORDER BY str_id LIMIT ${queryCount}`.execute(
        db,
      );
const queries: ScoreQuery[] = rows.map((row) => ({
  fingerprint: new Uint8Array(row.fp),
  exclude: [row.str_id],
  excludeParent: scan.parentOfStructure(row.str_id),
}));
const shape = {
  min: SCAN_MIN_SIMILARITY,
  threshold: ENSEMBLE_THRESHOLD,
  keep: Math.max(RAW_TOP_K, PREDICTION_EVIDENCE_MAX),
  nearest: PREDICTION_NEAREST_MAX,
};
// One warm-up batch, then every batch timed.
await scan.score(queries.slice(0, batch), shape);
const perQuery: number[] = [];
let targets = 0;
const scoring = performance.now();
for (let at = 0; at < queries.length; at += batch) {
  const part = queries.slice(at, at + batch);
  const t = performance.now();
  const tops = await scan.score(part, shape);
  perQuery.push((performance.now() - t) / part.length);
  targets += tops.reduce((n, top) => n + top.targets.length, 0);
}
const totalMs = performance.now() - scoring;
await scan.close();
await handle.close();

const result = {
  database: handle.kind,
  actives: read.strIds.length,
  postings: scan.postings,
  from,
  queries: queries.length,
  batch,
  buildMs: Math.round(buildMs),
  perQueryMs: summary(perQuery),
  msPerQuery: Number((totalMs / Math.max(queries.length, 1)).toFixed(2)),
  targetsPerQuery: Number((targets / Math.max(queries.length, 1)).toFixed(1)),
};
const file = writeResult('active-scan', result);
console.log(
  `active-scan (${handle.kind}, ${result.actives.toLocaleString('en-US')} actives, ${result.postings.toLocaleString('en-US')} postings): ` +
    `built in ${result.buildMs} ms; ${result.queries} ${from} queries in batches of ${batch}: ${result.msPerQuery} ms a query ` +
    `(batches p50 ${result.perQueryMs.p50} / p95 ${result.perQueryMs.p95} ms a query), ${result.targetsPerQuery} targets a query → ${file}`,
);
