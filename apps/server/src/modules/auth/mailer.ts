import type { Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/schema.ts';

export interface Mail {
  to: string;
  subject: string;
  body: string;
}

/**
 * Mail goes to the outbox table first (so links are never lost, and operators without SMTP can
 * find them) and to the log. Delivery over SMTP is a relay reading the outbox (docs/operations.md).
 */
export class Mailer {
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly log: FastifyBaseLogger,
  ) {}

  async send(mail: Mail): Promise<void> {
    await this.db.insertInto('outbox').values({ recipient: mail.to, subject: mail.subject, body: mail.body }).execute();
    this.log.info({ to: mail.to, subject: mail.subject }, `mail queued: ${mail.body}`);
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
}
