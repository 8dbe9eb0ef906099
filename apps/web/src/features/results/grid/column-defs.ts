import type { ColDef, SuppressHeaderKeyboardEventParams } from 'ag-grid-community';
import type { CellValue, ResultRow, SortOrder } from '@kb/contracts/results';
import { InnerGridsCell, ReferenceIdCell, SelectAllHeader, SelectCell, STRUCTURE_CELL, StructureCell, StructureIdCell } from './cell-renderers.tsx';
import type { ShownColumn } from './result-columns.ts';
import { formatCell } from './result-columns.ts';

/** The grid's own row heights: a depiction needs room; rows without one stay compact. */
export const ROW_HEIGHT = { withStructure: STRUCTURE_CELL.height + 12, plain: 40 } as const;

export const SELECT_COLUMN_ID = '__select';

/** Enter or Space on the focused header of the tick-box column ticks it, as a click would. */
function headerKeyToggles(params: SuppressHeaderKeyboardEventParams<ResultRow>): boolean {
  const { event } = params;
  if (event.type !== 'keydown' || (event.key !== 'Enter' && event.key !== ' ')) return false;
  const target = event.target instanceof HTMLElement ? event.target : null;
  target?.querySelector<HTMLInputElement>('input[type="checkbox"]')?.click();
  event.preventDefault();
  return true;
}

const selectColumn: ColDef<ResultRow> = {
  colId: SELECT_COLUMN_ID,
  headerName: 'Select',
  headerComponent: SelectAllHeader,
  cellRenderer: SelectCell,
  width: 52,
  pinned: 'left',
  lockPinned: true,
  sortable: false,
  resizable: false,
  suppressMovable: true,
  suppressHeaderKeyboardEvent: headerKeyToggles,
  cellStyle: { display: 'flex', alignItems: 'center' },
};

function valueColumn(column: ShownColumn, sort: SortOrder | null): ColDef<ResultRow> {
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
  };
  const text = (value: CellValue | undefined) => formatCell(value ?? null, column);
  switch (column.type) {
    case 'structure':
      return { ...base, cellRenderer: StructureCell, width: STRUCTURE_CELL.width + 24, resizable: false };
    case 'json':
      return { ...base, cellRenderer: InnerGridsCell, width: 130 };
    case 'integer':
    case 'number':
      if (column.key === 'str_id') return { ...base, cellRenderer: StructureIdCell, width: 110 };
      if (column.key === 'ref_id') return { ...base, cellRenderer: ReferenceIdCell, width: 110 };
      return { ...base, type: 'rightAligned', valueFormatter: ({ value }) => text(value), width: 130 };
    default:
      return { ...base, valueFormatter: ({ value }) => text(value), tooltipValueGetter: ({ value }) => text(value) || null, minWidth: 120, maxWidth: 480 };
  }
}

/** The grid's columns: the tick box, then the shown columns in their order, the current sort marked. */
export function buildColumnDefs(columns: readonly ShownColumn[], sort: SortOrder | null): ColDef<ResultRow>[] {
  return [selectColumn, ...columns.filter((column) => column.visible).map((column) => valueColumn(column, sort))];
}
