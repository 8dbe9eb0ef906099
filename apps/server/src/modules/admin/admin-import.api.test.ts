import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import type { AdminUser, AdminUserList, UserImportReport } from '@kb/contracts/admin-accounts';
import { ADMIN_IMPORT_MAX_ROWS } from '@kb/contracts/admin-accounts';
import type { LoginResult } from '@kb/contracts/auth';
import { demoEmailForRole } from '@kb/contracts/roles';
import { DATABASES, startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { adminClient } from '../../../test/admin-support.ts';
import { linkCodeOf, outboxMark, waitForMail } from '../auth/outbox-reader.test-support.ts';

/*
 * Bulk onboarding (issue 16): every row of a CSV or XLSX file is checked before anything is
 * created; one wrong row means 400 with the row report and no user, no subscription, no credits,
 * no mail. A dry run only reports.
 */

const future = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
const HEADER = 'Email,First name,Last name,Organisation,Role,Start date,End date,Credits,Invite';

describe.each(DATABASES)('bulk onboarding on %s', (kind) => {
  let t: TestApp;
  let admin: LoginResult;
  let api: ReturnType<typeof adminClient>;
  const importFile = (fileName: string, content: string, dryRun = false) =>
    api.post('/api/admin/users/import', { fileName, contentBase64: content, dryRun });

  beforeAll(async () => {
    t = await startTestApp(kind);
    admin = await t.login(demoEmailForRole('GOSTAR_ADMIN'));
    api = adminClient(t, () => admin);
    await api.post('/api/admin/organisations', { name: 'Onboard Pharma', seats: 10 });
    await api.post('/api/admin/organisations', { name: 'Two Seats Ltd', seats: 2 });
  });
  afterAll(() => t.close());

  it('refuses a file with one malformed row: 400 with the row report, nothing created', async () => {
    const csv = [
      HEADER,
      `good.one@onboard.test,Good,One,Onboard Pharma,FULL_USER,,${future(100)},500,yes`,
      `not-an-address,Bad,Row,Onboard Pharma,FULL_USER,,${future(100)},,yes`,
      `good.two@onboard.test,Good,Two,onboard pharma,EVALUATE_USER,${future(1)},${future(30)},,no`,
      `${demoEmailForRole('FULL_USER')},Taken,Address,,,,,,`,
      `admin.role@onboard.test,Ad,Min,,GOSTAR_ADMIN,,${future(30)},,`,
      `dates@onboard.test,Bad,Dates,,FULL_USER,${future(30)},${future(3)},,`,
      `credits@onboard.test,Bad,Credits,,,,,-4,`,
      `good.one@onboard.test,Twice,Listed,,,,,,`,
      `ghost@onboard.test,No,Org,Ghost Corp,,,,,maybe`,
      `no.day@onboard.test,No,Day,,FULL_USER,,2027-02-30,,`,
    ].join('\n');
    const res = await api.refused(() => importFile('users.csv', base64(csv)), 400, /row\(s\) are wrong, so no user was created/);
    const report = res.data.details as UserImportReport;
    expect(report).toMatchObject({ created: 0, errors: 8 });
    const byLine = new Map(report.rows.map((r) => [r.line, r]));
    expect(byLine.get(2)).toMatchObject({ status: 'ready', email: 'good.one@onboard.test' });
    expect(byLine.get(3)!.message).toMatch(/valid e-mail/);
    expect(byLine.get(4)).toMatchObject({ status: 'ready' });
    expect(byLine.get(5)!.message).toMatch(/already has an account/);
    expect(byLine.get(6)!.message).toBe('Admin roles are granted on the super-admin page.');
    expect(byLine.get(7)!.message).toMatch(/must not be before the start date/);
    expect(byLine.get(8)!.message).toMatch(/whole number/);
    expect(byLine.get(9)!.message).toMatch(/same address is on line 2/);
    // A day that is not in the calendar is named, once, in words (not "subscription: Invalid input").
    expect(byLine.get(11)!.message).toBe('End date 2027-02-30 does not exist: February 2027 has 28 days.');
    expect(byLine.get(10)!.message).toMatch(
      /no organisation "Ghost Corp".*Invite "maybe" must be yes or no|Invite "maybe" must be yes or no.*no organisation "Ghost Corp"/,
    );
  });

  it('checks and reports in a dry run, then creates every row with its subscription, credits and invitation in one go', async () => {
    const csv = [
      HEADER,
      `anna@onboard.test,Anna,Alpha,Onboard Pharma,FULL_USER,,${future(100)},"1,000",yes`,
      `ben@onboard.test,Ben,Beta,Onboard Pharma,EVALUATE_USER,${future(1)},${future(30)},,no`,
      '',
      'cara@onboard.test,Cara,Gamma,,,,,,',
    ].join('\r\n');
    const dry = await api.audited(() => importFile('team.csv', base64(csv), true), 0);
    expect(dry.answer.statusCode, dry.answer.body).toBe(200);
    expect(dry.answer.data).toEqual({
      created: 0,
      errors: 0,
      rows: [
        { line: 2, email: 'anna@onboard.test', status: 'ready', message: 'Ready to create.' },
        { line: 3, email: 'ben@onboard.test', status: 'ready', message: 'Ready to create.' },
        { line: 5, email: 'cara@onboard.test', status: 'ready', message: 'Ready to create.' },
      ],
    });
    expect((await api.get('/api/admin/users?q=onboard.test')).data.total).toBe(0);

    const mark = await outboxMark(t.database.db);
    // One audit row per user created.
    const { answer } = await api.audited(() => importFile('team.csv', base64(csv)), 3);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.data).toMatchObject({ created: 3, errors: 0 });
    const users = ((await api.get('/api/admin/users?q=onboard.test&sort=email')).data as unknown as AdminUserList).rows;
    expect(
      users.map((u) => [
        u.email,
        u.organisationName,
        u.creditBalance,
        u.state,
        u.subscriptions.map((s) => `${s.roleName}:${s.status}`).join(),
      ]),
    ).toEqual([
      ['anna@onboard.test', 'Onboard Pharma', 1000, 'invited', 'FULL_USER:active'],
      ['ben@onboard.test', 'Onboard Pharma', 0, 'invited', 'EVALUATE_USER:scheduled'],
      ['cara@onboard.test', null, 0, 'invited', ''],
    ]);
    expect(await api.ledgerMismatches()).toEqual([]);
    // Invitations go to the rows that asked for one (the default is yes).
    const anna = await waitForMail(t.database.db, 'anna@onboard.test', mark);
    expect(linkCodeOf(anna)).toBeTruthy();
    await waitForMail(t.database.db, 'cara@onboard.test', mark);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await t.database.db.selectFrom('outbox').select('id').where('recipient', '=', 'ben@onboard.test').execute()).toEqual([]);
    // The same file again: every address now has an account, nothing more is created.
    const again = await api.refused(() => importFile('team.csv', base64(csv)), 400);
    expect((again.data.details as UserImportReport).errors).toBe(3);
  });

  it('reads an XLSX workbook with date cells, and counts the seats of the whole file', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Users');
    sheet.addRow(['email', 'first name', 'last name', 'organisation', 'role', 'end date', 'credits']);
    sheet.addRow(['x1@two.test', 'X', 'One', 'Two Seats Ltd', 'FULL_USER', new Date(`${future(60)}T00:00:00Z`), 5]);
    sheet.addRow(['x2@two.test', 'X', 'Two', 'Two Seats Ltd', 'FULL_USER', new Date(`${future(60)}T00:00:00Z`), 5]);
    sheet.addRow(['x3@two.test', 'X', 'Three', 'Two Seats Ltd', 'FULL_USER', new Date(`${future(60)}T00:00:00Z`), 5]);
    const bytes = Buffer.from(await workbook.xlsx.writeBuffer());
    const res = await api.refused(() => importFile('two.xlsx', bytes.toString('base64')), 400);
    const report = res.data.details as UserImportReport;
    expect(report.rows.map((r) => r.status)).toEqual(['ready', 'ready', 'error']);
    expect(report.rows[2]!.message).toMatch(/2 seats/);

    sheet.spliceRows(4, 1);
    const ok = await importFile('two.xlsx', Buffer.from(await workbook.xlsx.writeBuffer()).toString('base64'));
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.data).toMatchObject({ created: 2 });
    const x1 = ((await api.get('/api/admin/users?q=x1@two.test')).data as unknown as AdminUserList).rows[0] as AdminUser;
    expect(x1.subscriptions[0]).toMatchObject({ roleName: 'FULL_USER', endDate: `${future(61)}T00:00:00.000Z` });
  });

  it('refuses files it cannot take: wrong kind, no required column, unknown column, too many rows, not base64', async () => {
    await api.refused(() => importFile('users.txt', base64(HEADER)), 400, /\.csv or \.xlsx/);
    await api.refused(() => importFile('users.csv', base64('email,first name\na@b.test,A')), 400, /no last name column/);
    await api.refused(
      () => importFile('users.csv', base64('email,first name,last name,shoe size\na@b.test,A,B,42')),
      400,
      /Unknown column "shoe size"/,
    );
    await api.refused(() => importFile('users.csv', base64(HEADER)), 400, /no users under it/);
    await api.refused(() => importFile('users.csv', '***'), 400, /base64/);
    await api.refused(() => importFile('users.xlsx', base64('plain text')), 400, /not a valid Excel workbook/);
    const many = [HEADER, ...Array.from({ length: ADMIN_IMPORT_MAX_ROWS + 1 }, (_, i) => `bulk${i}@many.test,A,B,,,,,,no`)].join('\n');
    await api.refused(() => importFile('many.csv', base64(many)), 400, /more than 2,000 users/);
  });
});
