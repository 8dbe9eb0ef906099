import { Group, Loader, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { chemistryEndpoints } from '@kb/contracts/chemistry';
import type { PropertyColumn, StructureProperties } from '@kb/contracts/search';
import { errorMessage } from '../../../app/api-client.ts';
import { endpointQuery } from '../../../app/query.ts';
import { formatCount } from '../../../app/format/count-format.ts';

/** The knowledge base's range of each property (`properties/minmax`), for hints beside the inputs. */
export function usePropertyRanges() {
  const ranges = useQuery({ ...endpointQuery(chemistryEndpoints.propertiesMinMax, {}), staleTime: 10 * 60_000 });
  return new Map((ranges.data?.properties ?? []).map((p) => [p.column as PropertyColumn, p]));
}

const round = (value: number) => (Math.abs(value) >= 100 ? Math.round(value) : Number(value.toFixed(1)));

/** "120–980 · 1,000 known": the range a property takes in the knowledge base. */
export function rangeHint(range: { min: number | null; max: number | null; known: number } | undefined): string | undefined {
  if (!range || range.min === null || range.max === null) return range && range.known === 0 ? 'not known for any structure' : undefined;
  return `${round(range.min)}–${round(range.max)} · ${formatCount(range.known)} known`;
}

/** How many structures the ranges keep (`structure/physicochemical/structural`), as the chemist types. */
export function PropertyCount({ properties }: { properties: StructureProperties }) {
  const [debounced] = useDebouncedValue(JSON.stringify(properties), 400);
  const parsed = JSON.parse(debounced) as StructureProperties;
  const set = Object.values(parsed).some((v) => v !== null && v !== undefined);
  const count = useQuery({
    ...endpointQuery(chemistryEndpoints.physicochemicalStructural, { body: { properties: parsed } }),
    enabled: set,
    retry: false,
  });
  if (!set) return null;
  if (count.isError) {
    return (
      <Text size="xs" c="red" data-testid="property-count">
        {errorMessage(count.error)}
      </Text>
    );
  }
  return (
    <Group gap={6} data-testid="property-count">
      {count.isFetching && <Loader size={12} />}
      {count.data && (
        <Text size="xs" c="dimmed">
          {formatCount(count.data.count)} of {formatCount(count.data.total)} structures are in these ranges.
        </Text>
      )}
    </Group>
  );
}
