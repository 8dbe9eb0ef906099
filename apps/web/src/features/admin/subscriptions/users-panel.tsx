import { Button, Group, Select, Stack, Text, TextInput, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconArrowDown, IconArrowUp, IconSearch, IconUserPlus } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { ReactNode } from 'react';
import type { AdminUser, AdminUserListQuery } from '@kb/contracts/admin-accounts';
import { adminAccountEndpoints } from '@kb/contracts/admin-accounts';
import type { Role } from '@kb/contracts/roles';
import { ROLES } from '@kb/contracts/roles';
import { formatCount } from '../../../app/format/count-format.ts';
import { endpointQuery } from '../../../app/query.ts';
import { roleLabel } from '../../../app/role-labels.ts';
import { DataTable } from '../../../app/ui/data-table.tsx';
import type { DataColumn } from '../../../app/ui/data-table.tsx';
import { QueryView } from '../../../app/ui/query-view.tsx';
import { formatMoment, fullName } from './account-format.ts';
import { ListPager } from './list-pager.tsx';
import { OrganisationSelect } from './organisation-select.tsx';
import { AccountStateBadges, SubscriptionBadges } from './user-badges.tsx';
import { UserCreateModal } from './user-create-modal.tsx';
import { UserDrawer } from './user-drawer.tsx';

const PAGE_SIZE = 50;
type Sort = AdminUserListQuery['sort'];
type Status = NonNullable<AdminUserListQuery['status']>;

const STATUS_OPTIONS: { value: Status; label: string }[] = [
  { value: 'active', label: 'Subscription running' },
  { value: 'expiring', label: 'Ending within 30 days' },
  { value: 'ended', label: 'Subscription ended' },
  { value: 'none', label: 'No running subscription' },
  { value: 'invited', label: 'Invited (no password yet)' },
  { value: 'deactivated', label: 'Deactivated' },
];
const ROLE_OPTIONS = ROLES.map((role) => ({ value: role, label: roleLabel(role) }));

/** A column header that sorts the list on the server; says its order to screen readers. */
function SortHeader({
  label,
  sort,
  current,
  direction,
  onSort,
}: {
  label: string;
  sort: Sort;
  current: Sort;
  direction: 'asc' | 'desc';
  onSort: (sort: Sort) => void;
}) {
  const active = sort === current;
  const Arrow = direction === 'asc' ? IconArrowUp : IconArrowDown;
  return (
    <UnstyledButton onClick={() => onSort(sort)} fw={600} fz="sm" style={{ whiteSpace: 'nowrap' }} aria-pressed={active}>
      {label}
      {active && <Arrow size={12} style={{ marginLeft: 4 }} aria-hidden />}
      <VisuallyHidden>{active ? (direction === 'asc' ? ', sorted ascending' : ', sorted descending') : ', sort'}</VisuallyHidden>
    </UnstyledButton>
  );
}

/**
 * The users: searched, filtered (organisation, role, status), sorted and paged on the server. A
 * user's e-mail opens their page (the drawer) where every change is made.
 */
export function UsersPanel() {
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), 300);
  const [organisationId, setOrganisationId] = useState<string | null>(null);
  const [role, setRole] = useState<Role | null>(null);
  const [status, setStatus] = useState<Status | null>(null);
  const [sort, setSort] = useState<Sort>('email');
  const [direction, setDirection] = useState<'asc' | 'desc'>('asc');
  const [page, setPage] = useState(1);
  const [openUserId, setOpenUserId] = useState<number | null>(null);
  const [creating, setCreating] = useState(false);

  const listQuery: AdminUserListQuery = {
    page,
    pageSize: PAGE_SIZE,
    sort,
    direction,
    ...(q ? { q } : {}),
    ...(organisationId ? { organisationId: Number(organisationId) } : {}),
    ...(role ? { role } : {}),
    ...(status ? { status } : {}),
  };
  const query = useQuery({ ...endpointQuery(adminAccountEndpoints.users, { query: listQuery }), placeholderData: keepPreviousData });
  const filtered = Boolean(q || organisationId || role || status);

  const filter =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      setPage(1);
    };
  const onSort = (next: Sort) => {
    if (next === sort) setDirection(direction === 'asc' ? 'desc' : 'asc');
    else {
      setSort(next);
      // Dates and figures are most useful newest / largest first.
      setDirection(next === 'lastLogin' || next === 'credits' || next === 'created' ? 'desc' : 'asc');
    }
    setPage(1);
  };
  const header = (label: string, key: Sort): ReactNode => (
    <SortHeader label={label} sort={key} current={sort} direction={direction} onSort={onSort} />
  );

  const columns: readonly DataColumn<AdminUser>[] = [
    {
      key: 'email',
      header: header('E-mail', 'email'),
      cell: (row) => (
        <Button
          variant="subtle"
          size="compact-sm"
          px={4}
          onClick={() => setOpenUserId(row.userId)}
          aria-label={`Open ${row.email}`}
          data-testid="open-user"
        >
          {row.email}
        </Button>
      ),
    },
    { key: 'name', header: header('Name', 'name'), cell: (row) => fullName(row) },
    {
      key: 'organisation',
      header: header('Organisation', 'organisation'),
      cell: (row) =>
        row.organisationName ?? (
          <Text size="sm" c="dimmed">
            none
          </Text>
        ),
    },
    { key: 'state', header: 'Account', cell: (row) => <AccountStateBadges user={row} /> },
    {
      key: 'subscriptions',
      header: header('Roles and end dates', 'endDate'),
      cell: (row) => <SubscriptionBadges subscriptions={row.subscriptions} />,
    },
    { key: 'credits', header: header('Credits', 'credits'), align: 'right', cell: (row) => formatCount(row.creditBalance) },
    {
      key: 'lastLogin',
      header: header('Last login', 'lastLogin'),
      cell: (row) => formatMoment(row.lastLoginAt),
      cellProps: { style: { whiteSpace: 'nowrap' } },
    },
    { key: 'sessions', header: 'Sessions', align: 'right', cell: (row) => formatCount(row.openSessions) },
  ];

  return (
    <Stack gap="sm">
      <Group align="flex-end" gap="sm" wrap="wrap">
        <TextInput
          label="Search users"
          placeholder="Name or e-mail"
          leftSection={<IconSearch size={16} />}
          value={search}
          onChange={(event) => filter(setSearch)(event.currentTarget.value)}
          w={260}
        />
        <OrganisationSelect label="Organisation" placeholder="Any" value={organisationId} onChange={filter(setOrganisationId)} w={220} />
        <Select
          label="Role"
          placeholder="Any"
          data={ROLE_OPTIONS}
          value={role}
          onChange={(value) => filter(setRole)(value as Role | null)}
          clearable
          w={190}
        />
        <Select
          label="Status"
          placeholder="Any"
          data={STATUS_OPTIONS}
          value={status}
          onChange={(value) => filter(setStatus)(value as Status | null)}
          clearable
          w={230}
        />
        <Button ml="auto" leftSection={<IconUserPlus size={16} />} onClick={() => setCreating(true)} data-testid="new-user">
          New user
        </Button>
      </Group>
      <QueryView
        query={query}
        isEmpty={(data) => data.total === 0 && !filtered}
        keepsPrevious
        empty="No users yet. Create one with “New user” or onboard a file."
      >
        {(data) => (
          <>
            <DataTable
              columns={columns}
              rows={data.rows}
              rowKey={(row) => row.userId}
              rowData={(row) => ({ 'data-email': row.email })}
              minWidth={1180}
              testId="users-table"
              empty="No user matches these filters."
            />
            <ListPager page={page} pageSize={PAGE_SIZE} total={data.total} onPage={setPage} label="users" />
          </>
        )}
      </QueryView>
      <UserCreateModal opened={creating} onClose={() => setCreating(false)} onCreated={(user) => setOpenUserId(user.userId)} />
      <UserDrawer userId={openUserId} onClose={() => setOpenUserId(null)} />
    </Stack>
  );
}
