import { Badge, Card, Group, Select, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { ClientDashboard, ClientUser, UsagePeriodQuery } from '@kb/contracts/admin-usage';
import { CLIENT_DASHBOARD_ADMIN_ROLES } from '@kb/contracts/admin-usage';
import { usageEndpoints } from '@kb/contracts/api';
import type { Role } from '@kb/contracts/roles';
import { formatCount } from '../../app/format/count-format.ts';
import { endpointQuery } from '../../app/query.ts';
import { roleLabel } from '../../app/role-labels.ts';
import { useSessionStore } from '../../app/stores/session-store.ts';
import { DataTable } from '../../app/ui/data-table.tsx';
import type { DataColumn } from '../../app/ui/data-table.tsx';
import { PageHeader } from '../../app/ui/page-header.tsx';
import { EmptyState, QueryErrorAlert } from '../../app/ui/query-view.tsx';
import { KeptAnswer } from '../../app/ui/kept-answer.tsx';
import { formatDate, formatDateTime, formatLastDay } from '../../app/format/display-format.ts';
import { dayLabel, periodFromParams, periodParams, seatsLabel } from './admin-stats.ts';
import { PeriodPicker } from './usage/period-picker.tsx';
import { UsageChart } from './usage/usage-chart.tsx';
import type { UsageSeries } from './usage/usage-chart.tsx';

const STATUS_COLOR = { active: 'green', scheduled: 'blue', ended: 'gray' } as const;

const USER_COLUMNS: readonly DataColumn<ClientUser>[] = [
  {
    key: 'user',
    header: 'User',
    cell: (row) => (
      <>
        <Text size="sm">{row.name || row.email}</Text>
        <Text size="xs" c="dimmed">
          {row.email}
        </Text>
      </>
    ),
  },
  {
    key: 'state',
    header: 'Account',
    cell: (row) =>
      row.active ? (
        'Active'
      ) : (
        <Badge color="gray" variant="light">
          Deactivated
        </Badge>
      ),
  },
  {
    key: 'subscriptions',
    header: 'Subscriptions',
    cell: (row) =>
      row.subscriptions.length === 0 ? (
        '—'
      ) : (
        <Stack gap={2}>
          {row.subscriptions.map((s, index) => (
            <Badge key={index} color={STATUS_COLOR[s.status]} variant="light" tt="none" data-testid="client-subscription">
              {roleLabel(s.role)} ·{' '}
              {s.status === 'scheduled'
                ? `from ${formatDate(s.startDate)}`
                : `${s.status === 'ended' ? 'ended' : 'until'} ${formatLastDay(s.endDate)}`}
            </Badge>
          ))}
        </Stack>
      ),
  },
  { key: 'login', header: 'Last login', cell: (row) => formatDateTime(row.lastLoginAt), cellProps: { style: { whiteSpace: 'nowrap' } } },
  { key: 'credits', header: 'Credits', align: 'right', cell: (row) => formatCount(row.creditBalance) },
];

function Figure({ label, value, hint, testId }: { label: string; value: string; hint?: string; testId: string }) {
  return (
    <Card withBorder radius="md" padding="sm" data-testid={testId}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text fw={700} fz={22}>
        {value}
      </Text>
      {hint && (
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      )}
    </Card>
  );
}

function OrganisationView({ dashboard }: { dashboard: ClientDashboard & { organisation: NonNullable<ClientDashboard['organisation']> } }) {
  const { organisation, seats, credits, trend, users } = dashboard;
  const weeks = useMemo(() => trend.map((w) => w.week), [trend]);
  const series = useMemo<UsageSeries[]>(
    () => [
      { name: 'Logins', kind: 'bar', color: '#2f9e44', values: trend.map((w) => w.logins) },
      { name: 'Searches', kind: 'bar', color: '#7048e8', values: trend.map((w) => w.searches) },
      { name: 'Exports', kind: 'bar', color: '#f08c00', values: trend.map((w) => w.exports) },
    ],
    [trend],
  );
  const sum = (pick: (w: ClientDashboard['trend'][number]) => number) => trend.reduce((n, w) => n + pick(w), 0);
  return (
    <Stack gap="lg">
      <Group gap="sm">
        <Title order={3} data-testid="client-organisation-name">
          {organisation.name}
        </Title>
        {!organisation.active && (
          <Badge color="gray" variant="light">
            Inactive
          </Badge>
        )}
      </Group>
      <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }}>
        <Figure
          label="Seats taken"
          value={seats.seats === null ? formatCount(seats.seatsTaken) : `${formatCount(seats.seatsTaken)} / ${formatCount(seats.seats)}`}
          hint={seatsLabel(seats.seatsTaken, seats.seats)}
          testId="client-seats"
        />
        <Figure
          label="Users"
          value={formatCount(seats.users)}
          hint={`${formatCount(seats.activeUsers)} with a running subscription`}
          testId="client-users"
        />
        <Figure
          label="Credits granted"
          value={formatCount(credits.granted)}
          hint={credits.adjusted === 0 ? 'all time' : `adjusted by ${formatCount(credits.adjusted)}`}
          testId="client-credits-granted"
        />
        <Figure
          label="Credits spent"
          value={formatCount(credits.spent)}
          hint={`${formatCount(credits.spentInPeriod)} in this period`}
          testId="client-credits-spent"
        />
        <Figure label="Credit balance" value={formatCount(credits.balance)} hint="all users together" testId="client-credits-balance" />
      </SimpleGrid>
      <UsageChart
        title="Usage per week"
        total={`${formatCount(sum((w) => w.logins))} logins, ${formatCount(sum((w) => w.searches))} searches, ${formatCount(sum((w) => w.exports))} exports`}
        days={weeks}
        series={series}
        testId="chart-client-trend"
        height={240}
      />
      <Card withBorder radius="md" padding="lg">
        <Title order={4} mb="sm">
          Users, subscriptions and last logins
        </Title>
        <DataTable
          columns={USER_COLUMNS}
          rows={users}
          rowKey={(row) => row.userId}
          minWidth={760}
          testId="client-users-table"
          empty="This organisation has no users yet."
        />
        {users.length < seats.users && (
          <Text size="xs" c="dimmed" mt="xs">
            The first {formatCount(users.length)} of {formatCount(seats.users)} users by e-mail are listed.
          </Text>
        )}
      </Card>
    </Stack>
  );
}

/** Administrators pick any organisation: a searchable list filled from the server as they type. */
function OrganisationPicker({
  value,
  valueName,
  onChange,
}: {
  value: number | undefined;
  valueName: string | null;
  onChange: (id: number | undefined) => void;
}) {
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search, 250);
  const options = useQuery({
    ...endpointQuery(usageEndpoints.clientOrganisations, { query: { q: q || undefined } }),
    placeholderData: keepPreviousData,
  });
  const data = (options.data?.rows ?? []).map((row) => ({
    value: String(row.id),
    label: `${row.name} (${formatCount(row.users)} users)${row.active ? '' : ' · inactive'}`,
  }));
  // Keep the chosen organisation in the list while a search shows others (or before the list
  // arrives), named as its dashboard names it.
  if (value !== undefined && !data.some((d) => d.value === String(value)))
    data.unshift({ value: String(value), label: valueName ?? `Organisation ${value}` });
  return (
    <Select
      label="Organisation"
      placeholder="Your own organisation"
      searchable
      clearable
      w={320}
      size="sm"
      data={data}
      value={value === undefined ? null : String(value)}
      onChange={(next) => onChange(next ? Number(next) : undefined)}
      searchValue={search}
      onSearchChange={setSearch}
      filter={({ options: all }) => all}
      nothingFoundMessage={options.isFetching ? 'Searching…' : 'No organisation matches.'}
      data-testid="organisation-picker"
    />
  );
}

/**
 * `/admin/client-dashboard` (any logged-in user): the seats, subscriptions, credits and weekly usage
 * of the caller's organisation; administrators (KB admin, super admin) pick any organisation. The
 * server decides who may see which organisation.
 */
export function ClientDashboardPage() {
  const [params, setParams] = useSearchParams();
  const roles = useSessionStore((state) => state.userRoles);
  const isAdmin = roles.some((role: Role) => (CLIENT_DASHBOARD_ADMIN_ROLES as readonly Role[]).includes(role));
  const period = periodFromParams(params);
  const rawId = Number.parseInt(params.get('organisationId') ?? '', 10);
  const organisationId = Number.isInteger(rawId) && rawId > 0 ? rawId : undefined;
  const dashboard = useQuery({
    ...endpointQuery(usageEndpoints.clientDashboard, { query: { ...period, ...(organisationId === undefined ? {} : { organisationId }) } }),
    placeholderData: keepPreviousData,
  });
  const onPeriod = (next: UsagePeriodQuery) => setParams(periodParams(next, params), { replace: true });
  const onOrganisation = (id: number | undefined) => {
    const next = new URLSearchParams(params);
    if (id === undefined) next.delete('organisationId');
    else next.set('organisationId', String(id));
    setParams(next, { replace: true });
  };

  let body;
  if (dashboard.isPending) {
    body = (
      <Stack gap="md" aria-busy="true" aria-label="Loading">
        <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }}>
          {Array.from({ length: 5 }, (_, i) => (
            <Skeleton key={i} height={84} />
          ))}
        </SimpleGrid>
        <Skeleton height={280} />
      </Stack>
    );
  } else if (dashboard.isError) {
    body = <QueryErrorAlert error={dashboard.error} onRetry={() => void dashboard.refetch()} />;
  } else if (dashboard.data.organisation === null) {
    body = (
      <Card withBorder radius="md" padding="lg" data-testid="client-no-organisation">
        <EmptyState>
          {isAdmin
            ? 'You belong to no organisation. Pick one above to see its dashboard.'
            : 'Your account is not part of an organisation yet, so there is no client dashboard to show. Ask your administrator to add you to your organisation.'}
        </EmptyState>
      </Card>
    );
  } else {
    const data = dashboard.data;
    body = (
      <KeptAnswer query={dashboard}>
        <Text size="sm" c="dimmed" mb="sm">
          {dayLabel(data.period.from, true)} – {dayLabel(data.period.to, true)} (weeks start on Monday, UTC)
        </Text>
        <OrganisationView dashboard={{ ...data, organisation: data.organisation! }} />
      </KeptAnswer>
    );
  }

  return (
    <>
      <PageHeader
        title="Client dashboard"
        description="Your organisation's seats, subscriptions and end dates, credits and how its users use the service."
        actions={
          <Group align="flex-end" gap="md" wrap="wrap">
            {isAdmin && (
              <OrganisationPicker
                value={organisationId}
                valueName={
                  dashboard.data?.organisation && dashboard.data.organisation.id === organisationId
                    ? dashboard.data.organisation.name
                    : null
                }
                onChange={onOrganisation}
              />
            )}
            <PeriodPicker value={period} onChange={onPeriod} />
          </Group>
        }
      />
      {body}
    </>
  );
}
