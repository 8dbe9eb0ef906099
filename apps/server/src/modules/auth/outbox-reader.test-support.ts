import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** A queued e-mail as a test reads it. */
export interface OutboxMail {
  id: string;
  subject: string;
  body: string;
}

/**
 * The newest mail to `to` with an id above `afterId`, waiting for it: account calls write their mail
 * just after answering, so a test that reads the outbox right after the answer must wait a moment.
 */
export async function waitForMail(db: Kysely<Database>, to: string, afterId = '0', timeoutMs = 5000): Promise<OutboxMail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mail = await db
      .selectFrom('outbox')
      .select(['id', 'subject', 'body'])
      .where('recipient', '=', to)
      .where('id', '>', afterId)
      .orderBy('id', 'desc')
      .executeTakeFirst();
    if (mail) return { ...mail, id: String(mail.id) };
    if (Date.now() > deadline) throw new Error(`no mail to ${to} after outbox id ${afterId} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The highest outbox id now: pass it to `waitForMail` to see only mail queued later. */
export async function outboxMark(db: Kysely<Database>): Promise<string> {
  const row = await db
    .selectFrom('outbox')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  return String(row?.id ?? '0');
}

/** The code of the password link in a mail. */
export function linkCodeOf(mail: OutboxMail): string {
  const match = /\/pub\/account\/verify\/([A-Za-z0-9_-]+)/.exec(mail.body);
  if (!match?.[1]) throw new Error(`no link in ${mail.body}`);
  return match[1];
}
