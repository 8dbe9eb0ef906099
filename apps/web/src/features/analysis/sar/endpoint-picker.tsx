import { Alert, Badge, Group, Select, Text } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import type { SarEndpoint, SarEndpointOption } from '@kb/contracts/sar';
import { formatCount } from '../../../app/format/count-format.ts';
import { countNoun } from '../../../app/format/plural.ts';
import { endpointOf, endpointValue, parseEndpointValue, sameEndpoint } from './sar-model.ts';

function optionLabel(option: SarEndpointOption): string {
  return `${option.targetName} · ${option.activityType} — ${countNoun(option.compounds, 'compound')}${option.scope === 'knowledgeBase' ? ' (all measurements)' : ''}`;
}

/** Where an endpoint's values come from, as the picker groups them. */
const SCOPE_GROUPS = { set: 'In these rows', knowledgeBase: 'Every measurement of these compounds' } as const;

/** The picker's options: the rows' endpoints, then those of every measurement of the compounds (most compounds first in each, the server's order). */
export function endpointGroupsData(options: readonly SarEndpointOption[], exclude: readonly SarEndpoint[] = []) {
  return (['set', 'knowledgeBase'] as const)
    .map((scope) => ({
      group: SCOPE_GROUPS[scope],
      items: options
        .filter((option) => option.scope === scope && !exclude.some((e) => sameEndpoint(e, option)))
        .map((option) => ({ value: endpointValue(option), label: optionLabel(option) })),
    }))
    .filter((group) => group.items.length > 0);
}

/** The first endpoint the SAR view studies: its compounds are the table's rows. */
export function EndpointPicker({
  options,
  value,
  onChange,
}: {
  options: readonly SarEndpointOption[];
  value: SarEndpoint | null;
  onChange: (endpoint: SarEndpoint) => void;
}) {
  const chosen = value ? parseEndpointValue(endpointValue(value), options) : null;
  return (
    <div>
      <Select
        label="Endpoint"
        description="A target and an activity type: its compounds are the table's rows; the count is of compounds with a value"
        placeholder={options.length ? 'Choose a target · activity type' : 'No activities with a value'}
        searchable
        nothingFoundMessage="No endpoint matches"
        data={endpointGroupsData(options)}
        value={chosen ? endpointValue(chosen) : null}
        onChange={(picked) => {
          const option = picked ? parseEndpointValue(picked, options) : null;
          if (option) onChange(endpointOf(option));
        }}
        renderOption={({ option }) => {
          const endpoint = parseEndpointValue(option.value, options);
          if (!endpoint) return option.label;
          return (
            <Group gap={6} wrap="nowrap" justify="space-between" w="100%">
              <Text size="sm">
                {endpoint.targetName} · {endpoint.activityType}
              </Text>
              <Group gap={4} wrap="nowrap">
                <Badge size="xs" variant="light">
                  {formatCount(endpoint.compounds)}
                </Badge>
                {!endpoint.molar && (
                  <Badge size="xs" variant="outline" color="gray">
                    not molar
                  </Badge>
                )}
              </Group>
            </Group>
          );
        }}
        maxDropdownHeight={320}
        data-testid="sar-endpoint"
        w={460}
        allowDeselect={false}
      />
      {chosen && (
        <Text size="xs" c="dimmed" mt={4} data-testid="sar-endpoint-summary">
          {countNoun(chosen.compounds, 'compound')} · {countNoun(chosen.activities, 'measurement')} ·{' '}
          {chosen.molar ? 'values become pActivity (−log10 molar)' : 'values used as published'}
          {chosen.scope === 'knowledgeBase' ? ' · every measurement of these compounds, not only the rows' : ''}
        </Text>
      )}
      {chosen && !chosen.molar && (
        <Alert mt="xs" color="yellow" variant="light" icon={<IconInfoCircle size={16} />} maw={460} p="xs">
          {chosen.activityType} is not in molar units: its values are used as published, not converted to pActivity, and ligand efficiency
          and LipE are not computed.
        </Alert>
      )}
    </div>
  );
}
