import { Anchor, Badge, Card, Group, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { ActiveOrganisation, AdminUsage, EndingSubscription, FailedLoginAddress, UsagePeriodQuery } from '@kb/contracts/admin-usage';
import { usageEndpoints } from '@kb/contracts/api';
import { formatCount } from '../../app/format/count-format.ts';
import { endpointQuery } from '../../app/query.ts';
import { roleLabel } from '../../app/role-labels.ts';
import { DataTable } from '../../app/ui/data-table.tsx';
import type { DataColumn } from '../../app/ui/data-table.tsx';
import { PageHeader } from '../../app/ui/page-header.tsx';
import { QueryErrorAlert } from '../../app/ui/query-view.tsx';
import { KeptAnswer } from '../../app/ui/kept-answer.tsx';
import { formatDateTime, formatLastDay } from '../../app/format/display-format.ts';
import { dayLabel, daysLeftLabel, periodFromParams, periodParams } from './admin-stats.ts';
import { PeriodPicker } from './usage/period-picker.tsx';
import { UsageChart } from './usage/usage-chart.tsx';
import type { UsageSeries } from './usage/usage-chart.tsx';

const COLORS = { active: '#1c7ed6', ok: '#2f9e44', failed: '#e03131', searches: '#7048e8', exports: '#f08c00', credits: '#0c8599' };

function Stat({ label, value, testId }: { label: string; value: number; testId: string }) {
  return (
    <Card withBorder radius="md" padding="sm" data-testid={testId}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text fw={700} fz={24}>
        {formatCount(value)}
      </Text>
    </Card>
  );
}

const ENDING_COLUMNS: readonly DataColumn<EndingSubscription>[] = [
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
    key: 'organisation',
    header: 'Organisation',
    cell: (row) =>
      row.organisationId === null ? (
        '—'
      ) : (
        <Anchor component={Link} to={`/admin/client-dashboard?organisationId=${row.organisationId}`} size="sm">
          {row.organisationName}
        </Anchor>
      ),
  },
  { key: 'role', header: 'Role', cell: (row) => roleLabel(row.role) },
  { key: 'end', header: 'Ends', cell: (row) => formatLastDay(row.endDate), cellProps: { style: { whiteSpace: 'nowrap' } } },
  {
    key: 'left',
    header: 'Time left',
    cell: (row) => (
      <Badge color={row.daysLeft <= 7 ? 'red' : 'yellow'} variant="light">
        {daysLeftLabel(row.daysLeft)}
      </Badge>
    ),
  },
];

const ORGANISATION_COLUMNS: readonly DataColumn<ActiveOrganisation>[] = [
  {
    key: 'name',
    header: 'Organisation',
    cell: (row) => (
      <Anchor component={Link} to={`/admin/client-dashboard?organisationId=${row.organisationId}`} size="sm">
        {row.name}
      </Anchor>
    ),
  },
  { key: 'users', header: 'Active users', align: 'right', cell: (row) => formatCount(row.activeUsers) },
  { key: 'logins', header: 'Logins', align: 'right', cell: (row) => formatCount(row.logins) },
  { key: 'searches', header: 'Searches', align: 'right', cell: (row) => formatCount(row.searches) },
  { key: 'exports', header: 'Exports', align: 'right', cell: (row) => formatCount(row.exports) },
];

const ADDRESS_COLUMNS: readonly DataColumn<FailedLoginAddress>[] = [
  { key: 'ip', header: 'Address', cell: (row) => row.ipAddress ?? 'not recorded' },
  { key: 'attempts', header: 'Failed logins', align: 'right', cell: (row) => formatCount(row.attempts) },
  { key: 'accounts', header: 'Accounts tried', align: 'right', cell: (row) => formatCount(row.accounts) },
  { key: 'last', header: 'Last', cell: (row) => formatDateTime(row.lastAt), cellProps: { style: { whiteSpace: 'nowrap' } } },
];

function useDailySeries(usage: AdminUsage) {
  return useMemo(() => {
    const days = usage.daily.map((d) => d.day);
    const pick = (
      name: string,
      kind: UsageSeries['kind'],
      color: string,
      get: (d: AdminUsage['daily'][number]) => number,
      stack?: string,
    ): UsageSeries => ({
      name,
      kind,
      color,
      values: usage.daily.map(get),
      ...(stack ? { stack } : {}),
    });
    return {
      days,
      active: [pick('Active users', 'line', COLORS.active, (d) => d.activeUsers)],
      logins: [
        pick('Successful', 'bar', COLORS.ok, (d) => d.logins, 'logins'),
        pick('Failed', 'bar', COLORS.failed, (d) => d.failedLogins, 'logins'),
      ],
      searches: [pick('Searches', 'bar', COLORS.searches, (d) => d.searches)],
      exports: [pick('Exports', 'bar', COLORS.exports, (d) => d.exports)],
      credits: [pick('Credits spent', 'bar', COLORS.credits, (d) => d.creditsSpent)],
      failed: [pick('Failed logins', 'bar', COLORS.failed, (d) => d.failedLogins)],
    };
  }, [usage]);
}

function UsageView({ usage }: { usage: AdminUsage }) {
  const s = useDailySeries(usage);
  const t = usage.totals;
  return (
    <Stack gap="lg">
      <Text size="sm" c="dimmed" data-testid="usage-period">
        {dayLabel(usage.period.from, true)} – {dayLabel(usage.period.to, true)} ({formatCount(usage.period.days)} days, UTC)
      </Text>
      <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }}>
        <Stat label="Active users" value={t.activeUsers} testId="stat-active-users" />
        <Stat label="Logins" value={t.logins} testId="stat-logins" />
        <Stat label="Failed logins" value={t.failedLogins} testId="stat-failed-logins" />
        <Stat label="Searches" value={t.searches} testId="stat-searches" />
        <Stat label="Exports" value={t.exports} testId="stat-exports" />
        <Stat label="Credits spent" value={t.creditsSpent} testId="stat-credits" />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <UsageChart
          title="Active users per day"
          total={`${formatCount(t.activeUsers)} in the period`}
          days={s.days}
          series={s.active}
          testId="chart-active-users"
        />
        <UsageChart
          title="Logins per day"
          total={`${formatCount(t.logins)} successful, ${formatCount(t.failedLogins)} failed`}
          days={s.days}
          series={s.logins}
          testId="chart-logins"
        />
        <UsageChart title="Searches per day" total={formatCount(t.searches)} days={s.days} series={s.searches} testId="chart-searches" />
        <UsageChart title="Exports per day" total={formatCount(t.exports)} days={s.days} series={s.exports} testId="chart-exports" />
        <UsageChart
          title="Credits spent per day"
          total={`${formatCount(t.creditsSpent)} (refunds deducted)`}
          days={s.days}
          series={s.credits}
          testId="chart-credits"
        />
        <UsageChart
          title="Failed logins per day"
          total={formatCount(t.failedLogins)}
          days={s.days}
          series={s.failed}
          testId="chart-failed-logins"
        />
      </SimpleGrid>
      <Card withBorder radius="md" padding="lg">
        <Group justify="space-between" mb="sm" wrap="wrap">
          <Title order={4}>Subscriptions ending soon</Title>
          <Group gap="xs">
            <Badge color="red" variant="light" data-testid="ending-7">
              {formatCount(usage.endingSoon.within7Days)} within 7 days
            </Badge>
            <Badge color="yellow" variant="light" data-testid="ending-30">
              {formatCount(usage.endingSoon.within30Days)} within 30 days
            </Badge>
          </Group>
        </Group>
        <DataTable
          columns={ENDING_COLUMNS}
          rows={usage.endingSoon.rows}
          rowKey={(row) => row.subscriptionId}
          minWidth={720}
          testId="ending-soon-table"
          empty="No running subscription ends within 30 days."
        />
        {usage.endingSoon.rows.length < usage.endingSoon.within30Days && (
          <Text size="xs" c="dimmed" mt="xs">
            The {formatCount(usage.endingSoon.rows.length)} soonest of {formatCount(usage.endingSoon.within30Days)} are listed.
          </Text>
        )}
      </Card>
      <SimpleGrid cols={{ base: 1, lg: 2 }}>
        <Card withBorder radius="md" padding="lg">
          <Title order={4} mb="sm">
            Most active organisations
          </Title>
          <DataTable
            columns={ORGANISATION_COLUMNS}
            rows={usage.topOrganisations}
            rowKey={(row) => row.organisationId}
            minWidth={520}
            testId="top-organisations-table"
            empty="No organisation's users logged in, searched or exported in this period."
          />
        </Card>
        <Card withBorder radius="md" padding="lg">
          <Title order={4} mb="sm">
            Failed logins by address
          </Title>
          <DataTable
            columns={ADDRESS_COLUMNS}
            rows={usage.failedLoginAddresses}
            rowKey={(row) => row.ipAddress ?? 'none'}
            minWidth={480}
            testId="failed-addresses-table"
            empty="No failed logins in this period."
          />
        </Card>
      </SimpleGrid>
    </Stack>
  );
}

/** `/admin/dashboard` (GOSTAR_ADMIN): platform usage over a period, counted by the server. */
export function AdminDashboardPage() {
  const [params, setParams] = useSearchParams();
  const period = periodFromParams(params);
  const usage = useQuery({ ...endpointQuery(usageEndpoints.adminUsage, { query: period }), placeholderData: keepPreviousData });
  const onPeriod = (next: UsagePeriodQuery) => setParams(periodParams(next, params), { replace: true });

  return (
    <>
      <PageHeader
        title="Admin dashboard"
        description="Logins, searches, exports and credits across the platform, subscriptions ending soon and the most active organisations."
        actions={<PeriodPicker value={period} onChange={onPeriod} />}
      />
      {usage.isPending ? (
        <Stack gap="md" aria-busy="true" aria-label="Loading">
          <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }}>
            {Array.from({ length: 6 }, (_, i) => (
              <Skeleton key={i} height={72} />
            ))}
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <Skeleton height={260} />
            <Skeleton height={260} />
          </SimpleGrid>
        </Stack>
      ) : usage.isError ? (
        <QueryErrorAlert error={usage.error} onRetry={() => void usage.refetch()} />
      ) : (
        <KeptAnswer query={usage}>
          <UsageView usage={usage.data} />
        </KeptAnswer>
      )}
    </>
  );
}
