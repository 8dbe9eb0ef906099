import { useMemo } from 'react';
import { Card, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import type { KbLoad } from '@kb/contracts/kb-loads';
import { entityLabel } from '@kb/contracts/kb-loads';
import { formatCount } from '../../../app/format/count-format.ts';
import { useUsageChart } from '../usage/usage-echarts.ts';
import type { UsageChartOption } from '../usage/usage-echarts.ts';

/** A share to one decimal, rounded down: "100.0 %" only when nothing is missing, "< 0.1 %" when little is there. */
const pct = (part: number, whole: number) => {
  if (whole <= 0) return '—';
  const tenths = Math.floor((1000 * part) / whole);
  return part > 0 && tenths === 0 ? '< 0.1 %' : `${(tenths / 10).toFixed(1)} %`;
};

/** Added / updated / retired per entity as stacked bars; the same figures are in the table beside it. */
function ChangesChart({ load }: { load: KbLoad }) {
  const option = useMemo<UsageChartOption>(() => chartOption(load.report?.changes ?? []), [load.report]);
  const ref = useUsageChart(option);
  const changes = load.report?.changes ?? [];
  const description = `Changes of load ${load.loadId}: ${changes.map((c) => `${entityLabel(c.entity)} +${c.added} ~${c.updated} -${c.retired}`).join('; ')}`;
  return <div ref={ref} style={{ height: 240 }} role="img" aria-label={description} />;
}

function chartOption(changes: NonNullable<KbLoad['report']>['changes']): UsageChartOption {
  return {
    animation: false,
    grid: { left: 110, right: 16, top: 28, bottom: 24 },
    legend: { top: 0, data: ['Added', 'Updated', 'Retired'] },
    tooltip: { trigger: 'axis', valueFormatter: (value) => (typeof value === 'number' ? formatCount(value) : String(value)) },
    xAxis: { type: 'value', minInterval: 1 },
    yAxis: { type: 'category', data: changes.map((c) => entityLabel(c.entity)) },
    series: [
      { type: 'bar', name: 'Added', stack: 'c', data: changes.map((c) => c.added), itemStyle: { color: '#2f9e44' } },
      { type: 'bar', name: 'Updated', stack: 'c', data: changes.map((c) => c.updated), itemStyle: { color: '#1c7ed6' } },
      { type: 'bar', name: 'Retired', stack: 'c', data: changes.map((c) => c.retired), itemStyle: { color: '#e8590c' } },
    ],
  };
}

/** One load's report: what changed per entity, then the data-quality report. */
export function LoadReport({ load }: { load: KbLoad }) {
  const report = load.report;
  if (!report)
    return (
      <Text c="dimmed" size="sm">
        No report yet: the load is {load.status}.
      </Text>
    );
  const q = report.quality;
  return (
    <Stack data-testid="load-report">
      <SimpleGrid cols={{ base: 1, lg: 2 }}>
        <Card withBorder radius="md" padding="md">
          <Title order={4} size="h5" mb="xs">
            What changed
          </Title>
          <Table striped data-testid="load-changes">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Entity</Table.Th>
                <Table.Th ta="right">Added</Table.Th>
                <Table.Th ta="right">Updated</Table.Th>
                <Table.Th ta="right">Retired</Table.Th>
                <Table.Th ta="right">Total now</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {report.changes.map((c) => (
                <Table.Tr key={c.entity} data-entity={c.entity}>
                  <Table.Td>{entityLabel(c.entity)}</Table.Td>
                  <Table.Td ta="right">{formatCount(c.added)}</Table.Td>
                  <Table.Td ta="right">{formatCount(c.updated)}</Table.Td>
                  <Table.Td ta="right">{formatCount(c.retired)}</Table.Td>
                  <Table.Td ta="right">{formatCount(c.total)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Card>
        <Card withBorder radius="md" padding="md">
          <ChangesChart load={load} />
        </Card>
      </SimpleGrid>
      {q && (
        <Card withBorder radius="md" padding="md" data-testid="load-quality">
          <Title order={4} size="h5" mb="xs">
            Data quality
          </Title>
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <Table>
              <Table.Tbody>
                <Table.Tr>
                  <Table.Td>Activities with a structure</Table.Td>
                  <Table.Td ta="right">
                    {pct(q.activities.withStructure, q.activities.total)} ({formatCount(q.activities.withStructure)} of{' '}
                    {formatCount(q.activities.total)})
                  </Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Td>Activities standardised</Table.Td>
                  <Table.Td ta="right">{pct(q.activities.standardised, q.activities.total)}</Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Td>Unit conversions to µM</Table.Td>
                  <Table.Td ta="right">{formatCount(q.activities.unitConversions)}</Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Td>Compounds with a structure</Table.Td>
                  <Table.Td ta="right">
                    {pct(q.compounds.withStructure, q.compounds.total)} ({formatCount(q.compounds.withStructure)} of{' '}
                    {formatCount(q.compounds.total)})
                  </Table.Td>
                </Table.Tr>
                {q.rowsPerEntity.map((r) => (
                  <Table.Tr key={r.entity}>
                    <Table.Td>{entityLabel(r.entity)} rows</Table.Td>
                    <Table.Td ta="right">{formatCount(r.rows)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            <div>
              <Text fw={600} size="sm" mb={4}>
                Rows skipped, and why
              </Text>
              {q.skipped.length === 0 ? (
                <Text size="sm" c="dimmed">
                  None.
                </Text>
              ) : (
                <Table data-testid="load-skipped">
                  <Table.Tbody>
                    {q.skipped.map((s) => (
                      <Table.Tr key={`${s.step}:${s.reason}`}>
                        <Table.Td>{s.step}</Table.Td>
                        <Table.Td>{s.reason}</Table.Td>
                        <Table.Td ta="right">{formatCount(s.rows)}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              )}
            </div>
          </SimpleGrid>
        </Card>
      )}
      {report.notes.length > 0 && (
        <Stack gap={2}>
          {report.notes.map((note) => (
            <Text key={note} size="sm" c="dimmed">
              {note}
            </Text>
          ))}
        </Stack>
      )}
    </Stack>
  );
}
