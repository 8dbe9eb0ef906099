import { describe, expect, it } from 'vitest';
import type { AppliedFilter } from '@kb/contracts/search';
import { DEFAULT_CHART_KEYS, chartsForSavedQuery } from './chart-selection.ts';

const filters = (...keys: string[]): AppliedFilter[] => keys.map((chartKey) => ({ chartKey, include: ['x'] }));

describe('charts of an opened saved query (spec §4, §9)', () => {
  it('keeps the four defaults when the query has no filters', () => {
    expect(chartsForSavedQuery([])).toEqual([...DEFAULT_CHART_KEYS]);
  });

  it('lets up to four saved charts replace defaults one for one', () => {
    expect(chartsForSavedQuery(filters('target'))).toEqual(['target', 'bibliographyrefid', 'bibliography', 'year']);
    expect(chartsForSavedQuery(filters('target', 'indication', 'source', 'company'))).toEqual([
      'target',
      'indication',
      'source',
      'company',
    ]);
  });

  it('does not show a default twice when the query filtered it', () => {
    expect(chartsForSavedQuery(filters('year', 'target'))).toEqual(['year', 'target', 'bibliographyrefid', 'bibliography']);
  });

  it('makes more than four saved charts the whole set', () => {
    expect(chartsForSavedQuery(filters('a', 'b', 'c', 'd', 'e'))).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('counts a chart filtered twice once', () => {
    expect(chartsForSavedQuery(filters('a', 'a', 'b', 'c', 'd'))).toEqual(['a', 'b', 'c', 'd']);
  });
});
