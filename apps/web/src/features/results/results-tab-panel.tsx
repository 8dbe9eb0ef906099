import { Group, Skeleton, Stack, Text } from '@mantine/core';
import { IconCloudOff } from '@tabler/icons-react';
import { useCallback, useMemo, useState } from 'react';
import type { ResultTabKey } from '@kb/contracts/result-tabs';
import { tabInfo } from '@kb/contracts/result-tabs';
import type { ResultRow, ResultsSession } from '@kb/contracts/results';
import { SIMILARITY_COLUMN } from '@kb/contracts/results';
import type { ResultsScope } from './results-store.ts';
import { useResultsStore } from './results-store.ts';
import { useMayOpen } from '../../app/use-route-access.ts';
import { EmptyState, QueryErrorAlert } from '../../app/ui/query-view.tsx';
import { ColumnChooser } from './grid/column-chooser.tsx';
import type { ResultsGridContextValue } from './grid/grid-context.ts';
import { InnerGridsDrawer } from './grid/inner-grids-drawer.tsx';
import { PaginationBar } from './grid/pagination-bar.tsx';
import { ResultsGrid } from './grid/results-grid.tsx';
import { useTabColumns } from './grid/use-tab-columns.ts';
import { useGotoTab, useNewSearchBySelection, useViewAll } from './selection/use-selection-actions.ts';
import { EMPTY_SELECTION, selectedCount } from './tab-state.ts';
import { DensityControl } from './toolbar/density-control.tsx';
import { GotoBanner } from './toolbar/goto-banner.tsx';
import { SarEntry } from './toolbar/sar-entry.tsx';
import { SelectionToolbar } from './toolbar/selection-toolbar.tsx';
import { SimilaritySortControl } from './toolbar/similarity-sort-control.tsx';
import { useSimilaritySort } from './toolbar/use-similarity-sort.ts';
import { useTabView } from './use-tab-view.ts';
import { idOf } from './grid/result-columns.ts';
import type { MeasurementRequest } from './results-slots.tsx';
import { useResultsSlots } from './results-slots.tsx';

export interface ResultsTabPanelProps {
  scope: ResultsScope;
  sessionId: string;
  tab: ResultTabKey;
  /** What the search's structure rows mean here: a similarity score to show, a substructure to highlight. */
  structureQuery: ResultsSession['structureQuery'];
}

/** Spec §8: a failed refresh is not an error page; the previous rows stay, with this note. */
function RefreshFailedNote() {
  return (
    <Group gap={6} c="dimmed" data-testid="refresh-failed" role="status">
      <IconCloudOff size={14} />
      <Text size="xs">Could not refresh this tab; showing the rows loaded before.</Text>
    </Group>
  );
}

/** One results tab: its tools (similarity sort, columns, selection), the grid of one page and the pager. */
export function ResultsTabPanel({ scope, sessionId, tab, structureQuery }: ResultsTabPanelProps) {
  const view = useTabView(scope, sessionId, tab);
  const { state, update } = view;
  const columns = useTabColumns(tab, state.similarity?.status === true, structureQuery.similarity);
  const density = useResultsStore((store) => store.density);
  const { highlight } = structureQuery;
  const similarity = useSimilaritySort(sessionId, tab, state, update);
  const tabRef = { scope, sessionId, tab, state, update };
  const newSearch = useNewSearchBySelection(tabRef);
  const goto = useGotoTab(tabRef);
  const viewAll = useViewAll({ sessionId, tab, update });
  const [detailRow, setDetailRow] = useState<ResultRow | null>(null);
  const { selectionTools, resultsTools, MeasurementDrawer } = useResultsSlots();
  const [measurementSubject, setMeasurementSubject] = useState<MeasurementRequest | null>(null);
  // An activity row stands for its compound and target: the list of every measurement of the pair.
  const openMeasurements = useCallback((row: ResultRow) => {
    const actId = idOf(row.act_id);
    if (actId !== null)
      setMeasurementSubject({ actId, label: typeof row.protein === 'string' ? `this compound on ${row.protein}` : 'this compound' });
  }, []);
  const idColumn = tabInfo(tab)?.idColumn ?? 'id';
  // The export page reads this tab's selection and "go to" from the results store; a new search by
  // selection tells it which results to read.
  const exportTo = useMayOpen()('/export/:tabid') ? `/export/${tab}${scope === 'selection' ? '?from=selection' : ''}` : null;

  const context: ResultsGridContextValue = useMemo(
    () => ({
      scope,
      sessionId,
      tab,
      idColumn,
      rowCount: view.rowCount,
      updateTab: update,
      openDetails: setDetailRow,
      openMeasurements,
      density,
      highlight,
    }),
    [scope, sessionId, tab, idColumn, view.rowCount, update, openMeasurements, density, highlight],
  );
  const count = selectedCount(state.selection, view.rowCount);
  const canSortBySimilarity = columns.columns.some((column) => column.key === SIMILARITY_COLUMN);

  if (columns.error)
    return <QueryErrorAlert title="The columns of this tab could not load" error={columns.error} onRetry={columns.retry} />;

  return (
    <Stack gap="sm" data-testid="results-tab" data-tab={tab}>
      <Group justify="space-between" gap="sm" wrap="wrap">
        <SelectionToolbar
          tab={tab}
          selection={state.selection}
          count={count}
          searching={newSearch.running}
          going={goto.running}
          onClear={() => update((current) => ({ ...current, selection: EMPTY_SELECTION }))}
          onNewSearch={() => void newSearch.start()}
          onGoto={(toTab) => void goto.goto(toTab)}
          exportTo={exportTo}
        />
        <Group gap="xs">
          <SarEntry scope={scope} sessionId={sessionId} tab={tab} state={state} count={count} />
          {selectionTools.map((Tool, index) => (
            <Tool key={index} tab={tab} sessionId={sessionId} state={state} count={count} rowCount={view.rowCount} />
          ))}
          {resultsTools.map((Tool, index) => (
            <Tool key={index} scope={scope} tab={tab} sessionId={sessionId} state={state} count={count} rowCount={view.rowCount} />
          ))}
          {canSortBySimilarity && (
            <SimilaritySortControl
              similarity={state.similarity}
              error={similarity.error}
              applying={similarity.applying}
              onApply={similarity.apply}
              onClear={similarity.clear}
              onInput={similarity.clearError}
            />
          )}
          <DensityControl />
          <ColumnChooser
            columns={columns.columns}
            onToggle={columns.toggle}
            onReset={() => void columns.reset()}
            resetting={columns.resetting}
          />
        </Group>
      </Group>
      {state.goto && <GotoBanner goto={state.goto} running={viewAll.running} onViewAll={() => void viewAll.viewAll()} />}
      {view.refreshFailed && <RefreshFailedNote />}
      {columns.pending || view.pending ? (
        <Stack gap={6} aria-busy="true" aria-label="Loading the rows">
          {Array.from({ length: 6 }, (_, index) => (
            <Skeleton key={index} height={32} radius="sm" />
          ))}
        </Stack>
      ) : view.empty || (!view.page && view.refreshFailed) ? (
        <EmptyState>{view.empty ? 'No rows in this tab' : 'This tab could not be loaded.'}</EmptyState>
      ) : (
        <>
          <ResultsGrid
            context={context}
            columns={columns.columns}
            rows={view.page?.data ?? []}
            loading={view.fetching}
            sort={view.sort}
            onSortChange={view.setSort}
          />
          <PaginationBar
            pageNumber={state.pageNumber}
            pageSize={state.pageSize}
            rowCount={view.rowCount}
            disabled={view.fetching}
            onPage={view.setPage}
            onPageSize={view.setPageSize}
          />
        </>
      )}
      {MeasurementDrawer && <MeasurementDrawer subject={measurementSubject} onClose={() => setMeasurementSubject(null)} />}
      <InnerGridsDrawer
        row={detailRow}
        title={`Details of ${tabInfo(tab)?.entity ?? 'row'} ${detailRow?.[idColumn] ?? ''}`}
        onClose={() => setDetailRow(null)}
      />
    </Stack>
  );
}
