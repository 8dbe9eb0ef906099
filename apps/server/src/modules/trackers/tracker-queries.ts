import { sql } from 'kysely';
import type { Kysely, RawBuilder, Transaction } from 'kysely';
import type { Tracker } from '@kb/contracts/admin-trackers';
import type { Database } from '../../db/schema.ts';
import { containsPattern } from '../../db/like-pattern.ts';

/*
 * The SQL of the trackers: one statement per tracker, filtered by user (e-mail contains),
 * organisation and whole UTC days, sorted by a whitelisted column with the id as tie-breaker, and
 * paged. The total is counted by the same statement (a window count), so a page costs one round
 * trip. Every value travels as a parameter; sort columns come from the fixed maps below only.
 */

type Db = Kysely<Database> | Transaction<Database>;

export interface TrackerFilters {
  user?: string | undefined;
  organisationId?: number | undefined;
  from?: string | undefined;
  to?: string | undefined;
  status?: string | undefined;
  /** Logins: only failed or only successful attempts. */
  outcome?: 'failed' | 'successful' | undefined;
  /** One row by its id (the answer of a curation). */
  id?: number | undefined;
}

export interface TrackerWindow {
  sort: string;
  dir: 'asc' | 'desc';
  limit: number;
  offset: number;
}

interface TrackerSql {
  /** The select list (the aliases the row mappers read). */
  select: RawBuilder<unknown>;
  /** FROM and JOINs; the user is `u`, the organisation `o`. */
  from: RawBuilder<unknown>;
  /** The column the date filter reads, and the e-mail the user filter reads. */
  date: string;
  email: string;
  /** Fixed conditions of the tracker (e.g. the kind of download). */
  where?: RawBuilder<unknown>;
  /** Sort key -> column (never user input). */
  sorts: Record<string, string>;
  id: string;
  /** The column of the term status filter, where there is one. */
  status?: string;
  /** The column of the login outcome filter, where there is one. */
  failed?: string;
}

const USER_JOIN = sql`left join organisations o on o.id = u.organisation_id`;

const TRACKERS: Record<Tracker, TrackerSql> = {
  logins: {
    select: sql`a.id, a.username as user_email, o.name as organisation, a.login_date, a.logout_date, a.failed, a.failure_reason, a.ip_address`,
    from: sql`login_attempts a left join users u on u.id = a.user_id ${USER_JOIN}`,
    date: 'a.login_date',
    email: 'a.username',
    sorts: { date: 'a.login_date', user: 'a.username', ip: 'a.ip_address' },
    id: 'a.id',
    failed: 'a.failed',
  },
  searches: {
    select: sql`l.id, u.email as user_email, o.name as organisation, l.created_at, l.summary, l.counts, l.duration_ms, l.failed`,
    from: sql`search_log l left join users u on u.id = l.user_id ${USER_JOIN}`,
    date: 'l.created_at',
    email: 'u.email',
    sorts: { date: 'l.created_at', user: 'u.email', duration: 'l.duration_ms' },
    id: 'l.id',
  },
  exports: {
    select: sql`j.id, u.email as user_email, o.name as organisation, j.created_at, j.tab, j.format, j.row_count, j.credits, j.status, j.file_name,
      (select count(*)::int from download_logs dl where dl.export_id = j.id and dl.kind = 'export') as downloads,
      (select max(dl.created_at) from download_logs dl where dl.export_id = j.id and dl.kind = 'export') as last_download_at`,
    from: sql`export_jobs j join users u on u.id = j.user_id ${USER_JOIN}`,
    date: 'j.created_at',
    email: 'u.email',
    sorts: { date: 'j.created_at', user: 'u.email', records: 'j.row_count', credits: 'j.credits', status: 'j.status' },
    id: 'j.id',
  },
  datasets: {
    select: sql`d.id, u.email as user_email, o.name as organisation, d.created_at, ds.dataset_type, d.description, d.file_name, d.file_size`,
    from: sql`download_logs d join users u on u.id = d.user_id ${USER_JOIN} left join datasets ds on ds.id = d.dataset_id`,
    date: 'd.created_at',
    email: 'u.email',
    where: sql`d.kind = 'dataset'`,
    sorts: { date: 'd.created_at', user: 'u.email', datasetType: 'ds.dataset_type', size: 'd.file_size' },
    id: 'd.id',
  },
  terms: {
    select: sql`rt.term_id as id, u.email as user_email, o.name as organisation, r.created_at, rt.term, r.list_type, r.file_name, r.comment,
      rt.status, rt.resolved_id, rt.resolved_label, rt.note, cu.email as curated_by, rt.curated_at`,
    from: sql`reported_terms rt join term_reports r on r.report_id = rt.report_id join users u on u.id = r.user_id ${USER_JOIN}
      left join users cu on cu.id = rt.curated_by`,
    date: 'r.created_at',
    email: 'u.email',
    sorts: { date: 'r.created_at', user: 'u.email', term: 'lower(rt.term)', listType: 'r.list_type', status: 'rt.status' },
    id: 'rt.term_id',
    status: 'rt.status',
  },
};

/** Midnight UTC of a YYYY-MM-DD day (validated by the contract). */
const dayStart = (day: string) => sql`(${day}::date::timestamp at time zone 'UTC')`;
const dayEnd = (day: string) => sql`((${day}::date + 1)::timestamp at time zone 'UTC')`;

function conditions(def: TrackerSql, filters: TrackerFilters): RawBuilder<unknown> {
  const parts: RawBuilder<unknown>[] = [];
  if (def.where) parts.push(def.where);
  if (filters.user) parts.push(sql`${sql.raw(def.email)} ilike ${containsPattern(filters.user)}`);
  if (filters.organisationId !== undefined) parts.push(sql`u.organisation_id = ${filters.organisationId}`);
  if (filters.from) parts.push(sql`${sql.raw(def.date)} >= ${dayStart(filters.from)}`);
  if (filters.to) parts.push(sql`${sql.raw(def.date)} < ${dayEnd(filters.to)}`);
  if (filters.id !== undefined) parts.push(sql`${sql.raw(def.id)} = ${filters.id}`);
  if (filters.outcome && def.failed) parts.push(sql`${sql.raw(def.failed)} = ${filters.outcome === 'failed'}`);
  if (filters.status && def.status) parts.push(sql`${sql.raw(def.status)} = ${filters.status}`);
  return parts.length === 0 ? sql`true` : sql.join(parts, sql` and `);
}

/** Whether `sort` is a sort key of the tracker. */
export function isTrackerSort(tracker: Tracker, sort: string): boolean {
  return Object.hasOwn(TRACKERS[tracker].sorts, sort);
}

/** One page of a tracker's rows (raw, snake_case) with the total of the filter. */
export async function trackerRows(
  db: Db,
  tracker: Tracker,
  filters: TrackerFilters,
  window: TrackerWindow,
): Promise<{ rows: Record<string, unknown>[]; total: number }> {
  const def = TRACKERS[tracker];
  const column = def.sorts[window.sort] ?? def.sorts.date ?? def.id;
  const dir = sql.raw(window.dir === 'asc' ? 'asc' : 'desc');
  // Nulls last either way: a missing IP or dataset type is not "the first" of anything.
  const { rows } = await sql<Record<string, unknown> & { total_rows: number }>`
    select ${def.select}, count(*) over ()::int as total_rows
    from ${def.from}
    where ${conditions(def, filters)}
    order by ${sql.raw(column)} ${dir} nulls last, ${sql.raw(def.id)} ${dir}
    limit ${window.limit} offset ${window.offset}`.execute(db);
  if (rows.length === 0 && window.offset > 0) {
    // Past the last page: the total still has to be told.
    const counted = await sql<{ n: number }>`select count(*)::int as n from ${def.from} where ${conditions(def, filters)}`.execute(db);
    return { rows: [], total: counted.rows[0]?.n ?? 0 };
  }
  return { rows, total: rows[0]?.total_rows ?? 0 };
}

/** The reported term `termId` with its report (null when there is none); `lock` inside a curation's transaction. */
export async function reportedTerm(trx: Db, termId: number, lock: boolean) {
  const { rows } = await sql<{ term_id: number; term: string; status: string; list_type: string }>`
    select rt.term_id, rt.term, rt.status, r.list_type
    from reported_terms rt join term_reports r on r.report_id = rt.report_id
    where rt.term_id = ${termId}
    ${lock ? sql`for update of rt` : sql``}`.execute(trx);
  return rows[0] ?? null;
}

/** Other open reports of the same text in the same list type (candidates to close with it). */
export async function openTwins(trx: Db, termId: number, listType: string, term: string) {
  const { rows } = await sql<{ term_id: number; term: string }>`
    select rt.term_id, rt.term
    from reported_terms rt join term_reports r on r.report_id = rt.report_id
    where r.list_type = ${listType} and lower(btrim(rt.term)) = lower(btrim(${term})) and rt.status = 'open' and rt.term_id <> ${termId}
    for update of rt`.execute(trx);
  return rows;
}

export interface CurationWrite {
  status: 'resolved' | 'rejected';
  note: string | null;
  curatedBy: number;
  resolvedId: string | null;
  resolvedLabel: string | null;
}

/** Sets the curation state of the given terms. */
export async function writeCuration(trx: Db, termIds: readonly number[], write: CurationWrite): Promise<void> {
  await trx
    .updateTable('reported_terms')
    .set({
      status: write.status,
      note: write.note,
      curated_by: write.curatedBy,
      curated_at: sql<Date>`now()`,
      resolved_id: write.resolvedId,
      resolved_label: write.resolvedLabel,
    })
    .where('term_id', 'in', [...termIds])
    .execute();
}

export function organisations(db: Db) {
  return db.selectFrom('organisations').select(['id', 'name']).orderBy(sql`lower(name)`).execute();
}
