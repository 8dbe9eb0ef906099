import type { RGroupDecompositionResult } from './chem-engine.ts';
import { byRGroupLabel } from '@kb/contracts/sar';

/**
 * The engine's SAR work around RDKit (docs/sar.md): its limits, the choice of the decomposition's
 * matching strategy, and the assembly of what the worker returns. Pure functions: the worker calls
 * live in engine-sar.ts, the RDKit calls in worker/ (rgroups.mjs, scaffolds.mjs, pair-differences.mjs, mmpa.mjs).
 */

/** Most SMILES one SAR call takes (the SAR view's limit, SAR_MAX_COMPOUNDS in the contracts). */
export const SAR_MAX_SMILES = 5_000;
/** Molecules per worker request: progress and cancel between chunks; each chunk well inside the request time limit. */
export const SAR_CHUNK = 100;
/**
 * The one-worker decomposition (several cores, a SMARTS core): up to this many compounds RDKit's
 * `Greedy` matching (symmetric positions resolved across the set, ~3 ms a compound); above,
 * `NoSymmetrization` (~1 ms a compound), so a large SAR view stays inside its time budget. One
 * SMILES or molfile core takes the parallel path (symmetry resolved at every size; docs/sar.md).
 */
const GREEDY_MAX_COMPOUNDS = 500;
/** Compounds the MCS is searched over (evenly spread over the set) and its time limit. */
const MCS_SAMPLE = 100;
const MCS_DEFAULT_SECONDS = 2;
const MCS_MAX_SECONDS = 5;

export function tooManySmiles(n: number): string {
  return `${n.toLocaleString('en-US')} structures were given; the SAR work takes at most ${SAR_MAX_SMILES.toLocaleString('en-US')} at once. Narrow the set (filter or tick fewer rows).`;
}

export function chooseStrategy(compounds: number): 'Greedy' | 'NoSymmetrization' {
  return compounds <= GREEDY_MAX_COMPOUNDS ? 'Greedy' : 'NoSymmetrization';
}

/** Evenly spaced readable SMILES (at most MCS_SAMPLE) and the time limit, clamped to 1–5 s. */
export function mcsSample(inputs: readonly string[], timeoutSeconds?: number): { sample: string[]; timeoutSeconds: number } {
  const readable = inputs.filter(Boolean);
  const step = Math.max(1, readable.length / MCS_SAMPLE);
  const sample: string[] = [];
  for (let at = 0; at < readable.length && sample.length < MCS_SAMPLE; at += step) sample.push(readable[Math.floor(at)]!);
  const seconds = Math.min(MCS_MAX_SECONDS, Math.max(1, Math.round(timeoutSeconds ?? MCS_DEFAULT_SECONDS)));
  return { sample, timeoutSeconds: seconds };
}

/**
 * The decomposition's result from the worker's rows (one per fitting molecule, in the order they
 * were added): each input gets its row or null; the distinct labelled cores are listed once; a
 * label that is hydrogen in every row (a position RDKit labelled but nothing substitutes) is left
 * out — `zip` puts hydrogen on any core label not given.
 */
export function assembleDecomposition(
  fits: Uint8Array,
  rows: Record<string, string | null>[],
): Omit<RGroupDecompositionResult, 'strategy'> {
  const fitting = fits.reduce((n, f) => n + f, 0);
  if (fitting !== rows.length) throw new Error(`RDKit returned ${rows.length} decomposed rows for ${fitting} fitting molecules.`);
  const cores: string[] = [];
  const coreIndex = new Map<string, number>();
  const used = new Set<string>();
  for (const row of rows) {
    for (const [label, smiles] of Object.entries(row)) if (label !== 'Core' && smiles !== null) used.add(label);
  }
  const labels = [...used].sort(byRGroupLabel);
  let next = 0;
  const out = Array.from(fits, (fit) => {
    if (!fit) return null;
    const row = rows[next++]!;
    const core = row.Core ?? '';
    let index = coreIndex.get(core);
    if (index === undefined) {
      index = cores.length;
      cores.push(core);
      coreIndex.set(core, index);
    }
    return { core: index, rgroups: Object.fromEntries(labels.map((label) => [label, row[label] ?? null])) };
  });
  return { cores, labels, rows: out };
}

/** The R-groups to join to a core: one per `[*:n]` of the core (hydrogen where none is given), each distinct group once. */
export function zipInput(core: string, rgroups: Record<string, string | null>): { groups: string[] } {
  const groups = new Set<string>();
  for (const match of core.matchAll(/\[\*:(\d+)\]/g)) {
    const n = match[1]!;
    const group = rgroups[`R${n}`];
    groups.add(group ?? `[H][*:${n}]`);
  }
  return { groups: [...groups] };
}

// ---- the parallel decomposition's symmetry pass and assembly (docs/sar.md "Decomposition")

type Groups = Record<string, string | null>;
/** A label permutation of the core's automorphisms: [label, label it maps to] pairs. */
export type LabelPermutation = [number, number][];

const LABEL = /\[\*:(\d+)\]/g;

/** The group with its attachment labels renamed (`[*:n]` → `[*:map(n)]`). */
function relabelGroup(smiles: string, map: (label: number) => number): string {
  return smiles.replace(LABEL, (_, n: string) => `[*:${map(Number(n))}]`);
}

/** A group as the same substituent wherever it sits: its attachment labels left out. */
function groupKey(smiles: string | null): string {
  return smiles === null ? '[H]' : smiles.replace(LABEL, '[*]');
}

/**
 * Symmetric positions resolved across the set, as RDKit's `Greedy` matching does: rows are taken
 * in input order, and each is given the automorphism of the core (a permutation of its labels)
 * under which its R-groups agree most with the (label, R-group) pairs of the rows placed before it
 * (hydrogen counts as a group); ties keep the labels as matched. `labels`: every label of the core.
 */
export function resolveSymmetry(
  rows: readonly (Groups | null)[],
  labels: readonly number[],
  permutations: readonly LabelPermutation[],
): (Groups | null)[] {
  const maps = permutations.map((pairs) => new Map(pairs)).filter((map) => [...map].some(([from, to]) => from !== to));
  if (!maps.length) return [...rows];
  const frequency = new Map<string, number>();
  const count = (label: number, group: string | null) => frequency.get(`${label}\t${groupKey(group)}`) ?? 0;
  return rows.map((row) => {
    if (!row) return null;
    let best: Map<number, number> | null = null;
    let bestScore = labels.reduce((sum, label) => sum + count(label, row[`R${label}`] ?? null), 0);
    for (const map of maps) {
      const score = labels.reduce((sum, label) => sum + count(map.get(label) ?? label, row[`R${label}`] ?? null), 0);
      if (score > bestScore) {
        best = map;
        bestScore = score;
      }
    }
    const placed: Groups = {};
    for (const label of labels) {
      const group = row[`R${label}`] ?? null;
      const to = best?.get(label) ?? label;
      placed[`R${to}`] = group === null || !best ? group : relabelGroup(group, (n) => best!.get(n) ?? n);
    }
    for (const label of labels) {
      const key = `${label}\t${groupKey(placed[`R${label}`] ?? null)}`;
      frequency.set(key, (frequency.get(key) ?? 0) + 1);
    }
    return placed;
  });
}

/**
 * The labels a decomposition shows: those substituted in some row. The core's own labels keep
 * their numbers; the positions labelled for the decomposition (rgdLabel) take the lowest free
 * numbers in core order, as RDKit numbers a core's unlabelled positions (R1, R2, … or the gaps).
 */
export function usedLabels(rows: readonly (Groups | null)[], given: readonly number[]): Map<number, number> {
  const used = new Set<number>();
  for (const row of rows) if (row) for (const [label, group] of Object.entries(row)) if (group !== null) used.add(Number(label.slice(1)));
  const taken = new Set(given);
  const rename = new Map<number, number>();
  let next = 1;
  for (const label of [...used].sort((a, b) => a - b)) {
    if (taken.has(label)) {
      rename.set(label, label);
      continue;
    }
    while (taken.has(next)) next++;
    taken.add(next);
    rename.set(label, next);
  }
  return rename;
}

/** The rows of the parallel decomposition with the used labels renamed (`rename`), every row giving each label. */
export function assembleRows(
  rows: readonly (Groups | null)[],
  rename: Map<number, number>,
): { labels: string[]; rows: RGroupDecompositionResult['rows'] } {
  const labels = [...rename.values()].sort((a, b) => a - b).map((n) => `R${n}`);
  return {
    labels,
    rows: rows.map((row) => {
      if (!row) return null;
      const rgroups: Groups = Object.fromEntries(labels.map((label) => [label, null]));
      for (const [from, to] of rename) {
        const group = row[`R${from}`] ?? null;
        rgroups[`R${to}`] = group === null ? null : relabelGroup(group, (n) => rename.get(n) ?? n);
      }
      return { core: 0, rgroups };
    }),
  };
}
