import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { demoEmailForRole } from '@kb/contracts/roles';
import type { LoginResult } from '@kb/contracts/auth';
import type { SheetEndpoint, SheetPage, SheetRequestInput, SheetSuggestResponse } from '@kb/contracts/sheet';
import type { ExportJob } from '@kb/contracts/exports';
import { DATABASES, authHeaders, startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { compoundFacts, endpointMeasurements, sqlGroups } from './sheet-queries.ts';
import { memoryFacts, memoryGroups, memoryMeasurements } from './sheet-memory.ts';

/**
 * The compound × endpoint sheet (docs/workspace.md "The sheet") on the demo knowledge base: its
 * suggestions and every cell against values computed here from the raw activities (censored
 * values included), sorting with blanks last, filters, differences, the export and its credits,
 * bad requests and another user's session.
 */

interface Raw {
  str_id: number;
  pchembl_value: number | null;
  activity_value: number | null;
  standard_uom: string | null;
  std_act_prefix: string | null;
}

const EXPONENT: Record<string, number> = { nM: 9, uM: 6, µM: 6, mM: 3, M: 0 };

/** A raw activity as pActivity with its sign, written here independently of the service. */
function expectedPoint(row: Raw): { p: number; sign: '=' | '>' | '<' } | null {
  if (row.pchembl_value != null) return { p: Number(row.pchembl_value), sign: '=' };
  const exponent = EXPONENT[row.standard_uom ?? ''];
  if (row.activity_value == null || exponent === undefined || Number(row.activity_value) <= 0) return null;
  const p = exponent - Math.log10(Number(row.activity_value));
  const prefix = (row.std_act_prefix ?? '=').trim();
  if (prefix === '=' || prefix === '') return { p, sign: '=' };
  if (prefix.startsWith('>')) return { p, sign: '<' };
  if (prefix.startsWith('<')) return { p, sign: '>' };
  return null;
}

function expectedCell(rows: readonly Raw[]) {
  const points = rows.map(expectedPoint).filter((x) => x !== null);
  if (!points.length) return null;
  const exact = points
    .filter((x) => x.sign === '=')
    .map((x) => x.p)
    .sort((a, b) => a - b);
  const lower = points.filter((x) => x.sign === '>').map((x) => x.p);
  const upper = points.filter((x) => x.sign === '<').map((x) => x.p);
  const mid = Math.floor(exact.length / 2);
  const median = exact.length ? (exact.length % 2 ? exact[mid]! : (exact[mid - 1]! + exact[mid]!) / 2) : null;
  const value = median ?? (lower.length ? Math.max(...lower) : Math.min(...upper));
  const qualifier = median != null ? '=' : lower.length ? '>' : '<';
  return { value, qualifier, n: points.length, censored: lower.length + upper.length, median };
}

describe.each(DATABASES)('compound sheet on %s', (kind) => {
  let t: TestApp;
  let me: LoginResult;
  let other: LoginResult;
  let sessionid: string;
  let endpoints: SheetEndpoint[];
  const post = (url: string, payload: unknown, login: LoginResult = me) =>
    t.call({ method: 'POST', url, headers: authHeaders(login), payload: payload as object });
  const page = async (request: Omit<SheetRequestInput, 'source'>, login: LoginResult = me) => {
    const answer = await post('/api/sheet/page', { source: { kind: 'session', sessionid, tab: 'structuretab' }, ...request }, login);
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.data as unknown as SheetPage;
  };

  beforeAll(async () => {
    // Two chunks: 2,000 structures and their activities, enough for series measured on several targets.
    t = await startTestApp(kind, {}, { demoChunks: 2 });
    me = await t.login(demoEmailForRole('FULL_USER'));
    other = await t.login(demoEmailForRole('EVALUATE_USER'));
    // The target with the most IC50-measured compounds, some of them censored: a search on it.
    const { rows } = await sql<{ target_id: number }>`SELECT target_id FROM activities
      WHERE target_id IS NOT NULL AND std_activity_type = 'IC50'
      GROUP BY target_id ORDER BY count(*) FILTER (WHERE std_act_prefix <> '=') > 0 DESC, count(DISTINCT str_id) DESC, target_id LIMIT 1`.execute(
      t.database.db,
    );
    const targetId = Number(rows[0]!.target_id);
    sessionid = crypto.randomUUID();
    const run = await post('/api/guidedsearch/allresultscount', {
      sessionid,
      searchcriteria: { rows: [{ selectedOption: 'target', targets: [{ label: 'top', ids: [targetId] }] }] },
    });
    expect(run.statusCode, run.body).toBe(200);
    // The columns in memory are current: the sheet reads its measurements from them (sheet-memory.ts),
    // and the cells below are checked against the raw activities; the test after them checks that
    // the database's reads (while the columns are being read) give the same rows.
    expect(await t.app.services.search.bitmapsReady()).toBe(true);
  }, 300_000);
  afterAll(() => t?.close());

  it('suggests the endpoints of every measurement of the compounds, most compounds first, counted as SQL counts them', async () => {
    const answer = await post('/api/sheet/endpoints', { source: { kind: 'session', sessionid, tab: 'structuretab' } });
    expect(answer.statusCode, answer.body).toBe(200);
    const suggested = answer.data as unknown as SheetSuggestResponse;
    const { rows: set } = await sql<{ n: number }>`SELECT count(DISTINCT ss.str_id)::int AS n FROM search_structures ss
      JOIN search_sessions s ON s.set_id = ss.set_id WHERE s.id = ${sessionid}`.execute(t.database.db);
    expect(suggested.compounds).toBe(set[0]!.n);
    const counts = suggested.targets.map((option) => option.compounds);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    const first = suggested.targets[0]!;
    const endpoint = first.endpoint as Extract<SheetEndpoint, { kind: 'target' }>;
    const { rows } = await sql<{ n: number }>`SELECT count(DISTINCT a.str_id)::int AS n FROM activities a
      WHERE a.target_id = ${endpoint.targetId} AND a.std_activity_type = ${endpoint.activityType}
        AND (a.pchembl_value IS NOT NULL OR a.activity_value IS NOT NULL)
        AND a.str_id IN (SELECT ss.str_id FROM search_structures ss JOIN search_sessions s ON s.set_id = ss.set_id WHERE s.id = ${sessionid})`.execute(
      t.database.db,
    );
    expect(first.compounds).toBe(rows[0]!.n);
    expect(suggested.assays.length).toBeGreaterThan(0);
    endpoints = suggested.targets
      .filter((option) => option.molar)
      .slice(0, 3)
      .map((option) => option.endpoint);
    expect(endpoints).toHaveLength(3);
  });

  it('fills every cell with the median of the exact values, or the censored bound with its sign, as computed from the raw activities', async () => {
    const sheet = await page({ endpoints, pageSize: 500 });
    expect(sheet.columns.map((c) => c.endpoint)).toEqual(endpoints);
    const ids = sheet.rows.map((row) => row.strId);
    let censoredSeen = 0;
    for (const [index, endpoint] of endpoints.entries()) {
      const e = endpoint as Extract<SheetEndpoint, { kind: 'target' }>;
      const { rows } = await sql<Raw>`SELECT str_id, pchembl_value, activity_value, standard_uom, std_act_prefix FROM activities
        WHERE str_id = ANY(${ids}::bigint[]) AND target_id = ${e.targetId} AND std_activity_type = ${e.activityType}
          AND (pchembl_value IS NOT NULL OR activity_value IS NOT NULL)`.execute(t.database.db);
      for (const row of sheet.rows) {
        const expected = expectedCell(rows.filter((r) => Number(r.str_id) === row.strId));
        const cell = row.cells[index];
        if (!expected) {
          expect(cell, `compound ${row.strId}`).toBeNull();
          continue;
        }
        expect(cell, `compound ${row.strId}`).not.toBeNull();
        expect(cell!.value).toBeCloseTo(expected.value, 9);
        expect(cell!.qualifier).toBe(expected.qualifier);
        expect(cell!.n).toBe(expected.n);
        expect(cell!.censored).toBe(expected.censored);
        if (expected.median == null) expect(cell!.median).toBeNull();
        else expect(cell!.median).toBeCloseTo(expected.median, 9);
        censoredSeen += expected.censored;
      }
    }
    expect(censoredSeen, 'the demo data has censored IC50s on this target').toBeGreaterThan(0);
  });

  it('sorts by an endpoint with blanks last in both directions, and filters by its range', async () => {
    for (const direction of ['asc', 'desc'] as const) {
      const sheet = await page({ endpoints, sort: { column: 'e1', direction }, pageSize: 500 });
      const values = sheet.rows.map((row) => row.cells[1]?.value ?? null);
      const firstBlank = values.indexOf(null);
      const filled = (firstBlank < 0 ? values : values.slice(0, firstBlank)) as number[];
      if (firstBlank >= 0) expect(values.slice(firstBlank).every((v) => v === null)).toBe(true);
      expect(filled).toEqual([...filled].sort((a, b) => (direction === 'asc' ? a - b : b - a)));
      expect(filled.length).toBeGreaterThan(0);
    }
    const all = await page({ endpoints, pageSize: 500 });
    const rows = [...all.rows];
    for (let n = 1; n * 500 < all.rowCount; n++) rows.push(...(await page({ endpoints, pageSize: 500, page: n })).rows);
    expect(rows).toHaveLength(all.rowCount);
    const filtered = await page({ endpoints, filters: [{ column: 'e0', min: 7 }], pageSize: 500 });
    const expected = rows.filter((row) => row.cells[0] && row.cells[0].value >= 7).length;
    expect(filtered.rowCount).toBe(expected);
    expect(filtered.rows.every((row) => row.cells[0]!.value >= 7)).toBe(true);
  });

  it('computes A − B of the values shown, signed by the censoring rule', async () => {
    const sheet = await page({ endpoints, differences: [{ a: 0, b: 1 }], pageSize: 500 });
    let both = 0;
    for (const row of sheet.rows) {
      const [a, b] = row.cells;
      const d = row.differences[0];
      if (!a || !b) {
        expect(d).toBeNull();
        continue;
      }
      if (a.qualifier === '=' && b.qualifier === '=') {
        both++;
        expect(d).toEqual({ value: expect.closeTo(a.value - b.value, 9), qualifier: '=' });
      } else if (a.qualifier === b.qualifier) expect(d).toBeNull();
    }
    expect(sheet.differences[0]!.withValue).toBeGreaterThanOrEqual(both);
  });

  it('refuses what it cannot answer, with the reason', async () => {
    const bad = async (request: object, status = 400) => {
      const answer = await post('/api/sheet/page', { source: { kind: 'session', sessionid, tab: 'structuretab' }, ...request });
      expect(answer.statusCode, answer.body).toBe(status);
      return String(answer.data.message);
    };
    expect(await bad({ endpoints: [endpoints[0], endpoints[0]] })).toMatch(/twice/);
    expect(await bad({ endpoints, sort: { column: 'e7', direction: 'asc' } })).toMatch(/no column e7/);
    expect(await bad({ endpoints, differences: [{ a: 0, b: 0 }] })).toMatch(/two different endpoints/);
    expect(await bad({ endpoints: [{ kind: 'target', targetId: 987_654_321, activityType: 'IC50' }] })).toMatch(/no target/);
    expect(await bad({ endpoints, page: 10_000 })).toMatch(/last page/);
    // Another user's search session is theirs alone.
    const answer = await post('/api/sheet/page', { source: { kind: 'session', sessionid, tab: 'structuretab' }, endpoints }, other);
    expect(answer.statusCode).toBe(403);
  });

  it('reads ids as a source, dropping those that are not structures', async () => {
    const sheet = await page({ endpoints, pageSize: 5 });
    const ids = sheet.rows.map((row) => row.strId);
    const answer = await post('/api/sheet/page', { source: { kind: 'ids', strIds: [...ids, 999_999_999] }, endpoints });
    expect(answer.statusCode, answer.body).toBe(200);
    const byIds = answer.data as unknown as SheetPage;
    expect(byIds.compounds).toBe(ids.length);
    expect(byIds.rows.map((row) => row.cells)).toEqual(sheet.rows.map((row) => row.cells));
  });

  it('reads a large sheet as two halves with the same rows, in the same order, as one read', async () => {
    const sheet = await page({ endpoints, pageSize: 500 });
    const ids = sheet.rows.map((row) => row.strId).sort((a, b) => a - b);
    const whole = await endpointMeasurements(t.database.db, ids, endpoints);
    const halves = await endpointMeasurements(t.database.db, ids, endpoints, 10);
    expect(whole.length).toBeGreaterThan(0);
    expect(halves).toEqual(whole);
  });

  it('reads the same groups and measurements from the columns in memory as from the database', async () => {
    const columns = await t.app.services.search.columnsIfCurrent();
    expect(columns, 'the columns are current').not.toBeNull();
    const sheet = await page({ endpoints, pageSize: 500 });
    const ids = sheet.rows.map((row) => row.strId).sort((a, b) => a - b);
    // An assay endpoint, and a type written in another case, beside the three target endpoints.
    const [assay] = await sqlGroups(t.database.db, ids, 'assay');
    const mixed: SheetEndpoint[] = [...endpoints, { kind: 'assay', assayId: assay!.key, activityType: assay!.activityType!.toUpperCase() }];
    const fromDatabase = await endpointMeasurements(t.database.db, ids, mixed);
    expect(fromDatabase[3]!.length).toBeGreaterThan(0);
    expect(memoryMeasurements(columns!, ids, mixed)).toEqual(fromDatabase);
    for (const kind of ['target', 'assay'] as const) {
      const strip = (
        groups: { key: number; typeKey: string; compounds: number; activities: number; with_pchembl: number; units: (string | null)[] }[],
      ) =>
        groups.map(({ key, typeKey, compounds, activities, with_pchembl, units }) => ({
          key,
          typeKey,
          compounds,
          activities,
          with_pchembl,
          units: [...units].sort(),
        }));
      const inMemory = strip(memoryGroups(columns!, ids, kind));
      expect(inMemory.length).toBeGreaterThan(0);
      expect(inMemory).toEqual(strip(await sqlGroups(t.database.db, ids, kind)));
    }
    await columns!.properties.read();
    const facts = memoryFacts(columns!, ids);
    expect(facts).toEqual(await compoundFacts(t.database.db, ids));
    expect(facts!.some((row) => row.heavy_atoms != null && row.mw != null)).toBe(true);
  });

  it('exports the filtered, sorted rows at one credit a row, with qualifiers', async () => {
    const sheet = await page({ endpoints, filters: [{ column: 'e0', hasValue: true }], sort: { column: 'e0', direction: 'desc' } });
    const before = await t.database.db
      .selectFrom('users')
      .select('credit_balance')
      .where('email', '=', demoEmailForRole('FULL_USER'))
      .executeTakeFirstOrThrow();
    const request = {
      source: { kind: 'session', sessionid, tab: 'structuretab' },
      endpoints,
      filters: [{ column: 'e0', hasValue: true }],
      sort: { column: 'e0', direction: 'desc' },
      format: 'csv',
    };
    const stale = await post('/api/sheet/export', { ...request, expectedCredits: sheet.rowCount + 1 });
    expect(stale.statusCode).toBe(409);
    const answer = await post('/api/sheet/export', { ...request, expectedCredits: sheet.rowCount });
    expect(answer.statusCode, answer.body).toBe(200);
    const job = answer.data as unknown as ExportJob;
    expect(job).toMatchObject({ source: 'sheet', rows: sheet.rowCount, credits: sheet.rowCount });
    const after = await t.database.db
      .selectFrom('users')
      .select('credit_balance')
      .where('email', '=', demoEmailForRole('FULL_USER'))
      .executeTakeFirstOrThrow();
    expect(Number(before.credit_balance) - Number(after.credit_balance)).toBe(sheet.rowCount);
    const evaluator = await post('/api/sheet/export', request, other);
    expect(evaluator.statusCode).toBe(403);
  });
});
