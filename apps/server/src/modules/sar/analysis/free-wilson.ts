import type { FreeWilson } from '@kb/contracts/sar';
import { byRGroupLabel } from '@kb/contracts/sar';
import { countedNoun } from '@kb/contracts/text';

/**
 * Free-Wilson analysis (docs/sar.md "Free-Wilson"): activity as a sum of one contribution per
 * R-group at each position, fitted by least squares over the decomposed compounds.
 *
 * Encoding: one indicator column per (position, R-group) except each position's reference level —
 * hydrogen, or the most frequent group where hydrogen is never seen — which keeps the columns
 * independent of the intercept. The fit centres the columns and the values and solves the normal
 * equations by Cholesky with a tiny ridge term, so groups that always occur together (collinear
 * columns) share their effect instead of making the system singular. Reported contributions are
 * centred per position (their compound-weighted mean is 0, hydrogen included), so the intercept is
 * the mean of the fitted values — the mean activity — and a prediction is intercept + Σ contributions.
 */

export interface FreeWilsonRow {
  strId: number;
  rgroups: Record<string, string | null>;
  value: number;
}

/** Fewer compounds than this: no fit (a note instead). */
const FREE_WILSON_MIN_COMPOUNDS = 5;
/**
 * An R-group seen in fewer compounds than this is left out of the fit with its compounds: a group
 * seen once is fitted exactly by its own term (the residual is 0 whatever the others are), which
 * says nothing about the group and inflates R² — a set of singletons fits "perfectly".
 */
const FREE_WILSON_MIN_OCCURRENCES = 2;
/** Relative ridge term: small enough to leave identifiable contributions as least squares finds them. */
const RIDGE = 1e-8;
const DEFAULT_BEST = 10;
/** Most indicator columns fitted: the p × p normal equations cost p³/3 on the server's main thread (500: about 0.05 s; 2,000 was 3 s). */
const FREE_WILSON_MAX_COLUMNS = 500;

interface Position {
  label: string;
  /** Levels (R-group SMILES, null = hydrogen) with their compound counts. */
  levels: Map<string | null, number>;
  reference: string | null;
  /** Column index per non-reference level. */
  columns: Map<string | null, number>;
}

function positions(rows: readonly FreeWilsonRow[]): { positions: Position[]; columns: number } {
  const labels = [...new Set(rows.flatMap((row) => Object.keys(row.rgroups)))].sort(byRGroupLabel);
  let columns = 0;
  const out = labels.map((label) => {
    const levels = new Map<string | null, number>();
    for (const row of rows) {
      const level = row.rgroups[label] ?? null;
      levels.set(level, (levels.get(level) ?? 0) + 1);
    }
    const reference = levels.has(null)
      ? null
      : [...levels.entries()].sort((p, q) => q[1] - p[1] || String(p[0]).localeCompare(String(q[0])))[0]![0];
    const cols = new Map<string | null, number>();
    for (const level of levels.keys()) if (level !== reference) cols.set(level, columns++);
    return { label, levels, reference, columns: cols };
  });
  return { positions: out, columns };
}

/** Forward then back substitution with the Cholesky factor L (lower triangle of `l`, p × p): solves L Lᵀ x = b. */
function substitute(l: Float64Array, b: Float64Array, p: number): Float64Array {
  const y = new Float64Array(p);
  for (let i = 0; i < p; i++) {
    let s = b[i]!;
    for (let k = 0; k < i; k++) s -= l[i * p + k]! * y[k]!;
    y[i] = s / l[i * p + i]!;
  }
  const x = new Float64Array(p);
  for (let i = p - 1; i >= 0; i--) {
    let s = y[i]!;
    for (let k = i + 1; k < p; k++) s -= l[k * p + i]! * x[k]!;
    x[i] = s / l[i * p + i]!;
  }
  return x;
}

/** Factors a symmetric positive definite A (p × p, row-major) in place: its lower triangle becomes L, A = L Lᵀ. */
function cholesky(a: Float64Array, p: number): Float64Array {
  for (let j = 0; j < p; j++) {
    let d = a[j * p + j]!;
    for (let k = 0; k < j; k++) d -= a[j * p + k]! ** 2;
    const l = Math.sqrt(Math.max(d, 1e-300));
    a[j * p + j] = l;
    for (let i = j + 1; i < p; i++) {
      let s = a[i * p + j]!;
      for (let k = 0; k < j; k++) s -= a[i * p + k]! * a[j * p + k]!;
      a[i * p + j] = s / l;
    }
  }
  return a;
}

interface Fitted {
  /** Coefficients of the centred problem. */
  beta: Float64Array;
  /** Leverage of each row: the diagonal of the hat matrix (1/n for the intercept included). */
  leverage: Float64Array;
}

/**
 * Least squares with an intercept over sparse 0/1 rows, and each row's leverage h = 1/n + x̃ᵀ M x̃
 * (x̃ the centred row, M = (X̃ᵀX̃ + λI)⁻¹), so that leave-one-out residuals are e / (1 − h) — the
 * exact refit without that row, for a fixed ridge — without n refits. M costs p³ (p ≤ 500: well
 * under a second); each row's quadratic form only reads the few columns it has, since
 * x̃ᵀ M x̃ = xᵀMx − 2 xᵀ(M x̄) + x̄ᵀ M x̄.
 */
function fit(design: Int32Array[], values: Float64Array, p: number): Fitted {
  const n = values.length;
  const mean = values.reduce((s, v) => s + v, 0) / n;
  const colMean = new Float64Array(p);
  for (const cols of design) for (const c of cols) colMean[c]! += 1 / n;
  // XcᵀXc = XᵀX − n·x̄x̄ᵀ and Xcᵀyc = Xᵀy − n·x̄·ȳ, built from the sparse rows.
  const a = new Float64Array(p * p);
  const b = new Float64Array(p);
  design.forEach((cols, r) => {
    for (const i of cols) {
      b[i]! += values[r]!;
      for (const j of cols) a[i * p + j]! += 1;
    }
  });
  let scale = 0;
  for (let i = 0; i < p; i++) {
    b[i]! -= n * colMean[i]! * mean;
    for (let j = 0; j < p; j++) a[i * p + j]! -= n * colMean[i]! * colMean[j]!;
    scale = Math.max(scale, a[i * p + i]!);
  }
  for (let i = 0; i < p; i++) a[i * p + i]! += RIDGE * Math.max(scale, 1);
  const l = cholesky(a, p);
  const beta = substitute(l, b, p);
  const inverse = new Float64Array(p * p);
  const unit = new Float64Array(p);
  for (let j = 0; j < p; j++) {
    unit.fill(0);
    unit[j] = 1;
    inverse.set(substitute(l, unit, p), j * p);
  }
  const mBar = new Float64Array(p);
  let barMBar = 0;
  for (let i = 0; i < p; i++) {
    let s = 0;
    for (let j = 0; j < p; j++) s += inverse[i * p + j]! * colMean[j]!;
    mBar[i] = s;
    barMBar += colMean[i]! * s;
  }
  const leverage = Float64Array.from(design, (cols) => {
    let q = barMBar;
    for (const i of cols) {
      q -= 2 * mBar[i]!;
      for (const j of cols) q += inverse[i * p + j]!;
    }
    return 1 / n + q;
  });
  return { beta, leverage };
}

/** The K highest sums picking one level per position: best-first over each position's levels sorted by contribution. */
function bestCombinations(sorted: { label: string; levels: { smiles: string | null; contribution: number }[] }[], k: number) {
  const key = (at: number[]) => at.join(',');
  const sum = (at: number[]) => at.reduce((s, i, p) => s + sorted[p]!.levels[i]!.contribution, 0);
  const start = sorted.map(() => 0);
  const frontier: { at: number[]; score: number }[] = [{ at: start, score: sum(start) }];
  const seen = new Set([key(start)]);
  const out: { at: number[]; score: number }[] = [];
  while (frontier.length && out.length < k) {
    let top = 0;
    for (let i = 1; i < frontier.length; i++) if (frontier[i]!.score > frontier[top]!.score) top = i;
    const next = frontier.splice(top, 1)[0]!;
    out.push(next);
    next.at.forEach((i, p) => {
      if (i + 1 >= sorted[p]!.levels.length) return;
      const at = [...next.at];
      at[p] = i + 1;
      if (seen.has(key(at))) return;
      seen.add(key(at));
      frontier.push({ at, score: sum(at) });
    });
  }
  return out;
}

const comboKey = (labels: readonly string[], rgroups: Record<string, string | null>) =>
  JSON.stringify(labels.map((label) => rgroups[label] ?? null));

/** The rows whose every R-group occurs in at least FREE_WILSON_MIN_OCCURRENCES of them (repeated: dropping a row can make another group rare). */
function withoutRareGroups(rows: readonly FreeWilsonRow[]): readonly FreeWilsonRow[] {
  const labels = [...new Set(rows.flatMap((row) => Object.keys(row.rgroups)))];
  let kept = rows;
  for (;;) {
    const seen = new Map<string, number>();
    const keys = (row: FreeWilsonRow) => labels.map((label) => `${label}\u0000${row.rgroups[label] ?? ''}`);
    for (const row of kept) for (const key of keys(row)) seen.set(key, (seen.get(key) ?? 0) + 1);
    const next = kept.filter((row) => keys(row).every((key) => (seen.get(key) ?? 0) >= FREE_WILSON_MIN_OCCURRENCES));
    if (next.length === kept.length) return kept;
    kept = next;
  }
}

/**
 * The fit, or a note saying why there is none. `note` beside a result says which compounds were
 * left out (R-groups seen only once).
 */
export function freeWilson(
  rows: readonly FreeWilsonRow[],
  options: { best?: number } = {},
): { result: FreeWilson; note: string | null } | { note: string } {
  const valued = rows.filter((row) => Number.isFinite(row.value));
  const usable = withoutRareGroups(valued);
  const leftOut = valued.length - usable.length;
  const leftOutText =
    leftOut > 0
      ? `${countedNoun(leftOut, 'compound', 'compounds')} with an R-group seen in only one compound ${leftOut === 1 ? 'is' : 'are'} left out of the fit.`
      : null;
  if (usable.length < FREE_WILSON_MIN_COMPOUNDS) {
    return {
      note: `Free-Wilson needs at least ${FREE_WILSON_MIN_COMPOUNDS} decomposed compounds with a value whose R-groups each occur in ${FREE_WILSON_MIN_OCCURRENCES} compounds or more; there ${usable.length === 1 ? 'is' : 'are'} ${usable.length}.${leftOutText ? ` ${leftOutText}` : ''}`,
    };
  }
  const { positions: pos, columns: p } = positions(usable);
  if (p === 0) return { note: 'Free-Wilson needs an R-group position that varies; every compound has the same R-groups.' };
  if (p > FREE_WILSON_MAX_COLUMNS) {
    return {
      note: `Free-Wilson fits at most ${FREE_WILSON_MAX_COLUMNS.toLocaleString('en-US')} distinct R-groups; this set has ${p.toLocaleString('en-US')}. Narrow the set or choose a larger core.`,
    };
  }
  if (usable.length <= p + 1) {
    return {
      note: `Free-Wilson needs more compounds than R-group terms to say anything: ${countedNoun(usable.length, 'compound', 'compounds')} for ${countedNoun(p, 'term', 'terms')} would fit exactly. Choose a core that leaves fewer distinct R-groups, or a larger set.${leftOutText ? ` ${leftOutText}` : ''}`,
    };
  }
  const design = usable.map((row) =>
    Int32Array.from(
      pos.flatMap((position) => {
        const col = position.columns.get(row.rgroups[position.label] ?? null);
        return col === undefined ? [] : [col];
      }),
    ),
  );
  const values = Float64Array.from(usable, (row) => row.value);
  const { beta, leverage } = fit(design, values, p);
  const n = usable.length;
  const mean = values.reduce((s, v) => s + v, 0) / n;
  // Contributions centred per position (compound-weighted mean 0): prediction = mean + Σ contributions.
  const levels = pos.map((position) => {
    const raw = (level: string | null) => {
      const col = position.columns.get(level);
      return col === undefined ? 0 : beta[col]!;
    };
    let centre = 0;
    for (const [level, count] of position.levels) centre += (raw(level) * count) / n;
    return {
      label: position.label,
      levels: [...position.levels.entries()]
        .map(([smiles, count]) => ({ smiles, n: count, contribution: raw(smiles) - centre }))
        .sort((x, y) => y.contribution - x.contribution),
    };
  });
  const labels = pos.map((position) => position.label);
  const contributionOf = new Map(levels.map((l) => [l.label, new Map(l.levels.map((v) => [v.smiles, v.contribution]))]));
  const predict = (rgroups: Record<string, string | null>) =>
    labels.reduce((s, label) => s + (contributionOf.get(label)!.get(rgroups[label] ?? null) ?? 0), mean);
  let ssRes = 0;
  let ssTot = 0;
  // PRESS: each compound predicted by the fit of the others (leave-one-out, e / (1 − h)).
  let press = 0;
  usable.forEach((row, i) => {
    const residual = row.value - predict(row.rgroups);
    ssRes += residual ** 2;
    ssTot += (row.value - mean) ** 2;
    press += (residual / Math.max(1 - leverage[i]!, 1e-12)) ** 2;
  });
  const made = new Map<string, number>();
  for (const row of usable) if (!made.has(comboKey(labels, row.rgroups))) made.set(comboKey(labels, row.rgroups), row.strId);
  const best = bestCombinations(levels, Math.max(0, options.best ?? DEFAULT_BEST)).map(({ at, score }) => {
    const rgroups = Object.fromEntries(at.map((i, p2) => [levels[p2]!.label, levels[p2]!.levels[i]!.smiles]));
    return { rgroups, predicted: mean + score, strId: made.get(comboKey(labels, rgroups)) ?? null };
  });
  return {
    note: leftOutText,
    result: {
      compounds: n,
      terms: p,
      r2: ssTot > 0 ? 1 - ssRes / ssTot : 1,
      q2: ssTot > 0 ? 1 - press / ssTot : 1,
      intercept: mean,
      contributions: levels.flatMap((l) =>
        l.levels.map((v) => ({ label: l.label, smiles: v.smiles, contribution: v.contribution, n: v.n })),
      ),
      best,
    },
  };
}
