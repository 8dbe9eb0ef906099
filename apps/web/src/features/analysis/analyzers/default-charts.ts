import type { AnalyzerChartConfig, AnalyzerTab } from '@kb/contracts/analyzers';

/**
 * The board a tab opens with. Distributions and the heatmap read activities one by one, so the
 * Structures tab has the scatter, the target classes and the scaffolds.
 */
export function defaultCharts(tab: AnalyzerTab): AnalyzerChartConfig[] {
  if (tab === 'structuretab') {
    return [
      { chart: 'scatter', x: 'mw', y: 'clogp', color: 'psa', endpoint: null },
      { chart: 'treemap' },
      { chart: 'scaffolds', limit: 12 },
    ];
  }
  return [
    { chart: 'scatter', x: 'mw', y: 'pactivity', color: 'year', endpoint: null },
    { chart: 'distribution', measure: 'pactivity', groupBy: 'target', groups: 12 },
    { chart: 'heatmap', targets: 25, compounds: 60 },
    { chart: 'treemap' },
    { chart: 'scaffolds', limit: 12 },
  ];
}
