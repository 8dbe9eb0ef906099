/**
 * How big a generated release is: ChEMBL 35's proportions (rounded, as issue 40 states them) times
 * the scale. Every other figure (shares of published-only values, of molecules without a structure,
 * units ...) comes from the subset's real rows, not from here.
 */
export const FULL_SIZE = {
  molecules: 2_400_000,
  assays: 1_700_000,
  docs: 90_000,
  activities: 20_000_000,
  targets: 15_000,
} as const;

export type Entity = keyof typeof FULL_SIZE;
export type Counts = Record<Entity, number>;

/** Rows per entity at a scale (1 = full size); at least one of each, so every join has a row. */
export function scaledCounts(scale: number): Counts {
  if (!(scale > 0 && scale <= 1)) throw new Error(`--scale must be in (0, 1], got ${scale}`);
  const counts = {} as Counts;
  for (const [entity, full] of Object.entries(FULL_SIZE) as [Entity, number][]) counts[entity] = Math.max(1, Math.round(full * scale));
  return counts;
}

/**
 * Release N+1 of the same file (`--release 2`): the same seed and keys, then per release after the
 * first these shares of release 1's rows change, retire or are added (issue 40's second import).
 */
export const RELEASE_CHANGES = {
  /** Activities whose values change (another deterministic perturbation). */
  changedActivities: 0.01,
  /** Molecules, assays and activities that disappear (with the activities of retired molecules and assays). */
  retired: 0.005,
  /** New rows at the end of every key range (molecules, assays, docs, activities). */
  added: 0.01,
} as const;

/** Rows per entity in release `release` before retirements: release 1's plus the added share per later release. */
export function releaseCounts(base: Counts, release: number): Counts {
  const counts = { ...base };
  const extra = release - 1;
  for (const entity of ['molecules', 'assays', 'docs', 'activities'] as const) {
    counts[entity] = base[entity] + Math.round(base[entity] * RELEASE_CHANGES.added * extra);
  }
  return counts;
}
