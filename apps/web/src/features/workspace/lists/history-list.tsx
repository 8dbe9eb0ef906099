import { Alert, Button, Group, Stack, Text, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDeviceFloppy, IconHistory } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import type { HistoryEntry } from '@kb/contracts/workspace';
import { HISTORY_LIMIT, workspaceEndpoints } from '@kb/contracts/workspace';
import { callApi, errorMessage } from '../../../app/api-client.ts';
import { formatCount } from '../../../app/format/count-format.ts';
import { formatDateTime } from '../../../app/format/display-format.ts';
import type { DataColumn } from '../../../app/ui/data-table.tsx';
import { DataTable } from '../../../app/ui/data-table.tsx';
import { QueryView } from '../../../app/ui/query-view.tsx';
import { describeFilter } from '../../results/charts/chart-filters.ts';
import { describeSearch } from '../../search/saved/search-summary.ts';
import { NameDialog } from '../name-dialog.tsx';
import { ToastLink, workspaceLink } from '../permanent-link.tsx';
import { RESTORE_STEP_TEXT, useRestore } from '../restore/use-restore.ts';
import { refreshResultSets, useHistory } from '../workspace-queries.ts';

function summaryOf(entry: HistoryEntry): string {
  return entry.summary ?? (entry.criteria ? describeSearch(entry.criteria) : 'Search');
}

/** A history entry as a saved result set: its search and filters, opening on Structures with the page's default view. */
function useSaveEntry() {
  return useMutation({
    mutationFn: ({ entry, name }: { entry: HistoryEntry; name: string }) => {
      if (!entry.criteria) throw new Error('This search does not say what was searched, so it cannot be saved.');
      return callApi(workspaceEndpoints.saveResultSet, {
        body: {
          name,
          description: '',
          state: {
            scope: entry.kind,
            tab: 'structuretab',
            criteria: entry.criteria,
            summary: entry.summary?.slice(0, 2000) ?? null,
            filters: entry.filters,
            counts: entry.counts,
            view: {},
          },
        },
      });
    },
    onSuccess: (saved) => {
      void refreshResultSets();
      notifications.show({
        color: 'teal',
        title: 'Result set saved',
        message: (
          <Text size="sm">
            “{saved.name}” is kept at{' '}
            <ToastLink to={workspaceLink('resultSet', saved.id)} testId="saved-set-link">
              {workspaceLink('resultSet', saved.id)}
            </ToastLink>
          </Text>
        ),
      });
    },
    onError: (error) =>
      notifications.show({ color: 'red', title: 'The result set was not saved', message: errorMessage(error), autoClose: false }),
  });
}

/** The user's last searches (newest first) with their counts and filters; each restorable with its filters, or kept by name. */
export function HistoryList() {
  const query = useHistory();
  const { restore, step, error } = useRestore();
  const [restoring, setRestoring] = useState<string | null>(null);
  const [saving, setSaving] = useState<HistoryEntry | null>(null);
  const save = useSaveEntry();

  const run = async (entry: HistoryEntry) => {
    if (!entry.criteria) return;
    setRestoring(entry.sessionid);
    await restore({ scope: entry.kind, criteria: entry.criteria, summary: entry.summary, filters: entry.filters }, 'structuretab');
    setRestoring(null);
  };

  const columns: DataColumn<HistoryEntry>[] = [
    { key: 'when', header: 'When', cell: (row) => formatDateTime(row.createdAt), cellProps: { style: { whiteSpace: 'nowrap' } } },
    {
      key: 'search',
      header: 'Search',
      cell: (row) => (
        <Text size="sm" lineClamp={2} title={summaryOf(row)}>
          {row.kind === 'selection' ? 'By selection: ' : ''}
          {summaryOf(row)}
        </Text>
      ),
      cellProps: { miw: 220, maw: 420 },
    },
    {
      key: 'counts',
      header: 'Found',
      cell: (row) =>
        row.counts ? `${formatCount(row.counts.stridscount)} structures · ${formatCount(row.counts.actidscount)} activities` : '—',
      cellProps: { miw: 150 },
    },
    {
      key: 'filters',
      header: 'Chart filters',
      cell: (row) =>
        row.filters.length === 0 ? (
          <Text size="sm" c="dimmed">
            none
          </Text>
        ) : (
          <Text size="xs" lineClamp={2} title={row.filters.map((filter) => describeFilter(filter)).join('; ')}>
            {row.filters.map((filter) => describeFilter(filter)).join('; ')}
          </Text>
        ),
      cellProps: { miw: 170, maw: 280 },
    },
    {
      key: 'actions',
      header: '',
      cell: (row) => (
        <Group gap={4} wrap="nowrap" justify="flex-end">
          <Tooltip label="Runs the search again and applies its chart filters" disabled={!row.criteria}>
            <Button
              size="compact-xs"
              variant="light"
              leftSection={<IconHistory size={12} />}
              disabled={!row.criteria || (restoring !== null && restoring !== row.sessionid)}
              loading={restoring === row.sessionid}
              onClick={() => void run(row)}
              data-testid="history-restore"
            >
              Restore
            </Button>
          </Tooltip>
          <Button
            size="compact-xs"
            variant="default"
            leftSection={<IconDeviceFloppy size={12} />}
            disabled={!row.criteria}
            onClick={() => setSaving(row)}
            data-testid="history-save"
          >
            Save as result set
          </Button>
        </Group>
      ),
    },
  ];

  return (
    <Stack gap="sm">
      {step && (
        <Alert color="blue" variant="light" role="status" data-testid="restore-progress">
          {RESTORE_STEP_TEXT[step]}
        </Alert>
      )}
      {error && (
        <Alert color="red" variant="light" role="alert" title="The search could not be restored">
          {error}
        </Alert>
      )}
      <QueryView
        query={query}
        isEmpty={(data) => data.rows.length === 0}
        empty="No searches yet. Every search you run is listed here (the last 100), with its counts and chart filters."
      >
        {(data) => (
          <>
            <Text size="xs" c="dimmed">
              Your last {HISTORY_LIMIT} searches, newest first.
            </Text>
            <DataTable columns={columns} rows={data.rows} rowKey={(row) => row.sessionid} minWidth={980} testId="history-table" />
          </>
        )}
      </QueryView>
      <NameDialog
        opened={saving !== null}
        title="Save as result set"
        initial={saving ? summaryOf(saving).slice(0, 80) : ''}
        submitLabel="Save"
        busy={save.isPending}
        onClose={() => setSaving(null)}
        onSubmit={(name) => saving && save.mutate({ entry: saving, name }, { onSuccess: () => setSaving(null) })}
      />
    </Stack>
  );
}
