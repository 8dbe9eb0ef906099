import { Checkbox, Loader, ScrollArea, Stack, Text, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useEffect } from 'react';
import type { ChartItem, ChartType } from '@kb/contracts/charts';
import type { ResultTabKey } from '@kb/contracts/result-tabs';
import { errorMessage } from '../../../app/api-client.ts';
import { formatCount } from '../../../app/format/count-format.ts';
import type { ChartValue } from './chart-filters.ts';
import { hasValue } from './chart-filters.ts';
import { useValueSearch } from './use-value-search.ts';
import { fullLabel } from './bar-options.ts';

interface ValueSearchProps {
  sessionId: string;
  tab: ResultTabKey;
  chartKey: string;
  chartType: ChartType;
  chartLabel: string;
  picked: ChartValue[];
  onToggle: (item: ChartItem) => void;
  /** Values the search found, so that their labels can name picks and chips. */
  onItems: (items: ChartItem[]) => void;
}

/** The left-hand filter of a List chart (spec "lhsf"): find values beyond the bars shown, and pick them. */
export function ValueSearch({ sessionId, tab, chartKey, chartType, chartLabel, picked, onToggle, onItems }: ValueSearchProps) {
  const search = useValueSearch(sessionId, tab, chartType, chartKey);
  const items = search.query?.data?.chartData;
  useEffect(() => {
    if (items) onItems(items);
  }, [items, onItems]);

  return (
    <Stack gap={4}>
      <TextInput
        size="xs"
        placeholder="Filter values…"
        aria-label={`Filter ${chartLabel} values`}
        leftSection={<IconSearch size={14} />}
        rightSection={search.searching ? <Loader size={12} /> : null}
        value={search.text}
        onChange={(event) => search.setText(event.currentTarget.value)}
      />
      {search.query?.isError && (
        <Text size="xs" c="red" role="alert">
          {errorMessage(search.query.error)}
        </Text>
      )}
      {items && search.active && (
        <ScrollArea.Autosize mah={200} type="auto" data-testid="value-search-results">
          {items.length === 0 ? (
            <Text size="xs" c="dimmed">
              No matching values
            </Text>
          ) : (
            <Stack gap={4}>
              {items.map((item) => (
                <Checkbox
                  key={String(item.id)}
                  size="xs"
                  checked={hasValue(picked, item.id)}
                  onChange={() => onToggle(item)}
                  label={`${fullLabel(item)} (${formatCount(item.count)})`}
                  data-value={String(item.id)}
                />
              ))}
            </Stack>
          )}
        </ScrollArea.Autosize>
      )}
    </Stack>
  );
}
