import { Badge, Button, Group, Menu, SegmentedControl, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconChevronDown, IconPlus, IconX } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { DataRequest, DataRequestStatus } from '@kb/contracts/datasets';
import { OPEN_REQUEST_STATUSES, REQUEST_STATUS_LABELS, datasetEndpoints } from '@kb/contracts/datasets';
import { callApi, errorMessage } from '../../app/api-client.ts';
import { endpointKey, endpointQuery } from '../../app/query.ts';
import { QueryView } from '../../app/ui/query-view.tsx';
import { ConfirmButton } from '../export/confirm-button.tsx';
import { formatDateTime } from '../../app/format/display-format.ts';
import { RequestFormModal } from './request-form.tsx';
import { useHasRole } from './use-roles.ts';
import { DataTable } from '../../app/ui/data-table.tsx';
import type { DataColumn } from '../../app/ui/data-table.tsx';

const STATUS_COLORS: Record<DataRequestStatus, string> = {
  pending: 'yellow',
  in_progress: 'blue',
  fulfilled: 'green',
  rejected: 'red',
  cancelled: 'gray',
};
/** What an administrator can move an open request to. */
const ADMIN_MOVES = ['in_progress', 'fulfilled', 'rejected'] as const;

function isOpenRequest(status: DataRequestStatus): boolean {
  return OPEN_REQUEST_STATUSES.includes(status);
}

function useRequestChange() {
  const queryClient = useQueryClient();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: endpointKey(datasetEndpoints.requests) });
  const onError = (error: unknown) =>
    notifications.show({ color: 'red', title: 'The request could not be changed', message: errorMessage(error) });
  const cancel = useMutation({
    mutationFn: (id: number) => callApi(datasetEndpoints.cancelRequest, { body: { id } }),
    onSuccess: refresh,
    onError,
  });
  const move = useMutation({
    mutationFn: (change: { id: number; status: (typeof ADMIN_MOVES)[number] }) => callApi(datasetEndpoints.updateRequest, { body: change }),
    onSuccess: refresh,
    onError,
  });
  return { cancel, move, refresh };
}

function RequestActions({ request, admin, change }: { request: DataRequest; admin: boolean; change: ReturnType<typeof useRequestChange> }) {
  if (!isOpenRequest(request.status)) return null;
  const busy =
    (change.cancel.isPending && change.cancel.variables === request.id) ||
    (change.move.isPending && change.move.variables?.id === request.id);
  return (
    <Group gap={6} wrap="nowrap">
      {admin && (
        <Menu position="bottom-end" withinPortal>
          <Menu.Target>
            <Button
              size="compact-sm"
              variant="light"
              rightSection={<IconChevronDown size={14} />}
              loading={busy}
              data-testid="request-status-menu"
            >
              Set status
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            {ADMIN_MOVES.filter((status) => status !== request.status).map((status) => (
              <Menu.Item key={status} onClick={() => change.move.mutate({ id: request.id, status })}>
                {REQUEST_STATUS_LABELS[status]}
              </Menu.Item>
            ))}
          </Menu.Dropdown>
        </Menu>
      )}
      <ConfirmButton
        size="compact-sm"
        variant="subtle"
        color="red"
        leftSection={<IconX size={14} />}
        loading={busy}
        question="Cancel this request for data? It cannot be reopened; send a new request if you need the data later."
        confirmLabel="Cancel request"
        onConfirm={() => change.cancel.mutate(request.id)}
        testId="request-cancel"
      >
        Cancel
      </ConfirmButton>
    </Group>
  );
}

function requestColumns(admin: boolean, change: ReturnType<typeof useRequestChange>): DataColumn<DataRequest>[] {
  return [
    { key: 'type', header: 'Dataset type', cell: (request) => request.datasetType },
    {
      key: 'description',
      header: 'Description',
      cellProps: { maw: 360 },
      cell: (request) => (
        <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
          {request.description}
        </Text>
      ),
    },
    { key: 'by', header: 'Requested by', cell: (request) => request.requestedBy },
    { key: 'on', header: 'Requested on', cell: (request) => formatDateTime(request.requestedOn) },
    {
      key: 'status',
      header: 'Status',
      cell: (request) => (
        <Stack gap={2}>
          <Badge color={STATUS_COLORS[request.status]} variant="light">
            {REQUEST_STATUS_LABELS[request.status]}
          </Badge>
          {request.cancelled_by && (
            <Text size="xs" c="dimmed" data-testid="request-cancelled-by">
              by {request.cancelled_by}
            </Text>
          )}
        </Stack>
      ),
    },
    { key: 'actions', header: 'Actions', cell: (request) => <RequestActions request={request} admin={admin} change={change} /> },
  ];
}

function RequestsTable({ rows, admin }: { rows: readonly DataRequest[]; admin: boolean }) {
  const change = useRequestChange();
  return (
    <DataTable
      columns={requestColumns(admin, change)}
      rows={rows}
      rowKey={(request) => request.id}
      rowData={(request) => ({ 'data-testid': 'request-row', 'data-status': request.status })}
      minWidth={860}
      verticalSpacing="sm"
      testId="requests-table"
    />
  );
}

/** Spec §3 "Data requests": the user's requests for data (everyone's for FLAT_FILE_ADMIN), a new one, cancelling. */
export function RequestsTab() {
  const admin = useHasRole('FLAT_FILE_ADMIN');
  // The user's own pick, once made; until then an administrator sees everyone's requests, also
  // when the roles arrive after the first render.
  const [picked, setWhich] = useState<'user' | 'all' | null>(null);
  const which = picked ?? (admin ? 'all' : 'user');
  const [formOpen, setFormOpen] = useState(false);
  const queryClient = useQueryClient();
  const query = useQuery(endpointQuery(datasetEndpoints.requests, { query: { flatFileReqType: admin ? which : 'user' } }));
  return (
    <Stack gap="md">
      <Group justify="space-between">
        {admin ? (
          <SegmentedControl
            value={which}
            onChange={(value) => setWhich(value as 'user' | 'all')}
            data={[
              { value: 'all', label: 'All requests' },
              { value: 'user', label: 'My requests' },
            ]}
            data-testid="requests-scope"
          />
        ) : (
          <Text size="sm" c="dimmed">
            Ask for data that is not in the datasets of your subscription.
          </Text>
        )}
        <Button leftSection={<IconPlus size={16} />} onClick={() => setFormOpen(true)} data-testid="request-new">
          New request
        </Button>
      </Group>
      <QueryView query={query} isEmpty={(data) => data.rows.length === 0} empty="No requests for data yet.">
        {(data) => <RequestsTable rows={data.rows} admin={admin} />}
      </QueryView>
      <RequestFormModal
        opened={formOpen}
        onClose={() => setFormOpen(false)}
        onCreated={() => void queryClient.invalidateQueries({ queryKey: endpointKey(datasetEndpoints.requests) })}
      />
    </Stack>
  );
}
