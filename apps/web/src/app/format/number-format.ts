/**
 * Numbers as people read them. Values arrive as float8 from the database (297.38300000000004): the
 * screen rounds them to a sensible precision, exports keep every digit (they are written by the
 * server, not here).
 */

/** How one kind of number is shown. */
export interface NumberStyle {
  /** Written after the number with a space ("g/mol"); Intl's own units do not include chemistry's. */
  unit?: string;
  /** Thousands separators; off for years ("2015", not "2,015"). Default on. */
  grouping?: boolean;
  /** Most digits after the point (default 2); values below one keep 3 significant digits instead. */
  maxFractionDigits?: number;
}

/** What a value that is not a number shows: never "NaN" or "Infinity". */
export const NO_NUMBER = '—';

/** Beyond these magnitudes a plain number is unreadable (a row of zeros): scientific notation. */
const LARGEST_PLAIN = 1e12;
const SMALLEST_PLAIN = 1e-3;
const SIGNIFICANT_DIGITS = 3;

const formatters = new Map<string, Intl.NumberFormat>();

type Notation = 'fraction' | 'significant' | 'scientific';

/** Intl.NumberFormat objects are costly to build; charts format hundreds of labels per render. */
function formatter(grouping: boolean, maxFractionDigits: number, notation: Notation): Intl.NumberFormat {
  const key = `${grouping}/${maxFractionDigits}/${notation}`;
  let found = formatters.get(key);
  if (!found) {
    found = new Intl.NumberFormat(
      'en-US',
      notation === 'fraction'
        ? { useGrouping: grouping, maximumFractionDigits: maxFractionDigits }
        : { useGrouping: grouping, maximumSignificantDigits: SIGNIFICANT_DIGITS, notation: notation === 'scientific' ? 'scientific' : 'standard' },
    );
    formatters.set(key, found);
  }
  return found;
}

/** Below one, a fixed number of decimals would show 0.000123 as "0": keep significant digits instead. */
function notationOf(magnitude: number): Notation {
  if (magnitude >= LARGEST_PLAIN || (magnitude > 0 && magnitude < SMALLEST_PLAIN)) return 'scientific';
  return magnitude > 0 && magnitude < 1 ? 'significant' : 'fraction';
}

/** A number with sensible precision, and its unit: 297.38300000000004 → "297.38", with a unit "297.38 g/mol". */
export function formatNumber(value: number | null | undefined, style: NumberStyle = {}): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return NO_NUMBER;
  // -0 (a rounded tiny negative) would print as "-0".
  const number = value === 0 ? 0 : value;
  const text = formatter(style.grouping ?? true, style.maxFractionDigits ?? 2, notationOf(Math.abs(number))).format(number);
  return style.unit ? `${text} ${style.unit}` : text;
}

/** A span of numbers: "297.38–905.05 g/mol" (the unit once, at the end). */
export function formatNumberRange(from: number | null | undefined, to: number | null | undefined, style: NumberStyle = {}): string {
  const bare = { ...style, unit: undefined };
  const text = `${formatNumber(from, bare)}–${formatNumber(to, bare)}`;
  return style.unit ? `${text} ${style.unit}` : text;
}

/** pChEMBL as ChEMBL publishes it, always two decimals ("7.20", not "7.2" beside "7.35"). */
export function formatPchembl(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return NO_NUMBER;
  return value.toFixed(2);
}
