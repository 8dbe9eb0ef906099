/**
 * The combined score of a target (docs/prediction.md "Combined"). Both predictors are read the
 * same way, as an E-value — how many targets would score this well by chance against the data's
 * own background: the ensemble's from its extreme-value fit, the model's from the normal upper
 * tail of its background z-score times the model's number of targets. exp(−E) is then the chance
 * that no random target scores as well, and the combined score the chance that at least one
 * predictor's signal is real: 1 − (1 − e^(−E₁))(1 − e^(−E₂)). A predictor with nothing for the
 * target (no similar active; not a model target) leaves the other's.
 */
export function combinedScore(ensembleE: number | null, modelE: number | null): number {
  const a = ensembleE === null || !Number.isFinite(ensembleE) ? null : Math.exp(-ensembleE);
  const b = modelE === null || !Number.isFinite(modelE) ? null : Math.exp(-modelE);
  if (a === null) return b ?? 0;
  if (b === null) return a;
  return 1 - (1 - a) * (1 - b);
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
      -z * z - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? r : 2 - r;
}
