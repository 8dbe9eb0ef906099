/**
 * Keys of generated rows. Real ChEMBL keys stay far below 100 M and the subset's own surrogate keys
 * start at 900,000,001, so generated keys start at 1,000,000,001: no generated row can be taken for
 * a real ChEMBL row or a subset row (all keys still fit a 32-bit signed integer at full size).
 * Targets are the subset's real rows and keep their real tid and ChEMBL id.
 */
export const KEY_BASE = 1_000_000_000;

export const key = (index: number): number => KEY_BASE + index + 1;
export const indexOfKey = (value: number): number => value - KEY_BASE - 1;

/**
 * ChEMBL ids of generated rows: CHEMBL9 + kind digit + 7 digits (CHEMBL910000001 ...). Real ChEMBL
 * ids have at most 7 digits today, so these never name a real record.
 */
const KIND = { molecule: 1, assay: 2, doc: 3 } as const;

export function chemblId(kind: keyof typeof KIND, index: number): string {
  const serial = index + 1;
  if (serial >= 10_000_000) throw new Error(`too many ${kind} rows for the generated ChEMBL id range`);
  return `CHEMBL9${KIND[kind]}${String(serial).padStart(7, '0')}`;
}
