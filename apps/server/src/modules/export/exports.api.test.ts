import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import initRDKitModule from '@rdkit/rdkit';
import type { SearchCriteriaInput } from '@kb/contracts/search';
import { demoEmailForRole } from '@kb/contracts/roles';
import type { LoginResult } from '@kb/contracts/auth';
import { DATABASES, authHeaders, startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { ExportJobRunner } from './export-jobs.ts';
import { seedDemoDatasets } from '../../seed/demo-datasets.ts';
import { csvText } from '@kb/contracts/csv';

/**
 * Exports on real data (docs/exports.md): what is counted is what is charged and written; the files
 * read back (CSV, XLSX with exceljs, SDF with RDKit); credits are spent atomically under concurrency
 * and returned when a job fails; nobody reaches another user's files or jobs.
 */
const KI: SearchCriteriaInput = { rows: [{ selectedOption: 'activitytypes', activities: [{ activityType: 'Ki' }] }] };
const BACKGROUND_FROM = 60;

type Json = Record<string, unknown>;
type RDKitModule = Awaited<ReturnType<typeof initRDKitModule>>;
type Job = {
  id: number;
  status: string;
  rows: number;
  credits: number;
  fileId: number | null;
  rowsWritten: number;
  progress: number;
  error: string | null;
  refunded: boolean;
  creditBalance: number;
  fileName: string;
};

describe.each(DATABASES)('exports on %s', (kind) => {
  let t: TestApp;
  let me: LoginResult;
  let other: LoginResult;
  let sessionid: string;
  let setId: number;
  let rdkit: RDKitModule;
  const post = (url: string, payload: unknown, login: LoginResult = me) =>
    t.call({ method: 'POST', url, headers: authHeaders(login), payload: payload as object });
  const get = (url: string, login: LoginResult = me) => t.call({ method: 'GET', url, headers: authHeaders(login) });
  const rows = async <T>(query: ReturnType<typeof sql<T>>) => (await query.execute(t.database.db)).rows;
  const balanceOf = async (email: string) =>
    (await t.database.db.selectFrom('users').select('credit_balance').where('email', '=', email).executeTakeFirstOrThrow()).credit_balance;
  const setBalance = (email: string, credits: number) =>
    t.database.db.updateTable('users').set({ credit_balance: credits }).where('email', '=', email).execute();
  const start = async (body: Json, login: LoginResult = me) => post('/api/export/start', { sessionid, ...body }, login);
  const download = async (fileId: number, login: LoginResult = me) =>
    t.call({ method: 'POST', url: '/api/dashboard/downloadfile', headers: authHeaders(login), payload: { fileId } });
  /** The labels the results grid shows for some columns of a tab (the headers of CSV and XLSX). */
  const labelsOf = async (tab: string, keys: string[]) => {
    const answer = await get('/api/results/metadata/getalltabcolumns/false');
    const columns = (answer.data.tabs as { tab: string; columns: { key: string; label: string }[] }[]).find(
      (entry) => entry.tab === tab,
    )!.columns;
    return keys.map((key) => columns.find((c) => c.key === key)!.label);
  };
  /** The Ki activities of the search, lowest ids first (the order exports write). */
  const kiActivities = (limit: number) =>
    rows(
      sql<{
        act_id: number;
        str_id: number;
      }>`SELECT act_id, str_id FROM activities WHERE std_activity_type = 'Ki' ORDER BY act_id LIMIT ${limit}`,
    );

  beforeAll(async () => {
    t = await startTestApp(
      kind,
      { EXPORT_BACKGROUND_ROWS: String(BACKGROUND_FROM), EXPORT_BATCH_ROWS: '25', EXPORT_STALE_SECONDS: '0.2' },
      { demoChunks: 1 },
    );
    me = await t.login(demoEmailForRole('FULL_USER'));
    other = await t.login(demoEmailForRole('DOWNLOAD_EVALUATOR'));
    sessionid = crypto.randomUUID();
    const answer = await post('/api/guidedsearch/allresultscount', { searchcriteria: KI, sessionid });
    expect(answer.statusCode, answer.body).toBe(200);
    setId = Number(
      (await t.database.db.selectFrom('search_sessions').select('set_id').where('id', '=', sessionid).executeTakeFirstOrThrow()).set_id,
    );
    rdkit = await initRDKitModule();
  }, 180_000);
  afterAll(() => t.close());

  it('prices an export before any work: records of the whole tab or of a selection, against the balance', async () => {
    const [total] = await rows(sql<{ n: number }>`SELECT count(*)::int AS n FROM search_activities WHERE set_id = ${setId}::bigint`);
    const whole = await post('/api/guidedsearch/exportdatacount', { sessionid, tab: 'activitiestab', selection: null });
    expect(whole.statusCode, whole.body).toBe(200);
    expect(whole.data).toMatchObject({
      rows: total!.n,
      credits: total!.n,
      creditBalance: await balanceOf(me.username),
      background: total!.n >= BACKGROUND_FROM,
      backgroundFromRows: BACKGROUND_FROM,
    });

    const ids = (await kiActivities(7)).map((row) => row.act_id);
    const picked = await post('/api/guidedsearch/exportdatacount', {
      sessionid,
      tab: 'activitiestab',
      selection: { selectedIds: [...ids, 999_999_999] },
    });
    expect(picked.data).toMatchObject({ rows: 7, credits: 7, allowed: true, message: null });
    const allBut = await post('/api/guidedsearch/exportdatacount', {
      sessionid,
      tab: 'activitiestab',
      selection: { selectAll: true, unselectedIds: ids },
    });
    expect(allBut.data.rows).toBe(total!.n - 7);

    await setBalance('lowcredit@demo.test', 3);
    const low = await t.login('lowcredit@demo.test');
    const short = await post(
      '/api/guidedsearch/exportdatacount',
      { sessionid, tab: 'activitiestab', selection: { selectedIds: ids } },
      low,
    );
    // Another user's session: 403 before anything is counted.
    expect(short.statusCode).toBe(403);
  });

  it('writes the selected rows as CSV with the chosen columns, charges one credit a record and logs it', async () => {
    const before = await balanceOf(me.username);
    const picked = await kiActivities(5);
    const answer = await start({
      tab: 'activitiestab',
      selection: { selectedIds: picked.map((r) => r.act_id) },
      format: 'csv',
      columns: ['act_id', 'str_id', 'std_activity_type', 'activity_value'],
    });
    expect(answer.statusCode, answer.body).toBe(200);
    const job = answer.data as unknown as Job;
    expect(job).toMatchObject({ status: 'done', rows: 5, credits: 5, rowsWritten: 5, progress: 100, creditBalance: before - 5 });
    expect(await balanceOf(me.username)).toBe(before - 5);

    const file = await download(job.fileId!);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toContain(job.fileName);
    const records = parse(file.rawPayload.toString('utf8'), { bom: true }) as string[][];
    expect(records[0]).toEqual(await labelsOf('activitiestab', ['act_id', 'str_id', 'std_activity_type', 'activity_value']));
    expect(records.slice(1).map((r) => Number(r[0]))).toEqual(picked.map((r) => r.act_id));
    expect(records.slice(1).map((r) => Number(r[1]))).toEqual(picked.map((r) => r.str_id));
    expect(records.slice(1).every((r) => r[2] === 'Ki')).toBe(true);

    // Downloading again (an interrupted download) is free and gives the same bytes.
    const again = await download(job.fileId!);
    expect(again.rawPayload.equals(file.rawPayload)).toBe(true);
    expect(await balanceOf(me.username)).toBe(before - 5);

    const history = await get('/api/exportlogs/export');
    const row = (history.data.rows as Json[]).find((r) => r.exportId === job.id);
    expect(row).toMatchObject({ kind: 'export', credits: 5, rows: 5, status: 'done', fileId: job.fileId, fileName: job.fileName });
    expect(history.data.creditBalance).toBe(before - 5);
  });

  it('writes an XLSX whose header is the chosen columns, in the chosen order', async () => {
    const structures = await rows(
      sql<{
        str_id: number;
        mol_weight: string;
      }>`SELECT s.str_id, s.mol_weight FROM search_structures ss JOIN structures s USING (str_id) WHERE ss.set_id = ${setId}::bigint ORDER BY s.str_id LIMIT 4`,
    );
    const chosen = ['mol_formula', 'str_id', 'mol_weight'];
    const answer = await start({
      tab: 'structuretab',
      selection: { selectedIds: structures.map((s) => s.str_id) },
      format: 'xlsx',
      columns: chosen,
    });
    expect(answer.statusCode, answer.body).toBe(200);
    const job = answer.data as unknown as Job;
    const file = await download(job.fileId!);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    expect(sheet.getRow(1).values).toEqual([undefined, ...(await labelsOf('structuretab', chosen))]);
    expect(sheet.rowCount).toBe(5);
    expect([2, 3, 4, 5].map((r) => sheet.getRow(r).getCell(2).value)).toEqual(structures.map((s) => s.str_id));
    // Numbers stay numbers in the workbook.
    expect(sheet.getRow(2).getCell(3).value).toBeCloseTo(Number(structures[0]!.mol_weight), 3);
  });

  it('writes an SDF that RDKit reads back as the same structures, with the columns as data fields', async () => {
    const structures = await rows(
      sql<{
        str_id: number;
        canonical_smiles: string;
      }>`SELECT s.str_id, s.canonical_smiles FROM search_structures ss JOIN structures s USING (str_id) WHERE ss.set_id = ${setId}::bigint ORDER BY s.str_id LIMIT 6`,
    );
    const answer = await start({
      tab: 'structuretab',
      selection: { selectedIds: structures.map((s) => s.str_id) },
      format: 'sdf',
      columns: ['str_id', 'mol_weight', 'activities'],
    });
    expect(answer.statusCode, answer.body).toBe(200);
    const text = (await download((answer.data as unknown as Job).fileId!)).rawPayload.toString('utf8');
    const records = text.split('$$$$\n').filter((record) => record.trim());
    expect(records).toHaveLength(6);
    records.forEach((record, index) => {
      const expected = structures[index]!;
      const molblock = record.slice(0, record.indexOf('M  END') + 'M  END'.length);
      expect(molblock.split('\n')[0]).toBe(String(expected.str_id));
      const mol = rdkit.get_mol(molblock);
      const reference = rdkit.get_mol(expected.canonical_smiles);
      try {
        expect(mol?.is_valid()).toBe(true);
        expect(mol!.get_smiles()).toBe(reference!.get_smiles());
      } finally {
        mol?.delete();
        reference?.delete();
      }
      expect(record).toContain(`> <Str ID>\n${expected.str_id}\n`);
      expect(record).toMatch(/> <Activities \(this search\)>\n\d+\n/);
    });
  });

  it('writes text a spreadsheet would run as the literal text in every format (CSV apostrophe, XLSX text cells, SDF as is), numbers as numbers', async () => {
    await setBalance(me.username, 5000);
    const picked = (await kiActivities(4)).map((r) => r.act_id);
    // The source rows: a relation "=" as ChEMBL has it, and typed-in text starting with = + - @; a negative pActivity.
    const TEXTS = ['=HYPERLINK("http://x")', '+A1', '@SUM(A1)', '-2+3'];
    for (const [index, actId] of picked.entries()) {
      const text = TEXTS[index]!;
      await t.database.db
        .updateTable('activities')
        .set({ std_act_prefix: '=', compound_name_reference: text, activity_remarks: text, pchembl_value: -1.5 })
        .where('act_id', '=', actId)
        .execute();
    }
    const columns = ['act_id', 'std_act_prefix', 'compound_name_reference', 'activity_remarks', 'pchembl_value'];
    const labels = await labelsOf('activitiestab', columns);
    const exported = async (format: string) => {
      const answer = await start({ tab: 'activitiestab', selection: { selectedIds: picked }, format, columns });
      expect(answer.statusCode, answer.body).toBe(200);
      return (await download((answer.data as unknown as Job).fileId!)).rawPayload;
    };

    const csv = parse((await exported('csv')).toString('utf8'), { bom: true }) as string[][];
    expect(csv).toEqual([labels, ...picked.map((actId, index) => [String(actId), "'=", `'${TEXTS[index]}`, `'${TEXTS[index]}`, '-1.5'])]);

    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await exported('xlsx')) as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    expect(sheet.getRow(1).values).toEqual([undefined, ...labels]);
    expect(sheet.rowCount).toBe(picked.length + 1);
    picked.forEach((actId, index) => {
      const row = sheet.getRow(index + 2);
      expect(row.values).toEqual([undefined, actId, '=', TEXTS[index], TEXTS[index], -1.5]);
      [2, 3, 4].forEach((column) =>
        expect([row.getCell(column).type, row.getCell(column).numFmt]).toEqual([ExcelJS.ValueType.String, '@']),
      );
      [1, 5].forEach((column) => expect(row.getCell(column).type).toBe(ExcelJS.ValueType.Number));
    });
    sheet.eachRow((row) => row.eachCell((cell) => expect(cell.formula, cell.address).toBeUndefined()));

    // SDF is read as data, never run: its fields keep the text as it is.
    const sdf = (await exported('sdf'))
      .toString('utf8')
      .split('$$$$\n')
      .filter((record) => record.trim());
    expect(sdf).toHaveLength(picked.length);
    sdf.forEach((record, index) => {
      expect(record).toContain(
        `> <${labels[1]}>\n=\n\n> <${labels[2]}>\n${TEXTS[index]}\n\n> <${labels[3]}>\n${TEXTS[index]}\n\n> <${labels[4]}>\n-1.5\n`,
      );
    });
  });

  it('spends credits atomically: 20 concurrent exports of one user end exactly at the expected balance', async () => {
    const picked = (await kiActivities(3)).map((r) => r.act_id);
    // Enough for 12 exports of 3 records, and 2 credits over.
    await setBalance(me.username, 12 * 3 + 2);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        start({ tab: 'activitiestab', selection: { selectedIds: picked }, format: 'csv', columns: ['act_id'] }),
      ),
    );
    const ok = answers.filter((a) => a.statusCode === 200);
    const refused = answers.filter((a) => a.statusCode === 402);
    expect(ok.length + refused.length, answers.map((a) => a.statusCode).join(',')).toBe(20);
    expect(ok).toHaveLength(12);
    expect(await balanceOf(me.username)).toBe(2);
    expect(refused[0]!.data.message).toMatch(/needs 3 download credits and you have 2/);
    expect(ok.every((a) => (a.data as unknown as Job).status === 'done')).toBe(true);
  });

  it('refuses inside the charge when two exports both passed the price check (a double click)', async () => {
    const picked = (await kiActivities(3)).map((r) => r.act_id);
    await setBalance(me.username, 5);
    const body = { tab: 'activitiestab', selection: { selectedIds: picked }, format: 'csv', columns: ['act_id'] };
    const answers = await Promise.all([start(body), start(body)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 402]);
    expect(await balanceOf(me.username)).toBe(2);
  });

  it('refuses a short balance with a clear message before any work, and bad requests with what to do', async () => {
    await setBalance(me.username, 4);
    const jobsBefore = (await get('/api/export/jobs')).data.jobs as Job[];
    const picked = (await kiActivities(5)).map((r) => r.act_id);
    const short = await start({ tab: 'activitiestab', selection: { selectedIds: picked }, format: 'csv', columns: ['act_id'] });
    expect(short.statusCode).toBe(402);
    expect(short.data).toMatchObject({ code: 'INSUFFICIENT_CREDITS' });
    expect(short.data.message).toMatch(/needs 5 download credits and you have 4/);
    expect(((await get('/api/export/jobs')).data.jobs as Job[]).length).toBe(jobsBefore.length);
    expect(await balanceOf(me.username)).toBe(4);
    await setBalance(me.username, 5000);

    const bad = async (body: Json, status: number, message: RegExp) => {
      const answer = await start({ tab: 'activitiestab', selection: { selectedIds: picked }, format: 'csv', columns: ['act_id'], ...body });
      expect(answer.statusCode, answer.body).toBe(status);
      expect(answer.data.message).toMatch(message);
    };
    await bad({ selection: { selectedIds: [] } }, 400, /Select at least one row/);
    await bad({ selection: { selectedIds: [-3] } }, 400, /selection/);
    await bad({ format: 'pdf' }, 400, /format/);
    await bad({ columns: [] }, 400, /at least one column/);
    await bad({ columns: ['act_id', 'no_such'] }, 400, /no column "no_such"/);
    await bad({ columns: ['act_id', 'innerGrids'] }, 400, /no column "innerGrids"/);
    await bad({ tab: 'documentstab', format: 'sdf', selection: null, columns: ['ref_id'] }, 400, /SDF holds structures/);
    await bad({ selection: { selectedIds: [999_999_999] } }, 400, /Nothing to export/);
    await bad({ sessionid: crypto.randomUUID() }, 404, /.+/);
    // A price shown before the rows changed is not charged: 409 with the new price, nothing spent.
    const balance = await balanceOf(me.username);
    await bad({ expectedCredits: 4 }, 409, /now holds 5 records \(5 credits\)/);
    expect(await balanceOf(me.username)).toBe(balance);
  });

  it('keeps every user to their own exports, files and history (403)', async () => {
    const mine = ((await get('/api/export/jobs')).data.jobs as Job[]).find((job) => job.fileId !== null)!;
    expect((await get(`/api/export/jobs/${mine.id}`, other)).statusCode).toBe(403);
    expect((await download(mine.fileId!, other)).statusCode).toBe(403);
    expect((await post('/api/dashboard/deletefile', { fileId: mine.fileId }, other)).statusCode).toBe(403);
    expect(((await get('/api/exportlogs/export', other)).data.rows as Json[]).some((row) => row.exportId === mine.id)).toBe(false);
    expect(((await get('/api/export/jobs', other)).data.jobs as Job[]).length).toBe(0);
    // Another user's search session cannot be exported either.
    expect((await post('/api/guidedsearch/exportdatacount', { sessionid, tab: 'activitiestab', selection: null }, other)).statusCode).toBe(
      403,
    );
    expect((await get('/api/export/jobs/999999')).statusCode).toBe(404);
    // EVALUATE_USER may not export at all.
    const evaluator = await t.login(demoEmailForRole('EVALUATE_USER'));
    expect(
      (await post('/api/guidedsearch/exportdatacount', { sessionid, tab: 'activitiestab', selection: null }, evaluator)).statusCode,
    ).toBe(403);

    // The owner deletes the file: the history row stays, without a file.
    expect((await post('/api/dashboard/deletefile', { fileId: mine.fileId })).data).toEqual({ deleted: true });
    expect((await download(mine.fileId!)).statusCode).toBe(404);
    const row = ((await get('/api/exportlogs/export')).data.rows as Json[]).find((r) => r.exportId === mine.id);
    expect(row).toMatchObject({ fileId: null });
  });

  it('runs a large export as a background job with progress, and a job a stopped process left behind is finished', async () => {
    const [total] = await rows(sql<{ n: number }>`SELECT count(*)::int AS n FROM search_activities WHERE set_id = ${setId}::bigint`);
    expect(total!.n).toBeGreaterThan(BACKGROUND_FROM);
    const before = await balanceOf(me.username);
    // This process's loop is stopped: the job waits in the queue for whoever takes it.
    await t.app.services.exportJobs.stop();
    const answer = await start({ tab: 'activitiestab', selection: null, format: 'csv', columns: ['act_id', 'std_activity_type'] });
    expect(answer.statusCode, answer.body).toBe(200);
    const queued = answer.data as unknown as Job;
    expect(queued).toMatchObject({
      status: 'queued',
      rows: total!.n,
      credits: total!.n,
      rowsWritten: 0,
      progress: 0,
      fileId: null,
      creditBalance: before - total!.n,
    });

    // A process died while writing it: a quarter written, heartbeat gone stale.
    await t.database.db
      .updateTable('export_jobs')
      .set({ status: 'running', rows_written: 25, heartbeat_at: new Date(Date.now() - 60_000) })
      .where('id', '=', queued.id)
      .execute();
    // The dead process's claim is gone: a writer holding any other claim changes nothing.
    await t.app.services.exports.run(queued.id, crypto.randomUUID());
    await t.app.services.exports.fail(queued.id, 'stale writer', crypto.randomUUID());
    expect(
      await t.database.db
        .selectFrom('export_jobs')
        .select(['status', 'rows_written', 'refunded'])
        .where('id', '=', queued.id)
        .executeTakeFirstOrThrow(),
    ).toEqual({ status: 'running', rows_written: 25, refunded: false });
    // Another process (or this one restarted) takes it over and writes it from the start.
    const restarted = new ExportJobRunner(t.database.db, t.app.services.exports, { staleSeconds: 0.2, pollMs: 50 });
    expect(await restarted.drain()).toBeGreaterThanOrEqual(1);
    const done = (await get(`/api/export/jobs/${queued.id}`)).data as unknown as Job;
    expect(done).toMatchObject({ status: 'done', rowsWritten: total!.n, progress: 100, refunded: false });
    const records = parse((await download(done.fileId!)).rawPayload.toString('utf8'), { bom: true }) as string[][];
    const ids = records.slice(1).map((r) => Number(r[0]));
    expect(ids).toHaveLength(total!.n);
    expect(new Set(ids).size).toBe(total!.n);
    expect(await balanceOf(me.username)).toBe(before - total!.n);

    // Thirty days on, the file is swept; the history keeps the row without it.
    await t.database.db
      .updateTable('stored_files')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', done.fileId!)
      .execute();
    expect(await t.app.services.exports.sweepExpiredFiles()).toBeGreaterThanOrEqual(1);
    expect((await download(done.fileId!)).statusCode).toBe(404);
    expect(((await get('/api/exportlogs/export')).data.rows as Json[]).find((r) => r.exportId === queued.id)).toMatchObject({
      fileId: null,
      credits: total!.n,
    });
  });

  it('fails a job whose search is gone and returns its credits, once', async () => {
    const own = crypto.randomUUID();
    expect((await post('/api/guidedsearch/allresultscount', { searchcriteria: KI, sessionid: own })).statusCode).toBe(200);
    const before = await balanceOf(me.username);
    await t.app.services.exportJobs.stop(); // the job stays queued until the search is dropped
    const answer = await post('/api/export/start', {
      sessionid: own,
      tab: 'activitiestab',
      selection: null,
      format: 'csv',
      columns: ['act_id'],
    });
    const job = answer.data as unknown as Job;
    expect(await balanceOf(me.username)).toBe(before - job.credits);
    expect((await post('/api/dashboard/dropunloggedtables', { sessionid: own })).statusCode).toBe(200);
    await new ExportJobRunner(t.database.db, t.app.services.exports, { staleSeconds: 0.2, pollMs: 50 }).drain();
    const failed = (await get(`/api/export/jobs/${job.id}`)).data as unknown as Job;
    expect(failed).toMatchObject({ status: 'failed', refunded: true, fileId: null });
    expect(failed.error).toMatch(/expired or was run again.*credits were returned/);
    expect(await balanceOf(me.username)).toBe(before);
    const history = ((await get('/api/exportlogs/export')).data.rows as Json[]).find((r) => r.exportId === job.id);
    expect(history).toMatchObject({ credits: 0, status: 'failed (credits returned)' });
  });

  it('answers an export done when another runner took it first: the request waits for that run (the browser saves the file at once)', async () => {
    await t.app.services.exportJobs.stop(); // the job stays queued
    const answer = await start({ tab: 'activitiestab', selection: null, format: 'csv', columns: ['act_id'] });
    const job = answer.data as unknown as Job;
    expect(job.status).toBe('queued');
    // A runner's loop (of this process or another) claimed it between its insert and the request's own claim.
    const claim = crypto.randomUUID();
    await t.database.db
      .updateTable('export_jobs')
      .set({ status: 'running', attempts: 1, claim, heartbeat_at: new Date() })
      .where('id', '=', job.id)
      .execute();
    let answered = false;
    const request = t.app.services.exportJobs.runNow(job.id).then(() => (answered = true));
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(answered).toBe(false);
    await t.app.services.exports.run(job.id, claim);
    await request;
    expect((await get(`/api/export/jobs/${job.id}`)).data).toMatchObject({ status: 'done', rowsWritten: job.rows, progress: 100 });
  });

  it('adds the demo flat-file datasets once, written from the knowledge base, for the roles they name', async () => {
    expect(await seedDemoDatasets(t.database.db)).toBe(2);
    expect(await seedDemoDatasets(t.database.db)).toBe(0);
    const list = await get(`/api/security/flatfile/userdownload/fetch?userName=${encodeURIComponent(me.username)}`);
    const datasets = list.data.rows as Json[];
    expect(datasets.map((d) => d.flatfileName)).toEqual(['demo-structures-sample.csv']);
    const [structures] = await rows(sql<{ n: number }>`SELECT least(count(*), 5000)::int AS n FROM structures`);
    const file = (await download(datasets[0]!.fileId as number)).rawPayload.toString('utf8');
    const records = parse(file) as string[][];
    expect(records[0]).toEqual(['str_id', 'smiles', 'inchikey', 'mol_formula', 'mol_weight', 'logp_calc', 'psa']);
    expect(records.length - 1).toBe(structures!.n);
    // Written by the one cell rule of every CSV the product writes (contracts csv.ts), CRLF line ends and all.
    expect(file).toBe(csvText(records));
  });
});
