import { SegmentedControl } from '@mantine/core';
import type { GridDensity } from '../results-store.ts';
import { useResultsStore } from '../results-store.ts';
import { DENSITY_LABELS } from '../grid/grid-layout.ts';

const OPTIONS = (Object.keys(DENSITY_LABELS) as GridDensity[]).map((value) => ({ value, label: DENSITY_LABELS[value] }));

function isDensity(value: string): value is GridDensity {
  return value in DENSITY_LABELS;
}

/** Row density of every results grid: the user's choice, kept with the column choices. */
export function DensityControl() {
  const density = useResultsStore((state) => state.density);
  const setDensity = useResultsStore((state) => state.setDensity);
  return (
    <SegmentedControl
      size="xs"
      value={density}
      onChange={(value) => {
        if (isDensity(value)) setDensity(value);
      }}
      data={OPTIONS}
      aria-label="Row density"
      data-testid="grid-density"
    />
  );
}
