import '../../../app/grid/ag-grid-setup.ts';
import type { CellKeyDownEvent, GetRowIdParams, SortChangedEvent } from 'ag-grid-community';
import { AgGridReact } from 'ag-grid-react';
import { useCallback, useMemo } from 'react';
import type { ResultRow, SortOrder } from '@kb/contracts/results';
import { resultsGridTheme } from '../../../app/grid/ag-grid-setup.ts';
import { buildColumnDefs } from './column-defs.ts';
import { gridHeight, rowHeightOf } from './grid-layout.ts';
import type { ResultsGridContextValue } from './grid-context.ts';
import { ResultsGridContext } from './grid-context.ts';
import type { ShownColumn } from './result-columns.ts';

export interface ResultsGridProps {
  context: ResultsGridContextValue;
  columns: readonly ShownColumn[];
  rows: ResultRow[];
  loading: boolean;
  sort: SortOrder | null;
  onSortChange: (sort: SortOrder | null) => void;
}

/** The sort the user set by clicking a header (one column at a time). */
function headerSort(event: SortChangedEvent<ResultRow>): SortOrder | null {
  const sorted = event.api.getColumnState().find((state) => state.sort);
  return sorted?.sort ? { column: sorted.colId, direction: sorted.sort } : null;
}

/**
 * Enter or Space on a focused cell acts on what the cell holds (a tick box, a link, a button), so
 * the grid can be used with the keyboard alone: arrows move between cells, Enter opens.
 */
function activateCell(event: CellKeyDownEvent<ResultRow>): void {
  const keyboard = event.event;
  if (!(keyboard instanceof KeyboardEvent) || (keyboard.key !== 'Enter' && keyboard.key !== ' ')) return;
  const cell = keyboard.target instanceof HTMLElement ? keyboard.target.closest('.ag-cell') : null;
  const control = cell?.querySelector<HTMLElement>('input[type="checkbox"], a[href], button');
  if (!control || control === keyboard.target) return;
  keyboard.preventDefault();
  control.click();
}

/**
 * One page of a results tab in AG Grid (Community, client-side row model holding just that page):
 * paging and sorting happen on the server, the grid shows the page and reports header sorts. The
 * grid scrolls inside a viewport about a screen high, so its header stays in sight and the id and
 * structure columns stay pinned on the left while the others scroll sideways.
 */
export function ResultsGrid({ context, columns, rows, loading, sort, onSortChange }: ResultsGridProps) {
  const { idColumn, density } = context;
  const columnDefs = useMemo(() => buildColumnDefs(columns, sort, { density, idColumn }), [columns, sort, density, idColumn]);
  const hasStructure = columns.some((column) => column.visible && column.type === 'structure');
  const rowHeight = rowHeightOf(density, hasStructure);
  const theme = useMemo(() => resultsGridTheme.withParams({ rowHeight }), [rowHeight]);
  const getRowId = useCallback(
    (params: GetRowIdParams<ResultRow>) => String(params.data[idColumn] ?? JSON.stringify(params.data)),
    [idColumn],
  );
  const sortChanged = useCallback(
    (event: SortChangedEvent<ResultRow>) => {
      // Only the user's clicks: column updates from new props also announce a sort change.
      if (event.source === 'uiColumnSorted') onSortChange(headerSort(event));
    },
    [onSortChange],
  );

  return (
    <ResultsGridContext.Provider value={context}>
      <div
        data-testid="results-grid"
        data-density={density}
        aria-busy={loading}
        style={{ width: '100%', height: gridHeight(rows.length, rowHeight) }}
      >
        <AgGridReact<ResultRow>
          rowData={rows}
          columnDefs={columnDefs}
          defaultColDef={{ cellDataType: false, resizable: true, suppressHeaderMenuButton: true }}
          getRowId={getRowId}
          // The row height is the theme's, so text cells centre their line in it as drawings do.
          theme={theme}
          // A page holds at most a few dozen columns: all of them in the DOM keeps every cell
          // reachable by find-in-page, screen readers and the keyboard, at no real cost.
          suppressColumnVirtualisation
          // Likewise its rows (at most a page, as the grid showed them all before it scrolled inside).
          suppressRowVirtualisation
          loading={loading}
          suppressMultiSort
          suppressDragLeaveHidesColumns
          ensureDomOrder
          enableCellTextSelection
          tooltipShowDelay={400}
          onSortChanged={sortChanged}
          onCellKeyDown={activateCell}
        />
      </div>
    </ResultsGridContext.Provider>
  );
}
