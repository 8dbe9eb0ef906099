import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { LoginResult } from '@kb/contracts/auth';
import type { ReferenceLeaflet } from '@kb/contracts/leaflets';
import { demoEmailForRole } from '@kb/contracts/roles';
import type { SearchCounts, SearchRowInput } from '@kb/contracts/search';
import { DATABASES, authHeaders, startTestApp } from '../../../../test/harness.ts';
import { callerOf } from '../../../../test/search-services.ts';
import type { TestApp } from '../../../../test/harness.ts';
import { importChembl } from './chembl-import.ts';
import { useChemblFixture } from './fixture-hooks.test-support.ts';

/**
 * Activities of compounds without a structure and activities ChEMBL could not standardise, end to
 * end on the ChEMBL fixture (the real subset has no structureless compound with an activity):
 * guided searches through the API, the Activities tab and the reference leaflet
 * (docs/search-semantics.md "Activities without a structure").
 */
const fixture = useChemblFixture('chembl-search-');
const FIXTURE = fixture.file;
describe.each(DATABASES)('searching ChEMBL activities without structure or standard fields on %s', (kind) => {
  let t: TestApp;
  let me: LoginResult;
  let egfr: number;
  let gefitinib: number;
  const post = (url: string, payload: object) => t.call({ method: 'POST', url, headers: authHeaders(me), payload });
  const run = async (rows: SearchRowInput[]) => {
    const sessionid = crypto.randomUUID();
    const answer = await post('/api/guidedsearch/allresultscount', { searchcriteria: { rows }, sessionid });
    expect(answer.statusCode, answer.body).toBe(200);
    return { sessionid, counts: (answer.data.rows as SearchCounts[])[0]! };
  };
  /** ChEMBL activity ids of a session's activities set. */
  const chemblIdsOf = async (sessionid: string) => {
    // The query below reads the set tables: a session's sets held in memory are written for it.
    await t.app.services.results.session(callerOf(me), sessionid);
    const { rows } = await sql<{ id: number }>`SELECT a.chembl_activity_id AS id FROM search_sessions ss
      JOIN search_activities sa ON sa.set_id = ss.set_id JOIN activities a ON a.act_id = sa.act_id
      WHERE ss.id = ${sessionid} ORDER BY 1`.execute(t.database.db);
    return rows.map((r) => Number(r.id));
  };
  const target = (ids: number[], extra: Partial<SearchRowInput> = {}) =>
    ({ selectedOption: 'target', targets: [{ label: 'EGFR', ids }], ...extra }) as SearchRowInput;
  const ic50 = (extra: Partial<SearchRowInput> = {}) =>
    ({ selectedOption: 'activitytypes', activities: [{ activityType: 'IC50' }], ...extra }) as SearchRowInput;

  beforeAll(async () => {
    t = await startTestApp(kind);
    await importChembl(t.database, FIXTURE, { pool: fixture.pool() });
    me = await t.login(demoEmailForRole('FULL_USER'));
    egfr = (await t.database.db.selectFrom('targets').select('target_id').where('chembl_tid', '=', 9).executeTakeFirstOrThrow()).target_id;
    gefitinib = (await t.database.db.selectFrom('compounds').select('str_id').where('chembl_molregno', '=', 2000).executeTakeFirstOrThrow())
      .str_id!;
  }, 180_000);
  afterAll(() => t.close());

  it('finds activities of compounds without a structure by target, and counts them everywhere but in Structures', async () => {
    const { sessionid, counts } = await run([target([egfr])]);
    // 31865 (unparsable SMILES), 31866 and 31873 (a protein) have no structure; the rest are gefitinib's and aspirin's.
    expect(await chemblIdsOf(sessionid)).toEqual([31863, 31864, 31865, 31866, 31867, 31871, 31872, 31873]);
    expect(counts).toMatchObject({ actidscount: 8, stridscount: 2, assayidscount: 2, refidscount: 1 });
    // Compound records: gefitinib, aspirin, its second spelling and its salt, the unparsable one and the protein.
    expect(counts.gvkidscount).toBe(6);
  });

  it('finds activities ChEMBL could not standardise by their published type', async () => {
    const { sessionid, counts } = await run([ic50()]);
    expect(await chemblIdsOf(sessionid)).toEqual([31863, 31865, 31866, 31870, 31871]);
    expect(counts).toMatchObject({ actidscount: 5, stridscount: 2 });
  });

  it('keeps a structureless activity in a NOT search when the expression holds for the activity itself', async () => {
    // EGFR NOT IC50: both structures have an IC50 somewhere, so none is left; the protein's EC50 on EGFR is.
    const notIc50 = await run([target([egfr], { operator: 'NOT' }), ic50()]);
    expect(await chemblIdsOf(notIc50.sessionid)).toEqual([31873]);
    expect(notIc50.counts).toMatchObject({ stridscount: 0, actidscount: 1, assayidscount: 1, gvkidscount: 1 });
    // EGFR NOT (structure gefitinib): a structure row never matches an activity without structure.
    const notGefitinib = await run([
      target([egfr], { operator: 'NOT' }),
      { selectedOption: 'structure', strIds: [gefitinib] } as SearchRowInput,
    ]);
    expect(await chemblIdsOf(notGefitinib.sessionid)).toEqual([31864, 31865, 31866, 31867, 31871, 31873]);
    expect(notGefitinib.counts.stridscount).toBe(1);
  });

  it('shows "no structure" rows and the standardised mark in the Activities tab', async () => {
    const { sessionid } = await run([target([egfr])]);
    const answer = await post('/api/results/activitiestab', { sessionid, pageSize: 50 });
    expect(answer.statusCode, answer.body).toBe(200);
    const rows = answer.data.data as Record<string, unknown>[];
    const ids = await t.database.db.selectFrom('activities').select(['act_id', 'chembl_activity_id']).execute();
    const byChembl = new Map(ids.map((r) => [Number(r.chembl_activity_id), Number(r.act_id)]));
    const row = (chemblId: number) => rows.find((r) => r.act_id === byChembl.get(chemblId));
    expect(row(31873)).toMatchObject({ str_id: null, smiles: null, std_activity_type: 'EC50', standardised: 'yes' });
    expect(row(31871)).toMatchObject({
      std_activity_type: 'IC50',
      std_act_prefix: '<',
      activity_value: 30,
      standard_uom: 'nM',
      standardised: 'no',
    });
    const columns = await t.call({ method: 'GET', url: '/api/results/metadata/getalltabcolumns/false', headers: authHeaders(me) });
    const activityColumns = (columns.data.tabs as { tab: string; columns: { key: string; hidden: boolean }[] }[]).find(
      (c) => c.tab === 'activitiestab',
    )!.columns;
    expect(
      activityColumns.filter((c) => ['standardised', 'bei', 'sei', 'le', 'lle'].includes(c.key)).map((c) => [c.key, c.hidden]),
    ).toEqual([
      ['standardised', false],
      ['bei', true],
      ['sei', true],
      ['le', true],
      ['lle', true],
    ]);
  });

  it('lists structureless and not-standardised activities in the reference leaflet, with ligand efficiency', async () => {
    const ref = await t.database.db.selectFrom('documents').select('ref_id').where('chembl_doc_id', '=', 100).executeTakeFirstOrThrow();
    const answer = await t.call({ method: 'GET', url: `/api/security/leafletview/reference/${ref.ref_id}`, headers: authHeaders(me) });
    expect(answer.statusCode, answer.body).toBe(200);
    const leaflet = answer.data as unknown as ReferenceLeaflet;
    const structureless = leaflet.activities.rows.filter((a) => a.str_id === null);
    expect(structureless.map((a) => a.std_activity_type).sort()).toEqual(['EC50', 'IC50', 'IC50']);
    expect(structureless.find((a) => a.std_activity_type === 'EC50')).toMatchObject({ compound_label: 'Peptide P1', standardised: true });
    expect(
      leaflet.activities.rows
        .filter((a) => !a.standardised)
        .map((a) => a.std_activity_type)
        .sort(),
    ).toEqual(['IC50', 'Ki']);
    expect(leaflet.activities.rows.find((a) => a.le !== null)).toMatchObject({
      compound_label: 'gefitinib (compound 4)',
      bei: 16.71,
      sei: 10.09,
      le: 0.31,
      lle: 3.02,
    });
    // Reference compounds are structures: the structureless activities are not among them.
    expect(leaflet.compounds.rows.every((c) => c.str_id !== null)).toBe(true);
    expect(leaflet.activities.rows.at(-1)?.str_id).toBeNull();
  });
});
