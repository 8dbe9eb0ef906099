import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { DatabaseKind } from '../../db/database.ts';
import { readSetRows } from './row-values.ts';
import type { SessionRows } from './row-values.ts';

/**
 * A search session's activity rows kept in memory between the calls that read them all (issue 18:
 * at L, reading the 728,000 rows of a capped session took 330–750 ms of the 1 s a filter may take,
 * and the Activities charts, the Structures charts and each filter read the same rows again).
 *
 * A set is rewritten in place when its session is re-run (same set id), so an entry is only good
 * for one write: its key is the set's mark (search_set_marks.written_at, written in the same
 * transaction as the rows, search/materialise.ts `markSets`). The mark is read before and after the
 * rows; only rows whose mark did not change meanwhile are kept. A set without a mark (being
 * written, or lost in a crash) is read and not kept. Each server keeps its own entries: the rows
 * never change under a mark, so there is nothing to keep coherent between servers.
 */

/** Bytes per row held: act, str, assay, ref and target ids as int32. */
const BYTES_PER_ROW = 20;

/** Memory the entries may hold in all: 13 M rows, about 18 sessions at the 750,000-activity cap. */
const SESSION_ROWS_BUDGET = 256 * 1024 * 1024;

interface Entry {
  mark: string;
  rows: Promise<SessionRows>;
  bytes: number;
}

async function markOf(db: Kysely<Database>, setId: number): Promise<string | null> {
  const { rows } = await sql<{
    mark: string;
  }>`SELECT written_at::text AS mark FROM search_set_marks WHERE set_id = ${setId}::bigint`.execute(db);
  return rows[0]?.mark ?? null;
}

const IDS = ['act_id', 'str_id'] as const;

/** Every row of a set with its activity and structure ids, in one statement (one snapshot). */
function readAllRows(db: Kysely<Database>, setId: number): Promise<SessionRows> {
  return readSetRows(db, setId, IDS);
}

/**
 * The same rows as two halves of the set's activity ids read at once on two connections: the
 * packing is the database's work, one backend per core (0.6–0.8 of one statement's time measured
 * on 667,000 rows). Two statements see two snapshots: the caller keeps them only when the set's
 * mark did not change around them.
 */
async function readAllRowsInHalves(db: Kysely<Database>, setId: number): Promise<SessionRows> {
  const { rows } = await sql<{
    lo: string | null;
    hi: string | null;
  }>`SELECT min(act_id)::text AS lo, max(act_id)::text AS hi FROM search_activities WHERE set_id = ${setId}::bigint`.execute(db);
  const lo = Number(rows[0]?.lo ?? 0);
  const hi = Number(rows[0]?.hi ?? 0);
  if (hi - lo < 2) return readAllRows(db, setId);
  const mid = Math.floor(lo + (hi - lo) / 2);
  const halves = await Promise.all([readSetRows(db, setId, IDS, { upTo: mid }), readSetRows(db, setId, IDS, { above: mid })]);
  return joinRows(halves[0], halves[1]);
}

function joinRows(a: SessionRows, b: SessionRows): SessionRows {
  const join = (x: Int32Array, y: Int32Array) => {
    const out = new Int32Array(x.length + y.length);
    out.set(x);
    out.set(y, x.length);
    return out;
  };
  return {
    count: a.count + b.count,
    assay: join(a.assay, b.assay),
    ref: join(a.ref, b.ref),
    target: join(a.target, b.target),
    act: join(a.act!, b.act!),
    str: join(a.str!, b.str!),
  };
}

export class SessionRowsCache {
  /** Least recently used first (a Map keeps insertion order; a hit is moved to the end). */
  private readonly entries = new Map<number, Entry>();
  private bytes = 0;

  constructor(
    private readonly db: Kysely<Database>,
    /** On a PostgreSQL server the rows are read in two halves at once; PGlite has one connection. */
    private readonly kind: DatabaseKind,
    private readonly budget = SESSION_ROWS_BUDGET,
  ) {}

  /** The rows of set `setId` as written last (act and str ids included). */
  async rows(setId: number): Promise<SessionRows> {
    const mark = await markOf(this.db, setId);
    const held = this.entries.get(setId);
    if (held && mark !== null && held.mark === mark) {
      this.entries.delete(setId);
      this.entries.set(setId, held);
      return held.rows;
    }
    if (held) this.forget(setId);
    if (mark === null) return readAllRows(this.db, setId);
    const entry: Entry = { mark, rows: this.readIfUnchanged(setId, mark), bytes: 0 };
    this.entries.set(setId, entry);
    try {
      const rows = await entry.rows;
      // Sized once read; entries beyond the budget go, oldest first (never the one just read).
      if (this.entries.get(setId) === entry) {
        entry.bytes = rows.count * BYTES_PER_ROW;
        this.bytes += entry.bytes;
        this.evict(setId);
      }
      return rows;
    } catch (error) {
      if (this.entries.get(setId) === entry) this.entries.delete(setId);
      throw error;
    }
  }

  /**
   * Holds rows known without reading them: those a search run wrote into the set just now under
   * `mark` (search-service `onSetsWritten`), so the session's first charts read nothing back.
   */
  hold(setId: number, mark: string, rows: SessionRows): void {
    this.forget(setId);
    const entry: Entry = { mark, rows: Promise.resolve(rows), bytes: rows.count * BYTES_PER_ROW };
    this.entries.set(setId, entry);
    this.bytes += entry.bytes;
    this.evict(setId);
  }

  /** Drops every entry (a bench measuring cold reads, a test that edits sets by hand). */
  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }

  /** Bytes held (tests and the bench report it). */
  get heldBytes(): number {
    return this.bytes;
  }

  /**
   * Reads the rows; when the set was rewritten meanwhile the entry is dropped and the rows are read
   * again in one statement (halves read around a rewrite could come from two different writes).
   */
  private async readIfUnchanged(setId: number, mark: string): Promise<SessionRows> {
    const rows = this.kind === 'postgres' ? await readAllRowsInHalves(this.db, setId) : await readAllRows(this.db, setId);
    if ((await markOf(this.db, setId)) === mark) return rows;
    this.forget(setId, mark);
    return readAllRows(this.db, setId);
  }

  private forget(setId: number, mark?: string): void {
    const entry = this.entries.get(setId);
    if (!entry || (mark !== undefined && entry.mark !== mark)) return;
    this.entries.delete(setId);
    this.bytes -= entry.bytes;
  }

  private evict(keep: number): void {
    for (const [setId, entry] of this.entries) {
      if (this.bytes <= this.budget) return;
      if (setId === keep) continue;
      this.entries.delete(setId);
      this.bytes -= entry.bytes;
    }
  }
}
