import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { SearchCriteriaInput } from '@kb/contracts/search';
import { demoEmailForRole } from '@kb/contracts/roles';
import { SCATTER_MAX_POINTS } from '@kb/contracts/analyzers';
import type { LoginResult } from '@kb/contracts/auth';
import { DATABASES, authHeaders, startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { callerOf } from '../../../test/search-services.ts';
import { scatter } from './analyzer-charts.ts';
import { SAVED_ANALYSES_MAX } from './analyzer-service.ts';

/**
 * The analyzers on the demo data (docs/sar.md "Analyzers"): every chart equals a computation
 * written here from the raw rows (pActivity, medians, bounds and cells in plain TypeScript).
 */
const IC50: SearchCriteriaInput = { rows: [{ selectedOption: 'activitytypes', activities: [{ activityType: 'IC50' }] }] };
const KI: SearchCriteriaInput = { rows: [{ selectedOption: 'activitytypes', activities: [{ activityType: 'Ki' }] }] };

type Json = Record<string, unknown>;
interface Raw {
  act_id: number;
  str_id: number;
  target_id: number | null;
  type: string | null;
  target: string | null;
  pchembl: number | null;
  value: number | null;
  uom: string | null;
  prefix: string | null;
  mw: number | null;
  year: number | null;
}

const MOLAR: Record<string, number> = { M: 1, mM: 1e-3, uM: 1e-6, µM: 1e-6, μM: 1e-6, nM: 1e-9, pM: 1e-12, fM: 1e-15 };
/** Only an exact value converts: '>' 10 µM says where the value is not (the SAR view's rule, docs/sar.md "Values"). */
const exact = (r: Raw) => ['', '='].includes((r.prefix ?? '').trim());
/** pActivity as docs/sar.md defines it: pChEMBL, else −log10 of an exact value in a molar unit (trimmed). */
function pActivity(r: Raw): number | null {
  if (r.pchembl != null) return r.pchembl;
  const factor = r.uom == null ? undefined : MOLAR[r.uom.trim()];
  return r.value != null && r.value > 0 && factor && exact(r) ? -Math.log10(r.value * factor) : null;
}
/** Median as percentile_cont(0.5): the mean of the two middle values of an even count. */
function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}
const close = (a: number, b: number) => expect(a).toBeCloseTo(b, 6);
const num = (v: unknown) => (v == null ? null : Number(v));
/** Raw activity rows as read from the database (numbers may come back as strings). */
const asRaw = (rows: Raw[]): Raw[] =>
  rows.map((r) => ({
    ...r,
    act_id: Number(r.act_id),
    str_id: Number(r.str_id),
    target_id: num(r.target_id),
    pchembl: num(r.pchembl),
    value: num(r.value),
    mw: num(r.mw),
  }));
type Endpoint = { targetId: number; activityType: string };
/** Median pActivity per structure over the raw rows of one endpoint (rows without a pActivity left out). */
function endpointMedians(rows: readonly Raw[], endpoint: Endpoint): Map<number, number> {
  const per = new Map<number, number[]>();
  for (const r of rows) {
    const p = pActivity(r);
    if (r.target_id !== endpoint.targetId || r.type !== endpoint.activityType || p == null) continue;
    per.set(r.str_id, [...(per.get(r.str_id) ?? []), p]);
  }
  return new Map([...per.entries()].map(([str, values]) => [str, median(values)]));
}

describe.each(DATABASES)('analyzers on %s', (kind) => {
  let t: TestApp;
  let me: LoginResult;
  let other: LoginResult;
  let sessionid: string;
  let setId: number;
  let raw: Raw[];
  const post = (url: string, payload: unknown, login: LoginResult = me) =>
    t.call({ method: 'POST', url, headers: authHeaders(login), payload: payload as object });
  const get = (url: string, login: LoginResult = me) => t.call({ method: 'GET', url, headers: authHeaders(login) });
  const visualize = (config: Json, tab = 'activitiestab', login: LoginResult = me, id = sessionid) =>
    post('/api/security/allmapping/search/visualization', { sessionid: id, tab, config }, login);
  const chart = async (config: Json, tab = 'activitiestab') => {
    const answer = await visualize(config, tab);
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.data as Json;
  };
  const run = async (criteria: SearchCriteriaInput, login: LoginResult = me) => {
    const id = crypto.randomUUID();
    const answer = await post('/api/guidedsearch/allresultscount', { searchcriteria: criteria, sessionid: id }, login);
    expect(answer.statusCode, answer.body).toBe(200);
    // The references below read the set tables: the sets (held in memory, which the analyzers read) are written for them.
    await t.app.services.results.session(callerOf(login), id);
    return id;
  };

  beforeAll(async () => {
    t = await startTestApp(kind, {}, { demoChunks: 2 });
    me = await t.login(demoEmailForRole('FULL_USER'));
    other = await t.login(demoEmailForRole('EVALUATE_USER'));
    sessionid = await run(IC50);
    const row = await t.database.db.selectFrom('search_sessions').select('set_id').where('id', '=', sessionid).executeTakeFirstOrThrow();
    setId = Number(row.set_id);
    const { rows } =
      await sql<Raw>`SELECT sa.act_id::int, sa.str_id::int, sa.target_id::int, a.std_activity_type AS type, tg.name AS target, a.pchembl_value AS pchembl,
        a.activity_value AS value, a.standard_uom AS uom, a.std_act_prefix AS prefix, s.mol_weight AS mw, d.year
      FROM search_activities sa JOIN activities a ON a.act_id = sa.act_id LEFT JOIN targets tg ON tg.target_id = sa.target_id
      LEFT JOIN structures s ON s.str_id = sa.str_id LEFT JOIN documents d ON d.ref_id = sa.ref_id WHERE sa.set_id = ${setId}`.execute(
        t.database.db,
      );
    raw = asRaw(rows);
    expect(raw.length).toBeGreaterThan(100);
    // The rule above must matter on this data: qualified values without pChEMBL are in the session.
    expect(raw.some((r) => r.pchembl == null && r.value != null && !exact(r))).toBe(true);
  }, 180_000);
  afterAll(() => t.close());

  it('draws a scatter of every row with both values: total, missing, bounds and points as computed here', async () => {
    const data = await chart({ chart: 'scatter', x: 'mw', y: 'pactivity', color: 'year' });
    const both = raw.filter((r) => r.mw != null && pActivity(r) != null);
    expect(data.total).toBe(both.length);
    expect(data.missing).toBe(raw.length - both.length);
    expect(data.sampled).toBe(false);
    const points = data.points as { id: number; x: number; y: number; c: number | null; s: number | null }[];
    expect(points.length).toBe(both.length);
    const byId = new Map(raw.map((r) => [r.act_id, r]));
    for (const p of points.slice(0, 200)) {
      const r = byId.get(p.id)!;
      close(p.x, r.mw!);
      close(p.y, pActivity(r)!);
      expect(p.c).toBe(r.year);
      // The activity's structure, drawn when the point is hovered.
      expect(p.s).toBe(r.str_id);
    }
    const ys = both.map((r) => pActivity(r)!);
    close((data.yBounds as { min: number }).min, Math.min(...ys));
    close((data.yBounds as { max: number }).max, Math.max(...ys));
    close((data.xBounds as { max: number }).max, Math.max(...both.map((r) => r.mw!)));
  });

  it('samples a scatter above the limit: the limit of points, a fixed sample, bounds over all rows', async () => {
    // The production limit stays 20,000; the demo session is smaller, so the chart function is called with a lower one.
    expect(SCATTER_MAX_POINTS).toBe(20_000);
    // The sets as the app reads them (held in memory, or the set tables).
    const { sets } = await t.app.services.results.sessionAndSets(callerOf(me), sessionid);
    const scope = { tab: 'activitiestab' as const, setId, sets, filtered: false };
    const config = { chart: 'scatter' as const, x: 'mw' as const, y: 'pactivity' as const, color: null, endpoint: null };
    const full = await scatter(t.database.db, scope, config);
    const small = await scatter(t.database.db, scope, config, 50);
    expect(small.sampled).toBe(true);
    expect(small.points).toHaveLength(50);
    expect(small.total).toBe(full.total);
    expect(small.xBounds).toEqual(full.xBounds);
    expect(small.yBounds).toEqual(full.yBounds);
    const ids = new Set(full.points.map((p) => p.id));
    expect(small.points.every((p) => ids.has(p.id))).toBe(true);
    expect(new Set(small.points.map((p) => p.id)).size).toBe(50);
    // The same rows every time (a saved analysis reopens with the same points).
    expect((await scatter(t.database.db, scope, config, 50)).points).toEqual(small.points);
  });

  it('charts the rows of the tab as filtered', async () => {
    const target = raw.find((r) => r.target_id != null)!.target_id!;
    const applied = await post('/api/results/applyfilters/activitiestab', {
      sessionid,
      filters: [{ chartKey: 'target', include: [target] }],
    });
    expect(applied.statusCode, applied.body).toBe(200);
    const data = await chart({ chart: 'scatter', x: 'mw', y: 'pactivity', color: null });
    const kept = raw.filter((r) => r.target_id === target && r.mw != null && pActivity(r) != null);
    expect(data.total).toBe(kept.length);
    await post('/api/results/applyfilters/activitiestab', { sessionid, filters: [] });
    expect((await chart({ chart: 'scatter', x: 'mw', y: 'pactivity', color: null })).total).toBe(
      raw.filter((r) => r.mw != null && pActivity(r) != null).length,
    );
  });

  it('summarises pActivity per target: the largest groups, count, quartiles and a shared histogram', async () => {
    const data = await chart({ chart: 'distribution', measure: 'pactivity', groupBy: 'target', groups: 3 });
    const perTarget = new Map<string, number[]>();
    for (const r of raw) {
      const p = pActivity(r);
      if (p == null) continue;
      const key = r.target_id == null ? '' : String(r.target_id);
      perTarget.set(key, [...(perTarget.get(key) ?? []), p]);
    }
    const expected = [...perTarget.entries()].sort((a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : 1)).slice(0, 3);
    const groups = data.groups as {
      key: string;
      label: string;
      count: number;
      median: number;
      min: number;
      max: number;
      histogram: number[];
    }[];
    expect(groups.map((g) => g.key)).toEqual(expected.map(([key]) => key));
    expect(data.otherGroups).toBe(perTarget.size - groups.length);
    for (const [i, [key, values]] of expected.entries()) {
      const g = groups[i]!;
      expect(g.count).toBe(values.length);
      close(g.median, median(values));
      close(g.min, Math.min(...values));
      close(g.max, Math.max(...values));
      expect(g.histogram.reduce((a, b) => a + b, 0)).toBe(values.length);
      if (key) expect(g.label).toBe(raw.find((r) => String(r.target_id) === key)!.target);
    }
    const edges = data.edges as number[];
    expect(edges).toHaveLength(21);
    close(edges[0]!, Math.min(...groups.map((g) => g.min)));
  });

  /** The heatmap as computed here: the tab's most measured compounds, then all their measurements in the knowledge base. */
  async function expectedHeatmap(rows: readonly Raw[], compoundsMax: number, targetsMax: number) {
    const perCompound = new Map<number, number>();
    for (const r of rows) if (r.target_id != null && pActivity(r) != null) perCompound.set(r.str_id, (perCompound.get(r.str_id) ?? 0) + 1);
    const compounds = [...perCompound.entries()]
      .sort((a, b) => b[1] - a[1] || a[0] - b[0])
      .slice(0, compoundsMax)
      .map(([id]) => id);
    const { rows: kb } =
      await sql<Raw>`SELECT a.act_id, a.str_id, a.target_id, a.std_activity_type AS type, NULL AS target, a.pchembl_value AS pchembl,
        a.activity_value AS value, a.standard_uom AS uom, a.std_act_prefix AS prefix, NULL AS mw, NULL AS year
      FROM activities a WHERE a.str_id = ANY(${compounds}::bigint[])`.execute(t.database.db);
    const measured = asRaw(kb).filter((r) => r.target_id != null && pActivity(r) != null);
    const perTarget = new Map<number, number>();
    for (const r of measured) perTarget.set(r.target_id!, (perTarget.get(r.target_id!) ?? 0) + 1);
    const targets = [...perTarget.entries()]
      .sort((a, b) => b[1] - a[1] || a[0] - b[0])
      .slice(0, targetsMax)
      .map(([id]) => id);
    const searched = new Set(rows.filter((r) => compounds.includes(r.str_id) && r.target_id != null).map((r) => r.target_id!));
    return { compounds, targets, measured, searched, allTargets: perTarget.size };
  }

  /** Every cell equals the median of the compound's measurements on the target; no cell is left out or added. */
  function expectCells(data: Json, measured: readonly Raw[]): number {
    const targets = data.targets as { id: number }[];
    const compounds = data.compounds as { strId: number }[];
    const cells = data.cells as { t: number; c: number; value: number; n: number }[];
    let checked = 0;
    for (const [ti, target] of targets.entries()) {
      for (const [ci, compound] of compounds.entries()) {
        const values = measured.filter((r) => r.target_id === target.id && r.str_id === compound.strId).map((r) => pActivity(r)!);
        const cell = cells.find((x) => x.t === ti && x.c === ci);
        if (!values.length) {
          expect(cell).toBeUndefined();
          continue;
        }
        expect(cell?.n).toBe(values.length);
        close(cell!.value, median(values));
        checked++;
      }
    }
    expect(checked).toBe(cells.length);
    return checked;
  }

  it('fills the heatmap from every measurement in the knowledge base of the tab’s most measured compounds', async () => {
    const data = await chart({ chart: 'heatmap', targets: 4, compounds: 10 });
    const expected = await expectedHeatmap(raw, 10, 4);
    expect(data.cellsFrom).toBe('knowledgeBase');
    expect((data.compounds as { strId: number }[]).map((c) => c.strId)).toEqual(expected.compounds);
    const targets = data.targets as { id: number; inSearch: boolean }[];
    expect(targets.map((x) => x.id)).toEqual(expected.targets);
    expect(targets.map((x) => x.inSearch)).toEqual(expected.targets.map((id) => expected.searched.has(id)));
    expect(data.otherTargets).toBe(expected.allTargets - targets.length);
    expect(expectCells(data, expected.measured)).toBeGreaterThan(0);
  });

  it('shows the other targets a one-target search’s compounds were measured on, the searched one marked', async () => {
    // The search's target whose compounds were measured elsewhere the most: a selectivity view to draw.
    const { rows: picked } = await sql<{
      t: number;
    }>`SELECT sa.target_id AS t FROM search_activities sa JOIN activities a ON a.str_id = sa.str_id
      WHERE sa.set_id = ${setId} AND sa.target_id IS NOT NULL AND a.target_id <> sa.target_id
      GROUP BY sa.target_id ORDER BY count(DISTINCT a.target_id) DESC, sa.target_id LIMIT 1`.execute(t.database.db);
    const target = Number(picked[0]!.t);
    const single = await run({ rows: [{ selectedOption: 'target', targets: [{ label: `target ${target}`, ids: [target] }] }] });
    const answer = await visualize({ chart: 'heatmap', targets: 10, compounds: 30 }, 'activitiestab', me, single);
    expect(answer.statusCode, answer.body).toBe(200);
    const { rows } =
      await sql<Raw>`SELECT sa.act_id, sa.str_id, sa.target_id, a.std_activity_type AS type, NULL AS target, a.pchembl_value AS pchembl,
        a.activity_value AS value, a.standard_uom AS uom, a.std_act_prefix AS prefix, NULL AS mw, NULL AS year
      FROM search_sessions se JOIN search_activities sa ON sa.set_id = se.set_id JOIN activities a ON a.act_id = sa.act_id WHERE se.id = ${single}`.execute(
        t.database.db,
      );
    const tabRows = asRaw(rows);
    expect(new Set(tabRows.map((r) => r.target_id))).toEqual(new Set([target]));
    const data = answer.data as Json;
    const expected = await expectedHeatmap(tabRows, 30, 10);
    const targets = data.targets as { id: number; name: string; inSearch: boolean }[];
    expect(targets.length).toBeGreaterThan(1);
    expect(targets.map((x) => x.id)).toEqual(expected.targets);
    // Only the searched target is the search's; the others come from the knowledge base.
    expect(targets.filter((x) => x.inSearch).map((x) => x.id)).toEqual(expected.targets.filter((id) => id === target));
    expect(targets.some((x) => !x.inSearch)).toBe(true);
    const cells = data.cells as { t: number }[];
    expect(new Set(cells.map((c) => targets[c.t]!.id)).size).toBeGreaterThan(1);
    expectCells(data, expected.measured);
  });

  it('plots the Structures tab by each structure’s median pActivity on an endpoint, as computed here from the raw activities', async () => {
    const options = await post('/api/security/allmapping/search/visualization/endpoints', { sessionid, tab: 'structuretab' });
    expect(options.statusCode, options.body).toBe(200);
    const endpoints = options.data.endpoints as (Endpoint & { targetName: string; structures: number; activities: number })[];
    // The endpoints of the structures' activities with a pActivity, most structures first.
    const counted = new Map<string, { structures: Set<number>; activities: number }>();
    for (const r of raw) {
      if (r.target_id == null || r.type == null || pActivity(r) == null) continue;
      const key = `${r.target_id}\t${r.type}`;
      const entry = counted.get(key) ?? { structures: new Set<number>(), activities: 0 };
      entry.structures.add(r.str_id);
      entry.activities++;
      counted.set(key, entry);
    }
    expect(endpoints.length + (options.data.more as number)).toBe(counted.size);
    expect(endpoints.map((e) => e.structures)).toEqual([...endpoints.map((e) => e.structures)].sort((a, b) => b - a));
    const endpoint = { targetId: endpoints[0]!.targetId, activityType: endpoints[0]!.activityType };
    const top = counted.get(`${endpoint.targetId}\t${endpoint.activityType}`)!;
    expect(endpoints[0]!.structures).toBe(top.structures.size);
    expect(endpoints[0]!.activities).toBe(top.activities);
    expect(Math.max(...[...counted.values()].map((e) => e.structures.size))).toBe(top.structures.size);

    const medians = endpointMedians(raw, endpoint);
    const { rows: structures } = await sql<{
      str_id: number;
      mw: number | null;
      clogp: number | null;
    }>`SELECT ss.str_id::int, s.mol_weight AS mw, s.logp_calc AS clogp
      FROM search_structures ss JOIN structures s ON s.str_id = ss.str_id WHERE ss.set_id = ${setId}`.execute(t.database.db);
    const data = await chart({ chart: 'scatter', x: 'mw', y: 'pactivity', color: null, endpoint }, 'structuretab');
    expect(data.endpoint).toEqual({ ...endpoint, targetName: endpoints[0]!.targetName });
    const plotted = structures.filter((r) => r.mw != null && medians.has(Number(r.str_id)));
    expect(data.total).toBe(plotted.length);
    expect(data.missing).toBe(structures.length - plotted.length);
    expect(data.missing).toBeGreaterThan(0);
    const points = data.points as { id: number; x: number; y: number; s: number }[];
    expect(points).toHaveLength(plotted.length);
    for (const p of points) {
      close(p.y, medians.get(p.id)!);
      expect(p.s).toBe(p.id);
    }
    // Some structure was measured several times on the endpoint: the median, not one value.
    expect(raw.filter((r) => r.target_id === endpoint.targetId && r.type === endpoint.activityType).length).toBeGreaterThan(medians.size);

    // As the colour: every structure with both axes drawn, those without a value counted.
    const coloured = await chart({ chart: 'scatter', x: 'mw', y: 'clogp', color: 'pactivity', endpoint }, 'structuretab');
    const both = structures.filter((r) => r.mw != null && r.clogp != null);
    expect(coloured.total).toBe(both.length);
    expect(coloured.colorMissing).toBe(both.filter((r) => !medians.has(Number(r.str_id))).length);
    for (const p of coloured.points as { id: number; c: number | null }[]) {
      if (medians.has(p.id)) close(p.c!, medians.get(p.id)!);
      else expect(p.c).toBeNull();
    }
  });

  it('refuses a Structures-tab pActivity without an endpoint, a bad endpoint, and an endpoint on the Activities tab', async () => {
    const scatterOf = (endpoint: unknown, tab = 'structuretab') =>
      visualize({ chart: 'scatter', x: 'mw', y: 'pactivity', color: null, endpoint }, tab);
    const none = await scatterOf(null);
    expect(none.statusCode).toBe(400);
    expect(String(none.data.message)).toMatch(/choose an endpoint/);
    const target = raw.find((r) => r.target_id != null)!.target_id!;
    for (const bad of [
      { targetId: 0, activityType: 'IC50' },
      { targetId: -3, activityType: 'IC50' },
      { targetId: 1.5, activityType: 'IC50' },
      { targetId: 2_147_483_648, activityType: 'IC50' },
      { targetId: target, activityType: '' },
      { targetId: target, activityType: 'x'.repeat(101) },
      { targetId: target },
      'EGFR IC50',
    ]) {
      const answer = await scatterOf(bad);
      expect(answer.statusCode, JSON.stringify(bad)).toBe(400);
    }
    const long = await scatterOf({ targetId: target, activityType: 'x'.repeat(101) });
    expect(String(long.data.message)).toMatch(/at most 100 characters/);
    const missing = await scatterOf({ targetId: 2_000_000_000, activityType: 'IC50' });
    expect(missing.statusCode).toBe(400);
    expect(String(missing.data.message)).toMatch(/no target 2000000000/);
    const onActivities = await scatterOf({ targetId: target, activityType: 'IC50' }, 'activitiestab');
    expect(onActivities.statusCode).toBe(400);
    expect(String(onActivities.data.message)).toMatch(/leave the endpoint out/);
    // An endpoint nothing was measured on: no point, every structure counted as without a value.
    const unmeasured = await chart(
      { chart: 'scatter', x: 'mw', y: 'pactivity', color: null, endpoint: { targetId: target, activityType: 'No such type' } },
      'structuretab',
    );
    expect(unmeasured.total).toBe(0);
    expect(unmeasured.missing).toBeGreaterThan(0);
  });

  it('counts distinct compounds per target class, each class once for the compounds under it', async () => {
    const data = await chart({ chart: 'treemap' });
    expect(data.total).toBe(new Set(raw.map((r) => r.str_id)).size);
    const root = data.root as { name: string; value: number; children?: { value: number }[] }[];
    expect(root.length).toBeGreaterThan(0);
    const { rows } = await sql<{
      n: number;
    }>`WITH RECURSIVE up(id) AS (SELECT class_id FROM target_classes WHERE name = ${root[0]!.name} AND parent_id IS NULL
        UNION SELECT c.class_id FROM target_classes c JOIN up ON c.parent_id = up.id)
      SELECT count(DISTINCT sa.str_id)::int AS n FROM search_activities sa JOIN targets tg ON tg.target_id = sa.target_id
      WHERE sa.set_id = ${setId} AND tg.class_id IN (SELECT id FROM up)`.execute(t.database.db);
    if (root[0]!.name !== 'Unclassified target') expect(root[0]!.value).toBe(rows[0]!.n);
    for (const node of root) for (const child of node.children ?? []) expect(child.value).toBeLessThanOrEqual(node.value);
  });

  it('counts Murcko scaffolds over the distinct structures of the tab', async () => {
    const data = await chart({ chart: 'scaffolds', limit: 5 }, 'structuretab');
    expect(data.structures).toBe(new Set(raw.map((r) => r.str_id)).size);
    expect(data.sampled).toBe(false);
    const scaffolds = data.scaffolds as { smiles: string; compounds: number }[];
    expect(scaffolds.length).toBeGreaterThan(0);
    expect(scaffolds.length).toBeLessThanOrEqual(5);
    expect(scaffolds.map((s) => s.compounds)).toEqual([...scaffolds.map((s) => s.compounds)].sort((a, b) => b - a));
  });

  it('refuses what a tab cannot chart, and another user’s session; an evaluator charts their own', async () => {
    const bad = await visualize({ chart: 'scatter', x: 'mw', y: 'pactivity', color: null }, 'structuretab');
    expect(bad.statusCode).toBe(400);
    expect(String(bad.data.message)).toMatch(/choose an endpoint/);
    const year = await visualize({ chart: 'scatter', x: 'mw', y: 'year', color: null }, 'structuretab');
    expect(String(year.data.message)).toMatch(/Year belongs to an activity/);
    expect((await visualize({ chart: 'distribution' }, 'structuretab')).statusCode).toBe(400);
    expect((await visualize({ chart: 'scatter', x: 'weight', y: 'mw' })).statusCode).toBe(400);
    expect((await visualize({ chart: 'heatmap', targets: 1000 })).statusCode).toBe(400);
    expect((await visualize({ chart: 'scatter', x: 'mw', y: 'psa', color: null }, 'activitiestab', other)).statusCode).toBe(403);
    const theirs = await run(KI, other);
    const answer = await visualize({ chart: 'scatter', x: 'mw', y: 'psa', color: null }, 'structuretab', other, theirs);
    expect(answer.statusCode, answer.body).toBe(200);
    const [expected] = (
      await sql<{ n: number }>`SELECT count(*)::int AS n FROM search_structures ss JOIN structures s ON s.str_id = ss.str_id
      JOIN search_sessions se ON se.set_id = ss.set_id WHERE se.id = ${theirs} AND s.mol_weight IS NOT NULL AND s.psa IS NOT NULL`.execute(
        t.database.db,
      )
    ).rows;
    expect(answer.data.total).toBe(expected!.n);
  });

  it('saves analyses under a name, lists them newest first, replaces by name, keeps them to their owner', async () => {
    // The search's readable summary is what the web client saved for it (kept with the analysis).
    expect((await post('/api/bu/sessionsummary/save', { sessionid, summary: 'Activity type: IC50' })).statusCode).toBe(200);
    const config = { tab: 'activitiestab', charts: [{ chart: 'scatter', x: 'mw', y: 'pactivity', color: null }, { chart: 'treemap' }] };
    const first = await post('/api/security/allmapping/search/storerequest', { name: 'IC50 overview', sessionid, config });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.data).toMatchObject({ name: 'IC50 overview', sessionid, config });
    expect(first.data.summary).toBe('Activity type: IC50');
    const second = await post('/api/security/allmapping/search/storerequest', {
      name: 'Potency',
      sessionid,
      config: { tab: 'activitiestab', charts: [{ chart: 'heatmap' }] },
    });
    const again = await post('/api/security/allmapping/search/storerequest', {
      name: 'IC50 overview',
      sessionid,
      config: { tab: 'structuretab', charts: [{ chart: 'scaffolds' }] },
    });
    expect(again.statusCode).toBe(200);
    const list = await get('/api/security/allmapping/search/fetchrequest');
    const analyses = list.data.analyses as { id: number; name: string; config: Json }[];
    expect(analyses.map((a) => a.name)).toEqual(['IC50 overview', 'Potency']);
    expect(analyses[0]!.config).toEqual({ tab: 'structuretab', charts: [{ chart: 'scaffolds', limit: 30 }] });
    const one = await get(`/api/security/allmapping/search/fetchrequest?id=${second.data.id}`);
    expect((one.data.analyses as Json[])[0]).toMatchObject({
      name: 'Potency',
      config: { charts: [{ chart: 'heatmap', targets: 25, compounds: 60 }] },
    });
    expect((await get(`/api/security/allmapping/search/fetchrequest?id=${second.data.id}`, other)).statusCode).toBe(403);
    expect((await get('/api/security/allmapping/search/fetchrequest?id=99999999')).statusCode).toBe(404);
    expect((await get('/api/security/allmapping/search/fetchrequest', other)).data.analyses as Json[]).toEqual([]);
    expect((await post('/api/security/allmapping/search/storerequest', { name: 'Mine now', sessionid, config }, other)).statusCode).toBe(
      403,
    );
    expect((await post('/api/security/allmapping/search/storerequest', { name: '  ', sessionid, config })).statusCode).toBe(400);
  });

  it('keeps a scatter’s endpoint in a saved analysis, and opens one saved before endpoints existed', async () => {
    const endpoint = { targetId: raw.find((r) => r.target_id != null)!.target_id!, activityType: 'IC50' };
    const charts = [{ chart: 'scatter', x: 'mw', y: 'clogp', color: 'pactivity', endpoint }];
    const saved = await post('/api/security/allmapping/search/storerequest', {
      name: 'By endpoint',
      sessionid,
      config: { tab: 'structuretab', charts },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const one = await get(`/api/security/allmapping/search/fetchrequest?id=${saved.data.id}`);
    expect((one.data.analyses as { config: Json }[])[0]!.config).toEqual({ tab: 'structuretab', charts });
    const user = (
      await t.database.db.selectFrom('users').select('id').where('email', '=', demoEmailForRole('FULL_USER')).executeTakeFirstOrThrow()
    ).id;
    const { rows } = await sql<{ analysis_id: number }>`INSERT INTO saved_analyses (user_id, name, session_id, config)
      VALUES (${user}, 'Before endpoints', ${sessionid}, '{"tab":"structuretab","charts":[{"chart":"scatter","x":"mw","y":"clogp","color":"psa"}]}'::jsonb)
      RETURNING analysis_id`.execute(t.database.db);
    const old = await get(`/api/security/allmapping/search/fetchrequest?id=${rows[0]!.analysis_id}`);
    expect(old.statusCode, old.body).toBe(200);
    expect((old.data.analyses as { config: Json }[])[0]!.config).toEqual({
      tab: 'structuretab',
      charts: [{ chart: 'scatter', x: 'mw', y: 'clogp', color: 'psa', endpoint: null }],
    });
    await sql`DELETE FROM saved_analyses WHERE name IN ('By endpoint', 'Before endpoints')`.execute(t.database.db);
  });

  it('answers 400, not a database error, to an id beyond the integer range', async () => {
    const answer = await get('/api/security/allmapping/search/fetchrequest?id=2147483648');
    expect(answer.statusCode, answer.body).toBe(400);
    expect((await get('/api/security/allmapping/search/fetchrequest?id=2147483647')).statusCode).toBe(404);
  });

  it('saves twice under one name at once: both succeed, one analysis remains', async () => {
    const config = (charts: Json[]) => ({ tab: 'activitiestab', charts });
    const answers = await Promise.all(
      [[{ chart: 'treemap' }], [{ chart: 'heatmap' }], [{ chart: 'treemap' }, { chart: 'heatmap' }]].map((charts) =>
        post('/api/security/allmapping/search/storerequest', { name: 'At once', sessionid, config: config(charts) }),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    const list = (await get('/api/security/allmapping/search/fetchrequest')).data.analyses as { id: number; name: string }[];
    const mine = list.filter((a) => a.name === 'At once');
    expect(mine).toHaveLength(1);
    expect(new Set(answers.map((a) => a.data.id))).toEqual(new Set([mine[0]!.id]));
  });

  it('keeps at most 200 analyses per user: a new name beyond is refused, replacing one still works', async () => {
    const user = (
      await t.database.db.selectFrom('users').select('id').where('email', '=', demoEmailForRole('FULL_USER')).executeTakeFirstOrThrow()
    ).id;
    const { rows } = await sql<{ n: string | number }>`SELECT count(*) AS n FROM saved_analyses WHERE user_id = ${user}`.execute(
      t.database.db,
    );
    const fill = SAVED_ANALYSES_MAX - Number(rows[0]!.n);
    await sql`INSERT INTO saved_analyses (user_id, name, session_id, config)
      SELECT ${user}, 'Filler ' || n, ${sessionid}, '{"tab":"activitiestab","charts":[{"chart":"treemap"}]}'::jsonb FROM generate_series(1, ${fill}::int) AS n`.execute(
      t.database.db,
    );
    try {
      const refused = await post('/api/security/allmapping/search/storerequest', {
        name: 'One too many',
        sessionid,
        config: { tab: 'activitiestab', charts: [{ chart: 'treemap' }] },
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.body).toMatch(/200 saved analyses/);
      const replaced = await post('/api/security/allmapping/search/storerequest', {
        name: 'Filler 1',
        sessionid,
        config: { tab: 'activitiestab', charts: [{ chart: 'heatmap' }] },
      });
      expect(replaced.statusCode, replaced.body).toBe(200);
    } finally {
      await sql`DELETE FROM saved_analyses WHERE user_id = ${user} AND name LIKE 'Filler %'`.execute(t.database.db);
    }
  });
});
