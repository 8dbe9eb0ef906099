import { ActionIcon, Badge, Button, Chip, Group, MultiSelect, SegmentedControl, Select, Stack, Text } from '@mantine/core';
import { IconX } from '@tabler/icons-react';
import { useState } from 'react';
import type { SheetAggregate, SheetEndpointOption, SheetProperty, SheetSuggestResponse } from '@kb/contracts/sheet';
import { SHEET_MAX_DIFFERENCES, SHEET_MAX_ENDPOINTS, SHEET_PROPERTIES, SHEET_PROPERTY_LABELS } from '@kb/contracts/sheet';
import { formatCount } from '../../../app/format/count-format.ts';
import type { SheetConfig } from './sheet-config.ts';
import { addDifference, endpointKey, removeDifference, withEndpoints } from './sheet-config.ts';

const AGGREGATE_OPTIONS: { value: SheetAggregate; label: string }[] = [
  { value: 'median', label: 'Median' },
  { value: 'geomean', label: 'Geometric mean' },
  { value: 'best', label: 'Best' },
];

/** "IC50 · EGFR · 1,204 compounds": the count in the list only, so the chosen pills stay short. */
function optionLabel(option: SheetEndpointOption): string {
  return `${option.label} · ${formatCount(option.compounds)} compounds`;
}

/** Targets and assays measured for the sheet's compounds, most covered first, searchable; at most 20. */
export function EndpointPicker({
  suggestions,
  config,
  onChange,
}: {
  suggestions: SheetSuggestResponse;
  config: SheetConfig;
  onChange: (config: SheetConfig) => void;
}) {
  const all = [...suggestions.targets, ...suggestions.assays];
  const byKey = new Map(all.map((option) => [endpointKey(option.endpoint), option]));
  // A chosen endpoint stays listed even if the suggestions no longer hold it.
  for (const option of config.endpoints) byKey.set(endpointKey(option.endpoint), option);
  const group = (label: string, options: readonly SheetEndpointOption[]) => ({
    group: label,
    items: options.map((option) => ({ value: endpointKey(option.endpoint), label: option.label })),
  });
  return (
    <MultiSelect
      label="Endpoints"
      description={`Target or assay × activity type; up to ${SHEET_MAX_ENDPOINTS}, the most measured first`}
      placeholder={config.endpoints.length === 0 ? 'Search a target, gene or assay' : undefined}
      searchable
      clearable
      maxValues={SHEET_MAX_ENDPOINTS}
      hidePickedOptions
      limit={200}
      data={[group('Targets', suggestions.targets), group('Assays', suggestions.assays)]}
      renderOption={({ option }) => {
        const known = byKey.get(option.value);
        return known ? optionLabel(known) : option.label;
      }}
      value={config.endpoints.map((option) => endpointKey(option.endpoint))}
      onChange={(keys) =>
        onChange(
          withEndpoints(
            config,
            keys.flatMap((key) => byKey.get(key) ?? []),
          ),
        )
      }
      nothingFoundMessage="No endpoint measured for these compounds matches"
      comboboxProps={{ withinPortal: true }}
      maxDropdownHeight={360}
      data-testid="sheet-endpoints"
    />
  );
}

export function AggregateChoice({ config, onChange }: { config: SheetConfig; onChange: (config: SheetConfig) => void }) {
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500}>
        Cell value
      </Text>
      <SegmentedControl
        size="xs"
        value={config.aggregate}
        onChange={(value) => onChange({ ...config, aggregate: value as SheetAggregate, page: 0 })}
        data={AGGREGATE_OPTIONS}
        aria-label="Cell value"
        data-testid="sheet-aggregate"
      />
    </Stack>
  );
}

export function PropertyChoice({ config, onChange }: { config: SheetConfig; onChange: (config: SheetConfig) => void }) {
  const change = (values: string[]) => {
    const properties = SHEET_PROPERTIES.filter((key) => values.includes(key));
    // A sort or filter on a property no longer shown goes with it.
    const gone = (column: string) =>
      (SHEET_PROPERTIES as readonly string[]).includes(column) && !properties.includes(column as SheetProperty);
    onChange({
      ...config,
      properties,
      sort: config.sort && gone(config.sort.column) ? null : config.sort,
      filters: config.filters.filter((filter) => !gone(filter.column)),
      page: 0,
    });
  };
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500}>
        Properties
      </Text>
      <Chip.Group multiple value={config.properties} onChange={change}>
        <Group gap={6}>
          {SHEET_PROPERTIES.map((key) => (
            <Chip key={key} value={key} size="xs" data-testid={`sheet-property-${key}`}>
              {SHEET_PROPERTY_LABELS[key]}
            </Chip>
          ))}
        </Group>
      </Chip.Group>
    </Stack>
  );
}

/** "A − B" of two molar endpoints (pActivity differences are selectivity); up to 10. */
export function DifferenceBuilder({ config, onChange }: { config: SheetConfig; onChange: (config: SheetConfig) => void }) {
  const [a, setA] = useState<string | null>(null);
  const [b, setB] = useState<string | null>(null);
  const molar = config.endpoints.map((option, index) => ({ option, index })).filter(({ option }) => option.molar);
  const data = molar.map(({ option, index }) => ({ value: String(index), label: option.label }));
  const full = config.differences.length >= SHEET_MAX_DIFFERENCES;
  if (molar.length < 2)
    return (
      <Text size="xs" c="dimmed">
        Differences (A − B) need two endpoints in molar units (pActivity).
      </Text>
    );
  return (
    <Stack gap={6}>
      <Text size="sm" fw={500}>
        Differences
      </Text>
      {config.differences.map((difference, index) => (
        <Badge
          key={`${difference.a}-${difference.b}`}
          variant="light"
          tt="none"
          size="lg"
          rightSection={
            <ActionIcon
              size="xs"
              variant="transparent"
              onClick={() => onChange(removeDifference(config, index))}
              aria-label="Remove this difference"
            >
              <IconX size={12} />
            </ActionIcon>
          }
        >
          {config.endpoints[difference.a]?.label} − {config.endpoints[difference.b]?.label}
        </Badge>
      ))}
      <Group gap={6} align="center" wrap="nowrap">
        <Select
          size="xs"
          placeholder="A"
          data={data}
          value={a}
          onChange={setA}
          aria-label="Endpoint A"
          style={{ flex: 1, minWidth: 0 }}
          comboboxProps={{ withinPortal: true }}
        />
        <Text size="sm">−</Text>
        <Select
          size="xs"
          placeholder="B"
          data={data}
          value={b}
          onChange={setB}
          aria-label="Endpoint B"
          style={{ flex: 1, minWidth: 0 }}
          comboboxProps={{ withinPortal: true }}
        />
        <Button
          size="xs"
          variant="default"
          disabled={a === null || b === null || a === b || full}
          onClick={() => {
            onChange(addDifference(config, Number(a), Number(b)));
            setA(null);
            setB(null);
          }}
          data-testid="sheet-add-difference"
        >
          Add
        </Button>
      </Group>
    </Stack>
  );
}
