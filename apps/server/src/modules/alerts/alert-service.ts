import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type {
  AppNotification,
  LoadWindowInfo,
  NotificationsPage,
  OpenAlertResponse,
  SavedSearchAlert,
  SessionWindow,
} from '@kb/contracts/alerts';
import { SearchCriteriaSchema } from '@kb/contracts/search';
import type { Database } from '../../db/schema.ts';
import type { AuthContext } from '../../http/auth-hook.ts';
import { HttpError, forbidden, notFound } from '../../http/errors.ts';
import { ERROR_CODES } from '@kb/contracts/errors';
import { currentLoadId } from '../knowledge-base/kb-loads.ts';
import type { SearchService } from '../search/search-service.ts';

const iso = (d: Date | string | null) => (d == null ? null : (d instanceof Date ? d : new Date(d)).toISOString());
const num = (v: number | string | null) => (v == null ? null : Number(v));
/** jsonb may come back parsed (pg) or as text (some drivers): accept both. */
const parseJson = (value: unknown): unknown => (typeof value === 'string' ? JSON.parse(value) : value);

type NotificationRow = {
  id: string | number;
  kind: string;
  title: string;
  body: string;
  created_at: Date;
  read_at: Date | null;
  link: string | null;
  saved_criteria_id: number | null;
  since_load: number | string | null;
  load_id: number | string | null;
  load_label: string | null;
  load_finished_at: Date | string | null;
};

function windowOf(row: Pick<NotificationRow, 'since_load' | 'load_id' | 'load_label' | 'load_finished_at'>): LoadWindowInfo | null {
  if (row.load_id == null || row.since_load == null) return null;
  return {
    sinceLoadId: Number(row.since_load),
    loadId: Number(row.load_id),
    loadLabel: row.load_label ?? `Load ${row.load_id}`,
    loadFinishedAt: iso(row.load_finished_at),
  };
}

function toNotification(row: NotificationRow): AppNotification {
  return {
    id: Number(row.id),
    kind: row.kind === 'alert' ? 'alert' : 'message',
    title: row.title,
    body: row.body,
    createdAt: iso(row.created_at)!,
    readAt: iso(row.read_at),
    link: row.link,
    criteriaId: row.saved_criteria_id,
    window: windowOf(row),
  };
}

/**
 * What a user does with alerts and notifications: switch "alert me" on a saved search, read the
 * notifications, and open an alert's new rows as a search session. The check that raises alerts
 * is `AlertChecker` (alert-check.ts).
 */
export class AlertService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly search: SearchService,
  ) {}

  async savedSearchAlerts(auth: AuthContext): Promise<SavedSearchAlert[]> {
    const rows = await this.db
      .selectFrom('saved_criteria')
      .select(['criteria_id', 'alert', 'alert_since_load', 'alert_last_count'])
      .where('user_id', '=', auth.userId)
      .orderBy('created_at', 'desc')
      .execute();
    return rows.map((r) => ({
      criteriaId: r.criteria_id,
      alert: r.alert,
      sinceLoadId: num(r.alert_since_load),
      lastCount: r.alert_last_count,
    }));
  }

  /**
   * "Alert me" on or off. Switching on starts from the newest load: only rows loaded after it are
   * new to the user. Switching on again keeps the start (nothing already seen is announced twice).
   */
  async setAlert(auth: AuthContext, criteriaId: number, alert: boolean): Promise<SavedSearchAlert> {
    const since = alert ? await currentLoadId(this.db) : null;
    const row = await this.db
      .updateTable('saved_criteria')
      .set(
        alert
          ? { alert: true, alert_since_load: sql<number>`CASE WHEN alert THEN alert_since_load ELSE ${since}::bigint END` }
          : { alert: false },
      )
      .where('user_id', '=', auth.userId)
      .where('criteria_id', '=', criteriaId)
      .returning(['criteria_id', 'alert', 'alert_since_load', 'alert_last_count'])
      .executeTakeFirst();
    // Another user's saved search answers like an unknown one (ids are not disclosed), as its other calls do.
    if (!row) throw notFound(`You have no saved search with id ${criteriaId}.`);
    return { criteriaId: row.criteria_id, alert: row.alert, sinceLoadId: num(row.alert_since_load), lastCount: row.alert_last_count };
  }

  private notificationRows() {
    return this.db
      .selectFrom('notifications as n')
      .leftJoin('kb_loads as l', 'l.load_id', 'n.load_id')
      .select([
        'n.id',
        'n.kind',
        'n.title',
        'n.body',
        'n.created_at',
        'n.read_at',
        'n.link',
        'n.saved_criteria_id',
        'n.since_load',
        'n.load_id',
        'l.label as load_label',
        'l.finished_at as load_finished_at',
      ]);
  }

  async notifications(auth: AuthContext, query: { page: number; pageSize: number; unreadOnly: boolean }): Promise<NotificationsPage> {
    const [rows, totals] = await Promise.all([
      this.notificationRows()
        .where('n.user_id', '=', auth.userId)
        .$if(query.unreadOnly, (qb) => qb.where('n.read_at', 'is', null))
        .orderBy('n.id', 'desc')
        .limit(query.pageSize)
        .offset((query.page - 1) * query.pageSize)
        .execute(),
      this.db
        .selectFrom('notifications')
        .select([sql<number>`count(*)::int`.as('total'), sql<number>`count(*) FILTER (WHERE read_at IS NULL)::int`.as('unread')])
        .where('user_id', '=', auth.userId)
        .executeTakeFirstOrThrow(),
    ]);
    return {
      rows: rows.map((r) => toNotification(r as NotificationRow)),
      total: query.unreadOnly ? totals.unread : totals.total,
      unread: totals.unread,
      page: query.page,
      pageSize: query.pageSize,
    };
  }

  private async unread(userId: number): Promise<number> {
    const row = await this.db
      .selectFrom('notifications')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('user_id', '=', userId)
      .where('read_at', 'is', null)
      .executeTakeFirstOrThrow();
    return row.n;
  }

  /** The caller's notification: 404 when there is none, 403 when it is another user's. */
  private async owned(auth: AuthContext, id: number): Promise<NotificationRow & { user_id: number }> {
    const row = await this.notificationRows().select('n.user_id').where('n.id', '=', String(id)).executeTakeFirst();
    if (!row) throw notFound(`There is no notification ${id}.`);
    if (row.user_id !== auth.userId) throw forbidden('This notification belongs to another user.');
    return row as NotificationRow & { user_id: number };
  }

  async markRead(auth: AuthContext, id: number): Promise<{ marked: number; unread: number }> {
    await this.owned(auth, id);
    const result = await this.db
      .updateTable('notifications')
      .set({ read_at: new Date() })
      .where('id', '=', String(id))
      .where('read_at', 'is', null)
      .executeTakeFirst();
    return { marked: Number(result.numUpdatedRows), unread: await this.unread(auth.userId) };
  }

  async markAllRead(auth: AuthContext): Promise<{ marked: number; unread: number }> {
    const result = await this.db
      .updateTable('notifications')
      .set({ read_at: new Date() })
      .where('user_id', '=', auth.userId)
      .where('read_at', 'is', null)
      .executeTakeFirst();
    return { marked: Number(result.numUpdatedRows), unread: 0 };
  }

  /**
   * Opens an alert: its saved search runs in the caller's new search session restricted to the
   * rows of the alert's loads, exactly the rows the alert counted (a later load's rows are not in
   * it; they get their own alert). The alert is marked read.
   */
  async openAlert(auth: AuthContext, id: number, sessionId: string): Promise<OpenAlertResponse> {
    const notification = await this.owned(auth, id);
    const window = windowOf(notification);
    if (notification.kind !== 'alert' || !window)
      throw new HttpError(400, { message: 'This notification has no new rows to open.', code: ERROR_CODES.validation });
    const saved =
      notification.saved_criteria_id === null
        ? undefined
        : await this.db
            .selectFrom('saved_criteria')
            .select(['criteria_name', 'criteria'])
            .where('criteria_id', '=', notification.saved_criteria_id)
            .where('user_id', '=', auth.userId)
            .executeTakeFirst();
    if (!saved)
      throw new HttpError(410, {
        message: 'The saved search of this alert was deleted, so its new rows can no longer be opened.',
        code: ERROR_CODES.notFound,
      });
    const criteria = SearchCriteriaSchema.parse(parseJson(saved.criteria));
    const counts = await this.search.run(auth, sessionId, criteria, 'search', { afterLoad: window.sinceLoadId, upToLoad: window.loadId });
    await this.db
      .updateTable('notifications')
      .set({ read_at: new Date() })
      .where('id', '=', String(id))
      .where('read_at', 'is', null)
      .execute();
    return { sessionid: sessionId, counts, criteriaName: saved.criteria_name, window };
  }

  /** Whether the caller's session holds only an alert's new rows (the results page says so). */
  async sessionWindow(auth: AuthContext, sessionId: string): Promise<SessionWindow> {
    const session = await this.search.owned(auth, sessionId);
    if (!session || session.new_since_load == null || session.new_until_load == null) return { sessionid: sessionId, window: null };
    const load = await this.db
      .selectFrom('kb_loads')
      .select(['label', 'finished_at'])
      .where('load_id', '=', Number(session.new_until_load))
      .executeTakeFirst();
    return {
      sessionid: sessionId,
      window: {
        sinceLoadId: Number(session.new_since_load),
        loadId: Number(session.new_until_load),
        loadLabel: load?.label ?? `Load ${session.new_until_load}`,
        loadFinishedAt: iso(load?.finished_at ?? null),
      },
    };
  }
}
