import { describe, expect, it } from 'vitest';
import { fittingCount } from './fitting-nav.tsx';

describe('fittingCount', () => {
  it('shows every link when all fit, gaps included', () => {
    expect(fittingCount([100, 100, 100], 60, 308)).toBe(3);
  });

  it('keeps room for the More button when some links do not fit', () => {
    // 100 + 4 + 100 + 4 + 100 = 308 > 307; with More (60): 60 + 4 + 100 + 4 + 100 = 268 ≤ 307, a third would be 372.
    expect(fittingCount([100, 100, 100], 60, 307)).toBe(2);
    expect(fittingCount([100, 100, 100], 60, 100)).toBe(0);
  });

  it('handles no links and no room', () => {
    expect(fittingCount([], 60, 0)).toBe(0);
    expect(fittingCount([50], 60, 0)).toBe(0);
  });
});
