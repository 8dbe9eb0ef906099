/**
 * The combined ranking of the targets (docs/prediction.md "Combined"): a weighted reciprocal-rank
 * fusion of three orders of the knowledge base's targets — the nearest active's Tanimoto (the
 * nearest-neighbour signal), the ensemble's E-value, and the model's lift over the data's
 * background (targets the knowledge base holds with actives only). Chosen by measurement
 * (`npm run bench -- prediction`, docs/benchmarks.md "Target prediction"): the model's and the
 * E-value's scales do not compare across targets, while ranks do; the nearest active is the
 * strongest single signal on real data, so it weighs double. Pure: the service and the benchmark
 * rank with this one function.
 */

/** Fusion constant k of 1 / (k + rank): small, so first places count most. */
export const FUSION_K = 2;
/** Weights of the nearest-neighbour, ensemble and model orders. */
export const FUSION_WEIGHTS = { nearest: 2, ensemble: 1, model: 1 } as const;

export interface RankedInputs {
  /** Target keys by the nearest active's Tanimoto, best first. */
  nearest: readonly string[];
  /** By the ensemble's E-value. */
  ensemble: readonly string[];
  /** By the model's z-score, only targets the knowledge base holds with actives. */
  model: readonly string[];
}

export interface FusedTarget {
  key: string;
  /** 0–1: the fused score over the best a target can get (first in all three orders). */
  score: number;
  /** 1-based rank in each order, null where absent. */
  nearestRank: number | null;
  ensembleRank: number | null;
  modelRank: number | null;
}

/** The fused order, best first; ties by the nearest-neighbour rank, then the key. */
export function fuseRankings(inputs: RankedInputs): FusedTarget[] {
  const best = (FUSION_WEIGHTS.nearest + FUSION_WEIGHTS.ensemble + FUSION_WEIGHTS.model) / (FUSION_K + 1);
  const byKey = new Map<string, FusedTarget & { sum: number }>();
  const add = (list: readonly string[], weight: number, field: 'nearestRank' | 'ensembleRank' | 'modelRank') => {
    list.forEach((key, index) => {
      let entry = byKey.get(key);
      if (!entry) {
        entry = { key, score: 0, sum: 0, nearestRank: null, ensembleRank: null, modelRank: null };
        byKey.set(key, entry);
      }
      if (entry[field] !== null) return;
      entry[field] = index + 1;
      entry.sum += weight / (FUSION_K + index + 1);
    });
  };
  add(inputs.nearest, FUSION_WEIGHTS.nearest, 'nearestRank');
  add(inputs.ensemble, FUSION_WEIGHTS.ensemble, 'ensembleRank');
  add(inputs.model, FUSION_WEIGHTS.model, 'modelRank');
  return [...byKey.values()]
    .map(({ sum, ...entry }) => ({ ...entry, score: sum / best }))
    .sort((a, b) => b.score - a.score || (a.nearestRank ?? Infinity) - (b.nearestRank ?? Infinity) || a.key.localeCompare(b.key));
}

/** The model's E-value for a target: P(Z ≥ z) under the standard normal, times its targets. */
export function modelEValue(z: number, targets: number): number {
  return normalUpperTail(z) * targets;
}

/** P(Z ≥ z), Z standard normal: erfc by the Chebyshev fit of Numerical Recipes (relative error < 1.2e-7). */
export function normalUpperTail(z: number): number {
  return 0.5 * erfc(z / Math.SQRT2);
}

function erfc(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const r =
    t *
    Math.exp(
      -z * z -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t *
                  (0.09678418 +
                    t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? r : 2 - r;
}
