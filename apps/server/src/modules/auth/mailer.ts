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
  constructor(
    private readonly db: Kysely<Database>,
    private readonly log: FastifyBaseLogger,
  ) {}

  async send(mail: Mail): Promise<void> {
    await this.db.insertInto('outbox').values({ recipient: mail.to, subject: mail.subject, body: mail.body }).execute();
    this.log.info({ to: mail.to, subject: mail.subject }, `mail queued: ${mail.body}`);
  }
}
