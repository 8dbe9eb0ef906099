import { useState } from 'react';
import { Alert, Badge, Button, Card, Group, Modal, Select, Stack, Text, TextInput, Title, VisuallyHidden } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconShieldPlus } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminRole, AdminRoleHolder } from '@kb/contracts/superadmin';
import { ADMIN_GRANTABLE_ROLES, superAdminEndpoints } from '@kb/contracts/superadmin';
import { adminEndpoints, mfaEndpoints } from '@kb/contracts/api';
import { callApi, errorMessage } from '../../../app/api-client.ts';
import { endpointKey, endpointQuery } from '../../../app/query.ts';
import { roleLabel } from '../../../app/role-labels.ts';
import { useSessionStore } from '../../../app/stores/session-store.ts';
import { DataTable } from '../../../app/ui/data-table.tsx';
import type { DataColumn } from '../../../app/ui/data-table.tsx';
import { QueryView } from '../../../app/ui/query-view.tsx';

/**
 * The last day of a role period, as the grant form took it: a period ends at midnight UTC after
 * the chosen end date, so the day is that of the moment just before, in UTC.
 */
function lastDay(endDate: string): string {
  return new Date(Date.parse(endDate) - 1).toLocaleDateString(undefined, {
    year: 'numeric',
    month: 'short',
    day: '2-digit',
    timeZone: 'UTC',
  });
}

/** The first day of a role period (UTC, as stored). */
function firstDay(startDate: string): string {
  return new Date(startDate).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: '2-digit', timeZone: 'UTC' });
}

/** A year from today as YYYY-MM-DD: the end date a new grant starts with. */
function inOneYear(): string {
  const date = new Date();
  date.setFullYear(date.getFullYear() + 1);
  return date.toISOString().slice(0, 10);
}

function GrantForm() {
  const client = useQueryClient();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 250);
  const [userId, setUserId] = useState<string | null>(null);
  const [role, setRole] = useState<AdminRole | null>(null);
  const [endDate, setEndDate] = useState(inOneYear);
  const users = useQuery({ ...endpointQuery(superAdminEndpoints.findUsers, { query: { q: debounced } }), enabled: debounced.length >= 2 });
  const grant = useMutation({
    mutationFn: () => callApi(superAdminEndpoints.grantAdminRole, { body: { userId: Number(userId), role: role as AdminRole, endDate } }),
    onSuccess: (holder) => {
      notifications.show({
        color: 'green',
        message: `${holder.email} now holds ${roleLabel(holder.role)} to ${lastDay(holder.endDate)} (inclusive).`,
      });
      setUserId(null);
      setSearch('');
      setRole(null);
      void client.invalidateQueries({ queryKey: endpointKey(superAdminEndpoints.adminRoles) });
      void client.invalidateQueries({ queryKey: endpointKey(adminEndpoints.superAdminOverview) });
    },
  });
  const options = (users.data?.rows ?? []).map((u) => ({
    value: String(u.userId),
    label: u.active ? u.email : `${u.email} (deactivated)`,
    disabled: !u.active,
  }));

  return (
    <Card withBorder radius="md" padding="lg">
      <Title order={4} mb="sm">
        Grant an admin role
      </Title>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          grant.mutate();
        }}
      >
        <Group align="flex-end" wrap="wrap">
          <Select
            label="User"
            placeholder="Type part of the e-mail address"
            searchable
            searchValue={search}
            onSearchChange={setSearch}
            data={options}
            value={userId}
            onChange={setUserId}
            filter={({ options: all }) => all}
            nothingFoundMessage={
              debounced.length < 2 ? 'Type at least two characters' : users.isFetching ? 'Searching…' : 'No user has such an address'
            }
            w={320}
            data-testid="grant-user"
          />
          <Select
            label="Role"
            placeholder="Choose a role"
            data={ADMIN_GRANTABLE_ROLES.map((r) => ({ value: r, label: roleLabel(r) }))}
            value={role}
            onChange={(value) => setRole(value as AdminRole | null)}
            w={220}
            data-testid="grant-role"
          />
          <TextInput
            label="Until (end of day)"
            type="date"
            value={endDate}
            onChange={(event) => setEndDate(event.currentTarget.value)}
            w={180}
            data-testid="grant-end"
          />
          <Button
            type="submit"
            leftSection={<IconShieldPlus size={16} />}
            loading={grant.isPending}
            disabled={!userId || !role || !endDate}
          >
            Grant
          </Button>
        </Group>
      </form>
      {grant.isError && (
        <Alert color="red" variant="light" mt="sm" role="alert">
          {errorMessage(grant.error)}
        </Alert>
      )}
      <Text size="xs" c="dimmed" mt="sm">
        The role applies from the user’s next request. Only a super admin may grant or revoke admin roles.
      </Text>
    </Card>
  );
}

function RevokeDialog({ holder, onClose }: { holder: AdminRoleHolder | null; onClose: () => void }) {
  const client = useQueryClient();
  const revoke = useMutation({
    mutationFn: (subscriptionId: number) => callApi(superAdminEndpoints.revokeAdminRole, { params: { subscriptionId } }),
    onSuccess: (result) => {
      notifications.show({ color: 'green', message: result.message });
      void client.invalidateQueries({ queryKey: endpointKey(superAdminEndpoints.adminRoles) });
      void client.invalidateQueries({ queryKey: endpointKey(adminEndpoints.superAdminOverview) });
      onClose();
    },
  });
  return (
    <Modal
      opened={holder !== null}
      onClose={() => {
        revoke.reset();
        onClose();
      }}
      title="Revoke admin role"
    >
      {holder && (
        <Stack>
          <Text size="sm">
            End {roleLabel(holder.role)} of <b>{holder.email}</b> now? Their next request is refused on {roleLabel(holder.role)} pages and
            calls.
          </Text>
          {revoke.isError && (
            <Alert color="red" variant="light" role="alert">
              {errorMessage(revoke.error)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button color="red" loading={revoke.isPending} onClick={() => revoke.mutate(holder.subscriptionId)} data-autofocus>
              Revoke
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

/**
 * A super admin removes another admin's authenticator and recovery codes (lost phone and codes):
 * their open sessions lose the second step and they set up an authenticator again.
 */
function ResetMfaDialog({ holder, onClose }: { holder: AdminRoleHolder | null; onClose: () => void }) {
  const client = useQueryClient();
  const reset = useMutation({
    mutationFn: (userId: number) => callApi(mfaEndpoints.reset, { params: { userId } }),
    onSuccess: (result) => {
      notifications.show({ color: 'green', message: result.message });
      void client.invalidateQueries({ queryKey: endpointKey(superAdminEndpoints.adminRoles) });
      close();
    },
  });
  function close() {
    reset.reset();
    onClose();
  }
  return (
    <Modal opened={holder !== null} onClose={close} title="Reset two-step login">
      {holder && (
        <Stack>
          <Text size="sm">
            Remove the authenticator app and the recovery codes of <b>{holder.email}</b>? Do this only when they lost both, and after
            checking who asks. Their open sessions leave the administrator pages until they set up an authenticator again.
          </Text>
          {reset.isError && (
            <Alert color="red" variant="light" role="alert">
              {errorMessage(reset.error)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button color="red" loading={reset.isPending} onClick={() => reset.mutate(holder.userId)} data-autofocus>
              Reset two-step login
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

export function AdminRolesTab() {
  const query = useQuery(endpointQuery(superAdminEndpoints.adminRoles, {}));
  const [revoking, setRevoking] = useState<AdminRoleHolder | null>(null);
  const [resetting, setResetting] = useState<AdminRoleHolder | null>(null);
  const ownId = useSessionStore((state) => state.userId);
  const columns: readonly DataColumn<AdminRoleHolder>[] = [
    { key: 'user', header: 'User', cell: (row) => (row.name ? `${row.email} (${row.name})` : row.email) },
    { key: 'role', header: 'Role', cell: (row) => roleLabel(row.role) },
    { key: 'start', header: 'From', cell: (row) => firstDay(row.startDate) },
    { key: 'end', header: 'Until (inclusive)', cell: (row) => lastDay(row.endDate) },
    {
      key: 'status',
      header: 'Status',
      cell: (row) => (
        <Badge variant="light" color={row.status === 'active' ? 'green' : 'gray'}>
          {row.status}
        </Badge>
      ),
    },
    {
      key: 'mfa',
      header: 'Two-step login',
      cell: (row) => (
        <Badge variant="light" color={row.mfaEnrolled ? 'green' : 'yellow'} data-testid="mfa-state">
          {row.mfaEnrolled ? 'set up' : 'not set up'}
        </Badge>
      ),
    },
    {
      key: 'action',
      header: <VisuallyHidden>Actions</VisuallyHidden>,
      align: 'right',
      cell: (row) => {
        const own = row.userId === ownId;
        return (
          <Group gap="xs" justify="flex-end" wrap="nowrap">
            <Button
              size="xs"
              variant="default"
              onClick={() => setResetting(row)}
              disabled={own || !row.mfaEnrolled}
              title={
                own
                  ? 'You cannot reset your own two-step login: use a recovery code, or ask another super admin.'
                  : row.mfaEnrolled
                    ? undefined
                    : 'No authenticator is set up.'
              }
              aria-label={`Reset two-step login of ${row.email}`}
            >
              Reset two-step login
            </Button>
            <Button
              size="xs"
              variant="light"
              color="red"
              onClick={() => setRevoking(row)}
              aria-label={`Revoke ${row.role} of ${row.email}`}
            >
              Revoke
            </Button>
          </Group>
        );
      },
    },
  ];
  return (
    <Stack>
      <GrantForm />
      <QueryView query={query} isEmpty={(data) => data.rows.length === 0} empty="No one holds an admin role.">
        {(data) => (
          <DataTable
            columns={columns}
            rows={data.rows}
            rowKey={(row) => row.subscriptionId}
            minWidth={960}
            testId="admin-roles"
            rowData={(row) => ({ 'data-email': row.email, 'data-role': row.role })}
          />
        )}
      </QueryView>
      <RevokeDialog holder={revoking} onClose={() => setRevoking(null)} />
      <ResetMfaDialog holder={resetting} onClose={() => setResetting(null)} />
    </Stack>
  );
}
