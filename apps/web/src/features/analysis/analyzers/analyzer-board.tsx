import { SimpleGrid, Stack } from '@mantine/core';
import { useState } from 'react';
import type { AnalyzerChartConfig, AnalyzerTab } from '@kb/contracts/analyzers';
import type { ResultsScope } from '../../results/results-store.ts';
import { DistributionCard } from './distribution-card.tsx';
import { HeatmapCard } from './heatmap-card.tsx';
import { ScaffoldsCard } from './scaffolds-card.tsx';
import { ScatterCard } from './scatter-card.tsx';
import type { BrushedRows } from './scatter-points.ts';
import { SelectionBar } from './selection-bar.tsx';
import { TreemapCard } from './treemap-card.tsx';

export interface BoardProps {
  scope: ResultsScope;
  sessionId: string;
  tab: AnalyzerTab;
  charts: AnalyzerChartConfig[];
  onChange: (charts: AnalyzerChartConfig[]) => void;
}

const NONE: BrushedRows = { ids: [], sample: null };

/** The charts of one tab; rows brushed on a scatter become a selection with its actions above the board. */
export function AnalyzerBoard({ scope, sessionId, tab, charts, onChange }: BoardProps) {
  const [brushed, setBrushed] = useState<BrushedRows>(NONE);
  const replace = (index: number) => (config: AnalyzerChartConfig) => onChange(charts.map((c, i) => (i === index ? config : c)));

  const card = (config: AnalyzerChartConfig, index: number) => {
    switch (config.chart) {
      case 'scatter':
        return <ScatterCard key={index} sessionId={sessionId} tab={tab} config={config} onChange={replace(index)} onSelect={setBrushed} />;
      case 'distribution':
        return <DistributionCard key={index} sessionId={sessionId} tab={tab} config={config} onChange={replace(index)} />;
      case 'heatmap':
        return <HeatmapCard key={index} sessionId={sessionId} tab={tab} config={config} />;
      case 'treemap':
        return <TreemapCard key={index} sessionId={sessionId} tab={tab} />;
      case 'scaffolds':
        return <ScaffoldsCard key={index} sessionId={sessionId} tab={tab} config={config} />;
    }
  };
  // The scatter, scaffolds and the heatmap need the page's width (a scatter's points and its colour
  // legend beside them); the other charts sit two by two on a wide screen.
  const wide = (config: AnalyzerChartConfig) => config.chart === 'scatter' || config.chart === 'scaffolds' || config.chart === 'heatmap';
  const indexed = charts.map((config, index) => ({ config, index }));

  return (
    <Stack gap="md">
      {brushed.ids.length > 0 && (
        <SelectionBar scope={scope} sessionId={sessionId} tab={tab} brushed={brushed} onClear={() => setBrushed(NONE)} />
      )}
      <SimpleGrid cols={{ base: 1, xl: 2 }} spacing="md">
        {indexed.filter(({ config }) => !wide(config)).map(({ config, index }) => card(config, index))}
      </SimpleGrid>
      {indexed.filter(({ config }) => wide(config)).map(({ config, index }) => card(config, index))}
    </Stack>
  );
}
