import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { MAX_CHART_VALUES, chartEndpoints } from '@kb/contracts/charts';
import type { ChartItem } from '@kb/contracts/charts';
import type { ResultTabKey } from '@kb/contracts/result-tabs';
import { endpointQuery } from '../../../app/query.ts';
import type { ChartValue, ValueLabels } from './chart-filters.ts';
import { sameValue } from './chart-filters.ts';
import { chartRequest } from './chart-queries.ts';

interface MissingLabelsProps {
  sessionId: string;
  tab: ResultTabKey;
  chartKey: string;
  values: readonly ChartValue[];
  labels: ValueLabels;
  /** Values on screen now (their labels may not have reached `labels` yet). */
  shown?: readonly ChartItem[];
  /** Off until the chart's own data had its chance to name the values. */
  enabled: boolean;
  onLabels: (chartKey: string, items: ChartItem[]) => void;
}

/**
 * Names picked values no chart data named: an excluded value is gone from its (filtered) chart,
 * and after a reload nothing else has seen it. One request of the chart over every row of the tab
 * (`resetFlg`), A-Z, as many values as the server gives. Renders nothing.
 */
export function MissingLabels({ sessionId, tab, chartKey, values, labels, shown = [], enabled, onLabels }: MissingLabelsProps) {
  const missing = values.some((value) => !labels.has(String(value)) && !shown.some((item) => sameValue(item.id, value)));
  const lookup = useQuery({
    ...endpointQuery(chartEndpoints.chart, {
      body: { ...chartRequest(sessionId, tab, chartKey, { sortType: 'label', sortOrder: 'asc' }, MAX_CHART_VALUES), resetFlg: true },
    }),
    enabled: enabled && missing,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
  const items = lookup.data?.chartData;
  useEffect(() => {
    if (items) onLabels(chartKey, items);
  }, [items, chartKey, onLabels]);
  return null;
}
