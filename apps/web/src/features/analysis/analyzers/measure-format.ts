import type { AnalyzerEndpoint, AnalyzerMeasure } from '@kb/contracts/analyzers';
import { ANALYZER_MEASURE_LABELS, ANALYZER_MEASURE_QUANTITY } from '@kb/contracts/analyzers';
import { formatNumber, formatNumberRange, formatQuantity } from '../../../app/format/number-format.ts';

/** A value of a measure as its quantity is written (tooltips): pActivity 7.20, weight 481.60, year 2024, counts whole. */
export function formatMeasure(value: number | null | undefined, measure: AnalyzerMeasure): string {
  return formatQuantity(value, ANALYZER_MEASURE_QUANTITY[measure]);
}

/** Years and the like read without thousands separators on axes and bins too. */
const grouped = (measure: AnalyzerMeasure) => ANALYZER_MEASURE_QUANTITY[measure] !== 'plain';

/**
 * An axis's labels: ticks with at most two decimals (an axis bound of 9.627599999999996 reads
 * 9.63), years without separators, and a label that would overlap its neighbour left out.
 */
export function measureAxisLabel(measure: AnalyzerMeasure) {
  return { formatter: (value: number) => formatNumber(value, { grouping: grouped(measure) }), hideOverlap: true };
}

/** A histogram bin of a measure: "2015–2017", "300–350". */
export function formatMeasureBin(from: number, to: number | undefined, measure: AnalyzerMeasure): string {
  return formatNumberRange(from, to, { grouping: grouped(measure) });
}

/** An endpoint as a chemist names it: "Epidermal growth factor receptor · IC50". */
export function endpointName(endpoint: AnalyzerEndpoint & { targetName: string }): string {
  return `${endpoint.targetName} · ${endpoint.activityType}`;
}

/**
 * A measure's name on an axis, a legend or the hover card: a Structures-tab pActivity names its
 * endpoint ("pActivity, EGFR · IC50"), since a structure's value is its median on that endpoint.
 */
export function measureName(measure: AnalyzerMeasure, endpoint: (AnalyzerEndpoint & { targetName: string }) | null | undefined): string {
  return measure === 'pactivity' && endpoint ? `pActivity, ${endpointName(endpoint)}` : ANALYZER_MEASURE_LABELS[measure];
}
