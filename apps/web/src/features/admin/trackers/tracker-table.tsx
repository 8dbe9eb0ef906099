import { Button, Group, Pagination, Text, UnstyledButton } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconArrowDown, IconArrowUp, IconArrowsSort, IconDownload } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { ReactNode } from 'react';
import { TRACKER_CSV_MAX_ROWS, TRACKER_SORTS, trackerEndpoints } from '@kb/contracts/admin-trackers';
import type { Tracker } from '@kb/contracts/admin-trackers';
import { downloadApi, errorMessage } from '../../../app/api-client.ts';
import { formatCount } from '../../../app/format/count-format.ts';
import { DataTable } from '../../../app/ui/data-table.tsx';
import type { DataColumn } from '../../../app/ui/data-table.tsx';
import { QueryView } from '../../../app/ui/query-view.tsx';
import { saveBlob } from '../../../app/ui/save-blob.ts';
import { TrackerFilters, useTrackerFilters } from './tracker-filters.tsx';
import type { TrackerFilterValues } from './tracker-filters.tsx';

const PAGE_SIZE = 50;

/** A column of a tracker; `sort` names the server's sort key when the column can be sorted. */
export interface TrackerColumn<Row> extends DataColumn<Row> {
  sort?: string;
}

export interface TrackerPage<Row> {
  rows: Row[];
  total: number;
  page: number;
  pageSize: number;
}

type Dir = 'asc' | 'desc';

/** What a tab's `load` receives: the filters with sort and paging. */
export interface TrackerListInput extends TrackerFilterValues {
  status?: string;
  outcome?: string;
  sort: string;
  dir: Dir;
  page: number;
  pageSize: number;
}

function SortHeader({ label, active, dir, onSort }: { label: ReactNode; active: boolean; dir: Dir; onSort: () => void }) {
  const Icon = !active ? IconArrowsSort : dir === 'asc' ? IconArrowUp : IconArrowDown;
  return (
    <UnstyledButton
      onClick={onSort}
      aria-label={`Sort by ${String(label)}`}
      fw={600}
      fz="sm"
      style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}
    >
      {label}
      <Icon size={14} aria-hidden />
    </UnstyledButton>
  );
}

/**
 * One tracker: its filters, a server-sorted and -paged table, and "Export CSV" of the filtered
 * rows (built on the server, at most 100,000 rows).
 */
export function TrackerTable<Row>({
  tracker,
  load,
  columns,
  rowKey,
  extraFilters,
  extraQuery,
  empty,
  minWidth,
}: {
  tracker: Tracker;
  /** Reads one page (the tab's typed call); `query` holds filters, sort and paging. */
  load: (query: TrackerListInput, signal: AbortSignal) => Promise<TrackerPage<Row>>;
  columns: readonly TrackerColumn<Row>[];
  rowKey: (row: Row) => number;
  /** Inputs for filters only this tracker has, and their query values. */
  extraFilters?: ReactNode;
  extraQuery?: Record<string, string>;
  empty: string;
  minWidth: number;
}) {
  const filters = useTrackerFilters();
  const [sort, setSort] = useState<string>(TRACKER_SORTS[tracker][0]);
  const [dir, setDir] = useState<Dir>('desc');
  const [page, setPage] = useState(1);
  const [exporting, setExporting] = useState(false);
  const filterValues: TrackerFilterValues | undefined = filters.values && { ...filters.values, ...extraQuery };
  const filterKey = JSON.stringify(filterValues ?? null);
  const [pagedFor, setPagedFor] = useState(filterKey);
  // A new filter starts at its first page.
  if (pagedFor !== filterKey) {
    setPagedFor(filterKey);
    setPage(1);
  }
  const listInput: TrackerListInput = { ...filterValues, sort, dir, page, pageSize: PAGE_SIZE };
  const query = useQuery({
    queryKey: ['trackers', tracker, listInput],
    queryFn: ({ signal }) => load(listInput, signal),
    enabled: filterValues !== undefined,
    placeholderData: keepPreviousData,
  });

  const onSort = (key: string) => {
    if (key === sort) setDir(dir === 'asc' ? 'desc' : 'asc');
    else {
      setSort(key);
      setDir(key === 'date' ? 'desc' : 'asc');
    }
    setPage(1);
  };
  const shown: DataColumn<Row>[] = columns.map((column) =>
    column.sort
      ? {
          ...column,
          header: <SortHeader label={column.header} active={sort === column.sort} dir={dir} onSort={() => onSort(column.sort!)} />,
        }
      : column,
  );

  const exportCsv = async () => {
    if (!filterValues) return;
    setExporting(true);
    try {
      const blob = await downloadApi(trackerEndpoints.csv, { params: { tracker }, query: { ...filterValues, sort, dir } });
      saveBlob(blob, `trackers-${tracker}-${new Date().toISOString().slice(0, 10)}.csv`);
    } catch (error) {
      notifications.show({ color: 'red', title: 'The CSV could not be exported', message: errorMessage(error) });
    } finally {
      setExporting(false);
    }
  };
  const total = query.data?.total ?? 0;

  return (
    <>
      <TrackerFilters state={filters}>{extraFilters}</TrackerFilters>
      <Group justify="space-between" mb="xs">
        <Text size="sm" c="dimmed" aria-live="polite" data-testid={`${tracker}-total`}>
          {query.data ? `${formatCount(total)} ${total === 1 ? 'row' : 'rows'}` : ''}
        </Text>
        <Button
          variant="light"
          leftSection={<IconDownload size={16} />}
          onClick={() => void exportCsv()}
          loading={exporting}
          disabled={!filterValues || total === 0}
          title={`The filtered rows, at most ${formatCount(TRACKER_CSV_MAX_ROWS)}`}
        >
          Export CSV
        </Button>
      </Group>
      <QueryView query={query} keepsPrevious isEmpty={(data) => data.rows.length === 0} empty={empty}>
        {(data) => (
          <>
            <DataTable
              columns={shown}
              rows={data.rows}
              rowKey={rowKey}
              minWidth={minWidth}
              testId={`${tracker}-table`}
              rowData={(row) => ({ 'data-row-id': rowKey(row) })}
            />
            {data.total > PAGE_SIZE && (
              <Group justify="center" mt="md">
                <Pagination total={Math.ceil(data.total / PAGE_SIZE)} value={page} onChange={setPage} aria-label={`${tracker} pages`} />
              </Group>
            )}
          </>
        )}
      </QueryView>
    </>
  );
}
