import { Button, Checkbox, Popover, ScrollArea, Stack, Text } from '@mantine/core';
import { IconChartBar } from '@tabler/icons-react';
import { CHART_CATALOGUE } from '@kb/contracts/charts';
import { useSearchChartsStore } from '../../search/saved/search-charts-store.ts';
import { DEFAULT_CHART_KEYS } from '../../search/saved/chart-selection.ts';

/** "Charts": which charts the panel shows (spec §4: the first four by chart order unless chosen otherwise). */
export function ChartChooser() {
  const enabled = useSearchChartsStore((state) => state.enabledCharts);
  const setEnabled = useSearchChartsStore((state) => state.setEnabledCharts);
  return (
    <Popover position="bottom-start" width={280} shadow="md" withinPortal trapFocus>
      <Popover.Target>
        <Button size="compact-xs" variant="default" leftSection={<IconChartBar size={14} />}>
          Charts
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap="xs">
          <ScrollArea.Autosize mah={360} type="auto">
            <Checkbox.Group value={enabled} onChange={setEnabled} label="Charts to show" aria-label="Charts to show">
              <Stack gap={6} mt={6}>
                {CHART_CATALOGUE.map((chart) => (
                  <Checkbox
                    key={chart.chartKey}
                    value={chart.chartKey}
                    size="xs"
                    label={chart.chartLabel}
                    description={chart.description}
                  />
                ))}
              </Stack>
            </Checkbox.Group>
          </ScrollArea.Autosize>
          <Button size="compact-xs" variant="subtle" onClick={() => setEnabled([...DEFAULT_CHART_KEYS])}>
            Back to the default charts
          </Button>
          <Text size="xs" c="dimmed">
            Filters stay applied when their chart is hidden.
          </Text>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
