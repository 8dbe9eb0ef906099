import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { loadsState } from '../../knowledge-base/kb-loads.ts';
import type { CompiledRow } from '../row-compiler.ts';
import type { RowSets } from './bitmap-counts.ts';
import { readRowSets, rowSetQueries } from './bitmap-counts.ts';
import type { KbColumns } from './kb-columns.ts';
import { loadKbColumns } from './kb-columns.ts';
import type { LoadOptions, LoadedColumns } from './kb-columns.ts';

/** While a load runs, the columns are read again at most this often. */
const READ_WHILE_LOADING_MS = 60_000;

/** Row sets kept between searches, in bytes of compressed bitmaps (least recently used go first). */
const ROW_CACHE_BYTES = 256 * 2 ** 20;

interface CachedRow {
  sets: Promise<RowSets>;
  bytes: number;
}

/** Bytes of a row's sets, with its other levels once made (bitmap-counts.ts `RowSets.levels`). */
const sizeOf = (sets: RowSets) =>
  [sets.activities, sets.direct, sets.clinical, sets.levels?.activities?.value, sets.levels?.structures?.value].reduce(
    (sum, b) => sum + (b ? b.getSerializationSizeInBytes('croaring') : 0),
    0,
  );

export type BitmapIndexOptions = LoadOptions;

/**
 * The in-memory columns of this server, kept as current as the knowledge base: before each use
 * the kb_loads version is compared (one small query), and a load that ended since — here, on
 * another server or from the command line — makes the next use read the columns again. One read
 * at a time: concurrent callers share it. While a load is running, counts go to the SQL path as
 * soon as its rows move the highest ids (see `loadsState`), so counts do not miss the rows it added
 * (rows it changes in place are counted as they were until it ends).
 *
 * It also keeps the id sets of rows already read, for the same knowledge-base version: a chemist
 * building a search asks the counts again after each row, and only the new row has to be read.
 */
export class BitmapIndex {
  private columns: KbColumns | null = null;
  private reading: { version: string; columns: Promise<KbColumns> } | null = null;
  private readStartedAt = 0;
  private rows = new Map<string, CachedRow>();
  private rowsVersion = '';
  private rowBytes = 0;

  /** Where the columns of the last read came from (start-up logs and benches tell). */
  lastSource: LoadedColumns['source'] | null = null;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly options: BitmapIndexOptions = {},
  ) {}

  /**
   * Whether `columns` still hold the knowledge base as it is: no load ended since, none is running
   * (a running load may delete rows without moving the highest ids). Sets are written from them
   * only then; the check is made just before the write (on PGlite's one connection it cannot be
   * made inside the write's transaction), so a load ending in between is missed, as a search
   * started just before it would be.
   */
  async stillCurrent(columns: KbColumns): Promise<boolean> {
    const { version, loading } = await loadsState(this.db);
    return !loading && version === columns.version;
  }

  /** The columns of the knowledge base as it is now, waiting for them to be read if need be. */
  async current(): Promise<KbColumns> {
    const { version } = await loadsState(this.db);
    if (this.columns?.version === version) return this.columns;
    return this.read(version);
  }

  /**
   * The columns when they are current; else null, and a read is started (at start-up and after a
   * load: tens of seconds at L), so the caller counts on the SQL path meanwhile instead of waiting.
   * While a load runs its rows arrive as it goes: the columns are current only for the rows there
   * when they were read, and are read again at most once a minute.
   */
  async ifCurrent(): Promise<KbColumns | null> {
    const { version, loading } = await loadsState(this.db);
    if (this.columns?.version === version) return this.columns;
    // While a load runs, one read at a time (a read at L takes longer than the minute between two).
    const readNow = !loading || (!this.reading && Date.now() - this.readStartedAt > READ_WHILE_LOADING_MS);
    if (readNow) this.read(version).catch(() => undefined);
    return null;
  }

  /**
   * The columns of `version`, read once however many callers ask. A read of another version still
   * under way (one started while a load ran) is let finish first, then this one is read: its
   * answer would be the superseded columns.
   */
  private read(version: string): Promise<KbColumns> {
    if (this.reading?.version === version) return this.reading.columns;
    const before = this.reading?.columns.catch(() => undefined);
    this.readStartedAt = Date.now();
    const columns = (before ?? Promise.resolve()).then(() => {
      if (this.columns?.version === version) return this.columns;
      return loadKbColumns(this.db, version, this.options).then(({ columns: read, source }) => {
        this.lastSource = source;
        // Property rows are tested in SQL until these are in too.
        read.properties.readSoon();
        return (this.columns = read);
      });
    });
    const reading = { version, columns };
    this.reading = reading;
    void columns
      .catch(() => undefined)
      .finally(() => {
        if (this.reading === reading) this.reading = null;
      });
    return columns;
  }

  /** A row's sets, from the cache when the same row was read on the same version (a `RowSetSource`). */
  readonly rowSets = async (db: Kysely<Database>, columns: KbColumns, row: CompiledRow): Promise<RowSets> => {
    // The chemistry engine's hits are one run's: never asked again.
    if (row.engine) return readRowSets(db, columns, row);
    // The same ids mean other activities through another column (a target's id is not a document's).
    const key = [
      row.link?.column ?? 'predicate',
      JSON.stringify(row.fields ?? null),
      JSON.stringify(row.properties?.bounds ?? null),
      JSON.stringify(row.assayTypes ?? null),
      ...rowSetQueries(row).map((query) => {
        if (!query) return '';
        const compiled = query.compile(db);
        return `${compiled.sql}\u0001${JSON.stringify(compiled.parameters)}`;
      }),
    ].join('\u0000');
    // Structure-search hits live in a table under a one-run id: never asked again.
    if (key.includes('structure_hits')) return readRowSets(db, columns, row);
    if (this.rowsVersion !== columns.version) this.forgetRows(columns.version);
    const cached = this.rows.get(key);
    if (cached) {
      this.rows.delete(key);
      this.rows.set(key, cached);
      return cached.sets;
    }
    const entry: CachedRow = { sets: readRowSets(db, columns, row), bytes: 0 };
    this.rows.set(key, entry);
    try {
      const sets = await entry.sets;
      // A level made later (bitmap-counts.ts `rowLevel`) is counted when it is made.
      sets.onLevelMade = () => this.recount(key, entry, sets);
      entry.bytes = sizeOf(sets);
      this.rowBytes += entry.bytes;
      this.evict();
      return sets;
    } catch (error) {
      this.rows.delete(key);
      throw error;
    }
  };

  /** The bytes of a cached row again (a level of it was just made), while it is still cached. */
  private recount(key: string, entry: CachedRow, sets: RowSets): void {
    if (this.rows.get(key) !== entry) return;
    const bytes = sizeOf(sets);
    this.rowBytes += bytes - entry.bytes;
    entry.bytes = bytes;
    this.evict();
  }

  private forgetRows(version: string): void {
    this.rows.clear();
    this.rowBytes = 0;
    this.rowsVersion = version;
  }

  private evict(): void {
    for (const [key, entry] of this.rows) {
      if (this.rowBytes <= ROW_CACHE_BYTES) break;
      this.rows.delete(key);
      this.rowBytes -= entry.bytes;
    }
  }
}
