import type { PairFeatures } from './calibration.ts';
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
  /** The rank fusion's score (combine.ts): the order before calibration, kept for comparison in the benchmark. */
  score: number;
  /** What the calibration reads (calibration.ts). */
  features: PairFeatures;
}

/** A model output whose target the knowledge base holds no active of. */
export interface ModelOnlyOutput {
  output: number;
  chemblId: string;
  probability: number;
  z: number;
  eValue: number;
}

export interface RankedTargets {
  /** Every candidate (a near active or a model output), in the rank fusion's order. */
  ranked: RankedTarget[];
  /** The model's outputs on targets without actives here, by lift (best first), E-value at most `modelOnlyMaxE`. */
  modelOnly: ModelOnlyOutput[];
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
  modelOnlyMaxE = 0,
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
        features: {
          nearest: 0,
          ensembleZ: null,
          modelZ: null,
          actives: set.activesPerTarget[target]!,
          documents: set.documentsPerTarget[target]!,
        },
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
  const modelOnly: ModelOnlyOutput[] = [];
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
    for (const output of order) {
      const target = held(output);
      if (target === undefined) {
        const eValue = modelEValue(z[output]!, targets.length);
        if (eValue <= modelOnlyMaxE)
          modelOnly.push({ output, chemblId: targets[output]!, probability: probabilities[output]!, z: z[output]!, eValue });
        continue;
      }
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
    ranked: fused.map((f) => {
      const found = entry(Number(f.key.slice(1)));
      found.features.nearest = found.ensemble?.maxSimilarity ?? 0;
      found.features.ensembleZ = found.ensemble && found.ensemble.hits > 0 ? found.ensemble.zScore : null;
      found.features.modelZ = found.modelZ;
      return Object.assign(found, {
        score: f.score,
        nearestRank: f.nearestRank,
        ensembleRank: f.ensembleRank,
        modelRank: f.modelRank,
      });
    }),
    modelOnly,
  };
}
