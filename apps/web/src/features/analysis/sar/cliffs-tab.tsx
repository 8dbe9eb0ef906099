import { Anchor, Badge, Card, Group, NumberInput, Pagination, Select, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useDebouncedValue } from '@mantine/hooks';
import { Link } from 'react-router';
import type { StructureHighlight } from '@kb/contracts/results';
import type { SarEndpoint, SarMeasure } from '@kb/contracts/sar';
import type { ActivityCliff, CliffDifference } from '@kb/contracts/sar-cliffs';
import { formatCount } from '../../../app/format/count-format.ts';
import { countNoun } from '../../../app/format/plural.ts';
import { QueryView } from '../../../app/ui/query-view.tsx';
import { structureLeafletHref } from '../../chemistry/structure-highlight.ts';
import { activityText, sameMeasure, sarValue, signedValue } from './sar-model.ts';
import { CLIFFS_PER_PAGE, useSarCliffs } from './cliffs-queries.ts';
import { CompoundDrawing } from './sar-parts.tsx';

/** How each kind of common part was found, said under the pair (docs/sar.md "Activity cliffs"). */
const DIFFERENCE_NOTE: Record<CliffDifference['kind'], string | null> = {
  mcs: null,
  partial: 'Common part: the largest RDKit found in its time limit',
  core: 'Common part: the SAR core',
  environment: 'Common part: atoms with the same neighbours in both',
};

/**
 * A member's drawing: large enough to read a drug-sized compound (a 55-atom degrader at 200 × 140
 * was a smudge); two of them and the pair's numbers fill a card at 1440 px.
 */
const MEMBER_WIDTH = 380;
const MEMBER_HEIGHT = 220;

/**
 * A pair member: what lies outside the part it shares with the other compound is coloured (what
 * differs). Both members are laid out on that common part (RDKit's aligned coordinates from one
 * template), so the shared core sits in the same orientation in both drawings; without one, on the
 * SAR core when they contain it. The leaflet links carry the SAR table's core.
 */
function Member({
  member,
  common,
  aligned,
  highlight,
  difference,
}: {
  member: ActivityCliff['a'];
  common: string | null;
  aligned: StructureHighlight | null;
  highlight: StructureHighlight | null;
  /** The cliffs compare a difference column: the member's value is that difference. */
  difference: boolean;
}) {
  const drawn = common
    ? { highlight: { kind: 'smarts' as const, text: common }, highlightMode: 'rest' as const }
    : { highlight, highlightMode: 'match' as const };
  return (
    <Stack gap={2} align="center">
      <CompoundDrawing
        strId={member.strId}
        {...drawn}
        align={aligned}
        leafletHighlight={highlight}
        width={MEMBER_WIDTH}
        height={MEMBER_HEIGHT}
        hover={{ width: 640, height: 400 }}
      />
      <Anchor component={Link} to={structureLeafletHref(member.strId, highlight)} size="sm">
        Structure {member.strId}
      </Anchor>
      <Text size="sm">{difference ? `Δ pActivity ${signedValue(member.activity.value)}` : activityText(member.activity)}</Text>
    </Stack>
  );
}

function CliffCard({
  cliff,
  rank,
  highlight,
  onDifference,
}: {
  cliff: ActivityCliff;
  rank: number;
  highlight: StructureHighlight | null;
  onDifference: boolean;
}) {
  const difference = cliff.difference;
  const note = difference ? DIFFERENCE_NOTE[difference.kind] : null;
  // One template for both: the pair's common substructure, else the SAR core (a drawing that does not contain it keeps its own layout).
  const aligned: StructureHighlight | null = cliff.common ? { kind: 'smarts', text: cliff.common } : highlight;
  return (
    <Card withBorder padding="sm" data-testid="sar-cliff" data-difference={difference?.kind ?? 'none'} data-aligned={aligned?.text ?? ''}>
      <Group justify="space-between" wrap="nowrap" align="center">
        <Text size="sm" c="dimmed" w={36}>
          #{rank}
        </Text>
        <Member member={cliff.a} common={difference?.a ?? null} aligned={aligned} highlight={highlight} difference={onDifference} />
        <Stack gap={2} align="center" miw={150}>
          <Text size="sm">similarity {sarValue(cliff.similarity)}</Text>
          <Text size="sm" fw={600}>
            Δ {sarValue(cliff.delta)}
          </Text>
          <Text size="sm" c="dimmed">
            SALI {sarValue(cliff.sali)}
          </Text>
          {note && (
            <Text size="xs" c="dimmed" maw={170} ta="center" data-testid="sar-cliff-difference-note">
              {note}
            </Text>
          )}
          {difference === null && (
            <Text size="xs" c="dimmed" maw={170} ta="center" data-testid="sar-cliff-no-common">
              Difference not drawn: RDKit could not read one of the compounds{highlight ? '; the core is highlighted' : ''}
            </Text>
          )}
        </Stack>
        <Member member={cliff.b} common={difference?.b ?? null} aligned={aligned} highlight={highlight} difference={onDifference} />
      </Group>
    </Card>
  );
}

/**
 * The SAR core the pairs' MCS starts from (the request's `core`, read as SMILES by the server): the
 * table's core arrives as a highlight of kind 'smarts' written as SMILES (its R positions removed,
 * sar-model.ts coreHighlight), and is the seed; a query SMARTS (an MCS picked before the table is
 * built: `[#6]`, `&`, `;`) is none.
 */
function seedCore(highlight: StructureHighlight | null): string | null {
  if (!highlight || highlight.text.length > 2_000) return null;
  if (highlight.kind === 'smiles') return highlight.text;
  return /\[#\d|[&;,!~]/.test(highlight.text) ? null : highlight.text;
}

/** What the cliffs can compare: an endpoint of the SAR view (A, B …) or a difference column (endpoint − minus). */
export interface CliffsChoice {
  measure: SarMeasure;
  label: string;
  endpoint: SarEndpoint;
  minus: SarEndpoint | null;
}

export interface CliffsTabProps {
  sessionId: string;
  /** The endpoints and difference columns of the view (the first: A). */
  choices: readonly CliffsChoice[];
  choice: SarMeasure | null;
  onChoice: (measure: SarMeasure) => void;
  minSimilarity: number;
  minDelta: number;
  onThresholds: (change: { minSimilarity?: number; minDelta?: number }) => void;
  /** The core of the SAR table: carried by the leaflet links, and drawn in a pair whose MCS is unknown. */
  highlight: StructureHighlight | null;
}

/** Activity cliffs: similar compounds with very different activity, ranked by SALI. */
export function CliffsTab({ sessionId, choices, choice, onChoice, minSimilarity, minDelta, onThresholds, highlight }: CliffsTabProps) {
  const [similarity] = useDebouncedValue(minSimilarity, 400);
  const [delta] = useDebouncedValue(minDelta, 400);
  const [page, setPage] = useState(0);
  const chosen = (choice && choices.find((c) => sameMeasure(c.measure, choice))) || choices[0]!;
  const key = (m: SarMeasure) => `${m.kind}:${m.index}`;
  const onDifference = chosen.minus !== null;
  // New thresholds or values make a new ranking: back to its first page.
  const valuesKey = JSON.stringify([chosen.endpoint, chosen.minus]);
  useEffect(() => setPage(0), [similarity, delta, valuesKey]);
  const core = seedCore(highlight);
  const cliffs = useSarCliffs(sessionId, chosen.endpoint, chosen.minus, similarity, delta, page, core, true);
  // The list on screen stays the previous ranking while new thresholds wait out their debounce or their
  // answer (kept so the page does not blank): it is said so, and the count names the thresholds it answers.
  const [answered, setAnswered] = useState<string | null>(null);
  const settled = cliffs.data !== undefined && !cliffs.isPlaceholderData;
  useEffect(() => {
    if (settled) setAnswered(`${similarity}/${delta}/${valuesKey}`);
  }, [settled, similarity, delta, valuesKey]);
  const shownCurrent =
    (settled && similarity === minSimilarity && delta === minDelta) || answered === `${minSimilarity}/${minDelta}/${valuesKey}`;
  return (
    <Stack gap="sm">
      <Group gap="md" align="flex-end">
        {choices.length > 1 && (
          <Select
            label="Values"
            description="An endpoint, or a difference column (selectivity)"
            data={choices.map((c) => ({ value: key(c.measure), label: c.label }))}
            value={key(chosen.measure)}
            onChange={(picked) => {
              const found = choices.find((c) => key(c.measure) === picked);
              if (found) onChoice(found.measure);
            }}
            allowDeselect={false}
            w={420}
            data-testid="sar-cliff-measure"
          />
        )}
        <NumberInput
          label="Similarity at least"
          description="Tanimoto, Morgan r=2"
          min={0.5}
          max={1}
          step={0.05}
          decimalScale={2}
          value={minSimilarity}
          onChange={(value) => typeof value === 'number' && onThresholds({ minSimilarity: value })}
          w={170}
          data-testid="sar-cliff-similarity"
        />
        <NumberInput
          label="Δ activity at least"
          description="|difference|"
          min={0}
          max={10}
          step={0.5}
          decimalScale={2}
          value={minDelta}
          onChange={(value) => typeof value === 'number' && onThresholds({ minDelta: value })}
          w={170}
          data-testid="sar-cliff-delta"
        />
      </Group>
      <QueryView
        query={cliffs}
        isEmpty={(data) => data.cliffs.length === 0}
        empty="No pair of compounds passes both thresholds: lower the similarity or the Δ."
        skeletonRows={4}
        keepsPrevious
      >
        {(data) => {
          const pages = Math.ceil(data.listed / CLIFFS_PER_PAGE);
          const pager =
            pages > 1 ? (
              <Group gap="sm">
                <Pagination
                  total={pages}
                  value={page + 1}
                  onChange={(value) => setPage(value - 1)}
                  size="sm"
                  data-testid="sar-cliffs-pages"
                />
                {cliffs.isFetching && (
                  <Badge variant="light" color="gray" data-testid="sar-cliffs-page-loading">
                    Drawing the differences…
                  </Badge>
                )}
              </Group>
            ) : null;
          return (
            <Stack gap="xs" data-testid="sar-cliffs" data-offset={data.offset}>
              {!shownCurrent && (
                <Badge variant="light" color="blue" data-testid="sar-cliffs-reranking">
                  Ranking the pairs at similarity ≥ {minSimilarity}, Δ ≥ {minDelta}…
                </Badge>
              )}
              <Text
                size="sm"
                data-testid="sar-cliffs-count"
                data-value={data.total}
                data-thresholds={shownCurrent ? `${minSimilarity}/${minDelta}` : undefined}
                c={shownCurrent ? undefined : 'dimmed'}
              >
                {countNoun(data.total, 'cliff')} among {formatCount(data.compared)} pairs of {countNoun(data.compounds, 'compound')}
                {data.total > data.listed ? ` · the ${formatCount(data.listed)} with the highest SALI listed` : ''}
                {pages > 1 ? ` · ${formatCount(data.offset + 1)}–${formatCount(data.offset + data.cliffs.length)} shown` : ''}
              </Text>
              <Text size="xs" c="dimmed" data-testid="sar-cliffs-key">
                <Text span c="orange.7" fw={700}>
                  Orange
                </Text>{' '}
                = what differs from the other compound of the pair (outside what the two share). Both are drawn in one orientation, laid out
                on what they share.
              </Text>
              {pager}
              {data.cliffs.map((cliff, index) => (
                <CliffCard
                  key={`${cliff.a.strId}-${cliff.b.strId}`}
                  cliff={cliff}
                  rank={data.offset + index + 1}
                  highlight={highlight}
                  onDifference={onDifference}
                />
              ))}
              {pager}
            </Stack>
          );
        }}
      </QueryView>
    </Stack>
  );
}
