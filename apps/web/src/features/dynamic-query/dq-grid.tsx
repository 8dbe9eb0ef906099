import '../results/grid/ag-grid-setup.ts';
import type { ColDef, SortChangedEvent } from 'ag-grid-community';
import { AgGridReact } from 'ag-grid-react';
import { useCallback, useMemo } from 'react';
import type { DqColumnInfo, DqRunResponse, DqSort } from '@kb/contracts/dynamic-query';
import { resultsGridTheme } from '../results/grid/ag-grid-setup.ts';
import { gridHeight } from '../results/grid/grid-layout.ts';

type Row = DqRunResponse['rows'][number];

const ROW_HEIGHT = 34;

function columnDef(column: DqColumnInfo, sort: DqSort | null | undefined): ColDef<Row> {
  const numeric = column.type === 'number' || column.type === 'integer';
  return {
    colId: column.key,
    field: column.key,
    headerName: column.label,
    headerTooltip: `${column.label} (${column.type})`,
    sortable: true,
    sort: sort?.column === column.key ? sort.direction : null,
    type: numeric ? 'rightAligned' : undefined,
    valueFormatter: column.type === 'boolean' ? (params) => (params.value === null || params.value === undefined ? '' : params.value ? 'yes' : 'no') : undefined,
    tooltipValueGetter: column.type === 'text' ? (params) => (params.value == null ? null : String(params.value)) : undefined,
    minWidth: numeric ? 100 : 140,
    flex: column.type === 'text' ? 1 : undefined,
  };
}

/**
 * One page of a dynamic query in AG Grid, as the results grid shows a tab: the server pages and
 * sorts, the grid holds just the page and reports a header click as the new sort.
 */
export function DqGrid({ columns, rows, loading, sort, onSortChange }: { columns: DqColumnInfo[]; rows: Row[]; loading: boolean; sort: DqSort | null | undefined; onSortChange: (sort: DqSort | null) => void }) {
  const columnDefs = useMemo(() => columns.map((column) => columnDef(column, sort)), [columns, sort]);
  const sortChanged = useCallback(
    (event: SortChangedEvent<Row>) => {
      if (event.source !== 'uiColumnSorted') return;
      const sorted = event.api.getColumnState().find((state) => state.sort);
      onSortChange(sorted?.sort ? { column: sorted.colId, direction: sorted.sort } : null);
    },
    [onSortChange],
  );
  const theme = useMemo(() => resultsGridTheme.withParams({ rowHeight: ROW_HEIGHT }), []);
  return (
    <div data-testid="dq-grid" aria-busy={loading} style={{ width: '100%', height: gridHeight(rows.length, ROW_HEIGHT) }}>
      <AgGridReact<Row>
        rowData={rows}
        columnDefs={columnDefs}
        defaultColDef={{ cellDataType: false, resizable: true, suppressHeaderMenuButton: true }}
        theme={theme}
        loading={loading}
        suppressColumnVirtualisation
        suppressRowVirtualisation
        suppressMultiSort
        onSortChanged={sortChanged}
        tooltipShowDelay={400}
      />
    </div>
  );
}
