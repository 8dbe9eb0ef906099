import initRDKitModule from '@rdkit/rdkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RdkitChemEngine } from './rdkit-engine.ts';

/*
 * What an activity cliff's drawing colours (docs/sar.md "Activity cliffs"): each member is drawn
 * with its SMARTS and highlightMode 'rest', i.e. every atom and bond in no match of the SMARTS is
 * coloured (worker `highlightOf`). The same is computed here with plain RDKit from the engine's answer.
 */

/** A kinase-inhibitor warhead, a linker O–(CH2)n–O, and a thalidomide end (a PROTAC-like compound). */
const protac = (n: number) => `Fc1ccc(Nc2ncnc3cc(O${'C'.repeat(n)}Oc4cccc5C(=O)N(C6CCC(=O)NC6=O)C(=O)c45)ccc23)cc1Cl`;
/** The thalidomide end alone (glutarimide and phthalimide), to find its atoms in a member. */
const THALIDOMIDE_END = 'c1cccc2C(=O)N(C3CCC(=O)NC3=O)C(=O)c12';
const WARHEAD = 'Fc1ccc(Nc2ncnc3ccccc23)cc1Cl';

let rd: Awaited<ReturnType<typeof initRDKitModule>>;

/** Atoms and bonds the drawing colours: those in no match of the SMARTS (mode 'rest'). */
function coloured(smiles: string, smarts: string) {
  const mol = rd.get_mol(smiles)!;
  const query = rd.get_qmol(smarts)!;
  try {
    const parsed = JSON.parse(mol.get_substruct_matches(query)) as { atoms: number[]; bonds: number[] }[] | Record<string, never>;
    const matches = Array.isArray(parsed) ? parsed : [];
    const atoms = new Set(matches.flatMap((m) => m.atoms));
    const bonds = new Set(matches.flatMap((m) => m.bonds));
    const all = (n: number) => Array.from({ length: n }, (_, i) => i);
    return {
      matched: atoms.size > 0,
      atoms: all(mol.get_num_atoms()).filter((a) => !atoms.has(a)),
      bonds: all(mol.get_num_bonds()).filter((b) => !bonds.has(b)),
    };
  } finally {
    mol.delete();
    query.delete();
  }
}

/** The atoms of the first match of a substructure (SMILES) in the molecule. */
function atomsOf(smiles: string, part: string): number[] {
  const mol = rd.get_mol(smiles)!;
  const query = rd.get_qmol(part)!;
  try {
    return (JSON.parse(mol.get_substruct_match(query)) as { atoms?: number[] }).atoms ?? [];
  } finally {
    mol.delete();
    query.delete();
  }
}

/** Symbol and hydrogen count of each atom (e.g. 'C2' for CH2). */
function atomLabels(smiles: string, atoms: number[]): string[] {
  const mol = rd.get_mol(smiles)!;
  try {
    const doc = JSON.parse(mol.get_json()) as {
      defaults: { atom: { impHs: number } };
      molecules: { atoms: { z?: number; impHs?: number }[] }[];
    };
    return atoms.map((a) => {
      const atom = doc.molecules[0]!.atoms[a]!;
      return `${atom.z ?? 6}H${atom.impHs ?? doc.defaults.atom.impHs}`;
    });
  } finally {
    mol.delete();
  }
}

describe('activity cliffs: the difference drawn', () => {
  let engine: RdkitChemEngine;
  beforeAll(async () => {
    rd = await initRDKitModule();
    engine = new RdkitChemEngine(undefined as never, { workers: 2, testHooks: true, requestTimeLimitMs: 10_000 });
  });
  afterAll(async () => {
    await engine.close();
  });

  it('colours only the extra CH2 units of a PROTAC-like pair that differs in linker length, not the identical far end', async () => {
    const [a, b] = [protac(5), protac(3)];
    const [found] = await engine.pairDifferences([[a, b]], { timeoutSeconds: 1, budgetMs: 4_000 });
    expect(found).toBeTruthy();
    expect(['mcs', 'partial']).toContain(found!.kind);
    // Each member's SMARTS is a substructure of that member (as the API test checks).
    const inA = coloured(a, found!.a);
    const inB = coloured(b, found!.b);
    expect(inA.matched && inB.matched).toBe(true);
    // a: just the two CH2 more than b; neither end.
    expect(atomLabels(a, inA.atoms).sort()).toEqual(['6H2', '6H2']);
    for (const end of [THALIDOMIDE_END, WARHEAD]) {
      const atoms = atomsOf(a, end);
      expect(atoms.length).toBeGreaterThan(10);
      expect(atoms.filter((x) => inA.atoms.includes(x))).toEqual([]);
      expect(atomsOf(b, end).filter((x) => inB.atoms.includes(x))).toEqual([]);
    }
    // The CH2 units are bonded in a chain: 3 bonds of a coloured (into, between and out of them).
    expect(inA.bonds).toHaveLength(3);
    // b: no atom differs; only the one bond where a has its two CH2 more is coloured.
    expect(inB.atoms).toEqual([]);
    expect(inB.bonds).toHaveLength(1);
    // The same in the molecule as stored (canonical SMILES, other atom order), which the page draws —
    // and the engine's drawing takes the joined SMARTS (the orange of the highlight is in it).
    for (const [smiles, smarts, drawn] of [
      [a, found!.a, inA],
      [b, found!.b, inB],
    ] as const) {
      const mol = rd.get_mol(smiles)!;
      const stored = mol.get_smiles();
      mol.delete();
      const again = coloured(stored, smarts);
      expect([again.atoms.length, again.bonds.length]).toEqual([drawn.atoms.length, drawn.bonds.length]);
      const svg = await engine.depict(
        { kind: 'smiles', text: stored },
        { width: 300, height: 200, highlight: { kind: 'smarts', text: smarts, mode: 'rest' }, stored: true },
      );
      expect(svg).toMatch(/#FF8C19/i);
    }
    // The shared connected part stays the pair's `common`, a substructure of both.
    expect(found!.common).toBeTruthy();
    expect(coloured(a, found!.common!).matched && coloured(b, found!.common!).matched).toBe(true);
  });

  it('also colours only the extra CH2 units past the page’s time for FMCS (core, then atom environments on the rest)', async () => {
    const [a, b] = [protac(6), protac(2)];
    // budgetMs 0: the fast fallbacks only; the warhead is the SAR core, with an R position on the linker side.
    const [found] = await engine.pairDifferences([[a, b]], { core: 'Fc1ccc(Nc2ncnc3cc([*:1])ccc23)cc1Cl', timeoutSeconds: 1, budgetMs: 0 });
    expect(found!.kind).toBe('core');
    const inA = coloured(a, found!.a);
    const inB = coloured(b, found!.b);
    expect(inA.matched && inB.matched).toBe(true);
    for (const [smiles, drawn] of [
      [a, inA],
      [b, inB],
    ] as const) {
      expect(atomsOf(smiles, THALIDOMIDE_END).filter((x) => drawn.atoms.includes(x))).toEqual([]);
      expect(atomsOf(smiles, WARHEAD).filter((x) => drawn.atoms.includes(x))).toEqual([]);
    }
    // Only the linker is coloured (atom environments are less exact than FMCS: an O or CH2 more may be).
    expect(inA.atoms.length).toBeGreaterThanOrEqual(4);
    expect(inA.atoms.length + inB.atoms.length).toBeLessThanOrEqual(8);
    for (const label of [...atomLabels(a, inA.atoms), ...atomLabels(b, inB.atoms)]) expect(['6H2', '8H0']).toContain(label);
  });

  it('keeps a pair that differs by one substituent as before: one MCS for both, the substituent coloured', async () => {
    const a = 'O=C(Nc1ccc(Cl)cc1)c1ccc(C)cn1';
    const b = 'O=C(Nc1ccc(OC)cc1)c1ccc(C)cn1';
    const [found] = await engine.pairDifferences([[a, b]], { timeoutSeconds: 1, budgetMs: 4_000 });
    expect(found!.kind).toBe('mcs');
    expect(found!.a).toBe(found!.b);
    expect(found!.a).not.toContain('.');
    expect(found!.common).toBeUndefined();
    const inA = coloured(a, found!.a);
    const inB = coloured(b, found!.b);
    expect(atomLabels(a, inA.atoms)).toEqual(['17H0']);
    expect(atomLabels(b, inB.atoms).sort()).toEqual(['6H3', '8H0']);
  });

  it('adds no part where the rest is not shared (a ring against a chain), and each member’s SMARTS still matches it', async () => {
    const a = 'O=C(Nc1ccc(C2CCCCC2)cc1)c1ccc(C)cn1';
    const b = 'O=C(Nc1ccc(CCCCCC)cc1)c1ccc(C)cn1';
    const [found] = await engine.pairDifferences([[a, b]], { timeoutSeconds: 1, budgetMs: 4_000 });
    expect(found!.kind).toBe('mcs');
    expect(found!.a).toBe(found!.b);
    const inA = coloured(a, found!.a);
    const inB = coloured(b, found!.b);
    expect(inA.matched && inB.matched).toBe(true);
    expect(inA.atoms.length).toBeGreaterThanOrEqual(5);
  });
});
