import { Alert, Anchor, Badge, Button, Card, Group, NumberInput, Progress, Stack, Table, Text } from '@mantine/core';
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
import { useSarPairs } from './pairs-queries.ts';
import { RGroupDrawing } from './sar-parts.tsx';

function TransformationRow({ transformation }: { transformation: Transformation }) {
  const [open, setOpen] = useState(false);
  return (
    <Card withBorder padding="xs" data-testid="sar-transformation">
      <Group gap="sm" wrap="nowrap">
        <Button variant="subtle" size="compact-sm" onClick={() => setOpen((v) => !v)} aria-expanded={open} aria-label={`${open ? 'Hide' : 'Show'} the ${countNoun(transformation.pairs, 'pair')} of ${transformation.from} to ${transformation.to}`}>
          {open ? <IconChevronDown size={16} /> : <IconChevronRight size={16} />}
        </Button>
        <RGroupDrawing smiles={transformation.from} width={110} height={70} />
        <Text size="lg" c="dimmed" aria-hidden>
          →
        </Text>
        <RGroupDrawing smiles={transformation.to} width={110} height={70} />
        <Stack gap={0} ml="md">
          <Text size="sm" fw={600}>
            mean Δ {signedValue(transformation.meanDelta)} ± {sarValue(transformation.sdDelta)}
          </Text>
          <Text size="sm" c="dimmed">
            {countNoun(transformation.pairs, 'pair')}
          </Text>
        </Stack>
      </Group>
      {open && (
        <Table mt="xs" fz="sm" withTableBorder data-testid="sar-transformation-pairs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>A</Table.Th>
              <Table.Th>B</Table.Th>
              <Table.Th>Constant part</Table.Th>
              <Table.Th>Δ (B − A)</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {transformation.examples.length < transformation.pairs && (
              <Table.Tr>
                <Table.Td colSpan={4}>
                  <Text size="xs" c="dimmed">{`${transformation.examples.length} of the ${transformation.pairs} pairs are listed; the mean and spread count them all.`}</Text>
                </Table.Td>
              </Table.Tr>
            )}
            {transformation.examples.map((pair) => (
              <Table.Tr key={`${pair.a.strId}-${pair.b.strId}`}>
                <Table.Td>
                  <Anchor component={Link} to={structureLeafletHref(pair.a.strId, null)}>
                    {pair.a.strId}
                  </Anchor>{' '}
                  · {activityText(pair.a.activity)}
                </Table.Td>
                <Table.Td>
                  <Anchor component={Link} to={structureLeafletHref(pair.b.strId, null)}>
                    {pair.b.strId}
                  </Anchor>{' '}
                  · {activityText(pair.b.activity)}
                </Table.Td>
                <Table.Td>
                  <StructureImage smiles={pair.constant} width={120} height={70} alt={`Constant part ${pair.constant}`} />
                </Table.Td>
                <Table.Td>{signedValue(pair.delta)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Card>
  );
}

/** Matched molecular pairs: single-cut transformations and what they do to activity. */
export function PairsTab({ sessionId, endpoint, minPairs, onMinPairs }: { sessionId: string; endpoint: SarEndpoint; minPairs: number; onMinPairs: (minPairs: number) => void }) {
  const [debounced] = useDebouncedValue(minPairs, 400);
  return (
    <Stack gap="sm">
      <NumberInput label="Seen in at least" description="pairs per transformation" min={1} max={100} step={1} allowDecimal={false} value={minPairs} onChange={(value) => typeof value === 'number' && value >= 1 && onMinPairs(value)} w={170} data-testid="sar-min-pairs" />
      <PairsList sessionId={sessionId} endpoint={endpoint} minPairs={debounced} />
    </Stack>
  );
}

function PairsList({ sessionId, endpoint, minPairs }: { sessionId: string; endpoint: SarEndpoint; minPairs: number }): ReactNode {
  const pairs = useSarPairs(sessionId, endpoint, minPairs, true);
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
  if (pairs.isError) return <QueryErrorAlert title="The matched pairs could not be found" error={pairs.error} onRetry={() => void pairs.refetch()} />;
  const data = pairs.data;
  if (!data || data.transformations.length === 0) return <EmptyState>{`No transformation is seen in ${countNoun(minPairs, 'pair')} or more among these compounds${minPairs > 1 ? ': lower the number of pairs' : ''}.`}</EmptyState>;
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
        <TransformationRow key={`${transformation.from}>${transformation.to}`} transformation={transformation} />
      ))}
    </Stack>
  );
}
