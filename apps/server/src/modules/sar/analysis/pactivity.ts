/**
 * pActivity (docs/sar.md "Units and pActivity"): −log10 of a molar value, so that larger is more
 * active and values of different molar units compare. Non-molar types (%, ratios, …) are kept as
 * published and flagged as such.
 */

/** Molar units as ChEMBL writes them → factor to mol/L (the analyzers' SQL is generated from it too). */
export const MOLAR: Readonly<Record<string, number>> = {
  M: 1,
  mM: 1e-3,
  uM: 1e-6,
  µM: 1e-6,
  μM: 1e-6,
  nM: 1e-9,
  pM: 1e-12,
  fM: 1e-15,
};

function factor(units: string | null): number | undefined {
  if (units === null) return undefined;
  const unit = units.trim();
  return Object.hasOwn(MOLAR, unit) ? MOLAR[unit] : undefined;
}

export function isMolarUnit(units: string | null): boolean {
  return factor(units) !== undefined;
}

/**
 * −log10(molar) for a molar unit; a non-molar value unchanged (`molar: false`); null for a molar
 * value that has no logarithm (≤ 0, not finite) or a value that is not a number.
 */
export function toPActivity(value: number, units: string | null): { value: number; molar: boolean } | null {
  const f = factor(units);
  if (f === undefined) return Number.isFinite(value) ? { value, molar: false } : null;
  if (!Number.isFinite(value) || value <= 0) return null;
  return { value: -Math.log10(value * f), molar: true };
}
