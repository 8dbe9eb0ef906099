/**
 * The combined score of a target (docs/prediction.md "Combined"): the chance that at least one
 * predictor is right, reading the ensemble's E-value as the probability exp(−E) that no random
 * target would score as well, and the multitask output as the probability it is; a predictor
 * without an answer for the target (no similar active; not a model target) leaves the other's.
 */
export function combinedScore(eValue: number | null, probability: number | null): number {
  const ensemble = eValue === null || !Number.isFinite(eValue) ? null : Math.exp(-eValue);
  if (ensemble === null) return probability ?? 0;
  if (probability === null) return ensemble;
  return 1 - (1 - ensemble) * (1 - probability);
}
