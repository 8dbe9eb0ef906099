// The bench's own pieces beside the product's predictors (bench/prediction.ts): the 1-NN baseline,
// the model's background on the bench's sample, and the scaffold split's hash.
import { logit } from '../../apps/server/src/modules/prediction/model-background.ts';
import type { ModelBackground } from '../../apps/server/src/modules/prediction/model-background.ts';
import type { MultitaskModel } from '../../apps/server/src/modules/prediction/multitask/multitask-model.ts';
import { activeIndexOf } from '../../apps/server/src/modules/prediction/similarity-ensemble.ts';
import type { ActiveSet, Neighbour } from '../../apps/server/src/modules/prediction/similarity-ensemble.ts';
import { keyOf } from './prediction-rank.ts';
import type { TargetKey } from './prediction-rank.ts';

/** model-background.ts estimateModelBackground's arithmetic, on fingerprints of the bench's sample instead of the database's. */
export async function estimateModelBackground(m: MultitaskModel, fingerprints: readonly Uint8Array[]): Promise<ModelBackground> {
  const T = m.targets.length;
  const sum = new Float64Array(T);
  const squares = new Float64Array(T);
  for (const fingerprint of fingerprints) {
    const probabilities = await m.predict(fingerprint);
    for (let t = 0; t < T; t++) {
      const value = logit(probabilities[t]!);
      sum[t]! += value;
      squares[t]! += value * value;
    }
  }
  const n = fingerprints.length;
  const mean = Float64Array.from(sum, (s) => (n > 0 ? s / n : 0));
  const sd = Float64Array.from(squares, (s, t) => (n > 1 ? Math.sqrt(Math.max(0, s / n - mean[t]! * mean[t]!)) : 1));
  return { mean, sd };
}

/** Targets by their single most similar active among the neighbours (the 1-NN baseline), forms of the query's parent left out. */
export function nearestNeighbourRanking(
  neighbours: readonly Neighbour[],
  set: ActiveSet,
  exclude: (strId: number) => boolean,
  excludeParent: number | null,
): TargetKey[] {
  const best = new Map<number, number>();
  for (const neighbour of neighbours) {
    if (exclude(neighbour.strId)) continue;
    const at = activeIndexOf(set, neighbour.strId);
    if (at < 0 || (excludeParent !== null && set.parentOf[at] === excludeParent)) continue;
    for (let k = set.offsets[at]!; k < set.offsets[at + 1]!; k++) {
      const target = set.targetOf[k]!;
      if ((best.get(target) ?? -1) < neighbour.similarity) best.set(target, neighbour.similarity);
    }
  }
  return [...best.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([target]) => keyOf(target, null));
}

/** FNV-1a of a text (the scaffold split's fold). */
export function hashText(text: string): number {
  let h = 0x811c9dc5;
  for (let k = 0; k < text.length; k++) h = Math.imul(h ^ text.charCodeAt(k), 0x01000193);
  return h >>> 0;
}
