import { PREDICTION_DOMAIN_MIN_SIMILARITY } from '@kb/contracts/prediction';
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
/**
 * Similarities below this are not searched: the ensemble counts nothing below its threshold, and
 * the domain's nearest active matters only up to the domain's.
 */
export const SCAN_MIN_SIMILARITY = Math.min(ENSEMBLE_THRESHOLD, PREDICTION_DOMAIN_MIN_SIMILARITY);
/** Euler–Mascheroni constant: −Γ′(1) in the extreme-value distribution of the z-scores. */
const EULER_GAMMA = 0.5772156649;

export interface EnsembleTarget {
  targetId: number;
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
  /** The document of that measurement, when known. */
  docId?: number | null;
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
  /** A document each pair was measured active in (NaN: none known). */
  docOf: Float64Array;
  activesPerTarget: Uint32Array;
  /**
   * Documents each target's actives come from (each pair counted in one document it was active in;
   * a pair without a document counts as a document of its own): how much independent
   * evidence a target rests on (small targets shrink, docs/prediction.md "Small targets").
   */
  documentsPerTarget: Uint32Array;
  /**
   * The parent of each structure of `strIds` (parent-key.ts: salts, solvates, charges and stereo
   * forms share it); by default each structure is its own. Forms of one parent are one piece of
   * evidence, and the query's own forms are never evidence for it.
   */
  parentOf: Float64Array;
}

export function buildActiveSet(targets: EnsembleTarget[], pairs: readonly ActivePair[]): ActiveSet {
  const sorted = [...pairs].sort((a, b) => a.strId - b.strId || a.target - b.target);
  return activeSetOfColumns(
    targets,
    Float64Array.from(sorted, (pair) => pair.strId),
    Uint32Array.from(sorted, (pair) => pair.target),
    Float64Array.from(sorted, (pair) => pair.nm),
    Float64Array.from(sorted, (pair) => pair.docId ?? Number.NaN),
  );
}

/** The same from columns already in ascending str_id (as the database answers them), without objects per pair. */
export function activeSetOfColumns(
  targets: EnsembleTarget[],
  pairStr: Float64Array,
  targetOf: Uint32Array,
  nmOf: Float64Array,
  docOf: Float64Array = new Float64Array(pairStr.length).fill(Number.NaN),
): ActiveSet {
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
  const ids = Float64Array.from(strIds);
  return {
    targets,
    strIds: ids,
    offsets: Uint32Array.from(offsets),
    targetOf,
    nmOf,
    docOf,
    activesPerTarget,
    documentsPerTarget: documentsPerTarget(targets.length, targetOf, docOf),
    parentOf: ids.slice(),
  };
}

function documentsPerTarget(targetCount: number, targetOf: Uint32Array, docOf: Float64Array): Uint32Array {
  const documents = new Uint32Array(targetCount);
  const seen = new Set<string>();
  for (let pair = 0; pair < targetOf.length; pair++) {
    const doc = docOf[pair]!;
    if (!Number.isNaN(doc)) {
      const key = `${targetOf[pair]}:${doc}`;
      if (seen.has(key)) continue;
      seen.add(key);
    }
    documents[targetOf[pair]!]! += 1;
  }
  return documents;
}

/** The set with each structure's parent (`parentOf(strId)`; null: its own). */
export function withParents(set: ActiveSet, parentOf: (strId: number) => number | null): ActiveSet {
  return { ...set, parentOf: Float64Array.from(set.strIds, (strId) => parentOf(strId) ?? strId) };
}

/**
 * The set without the pairs of `strIds` (structures that turned out to have no stored fingerprint:
 * they can never be a neighbour, so they must not count as actives in a target's size either).
 */
export function withoutStructures(set: ActiveSet, strIds: ReadonlySet<number>): ActiveSet {
  if (strIds.size === 0) return set;
  const kept: { strId: number; pair: number; parent: number }[] = [];
  set.strIds.forEach((strId, k) => {
    if (strIds.has(strId)) return;
    for (let pair = set.offsets[k]!; pair < set.offsets[k + 1]!; pair++) kept.push({ strId, pair, parent: set.parentOf[k]! });
  });
  const rebuilt = activeSetOfColumns(
    set.targets,
    Float64Array.from(kept, (row) => row.strId),
    Uint32Array.from(kept, (row) => set.targetOf[row.pair]!),
    Float64Array.from(kept, (row) => set.nmOf[row.pair]!),
    Float64Array.from(kept, (row) => set.docOf[row.pair]!),
  );
  const parents = new Map(kept.map((row) => [row.strId, row.parent]));
  return withParents(rebuilt, (strId) => parents.get(strId) ?? null);
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
function scoredTargetCount(set: ActiveSet): number {
  let count = 0;
  for (const n of set.activesPerTarget) if (n > 0) count += 1;
  return count;
}

export interface Neighbour {
  strId: number;
  similarity: number;
}

/**
 * How a random query scores against a target of n actives: mean meanScale·n^meanExponent, spread
 * sdScale·n^sdExponent (SEA's power laws; with the raw score cut at the nearest few actives the
 * mean grows slower than n), estimated from random structures of the data (`fitBackground`).
 */
export interface Background {
  meanScale: number;
  meanExponent: number;
  sdScale: number;
  sdExponent: number;
  queries: number;
}

/** A fallback used only until a background is estimated (and by tests). */
const DEFAULT_BACKGROUND: Background = { meanScale: 0.01, meanExponent: 0.5, sdScale: 0.06, sdExponent: 0.5, queries: 0 };

export interface EvidenceRef {
  strId: number;
  similarity: number;
  nm: number;
  parent: number;
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

/** Actives per target counted into the raw score (the nearest ones; Infinity = SEA's sum over all). */
export const RAW_TOP_K = 5;

export interface ScoreOptions {
  topK?: number;
  /** Structures that must not count (the query itself; a held-out document's compounds). */
  exclude?: (strId: number) => boolean;
  /** The query's parent (parent-key.ts): its salts and stereo forms are never its evidence. */
  excludeParent?: number | null;
  evidence?: number;
  threshold?: number;
}

/** A target's evidence for one query: its nearest actives (one per parent, best first) and how many of its parents reach the threshold. */
export interface TargetTop {
  target: number;
  /** Parents of the target's actives at or above the ensemble's threshold. */
  hits: number;
  /** At most the `keep` asked for, in the evidence order (evidenceOrder). */
  evidence: EvidenceRef[];
}

/** A nearest active structure of a query (one per parent). */
export interface NearActive {
  strId: number;
  similarity: number;
  parent: number;
}

/**
 * All the ensemble needs of one query's neighbours: every target's top (TargetTop) and the
 * nearest actives overall, most similar first. The scan workers gather it where the neighbours
 * are found (active-tops.mjs); `topsOfNeighbours` is the same rule over a list of neighbours.
 */
export interface ActiveTops {
  targets: TargetTop[];
  nearest: NearActive[];
}

export interface TopsOptions {
  /** Structures that must not count (the query itself; a held-out document's compounds). */
  exclude?: ((strId: number) => boolean) | undefined;
  /** The query's parent (parent-key.ts): its salts and stereo forms are never its evidence. */
  excludeParent?: number | null | undefined;
  threshold?: number;
  /** Evidence kept per target (at least the raw score's RAW_TOP_K). */
  keep?: number;
  /** Nearest actives kept overall. */
  nearest?: number;
}

/** The evidence order: more similar first; then the more potent measurement; then the lower str_id. */
function evidenceOrder(a: EvidenceRef, b: EvidenceRef): number {
  return b.similarity - a.similarity || a.nm - b.nm || a.strId - b.strId;
}

/** The nearest actives' order: more similar first, then the lower str_id. */
function nearOrder(a: NearActive, b: NearActive): number {
  return b.similarity - a.similarity || a.strId - b.strId;
}

/** The most similar form of each parent, in the order given (most similar first). */
function onePerParent<T extends { parent: number }>(sorted: readonly T[]): T[] {
  const seen = new Set<number>();
  return sorted.filter((entry) => {
    if (seen.has(entry.parent)) return false;
    seen.add(entry.parent);
    return true;
  });
}

/**
 * The tops of one query from its neighbours, plainly: every neighbour that may count (not
 * excluded, not a form of the query's parent, active on something), each target's list sorted and
 * cut to one entry per parent. The reference for the scan workers' streaming version, and what
 * the benchmark scores its held-out folds with.
 */
export function topsOfNeighbours(neighbours: readonly Neighbour[], set: ActiveSet, options: TopsOptions = {}): ActiveTops {
  const threshold = options.threshold ?? ENSEMBLE_THRESHOLD;
  const keep = options.keep ?? RAW_TOP_K;
  const perTarget = new Map<number, EvidenceRef[]>();
  const near: NearActive[] = [];
  const { exclude, excludeParent } = options;
  for (const neighbour of neighbours) {
    if (exclude?.(neighbour.strId)) continue;
    const at = activeIndexOf(set, neighbour.strId);
    if (at < 0) continue;
    const parent = set.parentOf[at]!;
    if (excludeParent !== undefined && excludeParent !== null && parent === excludeParent) continue;
    near.push({ strId: neighbour.strId, similarity: neighbour.similarity, parent });
    for (let k = set.offsets[at]!; k < set.offsets[at + 1]!; k++) {
      const list = perTarget.get(set.targetOf[k]!) ?? [];
      list.push({ strId: neighbour.strId, similarity: neighbour.similarity, nm: set.nmOf[k]!, parent });
      perTarget.set(set.targetOf[k]!, list);
    }
  }
  const targets = [...perTarget.entries()].map(([target, list]): TargetTop => {
    const evidence = onePerParent(list.sort(evidenceOrder));
    return { target, hits: evidence.filter((e) => e.similarity >= threshold).length, evidence: evidence.slice(0, keep) };
  });
  return { targets, nearest: onePerParent(near.sort(nearOrder)).slice(0, options.nearest ?? Infinity) };
}

/**
 * Tops gathered apart over structures with no parent in common (the scan's parts) as one: hits add
 * up, the evidence and the nearest are merged and cut again.
 */
export function mergeTops(parts: readonly ActiveTops[], keep: number, nearest: number): ActiveTops {
  if (parts.length === 1) return parts[0]!;
  const byTarget = new Map<number, TargetTop>();
  for (const part of parts)
    for (const top of part.targets) {
      const known = byTarget.get(top.target);
      if (!known) byTarget.set(top.target, { ...top, evidence: [...top.evidence] });
      else {
        known.hits += top.hits;
        known.evidence = [...known.evidence, ...top.evidence].sort(evidenceOrder).slice(0, keep);
      }
    }
  return {
    targets: [...byTarget.values()],
    nearest: parts
      .flatMap((part) => part.nearest)
      .sort(nearOrder)
      .slice(0, nearest),
  };
}

export interface ScoreOptions extends TopsOptions {
  topK?: number;
  evidence?: number;
}

/** Raw score, z-score and E-value of every target one of whose actives is among the neighbours; best first. */
export function scoreTargets(
  neighbours: readonly Neighbour[],
  set: ActiveSet,
  background: Background,
  options: ScoreOptions = {},
): TargetScore[] {
  const keep = Math.max(options.topK ?? RAW_TOP_K, options.evidence ?? 5);
  return scoresOfTops(topsOfNeighbours(neighbours, set, { ...options, keep, nearest: 0 }).targets, set, background, options);
}

/** Raw score, z-score and E-value of every target of a query's tops; best first (the evidence cut to `evidence`). */
export function scoresOfTops(
  tops: readonly TargetTop[],
  set: ActiveSet,
  background: Background,
  options: { threshold?: number; topK?: number; evidence?: number } = {},
): TargetScore[] {
  const threshold = options.threshold ?? ENSEMBLE_THRESHOLD;
  const evidenceMax = options.evidence ?? 5;
  const targetCount = Math.max(1, scoredTargetCount(set));
  return tops
    .map((top): TargetScore => {
      const raw = rawScore(
        top.evidence.map((e) => e.similarity),
        threshold,
        options.topK ?? RAW_TOP_K,
      );
      const z = zScore(raw, set.activesPerTarget[top.target]!, background);
      return {
        target: top.target,
        rawScore: raw,
        hits: top.hits,
        maxSimilarity: top.evidence[0]?.similarity ?? 0,
        zScore: z,
        eValue: top.hits > 0 ? extremeValuePValue(z) * targetCount : Infinity,
        evidence: top.evidence.slice(0, evidenceMax),
      };
    })
    .sort(byEnsembleRank);
}

/**
 * The raw score of one target: the sum of its `topK` most similar actives' Tanimoto at or above
 * the threshold (`similarities` in descending order). SEA sums over every pair; with one query
 * that rewards targets with many moderately similar actives over the one whose actives include the
 * query's close analogues, so the sum is cut at the nearest few (docs/prediction.md).
 */
function rawScore(similarities: readonly number[], threshold: number, topK: number): number {
  let sum = 0;
  for (let k = 0; k < similarities.length && k < topK; k++) {
    if (similarities[k]! < threshold) break;
    sum += similarities[k]!;
  }
  return sum;
}

/** Targets with a hit first, by lower E (equal E, both below double precision: higher z); then by the nearest active. */
function byEnsembleRank(a: TargetScore, b: TargetScore): number {
  const hitsFirst = Number(b.hits > 0) - Number(a.hits > 0);
  if (hitsFirst !== 0) return hitsFirst;
  if (a.hits > 0 && a.eValue !== b.eValue) return a.eValue - b.eValue;
  if (a.hits > 0 && a.zScore !== b.zScore) return b.zScore - a.zScore;
  return b.maxSimilarity - a.maxSimilarity || a.target - b.target;
}

/**
 * A target's spread is taken as if it had at least this many actives: with two actives the
 * background's spread is so narrow that one analogue gives an E-value of 1e-15 (docs/prediction.md
 * "Small targets"); the mean stays the target's own.
 */
export const SMALL_TARGET_ACTIVES = 10;

export function zScore(raw: number, actives: number, background: Background): number {
  const n = Math.max(actives, 1);
  const mean = background.meanScale * Math.pow(n, background.meanExponent);
  const sd = Math.max(background.sdScale * Math.pow(Math.max(n, SMALL_TARGET_ACTIVES), background.sdExponent), 1e-3);
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
 * (0 when nothing was similar enough). Mean and spread each by a least-squares line through its
 * logarithm against log n, over the targets whose mean (spread) is above zero.
 */
export function fitBackground(rawScores: readonly Float64Array[], activesPerTarget: Uint32Array): Background {
  const queries = rawScores.length;
  if (queries < 2) return { ...DEFAULT_BACKGROUND, queries };
  const means: [number, number][] = [];
  const sds: [number, number][] = [];
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
    if (mean > 0) means.push([Math.log(n), Math.log(mean)]);
    if (variance > 0) sds.push([Math.log(n), 0.5 * Math.log(variance)]);
  }
  const mean = powerLaw(means, DEFAULT_BACKGROUND.meanScale, DEFAULT_BACKGROUND.meanExponent);
  const sd = powerLaw(sds, DEFAULT_BACKGROUND.sdScale, DEFAULT_BACKGROUND.sdExponent);
  return { meanScale: mean.scale, meanExponent: mean.exponent, sdScale: sd.scale, sdExponent: sd.exponent, queries };
}

/** y = scale·n^exponent through (log n, log y) points; the exponent kept in [0, 1]; too few points: their mean level at the default exponent. */
function powerLaw(points: readonly [number, number][], defaultScale: number, defaultExponent: number): { scale: number; exponent: number } {
  if (points.length === 0) return { scale: defaultScale, exponent: defaultExponent };
  const mx = points.reduce((s, [x]) => s + x, 0) / points.length;
  const my = points.reduce((s, [, y]) => s + y, 0) / points.length;
  if (points.length < 3) return { scale: Math.exp(my - defaultExponent * mx), exponent: defaultExponent };
  let sxy = 0;
  let sxx = 0;
  for (const [x, y] of points) {
    sxy += (x - mx) * (y - my);
    sxx += (x - mx) * (x - mx);
  }
  const exponent = sxx > 0 ? Math.min(1, Math.max(0, sxy / sxx)) : defaultExponent;
  return { scale: Math.exp(my - exponent * mx), exponent };
}

/** Raw scores per target of one query's tops (a background sample), dense over the targets. */
export function rawScoresOfTops(
  tops: readonly TargetTop[],
  set: ActiveSet,
  threshold = ENSEMBLE_THRESHOLD,
  topK = RAW_TOP_K,
): Float64Array {
  const raw = new Float64Array(set.targets.length);
  for (const top of tops)
    raw[top.target] = rawScore(
      top.evidence.map((e) => e.similarity),
      threshold,
      topK,
    );
  return raw;
}

/** Raw scores per target of one query's neighbours, dense over the targets. */
export function rawScoresOf(
  neighbours: readonly Neighbour[],
  set: ActiveSet,
  exclude: (strId: number) => boolean,
  threshold = ENSEMBLE_THRESHOLD,
  topK = RAW_TOP_K,
  excludeParent: number | null = null,
): Float64Array {
  const counted = neighbours.filter((neighbour) => neighbour.similarity >= threshold);
  const { targets } = topsOfNeighbours(counted, set, { exclude, excludeParent, threshold, keep: topK, nearest: 0 });
  return rawScoresOfTops(targets, set, threshold, topK);
}

/** The most similar active structure among the neighbours (the applicability domain's measure), not a form of the query's parent. */
export function nearestActive(
  neighbours: readonly Neighbour[],
  set: ActiveSet,
  exclude?: (strId: number) => boolean,
  excludeParent: number | null = null,
): Neighbour | null {
  const [nearest] = topsOfNeighbours(neighbours, set, { exclude, excludeParent, keep: 0, nearest: 1 }).nearest;
  return nearest ? { strId: nearest.strId, similarity: nearest.similarity } : null;
}
