import { Alert, Badge, Button, Card, Checkbox, Grid, Group, SegmentedControl, Select, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconPlayerPlay } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import type { DqEntityInfo, DqQuery, DqSort } from '@kb/contracts/dynamic-query';
import { DQ_LIMITS, dqQueryProblem, dynamicQueryEndpoints } from '@kb/contracts/dynamic-query';
import { PAGE_SIZES } from '@kb/contracts/result-tabs';
import { formatCount } from '../../app/format/count-format.ts';
import { endpointQuery } from '../../app/query.ts';
import { PageHeader } from '../../app/ui/page-header.tsx';
import { EmptyState, QueryErrorAlert, QueryView } from '../../app/ui/query-view.tsx';
import { useMayOpen } from '../../app/use-route-access.ts';
import { PaginationBar } from '../results/grid/pagination-bar.tsx';
import type { QueryDraft } from './dq-draft.ts';
import { draftForEntity, draftFromQuery, toQuery } from './dq-draft.ts';
import { DqExport } from './dq-export.tsx';
import { DqGrid } from './dq-grid.tsx';
import { useMeasurementList } from '../leaflets/measurement-list.tsx';
import { FilterBuilder } from './filter-builder.tsx';
import { SavedQueries } from './saved-queries.tsx';
import { TYPE_LABELS } from './type-labels.ts';

/**
 * The dynamic query (spec §2 `/dynamicquery`, docs/dynamic-query.md): a table query over the
 * knowledge base — a table, its columns, typed filters and a sort — with the rows in a grid paged
 * on the server, saved queries and the export through the export jobs and credits.
 */
export function DynamicQueryPage() {
  const tables = useQuery(endpointQuery(dynamicQueryEndpoints.getTableColumns, { body: {} }));
  return (
    <Stack gap="md">
      <PageHeader
        title="Dynamic query"
        description="Query a table of the knowledge base directly: choose a table and its columns, filter on any column by its type, sort, and export the rows."
      />
      <QueryView query={tables} isEmpty={(data) => data.entities.length === 0} empty="No tables to query." skeletonRows={6}>
        {(data) => <QueryWorkspace entities={data.entities} />}
      </QueryView>
    </Stack>
  );
}

interface Applied {
  query: DqQuery;
  page: number;
  pageSize: number;
}

function QueryWorkspace({ entities }: { entities: DqEntityInfo[] }) {
  const [draft, setDraft] = useState<QueryDraft>(() => draftForEntity(entities[0]!));
  const [applied, setApplied] = useState<Applied | null>(null);
  const mayOpen = useMayOpen();
  const mayExport = mayOpen('/export');
  // The page is open to every logged-in role; measurement lists are the leaflets' (search roles).
  const measurements = useMeasurementList();
  const openMeasurements = mayOpen('/leaflet/:idType/:id') ? measurements.open : null;
  const entity = entities.find((e) => e.key === draft.entity) ?? entities[0]!;
  const query = useMemo(() => toQuery(draft, entity), [draft, entity]);
  const problem = dqQueryProblem(query);

  const run = (next: Partial<Applied> = {}) => setApplied((current) => ({ query, page: 0, pageSize: current?.pageSize ?? 25, ...next }));
  const result = useQuery({
    ...endpointQuery(dynamicQueryEndpoints.run, {
      body: applied
        ? { ...applied.query, page: applied.page, pageSize: applied.pageSize }
        : { entity: '', columns: [], filters: [], page: 0, pageSize: 25 },
    }),
    enabled: applied !== null,
    // Paging keeps the previous page in the grid (greyed) until the next arrives.
    placeholderData: keepPreviousData,
  });
  const setSort = (sort: DqSort | null) => {
    setDraft((d) => ({ ...d, sort }));
    if (applied) setApplied({ ...applied, query: { ...applied.query, sort }, page: 0 });
  };
  const appliedEntity = applied ? entities.find((e) => e.key === applied.query.entity) : undefined;

  return (
    <Grid gap="md">
      <Grid.Col span={{ base: 12, lg: 8 }}>
        <Card withBorder radius="md" padding="md">
          <form
            onSubmit={(event) => {
              event.preventDefault();
              if (!problem) run();
            }}
          >
            <Stack gap="md">
              <Select
                label="Table"
                data={entities.map((e) => ({ value: e.key, label: e.label }))}
                value={entity.key}
                allowDeselect={false}
                onChange={(key) => {
                  const next = entities.find((e) => e.key === key);
                  if (next) setDraft(draftForEntity(next));
                }}
                w={260}
                data-testid="dq-entity"
              />
              <Checkbox.Group
                label={`Columns (${draft.columns.length} of ${entity.columns.length}; at most ${DQ_LIMITS.maxColumns})`}
                value={draft.columns}
                onChange={(columns) => setDraft((d) => ({ ...d, columns }))}
              >
                <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing={6} mt={6} data-testid="dq-columns">
                  {entity.columns.map((column) => (
                    <Checkbox
                      key={column.key}
                      value={column.key}
                      size="xs"
                      label={
                        <Group gap={6} wrap="nowrap">
                          <span>{column.label}</span>
                          <Badge size="xs" variant="light" color="gray">
                            {TYPE_LABELS[column.type]}
                          </Badge>
                        </Group>
                      }
                    />
                  ))}
                </SimpleGrid>
              </Checkbox.Group>
              <div>
                <Title order={3} size="sm" mb={6}>
                  Filters
                </Title>
                <FilterBuilder entity={entity} filters={draft.filters} onChange={(filters) => setDraft((d) => ({ ...d, filters }))} />
              </div>
              <Group gap="xs" align="flex-end" wrap="wrap">
                <Select
                  label="Sort by"
                  size="xs"
                  placeholder={`${entity.columns[0]!.label} (default)`}
                  data={entity.columns.map((c) => ({ value: c.key, label: c.label }))}
                  value={draft.sort?.column ?? null}
                  clearable
                  searchable
                  onChange={(column) =>
                    setDraft((d) => ({ ...d, sort: column ? { column, direction: d.sort?.direction ?? 'asc' } : null }))
                  }
                  w={230}
                  data-testid="dq-sort-column"
                />
                <SegmentedControl
                  size="xs"
                  aria-label="Sort direction"
                  data={[
                    { value: 'asc', label: 'Ascending' },
                    { value: 'desc', label: 'Descending' },
                  ]}
                  value={draft.sort?.direction ?? 'asc'}
                  disabled={!draft.sort}
                  onChange={(direction) =>
                    setDraft((d) => (d.sort ? { ...d, sort: { ...d.sort, direction: direction as 'asc' | 'desc' } } : d))
                  }
                  data-testid="dq-sort-direction"
                />
                <Button
                  type="submit"
                  leftSection={<IconPlayerPlay size={16} />}
                  disabled={problem !== null}
                  loading={result.isFetching}
                  data-testid="dq-run"
                >
                  Run query
                </Button>
              </Group>
              {problem && draft.columns.length > 0 && (
                <Text size="sm" c="orange" role="status" data-testid="dq-problem">
                  {problem.message}
                </Text>
              )}
            </Stack>
          </form>
        </Card>
      </Grid.Col>
      <Grid.Col span={{ base: 12, lg: 4 }}>
        <Card withBorder radius="md" padding="md">
          <Title order={3} size="sm" mb="xs">
            Saved queries
          </Title>
          <SavedQueries
            current={problem ? null : query}
            onOpen={(saved) => {
              setDraft(draftFromQuery(saved.query));
              setApplied((current) => ({ query: saved.query, page: 0, pageSize: current?.pageSize ?? 25 }));
            }}
          />
        </Card>
      </Grid.Col>
      <Grid.Col span={12}>
        {!applied ? (
          <EmptyState>Choose a table, its columns and any filters, then run the query.</EmptyState>
        ) : result.isError ? (
          <QueryErrorAlert title="The query could not run" error={result.error} onRetry={() => void result.refetch()} />
        ) : !result.data ? (
          <Text size="sm" c="dimmed" aria-busy="true">
            Running the query…
          </Text>
        ) : (
          <Stack gap="sm" data-testid="dq-results">
            <Text size="sm" fw={600} data-testid="dq-row-count" data-rows={result.data.rowCount} aria-live="polite">
              {result.data.rowCountCapped
                ? `More than ${formatCount(result.data.rowCount)} rows`
                : `${formatCount(result.data.rowCount)} ${result.data.rowCount === 1 ? 'row' : 'rows'}`}{' '}
              in {appliedEntity?.label ?? applied.query.entity}
            </Text>
            {result.data.rowCount === 0 ? (
              <Alert color="gray" variant="light">
                No row of this table meets these filters.
              </Alert>
            ) : (
              <>
                <DqGrid
                  columns={result.data.columns}
                  rows={result.data.rows}
                  loading={result.isFetching}
                  sort={applied.query.sort}
                  onSortChange={setSort}
                  entity={applied.query.entity}
                  onOpenMeasurements={openMeasurements}
                />
                <PaginationBar
                  pageNumber={applied.page}
                  pageSize={applied.pageSize}
                  rowCount={Math.min(result.data.rowCount, (DQ_LIMITS.maxPage + 1) * applied.pageSize)}
                  disabled={result.isFetching}
                  onPage={(page) => setApplied({ ...applied, page })}
                  onPageSize={(pageSize) =>
                    setApplied({ ...applied, page: 0, pageSize: PAGE_SIZES.includes(pageSize as never) ? pageSize : 25 })
                  }
                />
                {mayExport ? (
                  <DqExport
                    query={applied.query}
                    rows={result.data.rowCount}
                    capped={result.data.rowCountCapped}
                    hasStructure={appliedEntity?.hasStructure ?? false}
                  />
                ) : (
                  <Text size="xs" c="dimmed">
                    Exports are part of the full and download-evaluation subscriptions.
                  </Text>
                )}
              </>
            )}
          </Stack>
        )}
        {measurements.drawer}
      </Grid.Col>
    </Grid>
  );
}
