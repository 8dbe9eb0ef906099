import { describe, expect, it } from 'vitest';
import { brushedRows, pointsInside, scatterNote, selectionStatus } from './scatter-points.ts';

const base = {
  chart: 'scatter' as const,
  x: 'mw' as const,
  y: 'pactivity' as const,
  color: null,
  endpoint: null,
  colorMissing: 0,
  xBounds: null,
  yBounds: null,
  colorBounds: null,
};

describe('scatter points', () => {
  it('keeps the points inside a brushed rectangle, bounds included, whichever way it was dragged', () => {
    const points = [
      { id: 1, x: 1, y: 1 },
      { id: 2, x: 2, y: 5 },
      { id: 3, x: 3, y: 3 },
    ];
    expect(pointsInside(points, { x: [3, 1], y: [3, 0] }).map((p) => p.id)).toEqual([1, 3]);
    expect(pointsInside(points, { x: [4, 5], y: [0, 9] })).toEqual([]);
  });

  it('says plainly when the points are a sample, and how many rows were left out', () => {
    const points = Array.from({ length: 20_000 }, (_, id) => ({ id, x: 0, y: 0, c: null, s: null }));
    expect(scatterNote({ ...base, total: 750_000, missing: 12, sampled: true, points }, 'activitiestab')).toBe(
      'Sampled 20,000 of 750,000 points (a fixed random sample); the axes cover all of them. 12 activities without both values left out. Drag a rectangle over points to select their rows.',
    );
    expect(scatterNote({ ...base, total: 1, missing: 0, sampled: false, points: points.slice(0, 1) }, 'structuretab')).toBe(
      '1 structure drawn. Drag a rectangle over points to select their rows.',
    );
  });

  it('names the endpoint when structures are left out or drawn grey for want of its pActivity', () => {
    const points = [{ id: 1, x: 1, y: 7.2, c: null, s: 1 }];
    const endpoint = { targetId: 12, activityType: 'IC50', targetName: 'EGFR' };
    expect(scatterNote({ ...base, endpoint, total: 1, missing: 2711, sampled: false, points }, 'structuretab')).toBe(
      '1 structure drawn. 2,711 structures without both values left out (no pActivity on EGFR · IC50, or no value of the other measure). Drag a rectangle over points to select their rows.',
    );
    expect(
      scatterNote(
        { ...base, y: 'clogp', color: 'pactivity', endpoint, colorMissing: 40, total: 50, missing: 0, sampled: false, points },
        'structuretab',
      ),
    ).toBe(
      '50 structures drawn. 40 structures drawn grey (no pActivity on EGFR · IC50). Drag a rectangle over points to select their rows.',
    );
  });

  it('says that only sampled rows are selected when the scatter drew a sample', () => {
    const points = Array.from({ length: 20_000 }, (_, id) => ({ id, x: 0, y: 0, c: null, s: null }));
    const sampled = brushedRows([1, 2, 3], { sampled: true, points, total: 750_000 });
    expect(sampled.sample).toEqual({ drawn: 20_000, total: 750_000 });
    expect(selectionStatus(sampled, 'activitiestab')).toBe(
      '3 sampled rows selected; the scatter shows a sample of 20,000 of 750,000 points, so rows it does not draw are not selected.',
    );
    const all = brushedRows([7], { sampled: false, points: points.slice(0, 10), total: 10 });
    expect(all.sample).toBeNull();
    expect(selectionStatus(all, 'activitiestab')).toBe('1 activity selected');
    expect(selectionStatus({ ids: [1, 2], sample: null }, 'structuretab')).toBe('2 structures selected');
  });
});
