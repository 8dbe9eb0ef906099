import { SIMILARITY_COLUMN } from '@kb/contracts/results';
import type { GridDensity } from '../results-store.ts';
import type { ShownColumn } from './result-columns.ts';

/**
 * How the results grids are laid out (docs/results.md "Reading the grid"): row heights and
 * drawing sizes per density, and which columns stay pinned on the left. Pure, so the grid and the
 * tests agree.
 */

export interface DensityLayout {
  /** Rows with a structure drawing. */
  rowHeight: number;
  /** Rows without one (Assay, Documents). */
  plainRowHeight: number;
  /** The drawing in a structure cell. */
  structure: { width: number; height: number };
}

/**
 * Compact: a 136 × 54 drawing, the smallest at which atom labels (drawn at 9 px at least, with a
 * light highlight: chemistry/worker/depict.mjs) still read — 112 × 42 was unreadable — and 58 px
 * rows, so 12 activity rows fit a 1440 × 900 screen; hovering shows the drawing large.
 * Comfortable: the 160 × 110 drawings a structure can be read from without hovering.
 */
export const DENSITY_LAYOUT: Record<GridDensity, DensityLayout> = {
  compact: { rowHeight: 58, plainRowHeight: 34, structure: { width: 136, height: 54 } },
  comfortable: { rowHeight: 122, plainRowHeight: 44, structure: { width: 160, height: 110 } },
};

export const DENSITY_LABELS: Record<GridDensity, string> = { compact: 'Compact', comfortable: 'Comfortable' };

/** The drawing shown on hovering a compact structure cell. */
export const ENLARGED_STRUCTURE = { width: 300, height: 220 } as const;

export function rowHeightOf(density: GridDensity, hasStructure: boolean): number {
  const layout = DENSITY_LAYOUT[density];
  return hasStructure ? layout.rowHeight : layout.plainRowHeight;
}

/**
 * What a row is read by stays in place while the rest scrolls sideways: the structure id and the
 * drawing, the tab's own id on tabs without structures (an activity is read by its compound and
 * target, not its number: its id scrolls, so the target and potency fit a 1,280 px screen), and
 * the similarity score when it is shown (a similarity search or sort is read by it; it is the
 * tab's last column, so unpinned it would be out of sight).
 */
export function isPinnedLeft(column: Pick<ShownColumn, 'key' | 'type'>, idColumn: string): boolean {
  const idPinned = column.key === idColumn && idColumn !== 'act_id';
  return idPinned || column.key === 'str_id' || column.type === 'structure' || column.key === SIMILARITY_COLUMN;
}

/** The header row and a horizontal scroll bar, around the rows. */
const GRID_CHROME = 40 + 2 + 16;
/** Room the tab's tools above and the pager below take on the screen. */
const SCREEN_MARGIN = 136;

/**
 * The grid's height (CSS): its rows when they are few, else the screen less the tools and the
 * pager around it, so a page of rows scrolls inside the grid under a header that stays in sight.
 */
export function gridHeight(rowCount: number, rowHeight: number): string {
  const content = GRID_CHROME + Math.max(rowCount, 3) * rowHeight;
  return `min(${content}px, max(320px, calc(100dvh - ${SCREEN_MARGIN}px)))`;
}
