import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Whose turn it is on a busy database. Work that may take seconds (search sets, charts, exports)
 * runs as `bulk`; everything else (logins, health, pages) is interactive and goes first when both
 * wait for the embedded database's one connection (db/pglite-dialect.ts). On a server the pool has
 * room for both; the admission limits (http/admission.ts) keep bulk work from filling it.
 */
export type DbPriority = 'interactive' | 'bulk';

/**
 * Which connections a statement takes on a PostgreSQL server (db/lane-pool.ts): the session lane
 * (logins, the session check of every call, health), other interactive calls (pages), heavy calls,
 * or a search's sets written after its counts were answered. PGlite has one connection and knows
 * only the priority (`session` work is interactive there, `sets` work bulk).
 */
export type DbLane = DbPriority | 'sets' | 'session';

/**
 * One interactive call (a login, a page): from its first statement until it answers, bulk work
 * leaves the embedded database to it, so a login's few statements, with a password hash between
 * them, wait for a running search at most once instead of at each statement.
 */
export class InteractiveScope {
  /** When the call first used the database (null: not yet). */
  firstUseAt: number | null = null;
  closed = false;
  private readonly listeners: (() => void)[] = [];

  onClose(listener: () => void): void {
    if (this.closed) listener();
    else this.listeners.push(listener);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const listener of this.listeners.splice(0)) listener();
  }
}

interface PriorityContext {
  level: DbPriority;
  scope?: InteractiveScope;
  /** Set for work with a lane of its own on a server: search sets (bulk) or sessions (interactive). */
  lane?: 'sets' | 'session';
}

const context = new AsyncLocalStorage<PriorityContext>();

export function currentDbPriority(): DbPriority {
  return context.getStore()?.level ?? 'interactive';
}

export function currentInteractiveScope(): InteractiveScope | undefined {
  return context.getStore()?.scope;
}

export function currentDbLane(): DbLane {
  const store = context.getStore();
  return store?.lane ?? store?.level ?? 'interactive';
}

/** Runs `work` (and everything it awaits) at `level`. */
export function withDbPriority<T>(level: DbPriority, work: () => Promise<T>): Promise<T> {
  return context.run({ level }, work);
}

/** Runs `work` as the writing of a search's sets: bulk priority, in the sets lane. */
export function withSetsLane<T>(work: () => Promise<T>): Promise<T> {
  return context.run({ level: 'bulk', lane: 'sets' }, work);
}

/**
 * Runs one interactive call in its own scope (see InteractiveScope), closed when it settles; in the
 * session lane when `lane` says so (a login, health: calls that must answer while pages are slow).
 */
export async function withInteractiveScope<T>(work: () => Promise<T>, lane?: 'session'): Promise<T> {
  const scope = new InteractiveScope();
  try {
    return await context.run({ level: 'interactive', scope, lane }, work);
  } finally {
    scope.close();
  }
}

/**
 * Runs the session check that precedes every call in the session lane: with 20 users, result
 * pages reading cold rows held every interactive connection for seconds and each call's check
 * queued behind them (docs/benchmarks.md, issue 39 fifth step).
 */
export function withSessionLane<T>(work: () => Promise<T>): Promise<T> {
  return context.run({ level: 'interactive', lane: 'session' }, work);
}
