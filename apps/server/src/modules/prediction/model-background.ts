import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { BACKGROUND_QUERIES, sampleStructures } from './background.ts';
import type { MultitaskModel } from './multitask/multitask-model.ts';

/**
 * The multitask model's outputs for structures of the knowledge base taken at random, per target:
 * mean and spread of the logit. The raw probabilities do not compare across targets — a target
 * whose training set was mostly actives answers 0.9 for aspirin and caffeine alike — so the model's
 * ranking is by how far a query lifts a target above what the data's structures get (a z-score of
 * the logit), the same idea as the ensemble's background (docs/prediction.md "Predictor 2").
 */
export interface ModelBackground {
  mean: Float64Array;
  sd: Float64Array;
}

const EPSILON = 1e-6;

export function logit(p: number): number {
  const q = Math.min(1 - EPSILON, Math.max(EPSILON, p));
  return Math.log(q / (1 - q));
}

/** The z-score of a query's logit per target against the background (spread floored at 0.05 logit units). */
export function modelZ(probabilities: Float32Array, background: ModelBackground | null): Float64Array {
  return Float64Array.from(probabilities, (p, t) =>
    background ? (logit(p) - background.mean[t]!) / Math.max(background.sd[t]!, 0.05) : logit(p),
  );
}

export async function estimateModelBackground(db: Kysely<Database>, model: MultitaskModel): Promise<ModelBackground> {
  const sample = await sampleStructures(db, BACKGROUND_QUERIES);
  const targets = model.targets.length;
  const sum = new Float64Array(targets);
  const squares = new Float64Array(targets);
  let n = 0;
  for (const row of sample) {
    if (!row.morgan) continue;
    const probabilities = await model.predict(row.morgan);
    for (let t = 0; t < targets; t++) {
      const value = logit(probabilities[t]!);
      sum[t]! += value;
      squares[t]! += value * value;
    }
    n += 1;
  }
  const mean = Float64Array.from(sum, (s) => (n > 0 ? s / n : 0));
  const sd = Float64Array.from(squares, (s, t) => (n > 1 ? Math.sqrt(Math.max(0, s / n - mean[t]! * mean[t]!)) : 1));
  return { mean, sd };
}
