import { Select } from '@mantine/core';
import type { AnalyzerMeasure, AnalyzerTab } from '@kb/contracts/analyzers';
import { ANALYZER_MEASURES, ANALYZER_MEASURE_LABELS, STRUCTURE_MEASURES } from '@kb/contracts/analyzers';

/** Measures a tab has: the Structures tab has no activity (pActivity, year). */
export function tabMeasures(tab: AnalyzerTab): readonly AnalyzerMeasure[] {
  return tab === 'structuretab' ? STRUCTURE_MEASURES : ANALYZER_MEASURES;
}

export function MeasurePicker<N extends boolean = false>({
  label,
  tab,
  value,
  onChange,
  nullable,
}: {
  label: string;
  tab: AnalyzerTab;
  value: AnalyzerMeasure | null;
  onChange: (value: N extends true ? AnalyzerMeasure | null : AnalyzerMeasure) => void;
  nullable?: N;
}) {
  const data = [...(nullable ? [{ value: '', label: 'None' }] : []), ...tabMeasures(tab).map((m) => ({ value: m, label: ANALYZER_MEASURE_LABELS[m] }))];
  return (
    <Select
      label={label}
      size="xs"
      w={190}
      data={data}
      value={value ?? ''}
      allowDeselect={false}
      onChange={(next) => onChange((next ? next : null) as AnalyzerMeasure)}
    />
  );
}
