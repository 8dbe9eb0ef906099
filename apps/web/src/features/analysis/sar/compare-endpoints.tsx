import { Chip, Group, MultiSelect, Stack, Text } from '@mantine/core';
import type { SarDifference, SarEndpoint, SarEndpointOption, SarOverlapResponse } from '@kb/contracts/sar';
import { SAR_MAX_ENDPOINTS } from '@kb/contracts/sar';
import { formatCount } from '../../../app/format/count-format.ts';
import { countNoun } from '../../../app/format/plural.ts';
import { endpointGroupsData } from './endpoint-picker.tsx';
import { endpointLetter, endpointOf, endpointValue, parseEndpointValue } from './sar-model.ts';

export interface CompareEndpointsProps {
  options: readonly SarEndpointOption[];
  /** The first endpoint (A). */
  endpoint: SarEndpoint;
  /** B, C, D. */
  more: readonly SarEndpoint[];
  differences: readonly SarDifference[];
  /** Compounds of A measured on both endpoints of each pair (undefined while asked). */
  overlap: SarOverlapResponse | undefined;
  onChange: (change: { moreEndpoints: SarEndpoint[]; differences: SarDifference[] }) => void;
}

/** Compounds of A measured on both endpoints of a difference; undefined while unknown. */
export function overlapOf(overlap: SarOverlapResponse | undefined, { a, b }: SarDifference): number | undefined {
  return overlap?.pairs.find((p) => (p.a === a && p.b === b) || (p.a === b && p.b === a))?.compounds;
}

/** Why a difference column would be empty: the server's refusal, said before building. */
function emptyDifferenceMessage({ a, b }: SarDifference): string {
  const among = a === 0 ? '' : ` of ${endpointLetter(0)}`;
  return `${endpointLetter(a)} − ${endpointLetter(b)} would be empty: no compound${among} is measured on both ${endpointLetter(a)} and ${endpointLetter(b)}. Untick it, or choose endpoints measured on the same compounds.`;
}

/** Every pair of pActivity endpoints, A − B before A − C before B − C: the difference columns one may add. */
function differencePairs(molar: readonly boolean[]): SarDifference[] {
  const pairs: SarDifference[] = [];
  for (let a = 0; a < molar.length; a++) for (let b = a + 1; b < molar.length; b++) if (molar[a] && molar[b]) pairs.push({ a, b });
  return pairs;
}

/**
 * The endpoints shown beside the first (up to three more: B, C, D) and the difference columns
 * between them — selectivity is pActivity on the target minus pActivity on the anti-target. A new
 * endpoint brings its difference from A, the column a chemist asks for first.
 */
export function CompareEndpoints({ options, endpoint, more, differences, overlap, onChange }: CompareEndpointsProps) {
  const all = [endpoint, ...more];
  const optionOf = (e: SarEndpoint) => parseEndpointValue(endpointValue(e), options);
  const molar = all.map((e) => optionOf(e)?.molar ?? false);
  const pairs = differencePairs(molar);
  const isOn = (d: SarDifference) => differences.some((x) => x.a === d.a && x.b === d.b);

  const setMore = (values: string[]) => {
    const next = values.flatMap((value) => {
      const option = parseEndpointValue(value, options);
      return option ? [endpointOf(option)] : [];
    });
    // Differences keep naming the same endpoints: indices move with the endpoints removed before them.
    const indexOf = (e: SarEndpoint) => [endpoint, ...next].findIndex((x) => endpointValue(x) === endpointValue(e));
    const kept = differences.flatMap((d) => {
      const a = indexOf(all[d.a]!);
      const b = indexOf(all[d.b]!);
      return a >= 0 && b >= 0 ? [{ a, b }] : [];
    });
    const added = next.filter((e) => !more.some((m) => endpointValue(m) === endpointValue(e)));
    for (const e of added) {
      const index = indexOf(e);
      if (molar[0] && optionOf(e)?.molar && !kept.some((d) => d.a === 0 && d.b === index)) kept.push({ a: 0, b: index });
    }
    onChange({ moreEndpoints: next, differences: kept });
  };

  const toggle = (d: SarDifference) =>
    onChange({
      moreEndpoints: [...more],
      differences: isOn(d) ? differences.filter((x) => x.a !== d.a || x.b !== d.b) : [...differences, d],
    });

  return (
    <Stack gap={6} data-testid="sar-compare">
      <MultiSelect
        label="Compare with"
        description={`Up to ${SAR_MAX_ENDPOINTS - 1} more endpoints, each a column of its own (B, C, D): an anti-target, another activity type`}
        placeholder={more.length ? undefined : 'Add an endpoint (optional)'}
        searchable
        nothingFoundMessage="No endpoint matches"
        data={endpointGroupsData(options, [endpoint])}
        value={more.map(endpointValue)}
        onChange={setMore}
        maxValues={SAR_MAX_ENDPOINTS - 1}
        maxDropdownHeight={320}
        w={460}
        data-testid="sar-more-endpoints"
      />
      {more.length > 0 && (
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            Difference columns
          </Text>
          {pairs.length ? (
            <Group gap={6} role="group" aria-label="Difference columns">
              {pairs.map((d) => {
                const both = overlapOf(overlap, d);
                const letters = `${endpointLetter(d.a)}${endpointLetter(d.b)}`;
                return (
                  <Chip
                    key={`${d.a}-${d.b}`}
                    size="xs"
                    checked={isOn(d)}
                    // A pair no compound was measured on both of is offered only to be unticked.
                    disabled={both === 0 && !isOn(d)}
                    color={both === 0 ? 'red' : undefined}
                    onChange={() => toggle(d)}
                    data-testid={`sar-difference-${letters}`}
                    data-both={both ?? ''}
                    title={
                      both === undefined
                        ? undefined
                        : `${countNoun(both, 'compound')} of ${endpointLetter(0)} measured on both ${endpointLetter(d.a)} and ${endpointLetter(d.b)}`
                    }
                  >
                    {endpointLetter(d.a)} − {endpointLetter(d.b)} ·{' '}
                    {both === undefined ? '…' : both === 0 ? 'none on both' : `${formatCount(both)} on both`}
                  </Chip>
                );
              })}
            </Group>
          ) : (
            <Text size="xs" c="dimmed">
              Differences are between pActivity endpoints; these are not all in molar units.
            </Text>
          )}
          <Text size="xs" c="dimmed">
            {all
              .map(
                (e, index) =>
                  `${endpointLetter(index)} = ${optionOf(e)?.activityType ?? e.activityType} · ${optionOf(e)?.targetName ?? `target ${e.targetId}`}`,
              )
              .join('; ')}
            . A − B &gt; 0: more active on A. “On both”: compounds of A measured on both endpoints of the pair, the rows a difference column
            can fill.
          </Text>
          {differences
            .filter((d) => overlapOf(overlap, d) === 0)
            .map((d) => (
              <Text key={`${d.a}-${d.b}`} size="sm" c="red.8" role="alert" data-testid="sar-difference-empty">
                {emptyDifferenceMessage(d)}
              </Text>
            ))}
        </Stack>
      )}
    </Stack>
  );
}
