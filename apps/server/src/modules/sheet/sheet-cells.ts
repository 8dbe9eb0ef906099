import type { Qualifier, SheetCell } from '@kb/contracts/sheet';
import type { Point } from './sheet-values.ts';
import { aggregateCell } from './sheet-values.ts';

const QUALIFIERS: readonly Qualifier[] = ['=', '>', '<'];
export const QUALIFIER_CODE: Readonly<Record<Qualifier, number>> = { '=': 0, '>': 1, '<': 2 };

/**
 * One column's cells, each computed when first read and kept. A sheet of 100,000 compounds × 20
 * endpoints has about 430,000 cells; its first page shows a thousand of them, so they are not all
 * built up front (that took 0.55 s of the page): a column holds its points in typed arrays, by
 * compound, and a sort or filter on it builds that column's cells only.
 */
export class ColumnCells {
  private readonly built = new Map<number, SheetCell>();

  constructor(
    private readonly molar: boolean,
    /** The sheet positions of the compounds with at least one point, ascending. */
    private readonly positions: Int32Array,
    /** The points of `positions[i]` are `values` / `qualifiers` [starts[i], starts[i + 1]). */
    private readonly starts: Int32Array,
    private readonly values: Float64Array,
    /** QUALIFIER_CODE of each point. */
    private readonly qualifiers: Uint8Array,
    /** Compounds whose points are all censored (the column's note counts them). */
    readonly censoredOnly: number,
  ) {}

  /** How many compounds have a cell. */
  get size(): number {
    return this.positions.length;
  }

  /** The positions with a cell, ascending. */
  keys(): Iterable<number> {
    return this.positions;
  }

  /** The cell at a sheet position (undefined: no measurement there). */
  get(position: number): SheetCell | undefined {
    const kept = this.built.get(position);
    if (kept) return kept;
    const i = indexOf(this.positions, position);
    if (i < 0) return undefined;
    const points: Point[] = [];
    for (let k = this.starts[i]!; k < this.starts[i + 1]!; k++)
      points.push({ value: this.values[k]!, qualifier: QUALIFIERS[this.qualifiers[k]!]! });
    const cell = aggregateCell(points, 'median', this.molar)!;
    this.built.set(position, cell);
    return cell;
  }
}

/** Binary search in ascending positions; −1 when absent. */
function indexOf(sorted: Int32Array, value: number): number {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const at = sorted[mid]!;
    if (at === value) return mid;
    if (at < value) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}
