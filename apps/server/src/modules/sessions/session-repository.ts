import { sql } from 'kysely';
import { z } from 'zod';
import type { Kysely } from 'kysely';
import { IDLE_TIMEOUT_MS, SESSION_MAX_AGE_MS } from '@kb/contracts/session';
import type { Database } from '../../db/schema.ts';
import { SEARCH_SET_TABLES } from '../../db/tables/search-tables.ts';
import type { SessionCheck, SessionChecker } from '../../http/auth-hook.ts';

/**
 * The moment before which a session's last activity makes it idle: such a session is refused (and
 * closed) at its next request, so every "open sessions" list leaves it out, however old its row.
 */
const IDLE_CUTOFF = sql<Date>`now() - make_interval(secs => ${IDLE_TIMEOUT_MS / 1000})`;

/** The moment before which a session's login makes it expired (ASVS 3.3.2): refused and closed at its next request. */
const EXPIRY_CUTOFF = sql<Date>`now() - make_interval(secs => ${SESSION_MAX_AGE_MS / 1000})`;

/**
 * "Open" as every list, count and check of sessions means it: not closed, not idle, not past its
 * lifetime. An idle or expired row is only closed at its next request, so its `closed_at` may
 * still be empty. `alias`: the user_sessions table's alias in the query, if it has one.
 */
export function openSession(alias?: string) {
  const column = (name: string) => sql.ref(alias ? `${alias}.${name}` : name);
  return sql<boolean>`(${column('closed_at')} IS NULL AND ${column('last_activity_at')} > ${IDLE_CUTOFF} AND ${column('created_at')} > ${EXPIRY_CUTOFF})`;
}

/** Whether a text is a UUID (a session id); anything else names no session and must not reach a uuid column. */
const isUuid = (text: string) => z.uuid().safeParse(text).success;

export type CloseReason =
  | 'logout'
  | 'idle'
  | 'expired'
  | 'closed'
  | 'closed_by_user'
  | 'closed_by_admin'
  | 'deactivated'
  | 'password_changed'
  | 'subscription_ended';

/** Server-side session rows: the truth behind every token (spec §4 "Sessions", §9 idle limit). */
export class SessionRepository implements SessionChecker {
  constructor(private readonly db: Kysely<Database>) {}

  async open(userId: number, ipAddress: string | null, userAgent: string | null): Promise<string> {
    const row = await this.db
      .insertInto('user_sessions')
      .values({ user_id: userId, ip_address: ipAddress, user_agent: userAgent })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /**
   * A login's session, with the id its caller made (so that its tokens are signed while the row is
   * written), and the successful attempt's row, in one statement: one wait for the database
   * instead of two under load (the attempt's foreign key is checked at the statement's end).
   */
  async openForLogin(
    sessionId: string,
    userId: number,
    client: { ip: string | null; userAgent: string | null },
    username: string,
  ): Promise<void> {
    await this.db
      .with('opened', (db) =>
        db
          .insertInto('user_sessions')
          .values({ id: sessionId, user_id: userId, ip_address: client.ip, user_agent: client.userAgent })
          .returning(['id', 'user_id']),
      )
      .insertInto('login_attempts')
      .columns(['user_id', 'username', 'ip_address', 'failed', 'failure_reason', 'session_id'])
      .expression((eb) =>
        eb
          .selectFrom('opened')
          .select([
            'opened.user_id',
            eb.val(username).as('username'),
            eb.val(client.ip).as('ip_address'),
            eb.val(false).as('failed'),
            eb.val(null).as('failure_reason'),
            'opened.id',
          ]),
      )
      .execute();
  }

  /**
   * Checks a session and, when `touch` is set, records activity. A session idle for longer than the
   * idle limit is closed here, so an idle token is refused however long ago it was issued. Reading
   * and touching are one statement: every call waits for the database once for its check, not
   * twice (the touch only reaches an open session, so an idle one keeps the last activity that its
   * logout time is stamped from).
   */
  async check(sessionId: string, userId: number, touch: boolean): Promise<SessionCheck> {
    const row = await this.db
      .with('found', (db) =>
        db
          .selectFrom('user_sessions as s')
          .innerJoin('users as u', 'u.id', 's.user_id')
          .select([
            's.id',
            's.closed_at',
            's.last_activity_at',
            's.mfa_passed_at',
            'u.email',
            'u.user_hash_id',
            'u.active',
            sql<boolean>`s.last_activity_at <= ${IDLE_CUTOFF}`.as('idle'),
            sql<boolean>`s.created_at <= ${EXPIRY_CUTOFF}`.as('expired'),
            sql<boolean>`${openSession('s')}`.as('open'),
            sql<string[] | null>`(select array_agg(role_name order by position, id) from subscriptions
              where user_id = s.user_id and start_date <= now() and end_date > now())`.as('roles'),
            sql<boolean>`exists (select 1 from user_mfa m where m.user_id = s.user_id and m.confirmed_at is not null)`.as('mfa_enrolled'),
          ])
          .where('s.id', '=', sessionId)
          .where('s.user_id', '=', userId),
      )
      .with('touched', (db) =>
        db
          .updateTable('user_sessions')
          .set({ last_activity_at: sql`now()` })
          .where('id', 'in', (eb) => eb.selectFrom('found').select('found.id').where('found.open', '=', true))
          .where(sql<boolean>`${touch}::boolean`)
          .returning('last_activity_at'),
      )
      .selectFrom('found')
      .selectAll('found')
      .select((eb) => eb.selectFrom('touched').select('touched.last_activity_at').as('touched_at'))
      .executeTakeFirst();
    if (!row || row.closed_at) return { state: 'closed' };
    if (row.idle) {
      await this.close(sessionId, 'idle');
      return { state: 'idle' };
    }
    // ASVS 3.3.2: an active session too ends at its absolute lifetime; its user logs in again.
    if (row.expired) {
      await this.close(sessionId, 'expired');
      return { state: 'expired' };
    }
    if (!row.active || !row.roles?.length) {
      await this.close(sessionId, 'subscription_ended');
      return { state: 'closed' };
    }
    return {
      state: 'open',
      userId,
      email: row.email,
      userHashId: row.user_hash_id,
      roles: row.roles,
      lastActivityAt: row.touched_at ?? row.last_activity_at,
      secondFactor: { passed: row.mfa_passed_at !== null, enrolled: row.mfa_enrolled === true },
    };
  }

  /**
   * Closes a session and stamps the logout time of its login: for an idle session the moment of
   * its last activity (when the user actually left), otherwise now. Its search result sets go too.
   * `alsoInTransaction` runs in the same transaction when the session was open (an audit row).
   */
  async close(sessionId: string, reason: CloseReason, alsoInTransaction?: (trx: Kysely<Database>) => Promise<void>): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const closed = await closeIn(trx, sessionId, reason);
      if (closed > 0) await alsoInTransaction?.(trx);
      return closed;
    });
  }

  /**
   * Closes every open session of a user inside the caller's transaction (an administrator's change
   * and the closing are committed together); answers how many it closed.
   */
  async closeAllIn(trx: Kysely<Database>, userId: number, reason: CloseReason): Promise<number> {
    const open = await trx.selectFrom('user_sessions').select('id').where('user_id', '=', userId).where('closed_at', 'is', null).execute();
    let closed = 0;
    for (const { id } of open) closed += await closeIn(trx, id, reason);
    return closed;
  }

  /** How many sessions of each of these users are open. */
  async openCounts(db: Kysely<Database>, userIds: readonly number[]): Promise<Map<number, number>> {
    if (userIds.length === 0) return new Map();
    const rows = await db
      .selectFrom('user_sessions')
      .select(['user_id', sql<number>`count(*)::int`.as('n')])
      .where('user_id', 'in', userIds)
      .where(openSession())
      .groupBy('user_id')
      .execute();
    return new Map(rows.map((r) => [r.user_id, r.n]));
  }

  /** Closes every open session of a user except `keepSessionId`; answers how many it closed. */
  async closeOthers(userId: number, keepSessionId: string | null, reason: CloseReason): Promise<number> {
    const open = await this.db
      .selectFrom('user_sessions')
      .select('id')
      .where('user_id', '=', userId)
      .where('closed_at', 'is', null)
      .$if(keepSessionId !== null, (q) => q.where('id', '!=', keepSessionId as string))
      .execute();
    let closed = 0;
    for (const { id } of open) closed += await this.close(id, reason);
    return closed;
  }

  /**
   * Whether `sessionId` names an open session of the user, "open" as every list of open sessions
   * means it: not closed, not idle, not past its lifetime (an idle or expired one is only closed at
   * its next request, so its row may still say open). Any text: one that is not a UUID names none.
   */
  async isOpenSessionOf(sessionId: string, userId: number): Promise<boolean> {
    if (!isUuid(sessionId)) return false;
    const row = await this.db
      .selectFrom('user_sessions')
      .select('id')
      .where('id', '=', sessionId)
      .where('user_id', '=', userId)
      .where(openSession())
      .executeTakeFirst();
    return row !== undefined;
  }

  /** The user a session belongs to; null when there is none (or the text is no UUID, which names none). */
  async ownerOf(sessionId: string): Promise<number | null> {
    if (!isUuid(sessionId)) return null;
    const row = await this.db.selectFrom('user_sessions').select('user_id').where('id', '=', sessionId).executeTakeFirst();
    return row?.user_id ?? null;
  }

  async lastActivity(sessionId: string): Promise<Date | null> {
    const row = await this.db.selectFrom('user_sessions').select('last_activity_at').where('id', '=', sessionId).executeTakeFirst();
    return row?.last_activity_at ?? null;
  }

  /** When the user's most recent other session ended (its logout time), if any. */
  async previousSessionEnd(userId: number, currentSessionId: string): Promise<Date | null> {
    const row = await this.db
      .selectFrom('user_sessions')
      .select(sql<Date | null>`coalesce(closed_at, last_activity_at)`.as('ended'))
      .where('user_id', '=', userId)
      .where('id', '!=', currentSessionId)
      .orderBy('created_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row?.ended ?? null;
  }
}

/**
 * Closes one session and stamps the logout time of its login: for an idle session the moment of
 * its last activity (when the user actually left), otherwise now. Its search result sets go too.
 */
async function closeIn(trx: Kysely<Database>, sessionId: string, reason: CloseReason): Promise<number> {
  const closed = await trx
    .updateTable('user_sessions')
    .set({ closed_at: sql`now()`, close_reason: reason })
    .where('id', '=', sessionId)
    .where('closed_at', 'is', null)
    .returning(['id', 'last_activity_at'])
    .executeTakeFirst();
  if (!closed) return 0;
  await trx
    .updateTable('login_attempts')
    .set({ logout_date: reason === 'idle' ? closed.last_activity_at : sql`now()` })
    .where('session_id', '=', sessionId)
    .where('logout_date', 'is', null)
    .execute();
  await dropSearchSetsOfSession(trx, sessionId);
  return 1;
}

/**
 * A closed session's searches lose their result sets (derived data, spec "drop temporary tables");
 * the search rows stay, with criteria and summary, as the user's recent searches.
 */
async function dropSearchSetsOfSession(trx: Kysely<Database>, userSessionId: string): Promise<void> {
  const sets = trx.selectFrom('search_sessions').select('set_id').where('user_session_id', '=', userSessionId);
  for (const table of SEARCH_SET_TABLES) await trx.deleteFrom(table).where('set_id', 'in', sets).execute();
  await trx.updateTable('search_sessions').set({ status: 'dropped' }).where('user_session_id', '=', userSessionId).execute();
}
