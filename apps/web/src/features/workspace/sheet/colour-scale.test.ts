import { describe, expect, it } from 'vitest';
import { cellColour, columnScale, viridisAt } from './colour-scale.ts';

/** Relative luminance (WCAG) of "rgb(r, g, b)". */
function luminance(colour: string): number {
  const [r, g, b] = (colour.match(/\d+/g) ?? []).map((part) => {
    const c = Number(part) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

describe('the sheet colour scale', () => {
  it('spans the finite values of a column of another measure', () => {
    expect(columnScale('other', [5, null, 7.5, undefined, 6, Number.NaN])).toEqual({ min: 5, max: 7.5 });
    expect(columnScale('other', [null, undefined])).toBeNull();
  });

  it('puts pActivity on one scale, 4 to 10, widened by values outside it', () => {
    expect(columnScale('pactivity', [4.5, 4.51])).toEqual({ min: 4, max: 10 });
    expect(columnScale('pactivity', [3.2, 11])).toEqual({ min: 3.2, max: 11 });
    const scale = columnScale('pactivity', [4.5, 4.51]);
    // Near-equal potencies look alike (at most 2 of 255 apart in any channel).
    const channels = (value: number) => (cellColour(value, scale)!.match(/\d+/g) ?? []).map(Number);
    const [a, b] = [channels(4.5), channels(4.51)];
    expect(Math.max(...a.map((channel, i) => Math.abs(channel - b[i]!)))).toBeLessThanOrEqual(2);
  });

  it('centres differences on 0, at least ±2', () => {
    expect(columnScale('difference', [-0.4, 1.2])).toEqual({ min: -2, max: 2 });
    expect(columnScale('difference', [-3.5, 1])).toEqual({ min: -3.5, max: 3.5 });
  });

  it('runs viridis from violet to yellow, clamped', () => {
    expect(viridisAt(0)).toEqual([68, 1, 84]);
    expect(viridisAt(1)).toEqual([253, 231, 37]);
    expect(viridisAt(-3)).toEqual(viridisAt(0));
    expect(viridisAt(9)).toEqual(viridisAt(1));
    const middle = viridisAt(0.5);
    expect(middle[1]).toBeGreaterThan(100);
  });

  it('colours nothing without a value or a range, the middle for a one-value column', () => {
    expect(cellColour(null, { min: 1, max: 2 })).toBeUndefined();
    expect(cellColour(3, null)).toBeUndefined();
    expect(cellColour(4, { min: 4, max: 4 })).toBe(cellColour(5, { min: 4, max: 6 }));
  });

  it('stays light enough for dark text at both ends (contrast at least 4.5 with #212529)', () => {
    const text = luminance('rgb(33, 37, 41)');
    for (const value of [0, 0.25, 0.5, 0.75, 1]) {
      const background = luminance(cellColour(value, { min: 0, max: 1 })!);
      expect((background + 0.05) / (text + 0.05)).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('orders the lowest and the highest value differently', () => {
    expect(cellColour(1, { min: 1, max: 9 })).not.toBe(cellColour(9, { min: 1, max: 9 }));
  });
});
