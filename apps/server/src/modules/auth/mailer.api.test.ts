import { Writable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import { ONE_DATABASE, openTestDatabase } from '../../../test/harness.ts';
import type { TestDatabase } from '../../../test/harness.ts';
import { Mailer } from './mailer.ts';

/** A logger whose JSON lines are kept, as the server writes them. */
function capturedLogger(level: 'info' | 'debug'): { log: FastifyBaseLogger; lines: () => Array<Record<string, unknown>> } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString('utf8'));
      done();
    },
  });
  const log = pino({ level }, stream) as unknown as FastifyBaseLogger;
  return {
    log,
    lines: () =>
      chunks
        .join('')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

interface Received {
  from: string;
  to: string[];
  data: string;
}

/** A real SMTP server on a free local port, keeping what it receives. */
async function startSmtpServer(): Promise<{ url: string; received: Received[]; close: () => Promise<void> }> {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      const parts: Buffer[] = [];
      stream.on('data', (part: Buffer) => parts.push(part));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          data: Buffer.concat(parts).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const LINK = 'http://localhost:8080/pub/account/verify/AbCdEf0123456789secretcode';
const mail = { to: 'someone@demo.test', subject: 'Reset your password', body: `Set a new password here: ${LINK} (valid for 2 hours).` };

describe.each(ONE_DATABASE)('mail delivery on %s', (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(() => database.close());

  it('keeps mail in the outbox without SMTP_URL, and writes no body or link to the info log', async () => {
    const { log, lines } = capturedLogger('info');
    const mailer = new Mailer(database.handle.db, log);
    await mailer.send(mail);
    const row = await database.handle.db.selectFrom('outbox').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(row).toMatchObject({ recipient: mail.to, subject: mail.subject, body: mail.body, sent_at: null, error: null });
    const logged = JSON.stringify(lines());
    expect(lines().some((line) => line.msg === 'mail queued' && line.to === mail.to && line.outboxId === String(row.id))).toBe(true);
    expect(logged).not.toContain('/pub/account/verify/');
    expect(logged).not.toContain('secretcode');
    expect(logged).not.toContain('Set a new password');
  });

  it('writes the body on a debug line only when the level is debug', async () => {
    const { log, lines } = capturedLogger('debug');
    await new Mailer(database.handle.db, log).send(mail);
    const debug = lines().filter((line) => line.msg === 'mail body');
    expect(debug).toHaveLength(1);
    expect(debug[0]?.level).toBe(20);
    expect(debug[0]?.body).toBe(mail.body);
    expect(JSON.stringify(lines().filter((line) => Number(line.level) >= 30))).not.toContain('/pub/account/verify/');
  });

  it('delivers through SMTP_URL to a real SMTP server and marks the outbox row sent', async () => {
    const smtp = await startSmtpServer();
    try {
      const { log, lines } = capturedLogger('info');
      const mailer = new Mailer(database.handle.db, log, { smtpUrl: smtp.url, from: 'KB Search <no-reply@kb.test>' });
      await mailer.send(mail);
      mailer.close();
      expect(smtp.received).toHaveLength(1);
      expect(smtp.received[0]).toMatchObject({ from: 'no-reply@kb.test', to: [mail.to] });
      expect(smtp.received[0]?.data).toContain('Subject: Reset your password');
      expect(smtp.received[0]?.data.replace(/=\r?\n/g, '')).toContain(LINK);
      const row = await database.handle.db.selectFrom('outbox').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
      expect(row.sent_at).toBeInstanceOf(Date);
      expect(row.error).toBeNull();
      expect(JSON.stringify(lines())).not.toContain('/pub/account/verify/');
    } finally {
      await smtp.close();
    }
  });

  it('keeps an undeliverable mail in the outbox with its error', async () => {
    const smtp = await startSmtpServer();
    const url = smtp.url;
    await smtp.close();
    const { log } = capturedLogger('info');
    const mailer = new Mailer(database.handle.db, log, { smtpUrl: url, from: 'no-reply@kb.test' });
    await mailer.send(mail);
    mailer.close();
    const row = await database.handle.db.selectFrom('outbox').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(row.sent_at).toBeNull();
    expect(row.error).toMatch(/ECONNREFUSED|connect/i);
    expect(row.body).toBe(mail.body);
  });
});
