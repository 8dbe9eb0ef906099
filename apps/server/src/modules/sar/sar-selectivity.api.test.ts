import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { demoEmailForRole } from '@kb/contracts/roles';
import type { LoginResult } from '@kb/contracts/auth';
import type { SarCoresResponse, SarData, SarOverlapResponse, SarTable } from '@kb/contracts/sar';
import type { SarCliffsResponse } from '@kb/contracts/sar-cliffs';
import { DATABASES, authHeaders, startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';

/**
 * Selectivity and fit quality in the SAR view (docs/sar.md "Several endpoints: selectivity",
 * "Free-Wilson", "Activity cliffs") on four demo chunks: how many compounds two endpoints share,
 * the refusal of a difference column none of them has, cliffs on a difference column, and the
 * Free-Wilson fit's cross-validated q².
 */

/** The pyrrolo[2,3-d]pyrimidine-piperidine of the demo's JAK series (catalog.ts scaffold PYP). */
const PYRROLOPYRIMIDINE = 'c1nc(N2CCCCC2)c2cc[nH]c2n1';

type Endpoint = { targetId: number; activityType: string; scope?: 'set' | 'knowledgeBase' };

/** An activity with a pActivity, as the SAR values read it (written here apart from the service): a pChEMBL, or an exact molar value. */
const usable = (alias: 'a' | 'b') =>
  sql.raw(
    `(${alias}.pchembl_value IS NOT NULL OR (${alias}.activity_value > 0 AND coalesce(trim(${alias}.std_act_prefix), '=') IN ('=', '') AND ${alias}.standard_uom IN ('M', 'mM', 'uM', 'µM', 'μM', 'nM', 'pM', 'fM')))`,
  );

describe.each(DATABASES)('SAR selectivity and fit quality on %s', (kind) => {
  let t: TestApp;
  let me: LoginResult;
  /** Two molar endpoints no compound was measured on both of (series made for one target each), and their SAR session. */
  let apart: { a: Endpoint; b: Endpoint; sessionid: string };
  const post = (url: string, payload: unknown) => t.call({ method: 'POST', url, headers: authHeaders(me), payload: payload as object });
  /** Compounds with an IC50 pActivity on each target. */
  const measured = async () => {
    const rows = (
      await sql<{ target_id: number; str_id: number }>`SELECT DISTINCT a.target_id, a.str_id FROM activities a
        WHERE a.target_id IS NOT NULL AND a.std_activity_type = 'IC50' AND ${usable('a')}`.execute(t.database.db)
    ).rows;
    const sets = new Map<number, Set<number>>();
    for (const row of rows) sets.set(Number(row.target_id), (sets.get(Number(row.target_id)) ?? new Set()).add(Number(row.str_id)));
    return sets;
  };
  const sessionOf = async (targetIds: number[]) => {
    const sessionid = crypto.randomUUID();
    const criteria = { rows: [{ selectedOption: 'target', targets: [{ label: 'targets', ids: targetIds }] }] };
    const search = await post('/api/guidedsearch/allresultscount', { searchcriteria: criteria, sessionid });
    expect(search.statusCode, search.body).toBe(200);
    const set = await post('/api/results/setSarData', { sessionid, tab: 'activitiestab' });
    expect(set.statusCode, set.body).toBe(200);
    return { sessionid, data: set.data as unknown as SarData };
  };

  beforeAll(async () => {
    // Four chunks: the JAK series (pyrrolopyrimidines) is then large enough for a Free-Wilson fit.
    t = await startTestApp(kind, {}, { demoChunks: 4 });
    me = await t.login(demoEmailForRole('FULL_USER'));
    // The two IC50 endpoints with the most compounds that share none.
    const sets = [...(await measured())].sort((x, y) => y[1].size - x[1].size);
    let found: [number, number] | null = null;
    for (const [i, [ta, sa]] of sets.entries()) {
      const other = sets.slice(i + 1).find(([, sb]) => sb.size >= 5 && [...sa].every((id) => !sb.has(id)));
      if (sa.size >= 5 && other) {
        found = [ta, other[0]];
        break;
      }
    }
    expect(found, 'two IC50 endpoints without a compound in common').not.toBeNull();
    const { sessionid } = await sessionOf(found!);
    apart = { a: { targetId: found![0], activityType: 'IC50' }, b: { targetId: found![1], activityType: 'IC50' }, sessionid };
  }, 300_000);
  afterAll(() => t?.close());

  it('counts the compounds of A measured on both endpoints of each pair, as SQL counts them', async () => {
    const answer = await post('/api/sar/overlap', { sessionid: apart.sessionid, endpoint: apart.a, moreEndpoints: [apart.b] });
    expect(answer.statusCode, answer.body).toBe(200);
    const overlap = answer.data as unknown as SarOverlapResponse;
    expect(overlap.pairs).toEqual([{ a: 0, b: 1, compounds: 0 }]);
    expect(overlap.compounds).toBeGreaterThanOrEqual(5);

    // A pair that does share compounds: A and the other target on which most of A's compounds were measured (every measurement).
    const [most] = (
      await sql<{ target_id: number; n: number }>`SELECT b.target_id, count(DISTINCT b.str_id)::int AS n FROM activities a
        JOIN activities b ON b.str_id = a.str_id AND b.target_id <> a.target_id AND b.std_activity_type = 'IC50' AND b.pchembl_value IS NOT NULL
        WHERE a.target_id = ${apart.a.targetId} AND a.std_activity_type = 'IC50' AND a.pchembl_value IS NOT NULL
        GROUP BY b.target_id ORDER BY n DESC, b.target_id LIMIT 1`.execute(t.database.db)
    ).rows;
    expect(most, 'compounds of A measured on another target').toBeDefined();
    const shared: Endpoint = { targetId: Number(most!.target_id), activityType: 'IC50', scope: 'knowledgeBase' };
    const both = await post('/api/sar/overlap', { sessionid: apart.sessionid, endpoint: apart.a, moreEndpoints: [shared, apart.b] });
    expect(both.statusCode, both.body).toBe(200);
    const pairs = (both.data as unknown as SarOverlapResponse).pairs;
    // Counted among A's compounds of the SAR set with a value (pChEMBL or a molar value) on both.
    const [expected] = (
      await sql<{ n: number }>`SELECT count(DISTINCT a.str_id)::int AS n FROM sar_set_structures x
        JOIN search_sessions s ON s.set_id = x.set_id AND s.id = ${apart.sessionid}
        JOIN search_activities sa ON sa.set_id = x.set_id
        JOIN activities a ON a.act_id = sa.act_id AND a.str_id = x.str_id AND a.target_id = ${apart.a.targetId} AND a.std_activity_type = 'IC50'
        JOIN activities b ON b.str_id = a.str_id AND b.target_id = ${shared.targetId} AND b.std_activity_type = 'IC50'
        WHERE ${usable('a')} AND ${usable('b')}`.execute(t.database.db)
    ).rows;
    expect(pairs.find((p) => p.a === 0 && p.b === 1)!.compounds).toBe(expected!.n);
    expect(expected!.n).toBeGreaterThan(0);
    expect(pairs.find((p) => p.a === 0 && p.b === 2)!.compounds).toBe(0);
    expect(pairs.map((p) => [p.a, p.b])).toEqual([
      [0, 1],
      [0, 2],
      [1, 2],
    ]);
  }, 120_000);

  it('refuses an A − B column that no compound is measured on both of with 400 and a message, before decomposing', async () => {
    const body = {
      sessionid: apart.sessionid,
      endpoint: apart.a,
      moreEndpoints: [apart.b],
      differences: [{ a: 0, b: 1 }],
      cores: [{ kind: 'smiles', text: 'c1ccccc1' }],
    };
    const started = performance.now();
    const answer = await post('/api/sar/table', body);
    expect(answer.statusCode, answer.body).toBe(400);
    expect(answer.data.message).toMatch(/^A − B would be empty: no compound is measured on both IC50 on .+ \(A\) and IC50 on .+ \(B\)\./);
    expect(answer.data.details).toEqual({ field: 'differences' });
    // No decomposition ran: the refusal comes before the chemistry engine's work.
    expect(performance.now() - started).toBeLessThan(10_000);
    // Without the difference column, the same endpoints build a table (B blank in every row).
    const plain = await post('/api/sar/table', { ...body, differences: [] });
    expect(plain.statusCode, plain.body).toBe(200);
    expect((plain.data as unknown as SarTable).rows.every((row) => row.values[1] === null)).toBe(true);

    // The cliffs of that difference are refused the same way.
    const cliffs = await post('/api/sar/cliffs', { sessionid: apart.sessionid, endpoint: apart.a, minus: apart.b });
    expect(cliffs.statusCode, cliffs.body).toBe(400);
    expect(cliffs.data.message).toMatch(/^A − B would be empty/);
    const same = await post('/api/sar/cliffs', { sessionid: apart.sessionid, endpoint: apart.a, minus: apart.a });
    expect(same.statusCode).toBe(400);
    expect(same.data.message).toMatch(/two different endpoints/);
  }, 120_000);

  it('finds cliffs on a difference column: pairs of compounds measured on both, Δ of their differences', async () => {
    // A (the largest IC50 endpoint) and the target most of its compounds were also measured on.
    const [most] = (
      await sql<{ target_id: number }>`SELECT b.target_id FROM activities a
        JOIN activities b ON b.str_id = a.str_id AND b.target_id <> a.target_id AND b.std_activity_type = 'IC50' AND b.pchembl_value IS NOT NULL
        WHERE a.target_id = ${apart.a.targetId} AND a.std_activity_type = 'IC50' AND a.pchembl_value IS NOT NULL
        GROUP BY b.target_id ORDER BY count(DISTINCT b.str_id) DESC, b.target_id LIMIT 1`.execute(t.database.db)
    ).rows;
    const minus: Endpoint = { targetId: Number(most!.target_id), activityType: 'IC50', scope: 'knowledgeBase' };
    const request = { sessionid: apart.sessionid, endpoint: apart.a, minSimilarity: 0.5, minDelta: 0.3 };
    const onA = await post('/api/sar/cliffs', request);
    expect(onA.statusCode, onA.body).toBe(200);
    const answer = await post('/api/sar/cliffs', { ...request, minus });
    expect(answer.statusCode, answer.body).toBe(200);
    const cliffs = answer.data as unknown as SarCliffsResponse;
    const overlap = (await post('/api/sar/overlap', { sessionid: apart.sessionid, endpoint: apart.a, moreEndpoints: [minus] }))
      .data as unknown as SarOverlapResponse;
    expect(cliffs.compounds).toBeLessThanOrEqual(overlap.pairs[0]!.compounds);
    expect(cliffs.compounds).toBeLessThan((onA.data as unknown as SarCliffsResponse).compounds);
    expect(cliffs.total).toBeGreaterThan(0);
    // Each member's value is its A − B; the pair's Δ is the difference of those, the more selective first.
    for (const cliff of cliffs.cliffs) {
      expect(cliff.a.activity.value).toBeGreaterThanOrEqual(cliff.b.activity.value);
      expect(cliff.delta).toBeCloseTo(cliff.a.activity.value - cliff.b.activity.value, 5);
      expect(cliff.delta).toBeGreaterThanOrEqual(0.3);
    }
    // Every member was measured on both (every measurement of it on the second target).
    const members = [...new Set(cliffs.cliffs.flatMap((c) => [c.a.strId, c.b.strId]))];
    const [onB] = (
      await sql<{ n: number }>`SELECT count(DISTINCT b.str_id)::int AS n FROM activities b
        WHERE b.str_id = ANY(${members}::bigint[]) AND b.target_id = ${minus.targetId} AND b.std_activity_type = 'IC50' AND ${usable('b')}`.execute(
        t.database.db,
      )
    ).rows;
    expect(onB!.n).toBe(members.length);
  }, 180_000);

  it('reports the Free-Wilson fit with its leave-one-out q² beside R², and its number of terms', async () => {
    // The JAK series on its most measured endpoint, around the most covering suggested core: a fit
    // with nearly as many terms as compounds (R² near 1), which q² shows for what it is.
    const sessionid = crypto.randomUUID();
    const criteria = {
      rows: [
        {
          selectedOption: 'structure',
          operator: null,
          structure: { inputType: 'smiles', value: PYRROLOPYRIMIDINE, category: 'substructure', feature: 'desalted' },
        },
      ],
    };
    expect((await post('/api/guidedsearch/allresultscount', { searchcriteria: criteria, sessionid })).statusCode).toBe(200);
    const set = await post('/api/results/setSarData', { sessionid, tab: 'structuretab' });
    expect(set.statusCode, set.body).toBe(200);
    const endpoint = (set.data as unknown as SarData).endpoints.find((e) => e.molar)!;
    const cores = await post('/api/sar/cores', { sessionid, endpoint });
    expect(cores.statusCode, cores.body).toBe(200);
    const core = (cores.data as unknown as SarCoresResponse).cores[0]!;
    const answer = await post('/api/sar/table', { sessionid, endpoint, cores: [{ kind: core.kind, text: core.text }] });
    expect(answer.statusCode, answer.body).toBe(200);
    const fitted = (answer.data as unknown as SarTable).freeWilson;
    expect(fitted, 'a Free-Wilson fit of the JAK series').not.toBeNull();
    // Terms: the distinct R-groups of the fitted compounds, less each position's reference group.
    expect(fitted!.terms).toBe(fitted!.contributions.length - new Set(fitted!.contributions.map((c) => c.label)).size);
    expect(fitted!.terms).toBeLessThan(fitted!.compounds - 1);
    expect(fitted!.r2).toBeGreaterThan(0.9);
    // A compound left out is predicted far less well than the fit matches the ones it has seen.
    expect(Number.isFinite(fitted!.q2)).toBe(true);
    expect(fitted!.q2).toBeLessThan(fitted!.r2 - 0.2);
    console.log(
      `[sar-selectivity] JAK series, ${endpoint.targetName} ${endpoint.activityType}: ${fitted!.compounds} compounds, ${fitted!.terms} terms, R² ${fitted!.r2.toFixed(2)}, q² ${fitted!.q2.toFixed(2)}`,
    );
  }, 180_000);
});
