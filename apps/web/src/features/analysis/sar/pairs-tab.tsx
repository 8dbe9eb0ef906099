import { Alert, Anchor, Badge, Button, Card, Group, NumberInput, Progress, SegmentedControl, Stack, Table, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import type { ReactNode } from 'react';
import { IconChevronDown, IconChevronRight } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import type { SarEndpoint } from '@kb/contracts/sar';
import type { Transformation } from '@kb/contracts/sar-pairs';
import { sarPairsEndpoints } from '@kb/contracts/sar-pairs';
import { formatNumber } from '../../../app/format/number-format.ts';
import { countNoun } from '../../../app/format/plural.ts';
import { QueryErrorAlert, EmptyState } from '../../../app/ui/query-view.tsx';
import { structureLeafletHref } from '../../chemistry/structure-highlight.ts';
import { StructureImage } from '../../chemistry/structure-image.tsx';
import { activityText, sarValue, signedValue } from './sar-model.ts';
import { useCancelSar, useSarProgress } from './sar-queries.ts';
import type { PairsFilter } from './pairs-queries.ts';
import { useSarPairs } from './pairs-queries.ts';
import { RGroupDrawing } from './sar-parts.tsx';

/** The constant part without its attachment point: drawn with highlightMode 'rest', what was changed is coloured. */
function constantQuery(constant: string): string {
  return constant.replace(/-?\[\*:\d+\]/g, '').replace(/\(\)/g, '');
}

/** Δ of every pair as a small histogram on a scale symmetric around 0 (a line marks 0). */
function DeltaDistribution({ transformation }: { transformation: Transformation }) {
  const width = 150;
  const height = 44;
  const bins = 15;
  const reach = Math.max(1, Math.abs(transformation.minDelta), Math.abs(transformation.maxDelta));
  const counts = new Array<number>(bins).fill(0);
  for (const d of transformation.deltas) counts[Math.min(bins - 1, Math.max(0, Math.floor(((d + reach) / (2 * reach)) * bins)))]! += 1;
  const top = Math.max(...counts, 1);
  const barWidth = width / bins;
  const label = `Δ of ${countNoun(transformation.pairs, 'pair')}: ${signedValue(transformation.minDelta)} to ${signedValue(transformation.maxDelta)}`;
  return (
    <Stack gap={0} align="center">
      <svg width={width} height={height} role="img" aria-label={label} data-testid="sar-transformation-distribution">
        <title>{label}</title>
        {counts.map((count, i) =>
          count > 0 ? (
            <rect
              key={i}
              x={i * barWidth + 1}
              y={height - 12 - (count / top) * (height - 14)}
              width={barWidth - 2}
              height={(count / top) * (height - 14)}
              fill={(i + 0.5) / bins < 0.5 ? 'var(--mantine-color-red-5)' : 'var(--mantine-color-teal-6)'}
            />
          ) : null,
        )}
        <line x1={width / 2} x2={width / 2} y1={0} y2={height - 12} stroke="var(--mantine-color-gray-6)" strokeDasharray="2 2" />
        <line x1={0} x2={width} y1={height - 12} y2={height - 12} stroke="var(--mantine-color-gray-4)" />
        <text x={0} y={height - 1} fontSize={9} fill="var(--mantine-color-dimmed)">
          {signedValue(-reach)}
        </text>
        <text x={width} y={height - 1} fontSize={9} textAnchor="end" fill="var(--mantine-color-dimmed)">
          {signedValue(reach)}
        </text>
      </svg>
    </Stack>
  );
}

/** One pair side by side: both compounds with the changed part coloured, their values and Δ. */
function PairRow({ pair }: { pair: Transformation['examples'][number] }) {
  const changed = constantQuery(pair.constant);
  const member = (m: typeof pair.a) => (
    <Stack gap={2} align="center">
      <Anchor
        component={Link}
        to={structureLeafletHref(m.strId, null)}
        aria-label={`Open the leaflet of structure ${m.strId}`}
        display="block"
      >
        <StructureImage
          strId={m.strId}
          highlight={changed}
          highlightKind="smiles"
          highlightMode="rest"
          width={190}
          height={130}
          alt={`Structure ${m.strId}`}
        />
      </Anchor>
      <Text size="sm">
        <Anchor component={Link} to={structureLeafletHref(m.strId, null)}>
          Structure {m.strId}
        </Anchor>{' '}
        · {activityText(m.activity)}
      </Text>
    </Stack>
  );
  return (
    <Table.Tr>
      <Table.Td>{member(pair.a)}</Table.Td>
      <Table.Td ta="center">
        <Text size="lg" c="dimmed" aria-hidden>
          →
        </Text>
      </Table.Td>
      <Table.Td>{member(pair.b)}</Table.Td>
      <Table.Td>
        <Text fw={600}>{signedValue(pair.delta)}</Text>
      </Table.Td>
    </Table.Tr>
  );
}

function TransformationRow({ transformation }: { transformation: Transformation }) {
  const [open, setOpen] = useState(false);
  return (
    <Card withBorder padding="xs" data-testid="sar-transformation">
      <Group gap="sm" wrap="nowrap">
        <Button
          variant="subtle"
          size="compact-sm"
          onClick={() => setOpen((v) => !v)}
          aria-expanded={open}
          aria-label={`${open ? 'Hide' : 'Show'} the ${countNoun(transformation.pairs, 'pair')} of ${transformation.from} to ${transformation.to}`}
        >
          {open ? <IconChevronDown size={16} /> : <IconChevronRight size={16} />}
        </Button>
        <RGroupDrawing smiles={transformation.from} width={110} height={70} />
        <Text size="lg" c="dimmed" aria-hidden>
          →
        </Text>
        <RGroupDrawing smiles={transformation.to} width={110} height={70} />
        <Stack gap={2} ml="md" miw={190}>
          <Text size="sm" fw={600}>
            mean Δ {signedValue(transformation.meanDelta)} · median {signedValue(transformation.medianDelta)}
          </Text>
          <Text size="sm" c="dimmed">
            {countNoun(transformation.pairs, 'pair')} · sd {sarValue(transformation.sdDelta)} · {signedValue(transformation.minDelta)} to{' '}
            {signedValue(transformation.maxDelta)}
          </Text>
          {transformation.environment && (
            <Text
              size="xs"
              ff="monospace"
              c="dimmed"
              title="The constant part around the cut"
              data-testid="sar-transformation-environment"
              style={{ wordBreak: 'break-all' }}
            >
              at {transformation.environment}
            </Text>
          )}
        </Stack>
        <DeltaDistribution transformation={transformation} />
      </Group>
      {open && (
        <Table mt="xs" fz="sm" withTableBorder data-testid="sar-transformation-pairs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>A (from)</Table.Th>
              <Table.Th />
              <Table.Th>B (to)</Table.Th>
              <Table.Th>Δ (B − A)</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {transformation.examples.length < transformation.pairs && (
              <Table.Tr>
                <Table.Td colSpan={4}>
                  <Text
                    size="xs"
                    c="dimmed"
                  >{`${transformation.examples.length} of the ${transformation.pairs} pairs are listed; the mean and spread count them all.`}</Text>
                </Table.Td>
              </Table.Tr>
            )}
            {transformation.examples.map((pair) => (
              <PairRow key={`${pair.a.strId}-${pair.b.strId}`} pair={pair} />
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Card>
  );
}

/** Matched molecular pairs: single-cut transformations in their environment and what they do to activity. */
export function PairsTab({
  sessionId,
  endpoint,
  minPairs,
  onMinPairs,
}: {
  sessionId: string;
  endpoint: SarEndpoint;
  minPairs: number;
  onMinPairs: (minPairs: number) => void;
}) {
  const [radius, setRadius] = useState(0);
  const [minMeanDelta, setMinMeanDelta] = useState(0);
  const [sign, setSign] = useState<PairsFilter['sign']>('any');
  const [filter] = useDebouncedValue<PairsFilter>({ minPairs, radius, minMeanDelta, sign }, 400);
  return (
    <Stack gap="sm">
      <Group gap="md" align="flex-end">
        <NumberInput
          label="Seen in at least"
          description="pairs per transformation"
          min={1}
          max={100}
          step={1}
          allowDecimal={false}
          value={minPairs}
          onChange={(value) => typeof value === 'number' && value >= 1 && onMinPairs(value)}
          w={170}
          data-testid="sar-min-pairs"
        />
        <NumberInput
          label="|mean Δ| at least"
          description="activity change"
          min={0}
          max={10}
          step={0.5}
          decimalScale={2}
          value={minMeanDelta}
          onChange={(value) => typeof value === 'number' && value >= 0 && setMinMeanDelta(value)}
          w={150}
          data-testid="sar-pairs-min-mean"
        />
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            Pairs agree
          </Text>
          <SegmentedControl
            size="xs"
            value={sign}
            onChange={(value) => setSign(value as PairsFilter['sign'])}
            data={[
              { value: 'any', label: 'Any' },
              { value: 'consistent', label: 'All the same way' },
              { value: 'mixed', label: 'Mixed' },
            ]}
            data-testid="sar-pairs-sign"
          />
        </Stack>
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            Environment
          </Text>
          <SegmentedControl
            size="xs"
            value={String(radius)}
            onChange={(value) => setRadius(Number(value))}
            data={[
              { value: '0', label: 'None' },
              { value: '1', label: 'Radius 1' },
              { value: '2', label: 'Radius 2' },
            ]}
            data-testid="sar-pairs-radius"
          />
        </Stack>
      </Group>
      <PairsList sessionId={sessionId} endpoint={endpoint} filter={filter} />
    </Stack>
  );
}

function PairsList({ sessionId, endpoint, filter }: { sessionId: string; endpoint: SarEndpoint; filter: PairsFilter }): ReactNode {
  const { minPairs } = filter;
  const pairs = useSarPairs(sessionId, endpoint, filter, true);
  const progress = useSarProgress(sessionId, pairs.isFetching);
  const cancel = useCancelSar(sessionId);
  if (pairs.isPending && !pairs.isFetching) {
    return (
      <Group gap="sm" data-testid="sar-pairs-stopped">
        <Text size="sm">The matched-pair search was stopped.</Text>
        <Button size="xs" onClick={() => void pairs.refetch()}>
          Find the matched pairs
        </Button>
      </Group>
    );
  }
  if (pairs.isPending || (pairs.isFetching && !pairs.data)) {
    const p = progress.data;
    const percent = p && p.total > 0 ? (100 * p.done) / p.total : 0;
    return (
      <Stack gap="xs" role="status" data-testid="sar-pairs-progress">
        <Text size="sm">Cutting the compounds into fragments and matching the pairs…</Text>
        <Progress value={percent} animated={percent === 0} />
        <Group>
          <Button size="xs" variant="default" onClick={() => void cancel(sarPairsEndpoints.sarPairs.path)}>
            Cancel
          </Button>
        </Group>
      </Stack>
    );
  }
  if (pairs.isError)
    return <QueryErrorAlert title="The matched pairs could not be found" error={pairs.error} onRetry={() => void pairs.refetch()} />;
  const data = pairs.data;
  if (!data || data.transformations.length === 0)
    return (
      <EmptyState>{`No transformation is seen in ${countNoun(minPairs, 'pair')} or more among these compounds${minPairs > 1 || filter.minMeanDelta > 0 || filter.sign !== 'any' ? ': lower the number of pairs or loosen the filters' : ''}.`}</EmptyState>
    );
  return (
    <Stack gap="xs" data-testid="sar-pairs">
      <Group gap="xs">
        <Text size="sm" data-testid="sar-pairs-count" data-value={data.total}>
          {countNoun(data.total, 'transformation')} in {countNoun(data.compounds, 'compound')}
          {data.total > data.transformations.length ? ` · the ${data.transformations.length} with most pairs shown` : ''}
        </Text>
        <Badge variant="light" color="gray">
          {formatNumber(data.durationMs / 1000, { unit: 's' })}
        </Badge>
      </Group>
      {data.note && (
        <Alert color="yellow" variant="light" data-testid="sar-pairs-note">
          {data.note}
        </Alert>
      )}
      {data.transformations.map((transformation) => (
        <TransformationRow
          key={`${transformation.environment}|${transformation.from}>${transformation.to}`}
          transformation={transformation}
        />
      ))}
    </Stack>
  );
}
