import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { OpenSessions, RuntimeSettings, SettingsState, SettingsUpdate } from '@kb/contracts/superadmin';
import { SETTING_BOUNDS, SETTING_KEYS } from '@kb/contracts/superadmin';
import type { Database } from '../../db/schema.ts';
import type { AuthContext } from '../../http/auth-hook.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import type { AuditActor } from '../audit/audit-log.ts';
import { recordAudit } from '../audit/audit-log.ts';
import type { Mailer } from '../auth/mailer.ts';
import type { SessionRepository } from '../sessions/session-repository.ts';
import { openSession } from '../sessions/session-repository.ts';
import type { AppSettings } from '../settings/app-settings.ts';
import { containsPattern } from '../../db/like-pattern.ts';

type Db = Kysely<Database>;

export interface MailSetup {
  /** SMTP relay configured (SMTP_URL); otherwise mail stays in the outbox. */
  smtpConfigured: boolean;
  from: string;
}

/** Open sessions of every user, most recently active first. */
export async function openSessions(
  db: Db,
  caller: AuthContext,
  query: { q?: string | undefined; page: number; pageSize: number },
): Promise<OpenSessions> {
  const base = db
    .selectFrom('user_sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    // Open as the account list counts it: an idle or expired session is refused at its next request.
    .where(openSession('s'))
    .$if(Boolean(query.q), (q) => q.where('u.email', 'like', containsPattern((query.q ?? '').toLowerCase())));
  const [rows, total] = await Promise.all([
    base
      .select(['s.id', 's.user_id', 'u.email', 's.ip_address', 's.user_agent', 's.created_at', 's.last_activity_at'])
      .orderBy('s.last_activity_at', 'desc')
      .orderBy('s.id')
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize)
      .execute(),
    base.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return {
    total: total.n,
    rows: rows.map((r) => ({
      sessionId: r.id,
      userId: r.user_id,
      email: r.email,
      ipAddress: r.ip_address,
      userAgent: r.user_agent,
      startedAt: r.created_at.toISOString(),
      lastActivityAt: r.last_activity_at.toISOString(),
      current: r.id === caller.sessionId,
    })),
  };
}

/** Closes another user's (or the caller's other) session; its next request answers 401. */
export async function closeSession(
  db: Db,
  sessions: SessionRepository,
  caller: AuthContext,
  actor: AuditActor,
  sessionId: string,
): Promise<string> {
  if (sessionId === caller.sessionId) throw badRequest('This is your own session: log out instead.');
  const row = await db
    .selectFrom('user_sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select(['s.id', 'u.email', 's.ip_address', 's.created_at'])
    .where('s.id', '=', sessionId)
    .where('s.closed_at', 'is', null)
    .executeTakeFirst();
  if (!row) throw notFound('That session is not open (it was closed or has ended).');
  const closed = await sessions.close(sessionId, 'closed_by_admin', (trx) =>
    recordAudit(trx, actor, {
      action: 'session.close',
      targetType: 'session',
      targetId: sessionId,
      targetLabel: row.email,
      before: { user: row.email, ipAddress: row.ip_address, startedAt: row.created_at.toISOString(), open: true },
      after: { open: false, reason: 'closed_by_admin' },
    }),
  );
  if (!closed) throw notFound('That session is not open (it was closed or has ended).');
  return `Closed the session of ${row.email}: its next request is refused.`;
}

export async function settingsState(db: Db, settings: AppSettings, mail: MailSetup): Promise<SettingsState> {
  const [values, outbox] = await Promise.all([
    settings.current(),
    db
      .selectFrom('outbox')
      .select([
        sql<number>`count(*) FILTER (WHERE sent_at IS NULL AND error IS NULL)::int`.as('pending'),
        sql<number>`count(*) FILTER (WHERE sent_at IS NULL AND error IS NOT NULL)::int`.as('failed'),
      ])
      .executeTakeFirstOrThrow(),
  ]);
  return { values, defaults: settings.configured(), mail: { ...mail, outboxPending: outbox.pending, outboxFailed: outbox.failed } };
}

/** Writes changed settings with one audit row (only the values that changed); they apply from the next request. */
export async function updateSettings(db: Db, settings: AppSettings, actor: AuditActor, changes: SettingsUpdate): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const { before, after } = await settings.write(trx, changes);
    const changed = SETTING_KEYS.filter((key) => before[key] !== after[key]);
    if (changed.length === 0) return;
    const pick = (values: RuntimeSettings) => Object.fromEntries(changed.map((key) => [key, values[key]]));
    await recordAudit(trx, actor, {
      action: 'setting.update',
      targetType: 'setting',
      targetId: changed.join(','),
      targetLabel: changed.map((key) => SETTING_BOUNDS[key].label).join('; '),
      before: pick(before),
      after: pick(after),
    });
  });
  settings.invalidate();
}

export async function sendTestMail(mailer: Mailer, caller: AuthContext, serverName: string, mail: MailSetup): Promise<string> {
  await mailer.send({
    to: caller.email,
    subject: 'Test mail from the knowledge base',
    body: `This is a test mail sent from the super-admin page of ${serverName} at ${new Date().toISOString()} (sender ${mail.from}). If you read it, mail reaches you.`,
  });
  return mail.smtpConfigured
    ? `A test mail to ${caller.email} is queued for delivery over SMTP.`
    : `A test mail to ${caller.email} is in the outbox. SMTP is not configured, so it is not delivered.`;
}
