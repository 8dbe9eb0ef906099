import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { parse } from 'csv-parse/sync';
import type { LoginResult } from '@kb/contracts/auth';
import type { DqEntityInfo, DqFilter, DqQueryInput, DqRunResponse } from '@kb/contracts/dynamic-query';
import { DQ_ENTITIES, DQ_ENTITY_KEYS, DQ_OPERATORS, DQ_OPERATORS_BY_TYPE } from '@kb/contracts/dynamic-query';
import { demoEmailForRole } from '@kb/contracts/roles';
import { DATABASES, authHeaders, startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { DynamicQueryService } from './dq-service.ts';

/**
 * The dynamic query on real data (docs/dynamic-query.md): every entity and every operator against
 * SQL written here by hand; anything outside the whitelist is a 400 before any SQL; saved queries
 * are their owner's; an export goes through the export jobs and the credit ledger.
 */

type Json = Record<string, unknown>;

describe.each(DATABASES)('dynamic query on %s', (kind) => {
  let t: TestApp;
  let me: LoginResult;
  let other: LoginResult;
  const post = (url: string, payload: unknown, login: LoginResult = me) =>
    t.call({ method: 'POST', url, headers: authHeaders(login), payload: payload as object });
  const get = (url: string, login: LoginResult = me) => t.call({ method: 'GET', url, headers: authHeaders(login) });
  const del = (url: string, login: LoginResult = me) => t.call({ method: 'DELETE', url, headers: authHeaders(login) });
  const run = async (query: DqQueryInput & { page?: number; pageSize?: number }, login: LoginResult = me) =>
    post('/api/dynamicquery/run', query, login);
  const ok = async (query: DqQueryInput & { page?: number; pageSize?: number }) => {
    const answer = await run(query);
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.data as unknown as DqRunResponse;
  };
  const ids = async (query: ReturnType<typeof sql<{ id: number }>>) =>
    (await query.execute(t.database.db)).rows.map((row) => Number(row.id));
  const balanceOf = async (email: string) =>
    (await t.database.db.selectFrom('users').select('credit_balance').where('email', '=', email).executeTakeFirstOrThrow()).credit_balance;

  beforeAll(async () => {
    t = await startTestApp(kind, {}, { demoChunks: 1 });
    me = await t.login(demoEmailForRole('FULL_USER'));
    other = await t.login(demoEmailForRole('DOWNLOAD_EVALUATOR'));
  }, 180_000);
  afterAll(() => t.close());

  it('lists every table with its columns, their types and the operators each type takes', async () => {
    const answer = await post('/api/dynamicquery/gettablecolumns', {});
    expect(answer.statusCode, answer.body).toBe(200);
    const entities = answer.data.entities as DqEntityInfo[];
    expect(entities.map((e) => e.key)).toEqual([...DQ_ENTITY_KEYS]);
    const activities = entities.find((e) => e.key === 'activities')!;
    expect(activities.columns.find((c) => c.key === 'target_name')).toEqual({
      key: 'target_name',
      label: 'Target',
      type: 'text',
      operators: [...DQ_OPERATORS_BY_TYPE.text],
    });
    expect(activities.columns.find((c) => c.key === 'pchembl_value')!.operators).toContain('between');
    expect(activities.hasStructure).toBe(true);
    expect(entities.find((e) => e.key === 'documents')!.hasStructure).toBe(false);

    const one = await post('/api/dynamicquery/gettablecolumns', { entity: 'targets' });
    expect((one.data.entities as DqEntityInfo[]).map((e) => e.key)).toEqual(['targets']);
    const unknown = await post('/api/dynamicquery/gettablecolumns', { entity: 'users' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.data.message).toMatch(/Unknown table "users"/);
    const anonymous = await t.call({ method: 'POST', url: '/api/dynamicquery/gettablecolumns', payload: {} });
    expect(anonymous.statusCode).toBe(401);
  });

  it.each(DQ_ENTITY_KEYS)('runs a query of every column of %s: the first page and the count equal SQL', async (key) => {
    const entity = DQ_ENTITIES[key];
    const answer = await ok({ entity: key, columns: entity.columns.map((c) => c.key), pageSize: 20 });
    const expected = await ids(
      sql<{ id: number }>`SELECT ${sql.ref(entity.primaryKey)} AS id FROM ${sql.table(entity.table)} ORDER BY 1 LIMIT 20`,
    );
    const [count] = await ids(sql<{ id: number }>`SELECT count(*)::int AS id FROM ${sql.table(entity.table)}`);
    expect(answer.rows.map((row) => Number(row[entity.primaryKey]))).toEqual(expected);
    expect(answer.rowCount).toBe(count);
    expect(answer.rowCountCapped).toBe(false);
    expect(answer.columns.map((c) => c.key)).toEqual(entity.columns.map((c) => c.key));
    // Seeded demo data: every table has rows, so the comparison means something.
    expect(expected.length).toBeGreaterThan(0);
  });

  it('reads joined columns through the row’s foreign key: the activity’s target, compound, SMILES and assay', async () => {
    const answer = await ok({
      entity: 'activities',
      columns: ['act_id', 'target_name', 'compound_name', 'smiles', 'assay_chembl_id', 'year'],
      pageSize: 5,
    });
    const { rows } =
      await sql<Json>`SELECT a.act_id, t.name AS target_name, c.name AS compound_name, s.canonical_smiles AS smiles, y.chembl_id AS assay_chembl_id, d.year
      FROM activities a LEFT JOIN targets t ON t.target_id = a.target_id LEFT JOIN compounds c ON c.gvk_id = a.gvk_id
      LEFT JOIN structures s ON s.str_id = a.str_id LEFT JOIN assays y ON y.assay_id = a.assay_id LEFT JOIN documents d ON d.ref_id = a.ref_id
      ORDER BY a.act_id LIMIT 5`.execute(t.database.db);
    expect(answer.rows).toEqual(rows);
  });

  /** Each operator of each type, against the same condition written in SQL. */
  const cases: { entity: keyof typeof DQ_ENTITIES; filter: DqFilter; where: ReturnType<typeof sql> }[] = [
    { entity: 'activities', filter: { column: 'std_activity_type', operator: 'eq', value: 'Ki' }, where: sql`std_activity_type = 'Ki'` },
    {
      entity: 'activities',
      filter: { column: 'std_activity_type', operator: 'neq', value: 'Ki' },
      where: sql`std_activity_type IS DISTINCT FROM 'Ki'`,
    },
    { entity: 'targets', filter: { column: 'name', operator: 'contains', value: 'KINASE' }, where: sql`name ILIKE '%kinase%'` },
    { entity: 'targets', filter: { column: 'name', operator: 'startsWith', value: 'c' }, where: sql`lower(name) LIKE 'c%'` },
    {
      entity: 'activities',
      filter: { column: 'std_activity_type', operator: 'in', values: ['IC50', 'Kd'] },
      where: sql`std_activity_type IN ('IC50', 'Kd')`,
    },
    { entity: 'compounds', filter: { column: 'name', operator: 'empty' }, where: sql`(name IS NULL OR name = '')` },
    { entity: 'compounds', filter: { column: 'name', operator: 'notEmpty' }, where: sql`name <> ''` },
    { entity: 'structures', filter: { column: 'mol_weight', operator: 'lt', value: 300 }, where: sql`mol_weight < 300` },
    { entity: 'structures', filter: { column: 'mol_weight', operator: 'lte', value: 300.5 }, where: sql`mol_weight <= 300.5` },
    { entity: 'structures', filter: { column: 'logp_calc', operator: 'gt', value: 3 }, where: sql`logp_calc > 3` },
    { entity: 'structures', filter: { column: 'logp_calc', operator: 'gte', value: 3 }, where: sql`logp_calc >= 3` },
    {
      entity: 'structures',
      filter: { column: 'mol_weight', operator: 'between', value: 400, value2: 250 },
      where: sql`mol_weight >= 250 AND mol_weight <= 400`,
    },
    { entity: 'structures', filter: { column: 'hb_donors', operator: 'eq', value: 2 }, where: sql`hb_donors = 2` },
    { entity: 'structures', filter: { column: 'hb_donors', operator: 'neq', value: 2 }, where: sql`hb_donors IS DISTINCT FROM 2` },
    { entity: 'structures', filter: { column: 'hb_donors', operator: 'in', values: [0, 1] }, where: sql`hb_donors IN (0, 1)` },
    { entity: 'structures', filter: { column: 'logd_calc', operator: 'empty' }, where: sql`logd_calc IS NULL` },
    { entity: 'activities', filter: { column: 'pchembl_value', operator: 'notEmpty' }, where: sql`pchembl_value IS NOT NULL` },
    {
      entity: 'documents',
      filter: { column: 'year', operator: 'between', value: 2000, value2: 2010 },
      where: sql`year BETWEEN 2000 AND 2010`,
    },
    {
      entity: 'clinicalcompounds',
      filter: { column: 'last_significant_update', operator: 'gte', value: '2015-01-01' },
      where: sql`last_significant_update >= DATE '2015-01-01'`,
    },
    {
      entity: 'clinicalcompounds',
      filter: { column: 'last_significant_update', operator: 'lt', value: '2015-01-01' },
      where: sql`last_significant_update < DATE '2015-01-01'`,
    },
    { entity: 'assays', filter: { column: 'wild_type', operator: 'isTrue' }, where: sql`wild_type` },
    { entity: 'assays', filter: { column: 'wild_type', operator: 'isFalse' }, where: sql`NOT wild_type` },
    { entity: 'assays', filter: { column: 'wild_type', operator: 'empty' }, where: sql`wild_type IS NULL` },
  ];

  it('covers every operator in these cases', () => {
    expect(new Set(cases.map((c) => c.filter.operator))).toEqual(new Set(DQ_OPERATORS));
  });

  it.each(cases.map((c) => [`${c.entity}.${c.filter.column} ${c.filter.operator}`, c] as const))(
    'filters %s as SQL does',
    async (_name, { entity: key, filter, where }) => {
      const entity = DQ_ENTITIES[key];
      const answer = await ok({ entity: key, columns: [entity.primaryKey], filters: [filter], pageSize: 100 });
      const expected = await ids(
        sql<{ id: number }>`SELECT ${sql.ref(entity.primaryKey)} AS id FROM ${sql.table(entity.table)} WHERE ${where} ORDER BY 1`,
      );
      expect(answer.rowCount).toBe(expected.length);
      expect(answer.rows.map((row) => Number(row[entity.primaryKey]))).toEqual(expected.slice(0, 100));
    },
  );

  it('combines filters with AND, sorts (empty values last) and pages without gaps or repeats', async () => {
    const filters: DqFilter[] = [
      { column: 'mol_weight', operator: 'gt', value: 200 },
      { column: 'hb_acceptor', operator: 'lte', value: 6 },
    ];
    const expected = await ids(
      sql<{
        id: number;
      }>`SELECT str_id AS id FROM structures WHERE mol_weight > 200 AND hb_acceptor <= 6 ORDER BY logp_calc DESC NULLS LAST, str_id DESC`,
    );
    const pages = [];
    for (const page of [0, 1, 2])
      pages.push(
        await ok({
          entity: 'structures',
          columns: ['str_id', 'logp_calc'],
          filters,
          sort: { column: 'logp_calc', direction: 'desc' },
          page,
          pageSize: 7,
        }),
      );
    expect(pages.flatMap((p) => p.rows.map((row) => Number(row.str_id)))).toEqual(expected.slice(0, 21));
    expect(pages[0]!.rowCount).toBe(expected.length);
  });

  it('counts up to its cap and says there are more', async () => {
    const service = new DynamicQueryService(t.database.db, null as never, { statementTimeoutMs: 30_000, countCap: 50 });
    const answer = await service.run({ entity: 'activities', columns: ['act_id'], filters: [], sort: null, page: 0, pageSize: 10 });
    expect(answer).toMatchObject({ rowCount: 50, rowCountCapped: true });
  });

  // PGlite runs a statement to its end (no timer interrupts WASM); there admission control and the
  // bulk priority keep one query from stalling others (docs/dynamic-query.md "Limits").
  it.skipIf(kind === 'pglite')('stops a query that runs past its statement timeout with a 400 saying how to narrow it', async () => {
    const service = new DynamicQueryService(t.database.db, null as never, { statementTimeoutMs: 1, countCap: 100_000 });
    // A sort of every activity joined to its structure, target and compound takes longer than 1 ms.
    const query = {
      entity: 'activities',
      columns: ['act_id', 'smiles', 'target_name', 'compound_name'],
      filters: [
        { column: 'activity_remarks', operator: 'notEmpty' as const },
        { column: 'smiles', operator: 'contains' as const, value: 'c' },
      ],
      sort: { column: 'smiles', direction: 'desc' as const },
      page: 50,
      pageSize: 100,
    };
    await expect(service.run(query)).rejects.toMatchObject({
      statusCode: 400,
      message: expect.stringMatching(/ran longer than 0 s and was stopped/),
    });
  });

  it.each([
    ['an unknown table', { entity: 'users', columns: ['email'] }, /Unknown table "users"/],
    ['an unknown column', { entity: 'structures', columns: ['str_id', 'password_hash'] }, /no column "password_hash"/],
    [
      'an unknown filter column',
      { entity: 'structures', columns: ['str_id'], filters: [{ column: 'x; DROP TABLE users', operator: 'eq', value: 1 }] },
      /no column/,
    ],
    [
      'an unknown sort column',
      { entity: 'structures', columns: ['str_id'], sort: { column: 'pattern_fp', direction: 'asc' } },
      /no column "pattern_fp"/,
    ],
    [
      'an unknown operator',
      { entity: 'structures', columns: ['str_id'], filters: [{ column: 'str_id', operator: 'like', value: 1 }] },
      /operator/i,
    ],
    [
      'a text operator on a number',
      { entity: 'structures', columns: ['str_id'], filters: [{ column: 'mol_weight', operator: 'contains', value: '3' }] },
      /"contains" does not apply to a number column/,
    ],
    [
      'a comparison on text',
      { entity: 'targets', columns: ['name'], filters: [{ column: 'name', operator: 'lt', value: 'b' }] },
      /does not apply to a text column/,
    ],
    [
      'a between on yes/no',
      { entity: 'assays', columns: ['assay_id'], filters: [{ column: 'wild_type', operator: 'between', value: 1, value2: 2 }] },
      /does not apply to a boolean column/,
    ],
    [
      'text for a number',
      { entity: 'structures', columns: ['str_id'], filters: [{ column: 'mol_weight', operator: 'gt', value: '300' }] },
      /must be a number/,
    ],
    [
      'a fraction for a whole number',
      { entity: 'structures', columns: ['str_id'], filters: [{ column: 'hb_donors', operator: 'eq', value: 1.5 }] },
      /whole number/,
    ],
    [
      'an impossible date',
      {
        entity: 'clinicalcompounds',
        columns: ['drug_name'],
        filters: [{ column: 'last_significant_update', operator: 'eq', value: '2020-02-30' }],
      },
      /YYYY-MM-DD/,
    ],
    ['a missing value', { entity: 'targets', columns: ['name'], filters: [{ column: 'name', operator: 'eq' }] }, /a value is needed/],
    [
      'between with one bound',
      { entity: 'structures', columns: ['str_id'], filters: [{ column: 'mol_weight', operator: 'between', value: 1 }] },
      /between needs two values/,
    ],
    [
      'an empty list',
      { entity: 'structures', columns: ['str_id'], filters: [{ column: 'str_id', operator: 'in', values: [] }] },
      /at least one value/,
    ],
    [
      '21 filters',
      {
        entity: 'structures',
        columns: ['str_id'],
        filters: Array.from({ length: 21 }, () => ({ column: 'str_id', operator: 'notEmpty' })),
      },
      /20/,
    ],
    ['no columns', { entity: 'structures', columns: [] }, /at least one column/],
    [
      'an infinite number',
      { entity: 'structures', columns: ['str_id'], filters: [{ column: 'mol_weight', operator: 'gt', value: Number.POSITIVE_INFINITY }] },
      /./,
    ],
  ])('answers 400 for %s, and saving or exporting it changes nothing', async (_name, query, message) => {
    const answer = await post('/api/dynamicquery/run', query);
    expect(answer.statusCode, answer.body).toBe(400);
    expect(String(answer.data.message)).toMatch(message);
    const before = {
      saved: await countRows('dynamic_queries'),
      jobs: await countRows('export_jobs'),
      balance: await balanceOf(me.username),
    };
    const saved = await post('/api/dynamicquery/saved', { name: 'bad', query });
    expect(saved.statusCode).toBe(400);
    const exported = await post('/api/dynamicquery/export', { ...query, format: 'csv' });
    expect(exported.statusCode).toBe(400);
    expect({
      saved: await countRows('dynamic_queries'),
      jobs: await countRows('export_jobs'),
      balance: await balanceOf(me.username),
    }).toEqual(before);
  });
  it('answers 400 for a page of more than 100 rows or past page 100,000', async () => {
    expect((await run({ entity: 'structures', columns: ['str_id'], pageSize: 101 })).statusCode).toBe(400);
    expect((await run({ entity: 'structures', columns: ['str_id'], page: 100_001 })).statusCode).toBe(400);
    expect((await run({ entity: 'structures', columns: ['str_id'], page: 100_000, pageSize: 100 })).data.rows).toEqual([]);
  });
  const countRows = async (table: 'dynamic_queries' | 'export_jobs') =>
    (await ids(sql<{ id: number }>`SELECT count(*)::int AS id FROM ${sql.table(table)}`))[0];

  it('keeps a user’s saved queries to that user: save, replace by name, list, open, delete; another user’s → 403, none → 404', async () => {
    const query = {
      entity: 'targets',
      columns: ['target_id', 'name'],
      filters: [{ column: 'organism', operator: 'eq', value: 'Homo sapiens' }],
      sort: { column: 'name', direction: 'asc' },
    };
    const first = await post('/api/dynamicquery/saved', { name: 'Human targets', query });
    expect(first.statusCode, first.body).toBe(200);
    const id = Number(first.data.id);
    const replaced = await post('/api/dynamicquery/saved', { name: 'Human targets', query: { ...query, columns: ['name'] } });
    expect(Number(replaced.data.id)).toBe(id);
    const listed = await get('/api/dynamicquery/saved');
    expect((listed.data.queries as { id: number; name: string }[]).filter((q) => q.name === 'Human targets').map((q) => q.id)).toEqual([
      id,
    ]);
    const opened = await get(`/api/dynamicquery/saved/${id}`);
    expect(opened.data).toMatchObject({ id, name: 'Human targets', query: { entity: 'targets', columns: ['name'] } });

    expect((await get(`/api/dynamicquery/saved/${id}`, other)).statusCode).toBe(403);
    expect((await del(`/api/dynamicquery/saved/${id}`, other)).statusCode).toBe(403);
    expect((await get('/api/dynamicquery/saved', other)).data.queries).toEqual([]);
    expect((await get('/api/dynamicquery/saved/999999999')).statusCode).toBe(404);

    expect((await del(`/api/dynamicquery/saved/${id}`)).statusCode).toBe(200);
    expect((await get(`/api/dynamicquery/saved/${id}`)).statusCode).toBe(404);
  });

  it('runs for any logged-in role (the page is authentication only), but exports only for the export roles', async () => {
    const evaluator = await t.login(demoEmailForRole('EVALUATE_USER'));
    expect((await run({ entity: 'targets', columns: ['name'] }, evaluator)).statusCode).toBe(200);
    const refused = await post('/api/dynamicquery/export', { entity: 'targets', columns: ['name'], format: 'csv' }, evaluator);
    expect(refused.statusCode).toBe(403);
  });

  it('exports a query through the export jobs: the file holds its rows in its sort, one credit each, in the download history', async () => {
    const query = {
      entity: 'activities',
      columns: ['act_id', 'target_name', 'std_activity_type', 'activity_value'],
      filters: [
        { column: 'std_activity_type', operator: 'eq', value: 'Ki' },
        { column: 'activity_value', operator: 'lt', value: 50 },
      ],
      sort: { column: 'activity_value', direction: 'asc' },
    };
    const expected = await ids(
      sql<{
        id: number;
      }>`SELECT act_id AS id FROM activities WHERE std_activity_type = 'Ki' AND activity_value < 50 ORDER BY activity_value ASC NULLS LAST, act_id ASC`,
    );
    expect(expected.length).toBeGreaterThan(0);
    const before = await balanceOf(me.username);

    const changed = await post('/api/dynamicquery/export', { ...query, format: 'csv', expectedCredits: expected.length + 1 });
    expect(changed.statusCode).toBe(409);
    expect(await balanceOf(me.username)).toBe(before);

    const started = await post('/api/dynamicquery/export', { ...query, format: 'csv', expectedCredits: expected.length });
    expect(started.statusCode, started.body).toBe(200);
    expect(started.data).toMatchObject({
      source: 'dynamicquery',
      tab: 'activitiestab',
      status: 'done',
      rows: expected.length,
      credits: expected.length,
    });
    expect(await balanceOf(me.username)).toBe(before - expected.length);
    const ledger = await sql<{ delta: number }>`SELECT delta FROM credit_ledger WHERE export_job_id = ${Number(started.data.id)}`.execute(
      t.database.db,
    );
    expect(ledger.rows.map((row) => Number(row.delta))).toEqual([-expected.length]);

    const file = await post('/api/dashboard/downloadfile', { fileId: started.data.fileId });
    expect(file.statusCode).toBe(200);
    const records = parse(file.body.replace(/^\uFEFF/, ''), { columns: true }) as Record<string, string>[];
    expect(Object.keys(records[0]!)).toEqual(['Activity id', 'Target', 'Activity type', 'Value']);
    expect(records.map((r) => Number(r['Activity id']))).toEqual(expected);

    const history = await get('/api/exportlogs/export');
    expect(
      (history.data.rows as { exportId: number; description: string }[]).find((row) => row.exportId === Number(started.data.id))
        ?.description,
    ).toBe('Dynamic query Activities · CSV');
    // Another user cannot reach the job.
    expect((await get(`/api/export/jobs/${Number(started.data.id)}`, other)).statusCode).toBe(403);
  });

  it('exports structures as SDF, refuses SDF for rows without structures and a short balance before any work', async () => {
    const sdf = await post('/api/dynamicquery/export', {
      entity: 'structures',
      columns: ['str_id', 'mol_weight'],
      filters: [{ column: 'str_id', operator: 'in', values: [1, 2, 3] }],
      format: 'sdf',
    });
    expect(sdf.statusCode, sdf.body).toBe(200);
    const file = await post('/api/dashboard/downloadfile', { fileId: sdf.data.fileId });
    expect(file.body.split('$$$$').length - 1).toBe(3);
    // Fields are named by the column labels, as the CSV header is.
    expect(file.body).toContain('> <Molecular weight>');
    expect(file.body).not.toContain('> <mol_weight>');

    const docs = await post('/api/dynamicquery/export', { entity: 'documents', columns: ['title'], format: 'sdf' });
    expect(docs.statusCode).toBe(400);
    expect(docs.data.message).toMatch(/SDF holds structures/);

    const low = await t.login('lowcredit@demo.test');
    const balance = await balanceOf('lowcredit@demo.test');
    const short = await post('/api/dynamicquery/export', { entity: 'structures', columns: ['str_id'], format: 'csv' }, low);
    expect(short.statusCode).toBe(402);
    expect(await balanceOf('lowcredit@demo.test')).toBe(balance);
  });
});
