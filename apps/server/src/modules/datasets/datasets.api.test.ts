import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { datasetFileNameProblem } from '@kb/contracts/datasets';
import { demoEmailForRole } from '@kb/contracts/roles';
import type { LoginResult } from '@kb/contracts/auth';
import { DATABASES, authHeaders, startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';

/**
 * Flat-file datasets and requests for data (docs/exports.md): FLAT_FILE_ADMIN uploads for roles;
 * users with flat-file access list and download the datasets of their roles, nobody else's; requests
 * are created, listed and cancelled (cancelled_by) by their owner only.
 */

type Json = Record<string, unknown>;
const CSV = Buffer.from('str_id,smiles\n1,CCO\n2,c1ccccc1\n', 'utf8');

describe.each(DATABASES)('datasets and requests on %s', (kind) => {
  let t: TestApp;
  let admin: LoginResult;
  let full: LoginResult;
  let flatOnly: LoginResult;
  let evaluator: LoginResult;
  const get = (url: string, login: LoginResult) => t.call({ method: 'GET', url, headers: authHeaders(login) });
  const post = (url: string, payload: unknown, login: LoginResult) =>
    t.call({ method: 'POST', url, headers: authHeaders(login), payload: payload as object });
  const upload = (query: Record<string, string>, body: Buffer, login: LoginResult = admin, headers: Record<string, string> = {}) =>
    t.call({
      method: 'PUT',
      url: `/api/security/flatfile/upload?${new URLSearchParams(query).toString()}`,
      headers: { ...authHeaders(login), 'content-type': 'application/octet-stream', ...headers },
      payload: body,
    });

  beforeAll(async () => {
    t = await startTestApp(kind);
    admin = await t.login(demoEmailForRole('FLAT_FILE_ADMIN'));
    full = await t.login(demoEmailForRole('FULL_USER'));
    flatOnly = await t.login(demoEmailForRole('FLAT_FILE_ONLY'));
    evaluator = await t.login(demoEmailForRole('EVALUATE_USER'));
  }, 60_000);
  afterAll(() => t.close());

  it('lets FLAT_FILE_ADMIN upload datasets that the users of their roles list and download, and nobody else', async () => {
    const forFull = await upload(
      { datasetType: 'Structures', fileName: 'structures-2026.csv', roles: 'FULL_USER', description: 'All structures' },
      CSV,
    );
    expect(forFull.statusCode, forFull.body).toBe(200);
    expect(forFull.data).toMatchObject({
      datasetType: 'Structures',
      flatfileName: 'structures-2026.csv',
      flatfileSize: CSV.length,
      roles: ['FULL_USER'],
    });
    const forFlatOnly = await upload(
      { datasetType: 'Activities', fileName: 'activities.csv.gz', roles: 'FLAT_FILE_ONLY' },
      Buffer.from([0x1f, 0x8b, 8, 0, 0, 0]),
    );
    expect(forFlatOnly.statusCode, forFlatOnly.body).toBe(200);
    // Roles as repeated keys (how the web client sends a list) mean the same as a comma list.
    const twoRoles = await t.call({
      method: 'PUT',
      url: '/api/security/flatfile/upload?datasetType=Targets&fileName=targets.txt&roles=EVALUATE_USER&roles=DOWNLOAD_EVALUATOR',
      headers: { ...authHeaders(admin), 'content-type': 'application/octet-stream' },
      payload: Buffer.from('P00533\n'),
    });
    expect(twoRoles.data.roles).toEqual(['EVALUATE_USER', 'DOWNLOAD_EVALUATOR']);

    const listOf = async (login: LoginResult) =>
      (await get(`/api/security/flatfile/userdownload/fetch?userName=${encodeURIComponent(login.username)}`, login)).data;
    expect(((await listOf(full)).rows as Json[]).map((r) => r.flatfileName)).toEqual(['structures-2026.csv']);
    expect(((await listOf(flatOnly)).rows as Json[]).map((r) => r.flatfileName)).toEqual(['activities.csv.gz']);
    expect(await listOf(evaluator)).toEqual({ havingFlatFileAccess: false, rows: [] });
    expect(((await listOf(admin)).rows as Json[]).length).toBe(3);
    // Someone else's list: 403.
    expect(
      (await get(`/api/security/flatfile/userdownload/fetch?userName=${encodeURIComponent(flatOnly.username)}`, full)).statusCode,
    ).toBe(403);

    const fileId = forFull.data.fileId as number;
    const got = await post('/api/dashboard/downloadfile', { fileId }, full);
    expect(got.statusCode).toBe(200);
    expect(got.rawPayload.equals(CSV)).toBe(true);
    const history = (await get('/api/exportlogs/export', full)).data.rows as Json[];
    expect(history[0]).toMatchObject({ kind: 'dataset', fileName: 'structures-2026.csv', credits: 0, fileId });

    // A dataset of another role: 403 for the user without it, and for a user without flat files.
    expect((await post('/api/dashboard/downloadfile', { fileId: forFlatOnly.data.fileId }, full)).statusCode).toBe(403);
    expect((await post('/api/dashboard/downloadfile', { fileId }, evaluator)).statusCode).toBe(403);
    expect((await post('/api/dashboard/downloadfile', { fileId }, flatOnly)).statusCode).toBe(403);
    // Only FLAT_FILE_ADMIN uploads or deletes datasets.
    expect((await upload({ datasetType: 'Structures', fileName: 'x.csv', roles: 'FULL_USER' }, CSV, full)).statusCode).toBe(403);
    expect((await post('/api/dashboard/deletefile', { fileId }, full)).statusCode).toBe(403);
    expect((await post('/api/dashboard/deletefile', { fileId: forFlatOnly.data.fileId }, admin)).data).toEqual({ deleted: true });
    expect(((await listOf(flatOnly)).rows as Json[]).length).toBe(0);
  });

  it('refuses uploads that are not what their name says, too large or for no role, and keeps nothing of them', async () => {
    const refused = async (
      query: Record<string, string>,
      body: Buffer,
      status: number,
      message: RegExp,
      headers: Record<string, string> = {},
    ) => {
      const answer = await upload({ datasetType: 'Structures', roles: 'FULL_USER', ...query }, body, admin, headers);
      expect(answer.statusCode, answer.body).toBe(status);
      expect(answer.data.message).toMatch(message);
    };
    const before = await t.database.db
      .selectFrom('stored_files')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    await refused({ fileName: 'tool.exe' }, CSV, 400, /\.csv.*"tool\.exe" is not/);
    await refused({ fileName: 'archive.zip' }, CSV, 400, /not a ZIP archive/);
    await refused({ fileName: 'book.xlsx' }, CSV, 400, /not a XLSX workbook/);
    await refused({ fileName: 'table.csv' }, Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0, 0xff, 0xfe]), 400, /UTF-8 text/);
    await refused({ fileName: 'mols.sdf' }, Buffer.from('just text\n'), 400, /no record end/);
    await refused({ fileName: 'empty.csv' }, Buffer.alloc(0), 400, /empty|file itself/);
    await refused({ fileName: 'big.csv' }, CSV, 413, /at most 256 MiB/, { 'content-length': String(300 * 1024 * 1024) });
    await refused({ fileName: 'x.csv', roles: 'GOSTAR_ADMIN' }, CSV, 400, /roles/);
    await refused({ fileName: 'x.csv', datasetType: 'Everything' }, CSV, 400, /datasetType/);
    const after = await t.database.db
      .selectFrom('stored_files')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('refuses a file name that is a path, holds markup or control characters, or is a reserved device name, with a 400 that says why', async () => {
    const before = await t.database.db
      .selectFrom('stored_files')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const cases: Array<[string, RegExp]> = [
      ['../../../var/x.csv', /is a path/],
      ['/etc/cron.d/x.csv', /is a path/],
      ['C:\\temp\\x.csv', /is a path/],
      ['<script>alert(1)</script>.csv', /is a path|may not contain/],
      ['<b>bold</b>.csv', /is a path|may not contain/],
      ['a"quote.csv', /may not contain any of/],
      ['tab\there.csv', /control characters/],
      ['line\nbreak.csv', /control characters/],
      ['CON.csv', /reserves for a device/],
      ['lpt1.txt', /reserves for a device/],
      ['nul', /reserves for a device/],
      ['.hidden.csv', /start or end with a dot/],
      ['trailing.csv.', /start or end with a dot/],
      [`${'a'.repeat(200)}.csv`, /at most 200 characters/],
    ];
    for (const [fileName, message] of cases) {
      const answer = await upload({ datasetType: 'Structures', roles: 'FULL_USER', fileName }, CSV);
      expect(answer.statusCode, `${fileName}: ${answer.body}`).toBe(400);
      expect(String(answer.data.message), fileName).toMatch(message);
    }
    const after = await t.database.db
      .selectFrom('stored_files')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));

    // A plain name with spaces, accents and brackets is kept as given, and downloads under that name (RFC 6266 encoded).
    const plain = await upload({ datasetType: 'Structures', roles: 'FULL_USER', fileName: "Kinase set (µM) – O'Neil.csv" }, CSV);
    expect(plain.statusCode, plain.body).toBe(200);
    expect(plain.data.flatfileName).toBe("Kinase set (µM) – O'Neil.csv");
    const got = await post('/api/dashboard/downloadfile', { fileId: plain.data.fileId }, full);
    expect(got.headers['content-disposition']).toBe(
      "attachment; filename=\"Kinase set (_M) _ O'Neil.csv\"; filename*=UTF-8''Kinase%20set%20%28%C2%B5M%29%20%E2%80%93%20O%27Neil.csv",
    );
  });

  it('refuses a name that only looks plain — edge spaces, a device name before spaces, invisible direction or zero-width characters — instead of storing it', async () => {
    const stored = async () =>
      Number(
        (
          await t.database.db
            .selectFrom('stored_files')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await stored();
    const cases: Array<[string, RegExp]> = [
      [' lead.csv', /may not start or end with a dot or a space/],
      ['trail.csv ', /may not start or end with a dot or a space/],
      ['CON .csv', /reserves for a device/],
      ['invoice\u202Egpj.csv', /invisible formatting/],
      ['zero\u200Bwidth.csv', /invisible formatting/],
      ['line\u2028separator.csv', /control characters/],
    ];
    for (const [fileName, message] of cases) {
      const answer = await upload({ datasetType: 'Structures', roles: 'FULL_USER', fileName }, CSV);
      expect(answer.statusCode, `${JSON.stringify(fileName)}: ${answer.body}`).toBe(400);
      // The upload form's words (contracts datasets.ts), with the field named.
      expect(answer.data.message, JSON.stringify(fileName)).toBe(`${datasetFileNameProblem(fileName)} (fileName)`);
      expect(String(answer.data.message)).toMatch(message);
    }
    expect(await stored()).toBe(before);
  });

  it('sends a dataset stored before the rule under a bad name with a well-formed header: no path, no raw quote, line break or non-ASCII byte', async () => {
    const uploaded = await upload({ datasetType: 'Structures', roles: 'FULL_USER', fileName: 'legacy.csv' }, CSV);
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    // No migration renamed old rows: the header alone must make them safe.
    await t.database.db
      .updateTable('stored_files')
      .set({ file_name: '../../../var/"Résumé"\r\nSet-Cookie: a=1;.csv' })
      .where('id', '=', uploaded.data.fileId as number)
      .execute();
    const got = await post('/api/dashboard/downloadfile', { fileId: uploaded.data.fileId }, full);
    expect(got.statusCode, got.body).toBe(200);
    expect(got.headers['set-cookie']).toBeUndefined();
    const header = String(got.headers['content-disposition']);
    // RFC 6266: a quoted ASCII fallback without quote or backslash, then the RFC 8187 UTF-8 name in attr-chars only.
    expect(header).toMatch(/^attachment; filename="[\x20\x21\x23-\x5b\x5d-\x7e]*"; filename\*=UTF-8''[A-Za-z0-9!#$&+\-.^_`|~%]+$/);
    const saved = decodeURIComponent(header.split("UTF-8''")[1] ?? '');
    expect(saved).not.toMatch(/[/\\]/);
    expect(saved.endsWith('.csv')).toBe(true);
  });

  it('keeps requests for data to their owner: create, list, cancel with cancelled_by; the admin sees and moves them all', async () => {
    const created = await post(
      '/api/security/flatfile/request/create',
      { datasetType: 'Targets', description: 'Kinase targets with UniProt ids, as CSV' },
      full,
    );
    expect(created.statusCode, created.body).toBe(200);
    expect(created.data).toMatchObject({ datasetType: 'Targets', requestedBy: full.username, status: 'pending', cancelled_by: null });
    const id = created.data.id as number;
    const second = await post(
      '/api/security/flatfile/request/create',
      { datasetType: 'Assays', description: 'Binding assays of 2024 and later' },
      full,
    );
    expect((await post('/api/security/flatfile/request/create', { datasetType: 'Assays', description: 'short' }, full)).statusCode).toBe(
      400,
    );

    const mine = (await get('/api/security/flatfile/request/fetch?flatFileReqType=user', full)).data.rows as Json[];
    expect(mine.map((r) => r.id)).toEqual([second.data.id, id]);
    expect(((await get('/api/security/flatfile/request/fetch?flatFileReqType=user', flatOnly)).data.rows as Json[]).length).toBe(0);
    expect((await get('/api/security/flatfile/request/fetch?flatFileReqType=all', full)).statusCode).toBe(403);
    expect((await post('/api/security/flatfile/request/cancel', { id }, flatOnly)).statusCode).toBe(403);
    expect((await post('/api/security/flatfile/request/status', { id, status: 'fulfilled' }, full)).statusCode).toBe(403);

    const cancelled = await post('/api/security/flatfile/request/cancel', { id }, full);
    expect(cancelled.data).toMatchObject({ status: 'cancelled', cancelled_by: full.username });
    const again = await post('/api/security/flatfile/request/cancel', { id }, full);
    expect(again.statusCode).toBe(409);
    expect(again.data.message).toMatch(/cancelled already/);

    const all = (await get('/api/security/flatfile/request/fetch?flatFileReqType=all', admin)).data.rows as Json[];
    expect(all.map((r) => r.id)).toEqual(expect.arrayContaining([id, second.data.id]));
    expect((await post('/api/security/flatfile/request/status', { id: second.data.id, status: 'in_progress' }, admin)).data).toMatchObject({
      status: 'in_progress',
    });
    expect((await post('/api/security/flatfile/request/cancel', { id: second.data.id }, admin)).data).toMatchObject({
      status: 'cancelled',
      cancelled_by: admin.username,
    });
    expect((await post('/api/security/flatfile/request/cancel', { id: 999_999 }, full)).statusCode).toBe(404);
  });
});
