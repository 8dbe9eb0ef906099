import { Badge, Button, Group, Stack, Text, TextInput, VisuallyHidden } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconPlus, IconSearch } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { Organisation } from '@kb/contracts/admin-accounts';
import { adminAccountEndpoints } from '@kb/contracts/admin-accounts';
import { formatCount } from '../../../app/format/count-format.ts';
import { endpointQuery } from '../../../app/query.ts';
import { DataTable } from '../../../app/ui/data-table.tsx';
import type { DataColumn } from '../../../app/ui/data-table.tsx';
import { QueryView } from '../../../app/ui/query-view.tsx';
import { formatLastDay } from './account-format.ts';
import { ListPager } from './list-pager.tsx';
import { OrganisationFormModal } from './organisation-form-modal.tsx';

const PAGE_SIZE = 25;

function seatsText(row: Organisation): string {
  return row.seats === null ? 'no limit' : formatCount(row.seats);
}

/** The organisations (clients): searched and paged on the server, created and edited in a dialog. */
export function OrganisationsPanel() {
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), 300);
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<Organisation | null>(null);
  const [dialogOpen, setDialogOpen] = useState(false);
  const query = useQuery({
    ...endpointQuery(adminAccountEndpoints.organisations, { query: { page, pageSize: PAGE_SIZE, ...(q ? { q } : {}) } }),
    placeholderData: keepPreviousData,
  });
  const open = (organisation: Organisation | null) => {
    setEditing(organisation);
    setDialogOpen(true);
  };

  const columns: readonly DataColumn<Organisation>[] = [
    {
      key: 'name',
      header: 'Organisation',
      cell: (row) => (
        <Stack gap={2}>
          <Text size="sm" fw={500}>
            {row.name}
          </Text>
          {row.contactEmail && (
            <Text size="xs" c="dimmed">
              {row.contactEmail}
            </Text>
          )}
        </Stack>
      ),
    },
    {
      key: 'users',
      // A seat is taken by every account that is not deactivated (invited ones included).
      header: 'Seats taken / seats (users)',
      cell: (row) => {
        const over = row.seats !== null && row.activeUsers > row.seats;
        return (
          <Text
            size="sm"
            c={over ? 'red' : undefined}
            title={over ? 'More seats taken than it has' : 'Accounts not deactivated, invited ones included'}
          >
            {formatCount(row.activeUsers)} / {seatsText(row)} ({formatCount(row.users)})
          </Text>
        );
      },
    },
    { key: 'credits', header: 'Credits', align: 'right', cell: (row) => formatCount(row.creditBalance) },
    { key: 'next', header: 'Next end date', cell: (row) => formatLastDay(row.nextEndDate), cellProps: { style: { whiteSpace: 'nowrap' } } },
    {
      key: 'active',
      header: 'Status',
      cell: (row) => (
        <Badge color={row.active ? 'green' : 'gray'} variant="light">
          {row.active ? 'Active' : 'Inactive'}
        </Badge>
      ),
    },
    {
      key: 'edit',
      header: <VisuallyHidden>Actions</VisuallyHidden>,
      align: 'right',
      cell: (row) => (
        <Button size="compact-sm" variant="subtle" onClick={() => open(row)} aria-label={`Edit ${row.name}`}>
          Edit
        </Button>
      ),
    },
  ];

  return (
    <Stack gap="sm">
      <Group justify="space-between" align="flex-end">
        <TextInput
          label="Search organisations"
          placeholder="Name or contact e-mail"
          leftSection={<IconSearch size={16} />}
          value={search}
          onChange={(event) => {
            setSearch(event.currentTarget.value);
            setPage(1);
          }}
          w={320}
        />
        <Button leftSection={<IconPlus size={16} />} onClick={() => open(null)} data-testid="new-organisation">
          New organisation
        </Button>
      </Group>
      <QueryView
        query={query}
        isEmpty={(data) => data.total === 0 && !q}
        keepsPrevious
        empty="No organisations yet. Create the first one with “New organisation”."
      >
        {(data) => (
          <>
            <DataTable
              columns={columns}
              rows={data.rows}
              rowKey={(row) => row.id}
              rowData={(row) => ({ 'data-organisation': row.name })}
              minWidth={820}
              testId="organisations-table"
              empty={`No organisation matches “${q}”.`}
            />
            <ListPager page={page} pageSize={PAGE_SIZE} total={data.total} onPage={setPage} label="organisations" />
          </>
        )}
      </QueryView>
      <OrganisationFormModal opened={dialogOpen} organisation={editing} onClose={() => setDialogOpen(false)} />
    </Stack>
  );
}
