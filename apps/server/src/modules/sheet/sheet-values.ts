import type { Qualifier, SheetAggregate, SheetCell } from '@kb/contracts/sheet';
import { toPActivity } from '../sar/analysis/pactivity.ts';

/**
 * The arithmetic of the sheet's cells (docs/workspace.md "Aggregates"), pure and unit-tested.
 *
 * A measurement becomes a value with a qualifier:
 * - molar endpoints: pChEMBL when the activity has one (ChEMBL gives it only to exact
 *   concentration-response values), else −log10 of the standard value in mol/L. A censored
 *   concentration flips its relation: IC50 < 10 nM means pIC50 > 8, so `<` becomes `>`;
 * - other endpoints (Inhibition %, …): the standard value in the endpoint's unit, relation kept.
 * Censored values are never averaged as if exact: the median, geometric mean and SD are of the
 * exact values; a compound with no exact value shows its most informative bound with its qualifier.
 */

export interface Measurement {
  pchembl: number | null;
  value: number | null;
  units: string | null;
  relation: string | null;
}

export interface Point {
  value: number;
  qualifier: Qualifier;
}

/** Relations as sources write them → the three the sheet knows; null for what says nothing usable (`~`). */
function relationOf(prefix: string | null): Qualifier | null {
  switch ((prefix ?? '').trim()) {
    case '':
    case '=':
      return '=';
    case '<':
    case '<=':
    case '≤':
    case '<<':
      return '<';
    case '>':
    case '>=':
    case '≥':
    case '>>':
      return '>';
    default:
      return null;
  }
}

const FLIP: Record<Qualifier, Qualifier> = { '=': '=', '<': '>', '>': '<' };

/** A measurement of a molar endpoint as pActivity, or null (no value, no molar unit, unreadable relation). */
export function molarPoint(m: Measurement): Point | null {
  if (m.pchembl != null && Number.isFinite(m.pchembl)) return { value: m.pchembl, qualifier: '=' };
  if (m.value == null) return null;
  const relation = relationOf(m.relation);
  const converted = relation ? toPActivity(m.value, m.units) : null;
  if (!relation || !converted || !converted.molar) return null;
  return { value: converted.value, qualifier: FLIP[relation] };
}

/** A measurement of a non-molar endpoint in `unit` (others are left out). */
export function plainPoint(m: Measurement, unit: string | null): Point | null {
  if (m.value == null || !Number.isFinite(m.value) || (m.units ?? null) !== unit) return null;
  const relation = relationOf(m.relation);
  return relation ? { value: m.value, qualifier: relation } : null;
}

function median(sorted: readonly number[]): number {
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function sampleSd(values: readonly number[], mean: number): number | null {
  if (values.length < 2) return null;
  let sum = 0;
  for (const v of values) sum += (v - mean) ** 2;
  return Math.sqrt(sum / (values.length - 1));
}

/**
 * The most active point. Larger is more active for pActivity; for non-molar endpoints the sheet
 * cannot know which way is better, so "best" is the largest there too (documented).
 * A lower bound (`>`) at or above every exact value is the best; an upper bound never is unless
 * nothing else was measured.
 */
function bestPoint(exact: readonly number[], lower: readonly number[], upper: readonly number[]): Point {
  const maxExact = exact.length ? Math.max(...exact) : -Infinity;
  const maxLower = lower.length ? Math.max(...lower) : -Infinity;
  if (maxLower > maxExact) return { value: maxLower, qualifier: '>' };
  if (exact.length) return { value: maxExact, qualifier: '=' };
  return { value: Math.min(...upper), qualifier: '<' };
}

/** One compound's cell from its points (null when it has none). */
export function aggregateCell(points: readonly Point[], shown: SheetAggregate, molar: boolean): SheetCell | null {
  if (!points.length) return null;
  if (points.length === 1) return singleCell(points[0]!, shown, molar);
  const exact: number[] = [];
  const lower: number[] = [];
  const upper: number[] = [];
  for (const p of points) (p.qualifier === '=' ? exact : p.qualifier === '>' ? lower : upper).push(p.value);
  exact.sort((a, b) => a - b);
  const best = bestPoint(exact, lower, upper);
  const mean = exact.length ? exact.reduce((s, v) => s + v, 0) / exact.length : null;
  const med = exact.length ? median(exact) : null;
  const geomean = molar
    ? mean
    : // pActivity's mean is the −log10 of the concentrations' geometric mean; a plain value's mean otherwise.
      exact.length && exact.every((v) => v > 0)
      ? Math.exp(exact.reduce((s, v) => s + Math.log(v), 0) / exact.length)
      : mean;
  // What the cell shows: the chosen aggregate, or with only censored values the most informative
  // bound ("> 8" says more than "< 5" of a potency). Built once: a sheet makes a cell per compound and endpoint.
  const shownPoint: Point =
    shown === 'best'
      ? best
      : exact.length
        ? { value: (shown === 'geomean' ? geomean : med)!, qualifier: '=' }
        : lower.length
          ? { value: Math.max(...lower), qualifier: '>' }
          : { value: Math.min(...upper), qualifier: '<' };
  return {
    value: shownPoint.value,
    qualifier: shownPoint.qualifier,
    n: points.length,
    censored: lower.length + upper.length,
    median: med,
    geomean,
    best: best.value,
    bestQualifier: best.qualifier,
    sd: mean == null ? null : sampleSd(exact, mean),
    min: exact.length ? exact[0]! : null,
    max: exact.length ? exact[exact.length - 1]! : null,
  };
}

/**
 * The cell of one measurement, which most cells of a large sheet are (100,000 compounds × 20
 * endpoints at M: 430,000 cells from 400,000 measurements): the same numbers `aggregateCell`
 * gives, without its arrays. Every aggregate shows the point itself.
 */
function singleCell(point: Point, shown: SheetAggregate, molar: boolean): SheetCell {
  const exact = point.qualifier === '=' ? point.value : null;
  const geomean = exact === null || molar || exact <= 0 ? exact : Math.exp(Math.log(exact));
  return {
    value: shown === 'geomean' && geomean !== null ? geomean : point.value,
    qualifier: point.qualifier,
    n: 1,
    censored: exact === null ? 1 : 0,
    median: exact,
    geomean,
    best: point.value,
    bestQualifier: point.qualifier,
    sd: null,
    min: exact,
    max: exact,
  };
}

/**
 * A − B with its qualifier: exact − exact is exact; a lower bound minus an exact value or an upper
 * bound is a lower bound (and the mirror); two bounds in the same direction say nothing (null).
 */
export function difference(a: Point | null, b: Point | null): Point | null {
  if (!a || !b) return null;
  const value = roundNoise(a.value - b.value);
  if (a.qualifier === '=' && b.qualifier === '=') return { value, qualifier: '=' };
  const aUp = a.qualifier === '>' || (a.qualifier === '=' && b.qualifier === '<');
  const aDown = a.qualifier === '<' || (a.qualifier === '=' && b.qualifier === '>');
  if (aUp && b.qualifier !== '>') return { value, qualifier: '>' };
  if (aDown && b.qualifier !== '<') return { value, qualifier: '<' };
  return null;
}

/** 7.3 − 6.1 is 1.2, not 1.1999999999999993 (values carry at most a few decimals). */
function roundNoise(value: number): number {
  return Math.round(value * 1e9) / 1e9;
}
