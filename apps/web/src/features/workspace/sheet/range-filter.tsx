import { Badge, Button, CloseButton, Group, NumberInput, Popover, Select, Stack, Text } from '@mantine/core';
import { IconFilter } from '@tabler/icons-react';
import { useState } from 'react';
import type { SheetFilter } from '@kb/contracts/sheet';
import { formatSheetNumber } from './cell-format.ts';

export interface FilterableColumn {
  /** The server's column name (`e0`, `d1`, `mw`…). */
  value: string;
  label: string;
}

function rangeText(filter: SheetFilter): string {
  const min = filter.min ?? null;
  const max = filter.max ?? null;
  if (min !== null && max !== null) return `${formatSheetNumber(min)} – ${formatSheetNumber(max)}`;
  if (min !== null) return `≥ ${formatSheetNumber(min)}`;
  return `≤ ${formatSheetNumber(max)}`;
}

/**
 * A numeric range per column (the server filters every page; a compound without a value in the
 * column is left out while a range is set there). The active ranges show as chips that remove them.
 */
export function RangeFilters({
  columns,
  filters,
  onSet,
}: {
  columns: readonly FilterableColumn[];
  filters: readonly SheetFilter[];
  onSet: (column: string, min: number | null, max: number | null) => void;
}) {
  const [opened, setOpened] = useState(false);
  const [column, setColumn] = useState<string | null>(null);
  const [min, setMin] = useState<number | string>('');
  const [max, setMax] = useState<number | string>('');
  const asNumber = (value: number | string) => (typeof value === 'number' && Number.isFinite(value) ? value : null);
  const low = asNumber(min);
  const high = asNumber(max);
  const error = low !== null && high !== null && low > high ? 'The minimum is above the maximum' : null;
  const labelOf = (name: string) => columns.find((option) => option.value === name)?.label ?? name;

  const apply = () => {
    if (!column || error || (low === null && high === null)) return;
    onSet(column, low, high);
    setOpened(false);
    setMin('');
    setMax('');
  };

  return (
    <Group gap={6} wrap="wrap">
      <Popover opened={opened} onChange={setOpened} position="bottom-start" withArrow shadow="md" trapFocus>
        <Popover.Target>
          <Button
            size="xs"
            variant="default"
            leftSection={<IconFilter size={14} />}
            onClick={() => setOpened((open) => !open)}
            data-testid="sheet-filter-open"
          >
            Filter by range…
          </Button>
        </Popover.Target>
        <Popover.Dropdown w={300}>
          <Stack gap="xs">
            <Select
              label="Column"
              data={[...columns]}
              value={column}
              onChange={setColumn}
              comboboxProps={{ withinPortal: false }}
              data-testid="sheet-filter-column"
            />
            <Group gap="xs" grow>
              <NumberInput label="At least" value={min} onChange={setMin} decimalScale={3} data-testid="sheet-filter-min" />
              <NumberInput label="At most" value={max} onChange={setMax} decimalScale={3} error={error} data-testid="sheet-filter-max" />
            </Group>
            <Group justify="flex-end">
              <Button
                size="xs"
                onClick={apply}
                disabled={!column || error !== null || (low === null && high === null)}
                data-testid="sheet-filter-apply"
              >
                Apply
              </Button>
            </Group>
          </Stack>
        </Popover.Dropdown>
      </Popover>
      {filters.map((filter) => (
        <Badge
          key={filter.column}
          variant="light"
          tt="none"
          size="lg"
          data-testid="sheet-filter-chip"
          rightSection={
            <CloseButton
              size="xs"
              onClick={() => onSet(filter.column, null, null)}
              aria-label={`Remove the filter on ${labelOf(filter.column)}`}
            />
          }
        >
          <Text span size="xs">
            {labelOf(filter.column)}: {rangeText(filter)}
          </Text>
        </Badge>
      ))}
    </Group>
  );
}
