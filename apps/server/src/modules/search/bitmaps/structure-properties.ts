import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { PropertyColumn } from '@kb/contracts/search';
import { PROPERTY_FIELDS } from '@kb/contracts/search';
import { readColumns } from '../../../db/column-read.ts';
import type { PropertyBound } from '../../chemistry/property-predicate.ts';
import { RoaringBitmap32 } from './roaring.ts';
import { readSnapshot, writeSnapshot } from './column-snapshot.ts';

/** What is held: the columns property rows test, and the heavy atom count the compound sheet shows (modules/sheet). */
export type HeldProperty = PropertyColumn | 'heavy_atoms';
const COLUMNS: HeldProperty[] = [...(Object.keys(PROPERTY_FIELDS) as PropertyColumn[]), 'heavy_atoms'];

/** A failed read is not tried again sooner (each try reads every structure's properties). */
const RETRY_AFTER_MS = 60_000;

/**
 * Structure properties (molecular weight, cLogP, PSA, donors, …) in memory for the bitmap engine
 * (issue 18): a property row tested in SQL scanned every structure (1.1 s cold at L for a weight
 * and cLogP range); here it is one pass over an array. The nine columns and the heavy atom count the sheet shows (≈ 200 MB at L) are read
 * in one pass after the other columns, once per knowledge-base version; until then property rows
 * are tested in SQL, as every row is while the columns are read.
 */
export class StructurePropertyColumns {
  private values: Map<HeldProperty, Float64Array> | null = null;
  private reading: Promise<void> | null = null;
  private failedAt = 0;
  /** Where the values were last read from (null: not yet). */
  source: 'database' | 'snapshot' | null = null;

  constructor(
    private readonly db: Kysely<Database>,
    /** The highest structure id of the version the other columns were read at. */
    private readonly maxStr: number,
    /** A failed read (property rows stay in SQL; the read is tried again a minute later). */
    private readonly onError: (error: unknown) => void = () => undefined,
    /**
     * Kept between starts like the other columns (column-snapshot.ts), under the key of the version
     * they belong to: reading them from the database scans the whole structures table (fingerprints
     * and SMILES included) while the structure index reads it too, at every start.
     */
    private readonly snapshot: { file: string; key: string; onError: (error: unknown) => void } | null = null,
  ) {}

  /** Reads the columns once (a failed read is tried again on the next call). */
  read(): Promise<void> {
    this.reading ??= this.readArrays()
      .then((arrays) => {
        this.values = new Map(COLUMNS.map((column, i) => [column, arrays[i]!]));
      })
      .catch((error: unknown) => {
        this.reading = null;
        this.failedAt = Date.now();
        throw error;
      });
    return this.reading;
  }

  private async readArrays(): Promise<Float64Array[]> {
    const snapshot = this.snapshot;
    const stored = snapshot
      ? await readSnapshot(snapshot.file, snapshot.key)
          .then((content) => content && this.fitting(content.arrays))
          .catch((error: unknown) => (snapshot.onError(error), null))
      : null;
    if (stored) {
      this.source = 'snapshot';
      return stored;
    }
    const arrays = (await readColumns(
      this.db,
      'structures',
      'str_id',
      COLUMNS.map((column) => ({ kind: 'float', expr: sql.ref(column) })),
      this.maxStr,
    )) as Float64Array[];
    this.source = 'database';
    // In the background: a failed write only costs the next start its speed.
    if (snapshot) writeSnapshot(snapshot.file, snapshot.key, { arrays, vocabularies: [], bitmaps: [] }).catch(snapshot.onError);
    return arrays;
  }

  /** The stored arrays when they are what a read now would give (count, kind, length); never the wrong fields. */
  private fitting(arrays: readonly ArrayBufferView[]): Float64Array[] {
    const fits =
      arrays.length === COLUMNS.length && arrays.every((array) => array instanceof Float64Array && array.length === this.maxStr + 1);
    if (!fits) throw new Error('The structure property snapshot does not fit the columns read now; reading the database.');
    return arrays as Float64Array[];
  }

  /** Starts the read in the background unless it is done, under way, or failed within the last minute. */
  readSoon(): void {
    if (this.values || this.reading || Date.now() - this.failedAt < RETRY_AFTER_MS) return;
    this.read().catch(this.onError);
  }

  /** Each column indexed by str_id (NaN: no value, or no such structure); null until read. */
  get loaded(): ReadonlyMap<HeldProperty, Float64Array> | null {
    return this.values;
  }
}

/**
 * The structures whose properties lie within every bound, as `s.<column> >= min AND … <= max` in
 * SQL: a missing value (NaN) fails every comparison, as NULL does.
 */
export function matchProperties(columns: ReadonlyMap<HeldProperty, Float64Array>, bounds: PropertyBound[] | 'none'): RoaringBitmap32 {
  if (bounds === 'none') return new RoaringBitmap32();
  let candidates: Int32Array | null = null;
  for (const { column, min, max } of bounds) {
    const values = columns.get(column)!;
    const lo = min ?? -Infinity;
    const hi = max ?? Infinity;
    const kept: number[] = [];
    // The first bound scans every id, the next ones only what is left.
    if (!candidates) {
      for (let id = 1; id < values.length; id++) if (values[id]! >= lo && values[id]! <= hi) kept.push(id);
    } else {
      for (const id of candidates) if (values[id]! >= lo && values[id]! <= hi) kept.push(id);
    }
    candidates = Int32Array.from(kept);
  }
  return new RoaringBitmap32(candidates ?? []);
}
