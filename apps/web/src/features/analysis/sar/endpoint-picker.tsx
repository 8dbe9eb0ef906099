import { Alert, Badge, Group, Select, Text } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import type { SarEndpoint, SarEndpointOption } from '@kb/contracts/sar';
import { formatCount } from '../../../app/format/count-format.ts';
import { countNoun } from '../../../app/format/plural.ts';
import { endpointValue, parseEndpointValue } from './sar-model.ts';

function optionLabel(option: SarEndpointOption): string {
  return `${option.targetName} · ${option.activityType} — ${countNoun(option.compounds, 'compound')}`;
}

/** The target · activity type the SAR view studies, most compounds first (the server's order). */
export function EndpointPicker({ options, value, onChange }: { options: readonly SarEndpointOption[]; value: SarEndpoint | null; onChange: (endpoint: SarEndpoint) => void }) {
  const chosen = value ? parseEndpointValue(endpointValue(value), options) : null;
  return (
    <div>
      <Select
        label="Endpoint"
        description="A target and an activity type; the count is of compounds with a value"
        placeholder={options.length ? 'Choose a target · activity type' : 'No activities with a value'}
        searchable
        nothingFoundMessage="No endpoint matches"
        data={options.map((option) => ({ value: endpointValue(option), label: optionLabel(option) }))}
        value={chosen ? endpointValue(chosen) : null}
        onChange={(picked) => {
          const option = picked ? parseEndpointValue(picked, options) : null;
          if (option) onChange({ targetId: option.targetId, activityType: option.activityType });
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
        </Text>
      )}
      {chosen && !chosen.molar && (
        <Alert mt="xs" color="yellow" variant="light" icon={<IconInfoCircle size={16} />} maw={460} p="xs">
          {chosen.activityType} is not in molar units: its values are used as published, not converted to pActivity, and ligand efficiency and LipE are not computed.
        </Alert>
      )}
    </div>
  );
}
