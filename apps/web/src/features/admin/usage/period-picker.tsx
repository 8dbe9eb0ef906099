import { Button, Group, SegmentedControl, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import type { UsagePeriodQuery } from '@kb/contracts/admin-usage';
import { USAGE_PRESET_LABELS } from '@kb/contracts/admin-usage';
import { PRESETS, customPeriodError } from '../admin-stats.ts';

const CUSTOM = 'custom';

/**
 * The period of a usage dashboard: a preset ending today, or "From–to" with two dates (checked
 * here as the server checks them: in order, at most two years). Keyboard: the presets are a radio
 * group (arrow keys), the dates ordinary date fields, Enter applies.
 */
export function PeriodPicker({ value, onChange }: { value: UsagePeriodQuery; onChange: (period: UsagePeriodQuery) => void }) {
  const custom = Boolean(value.from && value.to);
  const [mode, setMode] = useState<string>(custom ? CUSTOM : (value.period ?? '30d'));
  const [from, setFrom] = useState(value.from ?? '');
  const [to, setTo] = useState(value.to ?? '');
  const [touched, setTouched] = useState(false);
  const error = customPeriodError(from, to);

  const apply = () => {
    setTouched(true);
    if (!error) onChange({ from, to });
  };

  return (
    <Group gap="sm" align="flex-end" wrap="wrap" data-testid="period-picker">
      <SegmentedControl
        aria-label="Period"
        value={mode}
        onChange={(next) => {
          setMode(next);
          if (next !== CUSTOM) onChange({ period: next as (typeof PRESETS)[number] });
        }}
        data={[...PRESETS.map((preset) => ({ value: preset, label: USAGE_PRESET_LABELS[preset] })), { value: CUSTOM, label: 'From–to' }]}
      />
      {mode === CUSTOM && (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            apply();
          }}
        >
          <Group gap="xs" align="flex-end" wrap="wrap">
            <TextInput type="date" label="From" size="xs" value={from} onChange={(event) => setFrom(event.currentTarget.value)} />
            <TextInput type="date" label="To" size="xs" value={to} onChange={(event) => setTo(event.currentTarget.value)} />
            <Button type="submit" size="xs">
              Show
            </Button>
            {touched && error && (
              <Text size="xs" c="red" role="alert">
                {error}
              </Text>
            )}
          </Group>
        </form>
      )}
    </Group>
  );
}
