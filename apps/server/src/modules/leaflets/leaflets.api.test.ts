import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { parse } from 'csv-parse/sync';
import { demoEmailForRole } from '@kb/contracts/roles';
import type { LoginResult } from '@kb/contracts/auth';
import { LEAFLET_LIMITS, MEASUREMENT_LIMITS } from '@kb/contracts/leaflets';
import type { CompoundLeaflet, MeasurementList, ReferenceLeaflet } from '@kb/contracts/leaflets';
import { MEASURED_PROPERTY_PATTERNS } from './leaflet-service.ts';
import { DATABASES, authHeaders, startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';

/*
 * Both leaflets and the measurement list through the API on one demo chunk (1,000 structures, 40
 * references): every figure is checked against plain SQL on the same data, searches mark the
 * reference's rows exactly as their id sets say, a link carrying another user's search opens the
 * whole reference, and bad ids answer 400 / 403 / 404 with a message a user can act on.
 */
const byNumber = (a: number, b: number) => a - b;

describe.each(DATABASES)('leaflets API on %s', (kind) => {
  let t: TestApp;
  let me: LoginResult;
  let other: LoginResult;
  const get = (url: string, login: LoginResult = me) => t.call({ method: 'GET', url, headers: authHeaders(login) });
  const compound = async (id: number, idType = 'structure') => {
    const answer = await get(`/api/security/leafletview/compound/${id}?idType=${idType}`);
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.data as unknown as CompoundLeaflet;
  };
  const reference = async (rid: number, query = '') => {
    const answer = await get(`/api/security/leafletview/reference/${rid}${query}`);
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.data as unknown as ReferenceLeaflet;
  };
  const measurements = async (query: string, login: LoginResult = me) => {
    const answer = await get(`/api/security/leafletview/measurements?${query}`, login);
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.data as unknown as MeasurementList;
  };
  const one = async <T>(query: ReturnType<typeof sql<T>>) => (await query.execute(t.database.db)).rows[0]!;
  const all = async <T>(query: ReturnType<typeof sql<T>>) => (await query.execute(t.database.db)).rows;

  beforeAll(async () => {
    t = await startTestApp(kind, {}, { demoChunks: 1 });
    me = await t.login(demoEmailForRole('FULL_USER'));
    other = await t.login(demoEmailForRole('EVALUATE_USER'));
  }, 180_000);
  afterAll(() => t?.close());

  it('shows a development compound’s structure with its identifiers, records, activities by target, development status and references', async () => {
    const drug = await one(sql<{ clinical_compound_id: number; str_id: number }>`
      SELECT clinical_compound_id, str_id FROM clinical_compounds WHERE str_id IS NOT NULL ORDER BY clinical_compound_id LIMIT 1`);
    const leaflet = await compound(drug.str_id);

    const structure = await one(sql<
      Record<string, unknown>
    >`SELECT str_id, smiles, canonical_smiles, inchi, inchikey, mol_formula, mol_weight, psa, hb_donors
      FROM structures WHERE str_id = ${drug.str_id}`);
    expect(leaflet.structure).toEqual({
      str_id: structure.str_id,
      smiles: structure.smiles,
      canonical_smiles: structure.canonical_smiles,
      inchi: structure.inchi,
      inchikey: structure.inchikey,
      mol_formula: structure.mol_formula,
    });
    expect(leaflet.properties).toMatchObject({
      mol_weight: structure.mol_weight,
      psa: structure.psa,
      hb_donors: structure.hb_donors,
      logd_calc: null,
    });

    const records = await all(sql<{ gvk_id: number }>`SELECT gvk_id FROM compounds WHERE str_id = ${drug.str_id} ORDER BY gvk_id`);
    expect(leaflet.compounds.map((c) => c.gvk_id)).toEqual(records.map((r) => r.gvk_id));

    const groups = await all(sql<{ target_id: number | null; n: number; best_um: number | null; best_p: number | null }>`
      SELECT target_id, count(*)::int AS n,
        CASE WHEN target_id IS NULL THEN NULL ELSE min(micro_molarvalue) FILTER (WHERE std_act_prefix IN ('=', '<', '<=')) END AS best_um,
        max(pchembl_value) AS best_p
      FROM activities WHERE str_id = ${drug.str_id} GROUP BY target_id`);
    expect(leaflet.activities.total).toBe(groups.reduce((sum, g) => sum + g.n, 0));
    expect(leaflet.activities.groupsTotal).toBe(groups.length);
    expect(leaflet.activities.targetsTotal).toBe(groups.filter((g) => g.target_id !== null).length);
    expect(leaflet.activities.groups).toHaveLength(groups.length);
    for (const group of leaflet.activities.groups) {
      const expected = groups.find((g) => g.target_id === group.target_id)!;
      expect(group).toMatchObject({ activity_count: expected.n, best_micro_molarvalue: expected.best_um, best_pchembl: expected.best_p });
    }
    const counts = leaflet.activities.groups.map((g) => g.activity_count);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    const named = leaflet.activities.groups.find((g) => g.target_id !== null)!;
    const target = await one(
      sql<{ name: string; gene_symbol: string }>`SELECT name, gene_symbol FROM targets WHERE target_id = ${named.target_id}`,
    );
    expect(named).toMatchObject({ target_name: target.name, gene_symbol: target.gene_symbol });

    const dcm = leaflet.development.find((d) => d.clinical_compound_id === drug.clinical_compound_id)!;
    const expectedDcm = await one(sql<{ drug_name: string; phase: string; indications: number; companies: number; targets: number }>`
      SELECT cc.drug_name, p.name AS phase,
        (SELECT count(*)::int FROM clinical_compound_indications WHERE clinical_compound_id = cc.clinical_compound_id) AS indications,
        (SELECT count(*)::int FROM clinical_compound_companies WHERE clinical_compound_id = cc.clinical_compound_id) AS companies,
        (SELECT count(*)::int FROM clinical_compound_targets WHERE clinical_compound_id = cc.clinical_compound_id) AS targets
      FROM clinical_compounds cc JOIN clinical_phases p ON p.phase_id = cc.highest_phase_id WHERE cc.clinical_compound_id = ${drug.clinical_compound_id}`);
    expect(dcm).toMatchObject({ drug_name: expectedDcm.drug_name, highest_phase: expectedDcm.phase });
    expect([dcm.indications.length, dcm.companies.length, dcm.targets.length]).toEqual([
      expectedDcm.indications,
      expectedDcm.companies,
      expectedDcm.targets,
    ]);
    expect(dcm.last_significant_update ?? '').toMatch(/^\d{4}-\d{2}-\d{2}$/);

    const refs = await all(sql<{ ref_id: number; n: number }>`
      SELECT ref_id, sum(n)::int AS n FROM (
        SELECT ref_id, count(*) AS n FROM activities WHERE str_id = ${drug.str_id} GROUP BY ref_id
        UNION ALL SELECT ref_id, 0 FROM compounds WHERE str_id = ${drug.str_id}) r
      WHERE ref_id IS NOT NULL GROUP BY ref_id`);
    expect(leaflet.references.total).toBe(refs.length);
    expect(leaflet.references.rows.map((r) => [r.ref_id, r.activity_count]).sort((a, b) => a[0]! - b[0]!)).toEqual(
      refs.map((r) => [r.ref_id, r.n]).sort((a, b) => a[0]! - b[0]!),
    );
  });

  it('opens the same structure’s leaflet from a compound record id and a development compound id', async () => {
    const drug = await one(sql<{ clinical_compound_id: number; str_id: number; gvk_id: number }>`
      SELECT clinical_compound_id, str_id, gvk_id FROM clinical_compounds WHERE str_id IS NOT NULL AND gvk_id IS NOT NULL ORDER BY clinical_compound_id LIMIT 1`);
    const byRecord = await compound(drug.gvk_id, 'compound');
    const byDrug = await compound(drug.clinical_compound_id, 'dcm');
    expect(byRecord.structure?.str_id).toBe(drug.str_id);
    expect(byDrug.structure?.str_id).toBe(drug.str_id);
    expect(byDrug.requested).toEqual({ idType: 'dcm', id: drug.clinical_compound_id });
    expect(byDrug.activities).toEqual(byRecord.activities);
  });

  it('lists names and synonyms, and shows a compound record without a structure on its own', async () => {
    const strId = (await one(sql<{ str_id: number }>`SELECT min(str_id)::int AS str_id FROM structures`)).str_id;
    const gvkId = (await one(sql<{ gvk_id: number }>`SELECT min(gvk_id)::int AS gvk_id FROM compounds WHERE str_id = ${strId}`)).gvk_id;
    await sql`INSERT INTO compound_synonyms (gvk_id, synonym, syn_type) VALUES (${gvkId}, 'Demotinib', 'INN'), (${gvkId}, 'DMO-001', 'research code'),
      (${gvkId}, 'Demora', 'trade name')`.execute(t.database.db);
    const leaflet = await compound(strId);
    expect(leaflet.synonyms.map((s) => [s.syn_type, s.synonym])).toEqual([
      ['INN', 'Demotinib'],
      ['research code', 'DMO-001'],
      ['trade name', 'Demora'],
    ]);

    // A biologic-like record: no structure, one synonym, no activities.
    const { gvk_id: lone } = await one(
      sql<{ gvk_id: number }>`INSERT INTO compounds (name, compound_category) VALUES ('DEMO antibody', 'protein') RETURNING gvk_id`,
    );
    await sql`INSERT INTO compound_synonyms (gvk_id, synonym, syn_type) VALUES (${lone}, 'demomab', 'INN')`.execute(t.database.db);
    const alone = await compound(lone, 'compound');
    expect(alone).toMatchObject({
      structure: null,
      properties: null,
      activities: { total: 0, groupsTotal: 0, targetsTotal: 0, groups: [] },
      development: [],
      references: { total: 0, rows: [] },
    });
    expect(alone.compounds).toMatchObject([{ gvk_id: lone, name: 'DEMO antibody', compound_category: 'protein' }]);
    expect(alone.synonyms).toEqual([{ gvk_id: lone, synonym: 'demomab', syn_type: 'INN' }]);
  });

  it('tells whether a structure is a development compound (findDCMOrNot)', async () => {
    const drugs = await all(sql<{ str_id: number; ids: number[] }>`
      SELECT str_id, array_agg(clinical_compound_id ORDER BY clinical_compound_id) AS ids FROM clinical_compounds WHERE str_id IS NOT NULL GROUP BY str_id LIMIT 1`);
    const drug = drugs[0]!;
    expect((await get(`/api/results/leafletview/dcm/findDCMOrNot/${drug.str_id}`)).data).toEqual({
      isDcm: true,
      clinicalCompoundIds: drug.ids.map(Number),
    });
    const plain = await one(sql<{ str_id: number }>`SELECT min(s.str_id)::int AS str_id FROM structures s
      WHERE NOT EXISTS (SELECT 1 FROM clinical_compounds cc WHERE cc.str_id = s.str_id)`);
    expect((await get(`/api/results/leafletview/dcm/findDCMOrNot/${plain.str_id}`)).data).toEqual({
      isDcm: false,
      clinicalCompoundIds: [],
    });
    const unknown = await get('/api/results/leafletview/dcm/findDCMOrNot/987654321');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.data.message).toBe('No structure with id 987654321 in the knowledge base.');
  });

  it('answers 404 with what was not found for unknown ids, and 400 for ids that are not ids', async () => {
    const cases: Array<[string, number, RegExp]> = [
      ['/api/security/leafletview/compound/987654321', 404, /No structure with id 987654321/],
      ['/api/security/leafletview/compound/987654321?idType=compound', 404, /No compound record with id 987654321/],
      ['/api/security/leafletview/compound/987654321?idType=dcm', 404, /No development compound with id 987654321/],
      ['/api/security/leafletview/reference/987654321', 404, /No reference with id 987654321/],
      ['/api/security/leafletview/compound/abc', 400, /whole number above zero/],
      ['/api/security/leafletview/compound/-4', 400, /whole number above zero/],
      ['/api/security/leafletview/compound/12?idType=gene', 400, /idType must be structure, compound or dcm/],
      ['/api/security/leafletview/reference/1?sessionid=not-a-uuid', 400, /not a search id/],
    ];
    for (const [url, status, message] of cases) {
      const answer = await get(url);
      expect(answer.statusCode, url).toBe(status);
      expect(answer.data.message, url).toMatch(message);
    }
  });

  it('shows a reference: bibliographic data, authors in order, companies, and every compound and activity it reports', async () => {
    const { ref_id: refId } = await one(
      sql<{ ref_id: number }>`SELECT min(ref_id)::int AS ref_id FROM documents WHERE ref_type = 'journal'`,
    );
    const leaflet = await reference(refId);
    const doc = await one(
      sql<
        Record<string, unknown>
      >`SELECT title, doi, pubmed_id, year, journal_patent_name, volume, start_page FROM documents WHERE ref_id = ${refId}`,
    );
    expect(leaflet.document).toMatchObject({ ref_id: refId, ref_type: 'journal', ...doc });
    const authors = await all(sql<{ name: string }>`SELECT name FROM document_authors WHERE ref_id = ${refId} ORDER BY position`);
    expect(leaflet.authors).toEqual(authors.map((a) => a.name));
    const companies = await all(sql<{ name: string; address: string | null }>`SELECT co.name, co.address FROM document_companies dc
      JOIN companies co ON co.company_id = dc.company_id WHERE dc.ref_id = ${refId} ORDER BY co.name`);
    expect(leaflet.companies.map((c) => ({ name: c.name, address: c.address }))).toEqual(companies);
    expect(leaflet.session).toBeNull();

    const structures = await all(sql<{ str_id: number; n: number }>`SELECT str_id, sum(n)::int AS n FROM (
        SELECT str_id, count(*) AS n FROM activities WHERE ref_id = ${refId} GROUP BY str_id
        UNION ALL SELECT str_id, 0 FROM compounds WHERE ref_id = ${refId} AND str_id IS NOT NULL) r GROUP BY str_id ORDER BY str_id`);
    expect(leaflet.compounds.total).toBe(structures.length);
    expect(leaflet.compounds.rows.map((c) => [c.str_id, c.activity_count])).toEqual(structures.map((s) => [s.str_id, s.n]));
    expect(leaflet.compounds.rows.every((c) => c.in_search === null && c.name !== null)).toBe(true);

    const activities = await all(sql<{ act_id: number }>`SELECT act_id FROM activities WHERE ref_id = ${refId} ORDER BY str_id, act_id`);
    expect(leaflet.activities.total).toBe(activities.length);
    expect(leaflet.activities.inSearch).toBeNull();
    expect(leaflet.activities.rows.map((a) => a.act_id)).toEqual(
      activities.slice(0, LEAFLET_LIMITS.referenceActivities).map((a) => a.act_id),
    );
    const first = leaflet.activities.rows[0]!;
    const row = await one(sql<
      Record<string, unknown>
    >`SELECT a.std_activity_type, a.activity_value, a.standard_uom, s.description AS assay_description
      FROM activities a LEFT JOIN assays s ON s.assay_id = a.assay_id WHERE a.act_id = ${first.act_id}`);
    expect(first).toMatchObject(row);
    // "no search" spellings of the route's sid are accepted.
    expect((await reference(refId, '?sessionid=0')).session).toBeNull();
  });

  it('marks the compounds and activities that are in the user’s search, and keeps only those on request', async () => {
    const { ref_id: refId } = await one(sql<{ ref_id: number }>`SELECT min(ref_id)::int AS ref_id FROM documents`);
    // A molecular-weight cut through the middle of the reference's compounds.
    const weights = (
      await all(sql<{ mol_weight: number }>`SELECT DISTINCT s.mol_weight FROM activities a JOIN structures s ON s.str_id = a.str_id
      WHERE a.ref_id = ${refId} ORDER BY s.mol_weight`)
    ).map((r) => r.mol_weight);
    const middle = Math.floor(weights.length / 2);
    const cut = (weights[middle - 1]! + weights[middle]!) / 2;
    const sessionid = crypto.randomUUID();
    const search = await t.call({
      method: 'POST',
      url: '/api/guidedsearch/allresultscount',
      headers: authHeaders(me),
      payload: { searchcriteria: { rows: [{ selectedOption: 'structure', properties: { molmax: cut } }] }, sessionid },
    });
    expect(search.statusCode, search.body).toBe(200);

    const light = new Set(
      (await all(sql<{ str_id: number }>`SELECT str_id FROM structures WHERE mol_weight <= ${cut}`)).map((r) => r.str_id),
    );
    const leaflet = await reference(refId, `?sessionid=${sessionid}`);
    expect(leaflet.session).toMatchObject({ sessionid, status: 'ready', ready: true });
    for (const c of leaflet.compounds.rows) expect(c.in_search, `structure ${c.str_id}`).toBe(light.has(c.str_id));
    for (const a of leaflet.activities.rows) expect(a.in_search, `activity ${a.act_id}`).toBe(a.str_id !== null && light.has(a.str_id));
    const inSearch = await one(sql<{
      compounds: number;
      activities: number;
    }>`SELECT count(DISTINCT a.str_id)::int AS compounds, count(*)::int AS activities
      FROM activities a JOIN structures s ON s.str_id = a.str_id WHERE a.ref_id = ${refId} AND s.mol_weight <= ${cut}`);
    expect(leaflet.compounds.inSearch).toBe(inSearch.compounds);
    expect(leaflet.activities.inSearch).toBe(inSearch.activities);
    expect(inSearch.compounds).toBeGreaterThan(0);
    expect(inSearch.compounds).toBeLessThan(leaflet.compounds.total);

    const only = await reference(refId, `?sessionid=${sessionid}&inSearchOnly=true`);
    expect(only.inSearchOnly).toBe(true);
    expect(only.compounds.rows.map((c) => c.str_id)).toEqual(leaflet.compounds.rows.filter((c) => c.in_search).map((c) => c.str_id));
    expect(only.activities.rows.map((a) => a.act_id)).toEqual(leaflet.activities.rows.filter((a) => a.in_search).map((a) => a.act_id));
    expect(only.compounds.total).toBe(leaflet.compounds.total);

    // The partial demo load still runs, so that search's sets were written at once (the set tables
    // answered). With the knowledge base at rest a search's sets stay in memory, and they answer.
    await sql`UPDATE kb_loads SET status = 'complete', finished_at = now() WHERE finished_at IS NULL`.execute(t.database.db);
    await t.app.services.search.bitmapsReady();
    const heldId = crypto.randomUUID();
    const again = await t.call({
      method: 'POST',
      url: '/api/guidedsearch/allresultscount',
      headers: authHeaders(me),
      payload: { searchcriteria: { rows: [{ selectedOption: 'structure', properties: { molmax: cut } }] }, sessionid: heldId },
    });
    expect(again.statusCode, again.body).toBe(200);
    const held = await reference(refId, `?sessionid=${heldId}`);
    expect(held.compounds).toEqual(leaflet.compounds);
    expect(held.activities).toEqual(leaflet.activities);
    expect((await reference(refId, `?sessionid=${heldId}&inSearchOnly=true`)).compounds).toEqual(only.compounds);
    const written = await one(sql<{ n: number }>`SELECT count(*)::int AS n FROM search_structures ss
      JOIN search_sessions se ON se.set_id = ss.set_id WHERE se.id = ${heldId}`);
    expect(written.n).toBe(0);
  });

  it('opens the whole reference for another user’s or an unknown search (no marks, a note why), and needs a ready search to filter (400)', async () => {
    const { ref_id: refId } = await one(sql<{ ref_id: number }>`SELECT min(ref_id)::int AS ref_id FROM documents`);
    const sessionid = crypto.randomUUID();
    await t.call({
      method: 'POST',
      url: '/api/guidedsearch/allresultscount',
      headers: authHeaders(me),
      payload: { searchcriteria: { rows: [{ selectedOption: 'activitytypes', activities: [{ activityType: 'Ki' }] }] }, sessionid },
    });
    // A colleague opening the link: the reference, without the owner's search and its marks.
    const theirs = await get(`/api/security/leafletview/reference/${refId}?sessionid=${sessionid}&inSearchOnly=true`, other);
    expect(theirs.statusCode, theirs.body).toBe(200);
    const shared = theirs.data as unknown as ReferenceLeaflet;
    expect(shared).toMatchObject({ session: null, searchNote: 'not-yours', inSearchOnly: false, link: `/leaflet/reference/${refId}` });
    expect(shared.compounds.inSearch).toBeNull();
    expect(shared.compounds.rows.every((c) => c.in_search === null)).toBe(true);
    expect(shared.activities.total).toBe((await reference(refId)).activities.total);
    // The owner still gets the search.
    expect((await reference(refId, `?sessionid=${sessionid}`)).session).toMatchObject({ sessionid, ready: true });

    const unknown = crypto.randomUUID();
    const missing = await reference(refId, `?sessionid=${unknown}`);
    expect(missing).toMatchObject({ session: null, searchNote: 'unknown', inSearchOnly: false });
    expect(missing.document.ref_id).toBe(refId);

    // A session id that is not one is said in words, not as a schema's complaint.
    const malformed = await get(`/api/security/leafletview/reference/${refId}?sessionid=x`);
    expect(malformed.statusCode).toBe(400);
    expect(malformed.data.message).toMatch(/not a search id/);
    expect(malformed.data.message).not.toMatch(/UUID/);

    const noSession = await get(`/api/security/leafletview/reference/${refId}?inSearchOnly=true`);
    expect(noSession.statusCode).toBe(400);
    expect(noSession.data.message).toMatch(/needs the search session/);

    await t.call({ method: 'POST', url: '/api/dashboard/dropunloggedtables', headers: authHeaders(me), payload: { sessionid } });
    const dropped = await reference(refId, `?sessionid=${sessionid}`);
    expect(dropped.session).toMatchObject({ status: 'dropped', ready: false });
    expect(dropped.compounds.inSearch).toBeNull();
    const filterDropped = await get(`/api/security/leafletview/reference/${refId}?sessionid=${sessionid}&inSearchOnly=true`);
    expect(filterDropped.statusCode).toBe(400);
    expect(filterDropped.data.message).toMatch(/results are kept; this one is dropped/);
  });

  // ------------------------------------------------------------ measurement list

  /** A structure and target with the most measurements of one chunk, and its leaflet. */
  const busiest = async () =>
    one(sql<{
      str_id: number;
      target_id: number;
      n: number;
    }>`SELECT str_id::int AS str_id, target_id::int AS target_id, count(*)::int AS n FROM activities
      WHERE target_id IS NOT NULL GROUP BY str_id, target_id ORDER BY count(*) DESC, str_id, target_id LIMIT 1`);

  it('lists every measurement of a structure on a target: counts as SQL counts them, by type, sorted and paged on the server', async () => {
    const { str_id: strId, target_id: targetId } = await busiest();
    const expected = await all(sql<{
      act_id: number;
      type: string | null;
    }>`SELECT act_id::int AS act_id, std_activity_type AS type FROM activities
      WHERE str_id = ${strId} AND target_id = ${targetId}
      ORDER BY micro_molarvalue ASC NULLS LAST, activity_value ASC NULLS LAST, act_id ASC`);
    const list = await measurements(`id=${strId}&targetId=${targetId}&pageSize=${MEASUREMENT_LIMITS.maxPageSize}`);
    expect(list.total).toBe(expected.length);
    expect(list.matching).toBe(expected.length);
    expect(list.targetScope).toBe('target');
    expect(list.target?.target_id).toBe(targetId);
    expect(list.compound).toMatchObject({ idType: 'structure', id: strId, str_id: strId, link: `/leaflet/structure/${strId}` });
    expect(list.rows.map((r) => r.act_id)).toEqual(expected.slice(0, MEASUREMENT_LIMITS.maxPageSize).map((r) => r.act_id));
    const byType = new Map<string | null, number>();
    for (const row of expected) byType.set(row.type, (byType.get(row.type) ?? 0) + 1);
    expect(new Map(list.types.map((t) => [t.type, t.count]))).toEqual(byType);

    // The compound leaflet's group of this target counts the same measurements.
    const leaflet = await compound(strId);
    expect(leaflet.activities.groups.find((g) => g.target_id === targetId)?.activity_count).toBe(list.total);

    // Pages of 2 in pChEMBL order, best first, join up to the SQL order.
    const byPchembl = await all(sql<{
      act_id: number;
    }>`SELECT act_id::int AS act_id FROM activities WHERE str_id = ${strId} AND target_id = ${targetId}
      ORDER BY pchembl_value DESC NULLS LAST, act_id DESC`);
    const first = await measurements(`id=${strId}&targetId=${targetId}&sort=pchembl&direction=desc&pageSize=2&page=0`);
    const second = await measurements(`id=${strId}&targetId=${targetId}&sort=pchembl&direction=desc&pageSize=2&page=1`);
    expect([...first.rows, ...second.rows].map((r) => r.act_id)).toEqual(byPchembl.slice(0, 4).map((r) => r.act_id));

    // One type only.
    const [type, count] = [...byType.entries()].find(([name]) => name !== null)!;
    const typed = await measurements(`id=${strId}&targetId=${targetId}&type=${encodeURIComponent(type!)}`);
    expect([typed.total, typed.matching, typed.type]).toEqual([expected.length, count, type]);
    expect(typed.rows.every((r) => r.std_activity_type === type)).toBe(true);

    // One assay only (a sheet's assay column), on every target: counted as SQL counts them.
    const [assay] = await all(sql<{ assay_id: number; n: number }>`SELECT assay_id::int AS assay_id, count(*)::int AS n FROM activities
      WHERE str_id = ${strId} AND assay_id IS NOT NULL GROUP BY assay_id ORDER BY count(*) DESC, assay_id LIMIT 1`);
    const byAssay = await measurements(`id=${strId}&targetId=all&assayId=${assay!.assay_id}&pageSize=${MEASUREMENT_LIMITS.maxPageSize}`);
    expect([byAssay.total, byAssay.assayId]).toEqual([assay!.n, assay!.assay_id]);
    expect(byAssay.rows.every((r) => r.assay_id === assay!.assay_id)).toBe(true);
    expect(list.assayId).toBeNull();
  });

  it('shows what a chemist reads a measurement by: published and standard values, assay, organism, cell line, conditions, the reference’s permanent link', async () => {
    const { str_id: strId, target_id: targetId } = await busiest();
    const list = await measurements(`id=${strId}&targetId=${targetId}&sort=measurement`);
    const first = list.rows[0]!;
    const row = await one(sql<
      Record<string, unknown>
    >`SELECT a.std_activity_type, a.std_act_prefix, a.activity_value, a.standard_uom, a.pchembl_value,
        a.activity_type, a.activity, a.activity_uom, ay.assay_type, ay.description AS assay_description, ay.organism, a.ref_id::int AS ref_id, d.year
      FROM activities a LEFT JOIN assays ay ON ay.assay_id = a.assay_id LEFT JOIN documents d ON d.ref_id = a.ref_id WHERE a.act_id = ${first.act_id}`);
    expect(first).toMatchObject(row);
    expect(first.reference_link).toBe(`/leaflet/reference/${row.ref_id}`);

    // An assay's cell line, pH, temperature and a ChEMBL assay parameter are its conditions.
    await sql`UPDATE assays SET cells_cellline_organ = 'HEK293', ph = 7.4, temperature = 37, temperature_uom = 'degrees C' WHERE assay_id = ${first.assay_id}`.execute(
      t.database.db,
    );
    await sql`INSERT INTO assay_parameters (assay_id, param_type, relation, value, units) VALUES (${first.assay_id}, 'DOSE', '=', 1, 'uM')`.execute(
      t.database.db,
    );
    const again = (await measurements(`id=${strId}&targetId=${targetId}&sort=measurement`)).rows.find((r) => r.act_id === first.act_id)!;
    expect(again.cell_line).toBe('HEK293');
    expect(again.conditions).toEqual(
      expect.arrayContaining([
        { label: 'pH', relation: null, value: 7.4, unit: null, text: null },
        expect.objectContaining({ label: 'Temperature', value: 37, unit: 'degrees C' }),
        { label: 'DOSE', relation: '=', value: 1, unit: 'uM', text: null },
      ]),
    );
  });

  it('opens the same list from an activity (actId), lists the activities without a target (targetId=none) and all of a compound', async () => {
    const { str_id: strId, target_id: targetId } = await busiest();
    const { act_id: actId } = await one(
      sql<{ act_id: number }>`SELECT min(act_id)::int AS act_id FROM activities WHERE str_id = ${strId} AND target_id = ${targetId}`,
    );
    const byActivity = await measurements(`actId=${actId}`);
    const byIds = await measurements(`id=${strId}&targetId=${targetId}`);
    expect(byActivity).toEqual(byIds);

    const noTarget = await one(sql<{
      str_id: number;
      n: number;
    }>`SELECT str_id::int AS str_id, count(*)::int AS n FROM activities WHERE target_id IS NULL
      GROUP BY str_id ORDER BY count(*) DESC, str_id LIMIT 1`);
    const none = await measurements(`id=${noTarget.str_id}&targetId=none`);
    expect([none.targetScope, none.target, none.total]).toEqual(['none', null, noTarget.n]);
    expect(none.rows.every((r) => r.target_id === null)).toBe(true);

    const everything = await one(sql<{ n: number }>`SELECT count(*)::int AS n FROM activities WHERE str_id = ${strId}`);
    const allOf = await measurements(`id=${strId}`);
    expect([allOf.targetScope, allOf.total]).toEqual(['all', everything.n]);
    expect((await compound(strId)).activities.total).toBe(everything.n);
  });

  it('answers 404 for unknown ids, 400 for malformed ones, and 403 for a role without leaflets', async () => {
    const { str_id: strId } = await busiest();
    const cases: Array<[string, number, RegExp]> = [
      ['id=987654321', 404, /No structure with id 987654321/],
      ['id=987654321&idType=compound', 404, /No compound record with id 987654321/],
      ['actId=987654321', 404, /No activity with id 987654321/],
      [`id=${strId}&targetId=987654321`, 404, /No target with id 987654321/],
      ['id=abc', 400, /whole number above zero/],
      [`id=${strId}&targetId=egfr`, 400, /targetId must be a target id/],
      [`id=${strId}&actId=1`, 400, /one of the two/],
      ['targetId=1', 400, /one of the two/],
      [`id=${strId}&sort=potency`, 400, /sort must be one of/],
      [`id=${strId}&pageSize=100000`, 400, /pageSize is at most/],
      [`id=${strId}&idType=gene`, 400, /idType must be structure, compound or dcm/],
    ];
    for (const [query, status, message] of cases) {
      const answer = await get(`/api/security/leafletview/measurements?${query}`);
      expect(answer.statusCode, query).toBe(status);
      expect(answer.data.message, query).toMatch(message);
    }
    for (const role of ['PARTIAL_USER', 'FLAT_FILE_ONLY'] as const) {
      const login = await t.login(demoEmailForRole(role));
      expect((await get(`/api/security/leafletview/measurements?id=${strId}`, login)).statusCode, role).toBe(403);
    }
    // Leaflet roles without exports may read the list but not export it.
    expect((await get(`/api/security/leafletview/measurements?id=${strId}`, other)).statusCode).toBe(200);
    const refused = await t.call({
      method: 'POST',
      url: '/api/security/leafletview/measurements/export',
      headers: authHeaders(other),
      payload: { id: strId, format: 'csv' },
    });
    expect(refused.statusCode).toBe(403);
  });

  it('exports a measurement list as CSV through the export jobs: one credit a row, units as stored, the permanent links; 409 when the price changed', async () => {
    const { str_id: strId, target_id: targetId } = await busiest();
    const list = await measurements(`id=${strId}&targetId=${targetId}`);
    const balance = async () =>
      (await one(sql<{ credit_balance: number }>`SELECT credit_balance FROM users WHERE email = ${me.username}`)).credit_balance;
    const before = await balance();
    const post = (payload: object) =>
      t.call({ method: 'POST', url: '/api/security/leafletview/measurements/export', headers: authHeaders(me), payload });

    const changed = await post({ id: strId, targetId, format: 'csv', expectedCredits: list.total + 1 });
    expect(changed.statusCode).toBe(409);
    expect(await balance()).toBe(before);

    const started = await post({ id: strId, targetId, format: 'csv', expectedCredits: list.total });
    expect(started.statusCode, started.body).toBe(200);
    expect(started.data).toMatchObject({
      source: 'measurements',
      tab: 'activitiestab',
      status: 'done',
      rows: list.total,
      credits: list.total,
    });
    expect(await balance()).toBe(before - list.total);
    const file = await t.call({
      method: 'POST',
      url: '/api/dashboard/downloadfile',
      headers: authHeaders(me),
      payload: { fileId: started.data.fileId },
    });
    const records = parse(file.body.replace(/^\uFEFF/, ''), { columns: true }) as Record<string, string>[];
    expect(records.map((r) => Number(r['Activity id']))).toEqual(
      (await measurements(`id=${strId}&targetId=${targetId}&pageSize=${MEASUREMENT_LIMITS.maxPageSize}`)).rows.map((r) => r.act_id),
    );
    const stored = await all(
      sql<{
        standard_uom: string | null;
        std_act_prefix: string | null;
      }>`SELECT DISTINCT standard_uom, std_act_prefix FROM activities WHERE str_id = ${strId} AND target_id = ${targetId}`,
    );
    expect(new Set(records.map((r) => r.Unit || null))).toEqual(new Set(stored.map((r) => r.standard_uom)));
    // The one CSV cell rule (contracts csv.ts): a relation "=" is written "'=", never as a formula.
    expect(new Set(records.map((r) => r.Relation || null))).toEqual(
      new Set(stored.map((r) => (r.std_act_prefix === '=' ? "'=" : r.std_act_prefix))),
    );
    expect(records.some((r) => r.Relation === "'=")).toBe(true);
    expect(
      records.every((r) => r['Reference leaflet'] === '' || /^https?:\/\/[^/]+\/leaflet\/reference\/\d+$/.test(r['Reference leaflet']!)),
    ).toBe(true);
    const history = await get('/api/exportlogs/export');
    const logged = (history.data.rows as { exportId: number; description: string }[]).find(
      (row) => row.exportId === Number(started.data.id),
    );
    expect(logged?.description).toMatch(/^Measurements of .+ on .+ · CSV$/);
  });

  it('refuses to export more than the cap and names what to do', async () => {
    const { str_id: strId } = await busiest();
    const { target_id: targetId } = await one(
      sql<{
        target_id: number;
      }>`INSERT INTO targets (name, target_type, organism) VALUES ('DEMO crowded target', 'SINGLE PROTEIN', 'Homo sapiens') RETURNING target_id::int AS target_id`,
    );
    await sql`INSERT INTO activities (str_id, target_id, std_activity_type, std_act_prefix, activity_value, standard_uom, micro_molarvalue)
      SELECT ${strId}, ${targetId}, 'IC50', '=', g, 'nM', g / 1000.0 FROM generate_series(1, ${MEASUREMENT_LIMITS.maxExportRows + 1}) g`.execute(
      t.database.db,
    );
    const list = await measurements(`id=${strId}&targetId=${targetId}&pageSize=3`);
    expect([list.total, list.rows.map((r) => r.activity_value)]).toEqual([MEASUREMENT_LIMITS.maxExportRows + 1, [1, 2, 3]]);
    const refused = await t.call({
      method: 'POST',
      url: '/api/security/leafletview/measurements/export',
      headers: authHeaders(me),
      payload: { id: strId, targetId, format: 'csv' },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.data.message).toMatch(/at most 25,000 rows; this list has 25,001/);
  });

  it('shows measured solubility, logD and pKa in the properties, with their reference', async () => {
    const measured = await one(
      sql<{
        str_id: number;
      }>`SELECT min(str_id)::int AS str_id FROM activities WHERE std_activity_type ~* ${MEASURED_PROPERTY_PATTERNS.solubility}`,
    );
    const leaflet = await compound(measured.str_id);
    for (const [key, pattern] of Object.entries(MEASURED_PROPERTY_PATTERNS)) {
      const rows = await all(
        sql<{
          act_id: number;
        }>`SELECT act_id::int AS act_id FROM activities WHERE str_id = ${measured.str_id} AND std_activity_type ~* ${pattern} ORDER BY act_id`,
      );
      const property = leaflet.measured.find((m) => m.property === key);
      if (rows.length === 0) {
        expect(property, key).toBeUndefined();
        continue;
      }
      expect(property?.count, key).toBe(rows.length);
      expect(
        property?.values.map((v) => v.act_id),
        key,
      ).toEqual(rows.slice(0, LEAFLET_LIMITS.measuredValues).map((r) => r.act_id));
    }
    const solubility = leaflet.measured.find((m) => m.property === 'solubility')!.values[0]!;
    expect(solubility).toMatchObject({ std_activity_type: 'Solubility', standard_uom: 'uM' });
    expect(solubility.reference).toBeTruthy();
  });

  it('caps a large reference’s activities at the limit and still counts them all', async () => {
    const { ref_id: refId } = await one(
      sql<{
        ref_id: number;
      }>`INSERT INTO documents (ref_type, title, year) VALUES ('journal', '[DEMO] Large screen', 2024) RETURNING ref_id`,
    );
    const strIds = (await all(sql<{ str_id: number }>`SELECT str_id FROM structures ORDER BY str_id DESC LIMIT 3`))
      .map((r) => r.str_id)
      .sort(byNumber);
    const extra = LEAFLET_LIMITS.referenceActivities + 100;
    await sql`INSERT INTO activities (str_id, ref_id, std_activity_type, std_act_prefix, activity_value, standard_uom, micro_molarvalue)
      SELECT (${strIds}::bigint[])[1 + g % 3], ${refId}, 'IC50', '=', g, 'nM', g / 1000.0 FROM generate_series(1, ${extra}) g`.execute(
      t.database.db,
    );
    const leaflet = await reference(refId);
    expect(leaflet.activities.total).toBe(extra);
    expect(leaflet.activities.rows).toHaveLength(LEAFLET_LIMITS.referenceActivities);
    expect(leaflet.compounds.rows.map((c) => c.str_id)).toEqual(strIds);
    const strOrder = leaflet.activities.rows.map((a) => a.str_id ?? Number.MAX_SAFE_INTEGER);
    expect(strOrder).toEqual([...strOrder].sort(byNumber));
    const onStructure = await compound(strIds[0]!);
    expect(onStructure.references.rows[0]).toMatchObject({ ref_id: refId, title: '[DEMO] Large screen' });
  });
});
