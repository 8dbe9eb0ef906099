import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import type { ExportFormat } from '@kb/contracts/exports';
import { exportEndpoints } from '@kb/contracts/exports';
import type { ResultTabKey } from '@kb/contracts/result-tabs';
import { endpointQuery } from '../../app/query.ts';
import type { ResultsScope } from '../results/results-store.ts';
import { selectTabState, useResultsStore } from '../results/results-store.ts';
import { columnsQuery } from '../results/results-queries.ts';
import type { RowsChoice } from './export-scope.ts';
import { defaultExportColumns, defaultRowsChoice, exportScopeOf, exportableColumns, hasSelection, toggleColumn } from './export-scope.ts';

/**
 * What the user chose for an export, per tab: rows, columns and format. A tab the user has not
 * touched starts from what its grid shows (its selection, its visible columns). The choices live
 * in this page's state, so a refused export (a short balance) loses none of them.
 */
export function useExportDraft(source: ResultsScope, sessionId: string, tab: ResultTabKey) {
  const tabState = useResultsStore((store) => selectTabState(store, source, sessionId, tab));
  const columnChoices = useResultsStore((store) => store.columnChoices[tab]);
  const metadataQuery = useQuery(columnsQuery(false));

  const [rowsByTab, setRowsByTab] = useState<Partial<Record<ResultTabKey, RowsChoice>>>({});
  const [columnsByTab, setColumnsByTab] = useState<Partial<Record<ResultTabKey, string[]>>>({});
  const [format, setFormat] = useState<ExportFormat>('csv');

  const columns = useMemo(
    () => exportableColumns(metadataQuery.data?.tabs.find((entry) => entry.tab === tab)?.columns ?? []),
    [metadataQuery.data, tab],
  );
  const defaults = useMemo(() => defaultExportColumns(columns, columnChoices), [columns, columnChoices]);
  const chosenColumns = columnsByTab[tab] ?? defaults;

  const selectionExists = hasSelection(tabState.selection);
  // A selection cleared in the grid since the user chose "selected" falls back to the whole tab.
  const rows: RowsChoice = selectionExists ? (rowsByTab[tab] ?? defaultRowsChoice(tabState.selection)) : 'all';

  const scope = useMemo(() => exportScopeOf(sessionId, tab, rows, tabState), [sessionId, tab, rows, tabState]);
  const costQuery = useQuery({
    ...endpointQuery(exportEndpoints.exportDataCount, { body: scope }),
    // The balance moves with every export: always ask again; keep the last figures on screen meanwhile.
    staleTime: 0,
    placeholderData: keepPreviousData,
  });

  const setColumns = (next: string[]) => setColumnsByTab((current) => ({ ...current, [tab]: next }));
  return {
    tabState,
    selectionExists,
    rows,
    setRows: (choice: RowsChoice) => setRowsByTab((current) => ({ ...current, [tab]: choice })),
    format,
    setFormat,
    metadataQuery,
    columns,
    chosenColumns,
    toggleColumn: (key: string, on: boolean) => setColumns(toggleColumn(columns, chosenColumns, key, on)),
    allColumns: () => setColumns(columns.map((column) => column.key)),
    noColumns: () => setColumns([]),
    defaultColumns: () => setColumnsByTab((current) => ({ ...current, [tab]: undefined })),
    scope,
    costQuery,
  };
}

export type ExportDraft = ReturnType<typeof useExportDraft>;
