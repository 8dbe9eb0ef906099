import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { DEMO_PASSWORD, demoEmailForRole } from '@kb/contracts/roles';
import { startTestApp } from '../../test/harness.ts';
import type { TestApp } from '../../test/harness.ts';

/**
 * The document drives the product (issue 20): types generated from the live `/api/docs/json` by
 * openapi-typescript, a script written against them with openapi-fetch, compiled strictly (so the
 * types are real, not `any`) and then run against a server listening on a real port: log in, run a
 * guided search, page a results tab, price and start an export, download its file.
 */

/** The script, as a user would write it against the generated `paths`. */
const FLOW = `
import createClient from 'openapi-fetch';
import type { paths } from './schema';

const COLUMNS = ['act_id', 'str_id', 'std_activity_type'];

export async function scriptFlow(baseUrl: string, username: string, password: string, sessionid: string) {
  const api = createClient<paths>({ baseUrl });
  const login = await api.POST('/api/pub/{product}/generate-token', { params: { path: { product: 'gostar' } }, body: { username, password } });
  if (!login.data) throw new Error('login failed: ' + login.response.status);
  const headers = { Authorization: 'Bearer ' + login.data.nodeToken };

  const searchcriteria = { rows: [{ selectedOption: 'activitytypes' as const, activities: [{ activityType: 'Ki' }] }] };
  const counted = await api.POST('/api/guidedsearch/count', { headers, body: { searchcriteria } });
  const run = await api.POST('/api/guidedsearch/allresultscount', { headers, body: { searchcriteria, sessionid } });
  if (!counted.data || !run.data) throw new Error('search failed: ' + run.response.status);

  const page = (pageNumber: number) =>
    api.POST('/api/results/{tab}', { headers, params: { path: { tab: 'activitiestab' } }, body: { sessionid, pageNumber, pageSize: 5, sortOrder: { column: 'act_id', direction: 'asc' } } });
  const first = await page(0);
  const second = await page(1);
  if (!first.data || !second.data) throw new Error('paging failed: ' + first.response.status);
  const ids = first.data.data.map((row) => Number(row.act_id));

  const price = await api.POST('/api/guidedsearch/exportdatacount', { headers, body: { sessionid, tab: 'activitiestab', selection: { selectedIds: ids } } });
  const job = await api.POST('/api/export/start', { headers, body: { sessionid, tab: 'activitiestab', selection: { selectedIds: ids }, format: 'csv', columns: COLUMNS } });
  if (!price.data || !job.data) throw new Error('export failed: ' + job.response.status);
  const fileId = job.data.fileId;
  if (fileId === null) throw new Error('export has no file yet: ' + job.data.status);
  const file = await api.POST('/api/dashboard/downloadfile', { headers, body: { fileId }, parseAs: 'text' });

  return {
    counted: counted.data.rows[0],
    run: run.data.rows[0],
    first: first.data,
    secondIds: second.data.data.map((row) => Number(row.act_id)),
    price: price.data,
    job: job.data,
    file: file.data,
  };
}
`;

/** Calls the generated types must refuse: a wrong path, a wrong format, a missing session id. */
const WRONG = `
import createClient from 'openapi-fetch';
import type { paths } from './schema';

const api = createClient<paths>({ baseUrl: 'http://localhost' });
export const calls = [
  api.POST('/api/guidedsearch/nosuchcall', { body: {} }),
  api.POST('/api/export/start', { body: { sessionid: 'x', tab: 'activitiestab', selection: null, format: 'pdf', columns: ['act_id'] } }),
  api.POST('/api/guidedsearch/allresultscount', { body: { searchcriteria: { rows: [] } } }),
];
`;

type FlowResult = {
  counted: Record<string, number>;
  run: Record<string, number>;
  first: { rowCount: number; pageSize: number; data: Record<string, unknown>[] };
  secondIds: number[];
  price: { rows: number; credits: number; allowed: boolean };
  job: { status: string; rows: number; credits: number; fileId: number; creditBalance: number };
  file: string;
};

/** Strict compilation of the files in `dir`; the diagnostics of each file by its name. */
function compile(dir: string, files: string[]): Map<string, string[]> {
  const program = ts.createProgram(
    files.map((file) => path.join(dir, file)),
    {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2023,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
      types: [],
      skipLibCheck: true,
    },
  );
  const byFile = new Map<string, string[]>(files.map((file) => [file, []]));
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    const name = diagnostic.file ? path.basename(diagnostic.file.fileName) : '(global)';
    const list = byFile.get(name) ?? [];
    list.push(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    byFile.set(name, list);
  }
  return byFile;
}

describe('a typed client generated from the live OpenAPI document', () => {
  let t: TestApp;
  let baseUrl: string;
  // Inside the repository's node_modules so that the script resolves openapi-fetch like any project would.
  const dir = path.resolve(
    import.meta.dirname,
    '../../../../node_modules/.cache',
    `openapi-client-${crypto.randomBytes(4).toString('hex')}`,
  );

  beforeAll(async () => {
    t = await startTestApp('pglite', {}, { demoChunks: 1 });
    baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const document = (await (await fetch(`${baseUrl}/api/docs/json`)).json()) as Parameters<typeof openapiTS>[0];
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'schema.d.ts'), astToString(await openapiTS(document)));
    fs.writeFileSync(path.join(dir, 'flow.ts'), FLOW);
    fs.writeFileSync(path.join(dir, 'wrong.ts'), WRONG);
  }, 180_000);
  afterAll(async () => {
    fs.rmSync(dir, { recursive: true, force: true });
    await t.close();
  });

  it('types the script: it compiles strictly, and calls the document does not allow do not', () => {
    const diagnostics = compile(dir, ['flow.ts', 'wrong.ts']);
    expect(diagnostics.get('flow.ts')).toEqual([]);
    expect(diagnostics.get('schema.d.ts') ?? []).toEqual([]);
    // One refusal per wrong call at least (the path, the format, the missing session id).
    expect(diagnostics.get('wrong.ts')!.length).toBeGreaterThanOrEqual(3);
    expect(diagnostics.get('wrong.ts')!.join('\n')).toMatch(/nosuchcall/);
    expect(diagnostics.get('wrong.ts')!.join('\n')).toMatch(/"pdf"/);
    expect(diagnostics.get('wrong.ts')!.join('\n')).toMatch(/sessionid/);
  }, 120_000);

  it('logs in, searches, pages a results tab, starts an export and downloads it through the generated client', async () => {
    const { outputText } = ts.transpileModule(FLOW, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2023 } });
    const script = path.join(dir, 'flow.mjs');
    fs.writeFileSync(script, outputText);
    const { scriptFlow } = (await import(pathToFileURL(script).href)) as { scriptFlow: (...args: string[]) => Promise<FlowResult> };
    const user = demoEmailForRole('FULL_USER');
    const result = await scriptFlow(baseUrl, user, DEMO_PASSWORD, crypto.randomUUID());

    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM activities WHERE std_activity_type = 'Ki'`.execute(
      t.database.db,
    );
    expect(rows[0]!.n).toBeGreaterThan(10);
    expect(result.run.actidscount).toBe(rows[0]!.n);
    expect(result.counted.actidscount).toBe(result.run.actidscount);
    expect(result.first.rowCount).toBe(result.run.actidscount);

    const firstIds = result.first.data.map((row) => Number(row.act_id));
    expect(firstIds).toHaveLength(5);
    expect(result.secondIds).toHaveLength(5);
    expect(Math.max(...firstIds)).toBeLessThan(Math.min(...result.secondIds));

    expect(result.price).toMatchObject({ rows: 5, credits: 5, allowed: true });
    expect(result.job).toMatchObject({ status: 'done', rows: 5, credits: 5 });
    const lines = result.file
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    expect(lines).toHaveLength(6);
    expect(lines.slice(1).map((line) => Number(line.split(',')[0]))).toEqual(firstIds);
    const balance = await t.database.db.selectFrom('users').select('credit_balance').where('email', '=', user).executeTakeFirstOrThrow();
    expect(balance.credit_balance).toBe(result.job.creditBalance);
  }, 120_000);
});
