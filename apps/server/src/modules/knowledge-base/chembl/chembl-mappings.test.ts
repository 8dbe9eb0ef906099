import crypto from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoEmailForRole } from '@kb/contracts/roles';
import { InnerGridsSchema } from '@kb/contracts/results';
import type { LoginResult } from '@kb/contracts/auth';
import type { SearchCriteriaInput } from '@kb/contracts/search';
import { DATABASES, authHeaders, startTestApp } from '../../../../test/harness.ts';
import type { TestApp } from '../../../../test/harness.ts';
import { refreshDerivedData } from '../derived-data.ts';
import { importChembl } from './chembl-import.ts';
import type { ImportSummary, StepReport } from './chembl-import.ts';
import { mappingFixtureRows } from './fixture.test-support.ts';
import { useChemblFixture } from './fixture-hooks.test-support.ts';

/**
 * The ChEMBL tables mapped in issue 17 (docs/data-model.md "Mapping from ChEMBL"): each mapping is
 * loaded from a fixture file with the official column names, and found where a user meets it —
 * the target search by PDB / Entrez id, the mechanism search, the assay tab and the compound leaflet.
 */

const fixture = useChemblFixture('chembl-mappings-', { rows: mappingFixtureRows() });
const FIXTURE = fixture.file;
const NEW_TABLES = ['assay_parameters', 'atc_classes', 'compound_atc', 'cell_lines', 'tissues'] as const;

type Json = Record<string, unknown>;

function step(summary: ImportSummary, name: string): StepReport {
  const found = summary.steps.find((s) => s.step === name);
  if (!found) throw new Error(`no step ${name}`);
  return found;
}

describe.each(DATABASES)('ChEMBL mechanisms, xrefs, dictionaries, assay parameters and ATC on %s', (kind) => {
  let t: TestApp;
  let me: LoginResult;
  let summary: ImportSummary;
  const post = (url: string, payload: unknown) => t.call({ method: 'POST', url, headers: authHeaders(me), payload: payload as object });
  const get = (url: string) => t.call({ method: 'GET', url, headers: authHeaders(me) });
  const count = async (criteria: SearchCriteriaInput): Promise<Record<string, number>> => {
    const answer = await post('/api/guidedsearch/count', { searchcriteria: criteria });
    expect(answer.statusCode, answer.body).toBe(200);
    return (answer.data.rows as Record<string, number>[])[0]!;
  };
  const one = async <T>(query: ReturnType<typeof sql<T>>): Promise<T[]> => (await query.execute(t.database.db)).rows;
  const targetId = async (chemblTid: number) =>
    (await t.database.db.selectFrom('targets').select('target_id').where('chembl_tid', '=', chemblTid).executeTakeFirstOrThrow()).target_id;

  beforeAll(async () => {
    t = await startTestApp(kind);
    // Batches of two rows: the mappings must hold across batch boundaries (a target's PDB ids arrive in several).
    summary = await importChembl(t.database, FIXTURE, { pool: fixture.pool(), batchSize: 2 });
    me = await t.login(demoEmailForRole('FULL_USER'));
  }, 120_000);
  afterAll(() => t.close());

  it('reads the new tables and reports each step', () => {
    expect(summary.complete).toBe(true);
    for (const table of [
      'component_xref',
      'cell_dictionary',
      'tissue_dictionary',
      'assay_parameters',
      'atc_classification',
      'molecule_atc_classification',
    ]) {
      expect(summary.tablesNotRead).not.toHaveProperty(table);
      expect(summary.missingTables).not.toContain(table);
    }
    expect(step(summary, 'component_xref')).toMatchObject({
      status: 'loaded',
      read: 6,
      skipped: { 'component of no target in the file': 1 },
    });
    expect(step(summary, 'cell_dictionary')).toMatchObject({ read: 2, loaded: { cell_lines: 2 } });
    expect(step(summary, 'tissue_dictionary')).toMatchObject({ read: 1, loaded: { tissues: 1 } });
    expect(step(summary, 'assay cells and tissues')).toMatchObject({
      read: 3,
      loaded: { 'assays (cell line / tissue linked)': 2 },
      skipped: { 'cell_id not in cell_dictionary': 1 },
    });
    expect(step(summary, 'assay_parameters')).toMatchObject({
      read: 3,
      loaded: { assay_parameters: 2 },
      skipped: { 'assay not in the file': 1 },
    });
    expect(step(summary, 'atc_classification')).toMatchObject({ read: 3, loaded: { atc_classes: 11 } });
    expect(step(summary, 'molecule_atc_classification')).toMatchObject({
      read: 4,
      loaded: { compound_atc: 2 },
      skipped: { 'molecule not in the file': 1, 'ATC code not in atc_classification': 1 },
    });
  });

  it('fills PDB ids (upper case, once each) and the Entrez gene id of targets from component_xref', async () => {
    const targets = await t.database.db
      .selectFrom('targets')
      .select(['chembl_tid', 'pdb_ids', 'entrez_gene_id'])
      .orderBy('chembl_tid')
      .execute();
    expect(
      targets.map((r) => ({
        ...r,
        chembl_tid: Number(r.chembl_tid),
        entrez_gene_id: r.entrez_gene_id === null ? null : Number(r.entrez_gene_id),
      })),
    ).toEqual([
      { chembl_tid: 9, pdb_ids: ['1M17', '4HJO'], entrez_gene_id: 1956 },
      // Both components of the CDK2/cyclin A complex name 1HCK: one id on the complex target.
      { chembl_tid: 100, pdb_ids: ['1HCK'], entrez_gene_id: null },
      { chembl_tid: 50425, pdb_ids: [], entrez_gene_id: null },
    ]);
  });

  it('finds the target by its PDB id and by its Entrez gene id in the target search', async () => {
    const egfr = await targetId(9);
    const [expected] = await one(
      sql<{
        acts: number;
        strs: number;
      }>`SELECT count(*)::int AS acts, count(DISTINCT str_id)::int AS strs FROM activities WHERE target_id = ${egfr}`,
    );
    expect(expected!.acts).toBeGreaterThan(0);
    for (const term of [
      { label: '1m17', targetCategories: ['pdb'] },
      { label: '1956', targetCategories: ['entrez'] },
    ] as const) {
      const counts = await count({
        rows: [{ selectedOption: 'target', targets: [{ label: term.label, targetCategories: [...term.targetCategories] }] }],
      });
      expect(counts.actidscount, term.label).toBe(expected!.acts);
    }
    const complex = await count({ rows: [{ selectedOption: 'target', targets: [{ label: '1HCK', targetCategories: ['pdb'] }] }] });
    // The complex has no activity; its drug (SOME PROTEIN) has no structure: found, counted as a development compound.
    expect(complex.actidscount).toBe(0);
    expect(
      (await count({ rows: [{ selectedOption: 'target', targets: [{ label: '9XYZ', targetCategories: ['pdb'] }] }] })).actidscount,
    ).toBe(0);
  });

  it('offers the target in the PDB id and Entrez gene id look-ups once derived data is rebuilt, as the import command does', async () => {
    await refreshDerivedData(t.database.db);
    const egfr = await targetId(9);
    const pdb = await post('/api/guidedsearch/target/by/pdbid', { term: '1M1' });
    expect(pdb.statusCode, pdb.body).toBe(200);
    expect(pdb.data.items).toEqual([expect.objectContaining({ id: egfr, matchedOn: 'pdb' })]);
    const entrez = await post('/api/guidedsearch/target/by/entrezgeneid', { term: '1956' });
    expect(entrez.data.items).toEqual([expect.objectContaining({ id: egfr, matchedOn: 'entrez' })]);
  });

  it('keeps the mechanism details and the mode of action of every mechanism, also those without a target', async () => {
    const rows =
      await one(sql<Json>`SELECT cc.drug_name, cc.mode_of_action, t.chembl_tid::int AS tid, cct.action_type, cct.mechanism, cct.chembl_mec_id::int AS mec_id,
        cct.direct_interaction, cct.molecular_mechanism, cct.disease_efficacy, cct.selectivity_comment, cct.mechanism_comment
      FROM clinical_compounds cc LEFT JOIN clinical_compound_targets cct USING (clinical_compound_id) LEFT JOIN targets t ON t.target_id = cct.target_id
      ORDER BY cc.drug_name`);
    expect(rows).toEqual([
      {
        drug_name: 'ASPIRIN',
        mode_of_action: 'Cyclooxygenase inhibitor',
        tid: 9,
        action_type: 'INHIBITOR',
        mechanism: 'Cyclooxygenase inhibitor',
        mec_id: 1,
        direct_interaction: true,
        molecular_mechanism: true,
        disease_efficacy: false,
        selectivity_comment: 'Non-selective',
        mechanism_comment: 'Irreversible',
      },
      {
        drug_name: 'SOME PROTEIN',
        mode_of_action: 'CDK2 opener; Unknown',
        tid: 100,
        action_type: 'OPENER',
        mechanism: 'CDK2 opener',
        mec_id: 3,
        direct_interaction: null,
        molecular_mechanism: null,
        disease_efficacy: null,
        selectivity_comment: null,
        mechanism_comment: null,
      },
    ]);
    const inhibitor = await t.database.db
      .selectFrom('action_types')
      .select(['description', 'parent_type'])
      .where('name', '=', 'INHIBITOR')
      .executeTakeFirstOrThrow();
    expect(inhibitor).toEqual({
      description: 'Negatively effects the normal functioning of the protein',
      parent_type: 'NEGATIVE MODULATOR',
    });
  });

  it('finds development compounds by the action type of their mechanism in the mechanism search', async () => {
    const [expected] = await one(sql<{
      strs: number;
      acts: number;
    }>`SELECT count(*)::int AS strs, (SELECT count(*)::int FROM activities WHERE activity_mechanism = 'INHIBITOR') AS acts
      FROM (SELECT str_id FROM activities WHERE activity_mechanism = 'INHIBITOR'
        UNION SELECT cc.str_id FROM clinical_compounds cc JOIN clinical_compound_targets cct USING (clinical_compound_id)
        WHERE cct.action_type = 'INHIBITOR' AND cc.str_id IS NOT NULL) s`);
    const counts = await count({ rows: [{ selectedOption: 'activitymechanism', mechanisms: ['inhibitor'] }] });
    // Gefitinib by its activity, aspirin by its drug mechanism (it has no activity reported as an inhibitor).
    expect(expected).toEqual({ strs: 2, acts: 1 });
    expect(counts).toMatchObject({ stridscount: expected!.strs, actidscount: expected!.acts, clinicalcompoundidscount: 1 });
  });

  it("links assays to the cell and tissue dictionaries, keeping the depositor's cell text", async () => {
    const assays =
      await one(sql<Json>`SELECT ay.chembl_assay_id::int AS assay, ay.cells_cellline_organ, ay.tissue, c.cellosaurus_id, ti.uberon_id
      FROM assays ay LEFT JOIN cell_lines c ON c.cell_line_id = ay.cell_line_id LEFT JOIN tissues ti ON ti.tissue_id = ay.tissue_id ORDER BY 1`);
    expect(assays).toEqual([
      { assay: 1000, cells_cellline_organ: 'HeLa', tissue: 'Liver', cellosaurus_id: 'CVCL_0030', uberon_id: 'UBERON:0002107' },
      { assay: 1001, cells_cellline_organ: 'A431', tissue: null, cellosaurus_id: 'CVCL_0037', uberon_id: null },
      { assay: 1002, cells_cellline_organ: null, tissue: null, cellosaurus_id: null, uberon_id: null },
    ]);
  });

  it('shows cell line, tissue and assay parameters in the assay tab and its inner grid', async () => {
    const sessionid = crypto.randomUUID();
    const criteria: SearchCriteriaInput = {
      rows: [{ selectedOption: 'target', targets: [{ label: 'P00533', targetCategories: ['uniprot'] }] }],
    };
    expect((await post('/api/guidedsearch/allresultscount', { searchcriteria: criteria, sessionid })).statusCode).toBe(200);
    const page = await post('/api/results/assaytab', { sessionid, pageSize: 10 });
    expect(page.statusCode, page.body).toBe(200);
    const rows = page.data.data as Json[];
    const assay1000 = (
      await t.database.db.selectFrom('assays').select('assay_id').where('chembl_assay_id', '=', 1000).executeTakeFirstOrThrow()
    ).assay_id;
    const row = rows.find((r) => r.assay_id === assay1000);
    expect(row).toMatchObject({ cells_cellline_organ: 'HeLa', tissue: 'Liver', assay_parameters: 'DOSE = 10 mg.kg-1; TIME = 24 hr' });
    const grids = InnerGridsSchema.parse(JSON.parse(row!.innerGrids as string));
    const parameters = grids.find((g) => g.title === 'Assay parameters');
    expect(parameters?.rows).toEqual([
      { param_type: 'DOSE', relation: '=', value: 10, units: 'mg.kg-1', text_value: null, standard: 'DOSE = 10 mg.kg-1', comments: null },
      { param_type: 'TIME', relation: '=', value: 24, units: 'hr', text_value: null, standard: null, comments: 'after dosing' },
    ]);
    // An assay without parameters has only its activities grid.
    const other = rows.find((r) => r.assay_id !== assay1000);
    expect(InnerGridsSchema.parse(JSON.parse(other!.innerGrids as string)).map((g) => g.title)).toEqual(['Activities in this search']);
  });

  it('shows the ATC classes of the compound on its leaflet, with the names of the levels above', async () => {
    const aspirin = await t.database.db
      .selectFrom('compounds')
      .select('str_id')
      .where('chembl_molregno', '=', 1280)
      .executeTakeFirstOrThrow();
    const leaflet = await get(`/api/security/leafletview/compound/${aspirin.str_id}?idType=structure`);
    expect(leaflet.statusCode, leaflet.body).toBe(200);
    expect(leaflet.data.atc).toEqual([
      {
        code: 'B01AC06',
        name: 'acetylsalicylic acid',
        path: [
          'BLOOD AND BLOOD FORMING ORGANS',
          'ANTITHROMBOTIC AGENTS',
          'ANTITHROMBOTIC AGENTS',
          'Platelet aggregation inhibitors excl. heparin',
        ],
      },
      {
        code: 'N02BA01',
        name: 'acetylsalicylic acid',
        path: ['NERVOUS SYSTEM', 'ANALGESICS', 'OTHER ANALGESICS AND ANTIPYRETICS', 'Salicylic acid and derivatives'],
      },
    ]);
    const development = leaflet.data.development as { mode_of_action: string; targets: { action_type: string; mechanism: string }[] }[];
    expect(development[0]).toMatchObject({
      mode_of_action: 'Cyclooxygenase inhibitor',
      targets: [{ action_type: 'INHIBITOR', mechanism: 'Cyclooxygenase inhibitor' }],
    });
  });

  it('adds nothing when the same file is imported again', async () => {
    const counts = async () =>
      Promise.all(
        NEW_TABLES.map(async (table) =>
          Number(
            (
              await t.database.db
                .selectFrom(table)
                .select((eb) => eb.fn.countAll<number>().as('n'))
                .executeTakeFirstOrThrow()
            ).n,
          ),
        ),
      );
    const snapshot = async () =>
      one(sql<Json>`SELECT chembl_tid::int AS tid, pdb_ids, entrez_gene_id::int AS entrez FROM targets ORDER BY 1`);
    const [before, targetsBefore] = [await counts(), await snapshot()];
    const again = await importChembl(t.database, FIXTURE, { pool: fixture.pool(), batchSize: 2, restart: true });
    expect(await counts()).toEqual(before);
    expect(await snapshot()).toEqual(targetsBefore);
    for (const name of [
      'component_xref',
      'assay cells and tissues',
      'assay_parameters',
      'atc_classification',
      'molecule_atc_classification',
      'cell_dictionary',
      'tissue_dictionary',
    ]) {
      const loaded = Object.values(step(again, name).loaded).reduce((a, b) => a + b, 0);
      expect(loaded, name).toBe(0);
    }
    expect(step(again, 'drug_mechanism').loaded).toEqual({});
  });
});
