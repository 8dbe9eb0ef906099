// `npm run bench -- prediction-speed [--database-url postgres://...] [--queries 60] [--selection 1000] [--selection-from spread|target] [--concurrency 2] [--model-dir DIR]`:
// how long target prediction takes (issue 38: one structure < 300 ms p95 at M, a selection of
// 1,000 < 10 s). Cold start (actives read and background estimated), then single structures typed
// as SMILES (the search page's panel) — each beside a plain similarity search ≥ 0.7 of the same
// structure in the same round, the reference the ratio is taken against — then a selection in
// batches of 50, `--concurrency` at a time as the web sends them. The model is the one in --model-dir, else
// ../shared/models/chembl-multitask when present, else none (the ensemble alone).
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { PREDICTION_BATCH_CONCURRENCY, PREDICTION_BATCH_MAX, PREDICTION_CONFIDENT_PROBABILITY } from '@kb/contracts/prediction';
import { openBenchDatabase, summary, time, writeResult } from './support/bench-kit.ts';
import { RdkitChemEngine } from '../apps/server/src/modules/chemistry/rdkit-engine.ts';
import { ModelRegistry } from '../apps/server/src/modules/prediction/model-registry.ts';
import { PredictionService } from '../apps/server/src/modules/prediction/prediction-service.ts';

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== '--'),
  options: {
    'database-url': { type: 'string' },
    queries: { type: 'string', default: '60' },
    selection: { type: 'string', default: '1000' },
    concurrency: { type: 'string', default: String(PREDICTION_BATCH_CONCURRENCY) },
    'model-dir': { type: 'string' },
    'selection-from': { type: 'string', default: 'spread' },
  },
});
/**
 * Which structures the selection holds: `spread` (default), structures at regular intervals of
 * str_id — unrelated to one another, the scan's worst case; `target`, the structures measured on
 * the most measured target, in str_id order — a results tab's rows, analogues of a few series.
 */
const selectionFrom = values['selection-from'] === 'target' ? 'target' : 'spread';
const queries = Number.parseInt(values.queries ?? '60', 10);
const selectionSize = Number.parseInt(values.selection ?? '1000', 10);
/** Batch calls in flight (the web's PREDICTION_BATCH_CONCURRENCY; 1: one after the other, as this bench sent them before). */
const concurrency = Math.max(1, Number.parseInt(values.concurrency ?? String(PREDICTION_BATCH_CONCURRENCY), 10));
const sharedModels = path.resolve(import.meta.dirname, '../../shared/models/chembl-multitask');
const modelDir = values['model-dir'] ?? (fs.existsSync(sharedModels) ? sharedModels : path.resolve('/nonexistent-model-folder'));

const handle = await openBenchDatabase(values['database-url']);
const db = handle.db;
const engine = new RdkitChemEngine(db);
const models = new ModelRegistry(modelDir);
const service = new PredictionService(db, engine, models);

const [indexMs] = await time(async () => {
  engine.start();
  await engine.ready();
});
// The background and the calibration are kept per knowledge-base version: drop them so the cold start is measured whole.
await db.deleteFrom('app_settings').where('key', 'in', ['prediction_background', 'prediction_calibration']).execute();
const [warmMs] = await time(() => service.warm());
const model = models.status();

const { rows: counts } = await sql<{
  structures: number;
  activities: number;
}>`SELECT (SELECT count(*)::int FROM structures) AS structures, (SELECT count(*)::int FROM activities) AS activities`.execute(db);
// Structures at regular intervals of str_id, typed as SMILES (not looked up by id).
const { rows: sample } = await sql<{ str_id: number; canonical_smiles: string }>`
  WITH numbered AS (SELECT str_id, canonical_smiles, row_number() OVER (ORDER BY str_id) AS n, count(*) OVER () AS total FROM structures)
  SELECT str_id::int AS str_id, canonical_smiles FROM numbered WHERE (n - 1) % greatest(1, total / ${queries + selectionSize}) = 0 ORDER BY str_id LIMIT ${queries + selectionSize}`.execute(
  db,
);
const singles = sample.slice(0, queries);
const selection =
  selectionFrom === 'spread'
    ? sample.slice(queries, queries + selectionSize).map((row) => row.str_id)
    : await targetStructures(selectionSize);

/**
 * The structures measured on the most measured target, in str_id order. The target is chosen
 * first and its activities read by its own index: as one query, the planner walked the whole
 * activities table in str_id order looking for them (minutes at L).
 */
async function targetStructures(limit: number): Promise<number[]> {
  const { rows: top } = await sql<{ target_id: number }>`SELECT target_id::int AS target_id FROM activities
    WHERE target_id IS NOT NULL GROUP BY target_id ORDER BY count(*) DESC LIMIT 1`.execute(db);
  const { rows } = await sql<{ str_id: number }>`SELECT str_id::int AS str_id FROM (SELECT DISTINCT str_id FROM activities
      WHERE target_id = ${top[0]?.target_id ?? 0} AND str_id IS NOT NULL) s ORDER BY str_id LIMIT ${limit}`.execute(db);
  return rows.map((row) => row.str_id);
}

const times = { predict: [] as number[], similarity: [] as number[] };
let inDomain = 0;
for (const row of singles) {
  const query = { kind: 'smiles' as const, text: row.canonical_smiles, desalt: true };
  const [similarityMs] = await time(() => engine.similarity(query, { min: 0.7, max: 1 }));
  const [predictMs, answer] = await time(() => service.predict(query, { limit: 15, minProbability: PREDICTION_CONFIDENT_PROBABILITY }));
  times.similarity.push(similarityMs);
  times.predict.push(predictMs);
  if (answer.domain.inDomain) inDomain += 1;
}

// Batches are sent as the web's selection view sends them (selection-batches.ts runBatches): a few in flight.
const [selectionMs] = await time(async () => {
  let next = 0;
  const sender = async () => {
    for (let at = next; at < selection.length; at = next) {
      next += PREDICTION_BATCH_MAX;
      await service.predictBatch(selection.slice(at, at + PREDICTION_BATCH_MAX), {
        limit: 10,
        minProbability: PREDICTION_CONFIDENT_PROBABILITY,
      });
    }
  };
  await Promise.all(Array.from({ length: concurrency }, sender));
});

const s = { predict: summary(times.predict), similarity: summary(times.similarity) };
const result = {
  database: handle.kind,
  size: counts[0],
  model,
  indexMs: Math.round(indexMs),
  warmMs: Math.round(warmMs),
  single: s,
  ratioP50: Number((s.predict.p50 / Math.max(s.similarity.p50, 0.1)).toFixed(2)),
  inDomain: `${inDomain}/${singles.length}`,
  selection: {
    from: selectionFrom,
    structures: selection.length,
    concurrency,
    ms: Math.round(selectionMs),
    perStructureMs: Number((selectionMs / Math.max(selection.length, 1)).toFixed(1)),
  },
};
const file = writeResult('prediction-speed', result);
console.log(
  `prediction-speed (${handle.kind}, ${counts[0]!.structures.toLocaleString('en-US')} structures, model ${model.state === 'installed' ? model.name : 'none'}): ` +
    `cold start ${Math.round(warmMs)} ms; one structure p50 ${s.predict.p50} / p95 ${s.predict.p95} ms (similarity ≥ 0.7 of the same p50 ${s.similarity.p50} ms, ×${result.ratioP50}); ` +
    `selection of ${selection.length} (${selectionFrom}, ${concurrency} batches in flight) ${(selectionMs / 1000).toFixed(1)} s (${result.selection.perStructureMs} ms each); in domain ${result.inDomain} → ${file}`,
);
await models.close();
await engine.close();
await handle.close();
