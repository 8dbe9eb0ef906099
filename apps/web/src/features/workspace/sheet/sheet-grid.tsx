import '../../../app/grid/ag-grid-setup.ts';
import type { CellClickedEvent, CellKeyDownEvent, ColDef, SortChangedEvent } from 'ag-grid-community';
import { AgGridReact } from 'ag-grid-react';
import { useCallback, useMemo } from 'react';
import type { SheetPage, SheetRow } from '@kb/contracts/sheet';
import { SHEET_PROPERTY_LABELS } from '@kb/contracts/sheet';
import type { SheetProperty } from '@kb/contracts/sheet';
import { formatCount } from '../../../app/format/count-format.ts';
import { resultsGridTheme } from '../../../app/grid/ag-grid-setup.ts';
import type { ColumnRange } from './colour-scale.ts';
import { cellColour, columnScale } from './colour-scale.ts';
import { cellDetails } from './cell-format.ts';
import type { DrawingAlignment, SheetGridContextValue } from './sheet-cells.tsx';
import {
  CellTooltip,
  IdCell,
  PropertyCell,
  STRUCTURE_SIZE,
  SheetGridContext,
  StructureCell,
  TickCell,
  TickHeader,
  ValueCell,
} from './sheet-cells.tsx';

const ROW_HEIGHT = STRUCTURE_SIZE.height + 8;
const theme = resultsGridTheme.withParams({ rowHeight: ROW_HEIGHT, cellHorizontalPadding: 6 });
/** The server sorts; the grid only shows the arrow (its own comparison must never reorder the page). */
const KEEP_ORDER = () => 0;

export interface SheetGridProps {
  page: SheetPage;
  loading: boolean;
  sort: { column: string; direction: 'asc' | 'desc' } | null;
  onSort: (column: string | null, direction: 'asc' | 'desc' | null) => void;
  ticked: ReadonlySet<number>;
  onTick: (strIds: number[], on: boolean) => void;
  /** The core or query the drawings are laid out like. */
  align: DrawingAlignment | null;
  /** A cell of endpoint `index` of a row: its measurements. */
  onOpenCell: (row: SheetRow, index: number) => void;
}

/** The column's colour behind each value (viridis over the values on this page; blanks stay white). */
function colourStyle(range: ColumnRange | null) {
  return (params: { value: { value: number } | null | undefined }) => ({
    padding: '0 8px',
    background: cellColour(params.value?.value ?? null, range) ?? 'transparent',
    color: 'var(--mantine-color-dark-9)',
  });
}

const VALUE_COLUMN: ColDef<SheetRow> = {
  cellRenderer: ValueCell,
  type: 'rightAligned',
  width: 132,
  minWidth: 96,
  sortable: true,
  comparator: KEEP_ORDER,
  wrapHeaderText: true,
  autoHeaderHeight: true,
};

/** Short header of an endpoint: activity type and gene symbol (the unit when it is not pActivity), the whole label on hover. */
function endpointColumns(page: SheetPage): ColDef<SheetRow>[] {
  return page.columns.map((column, index) => {
    const name = column.geneSymbol ? `${column.endpoint.activityType} · ${column.geneSymbol}` : column.label;
    const range = columnScale(
      column.molar ? 'pactivity' : 'other',
      page.rows.map((row) => row.cells[index]?.value),
    );
    return {
      ...VALUE_COLUMN,
      colId: `e${index}`,
      headerName: column.molar ? name : `${name} (${column.unit})`,
      headerTooltip: `${column.label} — ${column.unit}; ${formatCount(column.withValue)} of ${formatCount(page.compounds)} compounds have a value${column.note ? `. ${column.note}` : ''}`,
      valueGetter: (params) => params.data?.cells[index] ?? null,
      cellStyle: colourStyle(range),
      // A short text for screen readers; the tooltip component draws the table.
      tooltipValueGetter: (params) => {
        const cell = params.data?.cells[index];
        return cell
          ? cellDetails(cell)
              .map((line) => `${line.label} ${line.value}`)
              .join(', ')
          : undefined;
      },
      tooltipComponent: CellTooltip,
    } satisfies ColDef<SheetRow>;
  });
}

function differenceColumns(page: SheetPage): ColDef<SheetRow>[] {
  return page.differences.map((difference, index) => ({
    ...VALUE_COLUMN,
    colId: `d${index}`,
    headerName: difference.label,
    headerTooltip: `${difference.label}: ${formatCount(difference.withValue)} compounds have both values`,
    valueGetter: (params) => params.data?.differences[index] ?? null,
    cellStyle: colourStyle(
      columnScale(
        'difference',
        page.rows.map((row) => row.differences[index]?.value),
      ),
    ),
  }));
}

function propertyColumns(properties: readonly string[]): ColDef<SheetRow>[] {
  return properties.map((key) => ({
    colId: key,
    headerName: SHEET_PROPERTY_LABELS[key as SheetProperty] ?? key,
    valueGetter: (params) => params.data?.properties[key] ?? null,
    cellRenderer: PropertyCell,
    type: 'rightAligned',
    width: 96,
    sortable: true,
    comparator: KEEP_ORDER,
  }));
}

function buildColumns(page: SheetPage, properties: readonly string[], sort: SheetGridProps['sort']): ColDef<SheetRow>[] {
  const columns: ColDef<SheetRow>[] = [
    { colId: 'tick', headerComponent: TickHeader, cellRenderer: TickCell, width: 44, pinned: 'left', sortable: false, resizable: false },
    {
      colId: 'structure',
      headerName: 'Structure',
      cellRenderer: StructureCell,
      width: STRUCTURE_SIZE.width + 14,
      pinned: 'left',
      sortable: false,
    },
    {
      colId: 'strId',
      headerName: 'Structure id',
      cellRenderer: IdCell,
      width: 140,
      pinned: 'left',
      sortable: true,
      comparator: KEEP_ORDER,
    },
    ...endpointColumns(page),
    ...differenceColumns(page),
    ...propertyColumns(properties),
  ];
  return columns.map((column) => ({ ...column, sort: sort && column.colId === sort.column ? sort.direction : null }));
}

/**
 * The sheet's page in AG Grid: one row per compound, the structure and id pinned on the left, then
 * the endpoints, the differences and the properties. Sorting is the server's (blanks last either
 * way); a click or Enter on an endpoint cell opens its measurements.
 */
export function SheetGrid({ page, loading, sort, onSort, ticked, onTick, onOpenCell, align }: SheetGridProps) {
  const properties = useMemo(() => Object.keys(page.rows[0]?.properties ?? {}), [page.rows]);
  const columnDefs = useMemo(() => buildColumns(page, properties, sort), [page, properties, sort]);
  const context: SheetGridContextValue = useMemo(
    () => ({ align, ticked, onTick, pageIds: page.rows.map((row) => row.strId) }),
    [align, page, ticked, onTick],
  );

  const sortChanged = useCallback(
    (event: SortChangedEvent<SheetRow>) => {
      if (event.source !== 'uiColumnSorted') return;
      const sorted = event.api.getColumnState().find((state) => state.sort);
      onSort(sorted?.colId ?? null, sorted?.sort ?? null);
    },
    [onSort],
  );
  const endpointIndex = (colId: string | undefined) => {
    const match = /^e(\d+)$/.exec(colId ?? '');
    return match ? Number(match[1]) : null;
  };
  const cellClicked = useCallback(
    (event: CellClickedEvent<SheetRow>) => {
      const index = endpointIndex(event.column.getColId());
      if (index !== null && event.data && event.data.cells[index]) onOpenCell(event.data, index);
    },
    [onOpenCell],
  );
  const cellKey = useCallback(
    (event: CellKeyDownEvent<SheetRow>) => {
      const keyboard = event.event;
      if (!(keyboard instanceof KeyboardEvent) || keyboard.key !== 'Enter') return;
      const index = endpointIndex(event.column.getColId());
      if (index !== null && event.data && event.data.cells[index]) onOpenCell(event.data, index);
    },
    [onOpenCell],
  );

  return (
    <SheetGridContext.Provider value={context}>
      <div data-testid="sheet-grid" aria-busy={loading} data-rows={page.rows.length} style={{ width: '100%' }}>
        <AgGridReact<SheetRow>
          rowData={page.rows}
          columnDefs={columnDefs}
          defaultColDef={{ cellDataType: false, resizable: true, suppressHeaderMenuButton: true, suppressMovable: true }}
          getRowId={(params) => String(params.data.strId)}
          theme={theme}
          context={context}
          loading={loading}
          suppressMultiSort
          // The page scrolls, not the grid: a click on a half-visible row's tick box must not scroll the
          // grid under the pointer (a cell taking focus scrolls its own viewport into view).
          domLayout="autoHeight"
          suppressColumnVirtualisation
          // Every row of the page in the DOM (at most 500): ticks, find-in-page and the keyboard reach them all.
          suppressRowVirtualisation
          ensureDomOrder
          enableCellTextSelection
          tooltipShowDelay={300}
          headerHeight={52}
          tooltipInteraction={false}
          onSortChanged={sortChanged}
          onCellClicked={cellClicked}
          onCellKeyDown={cellKey}
        />
      </div>
    </SheetGridContext.Provider>
  );
}
