import initRDKitModule from '@rdkit/rdkit';
import { beforeAll, describe, expect, it } from 'vitest';
import { parentKeyOfInchi, parentOfInchi } from './parent-key.ts';

/** Parent keys from RDKit's own standard InChI, as the knowledge base stores it. */
describe('parent keys', () => {
  let inchi: (smiles: string) => string;
  beforeAll(async () => {
    const rd = await initRDKitModule();
    inchi = (smiles) => {
      const mol = rd.get_mol(smiles)!;
      try {
        return mol.get_inchi();
      } finally {
        mol.delete();
      }
    };
  });

  const DONEPEZIL = 'COc1cc2c(cc1OC)C(=O)C(CC1CCN(Cc3ccccc3)CC1)C2';

  it('gives a compound’s salts, solvates, charged forms and stereoisomers one parent', () => {
    const parent = parentOfInchi(inchi(DONEPEZIL));
    expect(parent).not.toBeNull();
    expect(parentOfInchi(inchi(`${DONEPEZIL}.Cl`))).toBe(parent);
    expect(parentOfInchi(inchi(`${DONEPEZIL}.Cl.O`))).toBe(parent);
    expect(parentOfInchi(inchi('COc1cc2c(cc1OC)C(=O)[C@@H](CC1CC[NH+](Cc3ccccc3)CC1)C2'))).toBe(parent);
    expect(parentOfInchi(inchi('COc1cc2c(cc1OC)C(=O)[C@H](CC1CCN(Cc3ccccc3)CC1)C2'))).toBe(parent);
    // A sodium salt and the acid; a mesylate and the base; a bis-hydrochloride.
    expect(parentOfInchi(inchi('[Na+].[O-]C(=O)c1ccccc1O'))).toBe(parentOfInchi(inchi('O=C(O)c1ccccc1O')));
    const imatinib = 'Cc1ccc(NC(=O)c2ccc(CN3CCN(C)CC3)cc2)cc1Nc1nccc(-c2cccnc2)n1';
    expect(parentOfInchi(inchi(`CS(=O)(=O)O.${imatinib}`))).toBe(parentOfInchi(inchi(imatinib)));
    expect(parentOfInchi(inchi('Cl.Cl.CCCCN'))).toBe(parentOfInchi(inchi('CCCCN')));
  });

  it('keeps different compounds apart: an analogue, a regioisomer', () => {
    const parent = parentOfInchi(inchi(DONEPEZIL));
    expect(parentOfInchi(inchi('COc1cc2c(cc1OC)C(=O)C(CC1CCN(Cc3ccccc3F)CC1)C2'))).not.toBe(parent);
    expect(parentOfInchi(inchi('Oc1ccccc1C(=O)O'))).toBe(parentOfInchi(inchi('O=C(O)c1ccccc1O')));
    expect(parentOfInchi(inchi('Oc1cccc(C(=O)O)c1'))).not.toBe(parentOfInchi(inchi('O=C(O)c1ccccc1O')));
  });

  it('reads the first component’s formula, connections and hydrogens only; no InChI, no parent', () => {
    expect(parentKeyOfInchi('InChI=1S/C7H6O3.Na/c8-6-4-2-1-3-5(6)7(9)10;/h1-4,8H,(H,9,10);/q;+1/p-1')).toBe(
      'C7H6O3/c8-6-4-2-1-3-5(6)7(9)10/h1-4,8H,(H,9,10)',
    );
    expect(parentKeyOfInchi(null)).toBeNull();
    expect(parentKeyOfInchi('not an inchi')).toBeNull();
    expect(parentOfInchi('')).toBeNull();
    // Negative: never equal to a str_id standing for a structure without an InChI.
    expect(parentOfInchi(inchi('CCO'))!).toBeLessThan(0);
  });
});
