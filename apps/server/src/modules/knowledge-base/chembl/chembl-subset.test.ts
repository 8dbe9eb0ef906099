import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../db/database.ts';
import type { DatabaseHandle } from '../../../db/database.ts';
import { migrateToLatest } from '../../../db/migrate.ts';
import { importChembl } from './chembl-import.ts';
import { ChemReference, SUBSTRUCTURE_QUERIES } from '../../../../test/chem-reference.ts';
import { RdkitChemEngine } from '../../chemistry/rdkit-engine.ts';
import type { ImportSummary, StepReport } from './chembl-import.ts';

/**
 * Acceptance on the real ChEMBL subset (../shared/data/chembl-subset, see its README): a full
 * import, once, on PGlite only (about 3 minutes on 2 cores: RDKit profiles 74k structures). Every
 * expected figure is counted here with plain SQLite queries, independently of the importer.
 * CHEMBL_SUBSET=/path/to/file.db points elsewhere; CHEMBL_SUBSET=off skips it.
 */
const SUBSET = process.env.CHEMBL_SUBSET ?? path.resolve(import.meta.dirname, '../../../../../../../shared/data/chembl-subset/chembl_subset.db');
const available = process.env.CHEMBL_SUBSET !== 'off' && fs.existsSync(SUBSET);
if (!available) {
  console.warn(`Skipping the ChEMBL subset acceptance: ${process.env.CHEMBL_SUBSET === 'off' ? 'CHEMBL_SUBSET=off' : `${SUBSET} is absent`}.`);
}

function step(summary: ImportSummary, name: string): StepReport {
  const found = summary.steps.find((s) => s.step === name);
  if (!found) throw new Error(`no step ${name}`);
  return found;
}

describe.skipIf(!available)('ChEMBL import acceptance on the real subset (PGlite)', () => {
  let handle: DatabaseHandle;
  let sqlite: Database.Database;
  let summary: ImportSummary;
  const count = (sql: string): number => Number(sqlite.prepare(sql).pluck().get());
  const pgCount = async (query: string): Promise<number> => {
    const { rows } = await sql.raw<{ n: number }>(query).execute(handle.db);
    return Number(rows[0]?.n ?? 0);
  };

  beforeAll(async () => {
    sqlite = new Database(SUBSET, { readonly: true, fileMustExist: true });
    handle = await openDatabase({});
    await migrateToLatest(handle);
    const started = performance.now();
    summary = await importChembl(handle, SUBSET);
    console.log(`ChEMBL subset import: ${((performance.now() - started) / 1000).toFixed(1)} s, ${JSON.stringify(summary.counts)}`);
  }, 900_000);
  afterAll(async () => {
    sqlite?.close();
    await handle?.close();
  });

  /** Molecules with a structure of their own or, for salts, their parent's (molecule_hierarchy). */
  const WITH_STRUCTURE = `
    SELECT k.molregno FROM (SELECT molregno FROM compound_structures UNION SELECT molregno FROM molecule_dictionary) k
    WHERE EXISTS (SELECT 1 FROM compound_structures cs WHERE cs.molregno = k.molregno AND coalesce(cs.canonical_smiles, cs.molfile) IS NOT NULL)
       OR EXISTS (SELECT 1 FROM molecule_hierarchy mh JOIN compound_structures p ON p.molregno = mh.parent_molregno
                  WHERE mh.molregno = k.molregno AND mh.parent_molregno <> k.molregno AND coalesce(p.canonical_smiles, p.molfile) IS NOT NULL)`;

  it('completes and labels the data set', async () => {
    expect(summary.complete).toBe(true);
    expect(summary.datasetLabel).toBe('chembl:chembl_subset.db');
    const label = await handle.db.selectFrom('app_settings').select('value').where('key', '=', 'dataset_label').executeTakeFirstOrThrow();
    expect(label.value).toBe('chembl:chembl_subset.db');
  });

  it('loads every molecule, and every structure RDKit can parse', async () => {
    const molecules = step(summary, 'molecules');
    const union = count('SELECT count(*) FROM (SELECT molregno FROM compound_structures UNION SELECT molregno FROM molecule_dictionary)');
    expect(molecules.read).toBe(union);
    expect(molecules.loaded.compounds).toBe(union);
    const withStructure = count(`SELECT count(*) FROM (${WITH_STRUCTURE})`);
    const unparsable = molecules.skipped['unparsable structure (compound kept without structure)'] ?? 0;
    expect(await pgCount('SELECT count(*) AS n FROM compounds WHERE str_id IS NOT NULL')).toBe(withStructure - unparsable);
    expect(unparsable).toBe(0); // every SMILES of the subset is valid ChEMBL output
    expect(molecules.info['no structure in the release (compound kept without structure)']).toBe(union - withStructure);
    // Structures are distinct RDKit canonical forms: at most the distinct ChEMBL SMILES.
    expect(molecules.loaded.structures).toBe(await pgCount('SELECT count(DISTINCT str_id) AS n FROM compounds'));
    expect(molecules.loaded.structures).toBeLessThanOrEqual(count('SELECT count(DISTINCT canonical_smiles) FROM compound_structures'));
    expect(await pgCount('SELECT count(*) AS n FROM structures WHERE inchikey IS NULL OR morgan_fp IS NULL OR mol_weight IS NULL')).toBe(0);
  });

  it('loads every activity whose molecule has a structure, and says why the others are skipped', () => {
    const activities = step(summary, 'activities');
    expect(activities.read).toBe(count('SELECT count(*) FROM activities'));
    const expected = count(`SELECT count(*) FROM activities WHERE molregno IN (${WITH_STRUCTURE})`);
    expect(activities.loaded.activities).toBe(expected);
    expect(activities.skipped).toEqual({ 'activity without structure': count('SELECT count(*) FROM activities') - expected });
    expect(summary.counts.activities).toBe(expected);
  });

  it('loads every target, assay, document, synonym and development compound', async () => {
    expect(step(summary, 'target_dictionary').loaded.targets).toBe(count('SELECT count(*) FROM target_dictionary'));
    expect(await pgCount('SELECT count(*) AS n FROM targets WHERE uniprot_id IS NOT NULL'))
      .toBe(count('SELECT count(DISTINCT tc.tid) FROM target_components tc JOIN component_sequences cs ON cs.component_id = tc.component_id WHERE cs.accession IS NOT NULL'));
    expect(step(summary, 'assays').loaded.assays).toBe(count('SELECT count(*) FROM assays'));
    expect(await pgCount('SELECT count(*) AS n FROM assays WHERE ref_id IS NOT NULL'))
      .toBe(count('SELECT count(*) FROM assays WHERE doc_id IN (SELECT doc_id FROM docs)'));
    expect(step(summary, 'docs').loaded.documents).toBe(count('SELECT count(*) FROM docs'));
    expect(step(summary, 'molecule_synonyms').loaded.compound_synonyms).toBe(count('SELECT count(*) FROM molecule_synonyms'));
    expect(step(summary, 'development compounds').loaded.clinical_compounds)
      .toBe(count('SELECT count(*) FROM molecule_dictionary WHERE max_phase > 0 OR molregno IN (SELECT molregno FROM drug_indication)'));
    expect(step(summary, 'drug_indication').loaded.clinical_compound_indications)
      .toBe(count('SELECT count(*) FROM (SELECT DISTINCT molregno, coalesce(mesh_heading, efo_term) FROM drug_indication)'));
    expect(summary.missingTables).toEqual(expect.arrayContaining(['compound_records', 'drug_mechanism', 'protein_classification']));
  });

  it('maps the facts of the subset README', async () => {
    const { db } = handle;
    expect(await db.selectFrom('targets').select(['name', 'uniprot_id', 'target_type']).where('chembl_id', '=', 'CHEMBL203').executeTakeFirstOrThrow())
      .toEqual({ name: 'Epidermal growth factor receptor', uniprot_id: 'P00533', target_type: 'SINGLE PROTEIN' });
    const activity = await db.selectFrom('activities').innerJoin('compounds', 'compounds.gvk_id', 'activities.gvk_id')
      .innerJoin('assays', 'assays.assay_id', 'activities.assay_id').innerJoin('documents', 'documents.ref_id', 'activities.ref_id')
      .select(['compounds.chembl_id as molecule', 'std_activity_type', 'activity_value', 'standard_uom', 'micro_molarvalue', 'pchembl_value', 'assays.chembl_id as assay', 'documents.chembl_id as doc', 'year'])
      .where('chembl_activity_id', '=', 33969).executeTakeFirstOrThrow();
    expect(activity).toEqual({
      molecule: 'CHEMBL133897', std_activity_type: 'IC50', activity_value: 750, standard_uom: 'nM', micro_molarvalue: 0.75,
      pchembl_value: 6.12, assay: 'CHEMBL643384', doc: 'CHEMBL1148382', year: 2004,
    });
    const aspirin = await db.selectFrom('clinical_compounds').innerJoin('clinical_phases', 'phase_id', 'highest_phase_id')
      .select(['drug_name', 'approval_year', 'name']).where('chembl_molregno', '=', 1280).executeTakeFirstOrThrow();
    expect(aspirin).toEqual({ drug_name: 'ASPIRIN', approval_year: 1950, name: 'Launched' });
  });

  it('structure search equals RDKit molecule by molecule on the real structures (parity)', async () => {
    const reference = await ChemReference.load(handle.db);
    const engine = new RdkitChemEngine(handle.db, { workers: 2 });
    try {
      engine.start();
      await engine.ready();
      expect(engine.status().loaded).toBe(reference.structures.length);
      let nonEmpty = 0;
      for (const query of SUBSTRUCTURE_QUERIES) {
        const expected = reference.substructure(query.kind, query.text);
        const hits = await engine.substructure({ kind: query.kind, text: query.text, desalt: true });
        expect(Array.from(hits.ids).sort((a, b) => a - b), `${query.kind} ${query.text}`).toEqual(expected);
        if (expected.length) nonEmpty += 1;
      }
      expect(nonEmpty).toBeGreaterThanOrEqual(30);
      const step = Math.floor(reference.structures.length / 4);
      for (const probe of [0, step, 2 * step, 3 * step].map((i) => reference.structures[i]!.smiles)) {
        for (const min of [0.5, 0.7, 0.9]) {
          const expected = reference.similarity(probe, min, 1);
          const hits = await engine.similarity({ kind: 'smiles', text: probe, desalt: false }, { min, max: 1 });
          expect(Array.from(hits.ids).sort((a, b) => a - b)).toEqual([...expected.keys()].sort((a, b) => a - b));
        }
      }
    } finally {
      reference.close();
      await engine.close();
    }
  }, 600_000);
});
