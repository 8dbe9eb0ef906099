import { Select } from '@mantine/core';
import type { ComboboxItem, ComboboxItemGroup } from '@mantine/core';
import type { AnalyzerEndpoint, AnalyzerMeasure, AnalyzerTab, EndpointOption } from '@kb/contracts/analyzers';
import { ANALYZER_MEASURES, ANALYZER_MEASURE_LABELS, STRUCTURE_MEASURES } from '@kb/contracts/analyzers';
import { formatCount } from '../../../app/format/count-format.ts';
import { endpointName } from './measure-format.ts';

/** Measures a tab has: the Structures tab has no activity of its own (pActivity is offered per endpoint, year not at all). */
function tabMeasures(tab: AnalyzerTab): readonly AnalyzerMeasure[] {
  return tab === 'structuretab' ? STRUCTURE_MEASURES : ANALYZER_MEASURES;
}

/** A picked measure: a Structures-tab pActivity comes with its endpoint. */
export interface PickedMeasure {
  measure: AnalyzerMeasure;
  endpoint: AnalyzerEndpoint | null;
}

// An option's value: the measure, or `pactivity|<target id>|<activity type>` (the id is digits, so the first two bars split it).
const endpointValue = (e: AnalyzerEndpoint) => `pactivity|${e.targetId}|${e.activityType}`;
function parseValue(value: string): PickedMeasure {
  if (!value.startsWith('pactivity|')) return { measure: value as AnalyzerMeasure, endpoint: null };
  const rest = value.slice('pactivity|'.length);
  const bar = rest.indexOf('|');
  return { measure: 'pactivity', endpoint: { targetId: Number(rest.slice(0, bar)), activityType: rest.slice(bar + 1) } };
}

/**
 * A measure of the tab. On the Structures tab, `endpoints` (the tab's, most structures first) are
 * offered as "pActivity" of each endpoint: a structure's median pActivity on it.
 */
export function MeasurePicker<N extends boolean = false>({
  label,
  tab,
  value,
  onChange,
  nullable,
  endpoints,
  endpoint,
  onPick,
}: {
  label: string;
  tab: AnalyzerTab;
  value: AnalyzerMeasure | null;
  onChange?: (value: N extends true ? AnalyzerMeasure | null : AnalyzerMeasure) => void;
  nullable?: N;
  /** Structures tab: the endpoints to offer pActivity of (with the chart's current one, `endpoint`). */
  endpoints?: readonly EndpointOption[];
  endpoint?: (AnalyzerEndpoint & { targetName?: string }) | null;
  /** Called with the measure and its endpoint (null: "None" on a nullable picker). */
  onPick?: (picked: PickedMeasure | null) => void;
}) {
  const plain: ComboboxItem[] = [
    ...(nullable ? [{ value: '', label: 'None' }] : []),
    ...tabMeasures(tab).map((m) => ({ value: m, label: ANALYZER_MEASURE_LABELS[m] })),
  ];
  const offered = [...(endpoints ?? [])];
  // The chart's endpoint stays choosable even when the list no longer has it (a saved analysis).
  if (endpoint && !offered.some((e) => e.targetId === endpoint.targetId && e.activityType === endpoint.activityType)) {
    offered.unshift({ ...endpoint, targetName: endpoint.targetName ?? `Target ${endpoint.targetId}`, structures: 0, activities: 0 });
  }
  const data: (ComboboxItem | ComboboxItemGroup<ComboboxItem>)[] =
    tab === 'structuretab' && offered.length
      ? [
          { group: 'Structure', items: plain },
          {
            group: 'pActivity: median of the structure on an endpoint',
            items: offered.map((e) => ({
              value: endpointValue(e),
              label: `pActivity, ${endpointName(e)}${e.structures ? ` (${formatCount(e.structures)} structures)` : ''}`,
            })),
          },
        ]
      : plain;
  const current = value === 'pactivity' && tab === 'structuretab' && endpoint ? endpointValue(endpoint) : (value ?? '');
  return (
    <Select
      label={label}
      size="xs"
      w={tab === 'structuretab' && offered.length ? 250 : 190}
      comboboxProps={{ width: offered.length ? 400 : 'target', position: 'bottom-start' }}
      data={data}
      value={current}
      allowDeselect={false}
      searchable={offered.length > 8}
      onChange={(next) => {
        const picked = next ? parseValue(next) : null;
        onPick?.(picked);
        onChange?.((picked?.measure ?? null) as AnalyzerMeasure);
      }}
    />
  );
}
