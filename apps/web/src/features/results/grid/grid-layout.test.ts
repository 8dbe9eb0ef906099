import { describe, expect, it } from 'vitest';
import { DENSITY_LAYOUT, gridHeight, isPinnedLeft, rowHeightOf } from './grid-layout.ts';

describe('results grid layout', () => {
  it('fits at least 12 compact structure rows with readable drawings in a 1440 × 900 screen, and draws bigger when comfortable', () => {
    const body = 900 - 136 - (40 + 2 + 16);
    expect(Math.floor(body / rowHeightOf('compact', true))).toBeGreaterThanOrEqual(12);
    expect(DENSITY_LAYOUT.compact.structure.height).toBeGreaterThanOrEqual(54);
    expect(rowHeightOf('comfortable', true)).toBeGreaterThan(rowHeightOf('compact', true));
    expect(DENSITY_LAYOUT.comfortable.structure.height).toBeGreaterThan(DENSITY_LAYOUT.compact.structure.height);
    // The drawing fits its row.
    for (const layout of Object.values(DENSITY_LAYOUT)) expect(layout.structure.height).toBeLessThan(layout.rowHeight);
    expect(rowHeightOf('compact', false)).toBeLessThan(rowHeightOf('compact', true));
  });

  it('is as high as its rows when they are few, else as the screen allows', () => {
    expect(gridHeight(2, 44)).toBe('min(190px, max(320px, calc(100dvh - 136px)))');
    expect(gridHeight(25, 44)).toBe('min(1158px, max(320px, calc(100dvh - 136px)))');
  });

  it('pins the structure id, the drawing, the similarity score and the id of a tab without structures on the left', () => {
    // An activity is read by its compound and target: its own id scrolls with the rest.
    expect(isPinnedLeft({ key: 'act_id', type: 'integer' }, 'act_id')).toBe(false);
    expect(isPinnedLeft({ key: 'str_id', type: 'integer' }, 'act_id')).toBe(true);
    expect(isPinnedLeft({ key: 'smiles', type: 'structure' }, 'act_id')).toBe(true);
    expect(isPinnedLeft({ key: 'activity_value', type: 'number' }, 'act_id')).toBe(false);
    expect(isPinnedLeft({ key: 'assay_id', type: 'integer' }, 'act_id')).toBe(false);
    expect(isPinnedLeft({ key: 'assay_id', type: 'integer' }, 'assay_id')).toBe(true);
    expect(isPinnedLeft({ key: 'similarity', type: 'number' }, 'assay_id')).toBe(true);
  });
});
