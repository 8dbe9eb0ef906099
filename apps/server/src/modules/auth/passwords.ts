import { WorkerPool } from '../../workers/worker-pool.ts';

// OWASP's argon2id baseline (19 MiB, 2 passes): about 30 ms here, slow enough to hurt guessing.
const OPTIONS = {
  algorithm: 2 /* Algorithm.Argon2id: a const enum, not importable under verbatimModuleSyntax */,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

/**
 * The nice value the password thread asks for. A login is a hash and three waits for the
 * database; with the two cores busy (the main thread, PostgreSQL's backends) the hash on libuv's
 * pool got a fair share of a core and took 50–150 ms instead of 30 (p95 153 ms under 10 users and
 * a seed beside them, 52–69 ms on this thread: docs/benchmarks.md, issue 62 session 23). Linux grants
 * it with CAP_SYS_NICE (root, or `docker run --cap-add SYS_NICE`); refused, the thread runs at
 * the process's priority and hashes as before (docs/operations.md "Password hashing").
 */
export const PASSWORD_THREAD_NICE = -10;

type Request = { op: 'hash'; password: string; options: typeof OPTIONS } | { op: 'verify'; hash: string; password: string };
type Reply = { ready: true; nice: number | null } | { id: number; value?: string | boolean; error?: string };

/**
 * One thread for every hash and check (password-worker.mjs), so that its priority can be raised:
 * Linux sets priorities per thread, and libuv's pool threads also run file reads and writes. One,
 * not one per core: logins are limited per address, and at a raised priority a wave of hashes
 * must leave a core to the rest of the server (a hash is 30 ms: over 30 a second on one thread).
 */
class PasswordThread {
  private niceSeen: number | null = null;
  private readonly pool = new WorkerPool<Request, Reply>({
    url: new URL('./password-worker.mjs', import.meta.url),
    name: 'password thread',
    size: 1,
    lazy: true,
    nice: PASSWORD_THREAD_NICE,
    execArgv: [],
    // An idle thread must not keep a stopping process (a script, a test run) alive.
    keepAlive: 'while-busy',
    isReady: (message) => {
      if (!('ready' in message)) return false;
      this.niceSeen = message.nice;
      return true;
    },
    reply: (message) =>
      'id' in message ? { id: message.id, value: message.value, error: message.error ? new Error(message.error) : undefined } : null,
  });

  run<T extends string | boolean>(request: Request): Promise<T> {
    return this.pool.request<T>(request);
  }

  /** The nice value the thread runs at (null: not started yet, or not readable here). */
  async nice(): Promise<number | null> {
    await this.pool.ready();
    return this.niceSeen;
  }
}

const thread = new PasswordThread();

export function hashPassword(password: string): Promise<string> {
  return thread.run<string>({ op: 'hash', password, options: OPTIONS });
}

/** The password thread's nice value once it runs, for the start-up lines (main.ts). */
export function passwordThreadNice(): Promise<number | null> {
  return thread.nice();
}

let dummyHash: Promise<string> | undefined;

function dummy(): Promise<string> {
  dummyHash ??= hashPassword('dummy-password-for-timing');
  return dummyHash;
}

/** Computes the dummy hash before the first check of an unknown account needs it (kept for the process). */
export function primePasswordCheck(): void {
  void dummy();
}

/**
 * Verifies a password. With no stored hash it still spends the same time on a dummy hash, so the
 * answer's timing does not reveal which e-mail addresses have accounts. A stored value that is not
 * a hash is a wrong password (the thread answers false); a lost thread rejects, so that the login
 * fails as the server's error instead of telling the user their password is wrong.
 */
export async function verifyPassword(storedHash: string | null, password: string): Promise<boolean> {
  if (!storedHash) {
    await thread.run<boolean>({ op: 'verify', hash: await dummy(), password });
    return false;
  }
  return thread.run<boolean>({ op: 'verify', hash: storedHash, password });
}
