import type { z } from 'zod';
import type { AnalyzerTab, ScatterDataSchema } from '@kb/contracts/analyzers';
import { formatCount } from '../../../app/format/count-format.ts';
import { countNoun } from '../../../app/format/plural.ts';
import { endpointName } from './measure-format.ts';

type ScatterData = z.infer<typeof ScatterDataSchema>;

/** What the points are: one per row of the tab. */
function rowNoun(tab: AnalyzerTab) {
  return tab === 'structuretab' ? 'structure' : { one: 'activity', other: 'activities' };
}

export function scatterNote(data: ScatterData, tab: AnalyzerTab): string {
  const parts = [
    data.sampled
      ? `Sampled ${formatCount(data.points.length)} of ${formatCount(data.total)} points (a fixed random sample); the axes cover all of them.`
      : `${countNoun(data.total, rowNoun(tab))} drawn.`,
  ];
  const endpoint = data.endpoint ? endpointName(data.endpoint) : null;
  const onAxis = data.x === 'pactivity' || data.y === 'pactivity';
  if (data.missing > 0) {
    // A Structures-tab pActivity: most structures left out were not measured on the endpoint, and the user must know why.
    parts.push(
      endpoint && onAxis
        ? `${countNoun(data.missing, rowNoun(tab))} without both values left out (no pActivity on ${endpoint}, or no value of the other measure).`
        : `${countNoun(data.missing, rowNoun(tab))} without both values left out.`,
    );
  }
  if (data.color && data.colorMissing > 0) {
    const why = endpoint && data.color === 'pactivity' ? `no pActivity on ${endpoint}` : 'no colour value';
    parts.push(`${countNoun(data.colorMissing, rowNoun(tab))} drawn grey (${why}).`);
  }
  parts.push('Drag a rectangle over points to select their rows.');
  return parts.join(' ');
}

/** Rows brushed on a scatter; `sample`: the scatter drew a sample, so only those points could be brushed. */
export interface BrushedRows {
  ids: number[];
  sample: { drawn: number; total: number } | null;
}

export function brushedRows(ids: number[], data: Pick<ScatterData, 'sampled' | 'points' | 'total'>): BrushedRows {
  return { ids, sample: data.sampled ? { drawn: data.points.length, total: data.total } : null };
}

/**
 * The selection bar's line. Above the scatter's limit only the drawn sample can be brushed: the
 * rows under the rectangle that were not drawn are NOT selected, and the user must know it.
 */
export function selectionStatus(brushed: BrushedRows, tab: AnalyzerTab): string {
  const { ids, sample } = brushed;
  if (!sample) return `${countNoun(ids.length, rowNoun(tab))} selected`;
  return `${countNoun(ids.length, { one: 'sampled row', other: 'sampled rows' })} selected; the scatter shows a sample of ${formatCount(sample.drawn)} of ${formatCount(sample.total)} points, so rows it does not draw are not selected.`;
}

/** Points inside a brushed rectangle (bounds included, in either drag direction). */
export function pointsInside<P extends { x: number; y: number }>(
  points: readonly P[],
  area: { x: [number, number]; y: [number, number] },
): P[] {
  const [x0, x1] = [Math.min(...area.x), Math.max(...area.x)];
  const [y0, y1] = [Math.min(...area.y), Math.max(...area.y)];
  return points.filter((p) => p.x >= x0 && p.x <= x1 && p.y >= y0 && p.y <= y1);
}
