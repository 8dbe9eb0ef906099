import fs from 'node:fs';
import path from 'node:path';
import initRDKitModule from '@rdkit/rdkit';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { SmilesGraph } from './smiles-graph.mjs';
import { smartsOutlineOf } from './smarts-outline.mjs';
import { withRingPerception } from './smarts-rings.mjs';
import { Matcher, moleculeQueryOf, type CompiledQuery } from './substructure-match.mjs';

/*
 * The workers match a molecule query against stored SMILES themselves (substructure-match.mjs) and
 * leave the rest to RDKit. Every answer must be RDKit's: here each (query, structure) pair is
 * decided both ways, RDKit's being a SubstructLibrary of trusted SMILES as the engine used before.
 */
const SUBSET =
  process.env.CHEMBL_SUBSET ?? path.resolve(import.meta.dirname, '../../../../../../shared/data/chembl-subset/chembl_subset.db');
const subsetAvailable = process.env.CHEMBL_SUBSET !== 'off' && fs.existsSync(SUBSET);
if (!subsetAvailable) console.warn(`Skipping the ChEMBL part of the substructure match parity: ${SUBSET} is absent.`);

/** Stored structures written the ways RDKit writes them: stereo, '/' bonds in rings, charges, isotopes, explicit H, dative bonds, two-digit closures, bracket aromatics. */
const TARGETS = [
  'Cc1c(CCC(=O)O)s/c(=N\\C(=O)c2ccc(C(=N)N)cc2)n1C',
  'C/C=C/C(=O)Nc1ccc(/C=C/Cl)cc1',
  'C[N+](C)(C)CCOC(=O)c1ccccc1.[Cl-]',
  'CC(=O)[O-].[Na+]',
  '[2H]C([2H])([2H])Oc1ccc(C[13CH3])cc1',
  '[H]N([H])c1ccc(C(=O)O)cc1',
  'C[S@@](=O)c1ccc(C(=O)NC2CC2)cc1',
  'O=[N+]([O-])c1ccc(-c2ccccc2)cc1',
  'c1ccc2c(c1)[se]c1ccccc12',
  'C1CC2CCC1C2',
  'CN(C)->[Cu+2]',
  'C12C3C4C5C1C1C2C3C4C51',
  'O=C1C[NH2]->[Cu][O]1',
  'C1C[NH2]->[Pt][CH2]1',
  '[Cu]->NC',
  'C1CC1.C1CC1',
  'C1CCCCC1',
  'c1ccc2c(c1)-c1ccccc1C2',
  'O=c1[nH]c(=O)c2[nH]cnc2[nH]1',
  'C1=CC=CC=C1',
  'N#N',
  'Cl.Nc1ccncc1',
  'C%10CCCCC%10c1ccccc1',
  '[13C]1=CC=CC=C1',
  'CC(C)(C)[Si](C)(C)OC',
];
/** Queries as a chemist types them (the workers get RDKit's canonical SMILES of each). */
const QUERIES = [
  'c1ccccc1',
  'C(=O)N',
  'c1ccncc1',
  'CC',
  'C=O',
  'O=C[O-]',
  'Cc1ncsc1',
  'c1ccc2ccccc2c1',
  'C1CCCCC1',
  'Cl',
  '[Na+]',
  'N#N',
  'C=C',
  'CN(C)C',
  'c1cc[se]c1',
  '[2H]C',
  '[13CH3]C',
  'C[N+](C)(C)C',
  '[O-]C=O',
  'N->[Cu+2]',
  'c1ccc(-c2ccccc2)cc1',
  'C1CC2CCC1C2',
  'O=c1[nH]cnc2nc[nH]c12',
  'CO[Si](C)(C)C',
  'S=O',
  '[H]N',
  'C/C=C/C',
  'N',
  'CC',
  'NC',
];

/** SMARTS as public collections write them: ring primitives, recursion, counts, charges, lists, negation, two-letter elements. */
const SMARTS = [
  'N!@N',
  '[$(N!@N),$([N;R0]=[N;R0])]',
  'N@N',
  '[R]c1ccccc1',
  'C(=O)!@N',
  'c1ccccc1',
  'C(=O)N',
  '[#6]1:[#6]:[#6]:[#6]:[#6]:[#6]:1',
  '[$([NX3;H2,H1;!$(NC=O)])]',
  '[$(C(=O)[OH]),$(C(=O)[O-])]',
  '[F,Cl,Br,I]',
  '[r5]',
  '[R2]',
  'c-[#7;!R]',
  '[#7;+]',
  '[C;X4;H2]',
  '[$(c1ccccc1)]-[$(c1ccncc1)]',
  '[Cl,Br,I]',
  '[$([#7;R]);$(n)]',
  '[$(C(=O)[OH]),$(C=O)]-[$([c;r6])]',
  '[CX3](=O)[OX2H1]',
  '[NX3][CX3](=[OX1])[#6]',
  '[#6][CX3](=O)[#6]',
  '[SX4](=O)(=O)[NX3]',
  'c[N+](=O)[O-]',
  '[nH]',
  '[n;H0;X3]',
  'a:a-a',
  '[!#6;!#1]~[!#6;!#1]',
  '[Na,K]',
  '[Se,se]',
  '[Si]',
  '[c;!$(c=*)]',
  'C=,#C',
  '[C;!R]=[C;!R]',
  'O=[C,S]-,:[N,n]',
  '[#8]-[#6]=[#8]',
  'C-&!@C',
  '[D3]',
  '[x3]',
  '[$(*~[#7])&a]',
  'C~*~*~N',
  '[CH3]C',
  'N#C-c',
  'c:c',
  '[C;R0]-[N;R]',
  '[R0;#6]=O',
  'C@C',
  '[x3]',
  '[x2;c]',
  '[r5;n]',
  '[R2]~[R2]',
  'c1ccccc1-!@c',
  '[R]',
  'C!@C',
  '[C;R0]',
  '[#7;R0]',
  '[x2]',
  'C=1CCCCC-1',
  'C-1CCCCC=1',
  'C%(1)CC1.C1CC%(1)',
  'C%(10)CC%10',
  '[N,n]',
  '[c]',
  '[!c]',
  '[C,c]',
  '[O,o]',
  '[#6:1]-[#8:2]',
  'N~[Cu]',
  '[#7]-,~[#29]',
  '[#6]/[#6]=[#6]/[#6]',
  '[2H]',
  '[13C]',
  'S(=O)(=O)',
  '[O;H1,-1]',
  'Br.Cl',
];

let rd: Awaited<ReturnType<typeof initRDKitModule>>;
const graph = new SmilesGraph(1024, 2048);
const matcher = new Matcher(1024);
const utf8 = new TextEncoder();

beforeAll(async () => {
  rd = await initRDKitModule();
  rd.disable_logging();
});

function canonical(smiles: string): string {
  const mol = rd.get_mol(smiles)!;
  try {
    return mol.get_smiles();
  } finally {
    mol.delete();
  }
}

/** The query as the workers compile it from RDKit's molecule, or null (left to RDKit). */
function compiled(text: string): CompiledQuery | null {
  const mol = rd.get_mol(text)!;
  try {
    return moleculeQueryOf(mol.get_smiles(), mol.get_json(), graph);
  } finally {
    mol.delete();
  }
}

/** The stored forms listed, and the first `limit` ChEMBL structures of the subset when it is here (RDKit's canonical SMILES). */
function withSubset(limit: number): string[] {
  const targets = [...TARGETS];
  if (!subsetAvailable) return targets;
  const sqlite = new Database(SUBSET, { readonly: true, fileMustExist: true });
  targets.push(
    ...(sqlite.prepare('SELECT canonical_smiles FROM compound_structures ORDER BY molregno LIMIT ?').pluck().all(limit) as string[]).map(
      canonical,
    ),
  );
  sqlite.close();
  return targets;
}

/** RDKit's SubstructLibrary of trusted SMILES, as the engine used before (the reference). */
function libraryOf(targets: readonly string[]) {
  const library = new rd.SubstructLibrary(0);
  for (const smiles of targets) library.add_trusted_smiles(smiles);
  return library;
}

/** Pairs where the two answers differ, and the hits RDKit found, for each query over `targets`. */
function compare(queries: readonly string[], targets: readonly string[]): { differ: string[]; hits: number; decided: number } {
  const library = libraryOf(targets);
  const bytes = targets.map((smiles) => utf8.encode(smiles));
  const differ: string[] = [];
  let hits = 0;
  let decided = 0;
  for (const text of queries) {
    const query = compiled(text);
    if (!query) continue;
    decided++;
    const mol = rd.get_mol(text)!;
    const rdkit = new Set(library.get_matches_as_uint32array(mol, false, 1, targets.length) as Uint32Array);
    mol.delete();
    hits += rdkit.size;
    bytes.forEach((target, i) => {
      const ours = graph.read(target) && matcher.decide(query, graph) === true;
      if (ours !== rdkit.has(i)) differ.push(`${text} in ${targets[i]}: RDKit ${rdkit.has(i)}`);
    });
  }
  library.delete();
  return { differ, hits, decided };
}

describe('substructure match of molecule queries equals RDKit', () => {
  it('reads every stored form listed and answers every query as RDKit', () => {
    for (const target of TARGETS) expect(graph.read(utf8.encode(target)), target).toBe(true);
    const { differ, hits, decided } = compare(QUERIES, TARGETS);
    expect(differ).toEqual([]);
    // All but the dative one (N->[Cu+2]), which RDKit matches in its direction.
    expect(decided).toBe(QUERIES.length - 1);
    expect(hits).toBeGreaterThan(50);
  });

  it('leaves to RDKit the queries its rules do not cover: radicals, dummies', () => {
    // [N+](=O)[O-] alone has a radical on N; RDKit then matches no stored nitro group.
    for (const text of ['[N+](=O)[O-]', '[CH2]C', '*c1ccccc1', '[O]', '[13CH3]', 'C[N+](C)C', 'CO[Si]'])
      expect(compiled(text), text).toBeNull();
    // A dative bond is matched by RDKit in its direction only: left to RDKit.
    expect(compiled('[NH3]->[Cu]')).toBeNull();
    expect(compiled('O=[N+]([O-])c1ccccc1')).not.toBeNull();
  });

  it('refuses text it cannot read instead of guessing', () => {
    for (const text of ['C1CC', 'C(C', 'C)C', '[C', 'C~C', 'C=', '[Xx]', 'C%1C', 'C(1CC1)', 'C%05CC%05', '[C+++]', 'c1cc[sb]cc1', 'C()C']) {
      expect(graph.read(utf8.encode(text)), text).toBe(false);
    }
    // A failed text leaves nothing behind for the next one.
    expect(graph.read(utf8.encode('C1CC1'))).toBe(true);
    expect(graph.bonds).toBe(3);
  });

  it('outlines of SMARTS never rule out a structure RDKit matches, are certain only of its matches, and rule most non-matches out', () => {
    const targets = withSubset(2000);
    const library = libraryOf(targets);
    const missed: string[] = [];
    const wronglyCertain: string[] = [];
    let certain = 0;
    let outlined = 0;
    let nonMatches = 0;
    let ruledOut = 0;
    for (const text of SMARTS) {
      const qmol = rd.get_qmol(withRingPerception(text))!;
      const rdkit = new Set(library.get_matches_as_uint32array(qmol, false, 1, targets.length) as Uint32Array);
      qmol.delete();
      const outline = smartsOutlineOf(withRingPerception(text));
      if (!outline) continue;
      outlined++;
      targets.forEach((target, i) => {
        const answer = graph.read(utf8.encode(target)) ? matcher.decide(outline, graph) : null;
        const passes = answer !== false;
        if (rdkit.has(i) && !passes) missed.push(`${text} in ${target}`);
        if (answer === true) {
          certain++;
          if (!rdkit.has(i)) wronglyCertain.push(`${text} in ${target}`);
        }
        if (!rdkit.has(i)) {
          nonMatches++;
          if (!passes) ruledOut++;
        }
      });
    }
    library.delete();
    expect(missed.slice(0, 5)).toEqual([]);
    expect(wronglyCertain.slice(0, 5)).toEqual([]);
    // The listed stored forms alone give a few hundred certain answers; with the ChEMBL subset, tens of thousands.
    expect(certain).toBeGreaterThan(subsetAvailable ? 10_000 : 200);
    expect(outlined).toBeGreaterThan(SMARTS.length - 6);
    // A single aromatic letter closing a bracket is read ([c], [N,n]): these SMARTS have outlines.
    for (const text of ['[N,n]', '[c]', '[!c]', '[C,c]', '[O,o]']) expect(smartsOutlineOf(text), text).not.toBeNull();
    expect(ruledOut / nonMatches).toBeGreaterThan(0.6);
  });

  it('a molecule query found in another (read as a stored structure) matches, by RDKit, every structure the other matches', () => {
    // The workers take every structure holding a frequent fragment as a hit of a query found in
    // that fragment, without matching it (worker/known-answers.mjs, worker/warm-fragments.mjs).
    const targets = withSubset(1500);
    const library = libraryOf(targets);
    const matchesOf = (text: string) => {
      const mol = rd.get_mol(text)!;
      const found = new Set(library.get_matches_as_uint32array(mol, false, 1, targets.length) as Uint32Array);
      mol.delete();
      return found;
    };
    const outer = [...new Set([...QUERIES, 'NC=O', 'OC=O', 'CC(N)=O', 'O=C(O)c1ccccc1', 'NC(=O)c1ccncc1'])].filter(
      (text) => compiled(text) !== null,
    );
    const broken: string[] = [];
    let pairs = 0;
    for (const f of outer) {
      const fGraph = new SmilesGraph(64, 128);
      expect(fGraph.read(utf8.encode(canonical(f))), f).toBe(true);
      const fHits = matchesOf(f);
      for (const q of QUERIES) {
        const query = compiled(q);
        if (!query || q === f || matcher.decide(query, fGraph) !== true) continue;
        pairs++;
        const qHits = matchesOf(q);
        for (const i of fHits) if (!qHits.has(i)) broken.push(`${q} in ${f}, ${targets[i]}`);
      }
    }
    library.delete();
    expect(broken.slice(0, 5)).toEqual([]);
    expect(pairs).toBeGreaterThan(40);
  });

  it.skipIf(!subsetAvailable)(
    'answers as RDKit over 3,000 ChEMBL structures, for typed fragments and for stored structures as queries',
    () => {
      const sqlite = new Database(SUBSET, { readonly: true, fileMustExist: true });
      const rows = sqlite
        .prepare('SELECT canonical_smiles FROM compound_structures ORDER BY molregno LIMIT 3000')
        .pluck()
        .all() as string[];
      sqlite.close();
      const targets: string[] = [];
      for (const smiles of rows) {
        const mol = rd.get_mol(smiles);
        if (mol?.is_valid()) targets.push(mol.get_smiles());
        mol?.delete();
      }
      const asQueries = targets.filter((_, i) => i % 60 === 0);
      const { differ, hits, decided } = compare([...QUERIES, ...asQueries], targets);
      expect(differ.slice(0, 5)).toEqual([]);
      expect(decided).toBeGreaterThan(QUERIES.length + asQueries.length - 5);
      expect(hits).toBeGreaterThan(10_000);
    },
  );
});
