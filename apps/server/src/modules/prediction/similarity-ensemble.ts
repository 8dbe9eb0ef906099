import type { TargetFamily } from '@kb/contracts/prediction';

/**
 * The knowledge-base similarity ensemble (docs/prediction.md; the idea of SEA, Keiser et al., Nat
 * Biotechnol 2007): a target is predicted for a query when the query resembles the target's
 * actives more than a random molecule resembles that many actives. Pure functions over arrays, so
 * the server (neighbours from the structure index) and the benchmark (neighbours from its own
 * scan, with documents held out) score with the same code.
 */

/** Tanimoto at or above which a neighbour counts into a target's raw score. */
export const ENSEMBLE_THRESHOLD = 0.3;
/** Euler–Mascheroni constant: −Γ′(1) in the extreme-value distribution of the z-scores. */
const EULER_GAMMA = 0.5772156649;

export interface EnsembleTarget {
  targetId: number | null;
  chemblId: string | null;
  name: string;
  geneSymbol: string | null;
  organism: string | null;
  family: TargetFamily;
  thresholdNm: number;
}

/** A structure's best potency on one target it is active on. */
export interface ActivePair {
  strId: number;
  target: number;
  nm: number;
}

/**
 * Actives per structure, compressed: the structures active on some target in ascending str_id, and
 * for each its targets (indexes into `targets`) with its best potency in nM.
 */
export interface ActiveSet {
  targets: EnsembleTarget[];
  strIds: Float64Array;
  offsets: Uint32Array;
  targetOf: Uint32Array;
  nmOf: Float64Array;
  activesPerTarget: Uint32Array;
}

export function buildActiveSet(targets: EnsembleTarget[], pairs: readonly ActivePair[]): ActiveSet {
  const sorted = [...pairs].sort((a, b) => a.strId - b.strId || a.target - b.target);
  return activeSetOfColumns(
    targets,
    Float64Array.from(sorted, (pair) => pair.strId),
    Uint32Array.from(sorted, (pair) => pair.target),
    Float64Array.from(sorted, (pair) => pair.nm),
  );
}

/** The same from columns already in ascending str_id (as the database answers them), without objects per pair. */
export function activeSetOfColumns(targets: EnsembleTarget[], pairStr: Float64Array, targetOf: Uint32Array, nmOf: Float64Array): ActiveSet {
  const strIds: number[] = [];
  const offsets: number[] = [];
  const activesPerTarget = new Uint32Array(targets.length);
  for (let index = 0; index < pairStr.length; index++) {
    const strId = pairStr[index]!;
    if (index > 0 && strId < pairStr[index - 1]!) throw new Error('activeSetOfColumns: pairs must be in ascending str_id');
    if (strIds[strIds.length - 1] !== strId) {
      strIds.push(strId);
      offsets.push(index);
    }
    activesPerTarget[targetOf[index]!]! += 1;
  }
  offsets.push(pairStr.length);
  return { targets, strIds: Float64Array.from(strIds), offsets: Uint32Array.from(offsets), targetOf, nmOf, activesPerTarget };
}

/** Position of `strId` in `set.strIds`, or -1 when it is active on nothing. */
export function activeIndexOf(set: ActiveSet, strId: number): number {
  let lo = 0;
  let hi = set.strIds.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const value = set.strIds[mid]!;
    if (value === strId) return mid;
    if (value < strId) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** Targets in the set with at least one active. */
export function scoredTargetCount(set: ActiveSet): number {
  let count = 0;
  for (const n of set.activesPerTarget) if (n > 0) count += 1;
  return count;
}

export interface Neighbour {
  strId: number;
  similarity: number;
}

/**
 * How a random query scores against a target of n actives: mean slope·n, spread sdScale·n^sdExponent
 * (SEA's power laws), estimated from random structures of the data (`fitBackground`).
 */
export interface Background {
  slope: number;
  sdScale: number;
  sdExponent: number;
  queries: number;
}

/** A fallback used only until a background is estimated (and by tests): a typical Morgan-2 background. */
export const DEFAULT_BACKGROUND: Background = { slope: 0.002, sdScale: 0.06, sdExponent: 0.5, queries: 0 };

export interface EvidenceRef {
  strId: number;
  similarity: number;
  nm: number;
}

export interface TargetScore {
  target: number;
  rawScore: number;
  hits: number;
  maxSimilarity: number;
  zScore: number;
  eValue: number;
  /** Nearest actives, most similar first. */
  evidence: EvidenceRef[];
}

export interface ScoreOptions {
  /** Structures that must not count (the query itself; a held-out document's compounds). */
  exclude?: (strId: number) => boolean;
  evidence?: number;
  threshold?: number;
}

/** Raw score, z-score and E-value of every target one of whose actives is among the neighbours; best first. */
export function scoreTargets(neighbours: readonly Neighbour[], set: ActiveSet, background: Background, options: ScoreOptions = {}): TargetScore[] {
  const threshold = options.threshold ?? ENSEMBLE_THRESHOLD;
  const evidenceMax = options.evidence ?? 5;
  const byTarget = new Map<number, TargetScore>();
  for (const neighbour of neighbours) {
    if (options.exclude?.(neighbour.strId)) continue;
    const at = activeIndexOf(set, neighbour.strId);
    if (at < 0) continue;
    for (let k = set.offsets[at]!; k < set.offsets[at + 1]!; k++) {
      const target = set.targetOf[k]!;
      let score = byTarget.get(target);
      if (!score) {
        score = { target, rawScore: 0, hits: 0, maxSimilarity: 0, zScore: 0, eValue: Infinity, evidence: [] };
        byTarget.set(target, score);
      }
      if (neighbour.similarity >= threshold) {
        score.rawScore += neighbour.similarity;
        score.hits += 1;
      }
      score.maxSimilarity = Math.max(score.maxSimilarity, neighbour.similarity);
      score.evidence.push({ strId: neighbour.strId, similarity: neighbour.similarity, nm: set.nmOf[k]! });
    }
  }
  const targetCount = Math.max(1, scoredTargetCount(set));
  const scores = [...byTarget.values()];
  for (const score of scores) {
    const n = set.activesPerTarget[score.target]!;
    score.zScore = zScore(score.rawScore, n, background);
    score.eValue = score.hits > 0 ? extremeValuePValue(score.zScore) * targetCount : Infinity;
    score.evidence.sort((a, b) => b.similarity - a.similarity || a.nm - b.nm || a.strId - b.strId);
    score.evidence.length = Math.min(score.evidence.length, evidenceMax);
  }
  return scores.sort(byEnsembleRank);
}

/** Lower E first; equal E (both below double precision, or none) by the nearest active. */
export function byEnsembleRank(a: TargetScore, b: TargetScore): number {
  return a.eValue - b.eValue || b.zScore - a.zScore || b.maxSimilarity - a.maxSimilarity || a.target - b.target;
}

export function zScore(raw: number, actives: number, background: Background): number {
  const mean = background.slope * actives;
  const sd = Math.max(background.sdScale * Math.pow(Math.max(actives, 1), background.sdExponent), 1e-3);
  return (raw - mean) / sd;
}

/** P(Z ≥ z) under the extreme-value (Gumbel) distribution SEA fits its z-scores to. */
export function extremeValuePValue(z: number): number {
  // SEA: P = 1 − exp(−e^(−zπ/√6 − Γ′(1))), and Γ′(1) = −γ.
  const x = Math.exp(-z * (Math.PI / Math.sqrt(6)) + EULER_GAMMA);
  return -Math.expm1(-x);
}

/**
 * The background from random queries: `rawScores[q][t]` is query q's raw score against target t
 * (0 when nothing was similar enough). Mean by a ratio estimator (Σ mean / Σ n); spread by a
 * least-squares line through log sd against log n over the targets that scored at all.
 */
export function fitBackground(rawScores: readonly Float64Array[], activesPerTarget: Uint32Array): Background {
  const queries = rawScores.length;
  if (queries < 2) return { ...DEFAULT_BACKGROUND, queries };
  let meanSum = 0;
  let nSum = 0;
  const points: [number, number][] = [];
  for (let t = 0; t < activesPerTarget.length; t++) {
    const n = activesPerTarget[t]!;
    if (n === 0) continue;
    let sum = 0;
    let squares = 0;
    for (const row of rawScores) {
      sum += row[t]!;
      squares += row[t]! * row[t]!;
    }
    const mean = sum / queries;
    const variance = Math.max(0, squares / queries - mean * mean);
    meanSum += mean;
    nSum += n;
    if (variance > 0) points.push([Math.log(n), 0.5 * Math.log(variance)]);
  }
  const slope = nSum > 0 ? meanSum / nSum : DEFAULT_BACKGROUND.slope;
  if (points.length < 3) {
    const sd = points.length > 0 ? Math.exp(points.reduce((s, [, y]) => s + y, 0) / points.length) : DEFAULT_BACKGROUND.sdScale;
    return { slope, sdScale: sd, sdExponent: DEFAULT_BACKGROUND.sdExponent, queries };
  }
  const mx = points.reduce((s, [x]) => s + x, 0) / points.length;
  const my = points.reduce((s, [, y]) => s + y, 0) / points.length;
  let sxy = 0;
  let sxx = 0;
  for (const [x, y] of points) {
    sxy += (x - mx) * (y - my);
    sxx += (x - mx) * (x - mx);
  }
  const sdExponent = sxx > 0 ? Math.min(1, Math.max(0, sxy / sxx)) : DEFAULT_BACKGROUND.sdExponent;
  return { slope, sdScale: Math.exp(my - sdExponent * mx), sdExponent, queries };
}

/** Raw scores per target of one query's neighbours (a background sample), dense over the targets. */
export function rawScoresOf(neighbours: readonly Neighbour[], set: ActiveSet, exclude: (strId: number) => boolean, threshold = ENSEMBLE_THRESHOLD): Float64Array {
  const raw = new Float64Array(set.targets.length);
  for (const neighbour of neighbours) {
    if (neighbour.similarity < threshold || exclude(neighbour.strId)) continue;
    const at = activeIndexOf(set, neighbour.strId);
    if (at < 0) continue;
    for (let k = set.offsets[at]!; k < set.offsets[at + 1]!; k++) raw[set.targetOf[k]!]! += neighbour.similarity;
  }
  return raw;
}

/** The most similar active structure among the neighbours (the applicability domain's measure). */
export function nearestActive(neighbours: readonly Neighbour[], set: ActiveSet, exclude?: (strId: number) => boolean): Neighbour | null {
  let best: Neighbour | null = null;
  for (const neighbour of neighbours) {
    if (exclude?.(neighbour.strId) || activeIndexOf(set, neighbour.strId) < 0) continue;
    if (!best || neighbour.similarity > best.similarity) best = neighbour;
  }
  return best;
}
