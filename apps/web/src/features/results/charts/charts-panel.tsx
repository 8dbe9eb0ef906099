import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconFilterOff } from '@tabler/icons-react';
import { useMemo } from 'react';
import type { ResultTabKey } from '@kb/contracts/result-tabs';
import { useSearchChartsStore } from '../../search/saved/search-charts-store.ts';
import { AppliedFilterChips } from './applied-filter-chips.tsx';
import { ChartCard } from './chart-card.tsx';
import { ChartChooser } from './chart-chooser.tsx';
import { replaceChartFilter } from './chart-filters.ts';
import { enabledDefinitions } from './chart-options.ts';
import { FilterScopeNote } from './filter-scope-note.tsx';
import { MissingLabels } from './missing-labels.tsx';
import { useChartDataStatus } from './use-chart-data-status.ts';
import { useSavedFilters } from './use-saved-filters.ts';
import { useTabFilters } from './use-tab-filters.ts';
import { useValueLabels } from './use-value-labels.ts';

export interface ChartsPanelProps {
  sessionId: string;
  tab: ResultTabKey;
  /** Called once the server took a filter change: the page refetches its rows and counts. */
  onFiltersChanged: () => void;
}

/**
 * The left column of the results (spec §3, §4 "Charts"): the tab's applied filters as chips, the
 * enabled charts, each of which filters the tab, and Reset all. Charts are asked for once the
 * session's chart data is ready.
 */
export function ChartsPanel({ sessionId, tab, onFiltersChanged }: ChartsPanelProps) {
  const status = useChartDataStatus(sessionId);
  const tabFilters = useTabFilters(sessionId, tab, onFiltersChanged);
  useSavedFilters(tabFilters.session.data, onFiltersChanged);
  const enabled = useSearchChartsStore((state) => state.enabledCharts);
  const charts = useMemo(() => enabledDefinitions(enabled), [enabled]);
  const { labelsOf, remember } = useValueLabels();
  const { filters, applyFilters, busy } = tabFilters;

  return (
    <Stack gap="sm" data-testid="charts-panel">
      <Group justify="space-between" gap={4}>
        <Title order={2} size="h5">
          Filters
        </Title>
        <Group gap={4}>
          <ChartChooser />
          <Button
            size="compact-xs"
            variant="subtle"
            color="red"
            leftSection={<IconFilterOff size={14} />}
            disabled={!tabFilters.anyFilters || busy}
            onClick={() => void tabFilters.resetAll()}
          >
            Reset all
          </Button>
        </Group>
      </Group>
      {/* Filters of hidden charts still show as chips: name their values too. */}
      {filters
        .filter((filter) => !charts.some((chart) => chart.chartKey === filter.chartKey))
        .map((filter) => (
          <MissingLabels
            key={filter.chartKey}
            sessionId={sessionId}
            tab={tab}
            chartKey={filter.chartKey}
            values={[...(filter.include ?? []), ...(filter.exclude ?? [])]}
            labels={labelsOf(filter.chartKey)}
            enabled={status === 'ready'}
            onLabels={remember}
          />
        ))}
      <AppliedFilterChips
        filters={filters}
        labelsOf={labelsOf}
        disabled={busy}
        onRemove={(chartKey) => void applyFilters(replaceChartFilter(filters, chartKey, null))}
      />
      {tabFilters.session.data && <FilterScopeNote session={tabFilters.session.data} tab={tab} busy={busy} onChanged={onFiltersChanged} />}
      {status === 'pending' && (
        <Text size="xs" c="dimmed" role="status">
          Preparing the charts of this search…
        </Text>
      )}
      {status === 'none' ? (
        <Text size="xs" c="dimmed" role="status">
          This search has no chart data. Run the search again to see its charts.
        </Text>
      ) : (
        charts.map((chart) => (
          <ChartCard
            key={`${tab}:${chart.chartKey}`}
            sessionId={sessionId}
            tab={tab}
            chart={chart}
            ready={status === 'ready'}
            filters={filters}
            applyFilters={applyFilters}
            busy={busy}
            labels={labelsOf(chart.chartKey)}
            onLabels={remember}
          />
        ))
      )}
      {charts.length === 0 && (
        <Text size="xs" c="dimmed">
          No charts chosen. Choose some under “Charts”.
        </Text>
      )}
    </Stack>
  );
}
