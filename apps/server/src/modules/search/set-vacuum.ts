import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { DatabaseKind } from '../../db/database.ts';
import { SEARCH_SET_TABLES } from '../../db/tables/search-tables.ts';

/**
 * Dead rows of the set tables reclaimed where nothing else reclaims them.
 *
 * Every search run rewrites its set (a re-run deletes the old rows) and every expired session
 * drops its sets: these tables turn over their whole content many times a day. PostgreSQL's
 * autovacuum keeps them small on a server where it runs (the default). Where it does not — the
 * embedded database (PGlite runs PostgreSQL in single-user mode, which has no autovacuum
 * launcher), or a server configured with `autovacuum = off` — they only grow: issue 18 measured
 * 18.5 M dead rows beside 8.2 M live ones in `search_activities` after one 20-user bench at L, and
 * the count of one set 20× slower than on a fresh table. This does what autovacuum would for
 * these tables only, after a search and at most once per `minIntervalMs`.
 */

/**
 * The tables whose rows belong to a search set and turn over with it, and the two whose rows a
 * running search or SAR job rewrites with every heartbeat (docs/scaling.md "State").
 */
export const SET_TURNOVER_TABLES = [
  ...SEARCH_SET_TABLES,
  'search_set_marks',
  'result_filtered',
  'result_similarity',
  'structure_hits',
  'sar_sets',
  'sar_set_structures',
  'sar_set_activities',
  'search_sessions',
  'sar_jobs',
] as const;

/** Autovacuum's own defaults: a table is vacuumed once its dead rows pass 50 + 20 % of its live rows. */
const THRESHOLD_ROWS = 50;
const SCALE_FACTOR = 0.2;

export interface TableTurnover {
  table: string;
  live: number;
  dead: number;
}

/** The tables autovacuum would vacuum now (its default rule). */
export function tablesDue(stats: readonly TableTurnover[]): string[] {
  return stats.filter((s) => s.dead > THRESHOLD_ROWS + SCALE_FACTOR * s.live).map((s) => s.table);
}

export interface SetVacuumOptions {
  /** At most one pass this often per process (10 minutes by default). */
  minIntervalMs?: number;
  log?: (message: string) => void;
}

export class SetVacuum {
  private last = Number.NEGATIVE_INFINITY;
  private running: Promise<string[]> | null = null;
  /** What this database does about dead rows (read once: the settings change only with a reload). */
  private autovacuum: Promise<'autovacuum' | 'statistics' | 'no statistics'> | null = null;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly kind: DatabaseKind,
    private readonly options: SetVacuumOptions = {},
  ) {}

  /** Vacuums the set tables that need it, unless autovacuum does it or a pass ran lately. Answers the tables vacuumed. */
  maybe(now = Date.now()): Promise<string[]> {
    if (this.running) return this.running;
    if (now - this.last < (this.options.minIntervalMs ?? 10 * 60_000)) return Promise.resolve([]);
    this.last = now;
    this.running = this.pass().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async pass(): Promise<string[]> {
    const counting = await this.autovacuumState();
    if (counting === 'autovacuum') return [];
    // PGlite's statistics are not published while it runs (single-user mode), nor a server's with
    // `track_counts = off`: then each set table is vacuumed on every pass (on PGlite they hold the
    // demo data's sets: small). Otherwise the statistics say which are due.
    const due = counting === 'no statistics' ? [...SET_TURNOVER_TABLES] : tablesDue(await this.turnover());
    if (due.length === 0) return [];
    const started = performance.now();
    // One connection, outside any transaction (VACUUM cannot run inside one), without the pool's
    // statement timeout: a first pass over tables that were never vacuumed may take minutes and
    // would otherwise be cancelled and retried for ever. SKIP_LOCKED: a table another server
    // vacuums now is left to it.
    await this.db.connection().execute(async (connection) => {
      await sql`SET statement_timeout = 0`.execute(connection);
      try {
        await sql`VACUUM (SKIP_LOCKED) ${sql.join(due.map((table) => sql.table(table)))}`.execute(connection);
      } finally {
        await sql`RESET statement_timeout`.execute(connection);
      }
    });
    this.options.log?.(
      `set tables vacuumed (${due.join(', ')}) in ${Math.round(performance.now() - started)} ms: autovacuum does not run on this database`,
    );
    return due;
  }

  /** Whether autovacuum runs here, or else whether table statistics say what is due. */
  private autovacuumState(): Promise<'autovacuum' | 'statistics' | 'no statistics'> {
    if (this.kind === 'pglite') return Promise.resolve('no statistics');
    this.autovacuum ??= sql<{
      autovacuum: string;
      counts: string;
    }>`SELECT current_setting('autovacuum') AS autovacuum, current_setting('track_counts') AS counts`
      .execute(this.db)
      .then(({ rows }) => {
        const counts = rows[0]?.counts === 'on';
        return counts && rows[0]?.autovacuum === 'on' ? 'autovacuum' : counts ? 'statistics' : 'no statistics';
      })
      .catch((error: unknown) => {
        // Asked again next pass: a failed read is not an answer.
        this.autovacuum = null;
        throw error;
      });
    return this.autovacuum;
  }

  private async turnover(): Promise<TableTurnover[]> {
    const { rows } = await sql<{
      table: string;
      live: string;
      dead: string;
    }>`SELECT relname AS table, n_live_tup::text AS live, n_dead_tup::text AS dead
      FROM pg_stat_user_tables WHERE schemaname = current_schema() AND relname = ANY(${[...SET_TURNOVER_TABLES]}::text[])`.execute(this.db);
    return rows.map((row) => ({ table: row.table, live: Number(row.live), dead: Number(row.dead) }));
  }
}
