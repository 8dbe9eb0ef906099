import fs from 'node:fs';
import { sharedServer } from './shared-server.ts';

/**
 * E-mail as the server queues it. The outbox table lives in the server's embedded database, which
 * that process owns, so tests read the mailer's `mail body` line: a debug line (the info log never
 * carries a body or link), which the test server writes because it runs with LOG_LEVEL=debug.
 */
export interface QueuedMail {
  to: string;
  subject: string;
  body: string;
}

const VERIFY_LINK = /https?:\/\/[^\s"]+\/pub\/account\/verify\/[A-Za-z0-9_-]+/;

function logFile(): string {
  return sharedServer().serverLog;
}

/** Current end of the log: pass it to `waitForMail` to see only mail queued after this point. */
export function outboxMark(): number {
  return fs.statSync(logFile()).size;
}

function mailSince(offset: number): QueuedMail[] {
  const text = fs.readFileSync(logFile(), 'utf8').slice(offset);
  const mails: QueuedMail[] = [];
  for (const line of text.split('\n')) {
    if (!line.includes('"mail body"')) continue;
    try {
      const entry = JSON.parse(line) as { to?: unknown; subject?: unknown; msg?: unknown; body?: unknown };
      if (entry.msg === 'mail body' && typeof entry.to === 'string' && typeof entry.body === 'string') {
        mails.push({ to: entry.to, subject: String(entry.subject ?? ''), body: entry.body });
      }
    } catch {
      // A half-written line: it is read again on the next poll.
    }
  }
  return mails;
}

/** Waits for the first mail to `to` queued after `mark`. */
export async function waitForMail(to: string, mark: number, timeoutMs = 10_000): Promise<QueuedMail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mail = mailSince(mark).find((m) => m.to === to.toLowerCase());
    if (mail) return mail;
    if (Date.now() > deadline) throw new Error(`No mail to ${to} was queued within ${timeoutMs / 1000}s (see ${logFile()}).`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The password link of a mail, as an absolute URL. */
export function verifyLinkOf(mail: QueuedMail): string {
  const link = VERIFY_LINK.exec(mail.body)?.[0];
  if (!link) throw new Error(`The mail "${mail.subject}" to ${mail.to} has no /pub/account/verify/ link: ${mail.body}`);
  return link;
}
