/**
 * Molar amounts as a chemist reads them: in the unit of their size (0.000241 µM is "0.241 nM",
 * 1,500 µM is "1.5 mM"), three significant digits, never E-notation. Display only.
 */

const UNITS = [
  { unit: 'mM', perMicroMolar: 1e-3, from: 1000 },
  { unit: 'µM', perMicroMolar: 1, from: 1 },
  // Below 1 µM a chemist reads nM, also below 1 nM (0.241 nM, not 241 pM).
  { unit: 'nM', perMicroMolar: 1e3, from: 0 },
] as const;

const significant = new Intl.NumberFormat('en-US', { maximumSignificantDigits: 3 });

/** A value in µM written in mM, µM or nM, whichever holds it between 1 and 1,000 (nM below). Empty for no number. */
export function formatMolar(microMolar: number | null | undefined): string {
  if (microMolar === null || microMolar === undefined || !Number.isFinite(microMolar)) return '';
  if (microMolar === 0) return '0 µM';
  const size = Math.abs(microMolar);
  const unit = UNITS.find((candidate) => size >= candidate.from) ?? UNITS[UNITS.length - 1]!;
  return `${significant.format(microMolar * unit.perMicroMolar)} ${unit.unit}`;
}

/**
 * A number too small or too large for fixed decimals, still written out in full (0.0000123,
 * 1,230,000,000,000): grid cells never show E-notation (a chemist reads "2.41E-4" as an error).
 */
export function formatPlainSignificant(value: number): string {
  return significant.format(value);
}
