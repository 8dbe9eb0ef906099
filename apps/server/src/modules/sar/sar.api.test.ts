import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import ExcelJS from 'exceljs';
import initRDKitModule from '@rdkit/rdkit';
import type { SearchCriteriaInput } from '@kb/contracts/search';
import { demoEmailForRole } from '@kb/contracts/roles';
import type { LoginResult } from '@kb/contracts/auth';
import type { SarCoresResponse, SarData, SarTable } from '@kb/contracts/sar';
import type { SarCliffsResponse } from '@kb/contracts/sar-cliffs';
import type { SarPairsResponse } from '@kb/contracts/sar-pairs';
import type { ExportJob } from '@kb/contracts/exports';
import { DATABASES, authHeaders, startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';

/**
 * The SAR view's calls on the demo knowledge base (docs/sar.md): the SAR set of a session, its
 * endpoints, values against plain SQL computed here, the table, cliffs, pairs, virtual compounds,
 * progress and cancel, the export and its credits, access and the 5,000-compound limit.
 */

type Json = Record<string, unknown>;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** pActivity written here independently of the service: pChEMBL, else −log10 molar of an exact nM/µM value. */
function pActivity(row: {
  pchembl_value: number | null;
  activity_value: number | null;
  standard_uom: string | null;
  std_act_prefix: string | null;
}): number | null {
  if (row.pchembl_value != null) return Number(row.pchembl_value);
  if (row.activity_value == null || (row.std_act_prefix ?? '=') !== '=') return null;
  const exponent = { nM: 9, uM: 6, µM: 6, mM: 3, M: 0 }[row.standard_uom ?? ''];
  return exponent === undefined ? null : exponent - Math.log10(Number(row.activity_value));
}

function popcount(bytes: Uint8Array): number {
  let n = 0;
  for (const byte of bytes) for (let b = byte; b; b &= b - 1) n++;
  return n;
}

function tanimoto(a: Uint8Array, b: Uint8Array): number {
  const both = popcount(a.map((byte, i) => byte & b[i]!));
  const either = popcount(a) + popcount(b) - both;
  return either ? both / either : 0;
}

describe.each(DATABASES)('SAR view on %s', (kind) => {
  let t: TestApp;
  let me: LoginResult;
  let evaluator: LoginResult;
  let sessionid: string;
  let setId: number;
  let endpoint: { targetId: number; activityType: string };
  const post = (url: string, payload: unknown, login: LoginResult = me) =>
    t.call({ method: 'POST', url, headers: authHeaders(login), payload: payload as object });
  const get = (url: string, login: LoginResult = me) => t.call({ method: 'GET', url, headers: authHeaders(login) });
  const rows = async <T>(query: ReturnType<typeof sql<T>>) => (await query.execute(t.database.db)).rows;
  const run = async (criteria: SearchCriteriaInput, login: LoginResult = me) => {
    const id = crypto.randomUUID();
    const answer = await post('/api/guidedsearch/allresultscount', { searchcriteria: criteria, sessionid: id }, login);
    expect(answer.statusCode, answer.body).toBe(200);
    const row = await t.database.db.selectFrom('search_sessions').select('set_id').where('id', '=', id).executeTakeFirstOrThrow();
    return { id, setId: Number(row.set_id), counts: (answer.data.rows as Record<string, number>[])[0]! };
  };
  const byTarget = (targetId: number): SearchCriteriaInput => ({
    rows: [{ selectedOption: 'target', targets: [{ label: `target ${targetId}`, ids: [targetId] }] }],
  });
  const setAll = async (id = sessionid, login: LoginResult = me) => {
    const answer = await post('/api/results/setSarData', { sessionid: id, tab: 'activitiestab' }, login);
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.data as unknown as SarData;
  };
  let suggested: SarCoresResponse | null = null;
  let coresMs = 0;
  /**
   * The most frequent suggested scaffold larger than one ring (a lone benzene is the commonest
   * Murcko scaffold of the demo series, and decomposing on it says little).
   */
  const topCore = async () => {
    if (!suggested) {
      const started = performance.now();
      const answer = await post('/api/sar/cores', { sessionid, endpoint });
      expect(answer.statusCode, answer.body).toBe(200);
      suggested = answer.data as unknown as SarCoresResponse;
      coresMs = performance.now() - started;
    }
    return suggested.cores.find((core) => core.source === 'scaffold' && core.text.length > 'c1ccccc1'.length && core.compounds >= 20)!;
  };
  const table = async (login: LoginResult = me, id = sessionid) => {
    const core = await topCore();
    const answer = await post('/api/sar/table', { sessionid: id, endpoint, cores: [{ kind: 'smiles', text: core.text }] }, login);
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.data as unknown as SarTable;
  };

  beforeAll(async () => {
    // Six chunks: 6,000 structures, enough for a session over the 5,000-compound limit.
    t = await startTestApp(kind, {}, { demoChunks: 6 });
    me = await t.login(demoEmailForRole('FULL_USER'));
    evaluator = await t.login(demoEmailForRole('EVALUATE_USER'));
    // The target · IC50 with the most compounds that have a pChEMBL: a series around shared scaffolds.
    const [top] = await rows(sql<{ target_id: number }>`SELECT target_id FROM activities
      WHERE target_id IS NOT NULL AND std_activity_type = 'IC50' AND pchembl_value IS NOT NULL
      GROUP BY target_id ORDER BY count(DISTINCT str_id) DESC, target_id LIMIT 1`);
    endpoint = { targetId: Number(top!.target_id), activityType: 'IC50' };
    ({ id: sessionid, setId } = await run(byTarget(endpoint.targetId)));
  }, 300_000);
  afterAll(() => t?.close());

  it('answers 404 before setSarData, then the whole Activities tab with its endpoints, most compounds first', async () => {
    expect((await get(`/api/sar/data/${sessionid}`)).statusCode).toBe(404);
    const data = await setAll();
    const [expected] = await rows(
      sql<{
        acts: number;
        strs: number;
      }>`SELECT count(*)::int AS acts, count(DISTINCT str_id)::int AS strs FROM search_activities WHERE set_id = ${setId}::bigint`,
    );
    expect(data).toMatchObject({ sessionid, tab: 'activitiestab', compounds: expected!.strs, activities: expected!.acts });
    const counts = data.endpoints.map((e) => e.compounds);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    const ic50 = data.endpoints.find((e) => e.targetId === endpoint.targetId && e.activityType === 'IC50');
    const [sqlIc50] = await rows(sql<{
      n: number;
    }>`SELECT count(DISTINCT a.str_id)::int AS n FROM search_activities sa JOIN activities a USING (act_id)
      WHERE sa.set_id = ${setId}::bigint AND a.target_id = ${endpoint.targetId} AND a.std_activity_type = 'IC50' AND (a.pchembl_value IS NOT NULL OR a.activity_value IS NOT NULL)`);
    expect(ic50).toMatchObject({ compounds: sqlIc50!.n, molar: true });
    expect((await get(`/api/sar/data/${sessionid}`)).data).toEqual(data);
  }, 120_000);

  it('takes ticked rows of either tab: structures bring all their activities in the search, activities their structures', async () => {
    const structures = await rows(
      sql<{ str_id: number }>`SELECT str_id FROM search_structures WHERE set_id = ${setId}::bigint ORDER BY str_id LIMIT 3`,
    );
    const strIds = structures.map((s) => Number(s.str_id));
    const fromStructures = await post('/api/results/setSarData', {
      sessionid,
      tab: 'structuretab',
      selection: { selectAll: false, selectedIds: strIds, unselectedIds: [] },
    });
    expect(fromStructures.statusCode, fromStructures.body).toBe(200);
    const [acts] = await rows(
      sql<{
        n: number;
      }>`SELECT count(*)::int AS n FROM search_activities WHERE set_id = ${setId}::bigint AND str_id = ANY(${strIds}::bigint[])`,
    );
    expect(fromStructures.data).toMatchObject({ tab: 'structuretab', compounds: 3, activities: acts!.n });

    const activities = await rows(
      sql<{
        act_id: number;
        str_id: number;
      }>`SELECT act_id, str_id FROM search_activities WHERE set_id = ${setId}::bigint ORDER BY act_id LIMIT 7`,
    );
    const fromActivities = await post('/api/results/setSarData', {
      sessionid,
      tab: 'activitiestab',
      selection: { selectAll: false, selectedIds: activities.map((a) => Number(a.act_id)), unselectedIds: [] },
    });
    expect(fromActivities.statusCode, fromActivities.body).toBe(200);
    expect(fromActivities.data).toMatchObject({ compounds: new Set(activities.map((a) => Number(a.str_id))).size, activities: 7 });
    // The next setSarData replaced the earlier one.
    expect((await get(`/api/sar/data/${sessionid}`)).data).toMatchObject({ tab: 'activitiestab', activities: 7 });

    const allStructures = await post('/api/results/setSarData', { sessionid, tab: 'structuretab', selection: null });
    const [all] = await rows(sql<{
      strs: number;
      acts: number;
    }>`SELECT (SELECT count(*)::int FROM search_structures WHERE set_id = ${setId}::bigint) AS strs,
      (SELECT count(*)::int FROM search_activities WHERE set_id = ${setId}::bigint) AS acts`);
    expect(allStructures.data).toMatchObject({ compounds: all!.strs, activities: all!.acts });
    expect(
      (
        await post('/api/results/setSarData', {
          sessionid,
          tab: 'structuretab',
          selection: { selectAll: false, selectedIds: [], unselectedIds: [] },
        })
      ).statusCode,
    ).toBe(400);
  }, 120_000);

  it('refuses another user’s session with 403', async () => {
    expect((await post('/api/results/setSarData', { sessionid, tab: 'activitiestab' }, evaluator)).statusCode).toBe(403);
    expect((await get(`/api/sar/data/${sessionid}`, evaluator)).statusCode).toBe(403);
    expect(
      (await post('/api/sar/table', { sessionid, endpoint, cores: [{ kind: 'smiles', text: 'c1ccccc1' }] }, evaluator)).statusCode,
    ).toBe(403);
    expect((await post('/api/sar/cliffs', { sessionid, endpoint }, evaluator)).statusCode).toBe(403);
    // Progress and cancel too, as the search's own do (they answered 200 "idle" before).
    for (const other of [
      await get(`/api/sar/progress/${sessionid}`, evaluator),
      await post(`/api/sar/cancel/${sessionid}`, {}, evaluator),
    ]) {
      expect(other.statusCode).toBe(403);
      expect(other.data.message).toBe('This search session belongs to another user.');
    }
    // An unknown session is idle, and the owner's own answers stay 200.
    expect((await get(`/api/sar/progress/${crypto.randomUUID()}`, evaluator)).data).toEqual({
      running: false,
      phase: 'idle',
      done: 0,
      total: 0,
    });
    expect((await get(`/api/sar/progress/${sessionid}`)).statusCode).toBe(200);
  }, 120_000);

  it('decomposes the endpoint’s compounds on a suggested scaffold, with values equal to the activities’ SQL', async () => {
    await setAll();
    const core = await topCore();
    expect(core.compounds).toBeGreaterThanOrEqual(5);
    const result = await table();
    expect(result.endpoint).toMatchObject({ targetId: endpoint.targetId, activityType: 'IC50', unit: 'pActivity', molar: true });
    expect(result.rows.length).toBeGreaterThanOrEqual(5);
    expect(result.labels.length).toBeGreaterThan(0);
    expect(result.labels).toEqual([...result.labels].sort((a, b) => Number(a.slice(1)) - Number(b.slice(1))));
    for (const row of result.rows) for (const label of Object.keys(row.rgroups)) expect(result.labels).toContain(label);
    expect(result.cores[0]!.smiles).toMatch(/\*/);

    const measured = await rows(sql<{
      str_id: number;
      pchembl_value: number | null;
      activity_value: number | null;
      standard_uom: string | null;
      std_act_prefix: string | null;
    }>`
      SELECT a.str_id, a.pchembl_value, a.activity_value, a.standard_uom, a.std_act_prefix FROM search_activities sa JOIN activities a USING (act_id)
      WHERE sa.set_id = ${setId}::bigint AND a.target_id = ${endpoint.targetId} AND a.std_activity_type = 'IC50'`);
    const expected = new Map<number, number[]>();
    for (const m of measured) {
      const p = pActivity(m);
      if (p != null) expected.set(Number(m.str_id), [...(expected.get(Number(m.str_id)) ?? []), p]);
    }
    expect(result.rows.length + result.unmatched.length).toBe(expected.size);
    const facts = new Map(
      (
        await rows(
          sql<{
            str_id: number;
            heavy_atoms: number;
            logp_calc: number;
          }>`SELECT str_id, heavy_atoms, logp_calc FROM structures WHERE str_id = ANY(${[...expected.keys()]}::bigint[])`,
        )
      ).map((f) => [Number(f.str_id), f]),
    );
    for (const row of [...result.rows, ...result.unmatched]) {
      const values = expected.get(row.strId)!;
      expect(row.activity.value).toBeCloseTo(median(values), 6);
      expect(row.activity).toMatchObject({ n: values.length });
      expect(row.activity.min).toBeCloseTo(Math.min(...values), 6);
      expect(row.activity.max).toBeCloseTo(Math.max(...values), 6);
    }
    for (const row of result.rows) {
      const f = facts.get(row.strId)!;
      expect(row.le).toBeCloseTo((1.37 * row.activity.value) / Number(f.heavy_atoms), 2);
      expect(row.lipe).toBeCloseTo(row.activity.value - Number(f.logp_calc), 1);
    }
    for (const row of result.unmatched) expect(row.reason).toBe('does not contain the core');
    expect(result.freeWilson !== null || result.freeWilsonNote !== null).toBe(true);
    if (result.freeWilson) expect(result.freeWilson.compounds).toBeLessThanOrEqual(result.rows.length);
  }, 120_000);

  it('sets a second endpoint read from every measurement of the compounds beside the first, with a difference column equal to the activities’ medians', async () => {
    const data = await setAll();
    // The search named one target: its rows know no other, every measurement of its compounds does.
    expect(data.endpoints.every((e) => e.scope === 'set')).toBe(true);
    expect(data.measuredEndpoints.every((e) => e.scope === 'knowledgeBase')).toBe(true);
    // The other target · type on which most compounds of the one-endpoint table were measured (the demo series are measured on several).
    const core = await topCore();
    const single = await table();
    const [most] = await rows(sql<{ target_id: number; std_activity_type: string }>`SELECT target_id, std_activity_type FROM activities
      WHERE str_id = ANY(${single.rows.map((r) => r.strId)}::bigint[]) AND target_id <> ${endpoint.targetId} AND pchembl_value IS NOT NULL
      GROUP BY target_id, std_activity_type ORDER BY count(DISTINCT str_id) DESC, target_id LIMIT 1`);
    expect(most, 'compounds of the table measured on another target').toBeDefined();
    const other = data.measuredEndpoints.find((e) => e.targetId === Number(most!.target_id) && e.activityType === most!.std_activity_type);
    expect(other).toMatchObject({ molar: true, scope: 'knowledgeBase' });
    expect(data.endpoints.some((e) => e.targetId === other!.targetId)).toBe(false);
    const second = { targetId: other!.targetId, activityType: other!.activityType, scope: 'knowledgeBase' as const };
    const body = {
      sessionid,
      endpoint,
      moreEndpoints: [second],
      differences: [{ a: 0, b: 1 }],
      cores: [{ kind: 'smiles', text: core.text }],
    };
    const answer = await post('/api/sar/table', body);
    expect(answer.statusCode, answer.body).toBe(200);
    const result = answer.data as unknown as SarTable;
    expect(result.endpoints.map((e) => [e.targetId, e.activityType, e.scope])).toEqual([
      [endpoint.targetId, 'IC50', 'set'],
      [second.targetId, second.activityType, 'knowledgeBase'],
    ]);
    expect(result.differences[0]!.label).toContain(' − ');

    // Independently: every activity of the SAR set's structures on the second target, pActivity by hand, median per compound.
    const measured = await rows(sql<{
      str_id: number;
      pchembl_value: number | null;
      activity_value: number | null;
      standard_uom: string | null;
      std_act_prefix: string | null;
    }>`
      SELECT a.str_id, a.pchembl_value, a.activity_value, a.standard_uom, a.std_act_prefix FROM sar_set_structures x JOIN activities a ON a.str_id = x.str_id
      WHERE x.set_id = ${setId}::bigint AND a.target_id = ${second.targetId} AND a.std_activity_type = ${second.activityType}`);
    const byCompound = new Map<number, number[]>();
    for (const m of measured) {
      const p = pActivity(m);
      if (p != null) byCompound.set(Number(m.str_id), [...(byCompound.get(Number(m.str_id)) ?? []), p]);
    }
    let both = 0;
    for (const row of result.rows) {
      expect(row.values[0]).toEqual(row.activity);
      const values = byCompound.get(row.strId);
      if (!values) {
        expect(row.values[1]).toBeNull();
        expect(row.differences[0]).toBeNull();
        continue;
      }
      both++;
      expect(row.values[1]!.value).toBeCloseTo(median(values), 6);
      expect(row.values[1]!.n).toBe(values.length);
      expect(row.differences[0]).toBeCloseTo(row.activity.value - median(values), 6);
    }
    expect(both, 'compounds measured on both targets').toBeGreaterThan(0);
    // A fit of the difference and of the second endpoint, each over the compounds that have one.
    expect(result.fits.map((f) => f.measure)).toEqual([
      { kind: 'endpoint', index: 1 },
      { kind: 'difference', index: 0 },
    ]);
    for (const fit of result.fits) expect(fit.freeWilson !== null || fit.note !== null).toBe(true);

    // The export carries both endpoints and the difference, labelled.
    const { sarExportRows } = await import('./sar-export.ts');
    const exported = sarExportRows(result);
    expect(exported.columns.map((c) => c.key)).toEqual(expect.arrayContaining(['value', 'value_2', 'n_2', 'difference_1']));
    expect(exported.columns.find((c) => c.key === 'difference_1')!.label).toMatch(/^Δ pActivity IC50 on .+ − .+/);

    // Bad choices are refused in words.
    const twice = await post('/api/sar/table', { ...body, moreEndpoints: [{ targetId: endpoint.targetId, activityType: 'IC50' }] });
    expect(twice.statusCode).toBe(400);
    expect(twice.data.message).toMatch(/already in the table/);
    const beyond = await post('/api/sar/table', { ...body, differences: [{ a: 0, b: 2 }] });
    expect(beyond.statusCode).toBe(400);
    expect(beyond.data.message).toMatch(/names endpoint 3, and the table has 2/);
    const same = await post('/api/sar/table', { ...body, differences: [{ a: 1, b: 1 }] });
    expect(same.statusCode).toBe(400);
    const five = await post('/api/sar/table', { ...body, moreEndpoints: [second, second, second, second] });
    expect(five.statusCode).toBe(400);
    expect(five.data.message).toMatch(/At most 4 endpoints/);
  }, 120_000);

  it('answers an invalid core with 400 and RDKit’s message', async () => {
    await setAll();
    const answer = await post('/api/sar/table', { sessionid, endpoint, cores: [{ kind: 'smiles', text: 'C1CC(' }] });
    expect(answer.statusCode).toBe(400);
    expect(answer.data.message).toMatch(/RDKit could not read the SMILES "C1CC\("/);
  }, 120_000);

  it('takes a core drawn as a molfile with a blank first line, as Ketcher writes it: the rows of its SMILES', async () => {
    await setAll();
    const bySmiles = await table();
    const rd = await initRDKitModule();
    const mol = rd.get_mol((await topCore()).text)!;
    const molfile = mol.get_molblock();
    mol.delete();
    expect(molfile.split('\n')[0]!.trim()).toBe('');
    const answer = await post('/api/sar/table', { sessionid, endpoint, cores: [{ kind: 'molfile', text: molfile }] });
    expect(answer.statusCode, answer.body).toBe(200);
    const byMolfile = answer.data as unknown as SarTable;
    expect(byMolfile.rows.map((row) => row.strId).sort((a, b) => a - b)).toEqual(
      bySmiles.rows.map((row) => row.strId).sort((a, b) => a - b),
    );
  }, 120_000);

  it('suggests the same cores again from the scaffold cache', async () => {
    const first = await topCore();
    expect(first).toBeDefined();
    const started = performance.now();
    const again = await post('/api/sar/cores', { sessionid, endpoint });
    const cachedMs = performance.now() - started;
    expect(again.statusCode, again.body).toBe(200);
    const second = again.data as unknown as SarCoresResponse;
    expect(second.compounds).toBe(suggested!.compounds);
    // The most covering core first, whatever its source.
    const coverage = second.cores.map((c) => c.compounds);
    expect(coverage).toEqual([...coverage].sort((x, y) => y - x));
    // The scaffolds and their coverage; the MCS may differ when its time limit stops it.
    expect(second.cores.filter((c) => c.source === 'scaffold')).toEqual(suggested!.cores.filter((c) => c.source === 'scaffold'));
    const stored = await rows(sql<{ n: number }>`SELECT count(*)::int AS n FROM structure_scaffolds`);
    expect(stored[0]!.n).toBeGreaterThanOrEqual(suggested!.compounds);
    console.log(
      `${kind}: suggested cores of ${suggested!.compounds} compounds: ${Math.round(coresMs)} ms (scaffolds computed), ${Math.round(cachedMs)} ms (scaffold cache)`,
    );
  });

  it('refuses a cliffs core over the structure limits or unreadable by RDKit with a 400 naming the core, as the SAR table does', async () => {
    await setAll();
    const cliffs = (core: string) =>
      post('/api/sar/cliffs', { sessionid, endpoint, core, minSimilarity: 0.5, minDelta: 0.5, limit: 60, offset: 0, pageSize: 50 });
    const tooLarge = await cliffs('C'.repeat(300));
    expect(tooLarge.statusCode, tooLarge.body).toBe(400);
    expect(tooLarge.data.message).toBe('Core: The query has 300 atoms; a structure query may have at most 250.');
    const deep = await cliffs(`C${'(C'.repeat(40)}${')'.repeat(40)}`);
    expect(deep.statusCode, deep.body).toBe(400);
    expect(deep.data.message).toBe('Core: The SMILES nests branches 40 deep; a structure query may nest them at most 32 deep.');
    // Within the limits but not a molecule: RDKit's own refusal.
    const unreadable = await cliffs('C1CC[*:1]');
    expect(unreadable.statusCode, unreadable.body).toBe(400);
    expect(unreadable.data.message).toMatch(/^Core: RDKit could not read the SMILES "C1CC\[\*:1\]"/);
  });

  it('finds activity cliffs that pass both thresholds, with Tanimoto on the stored fingerprints, every pair with its difference, a page at a time', async () => {
    await setAll();
    const started = performance.now();
    const page = async (offset: number) => {
      const answer = await post('/api/sar/cliffs', {
        sessionid,
        endpoint,
        minSimilarity: 0.5,
        minDelta: 0.5,
        limit: 60,
        offset,
        pageSize: 50,
      });
      expect(answer.statusCode, answer.body).toBe(200);
      return answer.data as unknown as SarCliffsResponse;
    };
    const first = await page(0);
    const cliffsMs = performance.now() - started;
    const second = await page(50);
    const all = [...first.cliffs, ...second.cliffs];
    console.log(
      `${kind}: ${all.length} cliffs of ${first.compounds} compounds, the first page of ${first.cliffs.length} with their differences: ${Math.round(cliffsMs)} ms`,
    );
    expect(first.listed).toBe(Math.min(60, first.total));
    expect(first.cliffs.length).toBe(Math.min(50, first.listed));
    expect(second.cliffs.length).toBe(Math.max(0, first.listed - 50));
    expect(all.length).toBeGreaterThan(0);
    // Every pair's difference is drawn: each member's SMARTS is a substructure of it (by plain RDKit), and a shared one of both.
    const rd = await initRDKitModule();
    const contains = (smiles: string, smarts: string) => {
      const mol = rd.get_mol(smiles)!;
      const query = rd.get_qmol(smarts)!;
      try {
        return mol.get_substruct_match(query) !== '{}';
      } finally {
        mol.delete();
        query.delete();
      }
    };
    for (const cliff of all) {
      expect(cliff.difference, `the difference of ${cliff.a.strId} and ${cliff.b.strId}`).not.toBeNull();
      expect(contains(cliff.a.smiles, cliff.difference!.a)).toBe(true);
      expect(contains(cliff.b.smiles, cliff.difference!.b)).toBe(true);
      if (cliff.common) {
        expect(contains(cliff.a.smiles, cliff.common)).toBe(true);
        expect(contains(cliff.b.smiles, cliff.common)).toBe(true);
      }
    }
    const kinds = new Map<string, number>();
    for (const cliff of all) kinds.set(cliff.difference!.kind, (kinds.get(cliff.difference!.kind) ?? 0) + 1);
    console.log(`${kind}: differences by kind: ${[...kinds].map(([k, n]) => `${k} ${n}`).join(', ')}`);
    const cliffs = { ...first, cliffs: all };
    expect(cliffs.compared).toBe((cliffs.compounds * (cliffs.compounds - 1)) / 2);
    const fps = new Map(
      (
        await rows(
          sql<{
            str_id: number;
            morgan_fp: Uint8Array;
          }>`SELECT str_id, morgan_fp FROM structures WHERE str_id = ANY(${cliffs.cliffs.flatMap((c) => [c.a.strId, c.b.strId])}::bigint[])`,
        )
      ).map((r) => [Number(r.str_id), r.morgan_fp]),
    );
    let previous = Infinity;
    for (const cliff of cliffs.cliffs) {
      expect(cliff.similarity).toBeGreaterThanOrEqual(0.5);
      expect(cliff.similarity).toBeCloseTo(tanimoto(fps.get(cliff.a.strId)!, fps.get(cliff.b.strId)!), 4);
      expect(cliff.a.activity.value).toBeGreaterThanOrEqual(cliff.b.activity.value);
      expect(cliff.delta).toBeCloseTo(cliff.a.activity.value - cliff.b.activity.value, 6);
      expect(cliff.delta).toBeGreaterThanOrEqual(0.5);
      expect(cliff.sali).toBeLessThanOrEqual(previous);
      previous = cliff.sali;
    }
  }, 120_000);

  it('lists matched pairs whose deltas are the members’ values', async () => {
    await setAll();
    const answer = await post('/api/sar/pairs', { sessionid, endpoint, minPairs: 2, limit: 20 });
    expect(answer.statusCode, answer.body).toBe(200);
    const pairs = answer.data as unknown as SarPairsResponse;
    expect(pairs.transformations.length).toBe(Math.min(20, pairs.total));
    for (const tr of pairs.transformations) {
      expect(tr.pairs).toBeGreaterThanOrEqual(2);
      expect(tr.examples.length).toBeGreaterThan(0);
      expect(tr.from).toMatch(/\*/);
      for (const example of tr.examples) expect(example.delta).toBeCloseTo(example.b.activity.value - example.a.activity.value, 6);
      if (tr.examples.length === tr.pairs) expect(tr.meanDelta).toBeCloseTo(tr.examples.reduce((s, e) => s + e.delta, 0) / tr.pairs, 6);
    }
  }, 120_000);

  it('joins a row’s R-groups back onto its core as the compound, and refuses a broken R-group', async () => {
    await setAll();
    const result = await table();
    const row = result.rows[0]!;
    const answer = await post('/api/sar/virtual', { core: result.cores[row.core]!.smiles, rgroups: row.rgroups });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.data.smiles).toBe(row.smiles);
    expect((await post('/api/sar/virtual', { core: result.cores[row.core]!.smiles, rgroups: { R1: 'C1CC(' } })).statusCode).toBe(400);
    // An R-group with a second attachment point no core position takes: molzip leaves it open; refused, not drawn.
    const label = result.labels[0]!;
    const stray = await post('/api/sar/virtual', {
      core: result.cores[row.core]!.smiles,
      rgroups: { [label]: `[*:${label.slice(1)}]CC[*:99]` },
    });
    expect(stray.statusCode, stray.body).toBe(400);
    expect(stray.data.message).toMatch(/do not fit the core's positions/);
  }, 120_000);

  it('reports progress of a running table and cancels it: the pending call answers 409', async () => {
    await setAll();
    expect((await post(`/api/sar/cancel/${sessionid}`, {})).data.message).toMatch(/No SAR work/);
    // A core no earlier call used (the table cache would answer at once): the MCS of the endpoint.
    const { cores } = suggested ?? { cores: [] };
    let cancelled = false;
    for (const core of [...cores].reverse()) {
      const pending = post('/api/sar/table', {
        sessionid,
        endpoint,
        cores: [
          { kind: core.kind, text: core.text },
          { kind: 'smarts', text: '[#6]~[#7]' },
        ],
      });
      let seen = false;
      for (let i = 0; i < 200 && !seen; i++) {
        const progress = (await get(`/api/sar/progress/${sessionid}`)).data as Json;
        if (progress.running) {
          expect(progress.phase).toBe('decompose');
          seen = true;
        } else await new Promise((resolve) => setTimeout(resolve, 5));
      }
      if (!seen) {
        await pending;
        continue;
      }
      expect((await post(`/api/sar/cancel/${sessionid}`, {})).data.message).toBe('The SAR work was cancelled.');
      const answer = await pending;
      expect(answer.statusCode).toBe(409);
      expect(answer.data.message).toMatch(/cancelled/);
      cancelled = true;
      break;
    }
    expect(cancelled).toBe(true);
    expect((await get(`/api/sar/progress/${sessionid}`)).data).toEqual({ running: false, phase: 'idle', done: 0, total: 0 });
  }, 120_000);

  it('exports the table as XLSX and SDF through the export jobs, one credit per compound', async () => {
    await setAll();
    const result = await table();
    const balance = async () =>
      (await t.database.db.selectFrom('users').select('credit_balance').where('email', '=', me.username).executeTakeFirstOrThrow())
        .credit_balance;
    const before = await balance();
    const core = await topCore();
    // A price the user did not see (the table holds another number of compounds) charges nothing.
    const stale = await post('/api/sar/export', {
      sessionid,
      endpoint,
      cores: [{ kind: 'smiles', text: core.text }],
      format: 'xlsx',
      expectedCredits: result.rows.length + 1,
    });
    expect(stale.statusCode, stale.body).toBe(409);
    expect(stale.data.message).toMatch(/changed since its price was shown/);
    expect(await balance()).toBe(before);
    const answer = await post('/api/sar/export', {
      sessionid,
      endpoint,
      cores: [{ kind: 'smiles', text: core.text }],
      format: 'xlsx',
      expectedCredits: result.rows.length,
    });
    expect(answer.statusCode, answer.body).toBe(200);
    const job = answer.data as unknown as ExportJob;
    expect(job).toMatchObject({ source: 'sar', status: 'done', rows: result.rows.length, credits: result.rows.length });
    expect(await balance()).toBe(before - result.rows.length);
    expect((await get(`/api/export/jobs/${job.id}`)).data).toMatchObject({ id: job.id, source: 'sar', status: 'done' });

    const file = await post('/api/dashboard/downloadfile', { fileId: job.fileId });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(header).toEqual([...result.labels, 'pActivity', 'n', 'min', 'max', 'MW', 'cLogP', 'LE', 'LipE', 'Structure id', 'SMILES']);
    expect(sheet.rowCount).toBe(result.rows.length + 1);
    result.rows.forEach((row, index) => {
      const cells = (sheet.getRow(index + 2).values as unknown[]).slice(1);
      const at = (name: string) => cells[header.indexOf(name)];
      expect(at('Structure id')).toBe(row.strId);
      expect(at('pActivity')).toBeCloseTo(row.activity.value, 6);
      for (const label of result.labels) expect(at(label) ?? null).toBe(row.rgroups[label] ?? null);
    });
    // The export writer's cell rule (export-formats.ts): no formula, every text a text cell.
    sheet.eachRow((row) =>
      row.eachCell((cell) =>
        expect([cell.formula, typeof cell.value !== 'string' || cell.numFmt === '@'], cell.address).toEqual([undefined, true]),
      ),
    );

    const sdf = await post('/api/sar/export', { sessionid, endpoint, cores: [{ kind: 'smiles', text: core.text }], format: 'sdf' });
    expect(sdf.statusCode, sdf.body).toBe(200);
    const text = (await post('/api/dashboard/downloadfile', { fileId: (sdf.data as unknown as ExportJob).fileId })).rawPayload.toString(
      'utf8',
    );
    const records = text.split('$$$$\n').filter((record) => record.trim());
    expect(records).toHaveLength(result.rows.length);
    expect(records[0]).toContain(`> <${result.labels[0]}>`);
    expect(records[0]!.split('\n')[0]).toBe(String(result.rows[0]!.strId));
    expect(await balance()).toBe(before - 2 * result.rows.length);
  }, 120_000);

  it('lets an evaluator study their own search but not export it', async () => {
    const own = await run(byTarget(endpoint.targetId), evaluator);
    await setAll(own.id, evaluator);
    const result = await table(evaluator, own.id);
    expect(result.rows.length).toBeGreaterThan(0);
    const core = await topCore();
    const answer = await post(
      '/api/sar/export',
      { sessionid: own.id, endpoint, cores: [{ kind: 'smiles', text: core.text }], format: 'xlsx' },
      evaluator,
    );
    expect(answer.statusCode).toBe(403);
  }, 120_000);

  it('refuses more than 5,000 compounds with a message saying how to narrow them', async () => {
    const big = await run({
      rows: [{ selectedOption: 'structure', structure: { inputType: 'smarts', value: '[#6]~[#6]', category: 'substructure' } }],
    });
    expect(big.counts.stridscount).toBeGreaterThan(5_000);
    const answer = await post('/api/results/setSarData', { sessionid: big.id, tab: 'structuretab' });
    expect(answer.statusCode).toBe(400);
    expect(answer.data.message).toBe(
      `The SAR view holds at most 5,000 compounds; these rows have ${big.counts.stridscount!.toLocaleString('en-US')}. Tick fewer rows, or filter the tab by target or activity type, then open the SAR view again.`,
    );
    expect((await get(`/api/sar/data/${big.id}`)).statusCode).toBe(404);
  }, 120_000);
});
