import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoEmailForRole } from '@kb/contracts/roles';
import type { LoginResult } from '@kb/contracts/auth';
import type { SearchCriteriaInput } from '@kb/contracts/search';
import type { EntityChange } from '@kb/contracts/kb-loads';
import { DATABASES, authHeaders, startTestApp } from '../../../../test/harness.ts';
import type { TestApp } from '../../../../test/harness.ts';
import { ChemPool } from '../chem/chem-pool.ts';
import { refreshDerivedData } from '../derived-data.ts';
import { importChembl } from './chembl-import.ts';
import type { ImportSummary } from './chembl-import.ts';
import { buildChemblFixture, defaultFixtureRows } from './fixture.test-support.ts';
import { nextReleaseRows, withDetailRows } from './release-fixture.test-support.ts';

/**
 * Release updates (issue 17 "Must show"): release N, then a changed release N+1, the diff report,
 * retired rows out of searches (and kept in kb_retired_rows), a saved search still opening and an
 * open search session still paging, details of retired rows (assay parameters, ATC classes) deleted
 * with them; then N+1 again (nothing changes) and N again (retired rows back
 * with their old ids).
 */
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'chembl-release-'));
const RELEASE_N = path.join(tmp, 'chembl_99.db');
const RELEASE_N1 = path.join(tmp, 'chembl_99_1.db');

const byEntity = (summary: ImportSummary): Record<string, Omit<EntityChange, 'entity'>> =>
  Object.fromEntries((summary.load.report?.changes ?? []).map(({ entity, ...rest }) => [entity, rest]));

let pool: ChemPool;
beforeAll(() => {
  // With assay parameters and ATC rows of an assay and a molecule that N+1 drops.
  buildChemblFixture(RELEASE_N, { rows: withDetailRows(defaultFixtureRows()) });
  buildChemblFixture(RELEASE_N1, { rows: withDetailRows(nextReleaseRows()) });
  pool = new ChemPool(2);
});
afterAll(async () => {
  await pool.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe.each(DATABASES)('release update N -> N+1 on %s', (kind) => {
  let t: TestApp;
  let me: LoginResult;
  let first: ImportSummary;
  let update: ImportSummary;
  let egfr: number;
  let criteriaId: number;
  const sessionid = crypto.randomUUID();
  const post = (url: string, payload: object) => t.call({ method: 'POST', url, headers: authHeaders(me), payload });
  const get = (url: string) => t.call({ method: 'GET', url, headers: authHeaders(me) });
  const actId = async (chemblId: number) =>
    (await t.database.db.selectFrom('activities').select('act_id').where('chembl_activity_id', '=', chemblId).executeTakeFirst())?.act_id;
  const importFile = async (file: string) => {
    const summary = await importChembl(t.database, file, { pool });
    await refreshDerivedData(t.database.db);
    return summary;
  };
  const egfrSearch = (): SearchCriteriaInput => ({
    rows: [{ selectedOption: 'target', targets: [{ label: 'EGFR', targetCategories: ['gene'], ids: [egfr] }] }],
  });
  const INHIBITION: SearchCriteriaInput = { rows: [{ selectedOption: 'activitytypes', activities: [{ activityType: 'Inhibition' }] }] };
  const counts = async (criteria: SearchCriteriaInput) => {
    const answer = await post('/api/guidedsearch/count', { searchcriteria: criteria });
    expect(answer.statusCode, answer.body).toBe(200);
    return (answer.data.rows as Record<string, number>[])[0]!;
  };
  let salt31867: number;
  let ethanol31869: number;

  beforeAll(async () => {
    t = await startTestApp(kind);
    me = await t.login(demoEmailForRole('FULL_USER'));
    first = await importFile(RELEASE_N);
    egfr = Number(
      (await t.database.db.selectFrom('targets').select('target_id').where('chembl_tid', '=', 9).executeTakeFirstOrThrow()).target_id,
    );
    salt31867 = Number(await actId(31867));
    ethanol31869 = Number(await actId(31869));
    // Before the update: a saved search and an open session on EGFR.
    const saved = await post('/api/security/allmapping/search/variable/save', { name: 'EGFR', searchcriteria: egfrSearch() });
    expect(saved.statusCode, saved.body).toBe(200);
    criteriaId = Number(saved.data.criteria_id);
    const opened = await post('/api/guidedsearch/allresultscount', { searchcriteria: egfrSearch(), sessionid });
    expect(opened.statusCode, opened.body).toBe(200);
    expect(await counts(INHIBITION)).toMatchObject({ actidscount: 1 });
    update = await importFile(RELEASE_N1);
  }, 300_000);
  afterAll(() => t?.close());

  it('records the first import as an import load and the newer release as an update', () => {
    expect(first.load.kind).toBe('import');
    expect(first.load.label).toBe('chembl_99');
    expect(update.load.kind).toBe('update');
    expect(update.load.label).toBe('chembl_99_1');
    expect(update.complete).toBe(true);
  });

  it('reports exactly what changed per entity, with the live totals', () => {
    expect(byEntity(update)).toEqual({
      // N: 11 fixture activities, 31868 skipped (molecule not in the file) = 10; N+1 retires 2, adds 1.
      activities: { added: 1, updated: 1, retired: 2, total: 9 },
      compounds: { added: 0, updated: 1, retired: 1, total: 6 },
      structures: { added: 0, updated: 0, retired: 1, total: 2 },
      assays: { added: 0, updated: 0, retired: 1, total: 2 },
      documents: { added: 1, updated: 0, retired: 0, total: 3 },
      targets: { added: 1, updated: 1, retired: 0, total: 4 },
      clinical_compounds: { added: 0, updated: 0, retired: 0, total: 2 },
    });
    const quality = update.load.report?.quality;
    expect(quality?.activities.total).toBe(9);
    expect(quality?.compounds).toEqual({ total: 6, withStructure: 4 });
    expect(quality?.rowsPerEntity.find((r) => r.entity === 'activities')?.rows).toBe(9);
    expect(quality?.skipped.some((s) => s.step === 'activities' && s.reason === 'molecule not in the file')).toBe(true);
  });

  it('stamps added activities and structures with their load, and keeps the first load on updated rows', async () => {
    const rows = await t.database.db
      .selectFrom('activities')
      .select(['chembl_activity_id', 'load_id'])
      .orderBy('chembl_activity_id')
      .execute();
    const loadOf = Object.fromEntries(rows.map((r) => [Number(r.chembl_activity_id), Number(r.load_id)]));
    expect(loadOf[31891]).toBe(update.load.loadId);
    expect(loadOf[31864]).toBe(first.load.loadId);
    const changed = await t.database.db
      .selectFrom('activities')
      .select(['activity_value', 'act_id'])
      .where('chembl_activity_id', '=', 31864)
      .executeTakeFirstOrThrow();
    expect(changed.activity_value).toBe(20);
  });

  it('moves retired rows to kb_retired_rows and out of every search', async () => {
    const archived = await t.database.db
      .selectFrom('kb_retired_rows')
      .select(['table_name', 'source_key', 'retired_in_load'])
      .orderBy('table_name')
      .orderBy('source_key')
      .execute();
    expect(archived.map((r) => `${r.table_name}:${r.source_key}`)).toEqual([
      'activities:31867',
      'activities:31869',
      'assays:1002',
      'compounds:2005',
      expect.stringMatching(/^structures:[0-9a-f]{32}$/),
    ]);
    expect(archived.every((r) => Number(r.retired_in_load) === update.load.loadId)).toBe(true);
    expect(await actId(31867)).toBeUndefined();
    expect(await counts(INHIBITION)).toMatchObject({ actidscount: 0 });
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM activities WHERE target_id = ${egfr}`.execute(t.database.db);
    expect(await counts(egfrSearch())).toMatchObject({ actidscount: rows[0]!.n });
  });

  const details = async () => ({
    parameters: (
      await t.database.db.selectFrom('assay_parameters').select('chembl_assay_param_id').orderBy('chembl_assay_param_id').execute()
    ).map((r) => Number(r.chembl_assay_param_id)),
    atc: (
      await t.database.db
        .selectFrom('compound_atc')
        .innerJoin('compounds', 'compounds.gvk_id', 'compound_atc.gvk_id')
        .select(['compounds.chembl_molregno', 'compound_atc.atc_code'])
        .orderBy('compound_atc.atc_code')
        .execute()
    ).map((r) => `${Number(r.chembl_molregno)}:${r.atc_code}`),
  });

  it('deletes the assay parameters and ATC classes of a retired assay or compound with it, and keeps the others', async () => {
    // Release N had parameters 1, 2 (assay 1000) and 3 (assay 1002), ATC rows of 1280 and 2005.
    expect(await details()).toEqual({ parameters: [1, 2], atc: ['1280:N02BA01'] });
    // Not archived: the release that brings the assay or compound back brings its details again.
    const archived = await t.database.db.selectFrom('kb_retired_rows').select('table_name').distinct().execute();
    expect(archived.map((r) => r.table_name).sort()).toEqual(['activities', 'assays', 'compounds', 'structures']);
  });

  it('keeps a saved search opening and running, with the same target id', async () => {
    const detail = await get(`/api/bu/criteria/${criteriaId}`);
    expect(detail.statusCode, detail.body).toBe(200);
    const run = await post('/api/guidedsearch/allresultscount', {
      searchcriteria: detail.data.searchcriteria as object,
      sessionid: crypto.randomUUID(),
    });
    expect(run.statusCode, run.body).toBe(200);
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM activities WHERE target_id = ${egfr}`.execute(t.database.db);
    expect(rows[0]!.n).toBeGreaterThan(0);
    expect((run.data.rows as Record<string, number>[])[0]!.actidscount).toBe(rows[0]!.n);
  });

  it('keeps an open search session paging, without the retired rows', async () => {
    const page = await post('/api/results/activitiestab', { sessionid, pageNumber: 0, pageSize: 50 });
    expect(page.statusCode, page.body).toBe(200);
    const rows = page.data.data as Record<string, unknown>[];
    // The session was opened on N (the EGFR activities of N); 31867 is retired, 31864 updated in
    // place, 31891 is new in N+1 and not in the session: the rows are N's live EGFR activities.
    const kept = await sql<{
      act_id: number;
    }>`SELECT act_id FROM activities WHERE target_id = ${egfr} AND load_id = ${first.load.loadId}`.execute(t.database.db);
    expect(kept.rows.map((r) => Number(r.act_id))).toContain(Number(await actId(31864)));
    expect(rows.map((r) => Number(r.act_id)).sort()).toEqual(kept.rows.map((r) => Number(r.act_id)).sort());
    expect(rows.map((r) => Number(r.act_id))).not.toContain(salt31867);
  });

  it('changes nothing when the same release is imported again', async () => {
    const again = await importFile(RELEASE_N1);
    expect(again.load.kind).toBe('update');
    expect(Object.values(byEntity(again)).every((c) => c.added === 0 && c.updated === 0 && c.retired === 0)).toBe(true);
  });

  it('brings retired rows back with their old ids when a release has them again', async () => {
    const back = await importFile(RELEASE_N);
    const changes = byEntity(back);
    expect(changes.activities).toMatchObject({ added: 2, updated: 1, retired: 1 });
    expect(changes.compounds).toMatchObject({ added: 1, updated: 1, retired: 0 });
    expect(changes.structures).toMatchObject({ added: 1, retired: 0 });
    expect(changes.assays).toMatchObject({ added: 1, retired: 0 });
    expect(changes.documents).toMatchObject({ added: 0, retired: 1 });
    expect(changes.targets).toMatchObject({ added: 0, updated: 1, retired: 1 });
    expect(Number(await actId(31867))).toBe(salt31867);
    expect(Number(await actId(31869))).toBe(ethanol31869);
    expect(await counts(INHIBITION)).toMatchObject({ actidscount: 1 });
    const archived = await t.database.db.selectFrom('kb_retired_rows').select(['table_name', 'source_key']).orderBy('table_name').execute();
    expect(archived.map((r) => `${r.table_name}:${r.source_key}`)).toEqual(['activities:31891', 'documents:102', 'targets:200']);
    // The details of the assay and compound brought back are loaded again from the release.
    expect(await details()).toEqual({ parameters: [1, 2, 3], atc: ['1280:N02BA01', '2005:V03AB16'] });
  });
});
