import type { ColDef, SuppressHeaderKeyboardEventParams } from 'ag-grid-community';
import type { CellValue, ResultRow, SortOrder } from '@kb/contracts/results';
import { SIMILARITY_COLUMN } from '@kb/contracts/results';
import type { GridDensity } from '../results-store.ts';
import {
  ActivityValueCell,
  InnerGridsCell,
  ReferenceIdCell,
  SelectAllHeader,
  SelectCell,
  StandardisedCell,
  StructureCell,
  StructureIdCell,
} from './cell-renderers.tsx';
import { DENSITY_LAYOUT, isPinnedLeft } from './grid-layout.ts';
import type { ShownColumn } from './result-columns.ts';
import { formatCell } from './result-columns.ts';
import { targetLabel } from '../../../app/format/target-label.ts';

/** Cells drawn by a component sit in the middle of the row, as the text cells do. */
const centred = { display: 'flex', alignItems: 'center' } as const;

/**
 * Short codes (relation, unit, type, a target's gene symbol) need no more room: the target and the
 * potency columns fit beside the drawing at 1,280 px. Wide enough for what they hold in ChEMBL
 * ("10⁻⁶ cm/s", "Inhibition"); the e2e readability spec measures that no cell is clipped.
 */
const NARROW_TEXT: Record<string, number> = {
  protein: 96,
  std_act_prefix: 92,
  standard_uom: 96,
  std_activity_type: 92,
  activity_prefix: 84,
  activity_uom: 96,
};

/** Text columns whose values are short enough to show whole (a journal reference). */
const WHOLE_TEXT: Record<string, number> = { reference: 250 };

const SELECT_COLUMN_ID = '__select';

function geneSymbolOf(row: ResultRow | undefined): string | null {
  const symbol = row?.gene_symbol;
  return typeof symbol === 'string' ? symbol : null;
}

/** Enter or Space on the focused header of the tick-box column ticks it, as a click would. */
function headerKeyToggles(params: SuppressHeaderKeyboardEventParams<ResultRow>): boolean {
  const { event } = params;
  if (event.type !== 'keydown' || (event.key !== 'Enter' && event.key !== ' ')) return false;
  const target = event.target instanceof HTMLElement ? event.target : null;
  target?.querySelector<HTMLInputElement>('input[type="checkbox"]')?.click();
  event.preventDefault();
  return true;
}

/**
 * The tick-box cell takes the click itself (its label fills it, SelectCell): the grid neither
 * focuses the cell nor scrolls its row first, so one click ticks, even on a half-visible row. The
 * keyboard still reaches the cell (Space or Enter ticks).
 */
const tickBoxTakesClicks = (): boolean => true;

const selectColumn: ColDef<ResultRow> = {
  colId: SELECT_COLUMN_ID,
  headerName: 'Select',
  headerComponent: SelectAllHeader,
  cellRenderer: SelectCell,
  cellRendererParams: { suppressMouseEventHandling: tickBoxTakesClicks },
  width: 52,
  pinned: 'left',
  lockPinned: true,
  sortable: false,
  resizable: false,
  suppressMovable: true,
  suppressHeaderKeyboardEvent: headerKeyToggles,
  cellStyle: { padding: 0 },
};

export interface GridLayoutOptions {
  density: GridDensity;
  /** The tab's id column (pinned left with the structure). */
  idColumn: string;
}

function valueColumn(column: ShownColumn, sort: SortOrder | null, { density, idColumn }: GridLayoutOptions): ColDef<ResultRow> {
  const pinned = isPinnedLeft(column, idColumn);
  const base: ColDef<ResultRow> = {
    colId: column.key,
    field: column.key,
    headerName: column.label,
    headerTooltip: column.label,
    sortable: column.sortable,
    // The server sorts (across every page); locally every row ties, so the page keeps the server's order.
    comparator: () => 0,
    sort: sort?.column === column.key ? sort.direction : null,
    sortingOrder: ['asc', 'desc', null],
    ...(pinned ? { pinned: 'left' as const, lockPinned: true } : {}),
  };
  const text = (value: CellValue | undefined) => formatCell(value ?? null, column);
  switch (column.type) {
    case 'structure':
      return {
        ...base,
        cellRenderer: StructureCell,
        cellStyle: centred,
        width: DENSITY_LAYOUT[density].structure.width + 20,
        resizable: false,
      };
    case 'json':
      return { ...base, cellRenderer: InnerGridsCell, cellStyle: centred, width: 130 };
    case 'integer':
    case 'number':
      if (column.key === 'str_id') return { ...base, cellRenderer: StructureIdCell, cellStyle: centred, width: 84 };
      if (column.key === 'ref_id') return { ...base, cellRenderer: ReferenceIdCell, cellStyle: centred, width: 96 };
      // The potency a chemist reads a row for: beside it, every measurement of the compound on the target.
      if (column.key === 'activity_value')
        return {
          ...base,
          type: 'rightAligned',
          cellRenderer: ActivityValueCell,
          cellStyle: { ...centred, justifyContent: 'flex-end' },
          width: 112,
          tooltipValueGetter: ({ value }) => text(value) || null,
        };
      return {
        ...base,
        type: 'rightAligned',
        valueFormatter: ({ value }) => text(value),
        width: column.key === SIMILARITY_COLUMN ? 112 : column.key === 'pchembl_value' ? 92 : pinned ? 96 : 116,
      };
    default: {
      // A target by its gene symbol (or a short name), the full name on hover.
      if (column.key === 'protein')
        return {
          ...base,
          valueFormatter: ({ value, data }) => targetLabel(typeof value === 'string' ? value : null, geneSymbolOf(data)),
          tooltipValueGetter: ({ value }) => (typeof value === 'string' && value ? value : null),
          width: NARROW_TEXT.protein,
        };
      if (column.key === 'standardised') return { ...base, cellRenderer: StandardisedCell, cellStyle: centred, width: 150 };
      const narrow = NARROW_TEXT[column.key];
      const width = narrow !== undefined ? { width: narrow } : { width: WHOLE_TEXT[column.key] ?? 180, minWidth: 100, maxWidth: 480 };
      return { ...base, valueFormatter: ({ value }) => text(value), tooltipValueGetter: ({ value }) => text(value) || null, ...width };
    }
  }
}

/** The grid's columns: the tick box, then the shown columns in their order (id and structure pinned left), the current sort marked. */
export function buildColumnDefs(columns: readonly ShownColumn[], sort: SortOrder | null, layout: GridLayoutOptions): ColDef<ResultRow>[] {
  return [selectColumn, ...columns.filter((column) => column.visible).map((column) => valueColumn(column, sort, layout))];
}
