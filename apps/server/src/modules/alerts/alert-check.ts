import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { KbLoad } from '@kb/contracts/kb-loads';
import { SEARCH_ROLES } from '@kb/contracts/roles';
import { SearchCriteriaSchema } from '@kb/contracts/search';
import type { SearchCounts } from '@kb/contracts/search';
import type { Database } from '../../db/schema.ts';
import { withDbPriority } from '../../db/db-priority.ts';
import { markAlertsChecked, uncheckedLoads } from '../knowledge-base/kb-loads.ts';
import type { SearchService } from '../search/search-service.ts';
import type { Mail } from '../auth/mailer.ts';
import { alertBody, alertMail, alertPath, alertTitle, hasNewRows } from './alert-notice.ts';
import type { AlertFacts } from './alert-notice.ts';

export interface AlertCheckOptions {
  /** How often kb_loads is polled for finished loads not yet checked (ALERT_POLL_MS; 0 = never on its own). */
  pollMs: number;
  /** Public origin of the web app: e-mailed links are absolute (PUBLIC_URL). */
  publicUrl: string;
  /** Queues an e-mail (the mailer: outbox, then SMTP when configured). */
  sendMail: (mail: Mail) => Promise<void>;
  log: { info: (message: string) => void; error: (message: string, error?: unknown) => void };
}

/** What one check did (tests and the log read it). */
export interface AlertCheckSummary {
  loads: number;
  searches: number;
  notified: number;
  mailed: number;
  failed: number;
}

type AlertingSearch = {
  criteria_id: number;
  user_id: number;
  criteria_name: string;
  criteria: unknown;
  alert_since_load: number | string | null;
  email: string;
};

/**
 * The alert check (issue 17): for every finished load not yet checked (kb_loads.alerts_checked_at),
 * every saved search with "alert me" of an active user is counted again on the rows that load
 * brought in since the user's last alert; new rows make one notification and, per the user's
 * notification settings, one e-mail. It polls the database rather than waiting to be told,
 * because a load may be made by a command-line import in another process (PostgreSQL server).
 *
 * Exactly once: a saved search's notification and the move of its `alert_since_load` commit
 * together, guarded by the value read before counting, so a crash, a re-check or a second server
 * checking the same load never notifies twice (a unique index backs this up). The e-mail is sent
 * after that commit: a crash between the two loses the e-mail, never duplicates it.
 */
export class AlertChecker {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<AlertCheckSummary> | null = null;
  private stopped = false;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly search: SearchService,
    private readonly options: AlertCheckOptions,
  ) {}

  /** Checks now, then every `pollMs`. */
  start(): void {
    if (this.timer || this.options.pollMs <= 0) return;
    this.stopped = false;
    const tick = () => void this.checkNow().catch((error: unknown) => this.options.log.error('alert check failed', error));
    tick();
    this.timer = setInterval(tick, this.options.pollMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running?.catch(() => undefined);
  }

  /** Checks every finished, unchecked load (one check at a time in this process). */
  checkNow(): Promise<AlertCheckSummary> {
    this.running ??= withDbPriority('bulk', () => this.checkAll()).finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async checkAll(): Promise<AlertCheckSummary> {
    const summary: AlertCheckSummary = { loads: 0, searches: 0, notified: 0, mailed: 0, failed: 0 };
    for (const load of await uncheckedLoads(this.db)) {
      if (this.stopped) break;
      await this.checkLoad(load, summary);
      // A stop in the middle leaves the load unchecked: the next start checks the rest of it.
      if (this.stopped) break;
      await markAlertsChecked(this.db, load.loadId);
      summary.loads++;
    }
    if (summary.loads > 0)
      this.options.log.info(
        `alert check: ${summary.loads} load(s), ${summary.searches} saved search(es), ${summary.notified} notified, ${summary.mailed} e-mailed, ${summary.failed} failed`,
      );
    return summary;
  }

  /** Saved searches with "alert me" of users whose account is active and who hold a search role now. */
  private alertingSearches(loadId: number): Promise<AlertingSearch[]> {
    return (
      this.db
        .selectFrom('saved_criteria as sc')
        .innerJoin('users as u', 'u.id', 'sc.user_id')
        .select(['sc.criteria_id', 'sc.user_id', 'sc.criteria_name', 'sc.criteria', 'sc.alert_since_load', 'u.email'])
        .where('sc.alert', '=', true)
        .where((eb) => eb.or([eb('sc.alert_since_load', 'is', null), eb('sc.alert_since_load', '<', loadId)]))
        .where('u.active', '=', true)
        // As the auth hook decides: a subscription that has started and not ended, with a role whose pages search.
        .where((eb) =>
          eb.exists(
            eb
              .selectFrom('subscriptions as s')
              .select('s.id')
              .whereRef('s.user_id', '=', 'u.id')
              .where('s.role_name', 'in', [...SEARCH_ROLES])
              .where('s.start_date', '<=', sql<Date>`now()`)
              .where('s.end_date', '>', sql<Date>`now()`),
          ),
        )
        .orderBy('sc.criteria_id')
        .execute()
    );
  }

  private async checkLoad(load: KbLoad, summary: AlertCheckSummary): Promise<void> {
    // One search at a time, with the normal limits (activity cap, structure time limit).
    for (const saved of await this.alertingSearches(load.loadId)) {
      if (this.stopped) return;
      summary.searches++;
      try {
        const outcome = await this.checkOne(saved, load);
        if (outcome === 'notified' || outcome === 'mailed') summary.notified++;
        if (outcome === 'mailed') summary.mailed++;
      } catch (error) {
        // One saved search that cannot run (criteria of an older format, over the activity cap)
        // must not hold up everyone else's alerts; its start stays, so the next load covers these rows too.
        summary.failed++;
        this.options.log.error(`alert check: saved search ${saved.criteria_id} skipped for load ${load.loadId}`, error);
      }
    }
  }

  private async checkOne(saved: AlertingSearch, load: KbLoad): Promise<'none' | 'notified' | 'mailed' | 'raced'> {
    const sinceLoad = saved.alert_since_load == null ? 0 : Number(saved.alert_since_load);
    const criteria = SearchCriteriaSchema.parse(typeof saved.criteria === 'string' ? JSON.parse(saved.criteria) : saved.criteria);
    // Counted for the alert's owner: an "In collection" row reads only collections they may read now.
    const counts = await this.search.countOnly(criteria, {
      userId: saved.user_id,
      loadWindow: { afterLoad: sinceLoad, upToLoad: load.loadId },
    });
    const facts: AlertFacts = { criteriaName: saved.criteria_name, counts, loadLabel: load.label, loadFinishedAt: load.finishedAt };
    const notificationId = await this.db.transaction().execute(async (trx) => {
      // Compare and set: only the check that still sees the start it counted from moves it.
      const moved = await trx
        .updateTable('saved_criteria')
        .set({ alert_since_load: load.loadId, ...(hasNewRows(counts) ? { alert_last_count: counts.actidscount } : {}) })
        .where('criteria_id', '=', saved.criteria_id)
        .where('alert', '=', true)
        .where(sql<boolean>`alert_since_load IS NOT DISTINCT FROM ${saved.alert_since_load == null ? null : sinceLoad}::bigint`)
        .executeTakeFirst();
      if (Number(moved.numUpdatedRows) === 0) return 'raced' as const;
      if (!hasNewRows(counts)) return null;
      return this.insertNotification(trx, saved, load, sinceLoad, counts, facts);
    });
    if (notificationId === 'raced') return 'raced';
    if (notificationId === null) return 'none';
    if (!(await this.mayEmail(saved.user_id))) return 'notified';
    const url = new URL(alertPath(notificationId), this.options.publicUrl).toString();
    await this.options.sendMail({ to: saved.email, ...alertMail(facts, url) });
    return 'mailed';
  }

  private async insertNotification(
    trx: Kysely<Database>,
    saved: AlertingSearch,
    load: KbLoad,
    sinceLoad: number,
    counts: SearchCounts,
    facts: AlertFacts,
  ): Promise<number | null> {
    const row = await trx
      .insertInto('notifications')
      .values({
        user_id: saved.user_id,
        kind: 'alert',
        title: alertTitle(facts),
        body: alertBody(facts),
        saved_criteria_id: saved.criteria_id,
        since_load: sinceLoad,
        load_id: load.loadId,
        counts: JSON.stringify(counts),
      })
      .onConflict((oc) => oc.columns(['saved_criteria_id', 'load_id']).where('kind', '=', 'alert').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!row) return null;
    const id = Number(row.id);
    await trx
      .updateTable('notifications')
      .set({ link: alertPath(id) })
      .where('id', '=', row.id)
      .execute();
    return id;
  }

  /** E-mail needs both switches of the notification settings: e-mail at all, and database updates (no row: the defaults, on). */
  private async mayEmail(userId: number): Promise<boolean> {
    const settings = await this.db
      .selectFrom('notification_settings')
      .select(['is_notification_email', 'notification_database_email'])
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return !settings || (settings.is_notification_email && settings.notification_database_email);
  }
}
