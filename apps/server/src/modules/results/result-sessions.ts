import { isDeepStrictEqual } from 'node:util';
import { sql } from 'kysely';
import type { Kysely, Selectable } from 'kysely';
import type { AppliedFilter, SearchCounts } from '@kb/contracts/search';
import { AppliedFilterSchema } from '@kb/contracts/search';
import { ERROR_CODES } from '@kb/contracts/errors';
import type { ResultTabKey } from '@kb/contracts/result-tabs';
import { RESULT_TAB_KEYS } from '@kb/contracts/result-tabs';
import type { Database, SearchSessionsTable } from '../../db/schema.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import type { AuthContext } from '../../http/auth-hook.ts';
import type { SearchService, SessionNeed } from '../search/search-service.ts';

/**
 * The search session a results call reads: the caller's own (another user's answers 403), run to
 * the end (a running one 409, an expired one 410 with what to do), its sets in place (lost ones are
 * re-run before it is answered). Reading it marks it used, so the sets of a search someone is
 * working in are not swept.
 */
export type ResultSession = Selectable<SearchSessionsTable>;

const TOUCH_AFTER_MS = 5 * 60_000;
const MAX_STR_ID_TTL_MS = 10_000;

function sessionGone(message: string): HttpError {
  return new HttpError(410, { message, code: ERROR_CODES.notFound });
}

export async function readySession(
  db: Kysely<Database>,
  search: SearchService,
  auth: AuthContext,
  sessionId: string,
  /** 'definition': the caller reads the sets from memory, so sets not in the tables are not written for it. */
  need: SessionNeed = 'tables',
): Promise<ResultSession> {
  // Sets lost in a crash (or a run whose process died) are rebuilt first; this call waits for that.
  const session = await search.keptSession(auth, sessionId, need);
  if (!session || (session.status === 'new' && session.abandoned))
    throw notFound('There is no search with this session id. Run the search from the search page.');
  switch (session.status) {
    case 'ready':
      break;
    case 'expired':
    case 'dropped':
      throw sessionGone('This search has expired: its results are kept for 24 hours after last use. Run it again from the search page.');
    case 'running':
    case 'new':
      throw new HttpError(409, {
        message: 'This search is still running; its results appear when it finishes.',
        code: ERROR_CODES.conflict,
      });
    case 'cancelled':
      throw new HttpError(409, { message: 'This search was cancelled; run it again to see results.', code: ERROR_CODES.conflict });
    default:
      throw new HttpError(409, {
        message: `This search failed: ${session.error ?? 'unknown error'}. Change it and run it again.`,
        code: ERROR_CODES.conflict,
      });
  }
  if (Date.now() - new Date(session.last_used_at).getTime() > TOUCH_AFTER_MS) {
    await db.updateTable('search_sessions').set({ last_used_at: new Date() }).where('id', '=', sessionId).execute();
  }
  return session;
}

/** Applied filters per tab as stored (anything malformed is dropped rather than failing every call). */
export function sessionFilters(session: ResultSession): Record<ResultTabKey, AppliedFilter[]> {
  const stored = (session.filters ?? {}) as Record<string, unknown>;
  const result = {} as Record<ResultTabKey, AppliedFilter[]>;
  for (const tab of RESULT_TAB_KEYS) {
    const list = Array.isArray(stored[tab]) ? (stored[tab] as unknown[]) : [];
    result[tab] = list.flatMap((item) => {
      const parsed = AppliedFilterSchema.safeParse(item);
      return parsed.success ? [parsed.data] : [];
    });
  }
  return result;
}

/** Whether two lists of a tab's filters say the same, whatever their keys' order (jsonb reorders them). */
export function sameFilters(a: readonly AppliedFilter[], b: readonly AppliedFilter[]): boolean {
  const plain = (list: readonly AppliedFilter[]) => list.map((f) => JSON.parse(JSON.stringify(AppliedFilterSchema.parse(f))) as unknown);
  return isDeepStrictEqual(plain(a), plain(b));
}

/** Rows that passed each filtered tab's filters when they were applied (key `_rows` beside the tabs). */
export function filteredRowCounts(session: ResultSession): Partial<Record<ResultTabKey, number>> {
  const stored = (session.filters ?? {}) as { _rows?: Partial<Record<ResultTabKey, number>> };
  return stored._rows ?? {};
}

export async function saveFilters(
  db: Kysely<Database>,
  sessionId: string,
  filters: Record<ResultTabKey, AppliedFilter[]>,
  rows: Partial<Record<ResultTabKey, number>>,
): Promise<void> {
  await db
    .updateTable('search_sessions')
    .set({ filters: JSON.stringify({ ...filters, _rows: rows }) })
    .where('id', '=', sessionId)
    .execute();
}

/** The session's six counts as stored when it ran. */
export function sessionCounts(session: ResultSession): SearchCounts | null {
  return (session.counts as SearchCounts | null) ?? null;
}

/** Which stored count is the unfiltered row count of a tab. */
const COUNT_OF_TAB = {
  structuretab: 'stridscount',
  activitiestab: 'actidscount',
  assaytab: 'assayidscount',
  developmentcompoundstab: 'clinicalcompoundidscount',
  documentstab: 'refidscount',
} as const;

/** A tab's unfiltered row count as stored when the session ran (null before). */
export function storedTabCount(session: ResultSession, tab: ResultTabKey): number | null {
  return sessionCounts(session)?.[COUNT_OF_TAB[tab]] ?? null;
}

/** Highest structure id per database, re-read every few seconds (one index probe). */
const maxStrIds = new WeakMap<Kysely<Database>, { at: number; value: number }>();

/** True when structures were added to the knowledge base after the session ran (spec strIdNewlyAddedStatus). */
export async function newlyAdded(db: Kysely<Database>, session: ResultSession): Promise<boolean> {
  if (session.kb_max_str_id == null) return false;
  let cached = maxStrIds.get(db);
  if (!cached || Date.now() - cached.at > MAX_STR_ID_TTL_MS) {
    const { rows } = await sql<{ max: number | null }>`SELECT max(str_id) AS max FROM structures`.execute(db);
    cached = { at: Date.now(), value: Number(rows[0]?.max ?? 0) };
    maxStrIds.set(db, cached);
  }
  return cached.value > Number(session.kb_max_str_id);
}
