import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { demoEmailForRole } from '@kb/contracts/roles';
import type { LoginResult } from '@kb/contracts/auth';
import type { SearchCriteriaInput } from '@kb/contracts/search';
import type { CurationResponse, TermTrackerRow } from '@kb/contracts/admin-trackers';
import type { UploadValidateResponse } from '@kb/contracts/uploads';
import { DATABASES, authHeaders, startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';

const VALIDATE = '/api/guidedsearch/uploadvia/validate/data';
const REPORT = '/api/user/tracker/reportterms/save';
const KI: SearchCriteriaInput = { rows: [{ selectedOption: 'activitytypes', activities: [{ activityType: 'Ki' }] }] };

describe.each(DATABASES)('trackers on %s', (kind) => {
  let t: TestApp;
  let kbAdmin: LoginResult;
  let flatAdmin: LoginResult;
  let fullUser: LoginResult;
  let orgId: number;
  const get = (url: string, login: LoginResult = kbAdmin) => t.call({ method: 'GET', url, headers: authHeaders(login) });
  const post = (url: string, payload: unknown, login: LoginResult = kbAdmin) =>
    t.call({ method: 'POST', url, headers: authHeaders(login), payload: payload as object });
  const db = () => t.database.db;

  async function upload(listType: string, terms: string[]): Promise<UploadValidateResponse> {
    const res = await post(
      VALIDATE,
      { listType, fileName: 'terms.txt', contentBase64: Buffer.from(terms.join('\n')).toString('base64') },
      fullUser,
    );
    expect(res.statusCode, res.body).toBe(200);
    return res.data as unknown as UploadValidateResponse;
  }

  async function reportedTermId(term: string): Promise<number> {
    const res = await get(`/api/admin/trackers/terms?user=${encodeURIComponent('full-user')}&status=open&sort=term&dir=asc&pageSize=200`);
    expect(res.statusCode, res.body).toBe(200);
    const row = (res.data.rows as TermTrackerRow[]).find((r) => r.term === term);
    if (!row) throw new Error(`term ${term} not listed`);
    return row.id;
  }

  const auditRows = (termId: number) =>
    db().selectFrom('audit_log').selectAll().where('target_type', '=', 'term').where('target_id', '=', String(termId)).execute();

  beforeAll(async () => {
    t = await startTestApp(kind, {}, { demoChunks: 1 });
    kbAdmin = await t.login(demoEmailForRole('GOSTAR_ADMIN'));
    flatAdmin = await t.login(demoEmailForRole('FLAT_FILE_ADMIN'));
    fullUser = await t.login(demoEmailForRole('FULL_USER'));
    // Logins on fixed days by a user of a known organisation, one with a name a spreadsheet would run.
    const org = await db().insertInto('organisations').values({ name: 'Tracker Test Org' }).returning('id').executeTakeFirstOrThrow();
    orgId = org.id;
    const user = await db()
      .selectFrom('users')
      .select('id')
      .where('email', '=', demoEmailForRole('EVALUATE_USER'))
      .executeTakeFirstOrThrow();
    await db().updateTable('users').set({ organisation_id: orgId }).where('id', '=', user.id).execute();
    await db()
      .insertInto('login_attempts')
      .values([
        {
          user_id: user.id,
          username: demoEmailForRole('EVALUATE_USER'),
          ip_address: '10.0.0.1',
          login_date: '2020-01-05T23:30:00Z',
          failed: false,
        },
        {
          user_id: user.id,
          username: demoEmailForRole('EVALUATE_USER'),
          ip_address: '10.0.0.2',
          login_date: '2020-01-10T08:00:00Z',
          failed: true,
          failure_reason: 'bad password',
        },
        { user_id: null, username: '=HYPERLINK("x")', ip_address: '10.0.0.3', login_date: '2020-01-06T00:00:00Z', failed: true },
      ])
      .execute();
  }, 300_000);
  afterAll(() => t?.close());

  it('opens every tracker to both administrator roles and to no one else', async () => {
    for (const tracker of ['logins', 'searches', 'exports', 'datasets', 'terms']) {
      expect((await get(`/api/admin/trackers/${tracker}`)).statusCode).toBe(200);
      expect((await get(`/api/admin/trackers/${tracker}`, flatAdmin)).statusCode).toBe(200);
      expect((await get(`/api/admin/trackers/${tracker}`, fullUser)).statusCode).toBe(403);
    }
    const superAdmin = await t.login(demoEmailForRole('SUPER_ADMIN'));
    expect((await get('/api/admin/trackers/logins', superAdmin)).statusCode).toBe(403);
    expect((await get('/api/admin/trackers/csv/logins', fullUser)).statusCode).toBe(403);
    expect((await post('/api/admin/trackers/terms/1/reject', {}, fullUser)).statusCode).toBe(403);
    expect((await t.call({ method: 'GET', url: '/api/admin/trackers/logins' })).statusCode).toBe(401);
    expect((await get('/api/admin/trackers', kbAdmin)).statusCode).toBe(404);
  });

  it('filters logins by user, organisation and whole UTC days, sorts and pages them', async () => {
    const evaluate = encodeURIComponent('EVALUATE-user@');
    const all = await get(`/api/admin/trackers/logins?user=${evaluate}&from=2020-01-01&to=2020-01-31&sort=date&dir=asc`);
    expect(all.statusCode, all.body).toBe(200);
    expect(all.data).toMatchObject({ total: 2, page: 1 });
    expect((all.data.rows as { ipAddress: string; organisation: string }[]).map((r) => [r.ipAddress, r.organisation])).toEqual([
      ['10.0.0.1', 'Tracker Test Org'],
      ['10.0.0.2', 'Tracker Test Org'],
    ]);
    // 23:30 UTC on the 5th belongs to the 5th, not the 6th.
    const fifth = await get('/api/admin/trackers/logins?from=2020-01-05&to=2020-01-05');
    expect((fifth.data.rows as { ipAddress: string }[]).map((r) => r.ipAddress)).toEqual(['10.0.0.1']);
    const byOrg = await get(`/api/admin/trackers/logins?organisationId=${orgId}&from=2020-01-01&to=2020-01-31`);
    expect(byOrg.data.total).toBe(2);
    const page2 = await get(`/api/admin/trackers/logins?from=2020-01-01&to=2020-01-31&pageSize=2&page=2&sort=ip&dir=asc`);
    expect(page2.data).toMatchObject({ total: 3, page: 2, pageSize: 2 });
    expect((page2.data.rows as { ipAddress: string }[]).map((r) => r.ipAddress)).toEqual(['10.0.0.3']);
    const failed = await get('/api/admin/trackers/logins?from=2020-01-01&to=2020-01-31&outcome=failed&sort=ip&dir=asc');
    expect((failed.data.rows as { ipAddress: string }[]).map((r) => r.ipAddress)).toEqual(['10.0.0.2', '10.0.0.3']);
    // A user filter with a wildcard character matches it literally.
    expect((await get('/api/admin/trackers/logins?user=%25')).data.total).toBe(0);
  });

  it('answers 400 for bad filters and changes nothing', async () => {
    for (const [url, message] of [
      ['/api/admin/trackers/logins?from=2020-13-01', 'YYYY-MM-DD'],
      ['/api/admin/trackers/logins?from=2020-02-01&to=2020-01-01', 'The from-date is after the to-date.'],
      ['/api/admin/trackers/searches?pageSize=1000', ''],
      ['/api/admin/trackers/exports?sort=password', ''],
      ['/api/admin/trackers/terms?status=done', ''],
      ['/api/admin/trackers/csv/logins?sort=credits', 'not by "credits"'],
      ['/api/admin/trackers/csv/nothing', ''],
    ] as const) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(400);
      expect(String(res.data.message), url).toContain(message);
    }
  });

  it('exports the filtered logins as CSV, neutralising cells a spreadsheet would run', async () => {
    const res = await get('/api/admin/trackers/csv/logins?from=2020-01-01&to=2020-01-31&sort=date&dir=asc');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="trackers-logins-\d{4}-\d{2}-\d{2}\.csv"/);
    const lines = res.body.trimEnd().split('\r\n');
    expect(lines).toEqual([
      'User,Organisation,Login,Logout,Failed,Failure reason,IP address',
      `${demoEmailForRole('EVALUATE_USER')},Tracker Test Org,2020-01-05T23:30:00.000Z,,no,,10.0.0.1`,
      `"'=HYPERLINK(""x"")",,2020-01-06T00:00:00.000Z,,yes,,10.0.0.3`,
      `${demoEmailForRole('EVALUATE_USER')},Tracker Test Org,2020-01-10T08:00:00.000Z,,yes,bad password,10.0.0.2`,
    ]);
  });

  it('writes one search_log row per search run and lists it in the searches tracker', async () => {
    const sessionid = crypto.randomUUID();
    const counts = await post('/api/guidedsearch/allresultscount', { searchcriteria: KI, sessionid }, fullUser);
    expect(counts.statusCode, counts.body).toBe(200);
    // The log calls of the same search reuse the run: no second row.
    expect((await post('/api/guidedsearch/lhslogs', { searchpostobject: KI, sessionid }, fullUser)).statusCode).toBe(200);
    const rows = await db().selectFrom('search_log').selectAll().where('search_session_id', '=', sessionid).execute();
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    expect(row).toMatchObject({ user_id: fullUser.id, summary: 'Activity type: Ki', failed: false });
    expect(row.counts).toEqual((counts.data.rows as unknown[])[0]);
    expect(row.duration_ms).toBeGreaterThanOrEqual(0);

    const listed = await get(`/api/admin/trackers/searches?user=${encodeURIComponent(demoEmailForRole('FULL_USER'))}`, flatAdmin);
    expect(listed.statusCode).toBe(200);
    expect(listed.data.rows).toEqual([
      expect.objectContaining({
        id: row.id,
        userEmail: demoEmailForRole('FULL_USER'),
        summary: 'Activity type: Ki',
        counts: row.counts,
        failed: false,
      }),
    ]);
    const csv = await get(`/api/admin/trackers/csv/searches?user=${encodeURIComponent('full-user')}`);
    expect(csv.body.split('\r\n')[1]).toContain(',Activity type: Ki,');
  });

  it('lists exports with their downloads and flat-file downloads with the dataset type', async () => {
    const user = await db().selectFrom('users').select('id').where('email', '=', demoEmailForRole('FULL_USER')).executeTakeFirstOrThrow();
    const job = await db()
      .insertInto('export_jobs')
      .values({
        user_id: user.id,
        search_session_id: crypto.randomUUID(),
        set_id: 1,
        tab: 'activitiestab',
        format: 'csv',
        columns: '[]',
        row_count: 42,
        credits: 42,
        status: 'done',
        file_name: 'acts.csv',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db()
      .insertInto('download_logs')
      .values([
        {
          user_id: user.id,
          kind: 'export',
          export_id: job.id,
          description: 'export',
          file_name: 'acts.csv',
          credits: 42,
          created_at: '2021-03-04T10:00:00Z',
        },
        {
          user_id: user.id,
          kind: 'dataset',
          description: 'Flat file',
          file_name: 'kb-2021.zip',
          file_size: 1234,
          created_at: '2021-03-04T11:00:00Z',
        },
      ])
      .execute();
    const exports = await get(`/api/admin/trackers/exports?user=full-user&sort=records`);
    expect(exports.data.rows).toEqual([
      expect.objectContaining({
        id: job.id,
        records: 42,
        credits: 42,
        format: 'csv',
        status: 'done',
        fileName: 'acts.csv',
        downloads: 1,
        lastDownloadAt: '2021-03-04T10:00:00.000Z',
      }),
    ]);
    const datasets = await get('/api/admin/trackers/datasets?from=2021-03-04&to=2021-03-04', flatAdmin);
    expect(datasets.data).toMatchObject({
      total: 1,
      rows: [{ fileName: 'kb-2021.zip', fileSize: 1234, datasetType: null, userEmail: demoEmailForRole('FULL_USER') }],
    });
  });

  it('resolves a reported term into a synonym the next upload identifies, with one audit row', async () => {
    const { rows } = await sql<{
      str_id: number;
      name: string;
    }>`select str_id, name from compounds where name is not null and str_id is not null order by gvk_id limit 1`.execute(db());
    const compound = rows[0]!;
    const first = await upload('compoundname', ['Curated-Name-1', 'Rejected-Name-1']);
    expect(first.unidentified).toEqual(['Curated-Name-1', 'Rejected-Name-1']);
    expect((await post(REPORT, { user_id: fullUser.id, listType: 'compoundname', terms: first.unidentified }, fullUser)).statusCode).toBe(
      200,
    );
    const termId = await reportedTermId('Curated-Name-1');

    const candidates = await get(`/api/admin/trackers/terms/${termId}/candidates?q=${encodeURIComponent(compound.name.slice(0, 6))}`);
    expect(candidates.statusCode, candidates.body).toBe(200);
    expect(candidates.data.entity).toBe('structure');
    expect(candidates.data.rows).toContainEqual(expect.objectContaining({ id: compound.str_id }));

    // Refused: no target, a target that does not exist, an unknown term. Nothing is written.
    expect((await post(`/api/admin/trackers/terms/${termId}/resolve`, { note: 'x' })).statusCode).toBe(400);
    const missing = await post(`/api/admin/trackers/terms/${termId}/resolve`, { targetId: 999_999_999 });
    expect(missing.statusCode).toBe(400);
    expect(missing.data.message).toContain('There is no structure (compound) "999999999"');
    expect((await post('/api/admin/trackers/terms/999999999/resolve', { targetId: compound.str_id })).statusCode).toBe(404);
    expect((await get('/api/admin/trackers/terms/999999999/candidates?q=a')).statusCode).toBe(404);
    expect(await auditRows(termId)).toHaveLength(0);

    const resolved = await post(`/api/admin/trackers/terms/${termId}/resolve`, { targetId: compound.str_id, note: 'Trade name' });
    expect(resolved.statusCode, resolved.body).toBe(200);
    const answer = resolved.data as unknown as CurationResponse;
    expect(answer.row).toMatchObject({
      id: termId,
      status: 'resolved',
      note: 'Trade name',
      curatedBy: demoEmailForRole('GOSTAR_ADMIN'),
      resolvedTo: { id: compound.str_id },
    });
    const audit = await auditRows(termId);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      action: 'term.resolve',
      actor_email: demoEmailForRole('GOSTAR_ADMIN'),
      target_label: 'compoundname: Curated-Name-1',
    });

    // The same list again (any case): identified now, as the structure picked.
    const again = await upload('compoundname', ['curated-name-1', 'Rejected-Name-1']);
    expect(again.valid).toEqual([expect.objectContaining({ term: 'curated-name-1', ids: [compound.str_id] })]);
    expect(again.unidentified).toEqual(['Rejected-Name-1']);

    // Curated once only.
    expect((await post(`/api/admin/trackers/terms/${termId}/resolve`, { targetId: compound.str_id })).statusCode).toBe(409);
    expect(await auditRows(termId)).toHaveLength(1);
  });

  it('rejects a reported term (the flat-file admin may too): it stays unidentified, with one audit row', async () => {
    const termId = await reportedTermId('Rejected-Name-1');
    const rejected = await post(`/api/admin/trackers/terms/${termId}/reject`, { note: 'Not a compound' }, flatAdmin);
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect((rejected.data as unknown as CurationResponse).row).toMatchObject({
      status: 'rejected',
      note: 'Not a compound',
      resolvedTo: null,
      curatedBy: demoEmailForRole('FLAT_FILE_ADMIN'),
    });
    const audit = await auditRows(termId);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ action: 'term.reject', actor_email: demoEmailForRole('FLAT_FILE_ADMIN') });
    expect((await upload('compoundname', ['Rejected-Name-1'])).unidentified).toEqual(['Rejected-Name-1']);
    const listed = await get('/api/admin/trackers/terms?status=rejected');
    expect((listed.data.rows as TermTrackerRow[]).map((r) => r.term)).toEqual(['Rejected-Name-1']);
    expect((await post(`/api/admin/trackers/terms/${termId}/reject`, {})).statusCode).toBe(409);
  });

  it('resolves a text-list term to the canonical text, and closes other open reports of the same term', async () => {
    expect((await upload('activitytype', ['Kii'])).unidentified).toEqual(['Kii']);
    for (let i = 0; i < 2; i++)
      expect((await post(REPORT, { user_id: fullUser.id, listType: 'activitytype', terms: ['Kii'] }, fullUser)).statusCode).toBe(200);
    const termId = await reportedTermId('Kii');
    const res = await post(`/api/admin/trackers/terms/${termId}/resolve`, { targetId: 'Ki' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.data).toMatchObject({ alsoClosed: 1, row: { resolvedTo: { id: 'Ki', label: 'Ki' } } });
    expect(await auditRows(termId)).toHaveLength(1);
    const open = await get('/api/admin/trackers/terms?status=open&user=full-user');
    expect((open.data.rows as TermTrackerRow[]).filter((r) => r.term === 'Kii')).toEqual([]);
    expect((await upload('activitytype', ['KII'])).valid).toEqual([{ term: 'KII', ids: ['Ki'], label: 'Ki' }]);
  });
});
