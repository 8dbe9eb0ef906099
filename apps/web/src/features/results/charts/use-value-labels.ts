import { useCallback, useState } from 'react';
import type { ChartItem } from '@kb/contracts/charts';
import type { ValueLabels } from './chart-filters.ts';

const NO_LABELS: ValueLabels = new Map();

/**
 * Labels of chart values seen so far, per chart (bars, value searches): filters hold ids, and a
 * chip or a pick should read "J Med Chem 2010", not "12345".
 */
export function useValueLabels() {
  const [labels, setLabels] = useState<ReadonlyMap<string, ValueLabels>>(new Map());
  const remember = useCallback((chartKey: string, items: readonly ChartItem[]) => {
    setLabels((previous) => {
      const known = previous.get(chartKey) ?? NO_LABELS;
      const fresh = items.filter((item) => known.get(String(item.id)) !== item.label);
      if (fresh.length === 0) return previous;
      const next = new Map(known);
      for (const item of fresh) next.set(String(item.id), item.label);
      return new Map(previous).set(chartKey, next);
    });
  }, []);
  const labelsOf = useCallback((chartKey: string) => labels.get(chartKey) ?? NO_LABELS, [labels]);
  return { labelsOf, remember };
}
