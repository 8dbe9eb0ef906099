import initRDKitModule from '@rdkit/rdkit';
import type { Kysely } from 'kysely';
import type { Database } from '../src/db/schema.ts';

/**
 * The straightforward RDKit evaluation the chemistry engine must equal (issue 5 "parity"):
 * every stored structure parsed from its canonical SMILES with full sanitisation, then each query
 * checked molecule by molecule — no fingerprints, no screens, no shards.
 */

type RDKit = Awaited<ReturnType<typeof initRDKitModule>>;
type Mol = NonNullable<ReturnType<RDKit['get_mol']>>;

const MORGAN = JSON.stringify({ radius: 2, nBits: 2048 });
const POP8 = new Uint8Array(256);
for (let i = 1; i < 256; i++) POP8[i] = (i & 1) + POP8[i >> 1]!;

/** Queries of every kind the issue names: selective, generic, charged, stereo, aromatic/aliphatic, recursive SMARTS. */
export const SUBSTRUCTURE_QUERIES: { kind: 'smiles' | 'smarts'; text: string; note: string }[] = [
  { kind: 'smiles', text: 'c1ccccc1', note: 'generic aromatic ring' },
  { kind: 'smiles', text: 'c1ccncc1', note: 'pyridine' },
  { kind: 'smiles', text: 'C1CCNCC1', note: 'aliphatic piperidine' },
  { kind: 'smiles', text: 'C1COCCN1', note: 'morpholine' },
  { kind: 'smiles', text: 'c1ccc2ncncc2c1', note: 'quinazoline' },
  { kind: 'smiles', text: 'c1ccc2[nH]ccc2c1', note: 'indole NH' },
  { kind: 'smiles', text: 'C(=O)N', note: 'amide' },
  { kind: 'smiles', text: 'S(=O)(=O)N', note: 'sulfonamide' },
  { kind: 'smiles', text: 'C#N', note: 'nitrile' },
  { kind: 'smiles', text: 'FC(F)F', note: 'CF3' },
  { kind: 'smiles', text: 'Clc1ccccc1', note: 'chlorophenyl' },
  { kind: 'smiles', text: 'O=C1CCC(N2CC3=CC=CC=C3C2=O)C(=O)N1', note: 'selective, Kekulé input' },
  { kind: 'smiles', text: 'C(=O)[O-]', note: 'charged carboxylate' },
  { kind: 'smiles', text: '[N+](=O)[O-]', note: 'charged nitro' },
  { kind: 'smiles', text: '[NH3+]', note: 'charged ammonium' },
  { kind: 'smiles', text: 'C[C@H](N)C(=O)O', note: 'stereo centre' },
  { kind: 'smiles', text: 'C[C@@H](O)c1ccccc1', note: 'stereo benzylic alcohol' },
  { kind: 'smiles', text: 'C1CC1', note: 'cyclopropyl' },
  { kind: 'smiles', text: 'c1ccsc1', note: 'thiophene' },
  { kind: 'smiles', text: 'O=C1NC(=O)SC1', note: 'thiazolidinedione' },
  { kind: 'smiles', text: 'CCOCCOCCO', note: 'PEG linker' },
  { kind: 'smiles', text: 'C=C', note: 'alkene' },
  { kind: 'smiles', text: 'c1cn[nH]c1', note: 'pyrazole NH' },
  { kind: 'smiles', text: 'Cc1noc(C)c1', note: 'dimethylisoxazole' },
  { kind: 'smiles', text: 'C[S](=O)=O', note: 'radical on S (RDKit matches no stored sulfone)' },
  { kind: 'smiles', text: 'C[N]C', note: 'radical on N' },
  { kind: 'smarts', text: '[#6]-[#16](=[#8])=[#8]', note: 'the same sulfone as SMARTS (matched)' },
  { kind: 'smarts', text: '[#6]1:[#6]:[#6]:[#6]:[#6]:[#6]:1', note: 'aromatic six-ring by atomic number' },
  { kind: 'smarts', text: '[$([NX3;H2,H1;!$(NC=O)])]', note: 'recursive: amine, not amide' },
  { kind: 'smarts', text: '[$(C(=O)[OH]),$(C(=O)[O-])]', note: 'recursive: acid or carboxylate' },
  { kind: 'smarts', text: '[F,Cl,Br,I]', note: 'any halogen' },
  { kind: 'smarts', text: '[r5]', note: 'atom in a five-membered ring' },
  { kind: 'smarts', text: '[R2]', note: 'ring-fusion atom' },
  { kind: 'smarts', text: 'c-[#7;!R]', note: 'aromatic C to acyclic N' },
  { kind: 'smarts', text: '[#7;+]', note: 'positive nitrogen' },
  { kind: 'smarts', text: '[C;X4;H2]', note: 'methylene' },
  { kind: 'smarts', text: '[$(c1ccccc1)]-[$(c1ccncc1)]', note: 'recursive biaryl' },
  { kind: 'smarts', text: '*~*~*~*~*~*~*~*~*~*~*~*~*~*~*~*', note: 'generic 16-atom path' },
  { kind: 'smarts', text: '[Cl,Br,I]', note: 'no fluorine' },
  { kind: 'smarts', text: '[$(N!@N),$([N;R0]=[N;R0])]', note: 'OR of recursive SMARTS with ring primitives (hydrazine or azo)' },
  { kind: 'smarts', text: '[$([#7;R]);$(n)]', note: 'AND of recursive SMARTS, one with a ring primitive' },
  { kind: 'smarts', text: '[$(C(=O)[OH]),$(C=O)]-[$([c;r6])]', note: 'recursive SMARTS in two atoms, one with ring size' },
];

export class ChemReference {
  private constructor(
    private readonly rd: RDKit,
    readonly structures: { strId: number; smiles: string; mol: Mol; morgan: Uint8Array; pop: number }[],
  ) {}

  static async load(db: Kysely<Database>): Promise<ChemReference> {
    const rd = await initRDKitModule();
    rd.disable_logging();
    const rows = await db.selectFrom('structures').select(['str_id', 'canonical_smiles']).orderBy('str_id').execute();
    const structures = [];
    for (const row of rows) {
      const mol = rd.get_mol(row.canonical_smiles);
      if (!mol) continue;
      const morgan = new Uint8Array(mol.get_morgan_fp_as_uint8array(MORGAN));
      let pop = 0;
      for (const byte of morgan) pop += POP8[byte]!;
      structures.push({ strId: Number(row.str_id), smiles: row.canonical_smiles, mol, morgan, pop });
    }
    return new ChemReference(rd, structures);
  }

  /** str_ids matching a SMILES (molecule as query) or SMARTS (query pattern), by plain RDKit. */
  substructure(kind: 'smiles' | 'smarts' | 'molfile', text: string): number[] {
    const query = kind === 'smarts' ? this.rd.get_qmol(text) : this.rd.get_mol(text);
    if (!query) throw new Error(`reference: RDKit cannot read ${text}`);
    try {
      return this.structures.filter((s) => s.mol.get_substruct_match(query) !== '{}').map((s) => s.strId);
    } finally {
      query.delete();
    }
  }

  /** [str_id, Tanimoto] on Morgan r=2 / 2048 bits within [min, max]. */
  similarity(smiles: string, min: number, max: number): Map<number, number> {
    const query = this.rd.get_mol(smiles);
    if (!query) throw new Error(`reference: RDKit cannot read ${smiles}`);
    const q = new Uint8Array(query.get_morgan_fp_as_uint8array(MORGAN));
    query.delete();
    let qPop = 0;
    for (const byte of q) qPop += POP8[byte]!;
    const out = new Map<number, number>();
    for (const s of this.structures) {
      let common = 0;
      for (let i = 0; i < q.length; i++) common += POP8[q[i]! & s.morgan[i]!]!;
      const union = qPop + s.pop - common;
      const sim = union === 0 ? 1 : common / union;
      if (sim >= min && sim <= max) out.set(s.strId, sim);
    }
    return out;
  }

  /** str_ids whose canonical SMILES equals the query's. */
  exact(smiles: string): number[] {
    const query = this.rd.get_mol(smiles);
    if (!query) throw new Error(`reference: RDKit cannot read ${smiles}`);
    const canonical = query.get_smiles();
    query.delete();
    return this.structures.filter((s) => s.smiles === canonical).map((s) => s.strId);
  }

  /** A molfile of a stored structure (a second way of writing it). */
  molfile(smiles: string): string {
    const mol = this.rd.get_mol(smiles);
    if (!mol) throw new Error(`reference: RDKit cannot read ${smiles}`);
    try {
      return mol.get_molblock();
    } finally {
      mol.delete();
    }
  }

  close(): void {
    for (const s of this.structures) s.mol.delete();
  }
}
