/**
 * Probabilities that mean what they say (docs/prediction.md "Probabilities"): the chance that a
 * query is active on a target (at or below the family's threshold), fitted on compounds of the
 * knowledge base whose own documents were held out, per predictor and for the combination.
 * Pure functions: the service fits on its own sample (calibration-sample.ts) and the benchmark
 * (bench/prediction.ts) fits and checks on its folds with the same code.
 *
 * Each predictor's own probability is a logistic function (Platt scaling) of its one score — the
 * ensemble's z-score, the model's lift — so it is monotone in that score. The combination is a
 * logistic regression on what is known of a (query, target) pair — the Tanimoto of the target's
 * nearest active (the target's own applicability domain), the ensemble's z-score, the model's
 * lift, and how many documents the target's actives come from (so a target known from one paper
 * gets less for the same similarity: the fit says how much) — followed by an isotonic map of its
 * output onto the observed rates. The target's number of actives is deliberately not an input: it
 * is a popularity prior that raised recall when a compound's own paper was held out but lowered it
 * on later papers and new scaffolds, and it is what put hERG near the top for every drug
 * (docs/benchmarks.md "Calibration"). Last, a target of few actives is shrunk towards the base
 * rate by one active's worth (`shrink`): one measured compound may be an artefact of its assay,
 * which no held-out fold can show.
 */

/** Points (x ascending → y) of a monotone map, linear between them (`isotonicMap`). */
export interface IsotonicMap {
  x: number[];
  y: number[];
}

/** What the predictors say about one (query, target) pair. */
export interface PairFeatures {
  /** Tanimoto of the target's nearest active (another parent than the query's); 0 when none reaches the scan's minimum. */
  nearest: number;
  /** The ensemble's z-score; null when no active of the target reaches its threshold. */
  ensembleZ: number | null;
  /** The model's lift (z-score of the logit); null without a model or for a target not the model's. */
  modelZ: number | null;
  actives: number;
  documents: number;
}

export interface LabelledPair extends PairFeatures {
  /** The query is active on the target (measured). */
  active: boolean;
  /** The query it belongs to: folds keep a query's pairs together. */
  query: number;
}

export interface Calibration {
  source: 'knowledge base' | 'default';
  /** Whether the combination uses the model's lift (fitted with a model installed). */
  withModel: boolean;
  /** Logistic weights of `combinedVector`, intercept last. */
  combined: number[];
  /**
   * An isotonic map of the logistic output (x ascending → y, linear between points): where the
   * logistic curve is too steep or too flat for the data, the observed rates correct it, and the
   * order stays the same. Empty: the logistic output as it is.
   */
  isotonic: IsotonicMap;
  /** Platt scaling [slope, intercept] of the ensemble's score and of the model's lift, each followed by its isotonic map. */
  ensemble: [number, number];
  model: [number, number] | null;
  ensembleIsotonic: IsotonicMap;
  modelIsotonic: IsotonicMap;
  /** Share of active pairs among the fit's pairs: what shrinkage pulls towards. */
  baseRate: number;
  queries: number;
  pairs: number;
  positives: number;
  /** Brier score on pairs held out of the fit (5 folds by query); null for the default. */
  brier: number | null;
}

/** Fewer active pairs than this in the sample: too few to fit, the default coefficients answer. */
const CALIBRATION_MIN_POSITIVES = 30;
/** Ridge penalty of the fits (on the weights, not the intercept): keeps a small sample's fit finite. */
const RIDGE = 1e-2;

/** The ensemble's score as Platt scaling reads it: log(1 + z) for a positive z, 0 otherwise (none: 0). */
function ensembleScore(z: number | null): number {
  return z === null || !(z > 0) ? 0 : Math.log1p(Math.min(z, 1e6));
}

/** The model's lift, clamped (a broken output must not dominate). */
function modelScore(z: number | null): number {
  return z === null || !Number.isFinite(z) ? 0 : Math.max(-5, Math.min(15, z));
}

/** The combination's inputs for a pair (its layout changes with `withModel`). */
function combinedVector(pair: PairFeatures, withModel: boolean): number[] {
  const base = [pair.nearest, pair.nearest * pair.nearest, ensembleScore(pair.ensembleZ), Math.log10(1 + pair.documents)];
  return withModel ? [...base, modelScore(pair.modelZ), pair.modelZ === null ? 0 : 1] : base;
}

export interface PairProbabilities {
  /** The combination, shrunk for a target of few actives: the probability shown and ordered by. */
  probability: number;
  /** The logistic output before the isotonic map: orders targets the map puts level (the same order, finer). */
  logistic: number;
  ensemble: number;
  /** Null when the model has no output for the target. */
  model: number | null;
}

export function probabilities(calibration: Calibration, pair: PairFeatures): PairProbabilities {
  const logistic = sigmoid(dot(calibration.combined, combinedVector(pair, calibration.withModel)));
  return {
    probability: shrink(isotonicMap(calibration.isotonic, logistic), pair.actives, calibration.baseRate),
    logistic,
    ensemble: isotonicMap(calibration.ensembleIsotonic, platt(calibration.ensemble, ensembleScore(pair.ensembleZ))),
    model: pair.modelZ === null ? null : modelProbability(calibration, pair.modelZ),
  };
}

/** The model's own calibrated probability from its lift alone (its targets without actives here, too). */
export function modelProbability(calibration: Calibration, z: number): number | null {
  return calibration.model ? isotonicMap(calibration.modelIsotonic, platt(calibration.model, modelScore(z))) : null;
}

/** Fits every part on labelled pairs; the Brier score from 5 folds by query. Null when too few actives. */
/** Pseudo-actives of shrinkage: a target of n actives keeps n / (n + 1) of its probability, the rest is the base rate. */
const SHRINK_ACTIVES = 1;

/** Towards the base rate by one active's worth: (n·p + base) / (n + 1). */
export function shrink(p: number, actives: number, baseRate: number): number {
  const n = Math.max(0, actives);
  return (n * p + SHRINK_ACTIVES * baseRate) / (n + SHRINK_ACTIVES);
}

export function fitCalibration(pairs: readonly LabelledPair[], withModel: boolean): Calibration | null {
  const positives = pairs.filter((pair) => pair.active).length;
  if (positives < CALIBRATION_MIN_POSITIVES || positives === pairs.length) return null;
  const fitted = fitParts(pairs, withModel);
  let squares = 0;
  let held = 0;
  for (let fold = 0; fold < 5; fold++) {
    const inFold = (pair: LabelledPair) => pair.query % 5 === fold;
    const training = pairs.filter((pair) => !inFold(pair));
    if (training.filter((pair) => pair.active).length < 3) continue;
    const part = fitParts(training, withModel);
    for (const pair of pairs.filter(inFold)) {
      squares += (probabilities(part, pair).probability - Number(pair.active)) ** 2;
      held += 1;
    }
  }
  return { ...fitted, brier: held > 0 ? squares / held : null };
}

function fitParts(pairs: readonly LabelledPair[], withModel: boolean): Calibration {
  const labels = pairs.map((pair) => Number(pair.active));
  const positives = labels.reduce((sum, y) => sum + y, 0);
  const withOutput = pairs.filter((pair) => pair.modelZ !== null);
  const vectors = pairs.map((pair) => combinedVector(pair, withModel));
  const combined = logisticFit(vectors, labels);
  const ensembleScores = pairs.map((pair) => [ensembleScore(pair.ensembleZ)]);
  const ensemble = logisticFit(ensembleScores, labels) as [number, number];
  const modelLabels = withOutput.map((pair) => Number(pair.active));
  const model =
    withModel && withOutput.some((pair) => pair.active)
      ? (logisticFit(
          withOutput.map((pair) => [modelScore(pair.modelZ)]),
          modelLabels,
        ) as [number, number])
      : null;
  return {
    source: 'knowledge base',
    withModel,
    combined,
    isotonic: isotonicFit(
      vectors.map((x) => sigmoid(dot(combined, x))),
      labels,
    ),
    ensemble,
    model,
    ensembleIsotonic: isotonicFit(
      ensembleScores.map(([x]) => platt(ensemble, x!)),
      labels,
    ),
    modelIsotonic: model
      ? isotonicFit(
          withOutput.map((pair) => platt(model, modelScore(pair.modelZ))),
          modelLabels,
        )
      : { x: [], y: [] },
    baseRate: positives / Math.max(1, pairs.length),
    queries: new Set(pairs.map((pair) => pair.query)).size,
    pairs: pairs.length,
    positives,
    brier: null,
  };
}

/**
 * Ridge-penalised logistic regression by Newton's method (a handful of inputs, so the Hessian is
 * solved directly); returns the weights with the intercept last.
 */
export function logisticFit(rows: readonly number[][], labels: readonly number[], iterations = 50): number[] {
  const width = (rows[0]?.length ?? 0) + 1;
  const w = new Array<number>(width).fill(0);
  for (let iteration = 0; iteration < iterations; iteration++) {
    const gradient = new Array<number>(width).fill(0);
    const hessian = Array.from({ length: width }, () => new Array<number>(width).fill(0));
    rows.forEach((row, i) => {
      const x = [...row, 1];
      const p = sigmoid(dot(w, x));
      const weight = Math.max(p * (1 - p), 1e-9);
      for (let a = 0; a < width; a++) {
        gradient[a]! += (p - labels[i]!) * x[a]!;
        for (let b = 0; b < width; b++) hessian[a]![b]! += weight * x[a]! * x[b]!;
      }
    });
    for (let a = 0; a < width - 1; a++) {
      gradient[a]! += RIDGE * w[a]!;
      hessian[a]![a]! += RIDGE;
    }
    const step = solve(hessian, gradient);
    if (!step) break;
    let largest = 0;
    for (let a = 0; a < width; a++) {
      w[a]! -= step[a]!;
      largest = Math.max(largest, Math.abs(step[a]!));
    }
    if (largest < 1e-8) break;
  }
  return w;
}

/** Gaussian elimination with partial pivoting; null for a singular system. */
function solve(matrix: number[][], vector: number[]): number[] | null {
  const n = vector.length;
  const a = matrix.map((row, i) => [...row, vector[i]!]);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let row = col + 1; row < n; row++) if (Math.abs(a[row]![col]!) > Math.abs(a[pivot]![col]!)) pivot = row;
    if (Math.abs(a[pivot]![col]!) < 1e-12) return null;
    [a[col], a[pivot]] = [a[pivot]!, a[col]!];
    for (let row = 0; row < n; row++) {
      if (row === col) continue;
      const factor = a[row]![col]! / a[col]![col]!;
      for (let k = col; k <= n; k++) a[row]![k]! -= factor * a[col]![k]!;
    }
  }
  return a.map((row, i) => row[n]! / row[i]!);
}

/** Points of an isotonic map kept at most (blocks of the pool-adjacent-violators fit, merged). */
const ISOTONIC_POINTS = 64;
/** Pairs per isotonic block at least: a rate from fewer pairs is noise. */
const ISOTONIC_MIN_BLOCK = 30;

/**
 * Isotonic regression of outcomes on scores (pool adjacent violators), as points (mean score, rate)
 * of blocks of at least ISOTONIC_MIN_BLOCK pairs; the map interpolates between them.
 */
export function isotonicFit(scores: readonly number[], labels: readonly number[]): IsotonicMap {
  const order = scores.map((_, i) => i).sort((a, b) => scores[a]! - scores[b]!);
  // Blocks of at least ISOTONIC_MIN_BLOCK consecutive pairs first, then pooled while they violate the order.
  const blocks: { sumX: number; sumY: number; n: number }[] = [];
  let current = { sumX: 0, sumY: 0, n: 0 };
  for (const i of order) {
    current.sumX += scores[i]!;
    current.sumY += labels[i]!;
    current.n += 1;
    if (current.n >= Math.max(ISOTONIC_MIN_BLOCK, Math.ceil(order.length / ISOTONIC_POINTS))) {
      blocks.push(current);
      current = { sumX: 0, sumY: 0, n: 0 };
    }
  }
  if (current.n > 0) {
    if (blocks.length > 0) {
      const last = blocks[blocks.length - 1]!;
      last.sumX += current.sumX;
      last.sumY += current.sumY;
      last.n += current.n;
    } else blocks.push(current);
  }
  const pooled: { sumX: number; sumY: number; n: number }[] = [];
  for (const block of blocks) {
    pooled.push({ ...block });
    while (pooled.length > 1) {
      const b = pooled[pooled.length - 1]!;
      const a = pooled[pooled.length - 2]!;
      if (a.sumY / a.n <= b.sumY / b.n) break;
      a.sumX += b.sumX;
      a.sumY += b.sumY;
      a.n += b.n;
      pooled.pop();
    }
  }
  return { x: pooled.map((b) => b.sumX / b.n), y: pooled.map((b) => b.sumY / b.n) };
}

/** The isotonic map at p: linear between its points, flat beyond them (no points: p itself). */
export function isotonicMap(map: IsotonicMap, p: number): number {
  const { x, y } = map;
  if (x.length === 0) return p;
  if (p <= x[0]!) return y[0]!;
  if (p >= x[x.length - 1]!) return y[y.length - 1]!;
  let lo = 0;
  let hi = x.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >>> 1;
    if (x[mid]! <= p) lo = mid;
    else hi = mid;
  }
  const span = x[hi]! - x[lo]!;
  return span > 0 ? y[lo]! + ((p - x[lo]!) / span) * (y[hi]! - y[lo]!) : y[hi]!;
}

function platt([slope, intercept]: [number, number], x: number): number {
  return sigmoid(slope * x + intercept);
}

function dot(w: readonly number[], x: readonly number[]): number {
  let sum = w[x.length] ?? 0;
  for (let k = 0; k < x.length; k++) sum += w[k]! * x[k]!;
  return sum;
}

export function sigmoid(x: number): number {
  return x >= 0 ? 1 / (1 + Math.exp(-x)) : Math.exp(x) / (1 + Math.exp(x));
}

/** Reliability of probabilities against outcomes: per tenth of [0, 1], the mean predicted and the share observed. */
export function reliability(
  predicted: readonly number[],
  observed: readonly boolean[],
  bins = 10,
): { brier: number; ece: number; bins: { from: number; to: number; pairs: number; meanPredicted: number; observed: number }[] } {
  const rows = Array.from({ length: bins }, (_, b) => ({ from: b / bins, to: (b + 1) / bins, pairs: 0, sumP: 0, hits: 0 }));
  let squares = 0;
  predicted.forEach((p, i) => {
    const row = rows[Math.min(bins - 1, Math.floor(p * bins))]!;
    row.pairs += 1;
    row.sumP += p;
    row.hits += Number(observed[i]);
    squares += (p - Number(observed[i])) ** 2;
  });
  const n = Math.max(1, predicted.length);
  const ece = rows.reduce(
    (sum, row) => sum + (row.pairs > 0 ? (row.pairs / n) * Math.abs(row.sumP / row.pairs - row.hits / row.pairs) : 0),
    0,
  );
  return {
    brier: squares / n,
    ece,
    bins: rows.map((row) => ({
      from: row.from,
      to: row.to,
      pairs: row.pairs,
      meanPredicted: row.pairs > 0 ? row.sumP / row.pairs : 0,
      observed: row.pairs > 0 ? row.hits / row.pairs : 0,
    })),
  };
}
