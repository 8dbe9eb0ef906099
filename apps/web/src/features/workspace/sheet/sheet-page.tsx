import { Alert, Button, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconFolderPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { tabInfo } from '@kb/contracts/result-tabs';
import type { SheetPage as SheetPageData, SheetRow, SheetSource } from '@kb/contracts/sheet';
import { SHEET_PROPERTY_LABELS } from '@kb/contracts/sheet';
import { workspaceEndpoints } from '@kb/contracts/workspace';
import { errorMessage } from '../../../app/api-client.ts';
import { formatCount } from '../../../app/format/count-format.ts';
import { countNoun } from '../../../app/format/plural.ts';
import { endpointQuery } from '../../../app/query.ts';
import { EmptyState } from '../../../app/ui/query-view.tsx';
import { useMayOpen } from '../../../app/use-route-access.ts';
import type { MeasurementSubject } from '../../leaflets/use-measurements.ts';
import { MeasurementListDrawer } from '../../leaflets/measurement-list.tsx';
import { PaginationBar } from '../../results/grid/pagination-bar.tsx';
import { AddToCollectionDialog } from '../add-to-collection.tsx';
import { workspaceLink } from '../permanent-link.tsx';
import { useDrawingAlignment } from './alignment.tsx';
import { ColourLegend } from './colour-legend.tsx';
import { readPickedRows } from './picked-rows.ts';
import type { FilterableColumn } from './range-filter.tsx';
import { RangeFilters } from './range-filter.tsx';
import type { SheetConfig } from './sheet-config.ts';
import { INITIAL_SHEET_CONFIG, defaultEndpoints, setRangeFilter, withEndpoints } from './sheet-config.ts';
import { SheetExport } from './sheet-export.tsx';
import type { DrawingAlignment } from './sheet-cells.tsx';
import { SheetGrid } from './sheet-grid.tsx';
import { parseSheetSource } from './sheet-source.ts';
import { AggregateChoice, DifferenceBuilder, EndpointPicker, PropertyChoice } from './sheet-settings.tsx';
import { useSheetPage, useSheetSuggestions } from './use-sheet-data.ts';
import { toggleIds } from '../tick-set.ts';

/** /sheet?…: the compound × endpoint sheet of the source the address names (sheet-source.ts). */
export function SheetPage() {
  const [params] = useSearchParams();
  const parsed = useMemo(() => parseSheetSource(params, readPickedRows), [params]);
  if (!parsed.ok)
    return (
      <Stack gap="md" maw={720} data-testid="sheet-page">
        <Title order={2}>Compound sheet</Title>
        <Alert color="yellow" variant="light" role="alert" title="This sheet cannot open">
          <Text size="sm">{parsed.message}</Text>
          <Button component={Link} to="/workspace" size="xs" variant="light" mt="sm">
            Go to the workspace
          </Button>
        </Alert>
      </Stack>
    );
  // A new source starts a new sheet (its endpoints and choices are of other compounds).
  return <Sheet key={JSON.stringify(parsed.source)} source={parsed.source} />;
}

/** "Collection “Hits”", "the Structures tab of your search (20 ticked rows)". */
function SourceTitle({ source }: { source: SheetSource }) {
  const collection = useQuery({
    ...endpointQuery(workspaceEndpoints.collection, { params: { id: source.kind === 'collection' ? source.collectionId : 0 } }),
    enabled: source.kind === 'collection',
  });
  if (source.kind === 'collection')
    return (
      <Text size="sm" c="dimmed">
        Of the collection{' '}
        <Link to={workspaceLink('collection', source.collectionId)}>
          {collection.data ? `“${collection.data.name}”` : source.collectionId}
        </Link>
      </Text>
    );
  if (source.kind === 'ids')
    return (
      <Text size="sm" c="dimmed">
        Of {countNoun(source.strIds.length, 'structure')} named by id
      </Text>
    );
  const label = tabInfo(source.tab)?.label ?? source.tab;
  const picked = source.selection && (source.selection.selectAll || source.selection.selectedIds.length > 0);
  return (
    <Text size="sm" c="dimmed">
      Of the {label} tab of your search{picked ? ', the ticked rows' : ', every row as filtered'} ·{' '}
      <Link to={`/results/${source.tab}`}>back to the results</Link>
    </Text>
  );
}

function filterableColumns(page: SheetPageData | undefined, config: SheetConfig): FilterableColumn[] {
  const endpoints = (page?.columns ?? config.endpoints).map((column, index) => ({ value: `e${index}`, label: column.label }));
  const differences = (page?.differences ?? []).map((difference, index) => ({ value: `d${index}`, label: difference.label }));
  const properties = config.properties.map((key) => ({ value: key, label: SHEET_PROPERTY_LABELS[key] }));
  return [...endpoints, ...differences, ...properties];
}

function measurementSubject(row: SheetRow, page: SheetPageData, index: number): MeasurementSubject | null {
  const column = page.columns[index];
  if (!column) return null;
  const { endpoint } = column;
  return {
    idType: 'structure',
    id: row.strId,
    // An assay column lists that assay's measurements, whatever their target.
    targetId: endpoint.kind === 'target' ? endpoint.targetId : 'all',
    ...(endpoint.kind === 'assay' ? { assayId: endpoint.assayId } : {}),
    type: endpoint.activityType,
    label: `${row.name ?? `structure ${row.strId}`} on ${column.label}`,
  };
}

function Sheet({ source }: { source: SheetSource }) {
  const [config, setConfig] = useState<SheetConfig>(INITIAL_SHEET_CONFIG);
  const suggestions = useSheetSuggestions(source);
  const defaulted = useRef(false);
  // The sheet opens with the three most covered endpoints; once chosen, the user's choice holds.
  useEffect(() => {
    if (defaulted.current || !suggestions.data) return;
    defaulted.current = true;
    setConfig((current) => withEndpoints(current, defaultEndpoints(suggestions.data.targets, suggestions.data.assays)));
  }, [suggestions.data]);
  const ready = suggestions.isSuccess || suggestions.isError;
  const page = useSheetPage(source, config, ready);
  const [ticked, setTicked] = useState<Set<number>>(new Set());
  const [adding, setAdding] = useState(false);
  const [subject, setSubject] = useState<MeasurementSubject | null>(null);
  const mayExport = useMayOpen()('/export');
  const alignment = useDrawingAlignment(source);
  const { align } = alignment;

  const onTick = useCallback((strIds: number[], on: boolean) => setTicked((current) => toggleIds(current, strIds, on)), []);
  const onSort = useCallback(
    (column: string | null, direction: 'asc' | 'desc' | null) =>
      setConfig((current) => ({ ...current, sort: column && direction ? { column, direction } : null, page: 0 })),
    [],
  );
  const data = page.data;
  const onOpenCell = useCallback((row: SheetRow, index: number) => data && setSubject(measurementSubject(row, data, index)), [data]);

  return (
    <Stack gap="md" data-testid="sheet-page">
      <Stack gap={2}>
        <Title order={2}>Compound sheet</Title>
        <SourceTitle source={source} />
      </Stack>
      <div
        style={{
          display: 'grid',
          gridTemplateColumns: 'minmax(260px, 300px) minmax(0, 1fr)',
          gap: 'var(--mantine-spacing-md)',
          alignItems: 'start',
        }}
      >
        <Paper withBorder p="sm" radius="md" component="aside" aria-label="Sheet columns" data-testid="sheet-settings">
          <Stack gap="md">
            {suggestions.isError && (
              <Alert color="red" variant="light" title="The endpoints could not load">
                {errorMessage(suggestions.error)}
              </Alert>
            )}
            {suggestions.data ? (
              <>
                <EndpointPicker suggestions={suggestions.data} config={config} onChange={setConfig} />
                {suggestions.data.targets.length + suggestions.data.assays.length === 0 && (
                  <Text size="xs" c="dimmed">
                    No activity is measured for these compounds: the sheet shows their properties only.
                  </Text>
                )}
              </>
            ) : (
              !suggestions.isError && <Skeleton height={60} />
            )}
            <AggregateChoice config={config} onChange={setConfig} />
            <DifferenceBuilder config={config} onChange={setConfig} />
            <PropertyChoice config={config} onChange={setConfig} />
            {alignment.input}
          </Stack>
        </Paper>
        <Stack gap="sm" style={{ minWidth: 0 }}>
          <Group justify="space-between" gap="sm" wrap="wrap">
            <Group gap="sm" wrap="wrap">
              <Text size="sm" fw={600} data-testid="sheet-count" data-rows={data?.rowCount ?? ''} data-compounds={data?.compounds ?? ''}>
                {data
                  ? data.rowCount === data.compounds
                    ? countNoun(data.compounds, 'compound')
                    : `${formatCount(data.rowCount)} of ${countNoun(data.compounds, 'compound')}`
                  : 'Loading…'}
              </Text>
              <Text size="sm" c="dimmed" data-testid="sheet-ticked" data-value={ticked.size}>
                {formatCount(ticked.size)} ticked
              </Text>
              {ticked.size > 0 && (
                <Button size="compact-xs" variant="subtle" color="gray" onClick={() => setTicked(new Set())}>
                  Clear
                </Button>
              )}
              <Button
                size="xs"
                variant="default"
                leftSection={<IconFolderPlus size={14} />}
                disabled={ticked.size === 0}
                onClick={() => setAdding(true)}
                data-testid="sheet-add-to-collection"
              >
                Add to collection…
              </Button>
            </Group>
            {mayExport && data && <SheetExport source={source} config={config} rows={data.rowCount} />}
          </Group>
          <Group justify="space-between" gap="sm" wrap="wrap">
            <RangeFilters
              columns={filterableColumns(data, config)}
              filters={config.filters}
              onSet={(column, min, max) => setConfig((current) => setRangeFilter(current, column, min, max))}
            />
            <ColourLegend />
          </Group>
          <SheetBody
            page={page}
            config={config}
            setConfig={setConfig}
            ticked={ticked}
            onTick={onTick}
            onSort={onSort}
            onOpenCell={onOpenCell}
            align={align}
          />
        </Stack>
      </div>
      <AddToCollectionDialog
        source={adding ? { kind: 'ids', strIds: [...ticked] } : null}
        what={`the ${countNoun(ticked.size, 'ticked compound')}`}
        onClose={() => setAdding(false)}
      />
      <MeasurementListDrawer subject={subject} onClose={() => setSubject(null)} />
    </Stack>
  );
}

function SheetBody({
  page,
  config,
  setConfig,
  ticked,
  onTick,
  onSort,
  onOpenCell,
  align,
}: {
  page: ReturnType<typeof useSheetPage>;
  config: SheetConfig;
  setConfig: (update: (config: SheetConfig) => SheetConfig) => void;
  ticked: ReadonlySet<number>;
  onTick: (strIds: number[], on: boolean) => void;
  onSort: (column: string | null, direction: 'asc' | 'desc' | null) => void;
  onOpenCell: (row: SheetRow, index: number) => void;
  align: DrawingAlignment | null;
}) {
  if (page.isError && !page.data)
    return (
      <Alert color="red" variant="light" role="alert" title="The sheet could not load">
        <Text size="sm" mb="xs">
          {errorMessage(page.error)}
        </Text>
        <Button size="xs" variant="light" color="red" onClick={() => void page.refetch()}>
          Try again
        </Button>
      </Alert>
    );
  if (!page.data)
    return (
      <Stack gap={6} aria-busy="true" aria-label="Loading the sheet">
        {Array.from({ length: 6 }, (_, index) => (
          <Skeleton key={index} height={72} radius="sm" />
        ))}
      </Stack>
    );
  const data = page.data;
  if (data.compounds === 0)
    return <EmptyState>These results hold no compounds with a structure, so there is nothing to show as a sheet.</EmptyState>;
  return (
    <>
      {page.isError && (
        <Alert color="red" variant="light" role="alert">
          {errorMessage(page.error)} — showing the page loaded before.
        </Alert>
      )}
      {data.rowCount === 0 ? (
        <EmptyState>No compound is inside the range filters. Remove a filter above to see more.</EmptyState>
      ) : (
        <SheetGrid
          page={data}
          loading={page.isFetching}
          sort={config.sort}
          onSort={onSort}
          ticked={ticked}
          onTick={onTick}
          onOpenCell={onOpenCell}
          align={align}
        />
      )}
      <PaginationBar
        pageNumber={config.page}
        pageSize={config.pageSize}
        rowCount={data.rowCount}
        disabled={page.isFetching}
        onPage={(next) => setConfig((current) => ({ ...current, page: next }))}
        onPageSize={(size) => setConfig((current) => ({ ...current, pageSize: size, page: 0 }))}
      />
    </>
  );
}
