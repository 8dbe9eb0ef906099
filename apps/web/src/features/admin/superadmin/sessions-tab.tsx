import { useState } from 'react';
import { Badge, Button, Pagination, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { OpenSession } from '@kb/contracts/superadmin';
import { superAdminEndpoints } from '@kb/contracts/superadmin';
import { adminEndpoints } from '@kb/contracts/api';
import { callApi, errorMessage } from '../../../app/api-client.ts';
import { endpointKey, endpointQuery } from '../../../app/query.ts';
import { formatCount } from '../../../app/format/count-format.ts';
import { DataTable } from '../../../app/ui/data-table.tsx';
import type { DataColumn } from '../../../app/ui/data-table.tsx';
import { QueryView } from '../../../app/ui/query-view.tsx';
import { formatDateTime } from '../../../app/format/display-format.ts';

const PAGE_SIZE = 50;

export function SessionsTab() {
  const client = useQueryClient();
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [q] = useDebouncedValue(search.trim(), 300);
  const query = useQuery({
    ...endpointQuery(superAdminEndpoints.sessions, { query: { page, pageSize: PAGE_SIZE, ...(q ? { q } : {}) } }),
    placeholderData: keepPreviousData,
  });
  const close = useMutation({
    mutationFn: (sessionId: string) => callApi(superAdminEndpoints.closeSession, { params: { sessionId } }),
    onSuccess: (result) => {
      notifications.show({ color: 'green', message: result.message });
      void client.invalidateQueries({ queryKey: endpointKey(superAdminEndpoints.sessions) });
      void client.invalidateQueries({ queryKey: endpointKey(adminEndpoints.superAdminOverview) });
    },
    onError: (error) => notifications.show({ color: 'red', message: errorMessage(error) }),
  });

  const columns: readonly DataColumn<OpenSession>[] = [
    { key: 'user', header: 'User', cell: (row) => row.email },
    { key: 'ip', header: 'IP address', cell: (row) => row.ipAddress ?? '—' },
    {
      key: 'agent',
      header: 'Browser',
      cell: (row) =>
        row.userAgent ? (
          <Tooltip label={row.userAgent} multiline w={360}>
            <Text size="sm" lineClamp={1} maw={260}>
              {row.userAgent}
            </Text>
          </Tooltip>
        ) : (
          '—'
        ),
    },
    { key: 'started', header: 'Started', cell: (row) => formatDateTime(row.startedAt), cellProps: { style: { whiteSpace: 'nowrap' } } },
    {
      key: 'last',
      header: 'Last activity',
      cell: (row) => formatDateTime(row.lastActivityAt),
      cellProps: { style: { whiteSpace: 'nowrap' } },
    },
    {
      key: 'action',
      header: 'Close',
      align: 'right',
      cell: (row) =>
        row.current ? (
          <Badge variant="light">This session</Badge>
        ) : (
          <Button
            size="xs"
            variant="light"
            color="red"
            loading={close.isPending && close.variables === row.sessionId}
            onClick={() => close.mutate(row.sessionId)}
            aria-label={`Close the session of ${row.email}`}
          >
            Close
          </Button>
        ),
    },
  ];

  return (
    <Stack>
      <TextInput
        label="User"
        placeholder="Part of the e-mail address"
        value={search}
        onChange={(event) => {
          setSearch(event.currentTarget.value);
          setPage(1);
        }}
        w={300}
        data-testid="sessions-search"
      />
      <QueryView query={query} keepsPrevious isEmpty={(data) => data.total === 0} empty="No open sessions match.">
        {(data) => (
          <>
            <Text size="sm" c="dimmed">
              {formatCount(data.total)} open {data.total === 1 ? 'session' : 'sessions'}, most recently active first. A closed session’s
              next request is refused and its user must log in again.
            </Text>
            <DataTable
              columns={columns}
              rows={data.rows}
              rowKey={(row) => row.sessionId}
              minWidth={900}
              testId="open-sessions"
              rowData={(row) => ({ 'data-email': row.email, 'data-session': row.sessionId })}
            />
            {data.total > PAGE_SIZE && (
              <Pagination total={Math.ceil(data.total / PAGE_SIZE)} value={page} onChange={setPage} aria-label="Session pages" />
            )}
          </>
        )}
      </QueryView>
    </Stack>
  );
}
