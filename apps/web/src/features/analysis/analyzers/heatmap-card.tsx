import { Anchor, Group, Paper, Stack, Text } from '@mantine/core';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import type { z } from 'zod';
import type { AnalyzerTab, HeatmapConfigSchema, HeatmapDataSchema } from '@kb/contracts/analyzers';
import { formatPchembl } from '../../../app/format/number-format.ts';
import { ACTIVITY } from '../../../app/format/nouns.ts';
import { countNoun } from '../../../app/format/plural.ts';
import { targetLabel as shortTargetLabel } from '../../../app/format/target-label.ts';
import { StructureImage } from '../../chemistry/structure-image.tsx';
import { structureLeafletPath } from '../../leaflets/leaflet-format.ts';
import type { AnalyzerChartOption } from './analyzer-echarts.ts';
import { useAnalyzerChart } from './analyzer-echarts.ts';
import { useVisualization } from './analyzer-queries.ts';
import { CHART_PX, ChartFrame } from './chart-frame.tsx';
import type { HeatmapHover } from './heatmap-hover.tsx';
import { HeatmapHoverCard } from './heatmap-hover.tsx';

type HeatmapConfig = z.infer<typeof HeatmapConfigSchema>;
type HeatmapData = z.infer<typeof HeatmapDataSchema>;
type Cell = HeatmapData['cells'][number];

/**
 * A target's row label: its gene symbol or a short name (four "Tyrosine-protein kinase …" cut to
 * one width read alike), marked when the search's rows are on it; the full name is in the tooltip.
 */
function targetLabel(target: HeatmapData['targets'][number]): string {
  const name = shortTargetLabel(target.name, target.geneSymbol);
  return target.inSearch ? `{searched|${name} ●}` : name;
}

/** Grey, hatched: a compound never measured on a target, told apart from a low pActivity. */
const NO_DATA_STYLE = {
  color: '#f8f9fa',
  decal: { symbol: 'rect', symbolSize: 1, dashArrayX: [1, 0], dashArrayY: [1, 3], rotation: -Math.PI / 4, color: '#adb5bd' },
};

/** "EGFR" / "EGFR and ERBB2" / "3 targets": the targets of the search's rows among those drawn. */
function searchedTargets(data: Pick<HeatmapData, 'targets'>): string {
  const names = data.targets.filter((t) => t.inSearch).map((t) => t.name);
  if (names.length > 2) return countNoun(names.length, 'target');
  return names.join(' and ');
}

/** What the heatmap shows, in words: where the cells come from and which rows are the search's. */
function heatmapNote(data: Pick<HeatmapData, 'targets' | 'compounds' | 'otherTargets' | 'cellsFrom'>): string {
  const compounds = countNoun(data.compounds.length, 'compound');
  const parts = [
    `The ${compounds} of the tab most measured, on the ${countNoun(data.targets.length, 'target')} they were measured on most.`,
    `Cells: every measurement in the knowledge base of these ${compounds}, not only the search’s rows (median pActivity).`,
  ];
  const searched = searchedTargets(data);
  parts.push(searched ? `● the search’s rows are on ${searched}.` : 'None of the targets drawn is one of the search’s rows.');
  if (data.otherTargets > 0) parts.push(`${countNoun(data.otherTargets, 'other target')} measured less left out.`);
  return parts.join(' ');
}

/** The (compound, target) pairs without a measurement. */
function noDataCells(data: HeatmapData): Array<[number, number]> {
  const measured = new Set(data.cells.map((cell) => `${cell.c}:${cell.t}`));
  const missing: Array<[number, number]> = [];
  data.compounds.forEach((_, c) => {
    data.targets.forEach((_, t) => {
      if (!measured.has(`${c}:${t}`)) missing.push([c, t]);
    });
  });
  return missing;
}

function heatmapOption(data: HeatmapData, missing: ReadonlyArray<[number, number]>): AnalyzerChartOption {
  const values = data.cells.map((c) => c.value);
  return {
    animation: false,
    // Room for a gene symbol or short name (at most 22 characters), never a cut full name.
    grid: { left: 150, right: 24, top: 16, bottom: 80 },
    legend: { data: ['No data'], bottom: 0, left: 0, itemWidth: 16, itemHeight: 12 },
    xAxis: {
      type: 'category',
      name: 'Compounds (most measured first)',
      nameLocation: 'middle',
      nameGap: 12,
      data: data.compounds.map((c) => String(c.strId)),
      axisLabel: { show: false },
    },
    yAxis: {
      type: 'category',
      data: data.targets.map(targetLabel),
      axisLabel: { rich: { searched: { fontWeight: 'bold', color: '#1864ab' } } },
      splitLine: { show: true, lineStyle: { color: '#f1f3f5' } },
    },
    visualMap: {
      seriesIndex: 0,
      dimension: 2,
      min: Math.min(...values),
      max: Math.max(...values),
      calculable: true,
      orient: 'horizontal',
      left: 'center',
      bottom: 0,
      itemHeight: 160,
      text: ['pActivity', ''],
      formatter: (value: number) => formatPchembl(value),
      inRange: { color: ['#f1eef6', '#74a9cf', '#045a8d'] },
    },
    series: [
      { type: 'heatmap', name: 'pActivity', data: data.cells.map((cell) => [cell.c, cell.t, cell.value, cell.n]) },
      // A value (0, outside the colour scale's series) or ECharts skips the cell as empty and draws nothing.
      { type: 'heatmap', name: 'No data', data: missing.map(([c, t]) => [c, t, 0]), itemStyle: NO_DATA_STYLE },
    ],
  } as AnalyzerChartOption;
}

/** The picked cell: its compound drawn, with its leaflet one click away. */
function CellDetail({ data, cell }: { data: HeatmapData; cell: Cell }) {
  const compound = data.compounds[cell.c]!;
  return (
    <Paper withBorder p="sm" radius="sm" data-testid="heatmap-cell">
      <Group align="flex-start" gap="md">
        <StructureImage strId={compound.strId} width={180} height={130} alt={`Structure of compound ${compound.strId}`} />
        <Stack gap={4}>
          <Text fw={600}>
            {data.targets[cell.t]!.name}
            {data.targets[cell.t]!.inSearch ? ' (the search’s rows)' : ''}
          </Text>
          <Text size="sm">
            Compound {compound.strId}: median pActivity {formatPchembl(cell.value)} over {countNoun(cell.n, ACTIVITY)}
          </Text>
          <Anchor component={Link} to={structureLeafletPath(compound.strId)} size="sm">
            Open the compound leaflet
          </Anchor>
        </Stack>
      </Group>
    </Paper>
  );
}

function HeatmapView({ data }: { data: HeatmapData }) {
  const { option, missing } = useMemo(() => {
    const missing = noDataCells(data);
    return { option: heatmapOption(data, missing), missing };
  }, [data]);
  const [picked, setPicked] = useState<Cell | null>(null);
  const [hover, setHover] = useState<HeatmapHover | null>(null);
  const container = useAnalyzerChart(option, {
    // SVG: at most 60 × 200 cells, and its labels are text a test can measure for overlap.
    renderer: 'svg',
    onClick: ({ seriesIndex, dataIndex }) => setPicked(seriesIndex === 0 ? (data.cells[dataIndex] ?? null) : null),
    // Series 0 holds the measured cells, series 1 the (compound, target) pairs without a measurement.
    onHover: (at) => {
      if (!at) return setHover(null);
      const cell = at.seriesIndex === 0 ? (data.cells[at.dataIndex] ?? null) : null;
      const pair = cell ? [cell.c, cell.t] : missing[at.dataIndex];
      setHover(pair ? { c: pair[0]!, t: pair[1]!, cell, x: at.x, y: at.y } : null);
    },
  });
  return (
    <Stack gap="xs" style={{ position: 'relative' }}>
      {hover && <HeatmapHoverCard data={data} hover={hover} boxWidth={container.current?.clientWidth ?? 0} />}
      <div
        ref={container}
        role="img"
        aria-label="Target by compound heatmap"
        data-testid="heatmap-canvas"
        data-targets={data.targets.length}
        style={{ width: '100%', height: Math.max(CHART_PX, 60 + data.targets.length * 22) }}
      />
      {picked && <CellDetail data={data} cell={picked} />}
    </Stack>
  );
}

export function HeatmapCard({ sessionId, tab, config }: { sessionId: string; tab: AnalyzerTab; config: HeatmapConfig }) {
  const query = useVisualization<'heatmap'>(sessionId, tab, config);
  return (
    <ChartFrame
      title="Selectivity: target × compound"
      testId="analyzer-heatmap"
      query={query}
      isEmpty={(data) => data.cells.length === 0}
      empty="No activity of this tab has both a target and a pActivity."
      note={heatmapNote}
    >
      {(data) => <HeatmapView data={data} />}
    </ChartFrame>
  );
}
