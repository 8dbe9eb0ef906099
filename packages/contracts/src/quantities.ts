/**
 * Numbers as a chemist writes them: one rule per kind of quantity, shared by the grids, charts and
 * leaflets of the web app (what a person reads) and by the exports (what a program reads).
 *
 * Values arrive as float8 (412.2430000000001): the screen writes them with the digits the quantity
 * deserves — pChEMBL 7.20 beside 7.35, a molecular weight 481.60 beside 485.59, a count 1,234, a
 * year 2024 — and an export keeps every stored digit but none of the binary noise (412.243).
 */

/** The kinds of number the product shows. */
export type Quantity =
  /** Negative log potencies and their differences (pChEMBL, pIC50, selectivity A − B): always two decimals. */
  | 'pActivity'
  /** Average molecular weight (g/mol): two decimals. */
  | 'molecularWeight'
  /** Monoisotopic mass (Da): four decimals, as mass spectra are read. */
  | 'exactMass'
  /** Descriptors computed to two decimals: cLogP, LogD, PSA, pKa, log solubility. */
  | 'descriptor'
  /** Ratios in [0, 1] and efficiencies: similarity, QED, Fsp3, LE, LLE, BEI, SEI — two decimals. */
  | 'index'
  /** A measured value in its unit (IC50 44.2 nM, 1.23 µM, SD, dose, a temperature): as measured, at most three decimals. */
  | 'measured'
  /** Counts of things (activities, donors, structures): whole, with thousands separators. */
  | 'count'
  /** Years and identifiers: written and copied as they are, never "2,024". */
  | 'plain';

interface QuantityRule {
  /** Fixed decimals: trailing zeros are kept ("7.20") so a column reads evenly. */
  fixed?: number;
  /** At most this many decimals, trailing zeros dropped; below one, three significant digits instead. */
  max?: number;
  grouping: boolean;
}

const RULES: Record<Quantity, QuantityRule> = {
  pActivity: { fixed: 2, grouping: true },
  molecularWeight: { fixed: 2, grouping: true },
  exactMass: { fixed: 4, grouping: true },
  descriptor: { fixed: 2, grouping: true },
  index: { fixed: 2, grouping: true },
  measured: { max: 3, grouping: true },
  count: { fixed: 0, grouping: true },
  plain: { max: 20, grouping: false },
};

/** What a value that is not a number shows: never "NaN" or "Infinity". */
export const NO_NUMBER = '—';

/** How a number of no named quantity is shown (chart axes, bins, free values). */
export interface NumberStyle {
  /** Written after the number with a space ("g/mol"); Intl's own units do not include chemistry's. */
  unit?: string;
  /** Thousands separators; off for years ("2015", not "2,015"). Default on. */
  grouping?: boolean;
  /** Most digits after the point (default 2), trailing zeros dropped; values below one keep 3 significant digits instead. */
  maxFractionDigits?: number;
}

/** Beyond these magnitudes a plain number is unreadable (a row of zeros): scientific notation. */
const LARGEST_PLAIN = 1e12;
const SMALLEST_PLAIN = 1e-3;
const SIGNIFICANT_BELOW_ONE = 3;

const formatters = new Map<string, Intl.NumberFormat>();

/**
 * Intl.NumberFormat objects are costly to build; a grid or a chart formats hundreds of values per
 * render, so each is built once and found again by a short key (no options object per value).
 */
function formatter(key: string, options: () => Intl.NumberFormatOptions): Intl.NumberFormat {
  let found = formatters.get(key);
  if (!found) {
    found = new Intl.NumberFormat('en-US', options());
    formatters.set(key, found);
  }
  return found;
}

/** The formatter of a free number by its magnitude: scientific, significant digits below one, or at most `maxFractionDigits`. */
function notationFormatter(magnitude: number, grouping: boolean, maxFractionDigits: number): Intl.NumberFormat {
  if (magnitude >= LARGEST_PLAIN || (magnitude > 0 && magnitude < SMALLEST_PLAIN)) {
    return formatter('sci', () => ({ maximumSignificantDigits: SIGNIFICANT_BELOW_ONE, notation: 'scientific' }));
  }
  // Below one a fixed number of decimals would show 0.000123 as "0": significant digits instead.
  if (magnitude > 0 && magnitude < 1)
    return formatter(`sig/${grouping}`, () => ({ useGrouping: grouping, maximumSignificantDigits: SIGNIFICANT_BELOW_ONE }));
  return formatter(`max${maxFractionDigits}/${grouping}`, () => ({ useGrouping: grouping, maximumFractionDigits: maxFractionDigits }));
}

function withUnit(text: string, unit: string | undefined): string {
  // A tiny negative rounded to zero would read "-0" or "-0.00".
  const signed = /^-0(\.0+)?$/.test(text) ? text.slice(1) : text;
  return unit ? `${signed} ${unit}` : signed;
}

/** A number with sensible precision, and its unit: 297.38300000000004 → "297.38", with a unit "297.38 g/mol". */
export function formatNumber(value: number | null | undefined, style: NumberStyle = {}): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return NO_NUMBER;
  return withUnit(notationFormatter(Math.abs(value), style.grouping ?? true, style.maxFractionDigits ?? 2).format(value), style.unit);
}

/** A span of numbers: "297.38–905.05 g/mol" (the unit once, at the end). */
export function formatNumberRange(from: number | null | undefined, to: number | null | undefined, style: NumberStyle = {}): string {
  const bare = { ...style, unit: undefined };
  const text = `${formatNumber(from, bare)}–${formatNumber(to, bare)}`;
  return style.unit ? `${text} ${style.unit}` : text;
}

/**
 * A value as the quantity is written, with its unit after a space: formatQuantity(7.2, 'pActivity')
 * → "7.20"; formatQuantity(481.6, 'molecularWeight', 'g/mol') → "481.60 g/mol".
 */
export function formatQuantity(value: number | null | undefined, quantity: Quantity, unit?: string): string {
  const rule = RULES[quantity];
  if (rule.fixed === undefined) return formatNumber(value, { unit, grouping: rule.grouping, maxFractionDigits: rule.max });
  if (value === null || value === undefined || !Number.isFinite(value)) return NO_NUMBER;
  const fixed = rule.fixed;
  const format = formatter(`fixed${fixed}/${rule.grouping}`, () => ({
    useGrouping: rule.grouping,
    minimumFractionDigits: fixed,
    maximumFractionDigits: fixed,
  }));
  return withUnit(format.format(value), unit);
}

/** Columns whose quantity their key names (result tabs, dynamic query, leaflets, SAR). */
const QUANTITY_OF_KEY: Record<string, Quantity> = {
  pchembl_value: 'pActivity',
  pactivity: 'pActivity',
  mol_weight: 'molecularWeight',
  mw_freebase: 'molecularWeight',
  full_mwt: 'molecularWeight',
  exact_mass: 'exactMass',
  mono_mass: 'exactMass',
  logp_calc: 'descriptor',
  logd_calc: 'descriptor',
  alogp: 'descriptor',
  cx_logp: 'descriptor',
  cx_logd: 'descriptor',
  psa: 'descriptor',
  tpsa: 'descriptor',
  pka_value: 'descriptor',
  solubility: 'descriptor',
  similarity: 'index',
  qed: 'index',
  qed_weighted: 'index',
  fsp3: 'index',
  le: 'index',
  lle: 'index',
  bei: 'index',
  sei: 'index',
};

/** Keys read and copied as they are: ids, years, record numbers (str_id, approval_year, userId). */
const PLAIN_KEY = /(^|_)(id|ids|no|year)$|[a-z](Id|Ids|No|Year)$/;

/** The quantity of a column by its key and type: named ones first, then ids and years, counts, measured values. */
export function quantityOfColumn(key: string, type: 'number' | 'integer'): Quantity {
  const named = QUANTITY_OF_KEY[key];
  if (named) return named;
  if (PLAIN_KEY.test(key) || key === 'pubmed_id') return 'plain';
  return type === 'integer' ? 'count' : 'measured';
}

/**
 * A stored number for a file a program reads (CSV, SDF): every digit the data carries, none of the
 * binary noise of its float8 (412.2430000000001 → "412.243", 988.2579999999994 → "988.258").
 * Twelve significant digits: more than any measured or computed quantity of the knowledge base
 * carries (a measurement has at most eight, an exact mass 3 + 4), fewer than sums of float8s leave
 * in their last digits (988.2579999999994 is 3 units of the 16th digit away from 988.258).
 */
export const EXPORT_SIGNIFICANT_DIGITS = 12;

export function exportNumber(value: number): string {
  if (!Number.isFinite(value)) return '';
  if (Number.isInteger(value)) return String(value);
  return String(Number(value.toPrecision(EXPORT_SIGNIFICANT_DIGITS)));
}
