import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../../db/database.ts';
import { DATABASES } from '../../../../test/harness.ts';
import { ChemPool } from '../chem/chem-pool.ts';
import { importChembl } from './chembl-import.ts';
import type { ImportSummary } from './chembl-import.ts';
import { ASPIRIN_INCHI, buildChemblFixture } from './fixture.test-support.ts';
import { ACTIVITY_REPORT } from './steps-molecules.ts';

import { EXPECTED_COUNTS, activityIndexes, openMigrated, step, tableCounts } from './chembl-import.test-support.ts';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'chembl-fixture-'));
const FIXTURE = path.join(tmp, 'chembl_99.db');
let pool: ChemPool;
beforeAll(() => {
  buildChemblFixture(FIXTURE);
  pool = new ChemPool(2);
});
afterAll(async () => {
  await pool.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe.each(DATABASES)('ChEMBL import of the fixture on %s', (kind) => {
  let handle: DatabaseHandle;
  let drop: () => Promise<void>;
  let summary: ImportSummary;
  beforeAll(async () => {
    ({ handle, drop } = await openMigrated(kind));
    summary = await importChembl(handle, FIXTURE, { pool, batchSize: 3 });
  });
  afterAll(async () => {
    await drop();
  });

  it('loads the expected number of rows into every table', async () => {
    expect(await tableCounts(handle)).toEqual(EXPECTED_COUNTS);
  });

  it('maps molecules: RDKit structures, one compound per molregno, parent structure for salts', async () => {
    const { db } = handle;
    const compounds = await db
      .selectFrom('compounds')
      .leftJoin('structures', 'structures.str_id', 'compounds.str_id')
      .select([
        'chembl_molregno',
        'chembl_id',
        'name',
        'compound_category',
        'compounds.str_id',
        'canonical_smiles',
        'smiles',
        'inchi',
        'inchikey',
        'mol_formula',
        'mol_weight',
        'pattern_fp',
      ])
      .orderBy('chembl_molregno')
      .execute();
    const by = new Map(compounds.map((c) => [c.chembl_molregno, c]));
    expect(compounds.map((c) => c.chembl_molregno)).toEqual([1280, 2000, 2001, 2002, 2003, 2004, 2005]);
    const aspirin = by.get(1280);
    expect(aspirin).toMatchObject({
      chembl_id: 'CHEMBL25',
      name: 'ASPIRIN',
      compound_category: 'small molecule',
      smiles: 'CC(=O)Oc1ccccc1C(=O)O',
      inchi: ASPIRIN_INCHI,
      inchikey: 'BSYNRYMUTXBXSQ-UHFFFAOYSA-N',
      mol_formula: 'C9H8O4',
    });
    expect(aspirin?.mol_weight).toBeCloseTo(180.16, 1);
    expect(aspirin?.pattern_fp?.length).toBe(256);
    // Same molecule written another way, and the salt without its own structure: aspirin's str_id.
    expect(by.get(2001)?.str_id).toBe(aspirin?.str_id);
    expect(by.get(2003)?.str_id).toBe(aspirin?.str_id);
    expect(by.get(2000)).toMatchObject({ chembl_id: null, name: null });
    expect(by.get(2000)?.inchikey).toMatch(/^[A-Z]{14}-[A-Z]{10}-[A-Z]$/);
    expect(by.get(2002)).toMatchObject({ chembl_id: 'CHEMBL9002', str_id: null });
    expect(by.get(2004)).toMatchObject({ str_id: null, compound_category: 'protein' });
    expect(by.get(2005)).toMatchObject({
      canonical_smiles: 'CCO',
      smiles: 'CCO',
      compound_category: 'natural product',
      mol_formula: 'C2H6O',
    });
    expect(await db.selectFrom('structures').select('str_id').execute()).toHaveLength(3);
  });

  it('reports unparsable and missing structures as skips, never as failures', () => {
    const molecules = step(summary, 'molecules');
    expect(molecules).toMatchObject({ status: 'loaded', read: 7, loaded: { structures: 3, compounds: 7 } });
    expect(molecules.skipped).toEqual({ 'unparsable structure (compound kept without structure)': 1 });
    expect(molecules.info).toMatchObject({
      'no structure in the release (compound kept without structure)': 1,
      'structure of the parent molecule (molecule_hierarchy)': 1,
      'molecule shares its structure with another molecule or an earlier run': 2,
    });
    const activities = step(summary, 'activities');
    expect(activities).toMatchObject({ read: 11, loaded: { activities: 10 } });
    expect(activities.skipped).toEqual({ 'molecule not in the file': 1 });
    expect(activities.info).toMatchObject({
      [ACTIVITY_REPORT.withoutStructure]: 3,
      [ACTIVITY_REPORT.notStandardised]: 2,
      [ACTIVITY_REPORT.converted]: 6,
    });
    expect(summary.complete).toBe(true);
    expect(summary.tablesNotRead).toHaveProperty('compound_properties');
    expect(summary.tablesNotRead).not.toHaveProperty('ligand_eff');
    expect(summary.missingTables).toEqual([]);
  });

  it('maps activities field by field (standard and published values, µM, links)', async () => {
    const { db } = handle;
    const rows = await db.selectFrom('activities').selectAll().orderBy('chembl_activity_id').execute();
    const by = new Map(rows.map((r) => [r.chembl_activity_id, r]));
    const assay = await db
      .selectFrom('assays')
      .select(['assay_id', 'ref_id', 'target_id'])
      .where('chembl_assay_id', '=', 1000)
      .executeTakeFirstOrThrow();
    const gefitinib = await db
      .selectFrom('compounds')
      .select(['gvk_id', 'str_id'])
      .where('chembl_molregno', '=', 2000)
      .executeTakeFirstOrThrow();
    expect(by.get(31863)).toMatchObject({
      str_id: gefitinib.str_id,
      gvk_id: gefitinib.gvk_id,
      assay_id: assay.assay_id,
      ref_id: assay.ref_id,
      target_id: assay.target_id,
      std_activity_type: 'IC50',
      std_act_prefix: '=',
      activity_value: 41,
      standard_uom: 'nM',
      pchembl_value: 7.39,
      activity_type: 'IC50',
      activity_prefix: '=',
      activity: 0.041,
      activity_uom: 'uM',
      activity_mechanism: 'INHIBITOR',
    });
    expect(by.get(31863)?.micro_molarvalue).toBeCloseTo(0.041, 9);
    expect(by.get(31864)).toMatchObject({ std_act_prefix: '>', micro_molarvalue: 10 });
    expect(by.get(31867)).toMatchObject({ std_activity_type: 'Inhibition', micro_molarvalue: null, activity_remarks: 'Active' });
    expect(by.get(31869)).toMatchObject({
      data_validity_comment: 'Outside typical range',
      ref_id: null,
      standard_uom: 'ug.mL-1',
      micro_molarvalue: null,
    });
    expect(by.get(31870)).toMatchObject({ assay_id: null, micro_molarvalue: 500, standardised: true });
    expect(rows.filter((r) => r.chembl_activity_id !== 31871 && r.chembl_activity_id !== 31872).every((r) => r.standardised)).toBe(true);
    const pubchem = await db.selectFrom('data_sources').select('data_source_id').where('chembl_src_id', '=', 7).executeTakeFirstOrThrow();
    expect(by.get(31869)?.data_source_id).toBe(pubchem.data_source_id);
  });

  it('uses the published type, relation, value and units where the standard ones are empty, and marks the row', async () => {
    const { db } = handle;
    const rows = await db
      .selectFrom('activities')
      .selectAll()
      .where('chembl_activity_id', 'in', [31871, 31872])
      .orderBy('chembl_activity_id')
      .execute();
    const [published, noRelation] = rows;
    // Nothing standardised: type, relation and the value/unit pair are the published ones; µM from nM.
    expect(published).toMatchObject({
      std_activity_type: 'IC50',
      std_act_prefix: '<',
      activity_value: 30,
      standard_uom: 'nM',
      standardised: false,
      activity_type: 'IC50',
      activity_prefix: '<',
      activity: 30,
      activity_uom: 'nM',
      pchembl_value: null,
    });
    expect(published?.micro_molarvalue).toBeCloseTo(0.03, 9);
    // Standard type and value kept, the empty standard relation filled from the published one.
    expect(noRelation).toMatchObject({
      std_activity_type: 'Ki',
      std_act_prefix: '>',
      activity_value: 2,
      standard_uom: 'uM',
      micro_molarvalue: 2,
      standardised: false,
    });
  });

  it('keeps activities of compounds without a structure, linked to their assay, document and target', async () => {
    const { db } = handle;
    const rows = await db
      .selectFrom('activities')
      .innerJoin('compounds', 'compounds.gvk_id', 'activities.gvk_id')
      .select([
        'chembl_activity_id',
        'activities.str_id',
        'chembl_molregno',
        'assay_id',
        'activities.ref_id',
        'target_id',
        'std_activity_type',
        'pchembl_value',
      ])
      .where('activities.str_id', 'is', null)
      .orderBy('chembl_activity_id')
      .execute();
    expect(rows.map((r) => [r.chembl_activity_id, r.chembl_molregno])).toEqual([
      [31865, 2002],
      [31866, 2004],
      [31873, 2004],
    ]);
    const cellAssay = await db
      .selectFrom('assays')
      .select(['assay_id', 'ref_id', 'target_id'])
      .where('chembl_assay_id', '=', 1001)
      .executeTakeFirstOrThrow();
    expect(rows[2]).toMatchObject({
      assay_id: cellAssay.assay_id,
      ref_id: cellAssay.ref_id,
      target_id: cellAssay.target_id,
      std_activity_type: 'EC50',
      pchembl_value: 8.52,
    });
    expect(cellAssay.target_id).not.toBeNull();
  });

  it('maps ligand efficiency (ligand_eff) and the compound name in the reference (compound_records)', async () => {
    const { db } = handle;
    const rows = await db
      .selectFrom('activities')
      .select(['chembl_activity_id', 'bei', 'sei', 'le', 'lle', 'compound_name_reference'])
      .where('chembl_activity_id', 'in', [31863, 31864, 31871, 31873])
      .orderBy('chembl_activity_id')
      .execute();
    expect(rows).toEqual([
      { chembl_activity_id: 31863, bei: 16.71, sei: 10.09, le: 0.31, lle: 3.02, compound_name_reference: 'gefitinib (compound 4)' },
      { chembl_activity_id: 31864, bei: null, sei: null, le: null, lle: null, compound_name_reference: null },
      { chembl_activity_id: 31871, bei: null, sei: null, le: null, lle: null, compound_name_reference: null },
      { chembl_activity_id: 31873, bei: null, sei: null, le: null, lle: null, compound_name_reference: 'Peptide P1' },
    ]);
  });

  it('maps documents, authors, targets, classes and assays', async () => {
    const { db } = handle;
    const article = await db.selectFrom('documents').selectAll().where('chembl_doc_id', '=', 100).executeTakeFirstOrThrow();
    expect(article).toMatchObject({
      ref_type: 'journal',
      chembl_id: 'CHEMBL1148382',
      journal_patent_name: 'J Med Chem',
      year: 2004,
      volume: '47',
      issue: '3',
      start_page: '663',
      end_page: '672',
      pubmed_id: 14736245,
      doi: '10.1021/jm030460n',
      reference: 'J Med Chem (2004) 47(3):663-672',
    });
    const authors = await db
      .selectFrom('document_authors')
      .select(['position', 'name'])
      .where('ref_id', '=', article.ref_id)
      .orderBy('position')
      .execute();
    expect(authors.map((a) => a.name)).toEqual(['Smith J', 'Doe AB', 'Uckun FM']);
    expect(await db.selectFrom('documents').selectAll().where('chembl_doc_id', '=', 101).executeTakeFirstOrThrow()).toMatchObject({
      ref_type: 'patent',
      patent_no: 'US-8513270-B2',
      country_code: 'US',
    });
    const egfr = await db.selectFrom('targets').selectAll().where('chembl_tid', '=', 9).executeTakeFirstOrThrow();
    expect(egfr).toMatchObject({
      chembl_id: 'CHEMBL203',
      name: 'Epidermal growth factor receptor erbB1',
      target_type: 'SINGLE PROTEIN',
      gene_symbol: 'EGFR',
      uniprot_id: 'P00533',
      organism: 'Homo sapiens',
      tax_id: 9606,
    });
    const cls = await db
      .selectFrom('target_classes')
      .selectAll()
      .where('class_id', '=', egfr.class_id as number)
      .executeTakeFirstOrThrow();
    expect(cls).toMatchObject({ name: 'Protein Kinase', chembl_class_id: 3, level: 3 });
    const synonyms = await db
      .selectFrom('target_synonyms')
      .select(['synonym', 'syn_type'])
      .where('target_id', '=', egfr.target_id)
      .orderBy('synonym')
      .execute();
    expect(synonyms).toEqual([
      { synonym: '2.7.10.1', syn_type: 'ec number' },
      { synonym: 'EGFR', syn_type: 'gene symbol' },
      { synonym: 'ERBB1', syn_type: 'gene symbol other' },
      { synonym: 'P00533', syn_type: 'UniProt accession' },
    ]);
    expect(
      await db.selectFrom('targets').select(['uniprot_id', 'gene_symbol']).where('chembl_tid', '=', 100).executeTakeFirstOrThrow(),
    ).toEqual({ uniprot_id: 'P24941', gene_symbol: 'CDK2' });
    const assays = await db.selectFrom('assays').selectAll().orderBy('chembl_assay_id').execute();
    expect(assays.map((a) => [a.assay_type, a.enzyme_cell_assay, a.bao_format])).toEqual([
      ['binding', 'enzyme', 'single protein format'],
      ['functional', 'cell', 'cell-based format'],
      ['physicochemical', null, 'BAO_0000100'],
    ]);
    expect(assays[0]).toMatchObject({
      chembl_id: 'CHEMBL674637',
      description: 'Inhibition of EGFR',
      organism: 'Homo sapiens',
      confidence_score: 9,
      target_id: egfr.target_id,
      ref_id: article.ref_id,
    });
    expect(assays[1]).toMatchObject({ cells_cellline_organ: 'A431' });
    expect(assays[2]).toMatchObject({ ref_id: null, target_id: null });
  });

  it('maps development compounds, indications, mechanisms, companies, synonyms and vocabularies', async () => {
    const { db } = handle;
    const clinical = await db
      .selectFrom('clinical_compounds')
      .innerJoin('clinical_phases', 'phase_id', 'highest_phase_id')
      .leftJoin('clinical_statuses', 'clinical_statuses.status_id', 'clinical_compounds.status_id')
      .select([
        'chembl_molregno',
        'drug_name',
        'approval_year',
        'clinical_phases.name as phase',
        'clinical_statuses.name as status',
        'reason_with_drawn',
        'str_id',
      ])
      .orderBy('chembl_molregno')
      .execute();
    expect(clinical).toMatchObject([
      { chembl_molregno: 1280, drug_name: 'ASPIRIN', approval_year: 1950, phase: 'Launched', status: null },
      {
        chembl_molregno: 2004,
        drug_name: 'SOME PROTEIN',
        phase: 'Phase II',
        status: 'Withdrawn',
        reason_with_drawn: 'Hepatotoxicity',
        str_id: null,
      },
    ]);
    const indications = await db
      .selectFrom('clinical_compound_indications')
      .innerJoin('indications', 'indications.indication_id', 'clinical_compound_indications.indication_id')
      .select(['name', 'mesh_id', 'efo_id', 'chembl_drugind_id'])
      .orderBy('chembl_drugind_id')
      .execute();
    expect(indications).toEqual([
      { name: 'Pain', mesh_id: 'D010146', efo_id: 'EFO:0003843', chembl_drugind_id: 1 },
      { name: 'Stroke', mesh_id: 'D020521', efo_id: 'EFO:0000712', chembl_drugind_id: 2 },
      { name: 'Neoplasms', mesh_id: 'D009369', efo_id: 'EFO:0000616', chembl_drugind_id: 4 },
    ]);
    expect(step(summary, 'drug_indication').skipped).toEqual({
      'already imported (or same drug and MeSH heading under another EFO term)': 1,
    });
    const mechanisms = await db
      .selectFrom('clinical_compound_targets')
      .innerJoin('targets', 'targets.target_id', 'clinical_compound_targets.target_id')
      .select(['chembl_tid', 'action_type', 'mechanism'])
      .orderBy('chembl_tid')
      .execute();
    expect(mechanisms).toEqual([
      { chembl_tid: 9, action_type: 'INHIBITOR', mechanism: 'Cyclooxygenase inhibitor' },
      { chembl_tid: 100, action_type: 'OPENER', mechanism: 'CDK2 opener' },
    ]);
    expect(step(summary, 'drug_mechanism').skipped).toEqual({ 'mechanism without target': 1 });
    expect(await db.selectFrom('action_types').selectAll().where('name', '=', 'OPENER').executeTakeFirstOrThrow()).toEqual({
      name: 'OPENER',
      description: 'Opens an ion channel',
      parent_type: 'POSITIVE MODULATOR',
    });
    expect(await db.selectFrom('activity_types').selectAll().where('name', '=', 'FOO50').executeTakeFirstOrThrow()).toMatchObject({
      description: 'A test-only activity type',
      standard_unit: 'ug.mL-1',
    });
    const company = await db
      .selectFrom('clinical_compound_companies')
      .innerJoin('companies', 'companies.company_id', 'clinical_compound_companies.company_id')
      .select('name')
      .execute();
    expect(company).toEqual([{ name: 'BAYER HEALTHCARE' }]);
    const synonyms = await db
      .selectFrom('compound_synonyms')
      .select(['synonym', 'syn_type', 'chembl_molsyn_id'])
      .orderBy('chembl_molsyn_id')
      .execute();
    expect(synonyms).toEqual([
      { synonym: 'Disprin', syn_type: 'TRADE_NAME', chembl_molsyn_id: 1 },
      { synonym: 'aspirin', syn_type: 'INN', chembl_molsyn_id: 2 },
    ]);
    expect(step(summary, 'molecule_synonyms').skipped).toEqual({ 'molecule not in the file': 1 });
    const label = await db.selectFrom('app_settings').select('value').where('key', '=', 'dataset_label').executeTakeFirstOrThrow();
    expect(label.value).toBe('chembl:chembl_99.db');
  });

  it('adds nothing on a repeated import, whether the file completed before or checkpoints are ignored', async () => {
    const before = await tableCounts(handle);
    // A completed file is read whole again (an update compares every key) and changes nothing.
    const again = await importChembl(handle, FIXTURE, { pool });
    expect(again.totals.loaded).toBe(0);
    expect(again.load.kind).toBe('update');
    expect(again.load.report?.changes.every((c) => c.added === 0 && c.updated === 0 && c.retired === 0)).toBe(true);
    const restarted = await importChembl(handle, FIXTURE, { pool, restart: true, batchSize: 2 });
    expect(restarted.totals.loaded).toBe(0);
    expect(restarted.totals.read).toBe(summary.totals.read);
    expect(await tableCounts(handle)).toEqual(before);
  });
});

// Own describe: on the PostgreSQL server two live test schemas confuse Kysely's migration lock look-up.
describe.each(DATABASES)('ChEMBL import interrupted and resumed on %s', (kind) => {
  it('resumes an interrupted import without loss or duplication', async () => {
    const fresh = await openMigrated(kind);
    try {
      const indexesBefore = await activityIndexes(fresh.handle);
      let runs = 0;
      let last: ImportSummary;
      let stoppedWithoutIndexes = 0;
      do {
        last = await importChembl(fresh.handle, FIXTURE, { pool, batchSize: 2, maxBatches: 4 });
        runs++;
        // Cut short inside the activities: its secondary indexes wait for the rows (first load).
        if (
          last.stopped &&
          last.steps.find((s) => s.step === 'activities')?.status === 'stopped' &&
          (await activityIndexes(fresh.handle)).length < indexesBefore.length
        )
          stoppedWithoutIndexes++;
      } while (!last.complete && runs < 50);
      expect(runs).toBeGreaterThan(3);
      expect(last.complete).toBe(true);
      expect(stoppedWithoutIndexes).toBeGreaterThan(0);
      expect(await activityIndexes(fresh.handle)).toEqual(indexesBefore);
      expect(await tableCounts(fresh.handle)).toEqual(EXPECTED_COUNTS);
      const parts = await fresh.handle.db.selectFrom('kb_load_checkpoints').select(['part', 'done']).where('job', '=', last.job).execute();
      expect(parts.every((p) => p.done)).toBe(true);
      expect(parts.map((p) => p.part)).toContain('complete');
      // Batches prepared ahead but not loaded when a run stopped are counted once, by the run that loads them.
      const skipped = last.load.report?.quality?.skipped ?? [];
      expect(skipped.filter((s) => s.step === 'activities')).toEqual([{ step: 'activities', reason: 'molecule not in the file', rows: 1 }]);
      expect(skipped.filter((s) => s.step === 'molecules')).toEqual([
        { step: 'molecules', reason: 'unparsable structure (compound kept without structure)', rows: 1 },
      ]);
    } finally {
      await fresh.drop();
    }
  });
});
