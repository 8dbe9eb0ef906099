import type { WorkClass } from '@kb/contracts/work-classes';
import { HttpError } from './errors.ts';
import { ERROR_CODES } from '@kb/contracts/errors';

/**
 * Admission control for heavy work (issue "hardening": no user can stall the service for others).
 * A heavy call (a search, a structure preview, a chart, an export) runs only when the server has a
 * free slot and its user is under the per-user limit of its class; otherwise it waits in line and
 * can say its place. Calls that share a key (the four calls of one search session) share one
 * ticket. Short calls (logins, health, pages) never wait here; on the embedded database they also
 * go first for its connection (db/db-priority.ts).
 */
export interface AdmissionLimits {
  /** Heavy calls running at once on this server, all users together. */
  concurrent: number;
  /** Heavy calls of one class one user may run at once; the next waits. */
  perUser: Record<WorkClass, number>;
  /** Tickets one user may have waiting in one class before more are refused (429). */
  maxQueuedPerUser: number;
  /** Longest a call waits for its turn before it is refused (503). */
  maxWaitMs: number;
}

interface Ticket {
  key: string;
  userId: number;
  workClass: WorkClass;
  holders: number;
  running: boolean;
  enqueuedAt: number;
  admit: () => void;
  fail: (error: Error) => void;
  admitted: Promise<void>;
  timer: NodeJS.Timeout | null;
}

export interface AdmissionState {
  running: number;
  waiting: number;
}

export class Admission {
  private readonly tickets = new Map<string, Ticket>();
  /** Waiting tickets, oldest first. */
  private queue: Ticket[] = [];
  private running = 0;
  /** When each user was last let in: with equal running work, the user served longest ago goes first. */
  private readonly lastAdmitted = new Map<number, number>();
  private admissions = 0;

  constructor(readonly limits: AdmissionLimits) {}

  state(): AdmissionState {
    return { running: this.running, waiting: this.queue.length };
  }

  /**
   * Waits for a turn; resolves with the release to call when the work is done. `share` names work
   * that several calls do together (a search session id): they hold one ticket. `signal` ends the
   * wait when the caller goes away.
   */
  async enter(workClass: WorkClass, userId: number, share: string | null, signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) throw closedWhileWaiting();
    let key = `${userId}:${workClass}:${share ?? `call-${Math.random()}`}`;
    let ticket = this.tickets.get(key);
    // One search's calls are four; more under one key are not one search's and take their own turn.
    if (ticket && ticket.holders >= MAX_SHARED_CALLS) {
      key = `${key}:extra-${Math.random()}`;
      ticket = undefined;
    }
    if (!ticket) {
      const queued = this.queue.filter((t) => t.userId === userId && t.workClass === workClass).length;
      if (queued >= this.limits.maxQueuedPerUser) {
        throw new HttpError(429, {
          message: `You already have ${queued} ${LABEL[workClass]} waiting for their turn. Wait for them to finish, or cancel one.`,
          code: ERROR_CODES.rateLimited,
          retryAfterSeconds: 10,
        });
      }
      ticket = this.newTicket(key, userId, workClass);
      this.tickets.set(key, ticket);
      this.queue.push(ticket);
      this.pump();
    }
    ticket.holders += 1;
    const held = ticket;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      held.holders -= 1;
      if (held.holders === 0) this.finish(held);
    };
    const onAbort = () => release();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      await held.admitted;
    } catch (error) {
      if (released) throw closedWhileWaiting();
      release();
      throw error;
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
    if (released) throw closedWhileWaiting();
    return release;
  }

  /**
   * How many calls of its class wait ahead of the waiting ticket shared under `share` (a search
   * session id; the ticket's key may add the criteria after a colon), 0 = next; null when none waits.
   */
  position(workClass: WorkClass, userId: number, share: string): number | null {
    const base = `${userId}:${workClass}:${share}`;
    const ticket = this.queue.find((t) => t.key === base || t.key.startsWith(`${base}:`));
    if (!ticket) return null;
    const at = this.queue.indexOf(ticket);
    return this.queue.slice(0, Math.max(0, at)).filter((t) => t.workClass === workClass).length;
  }

  /** Shutting down: calls still waiting are refused at once (503) instead of holding the close. */
  close(): void {
    for (const ticket of [...this.queue]) {
      this.drop(ticket);
      ticket.fail(
        new HttpError(503, {
          message: 'The server is restarting. Try again in a minute.',
          code: ERROR_CODES.rateLimited,
          retryAfterSeconds: 60,
        }),
      );
    }
  }

  private newTicket(key: string, userId: number, workClass: WorkClass): Ticket {
    let admit!: () => void;
    let fail!: (error: Error) => void;
    const admitted = new Promise<void>((resolve, reject) => {
      admit = resolve;
      fail = reject;
    });
    // Observed here: a ticket whose holders all left before its turn fails with nobody listening.
    admitted.catch(() => undefined);
    const ticket: Ticket = {
      key,
      userId,
      workClass,
      holders: 0,
      running: false,
      enqueuedAt: Date.now(),
      admit,
      fail,
      admitted,
      timer: null,
    };
    ticket.timer = setTimeout(() => {
      if (ticket.running) return;
      this.drop(ticket);
      fail(
        new HttpError(503, {
          message: `The server is busy: this ${SINGULAR[workClass]} waited ${Math.round(this.limits.maxWaitMs / 1000)} s for its turn. Try again in a minute.`,
          code: ERROR_CODES.rateLimited,
          retryAfterSeconds: 60,
        }),
      );
    }, this.limits.maxWaitMs);
    ticket.timer.unref();
    return ticket;
  }

  private finish(ticket: Ticket): void {
    if (ticket.running) {
      ticket.running = false;
      this.running -= 1;
    }
    this.drop(ticket);
    ticket.fail(new Error('left the queue'));
    this.pump();
  }

  private drop(ticket: Ticket): void {
    if (ticket.timer) clearTimeout(ticket.timer);
    ticket.timer = null;
    if (this.tickets.get(ticket.key) === ticket) this.tickets.delete(ticket.key);
    this.queue = this.queue.filter((t) => t !== ticket);
  }

  private runningOf(userId: number, workClass: WorkClass): number {
    let n = 0;
    for (const ticket of this.tickets.values()) if (ticket.running && ticket.userId === userId && ticket.workClass === workClass) n += 1;
    return n;
  }

  private runningOfUser(userId: number): number {
    let n = 0;
    for (const ticket of this.tickets.values()) if (ticket.running && ticket.userId === userId) n += 1;
    return n;
  }

  /**
   * Starts waiting tickets while there are free slots: among those whose user is under the class
   * limit, the one of the user with the least running work, then of the user let in longest ago,
   * then the oldest (so one user's burst cannot hold every slot while others wait).
   */
  private pump(): void {
    while (this.running < this.limits.concurrent) {
      let best: Ticket | null = null;
      let bestRank: [number, number] = [Infinity, Infinity];
      for (const ticket of this.queue) {
        if (this.runningOf(ticket.userId, ticket.workClass) >= this.limits.perUser[ticket.workClass]) continue;
        const rank: [number, number] = [this.runningOfUser(ticket.userId), this.lastAdmitted.get(ticket.userId) ?? -1];
        if (rank[0] < bestRank[0] || (rank[0] === bestRank[0] && rank[1] < bestRank[1])) {
          best = ticket;
          bestRank = rank;
        }
      }
      if (!best) return;
      this.queue = this.queue.filter((t) => t !== best);
      if (best.timer) clearTimeout(best.timer);
      best.timer = null;
      best.running = true;
      this.running += 1;
      this.lastAdmitted.set(best.userId, ++this.admissions);
      best.admit();
    }
  }
}

/** The calls of one search session: the count and the three log calls. */
const MAX_SHARED_CALLS = 4;

const closedWhileWaiting = () =>
  new HttpError(499, { message: 'The request was closed while it waited for its turn.', code: ERROR_CODES.conflict });

const LABEL: Record<WorkClass, string> = { search: 'searches', structure: 'structure previews', chart: 'charts', export: 'exports' };
const SINGULAR: Record<WorkClass, string> = { search: 'search', structure: 'structure preview', chart: 'chart', export: 'export' };
