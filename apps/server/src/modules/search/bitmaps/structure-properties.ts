import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { PropertyColumn } from '@kb/contracts/search';
import { readColumns } from '../../../db/column-read.ts';
import type { PropertyBound } from '../../chemistry/property-predicate.ts';
import { RoaringBitmap32 } from './roaring.ts';

/**
 * Structure properties (molecular weight, cLogP, PSA, donors, …) in memory for the bitmap engine
 * (issue 18): a property row tested in SQL scanned every structure (1.1 s cold at L for a weight
 * and cLogP range), here it is one pass over an array. A column is read on first use, once per
 * knowledge-base version (≈ 20 MB each at L, 2.5 M structures): most searches use none or one of
 * the nine, so start-up and memory do not pay for all of them.
 */
export class StructurePropertyColumns {
  private readonly columns = new Map<PropertyColumn, Promise<Float64Array>>();

  constructor(
    private readonly db: Kysely<Database>,
    /** The highest structure id of the version the other columns were read at. */
    private readonly maxStr: number,
  ) {}

  /** The column indexed by str_id (NaN: no value, or no such structure). */
  column(column: PropertyColumn): Promise<Float64Array> {
    let read = this.columns.get(column);
    if (!read) {
      // Column names come from the contract's fixed list; doubles compare as PostgreSQL's do.
      read = readColumns(this.db, 'structures', 'str_id', [{ kind: 'float', expr: sql.ref(column) }], this.maxStr).then(([values]) => values as Float64Array);
      // A failed read is not kept: the next search tries again.
      read.catch(() => this.columns.delete(column));
      this.columns.set(column, read);
    }
    return read;
  }
}

/**
 * The structures whose properties lie within every bound, as `s.<column> >= min AND … <= max` in
 * SQL: a missing value (NaN) fails every comparison, as NULL does.
 */
export async function matchProperties(properties: StructurePropertyColumns, bounds: PropertyBound[] | 'none'): Promise<RoaringBitmap32> {
  if (bounds === 'none') return new RoaringBitmap32();
  const columns = await Promise.all(bounds.map((bound) => properties.column(bound.column)));
  let candidates: Int32Array | null = null;
  bounds.forEach(({ min, max }, i) => {
    const values = columns[i]!;
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
  });
  return new RoaringBitmap32(candidates ?? []);
}
