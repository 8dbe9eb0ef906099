import { useMemo } from 'react';
import type { ChartItem } from '@kb/contracts/charts';
import { BAR_ROW_PX, fullLabel, listChartOption } from './bar-options.ts';
import type { ChartValue, PickMode } from './chart-filters.ts';
import { useECharts } from './use-echarts.ts';

interface ListChartProps {
  label: string;
  items: ChartItem[];
  picked: ChartValue[];
  mode: PickMode;
  onToggle: (item: ChartItem) => void;
}

/** A List chart: one horizontal bar per value; clicking a bar picks or unpicks it. */
export function ListChart({ label, items, picked, mode, onToggle }: ListChartProps) {
  const option = useMemo(() => listChartOption(items, picked, mode), [items, picked, mode]);
  const container = useECharts(option, ({ dataIndex }) => {
    const item = items[dataIndex];
    if (item) onToggle(item);
  });
  return (
    <div
      ref={container}
      data-testid="bar-chart"
      role="img"
      aria-label={`${label}: ${items.map((item) => `${fullLabel(item)} ${item.count}`).join(', ')}`}
      style={{ width: '100%', height: items.length * BAR_ROW_PX + 12 }}
    />
  );
}
