import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RdkitChemEngine } from './rdkit-engine.ts';

/*
 * The matched-pair cuts (worker/mmpa.mjs `fragmentsOf`) take RDKit's halves as written and read
 * only halves with stereo again; the reference (`fragmentsOfReference`, test hooks) reads every
 * half again as the worker did before. Both must give the same cuts, in the same order.
 */
const SERIES = path.resolve(
  import.meta.dirname,
  '../../../../../../shared/data/chembl-subset/supplementary/rdkit_freewilson_CHEMBL2321810/CHEMBL2321810.smi',
);

/** Stereo (tetrahedral, ring, E/Z), charges, isotopes, salts, explicit hydrogens, atom maps, no cut, more than 20 cuttable bonds. */
const TRICKY = [
  'O=C(Nc1ccc(Cl)cc1)c1ccccn1',
  'C[C@H](N)C(=O)N[C@@H](Cc1ccccc1)C(=O)O',
  'C[C@H]1CC[C@@H](OC(=O)c2ccccc2)CC1',
  'C/C=C/C(=O)Nc1ccc(/C=C/Cl)cc1',
  'F/C=C\\c1ccccc1OC',
  'C[N+](C)(C)CCOC(=O)c1ccccc1.[Cl-]',
  'CC(=O)[O-].[Na+]',
  '[2H]C([2H])([2H])Oc1ccc(C[13CH3])cc1',
  '[H]N([H])c1ccc(C(=O)O)cc1',
  'C[S@@](=O)c1ccc(C(=O)NC2CC2)cc1',
  'O=C(O)[C@@H]1C[C@H](O)CN1C(=O)c1ccc(F)cc1',
  'c1ccccc1',
  'CCCCCCCCCCCCCCCCCCCCCCCCCC(=O)OCC(O)CO',
  'CC(C)(C)OC(=O)N[C@@H](CCCCNC(=O)OCc1ccccc1)C(=O)N1CCC[C@H]1C(=O)NCc1ccc(-c2ccccn2)cc1',
  'O=C(NCCN1CCOCC1)c1cc2cc(Cl)ccc2[nH]1',
  'C[C@@H](O)[C@H](N)C(=O)O',
  'N#Cc1ccc(C(c2ccc(C#N)cc2)n2cncn2)cc1',
];

describe('matched-pair cuts: the same as reading every half again', () => {
  let engine: RdkitChemEngine;
  beforeAll(() => {
    engine = new RdkitChemEngine(undefined as never, { workers: 2, testHooks: true });
  });
  afterAll(async () => {
    await engine.close();
  });

  it('on stereo, charged, labelled and salted structures', async () => {
    const reference = await engine.referenceFragments(TRICKY);
    expect(reference.flat().length).toBeGreaterThan(50);
    expect(reference.flat().some((c) => /[@/\\]/.test(c.constant + c.variable))).toBe(true);
    expect(await engine.fragments(TRICKY)).toEqual(reference);
  });

  it.skipIf(!fs.existsSync(SERIES))(
    'on the FreeWilson series (1,017 compounds)',
    async () => {
      const smiles = fs
        .readFileSync(SERIES, 'utf8')
        .trim()
        .split('\n')
        .map((line) => line.trim().split(/\s+/)[0]!);
      const reference = await engine.referenceFragments(smiles);
      expect(reference.flat().length).toBeGreaterThan(5_000);
      expect(await engine.fragments(smiles)).toEqual(reference);
    },
    60_000,
  );

  it('refuses the reference without test hooks', async () => {
    const plain = new RdkitChemEngine(undefined as never, { workers: 1 });
    try {
      await expect(plain.referenceFragments(['CCO'])).rejects.toThrow('test hooks are off');
    } finally {
      await plain.close();
    }
  });
});
