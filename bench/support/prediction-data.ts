// The target-prediction benchmark's data (bench/prediction.ts): the ChEMBL subset's actives by the
// server's own rule, its structures as the knowledge base would store them, their Morgan
// fingerprints, and a Tanimoto scan standing in for the structure index's similarity search.
import Database from 'better-sqlite3';
import initRDKitModule from '@rdkit/rdkit';
import { ACTIVE_THRESHOLD_NM } from '@kb/contracts/prediction';
import { MORGAN_SETTINGS, FP_BYTES } from '../../apps/server/src/modules/chemistry/fingerprint.mjs';
import { standardFields } from '../../apps/server/src/modules/knowledge-base/chembl/mapping.ts';
import { ACTIVE_RELATIONS, POTENCY_TYPES, PROTEIN_TARGET_TYPES } from '../../apps/server/src/modules/prediction/active-index.ts';
import { parentOfInchi } from '../../apps/server/src/modules/prediction/parent-key.ts';
import { targetFamily } from '../../apps/server/src/modules/prediction/target-family.ts';
import type { EnsembleTarget, Neighbour } from '../../apps/server/src/modules/prediction/similarity-ensemble.ts';

/** One activity that makes its structure an active of its target, with the document it comes from. */
export interface ActiveRecord {
  strId: number;
  /** Index into `targets`. */
  target: number;
  nm: number;
  /** ChEMBL doc_id (the activity's, else its assay's); null when the file has none (the EGFR ChEMBL 27 export). */
  docId: number | null;
}

export interface SubsetData {
  /** Every protein target of target_dictionary (as the knowledge base holds them), in tid order. */
  targets: EnsembleTarget[];
  targetByChemblId: Map<string, number>;
  records: ActiveRecord[];
  /** Canonical SMILES by str_id (1-based, ascending first molregno), for every structure with an activity. */
  smiles: string[];
  /** Fingerprints of the structures, FP_BYTES each: str_id k at (k − 1)·FP_BYTES. */
  fingerprints: Uint8Array;
  /** The parent of each structure (parent-key.ts, from RDKit's InChI as the knowledge base stores it): str_id k at k − 1; NaN: none. */
  parents: Float64Array;
  /** Publication year per document (for the temporal split); absent: unknown. */
  yearOfDoc: Map<number, number>;
  /** Per document, every structure with an activity in it (any type or value): the background's siblings. */
  structuresOfDoc: Map<number, Set<number>>;
  docsOfStructure: Map<number, Set<number>>;
  counts: {
    activities: number;
    molecules: number;
    unparsable: number;
    withoutStructure: number;
    potencyOnProtein: number;
    activeActivities: number;
    activeWithoutStructure: number;
  };
  fingerprintMs: number;
}

const PROTEIN = new Set<string>(PROTEIN_TARGET_TYPES);
const TYPES = new Set<string>(POTENCY_TYPES);
const RELATIONS = new Set<string>(ACTIVE_RELATIONS);

/**
 * Reads the subset. The active rule is the server's (active-index.ts readActiveSet): values mapped
 * as the ChEMBL import maps them (standardFields: standard fields, else the published ones, in µM),
 * a potency type, a relation of =, < or ≤ (none counts as =), a positive value at or below the
 * family threshold of a protein target. Structures as the import makes them: the molecule's own
 * SMILES, else its parent's, RDKit-canonicalised and deduplicated (no desalting).
 */
export async function readSubset(file: string, progress: (message: string) => void): Promise<SubsetData> {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const targetRows = db.prepare('SELECT tid, target_type, pref_name, organism, chembl_id FROM target_dictionary ORDER BY tid').all() as {
      tid: number;
      target_type: string | null;
      pref_name: string | null;
      organism: string | null;
      chembl_id: string | null;
    }[];
    const targets: EnsembleTarget[] = [];
    const targetByTid = new Map<number, number>();
    for (const row of targetRows) {
      if (!PROTEIN.has((row.target_type ?? '').toUpperCase())) continue;
      const name = row.pref_name ?? row.chembl_id ?? `tid ${row.tid}`;
      const family = targetFamily([], name);
      targetByTid.set(row.tid, targets.length);
      targets.push({
        targetId: row.tid,
        chemblId: row.chembl_id,
        name,
        geneSymbol: null,
        organism: row.organism,
        family,
        thresholdNm: ACTIVE_THRESHOLD_NM[family],
      });
    }
    const targetByChemblId = new Map<string, number>();
    targets.forEach((target, index) => target.chemblId && targetByChemblId.set(target.chemblId, index));

    // Molecules with an activity: own SMILES, else the parent's (molecule_hierarchy).
    const molecules = db
      .prepare(
        `SELECT k.molregno, cs.canonical_smiles AS own, pcs.canonical_smiles AS parent
         FROM (SELECT DISTINCT molregno FROM activities WHERE molregno IS NOT NULL) k
         LEFT JOIN compound_structures cs ON cs.molregno = k.molregno
         LEFT JOIN molecule_hierarchy mh ON mh.molregno = k.molregno AND mh.parent_molregno <> k.molregno
         LEFT JOIN compound_structures pcs ON pcs.molregno = mh.parent_molregno
         ORDER BY k.molregno`,
      )
      .all() as { molregno: number; own: string | null; parent: string | null }[];
    const started = performance.now();
    const rd = await initRDKitModule();
    rd.disable_logging();
    const strIdOf = new Map<number, number>();
    const byCanonical = new Map<string, number>();
    const smiles: string[] = [];
    const prints: Uint8Array[] = [];
    const parentList: number[] = [];
    let unparsable = 0;
    let withoutStructure = 0;
    for (const [index, molecule] of molecules.entries()) {
      if (index % 5000 === 0) progress(`fingerprints ${index}/${molecules.length}`);
      const text = molecule.own ?? molecule.parent;
      if (!text) {
        withoutStructure += 1;
        continue;
      }
      const mol = rd.get_mol(text);
      try {
        if (!mol || !mol.is_valid() || mol.get_num_atoms() === 0) {
          unparsable += 1;
          continue;
        }
        const canonical = mol.get_smiles();
        let strId = byCanonical.get(canonical);
        if (strId === undefined) {
          strId = smiles.length + 1;
          byCanonical.set(canonical, strId);
          smiles.push(canonical);
          prints.push(new Uint8Array(mol.get_morgan_fp_as_uint8array(MORGAN_SETTINGS)));
          parentList.push(parentOfInchi(mol.get_inchi()) ?? Number.NaN);
        }
        strIdOf.set(molecule.molregno, strId);
      } finally {
        mol?.delete();
      }
    }
    const fingerprints = new Uint8Array(prints.length * FP_BYTES);
    prints.forEach((fp, k) => fingerprints.set(fp, k * FP_BYTES));
    const fingerprintMs = performance.now() - started;
    const yearOfDoc = new Map<number, number>();
    for (const row of db.prepare('SELECT doc_id, year FROM docs WHERE year IS NOT NULL').all() as { doc_id: number; year: number }[])
      yearOfDoc.set(row.doc_id, row.year);

    const activities = db
      .prepare(
        `SELECT a.molregno, coalesce(a.doc_id, s.doc_id) AS doc_id, s.tid, a.standard_type, a.standard_relation, a.standard_value, a.standard_units,
           a.type, a.relation, a.value, a.units
         FROM activities a LEFT JOIN assays s ON s.assay_id = a.assay_id`,
      )
      .all() as (Record<string, unknown> & { molregno: number; doc_id: number | null; tid: number | null })[];
    const records: ActiveRecord[] = [];
    const structuresOfDoc = new Map<number, Set<number>>();
    const docsOfStructure = new Map<number, Set<number>>();
    for (const row of activities) {
      const strId = strIdOf.get(row.molregno);
      if (strId === undefined || row.doc_id === null) continue;
      const inDoc = structuresOfDoc.get(row.doc_id) ?? new Set<number>();
      inDoc.add(strId);
      structuresOfDoc.set(row.doc_id, inDoc);
      const docs = docsOfStructure.get(strId) ?? new Set<number>();
      docs.add(row.doc_id);
      docsOfStructure.set(strId, docs);
    }
    let potencyOnProtein = 0;
    let activeActivities = 0;
    let activeWithoutStructure = 0;
    for (const row of activities) {
      const target = row.tid === null ? undefined : targetByTid.get(row.tid);
      if (target === undefined) continue;
      const standard = standardFields(row);
      const um = standard.micromolar;
      if (um === null || !(um > 0) || !TYPES.has((standard.type ?? '').toUpperCase()) || !RELATIONS.has(standard.relation ?? '=')) continue;
      potencyOnProtein += 1;
      // As the server compares: micro_molarvalue ≤ threshold / 1000.
      if (um > targets[target]!.thresholdNm / 1000) continue;
      activeActivities += 1;
      const strId = strIdOf.get(row.molregno);
      if (strId === undefined) {
        activeWithoutStructure += 1;
        continue;
      }
      records.push({ strId, target, nm: um * 1000, docId: row.doc_id });
    }
    return {
      targets,
      targetByChemblId,
      records,
      smiles,
      fingerprints,
      parents: Float64Array.from(parentList),
      yearOfDoc,
      structuresOfDoc,
      docsOfStructure,
      counts: {
        activities: activities.length,
        molecules: molecules.length,
        unparsable,
        withoutStructure,
        potencyOnProtein,
        activeActivities,
        activeWithoutStructure,
      },
      fingerprintMs,
    };
  } finally {
    db.close();
  }
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/** Tanimoto over every fingerprint: what the structure index's similarity scan answers (every structure at or above `min`). */
export class TanimotoScan {
  private readonly words: Uint32Array;
  private readonly counts: Uint16Array;
  private readonly wordsPer = FP_BYTES / 4;
  readonly size: number;

  constructor(fingerprints: Uint8Array) {
    this.words = new Uint32Array(fingerprints.buffer, fingerprints.byteOffset, fingerprints.byteLength / 4);
    this.size = fingerprints.byteLength / FP_BYTES;
    this.counts = new Uint16Array(this.size);
    for (let row = 0; row < this.size; row++) {
      let n = 0;
      for (let w = row * this.wordsPer; w < (row + 1) * this.wordsPer; w++) n += popcount(this.words[w]!);
      this.counts[row] = n;
    }
  }

  /** Neighbours of str_id `strId` (itself included, as the index answers a stored structure) at or above `min`, most similar first unless `sorted` is false. */
  neighboursOf(strId: number, min: number, sorted = true): Neighbour[] {
    const at = (strId - 1) * this.wordsPer;
    const query = this.words.subarray(at, at + this.wordsPer);
    const queryCount = this.counts[strId - 1]!;
    const result: Neighbour[] = [];
    const words = this.words;
    const per = this.wordsPer;
    for (let row = 0; row < this.size; row++) {
      const count = this.counts[row]!;
      // Tanimoto ≤ min(a, b) / max(a, b): skip rows that cannot reach `min`.
      if (Math.min(count, queryCount) < min * Math.max(count, queryCount)) continue;
      let common = 0;
      const base = row * per;
      for (let w = 0; w < per; w++) common += popcount(query[w]! & words[base + w]!);
      const union = count + queryCount - common;
      const similarity = union === 0 ? 0 : common / union;
      if (similarity >= min) result.push({ strId: row + 1, similarity });
    }
    return sorted ? result.sort((a, b) => b.similarity - a.similarity || a.strId - b.strId) : result;
  }

  fingerprint(strId: number, fingerprints: Uint8Array): Uint8Array {
    return fingerprints.subarray((strId - 1) * FP_BYTES, strId * FP_BYTES);
  }
}
