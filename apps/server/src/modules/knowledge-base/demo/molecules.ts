import { LINKERS, SCAFFOLDS, SUBSTITUENTS } from './catalog.ts';
import type { DemoScaffold } from './catalog.ts';

/** One enumerated analogue: the scaffold and the substituent index chosen for each slot. */
export interface Analogue {
  scaffold: DemoScaffold;
  scaffoldIndex: number;
  /** Substituent index per slot R1..R3 (and linker index for `{L}` as `linker`). */
  r: number[];
  linker: number | null;
  smiles: string;
}

const SLOTS = ['R1', 'R2', 'R3'] as const;

function slotCount(template: string): number {
  return SLOTS.filter((s) => template.includes(`{${s}}`)).length;
}

/** Size of a scaffold's combinatorial space (substituents per slot, times linkers). */
export function comboSpace(scaffold: DemoScaffold): number {
  const linkers = scaffold.template.includes('{L}') ? LINKERS.length : 1;
  return SUBSTITUENTS.length ** slotCount(scaffold.template) * linkers;
}

/** Writes the analogue SMILES; each slot gets its own ring-closure number. */
function assemble(scaffold: DemoScaffold, r: number[], linker: number | null): string {
  let smiles = scaffold.template;
  r.forEach((sub, i) => {
    const group = (SUBSTITUENTS[sub] as string).replaceAll('?', `%9${i + 1}`);
    smiles = smiles.replace(`{R${i + 1}}`, group);
  });
  if (linker !== null) smiles = smiles.replace('{L}', LINKERS[linker] as string);
  return smiles;
}

/**
 * The n-th analogue of a scaffold in a fixed pseudo-random order: an affine permutation of the
 * combination space (stride coprime to its size), so series take disjoint, well-spread slices.
 */
export function analogueAt(scaffoldIndex: number, n: number): Analogue {
  const scaffold = SCAFFOLDS[scaffoldIndex] as DemoScaffold;
  const space = comboSpace(scaffold);
  let stride = 7_919;
  while (gcd(stride, space) !== 1) stride += 2;
  let code = (n * stride + 12_345) % space;
  const hasLinker = scaffold.template.includes('{L}');
  let linker: number | null = null;
  if (hasLinker) {
    linker = code % LINKERS.length;
    code = Math.floor(code / LINKERS.length);
  }
  const r: number[] = [];
  for (let i = 0; i < slotCount(scaffold.template); i++) {
    r.push(code % SUBSTITUENTS.length);
    code = Math.floor(code / SUBSTITUENTS.length);
  }
  return { scaffold, scaffoldIndex, r, linker, smiles: assemble(scaffold, r, linker) };
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}
