import { sql } from 'kysely';
import type { UserCreate, UserImportReport, UserImportRequest } from '@kb/contracts/admin-accounts';
import { ADMIN_IMPORT_MAX_BYTES, ADMIN_IMPORT_MAX_ROWS, ADMIN_MAX_CREDIT_DELTA, UserCreateSchema } from '@kb/contracts/admin-accounts';
import { missingDayReason, utcDay } from '@kb/contracts/plain-date';
import { ROLES, isRole } from '@kb/contracts/roles';
import { badRequest } from '../../http/errors.ts';
import type { AuditActor } from '../audit/audit-log.ts';
import type { ClientInfo } from '../auth/auth-service.ts';
import type { Mail } from '../auth/mailer.ts';
import {
  UploadFileError,
  baseName,
  countFilledLines,
  decodeBase64,
  decodeText,
  readCsvLines,
  readWorkbookLines,
} from '../uploads/upload-file-parser.ts';
import type { NumberedRow } from '../uploads/upload-file-parser.ts';
import type { AdminDeps } from './admin-context.ts';
import { ADMIN_ROLE_REFUSAL, isAdminRole } from './admin-context.ts';
import { insertUser } from './users.ts';
import { seatsTaken } from './organisations.ts';

/*
 * Bulk onboarding (contract: UserImportRequestSchema): a CSV or XLSX file with a header row. Every
 * row is checked first — its fields, the organisation, the address against existing accounts and
 * the other rows, the seats — and only a file without a wrong row creates anything, all in one
 * transaction. A dry run only reports.
 */

type Column = 'email' | 'firstName' | 'lastName' | 'organisation' | 'role' | 'startDate' | 'endDate' | 'credits' | 'invite' | 'contractId';

/** Header names accepted for each column, compared without case, spaces or punctuation. */
const HEADERS: Record<Column, readonly string[]> = {
  email: ['email', 'emailaddress', 'mail'],
  firstName: ['firstname', 'first', 'givenname'],
  lastName: ['lastname', 'last', 'surname', 'familyname'],
  organisation: ['organisation', 'organization', 'org', 'client', 'company'],
  role: ['role', 'subscription', 'subscriptionrole'],
  startDate: ['startdate', 'start', 'from'],
  endDate: ['enddate', 'end', 'until'],
  credits: ['credits', 'credit', 'downloadcredits'],
  invite: ['invite', 'sendinvite', 'invitation'],
  contractId: ['contract', 'contractid'],
};
const REQUIRED: readonly Column[] = ['email', 'firstName', 'lastName'];
const LABELS: Record<Column, string> = {
  email: 'email',
  firstName: 'first name',
  lastName: 'last name',
  organisation: 'organisation',
  role: 'role',
  startDate: 'start date',
  endDate: 'end date',
  credits: 'credits',
  invite: 'invite',
  contractId: 'contract',
};

const normalise = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '');

/** The file's filled rows as text cells with their lines, header first; 400 with a message the administrator can act on. */
async function readRows(request: UserImportRequest): Promise<NumberedRow[]> {
  const name = baseName(request.fileName);
  const ext = name.includes('.') ? name.slice(name.lastIndexOf('.') + 1).toLowerCase() : '';
  if (ext !== 'csv' && ext !== 'xlsx')
    throw badRequest(`Upload the users as a .csv or .xlsx file; "${name}" is not one.`, { field: 'fileName' });
  try {
    const bytes = decodeBase64(request.contentBase64);
    if (bytes.length === 0) throw new UploadFileError(`"${name}" is empty.`);
    if (bytes.length > ADMIN_IMPORT_MAX_BYTES) throw new UploadFileError(`"${name}" is larger than 2 MB. Split it into smaller files.`);
    // The header row and one row over the limit are read; the next is refused while streaming.
    if (ext === 'xlsx') return await readWorkbookLines(bytes, { maxRows: ADMIN_IMPORT_MAX_ROWS + 1, tooMany: () => tooManyRows(name) });
    const text = decodeText(bytes);
    // Counted before parsing: a record spans at least one line, so this bounds the records too.
    if (countFilledLines(text.split(/\r\n|\r|\n/)) > ADMIN_IMPORT_MAX_ROWS + 1) throw tooManyRows(name);
    return readCsvLines(text).filter((row) => row.cells.some((cell) => cell.trim() !== ''));
  } catch (error) {
    if (error instanceof UploadFileError) throw badRequest(error.message, { field: 'contentBase64' });
    throw error;
  }
}

function tooManyRows(name: string): UploadFileError {
  return new UploadFileError(
    `"${name}" has more than ${ADMIN_IMPORT_MAX_ROWS.toLocaleString('en-GB')} users; import at most that many at once.`,
  );
}

/** Which column holds what; 400 naming unknown or missing columns. */
function columnsOf(header: readonly string[]): Map<Column, number> {
  const columns = new Map<Column, number>();
  const unknown: string[] = [];
  header.forEach((cell, index) => {
    const key = normalise(cell);
    if (key === '') return;
    const column = (Object.keys(HEADERS) as Column[]).find((c) => HEADERS[c].includes(key));
    if (!column) unknown.push(cell.trim());
    else if (columns.has(column)) throw badRequest(`The header names the ${LABELS[column]} column twice.`, { field: 'contentBase64' });
    else columns.set(column, index);
  });
  const expected = `Columns: ${Object.values(LABELS).join(', ')} (the first three are required).`;
  if (unknown.length)
    throw badRequest(
      `Unknown column${unknown.length > 1 ? 's' : ''} ${unknown.map((u) => `"${u}"`).join(', ')} in the header row. ${expected}`,
      { field: 'contentBase64' },
    );
  const missing = REQUIRED.filter((c) => !columns.has(c));
  if (missing.length)
    throw badRequest(`The header row has no ${missing.map((c) => LABELS[c]).join(', ')} column. ${expected}`, { field: 'contentBase64' });
  return columns;
}

interface CheckedRow {
  line: number;
  email: string;
  problems: string[];
  input: UserCreate | null;
  organisation: string | null;
}

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
const YES = new Set(['', 'yes', 'y', 'true', '1']);
const NO = new Set(['no', 'n', 'false', '0']);

/** One data row to a UserCreate, or the reasons it is wrong (the database checks come later). */
function checkRow(cells: readonly string[], columns: Map<Column, number>, line: number): CheckedRow {
  const cell = (column: Column) => {
    const index = columns.get(column);
    return index === undefined ? '' : (cells[index] ?? '').trim();
  };
  const problems: string[] = [];
  const email = cell('email').toLowerCase();
  const roleText = cell('role')
    .toUpperCase()
    .replace(/[\s-]+/g, '_');
  let role: UserCreate['subscription'] | undefined;
  if (roleText) {
    if (!isRole(roleText)) problems.push(`Role "${cell('role')}" is not one of ${ROLES.join(', ')}.`);
    else if (isAdminRole(roleText)) problems.push(ADMIN_ROLE_REFUSAL);
    else {
      const start = cell('startDate');
      const end = cell('endDate');
      const before = problems.length;
      const startMissing = start && ISO_DAY.test(start) ? missingDayReason(start) : null;
      const endMissing = end && ISO_DAY.test(end) ? missingDayReason(end) : null;
      if (start && !ISO_DAY.test(start)) problems.push(`Start date "${start}": write dates as YYYY-MM-DD.`);
      else if (startMissing) problems.push(`Start date ${start} does not exist: ${startMissing}.`);
      if (!end) problems.push('A role needs an end date.');
      else if (!ISO_DAY.test(end)) problems.push(`End date "${end}": write dates as YYYY-MM-DD.`);
      else if (endMissing) problems.push(`End date ${end} does not exist: ${endMissing}.`);
      // The end date is the last day, inclusive (contracts plain-date.ts): today or later, not before the start.
      else if (end < (start || utcDay(new Date())) || end < utcDay(new Date())) {
        problems.push(`The end date ${end} (the last day) must not be before the start date ${start || '(today)'} nor before today.`);
      }
      // A subscription whose dates were refused is not checked again by the schema ("subscription: Invalid input").
      if (problems.length === before)
        role = {
          role: roleText,
          endDate: end,
          ...(start ? { startDate: start } : {}),
          ...(cell('contractId') ? { contractId: cell('contractId') } : {}),
        };
    }
  } else if (cell('startDate') || cell('endDate')) problems.push('Dates are given but no role: name the role of the subscription.');
  const creditsText = cell('credits').replace(/[,\s]/g, '');
  let credits: number | undefined;
  if (creditsText && creditsText !== '0') {
    if (!/^\d+$/.test(creditsText)) problems.push(`Credits "${cell('credits')}" must be a whole number of at least zero.`);
    else if (Number(creditsText) > ADMIN_MAX_CREDIT_DELTA)
      problems.push(`At most ${ADMIN_MAX_CREDIT_DELTA.toLocaleString('en-GB')} opening credits.`);
    else credits = Number(creditsText);
  }
  const inviteText = cell('invite').toLowerCase();
  if (!YES.has(inviteText) && !NO.has(inviteText)) problems.push(`Invite "${cell('invite')}" must be yes or no.`);
  const candidate = {
    email,
    firstName: cell('firstName'),
    lastName: cell('lastName'),
    invite: !NO.has(inviteText),
    ...(role ? { subscription: role } : {}),
    ...(credits ? { credits } : {}),
  };
  const parsed = UserCreateSchema.safeParse(candidate);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0] ?? '');
      const label = field === 'firstName' ? 'First name' : field === 'lastName' ? 'Last name' : field === 'email' ? 'E-mail' : field;
      const message = issue.message.startsWith('Enter') ? issue.message : `${label}: ${issue.message}`;
      if (!problems.includes(message)) problems.push(message);
    }
  }
  return { line, email, problems, input: parsed.success ? parsed.data : null, organisation: cell('organisation') || null };
}

/** Checks every row (fields, then the database), then creates all or none. */
export async function importUsers(
  deps: AdminDeps,
  actor: AuditActor,
  client: ClientInfo,
  request: UserImportRequest,
): Promise<UserImportReport> {
  const [header, ...data] = await readRows(request);
  if (!header)
    throw badRequest('The file has no header row: the first line names the columns (email, first name, last name, …).', {
      field: 'contentBase64',
    });
  const columns = columnsOf(header.cells);
  if (data.length === 0) throw badRequest('The file has a header row but no users under it.', { field: 'contentBase64' });
  if (data.length > ADMIN_IMPORT_MAX_ROWS) throw badRequest(tooManyRows(baseName(request.fileName)).message, { field: 'contentBase64' });

  const checked = data.map(({ cells, line }) => checkRow(cells, columns, line));
  await checkAgainstDatabase(deps, checked);

  const errors = checked.filter((r) => r.problems.length > 0).length;
  const report = (status: 'ready' | 'created'): UserImportReport => ({
    created: status === 'created' ? checked.length : 0,
    errors,
    rows: checked.map((r) => ({
      line: r.line,
      email: r.email,
      status: r.problems.length ? 'error' : status,
      message: r.problems.join(' ') || (status === 'created' ? 'Created.' : 'Ready to create.'),
    })),
  });
  if (request.dryRun) return report('ready');
  if (errors > 0) {
    throw badRequest(
      `${errors} of ${checked.length} row(s) are wrong, so no user was created. Correct them and import the file again.`,
      report('ready'),
    );
  }
  const mails: Mail[] = [];
  await deps.db.transaction().execute(async (trx) => {
    for (const row of checked) {
      const created = await insertUser(deps, trx, actor, client, row.input!, `import: ${baseName(request.fileName)}, line ${row.line}`);
      if (created.mail) mails.push(created.mail);
    }
  });
  for (const mail of mails) deps.auth.sendAfterCommit(mail);
  return report('created');
}

/** Existing accounts, addresses twice in the file, organisations (by name, ignoring case) and their seats. */
async function checkAgainstDatabase(deps: AdminDeps, rows: CheckedRow[]): Promise<void> {
  const emails = [...new Set(rows.map((r) => r.email).filter((e) => e !== ''))];
  const existing = emails.length
    ? new Set((await deps.db.selectFrom('users').select('email').where('email', 'in', emails).execute()).map((r) => r.email))
    : new Set<string>();
  const firstLine = new Map<string, number>();
  for (const row of rows) {
    if (!row.email) continue;
    if (existing.has(row.email)) row.problems.push(`${row.email} already has an account.`);
    const seen = firstLine.get(row.email);
    if (seen !== undefined) row.problems.push(`The same address is on line ${seen}.`);
    else firstLine.set(row.email, row.line);
  }
  const names = [...new Set(rows.map((r) => r.organisation?.toLowerCase()).filter((n): n is string => !!n))];
  if (names.length === 0) return;
  const organisations = await deps.db
    .selectFrom('organisations as o')
    .select(['o.id', 'o.name', 'o.seats', 'o.active', seatsTaken(sql.ref<number>('o.id')).as('used')])
    .where(sql<boolean>`lower(o.name) IN (${sql.join(names)})`)
    .execute();
  const byName = new Map(organisations.map((o) => [o.name.toLowerCase(), o]));
  const adding = new Map<number, number>();
  for (const row of rows) {
    if (!row.organisation) continue;
    const org = byName.get(row.organisation.toLowerCase());
    if (!org) {
      row.problems.push(`There is no organisation "${row.organisation}": create it first.`);
      continue;
    }
    if (!org.active) row.problems.push(`${org.name} is inactive.`);
    const count = (adding.get(org.id) ?? 0) + 1;
    adding.set(org.id, count);
    if (org.seats !== null && org.used + count > org.seats)
      row.problems.push(
        `${org.name} has ${org.seats} seats, ${org.used} taken (accounts not deactivated, invited ones included): no seat is left for this row.`,
      );
    if (row.input) row.input.organisationId = org.id;
  }
}
