import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import type { Transporter } from 'nodemailer';
import type { Database } from '../../db/schema.ts';

export interface Mail {
  to: string;
  subject: string;
  body: string;
}

/** SMTP_URL (unset: the outbox only) and MAIL_FROM of config.ts. */
export interface MailSettings {
  smtpUrl: string | undefined;
  from: string;
}

const OUTBOX_ONLY: MailSettings = { smtpUrl: undefined, from: 'KB Search <no-reply@localhost>' };

/** Longest delivery error kept on an outbox row. */
const MAX_ERROR_LENGTH = 500;

/**
 * Every mail is written to the outbox table first: the record of what was sent, and where an
 * operator without SMTP finds a link to hand over (docs/operations.md "E-mail"). With SMTP_URL set
 * it is then delivered over SMTP and its row marked `sent_at`, or `error` when delivery failed.
 *
 * The log never carries a mail's body at info level: bodies hold password links, which are as good
 * as a password while they last. The info line names the outbox row, recipient and subject; the
 * body goes to a debug line only (LOG_LEVEL=debug, for development and the browser tests, never
 * for production).
 */
export class Mailer {
  private readonly pending = new Set<Promise<void>>();
  private readonly transport: Transporter | null;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly log: FastifyBaseLogger,
    private readonly settings: MailSettings = OUTBOX_ONLY,
  ) {
    this.transport = settings.smtpUrl ? nodemailer.createTransport(settings.smtpUrl) : null;
  }

  async send(mail: Mail): Promise<void> {
    const row = await this.db
      .insertInto('outbox')
      .values({ recipient: mail.to, subject: mail.subject, body: mail.body })
      .returning('id')
      .executeTakeFirstOrThrow();
    const outboxId = String(row.id);
    this.log.info({ outboxId, to: mail.to, subject: mail.subject }, 'mail queued');
    this.log.debug({ outboxId, to: mail.to, subject: mail.subject, body: mail.body }, 'mail body');
    if (!this.transport) return;
    try {
      await this.transport.sendMail({ from: this.settings.from, to: mail.to, subject: mail.subject, text: mail.body });
      await this.db.updateTable('outbox').set({ sent_at: sql`now()`, error: null }).where('id', '=', outboxId).execute();
      this.log.info({ outboxId, to: mail.to }, 'mail sent');
    } catch (error: unknown) {
      const message = (error instanceof Error ? error.message : String(error)).slice(0, MAX_ERROR_LENGTH);
      await this.db.updateTable('outbox').set({ error: message }).where('id', '=', outboxId).execute();
      this.log.warn({ outboxId, to: mail.to, error: message }, 'mail not delivered: kept in the outbox');
    }
  }

  /**
   * Queues the mail after the current request has been answered: account calls answer the same
   * whether or not the address has an account, and writing the mail first would make the answer
   * slower exactly when it has one. A failure is logged (the link can be asked for again).
   */
  sendLater(mail: Mail): void {
    const task = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.send(mail))
      .catch((error: unknown) => this.log.error({ err: error, to: mail.to }, 'mail could not be queued'))
      .finally(() => this.pending.delete(task));
    this.pending.add(task);
  }

  /** Mail handed to `sendLater` and not yet written. */
  get queued(): number {
    return this.pending.size;
  }

  /** Waits until every mail handed to `sendLater` is written (shutdown, tests). */
  async flush(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  /** Closes the SMTP connections (shutdown). */
  close(): void {
    this.transport?.close();
  }
}
