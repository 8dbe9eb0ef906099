import { fuseRankings, modelEValue } from './combine.ts';
import type { ActiveSet, TargetScore } from './similarity-ensemble.ts';

/** The model's answer for one structure: raw probabilities and their z-scores against the data's background (model-background.ts). */
export interface ModelOutputs {
  targets: readonly string[];
  probabilities: Float32Array;
  z: Float64Array;
}

/** One target of a structure's combined list: each predictor's answer and rank. */
export interface RankedTarget {
  key: string;
  /** Index into the active set's targets. */
  target: number;
  ensemble: TargetScore | null;
  nearestRank: number | null;
  ensembleRank: number | null;
  probability: number | null;
  modelZ: number | null;
  modelE: number | null;
  /** Rank by the model among the targets the knowledge base holds with actives. */
  modelRank: number | null;
  score: number;
}

export interface RankedTargets {
  ranked: RankedTarget[];
  /** Of the model's 10 best targets over all its outputs, those the knowledge base holds no active of (left out). */
  modelOnlyInTop10: number;
}

const targetKey = (target: number) => `t${target}`;

/**
 * The three orders of a structure's targets and their fusion (combine.ts), for the service and the
 * benchmark alike: nearest active, ensemble E-value, and the model's z-score over the targets the
 * knowledge base holds with actives — model targets it lacks have no name, no evidence and no
 * search here, and ranked beside the others they pushed measured targets down
 * (docs/benchmarks.md "Target prediction").
 */
export function rankTargets(
  set: ActiveSet,
  ensemble: readonly TargetScore[],
  outputs: ModelOutputs | null,
  targetOfChemblId: (chemblId: string) => number | undefined,
): RankedTargets {
  const byTarget = new Map<number, RankedTarget>();
  const entry = (target: number): RankedTarget => {
    let found = byTarget.get(target);
    if (!found) {
      found = {
        key: targetKey(target),
        target,
        ensemble: null,
        nearestRank: null,
        ensembleRank: null,
        probability: null,
        modelZ: null,
        modelE: null,
        modelRank: null,
        score: 0,
      };
      byTarget.set(target, found);
    }
    return found;
  };
  for (const score of ensemble) entry(score.target).ensemble = score;
  const nearest = [...ensemble].sort(
    (a, b) => b.maxSimilarity - a.maxSimilarity || (a.evidence[0]?.nm ?? Infinity) - (b.evidence[0]?.nm ?? Infinity) || a.target - b.target,
  );
  const model: number[] = [];
  let modelOnlyInTop10 = 0;
  if (outputs) {
    const { z, probabilities, targets } = outputs;
    // A non-finite output (a broken model file) is no answer for that target.
    const order = Array.from(z.keys())
      .filter((output) => Number.isFinite(z[output]!) && Number.isFinite(probabilities[output]!))
      .sort((a, b) => z[b]! - z[a]! || probabilities[b]! - probabilities[a]!);
    const held = (output: number) => {
      const target = targetOfChemblId(targets[output]!);
      return target !== undefined && set.activesPerTarget[target]! > 0 ? target : undefined;
    };
    modelOnlyInTop10 = order.slice(0, 10).filter((output) => held(output) === undefined).length;
    for (const output of order) {
      const target = held(output);
      if (target === undefined) continue;
      const found = entry(target);
      if (found.probability !== null) continue;
      found.probability = probabilities[output]!;
      found.modelZ = z[output]!;
      found.modelE = modelEValue(z[output]!, targets.length);
      model.push(target);
    }
  }
  const fused = fuseRankings({
    nearest: nearest.map((s) => targetKey(s.target)),
    ensemble: ensemble.map((s) => targetKey(s.target)),
    model: model.map(targetKey),
  });
  return {
    ranked: fused.map((f) =>
      Object.assign(entry(Number(f.key.slice(1))), {
        score: f.score,
        nearestRank: f.nearestRank,
        ensembleRank: f.ensembleRank,
        modelRank: f.modelRank,
      }),
    ),
    modelOnlyInTop10,
  };
}
