import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { CompiledQuery, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from 'kysely';
import type { DatabaseConnection, Dialect, Driver, Kysely, QueryResult, TransactionSettings } from 'kysely';
import { currentDbPriority, currentInteractiveScope } from './db-priority.ts';
import type { InteractiveScope } from './db-priority.ts';
import { WorkerThread } from '../workers/worker-thread.ts';

const WORKER_URL = new URL('./pglite-worker.mjs', import.meta.url);

interface Reply {
  id?: number;
  ready?: boolean;
  result?: { rows?: unknown[]; affectedRows?: number };
  error?: { message: string; code?: string } & Record<string, unknown>;
}

/** An error PGlite raised, with its SQLSTATE `code` and fields as the pg driver gives them. */
class EmbeddedDatabaseError extends Error {
  constructor(fields: { message: string } & Record<string, unknown>) {
    super(fields.message);
    Object.assign(this, fields);
  }
}

/** What every embedded database of this process starts from, compiled and read once. */
interface PgliteArtifacts {
  pgliteWasmModule: object;
  initdbWasmModule: object;
  fsBundle: Uint8Array;
}

let artifacts: Promise<PgliteArtifacts | null> | null = null;

/**
 * PGlite's WebAssembly (PostgreSQL, 10 MB, and initdb) compiled, and its file-system bundle read,
 * once per process and handed to each database thread: a compiled module passes between threads
 * without copying its code, so a process that opens many databases (tests open one per test app)
 * compiles and optimises PostgreSQL once instead of once each. Null when they cannot be read
 * here: each thread then loads its own, as PGlite does by itself.
 */
function pgliteArtifacts(): Promise<PgliteArtifacts | null> {
  artifacts ??= (async () => {
    const dist = path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
    const wasm = (globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<object> } }).WebAssembly;
    const [pglite, initdb, bundle] = await Promise.all(
      ['pglite.wasm', 'initdb.wasm', 'pglite.data'].map((file) => fs.promises.readFile(path.join(dist, file))),
    );
    const [pgliteWasmModule, initdbWasmModule] = await Promise.all([wasm.compile(pglite!), wasm.compile(initdb!)]);
    return { pgliteWasmModule, initdbWasmModule, fsBundle: new Uint8Array(bundle!) };
  })().catch(() => null);
  return artifacts;
}

type Request = { op: 'query' | 'exec' | 'dump' | 'close'; sql?: string; params?: readonly unknown[]; file?: string };

/**
 * Embedded PGlite in its own worker thread (pglite-worker.mjs): statements run there, so a long one
 * no longer stops the server's event loop. The same calls as PGlite's own client (`query`, `exec`,
 * `close`), answered by messages (workers/worker-thread.ts: ids, replies, a stopped thread's
 * statements rejected).
 */
export class PGliteWorkerClient {
  closed = false;

  /** Why the database thread stopped when it was not closed (a crash, out of memory), else null. */
  get failure(): Error | null {
    return this.closed ? null : this.thread.failure;
  }

  private constructor(private readonly thread: WorkerThread<Request, Reply>) {}

  /**
   * Starts the thread and opens the database in it: in memory when `dataDir` is unset, from
   * `image` (a file `dumpTo` wrote) when one is given.
   */
  static async start(dataDir: string | undefined, image?: string): Promise<PGliteWorkerClient> {
    const thread = new WorkerThread<Request, Reply>({
      url: WORKER_URL,
      name: 'embedded database thread',
      workerData: { dataDir, image, ...(await pgliteArtifacts()) },
      isReady: (reply) => reply.ready === true,
      reply: (reply) =>
        reply.id === undefined
          ? null
          : { id: reply.id, value: reply.result, error: reply.error ? new EmbeddedDatabaseError(reply.error) : undefined },
    });
    await thread.ready;
    return new PGliteWorkerClient(thread);
  }

  private send(message: Request): Promise<Reply['result']> {
    return this.thread.request<Reply['result']>(message);
  }

  async query<R>(sql: string, params: readonly unknown[] = []): Promise<{ rows: R[]; affectedRows?: number }> {
    const result = await this.send({ op: 'query', sql, params });
    return { rows: (result?.rows ?? []) as R[], affectedRows: result?.affectedRows };
  }

  async exec(sql: string): Promise<void> {
    await this.send({ op: 'exec', sql });
  }

  /** Writes the whole database as an image (a tar file) that `start` can open again. */
  async dumpTo(file: string): Promise<void> {
    await this.send({ op: 'dump', file });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.send({ op: 'close' }).catch(() => undefined);
    await this.thread.close();
  }
}

class Connection implements DatabaseConnection {
  constructor(private readonly client: PGliteWorkerClient) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.client.query<R>(query.sql, query.parameters);
    return result.affectedRows ? { rows: result.rows, numAffectedRows: BigInt(result.affectedRows) } : { rows: result.rows };
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('Streaming queries are not supported on the embedded database.');
  }
}

/**
 * How long one interactive call keeps bulk work off the connection, from its first statement: a
 * call that runs longer (a slow page) shares the connection with bulk work again.
 */
const INTERACTIVE_HOLD_MS = 300;
/** Bulk work that has waited this long goes before interactive work (heavy work is slowed, never stopped). */
const BULK_MAX_WAIT_MS = 1000;

interface Waiter {
  since: number;
  grant: () => void;
  /** The interactive call it belongs to, if any. */
  scope?: InteractiveScope | undefined;
}

/**
 * PGlite is one session: callers take turns with its one connection. Waiting interactive work
 * (a login, a page) is served before waiting bulk work (a search's sets, a chart, an export
 * batch), and while an interactive call is under way bulk work does not start (InteractiveScope),
 * so a crowd of heavy searches delays a login by about the statement or transaction running when
 * it arrived, not by the whole queue nor once per statement.
 */
class PriorityDriver implements Driver {
  private readonly connection: Connection;
  private busy = false;
  private readonly waiting = { interactive: [] as Waiter[], bulk: [] as Waiter[] };
  /** Interactive calls under way that have used the database. */
  private readonly scopes = new Set<InteractiveScope>();
  private timer: NodeJS.Timeout | null = null;
  /** The last turn went to overdue bulk work (the next goes to interactive work if any waits). */
  private overdueServed = false;

  constructor(private readonly client: PGliteWorkerClient) {
    this.connection = new Connection(client);
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    const priority = currentDbPriority();
    const scope = priority === 'interactive' ? currentInteractiveScope() : undefined;
    this.enter(scope);
    if (this.busy || (priority === 'bulk' && (this.waiting.bulk.length > 0 || this.holdUntil() > Date.now()))) {
      await new Promise<void>((grant) => {
        this.waiting[priority].push({ since: Date.now(), grant, scope });
        this.dispatch();
      });
    }
    this.busy = true;
    return this.connection;
  }

  async releaseConnection(): Promise<void> {
    this.busy = false;
    this.dispatch();
  }

  private enter(scope: InteractiveScope | undefined): void {
    if (!scope || scope.closed || this.scopes.has(scope)) return;
    scope.firstUseAt ??= Date.now();
    this.scopes.add(scope);
    scope.onClose(() => {
      this.scopes.delete(scope);
      this.dispatch();
    });
  }

  /** Until when interactive calls under way keep bulk work waiting (0: none). */
  private holdUntil(): number {
    let until = 0;
    for (const scope of this.scopes) until = Math.max(until, (scope.firstUseAt ?? 0) + INTERACTIVE_HOLD_MS);
    return until;
  }

  /** Hands the free connection to the next waiter: interactive first; bulk when no interactive call holds it, or once it waited too long. */
  private dispatch(): void {
    if (this.busy) return;
    const now = Date.now();
    const bulk = this.waiting.bulk[0];
    // A call under way (its first statement less than INTERACTIVE_HOLD_MS ago) goes on first; then an
    // overdue bulk statement, taking turns with new interactive work; then interactive, then bulk.
    const held = this.waiting.interactive.findIndex(
      (w) => w.scope && this.scopes.has(w.scope) && now - (w.scope.firstUseAt ?? 0) < INTERACTIVE_HOLD_MS,
    );
    const bulkOverdue = held < 0 && bulk !== undefined && now - bulk.since >= BULK_MAX_WAIT_MS && !this.overdueServed;
    const hold = this.holdUntil();
    const next =
      held >= 0
        ? this.waiting.interactive.splice(held, 1)[0]
        : bulkOverdue
          ? this.waiting.bulk.shift()
          : (this.waiting.interactive.shift() ?? (hold <= now ? this.waiting.bulk.shift() : undefined));
    if (next) {
      this.overdueServed = bulkOverdue;
      this.busy = true;
      next.grant();
      return;
    }
    if (bulk && !this.timer) {
      this.timer = setTimeout(
        () => {
          this.timer = null;
          this.dispatch();
        },
        Math.max(1, Math.min(hold - now, bulk.since + BULK_MAX_WAIT_MS - now)),
      );
      this.timer.unref();
    }
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    await connection.executeQuery(
      CompiledQuery.raw(settings.isolationLevel ? `start transaction isolation level ${settings.isolationLevel}` : 'begin'),
    );
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async destroy(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.client.close();
  }
}

export class PGliteWorkerDialect implements Dialect {
  constructor(private readonly client: PGliteWorkerClient) {}

  createAdapter() {
    return new PostgresAdapter();
  }

  createDriver(): Driver {
    return new PriorityDriver(this.client);
  }

  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }

  createIntrospector(db: Kysely<unknown>) {
    return new PostgresIntrospector(db);
  }
}
