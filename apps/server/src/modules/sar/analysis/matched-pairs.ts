import type { SingleCut } from '../../chemistry/chem-engine.ts';
import { EnvironmentCache } from './matched-pairs-environment.ts';

/**
 * Matched molecular pairs (docs/sar.md "Matched molecular pairs"): two compounds whose single cuts
 * share the constant part and differ in the variable part are a pair; the variable parts make the
 * transformation from → to. Each transformation is written once, in the direction in which the
 * activity rises on average (mean Δ ≥ 0; for a tie, from < to as text), and Δ = value(b) − value(a)
 * with `a` the compound carrying `from`.
 */

export interface PairItem {
  strId: number;
  value: number;
  cuts: readonly SingleCut[];
}

interface PairExample {
  /** Indexes into the items: `a` carries `from`, `b` carries `to`. */
  a: number;
  b: number;
  constant: string;
  delta: number;
}

export interface Transformation {
  from: string;
  to: string;
  /** The constant part's environment around the cut at the radius asked for ('' at radius 0; matched-pairs-environment.ts). */
  environment: string;
  /** Distinct compound pairs. */
  pairs: number;
  meanDelta: number;
  /** Sample standard deviation of Δ (0 for one pair). */
  sdDelta: number;
  medianDelta: number;
  minDelta: number;
  maxDelta: number;
  /** Every pair's Δ, ascending (at most MAX_DELTAS, evenly picked): the distribution drawn. */
  deltas: number[];
  /** Up to MAX_EXAMPLES pairs, largest Δ first. */
  examples: PairExample[];
}

/**
 * Bounds (a 5,000-compound series whose constant parts are shared by hundreds of variants has
 * millions of pairs: 2.6 GB and 16 s of a blocked server before these). Constant parts are taken
 * smallest pair count first until MAX_PAIRS pairs; the rest are left out and the note says so.
 */
export const MAX_PAIRS = 300_000;
/** Example pairs kept per transformation (the first found, shown largest Δ first); `pairs` counts all. */
export const MAX_EXAMPLES = 100;
/** Δ values answered per transformation for its distribution (quantiles of all when there are more). */
const MAX_DELTAS = 200;

/** Pairs of one transformation, keyed by its text-ordered variables (x < y); a pair is stored as x → y. */
interface Bucket {
  x: string;
  y: string;
  environment: string;
  /** Every Δ (x → y), for the median, range and distribution. */
  deltas: number[];
  /** Compound pairs seen (a · 8192 + b: items are at most 5,000), so a pair under two constants counts once. */
  seen: Set<number>;
  n: number;
  sum: number;
  sumSquares: number;
  examples: PairExample[];
}

type Variables = Map<string, number[]>;

function byConstantPart(items: readonly PairItem[]): Map<string, Variables> {
  const byConstant = new Map<string, Variables>();
  items.forEach((item, index) => {
    for (const cut of item.cuts) {
      let variables = byConstant.get(cut.constant);
      if (!variables) byConstant.set(cut.constant, (variables = new Map()));
      const list = variables.get(cut.variable);
      if (!list) variables.set(cut.variable, [index]);
      else if (list[list.length - 1] !== index) list.push(index);
    }
  });
  return byConstant;
}

/** Compound pairs a constant part makes: Σ over variable pairs of |xs| · |ys|. */
function pairCount(variables: Variables): number {
  let total = 0;
  let before = 0;
  for (const list of variables.values()) {
    total += before * list.length;
    before += list.length;
  }
  return total;
}

function addPair(bucket: Bucket, example: PairExample): void {
  const key = example.a * 8192 + example.b;
  // The same two compounds under another constant: one pair (the first constant kept).
  if (bucket.seen.has(key)) return;
  bucket.seen.add(key);
  bucket.n += 1;
  bucket.sum += example.delta;
  bucket.sumSquares += example.delta ** 2;
  bucket.deltas.push(example.delta);
  if (bucket.examples.length < MAX_EXAMPLES) bucket.examples.push(example);
}

function collect(items: readonly PairItem[], radius: number): { buckets: Map<string, Bucket>; skipped: number } {
  const environments = new EnvironmentCache();
  const constants = [...byConstantPart(items).entries()]
    .filter(([, variables]) => variables.size >= 2)
    .map(([constant, variables]) => ({ constant, variables, count: pairCount(variables) }))
    .sort((p, q) => p.count - q.count || (p.constant < q.constant ? -1 : 1));
  const buckets = new Map<string, Bucket>();
  let enumerated = 0;
  let skipped = 0;
  for (const { constant, variables, count } of constants) {
    if (enumerated + count > MAX_PAIRS) {
      skipped += 1;
      continue;
    }
    enumerated += count;
    const environment = environments.of(constant, radius) ?? '';
    const entries = [...variables.entries()].sort((p, q) => (p[0] < q[0] ? -1 : 1));
    for (let i = 0; i < entries.length; i++) {
      for (let j = i + 1; j < entries.length; j++) {
        const [x, xs] = entries[i]!;
        const [y, ys] = entries[j]!;
        const key = `${environment}|${x}>>${y}`;
        let bucket = buckets.get(key);
        if (!bucket)
          buckets.set(key, (bucket = { x, y, environment, deltas: [], seen: new Set(), n: 0, sum: 0, sumSquares: 0, examples: [] }));
        for (const a of xs) for (const b of ys) if (a !== b) addPair(bucket, { a, b, constant, delta: items[b]!.value - items[a]!.value });
      }
    }
  }
  return { buckets, skipped };
}

function summarise(bucket: Bucket): Transformation {
  const n = bucket.n;
  let mean = bucket.sum / n;
  let examples = bucket.examples;
  let from = bucket.x;
  let to = bucket.y;
  let deltas = bucket.deltas;
  if (mean < 0) {
    deltas = deltas.map((d) => -d);
    // Shown in the direction that raises the activity.
    examples = examples.map((e) => ({ a: e.b, b: e.a, constant: e.constant, delta: -e.delta }));
    mean = -mean;
    [from, to] = [to, from];
  }
  // Sample variance from the running sums (the sign flip leaves it unchanged).
  const variance = n > 1 ? Math.max(0, (bucket.sumSquares - n * mean ** 2) / (n - 1)) : 0;
  examples.sort((p, q) => q.delta - p.delta || p.a - q.a || p.b - q.b);
  deltas.sort((p, q) => p - q);
  const middle = deltas.length >> 1;
  const median = deltas.length % 2 ? deltas[middle]! : (deltas[middle - 1]! + deltas[middle]!) / 2;
  const shown =
    deltas.length <= MAX_DELTAS
      ? deltas
      : Array.from({ length: MAX_DELTAS }, (_, i) => deltas[Math.round((i * (deltas.length - 1)) / (MAX_DELTAS - 1))]!);
  return {
    from,
    to,
    environment: bucket.environment,
    pairs: n,
    meanDelta: mean,
    sdDelta: Math.sqrt(variance),
    medianDelta: median,
    minDelta: deltas[0]!,
    maxDelta: deltas[deltas.length - 1]!,
    deltas: shown,
    examples,
  };
}

export interface MatchedPairsOptions {
  minPairs: number;
  limit: number;
  /** Environment radius around the cut (0: none; 1, 2 as mmpdb's): one row per from → to and environment. */
  radius?: number;
  /** Only transformations whose mean |Δ| is at least this. */
  minMeanDelta?: number;
  /** 'consistent': every pair changes the same way (min Δ > 0 in the direction shown); 'mixed': some pairs go each way. */
  sign?: 'any' | 'consistent' | 'mixed';
}

/** Transformations seen in at least `minPairs` compound pairs, most pairs first (then larger mean Δ). */
export function matchedPairs(
  items: readonly PairItem[],
  options: MatchedPairsOptions,
): { total: number; transformations: Transformation[]; note: string | null } {
  const { buckets, skipped } = collect(items, options.radius ?? 0);
  const kept: Transformation[] = [];
  const sign = options.sign ?? 'any';
  for (const bucket of buckets.values()) {
    if (bucket.n < options.minPairs || Math.abs(bucket.sum / bucket.n) < (options.minMeanDelta ?? 0)) continue;
    const t = summarise(bucket);
    if (sign === 'consistent' && !(t.minDelta > 0)) continue;
    if (sign === 'mixed' && !(t.minDelta < 0 && t.maxDelta > 0)) continue;
    kept.push(t);
  }
  kept.sort(
    (p, q) =>
      q.pairs - p.pairs ||
      q.meanDelta - p.meanDelta ||
      (p.from < q.from
        ? -1
        : p.from > q.from
          ? 1
          : p.to < q.to
            ? -1
            : p.to > q.to
              ? 1
              : p.environment < q.environment
                ? -1
                : p.environment > q.environment
                  ? 1
                  : 0),
  );
  const note =
    skipped > 0
      ? `${skipped.toLocaleString('en-US')} constant part${skipped === 1 ? ' shared by very many compounds was' : 's shared by very many compounds were'} left out: together they make over ${MAX_PAIRS.toLocaleString('en-US')} pairs. Narrow the set (fewer compounds, or one series) to see them.`
      : null;
  return { total: kept.length, transformations: kept.slice(0, Math.max(0, options.limit)), note };
}
