import { Alert, Anchor, Badge, Card, Group, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { useMemo } from 'react';
import { Link } from 'react-router';
import type { FreeWilson, SarMeasure, SarTable } from '@kb/contracts/sar';
import { FREE_WILSON_MIN_COMPOUNDS_PER_TERM } from '@kb/contracts/sar';
import { countNoun } from '../../../app/format/plural.ts';
import { structureLeafletHref } from '../../chemistry/structure-highlight.ts';
import type { BarChartOption } from '../../../app/charts/echarts-setup.ts';
import { useECharts } from '../../results/charts/use-echarts.ts';
import { MeasurePicker, RGroupDrawing } from './sar-parts.tsx';
import { measureShortLabel, sameMeasure, sarValue, signedValue } from './sar-model.ts';
import { coreHighlights } from './sar-table-tab.tsx';
import { useVirtualCompound } from './sar-queries.ts';
import { StructureImage } from '../../chemistry/structure-image.tsx';

const ROW = 52;

type Contribution = FreeWilson['contributions'][number];

function contributionOption(items: Contribution[]): BarChartOption {
  const limit = Math.max(0.1, ...items.map((item) => Math.abs(item.contribution)));
  return {
    animation: false,
    grid: { left: 8, right: 48, top: 0, bottom: 0, containLabel: false },
    xAxis: { type: 'value', min: -limit, max: limit, show: false },
    yAxis: { type: 'category', inverse: true, show: false, data: items.map((item) => item.smiles ?? 'H') },
    tooltip: { trigger: 'item', valueFormatter: (value) => signedValue(Number(value)) },
    series: [
      {
        type: 'bar',
        barWidth: ROW * 0.5,
        data: items.map((item) => ({ value: item.contribution, itemStyle: { color: item.contribution >= 0 ? '#2f9e44' : '#e03131' } })),
        label: { show: true, position: 'right', formatter: ({ value }) => signedValue(Number(value)) },
      },
    ],
  };
}

/** One R position: its groups drawn, each beside a bar of its contribution (rows aligned with the bars). */
function PositionCard({ label, items }: { label: string; items: Contribution[] }) {
  const option = useMemo(() => contributionOption(items), [items]);
  const chart = useECharts(option);
  return (
    <Card withBorder padding="sm" data-testid="sar-fw-position">
      <Text fw={600} size="sm" mb={4}>
        {label}
      </Text>
      <Group gap={0} wrap="nowrap" align="flex-start">
        <Stack gap={0}>
          {items.map((item) => (
            <Group key={item.smiles ?? 'H'} h={ROW} gap={4} wrap="nowrap">
              <RGroupDrawing smiles={item.smiles} width={72} height={ROW - 6} />
              <Text size="xs" c="dimmed" w={36}>
                n={item.n}
              </Text>
            </Group>
          ))}
        </Stack>
        <div
          ref={chart}
          style={{ height: items.length * ROW, flex: 1, minWidth: 160 }}
          aria-label={`Contributions at ${label}`}
          role="img"
        />
      </Group>
    </Card>
  );
}

function VirtualDrawing({ core, rgroups }: { core: string; rgroups: Record<string, string | null> }) {
  const virtual = useVirtualCompound(core, rgroups, true);
  if (!virtual.data)
    return (
      <Text size="xs" c="dimmed">
        {virtual.isError ? 'Could not be built' : '…'}
      </Text>
    );
  return <StructureImage smiles={virtual.data.smiles} width={140} height={90} alt={`Virtual compound ${virtual.data.smiles}`} />;
}

/** Free-Wilson: what each R-group adds to activity, R², and the best predicted combinations. */
export function FreeWilsonTab({
  table,
  measure,
  onMeasure,
}: {
  table: SarTable;
  measure: SarMeasure;
  onMeasure: (measure: SarMeasure) => void;
}) {
  const first = measure.kind === 'endpoint' && measure.index === 0;
  const fit = first
    ? { freeWilson: table.freeWilson, note: table.freeWilsonNote }
    : (table.fits.find((f) => sameMeasure(f.measure, measure)) ?? { freeWilson: null, note: null });
  const fw = fit.freeWilson;
  const unit =
    measure.kind === 'difference'
      ? `pActivity ${measureShortLabel(table, measure)}`
      : (table.endpoints[measure.index] ?? table.endpoint).unit;
  const byLabel = useMemo(() => {
    const groups = new Map<string, Contribution[]>();
    for (const item of fw?.contributions ?? []) groups.set(item.label, [...(groups.get(item.label) ?? []), item]);
    for (const items of groups.values()) items.sort((a, b) => b.contribution - a.contribution);
    return [...groups.entries()];
  }, [fw]);
  const picker = <MeasurePicker table={table} value={measure} onChange={onMeasure} />;
  if (!fw) {
    return (
      <Stack gap="md">
        {picker}
        <Alert color="gray" variant="light" data-testid="sar-fw-none">
          No Free-Wilson analysis of these values{fit.note ? `: ${fit.note}` : '.'}
        </Alert>
      </Stack>
    );
  }
  const highlight = coreHighlights(table)[0] ?? null;
  return (
    <Stack gap="md" data-testid="sar-free-wilson">
      {picker}
      <Group gap="md">
        <Badge size="lg" variant="light" data-testid="sar-fw-r2" title="R²: how well the fit matches the compounds it was fitted on">
          R² {sarValue(fw.r2)}
        </Badge>
        <Badge
          size="lg"
          variant="light"
          color={fw.q2 < 0.5 ? 'orange' : 'teal'}
          data-testid="sar-fw-q2"
          data-value={fw.q2}
          title="q² (leave-one-out): each compound predicted by the fit of all the others — how well the model predicts a compound it has not seen"
        >
          q² {sarValue(fw.q2)} (leave-one-out)
        </Badge>
        <Text size="sm" data-testid="sar-fw-terms">
          {countNoun(fw.compounds, 'compound')} fitted with {countNoun(fw.terms, 'term')} · contributions relative to the mean {unit}{' '}
          {sarValue(fw.intercept)}
          {table.cores.length > 1 ? ' · on the first core' : ''}
        </Text>
      </Group>
      {fw.compounds < FREE_WILSON_MIN_COMPOUNDS_PER_TERM * fw.terms && (
        <Alert color="orange" variant="light" data-testid="sar-fw-warning" title="Nearly as many terms as compounds">
          {countNoun(fw.terms, 'term')} for {countNoun(fw.compounds, 'compound')} — fewer than {FREE_WILSON_MIN_COMPOUNDS_PER_TERM}{' '}
          compounds per term: a fit this flexible matches its own compounds whatever the groups do, so R² {sarValue(fw.r2)} overstates it.
          Read q² {sarValue(fw.q2)}, and trust contributions with a larger n. A larger core (fewer distinct R-groups) or more compounds give
          a firmer fit.
        </Alert>
      )}
      {fit.note && (
        <Alert color="gray" variant="light" data-testid="sar-fw-note">
          {fit.note} Contributions come from groups seen in at least two compounds (n).
        </Alert>
      )}
      <SimpleGrid cols={{ base: 1, md: 2, xl: 3 }} spacing="sm">
        {byLabel.map(([label, items]) => (
          <PositionCard key={label} label={label} items={items} />
        ))}
      </SimpleGrid>
      <Text fw={600} size="sm">
        Best predicted combinations
      </Text>
      <Table withTableBorder striped fz="sm" data-testid="sar-fw-best">
        <Table.Thead>
          <Table.Tr>
            {table.labels.map((label) => (
              <Table.Th key={label}>{label}</Table.Th>
            ))}
            <Table.Th>Predicted</Table.Th>
            <Table.Th>Compound</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {fw.best.map((best, index) => (
            <Table.Tr key={index}>
              {table.labels.map((label) => (
                <Table.Td key={label}>
                  <RGroupDrawing smiles={best.rgroups[label] ?? null} width={72} height={46} />
                </Table.Td>
              ))}
              <Table.Td>{sarValue(best.predicted)}</Table.Td>
              <Table.Td>
                {best.strId !== null ? (
                  <Anchor component={Link} to={structureLeafletHref(best.strId, highlight)}>
                    Made: structure {best.strId}
                  </Anchor>
                ) : (
                  <Group gap={6} wrap="nowrap">
                    <Badge size="xs" color="gray" variant="outline">
                      not made
                    </Badge>
                    <VirtualDrawing core={table.cores[0]?.smiles ?? ''} rgroups={best.rgroups} />
                  </Group>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}
