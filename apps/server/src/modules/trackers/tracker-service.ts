import type { Kysely } from 'kysely';
import { CURATION_ENTITY_LABELS, TEXT_CURATION_ENTITIES, TRACKER_CSV_MAX_ROWS, TRACKER_SORTS } from '@kb/contracts/admin-trackers';
import type {
  CurationResponse,
  DatasetTrackerRow,
  ExportTrackerRow,
  LoginTrackerRow,
  ResolveTermRequest,
  SearchTrackerRow,
  TermCandidate,
  TermStatus,
  TermTrackerRow,
  Tracker,
  TrackerCsvQuery,
} from '@kb/contracts/admin-trackers';
import { ERROR_CODES } from '@kb/contracts/errors';
import type { Database } from '../../db/schema.ts';
import { HttpError, badRequest, notFound } from '../../http/errors.ts';
import { recordAudit } from '../audit/audit-log.ts';
import type { AuditActor } from '../audit/audit-log.ts';
import {
  curationCandidates,
  curationEntity,
  curationKey,
  curationTarget,
  isUploadListType,
  saveCuratedSynonym,
} from '../uploads/term-curation.ts';
import { isTrackerSort, openTwins, reportedTerm, organisations, trackerRows, writeCuration } from './tracker-queries.ts';
import type { TrackerFilters } from './tracker-queries.ts';
import { toCsv } from './tracker-csv.ts';

type Raw = Record<string, unknown>;

const iso = (value: unknown): string => (value instanceof Date ? value : new Date(String(value))).toISOString();
const isoOrNull = (value: unknown): string | null => (value === null || value === undefined ? null : iso(value));
const str = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));
const num = (value: unknown): number => Number(value);

function counts(value: unknown): Record<string, number> | null {
  const parsed = typeof value === 'string' ? (JSON.parse(value) as unknown) : value;
  if (!parsed || typeof parsed !== 'object') return null;
  return Object.fromEntries(Object.entries(parsed as Record<string, unknown>).filter(([, v]) => typeof v === 'number')) as Record<
    string,
    number
  >;
}

const user = (r: Raw) => ({ userEmail: str(r.user_email), organisation: str(r.organisation) });

const ROW_MAPPERS = {
  logins: (r: Raw): LoginTrackerRow => ({
    id: num(r.id),
    ...user(r),
    loginDate: iso(r.login_date),
    logoutDate: isoOrNull(r.logout_date),
    failed: Boolean(r.failed),
    failureReason: str(r.failure_reason),
    ipAddress: str(r.ip_address),
  }),
  searches: (r: Raw): SearchTrackerRow => ({
    id: num(r.id),
    ...user(r),
    createdAt: iso(r.created_at),
    summary: String(r.summary),
    counts: counts(r.counts),
    durationMs: num(r.duration_ms),
    failed: Boolean(r.failed),
  }),
  exports: (r: Raw): ExportTrackerRow => ({
    id: num(r.id),
    ...user(r),
    createdAt: iso(r.created_at),
    tab: String(r.tab),
    format: String(r.format),
    records: num(r.row_count),
    credits: num(r.credits),
    status: String(r.status),
    fileName: String(r.file_name),
    downloads: num(r.downloads),
    lastDownloadAt: isoOrNull(r.last_download_at),
  }),
  datasets: (r: Raw): DatasetTrackerRow => ({
    id: num(r.id),
    ...user(r),
    createdAt: iso(r.created_at),
    datasetType: str(r.dataset_type),
    description: String(r.description),
    fileName: String(r.file_name),
    fileSize: r.file_size === null || r.file_size === undefined ? null : num(r.file_size),
  }),
  terms: (r: Raw): TermTrackerRow => {
    const listType = String(r.list_type);
    const resolvedId = str(r.resolved_id);
    const textual = isUploadListType(listType) && TEXT_CURATION_ENTITIES.includes(curationEntity(listType));
    return {
      id: num(r.id),
      ...user(r),
      createdAt: iso(r.created_at),
      term: String(r.term),
      listType,
      fileName: str(r.file_name),
      comment: str(r.comment),
      status: String(r.status) as TermStatus,
      resolvedTo: resolvedId === null ? null : { id: textual ? resolvedId : Number(resolvedId), label: str(r.resolved_label) },
      note: str(r.note),
      curatedBy: str(r.curated_by),
      curatedAt: isoOrNull(r.curated_at),
    };
  },
} satisfies Record<Tracker, (r: Raw) => unknown>;

type RowOf<T extends Tracker> = ReturnType<(typeof ROW_MAPPERS)[T]>;

export interface TrackerListQuery extends TrackerFilters {
  page: number;
  pageSize: number;
  sort: string;
  dir: 'asc' | 'desc';
}

/** The trackers of `/admin/trackers` and the curation of reported terms (docs/administration.md). */
export class TrackerService {
  constructor(private readonly db: Kysely<Database>) {}

  async list<T extends Tracker>(
    tracker: T,
    query: TrackerListQuery,
  ): Promise<{ rows: RowOf<T>[]; total: number; page: number; pageSize: number }> {
    const { page, pageSize, sort, dir, ...filters } = query;
    const { rows, total } = await trackerRows(this.db, tracker, filters, { sort, dir, limit: pageSize, offset: (page - 1) * pageSize });
    const map = ROW_MAPPERS[tracker] as (r: Raw) => RowOf<T>;
    return { rows: rows.map(map), total, page, pageSize };
  }

  /** The filtered rows of a tracker as CSV (at most TRACKER_CSV_MAX_ROWS; a last line says when cut). */
  async csv(tracker: Tracker, query: TrackerCsvQuery): Promise<string> {
    const { sort = TRACKER_SORTS[tracker][0], dir, ...filters } = query;
    if (!isTrackerSort(tracker, sort))
      throw badRequest(`The ${tracker} tracker sorts by ${TRACKER_SORTS[tracker].join(', ')}; not by "${sort}".`);
    const { rows, total } = await trackerRows(this.db, tracker, filters, { sort, dir, limit: TRACKER_CSV_MAX_ROWS, offset: 0 });
    return toCsv(
      tracker,
      rows.map((r) => ROW_MAPPERS[tracker](r)),
      total,
    );
  }

  async organisations(): Promise<{ rows: { id: number; name: string }[] }> {
    return { rows: await organisations(this.db) };
  }

  async candidates(termId: number, q: string): Promise<{ entity: ReturnType<typeof curationEntity>; rows: TermCandidate[] }> {
    const term = await termOrThrow(this.db, termId, false);
    return { entity: curationEntity(term.listType), rows: await curationCandidates(this.db, term.listType, q) };
  }

  /**
   * Resolves a reported term: its lookup key becomes a curated synonym of the record picked, the
   * term (and the other open reports of the same text in the same list) is closed, and one audit
   * row is written, all in one transaction.
   */
  async resolve(actor: AuditActor, termId: number, request: ResolveTermRequest): Promise<CurationResponse> {
    const closed = await this.db.transaction().execute(async (trx) => {
      const term = await termOrThrow(trx, termId, true);
      const key = curationKey(term.listType, term.term);
      if ('invalid' in key) {
        throw badRequest(
          `"${term.term}" is ${key.invalid} for a ${term.listType} list, so no upload could identify it: reject it instead.`,
        );
      }
      const entity = curationEntity(term.listType);
      const target = await curationTarget(trx, term.listType, request.targetId);
      if (!target)
        throw badRequest(
          `There is no ${CURATION_ENTITY_LABELS[entity]} "${request.targetId}" for a ${term.listType} term. Pick one from the suggestions.`,
        );
      await saveCuratedSynonym(trx, {
        kind: key.kind,
        key: key.key,
        matchId: target.id,
        label: target.label,
        term: term.term,
        createdBy: actor.userId,
      });
      const twins = (await openTwins(trx, termId, term.listType, term.term)).filter((t) => {
        const k = curationKey(term.listType, t.term);
        return !('invalid' in k) && k.kind === key.kind && k.key === key.key;
      });
      const ids = [termId, ...twins.map((t) => t.term_id)];
      const note = request.note?.trim() || null;
      await writeCuration(trx, ids, {
        status: 'resolved',
        note,
        curatedBy: actor.userId,
        resolvedId: String(target.id),
        resolvedLabel: target.label,
      });
      await recordAudit(trx, actor, {
        action: 'term.resolve',
        targetType: 'term',
        targetId: termId,
        targetLabel: `${term.listType}: ${term.term}`,
        before: { status: 'open' },
        after: { status: 'resolved', synonymOf: { entity, id: target.id, label: target.label }, note, alsoClosed: ids.slice(1) },
      });
      return { twins: twins.length, label: target.label };
    });
    return this.curationAnswer(
      termId,
      `Resolved: the term now means ${closed.label}; the next upload of its list identifies it.`,
      closed.twins,
    );
  }

  /** Rejects a reported term (it stays unidentified), with the other open reports of the same text; one audit row. */
  async reject(actor: AuditActor, termId: number, noteText: string | undefined): Promise<CurationResponse> {
    const twins = await this.db.transaction().execute(async (trx) => {
      const term = await termOrThrow(trx, termId, true);
      const others = await openTwins(trx, termId, term.listType, term.term);
      const ids = [termId, ...others.map((t) => t.term_id)];
      const note = noteText?.trim() || null;
      await writeCuration(trx, ids, { status: 'rejected', note, curatedBy: actor.userId, resolvedId: null, resolvedLabel: null });
      await recordAudit(trx, actor, {
        action: 'term.reject',
        targetType: 'term',
        targetId: termId,
        targetLabel: `${term.listType}: ${term.term}`,
        before: { status: 'open' },
        after: { status: 'rejected', note, alsoClosed: ids.slice(1) },
      });
      return others.length;
    });
    return this.curationAnswer(termId, 'Rejected: the term stays unidentified.', twins);
  }

  private async curationAnswer(termId: number, message: string, alsoClosed: number): Promise<CurationResponse> {
    const more =
      alsoClosed > 0 ? ` ${alsoClosed === 1 ? 'One other report' : `${alsoClosed} other reports`} of the same term closed with it.` : '';
    return { message: message + more, row: await this.termRow(termId), alsoClosed };
  }

  private async termRow(termId: number): Promise<TermTrackerRow> {
    const { rows } = await trackerRows(this.db, 'terms', { id: termId }, { sort: 'date', dir: 'desc', limit: 1, offset: 0 });
    if (!rows[0]) throw notFound(`There is no reported term ${termId}.`);
    return ROW_MAPPERS.terms(rows[0]);
  }
}

/** The term (404 when there is none); `forCuration`: locked, and still open (409 otherwise). */
async function termOrThrow(db: Parameters<typeof reportedTerm>[0], termId: number, forCuration: boolean) {
  const term = await reportedTerm(db, termId, forCuration);
  if (!term) throw notFound(`There is no reported term ${termId}.`);
  if (!isUploadListType(term.list_type)) throw badRequest(`The term was reported for an unknown list type "${term.list_type}".`);
  if (forCuration && term.status !== 'open') {
    throw new HttpError(409, { message: `This term was already ${term.status}; it can be curated only once.`, code: ERROR_CODES.conflict });
  }
  return { termId: term.term_id, term: term.term, status: term.status, listType: term.list_type };
}
