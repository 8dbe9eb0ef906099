import { useMemo } from 'react';
import type { z } from 'zod';
import type { AnalyzerTab, TreemapDataSchema } from '@kb/contracts/analyzers';
import { countNoun } from '../../../app/format/plural.ts';
import type { AnalyzerChartOption } from './analyzer-echarts.ts';
import { useAnalyzerChart } from './analyzer-echarts.ts';
import { useVisualization } from './analyzer-queries.ts';
import { CHART_PX, ChartFrame } from './chart-frame.tsx';

type TreemapData = z.infer<typeof TreemapDataSchema>;

function treemapOption(data: TreemapData): AnalyzerChartOption {
  return {
    animation: false,
    tooltip: { formatter: (p: unknown) => `${(p as { name: string }).name}: ${countNoun((p as { value: number }).value, 'compound')}` },
    series: [
      {
        type: 'treemap',
        name: 'All target classes',
        roam: false,
        leafDepth: 2,
        breadcrumb: { show: true, bottom: 0 },
        label: { show: true, formatter: '{b}' },
        upperLabel: { show: true, height: 20 },
        levels: [{ itemStyle: { borderWidth: 2, gapWidth: 2, borderColor: '#fff' } }, { itemStyle: { gapWidth: 1 } }],
        data: data.root,
      },
    ],
  } as AnalyzerChartOption;
}

function TreemapView({ data }: { data: TreemapData }) {
  const option = useMemo(() => treemapOption(data), [data]);
  const container = useAnalyzerChart(option);
  return <div ref={container} role="img" aria-label="Compounds per target class" style={{ width: '100%', height: CHART_PX }} />;
}

export function TreemapCard({ sessionId, tab }: { sessionId: string; tab: AnalyzerTab }) {
  const query = useVisualization<'treemap'>(sessionId, tab, { chart: 'treemap' });
  return (
    <ChartFrame
      title="Compounds per target class"
      testId="analyzer-treemap"
      query={query}
      isEmpty={(data) => data.root.length === 0}
      empty="No activity of this tab has a target."
      note={(data) =>
        `${countNoun(data.total, 'compound')} in all; a compound tested on targets of two classes counts in both. Click a class to look inside.`
      }
    >
      {(data) => <TreemapView data={data} />}
    </ChartFrame>
  );
}
