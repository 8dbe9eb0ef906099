import { Paper, Skeleton, Stack, Text } from '@mantine/core';
import { useCallback, useEffect } from 'react';
import type { ChartDefinition, ChartItem, ChartResponse } from '@kb/contracts/charts';
import type { ResultTabKey } from '@kb/contracts/result-tabs';
import type { AppliedFilter } from '@kb/contracts/search';
import { ChartCardFooter } from './chart-card-footer.tsx';
import { ChartCardHeader } from './chart-card-header.tsx';
import type { ChartDraft, ValueLabels } from './chart-filters.ts';
import { EMPTY_DRAFT, draftDiffers, draftProblem, filterFromDraft, replaceChartFilter, toggleValue } from './chart-filters.ts';
import { nextMaxCount } from './chart-options.ts';
import { ImageChart } from './image-chart.tsx';
import { ListChart } from './list-chart.tsx';
import { MissingLabels } from './missing-labels.tsx';
import { PickedValues } from './picked-values.tsx';
import { RangeChart } from './range-chart.tsx';
import { TreeChart } from './tree-chart.tsx';
import { useChartData } from './use-chart-data.ts';
import { useChartDraft } from './use-chart-draft.ts';
import { ValueSearch } from './value-search.tsx';

export interface ChartCardProps {
  sessionId: string;
  tab: ResultTabKey;
  chart: ChartDefinition;
  /** The session's chart data is ready to be asked for. */
  ready: boolean;
  /** The tab's applied filters (every chart's). */
  filters: AppliedFilter[];
  applyFilters: (next: AppliedFilter[]) => Promise<boolean>;
  busy: boolean;
  labels: ValueLabels;
  onLabels: (chartKey: string, items: ChartItem[]) => void;
}

function ChartSkeleton() {
  return (
    <Stack gap={6} aria-label="Loading chart">
      {[80, 64, 52, 40].map((width) => (
        <Skeleton key={width} height={14} width={`${width}%`} radius="sm" />
      ))}
    </Stack>
  );
}

interface ChartBodyProps {
  props: ChartCardProps;
  data: ChartResponse;
  draft: ChartDraft;
  setDraft: (update: (draft: ChartDraft) => ChartDraft) => void;
}

function ChartBody({ props, data, draft, setDraft }: ChartBodyProps) {
  const { chart } = props;
  const toggle = (item: ChartItem) => setDraft((current) => toggleValue(current, item.id));
  if (chart.chartType === 'Range') {
    if (data.min === null || data.max === null || data.chartData.length === 0) return <EmptyChart />;
    return <RangeChart chart={data} draft={draft} onChange={({ min, max }) => setDraft((current) => ({ ...current, min, max }))} />;
  }
  const body =
    data.chartData.length === 0 ? (
      <EmptyChart />
    ) : chart.chartType === 'List' ? (
      <ListChart label={chart.chartLabel} items={data.chartData} picked={draft.values} mode={draft.mode} onToggle={toggle} />
    ) : chart.chartType === 'Image' ? (
      <ImageChart items={data.chartData} picked={draft.values} mode={draft.mode} onToggle={toggle} />
    ) : (
      <TreeChart items={data.chartData} picked={draft.values} onChange={(values) => setDraft((current) => ({ ...current, values }))} />
    );
  return (
    <>
      {body}
      {chart.chartType === 'List' && (
        <ValueSearch
          sessionId={props.sessionId}
          tab={props.tab}
          chartKey={chart.chartKey}
          chartType={chart.chartType}
          chartLabel={chart.chartLabel}
          picked={draft.values}
          onToggle={toggle}
          onItems={(items) => props.onLabels(chart.chartKey, items)}
        />
      )}
      <PickedValues
        values={draft.values}
        mode={draft.mode}
        labels={props.labels}
        onRemove={(value) => setDraft((current) => toggleValue(current, value))}
      />
    </>
  );
}

function EmptyChart() {
  return (
    <Text size="xs" c="dimmed" ta="center" py="sm" data-testid="chart-empty">
      No values in these results
    </Text>
  );
}

/**
 * One chart of the panel: its data for the tab, the user's picks on it, and Apply / Clear, which
 * send the tab's whole filter list with this chart's part replaced.
 */
export function ChartCard(props: ChartCardProps) {
  const { sessionId, tab, chart, ready, filters, applyFilters, busy, onLabels } = props;
  const data = useChartData(sessionId, tab, chart.chartKey, ready);
  const applied = filters.find((filter) => filter.chartKey === chart.chartKey) ?? null;
  const { draft, setDraft } = useChartDraft(applied);

  const chartData = data.data?.chartData;
  const rememberLabels = useCallback((items: ChartItem[]) => onLabels(chart.chartKey, items), [onLabels, chart.chartKey]);
  useEffect(() => {
    if (chartData) rememberLabels(chartData);
  }, [chartData, rememberLabels]);

  const next = filterFromDraft(chart.chartKey, chart.chartType, draft);
  const canApply = !busy && draftProblem(draft) === null && draftDiffers(chart.chartKey, chart.chartType, draft, applied);
  const more = chart.chartType === 'List' || chart.chartType === 'Image' ? nextMaxCount(data.maxCount) : null;
  const showMore = data.data && more !== null && data.data.chartData.length < data.data.distinct ? () => data.setMaxCount(more) : null;

  const clear = () => {
    setDraft((current) => ({ ...EMPTY_DRAFT, mode: current.mode }));
    if (applied) void applyFilters(replaceChartFilter(filters, chart.chartKey, null));
  };

  return (
    <Paper
      withBorder
      p="xs"
      radius="md"
      data-testid="chart-card"
      data-chart={chart.chartKey}
      aria-busy={data.loading || data.refreshing}
      aria-label={chart.chartLabel}
      component="section"
    >
      <Stack gap={6}>
        <MissingLabels
          sessionId={sessionId}
          tab={tab}
          chartKey={chart.chartKey}
          values={draft.values}
          labels={props.labels}
          shown={chartData}
          enabled={data.data !== undefined && !data.refreshing}
          onLabels={onLabels}
        />
        <ChartCardHeader
          title={chart.chartLabel}
          description={chart.description}
          sort={chart.chartType === 'Range' ? null : data.sort}
          onSort={data.setSort}
          refreshing={data.refreshing}
          failed={data.failed}
          onRetry={data.retry}
        />
        {data.data ? (
          <ChartBody props={props} data={data.data} draft={draft} setDraft={setDraft} />
        ) : data.failed ? (
          <Text size="xs" c="dimmed" ta="center" py="sm">
            Not available just now
          </Text>
        ) : (
          <ChartSkeleton />
        )}
        <ChartCardFooter
          chart={data.data}
          mode={chart.chartType === 'Range' ? null : draft.mode}
          onMode={(mode) => setDraft((current) => ({ ...current, mode }))}
          canApply={canApply}
          canClear={applied !== null || next !== null}
          busy={busy}
          onApply={() => void applyFilters(replaceChartFilter(filters, chart.chartKey, next))}
          onClear={clear}
          onShowMore={showMore}
        />
      </Stack>
    </Paper>
  );
}
