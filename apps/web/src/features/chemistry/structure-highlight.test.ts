import { describe, expect, it } from 'vitest';
import { highlightSearch, parseHighlight, structureLeafletHref } from './structure-highlight.ts';

describe('structure highlight in leaflet links', () => {
  it('carries a SMILES or SMARTS highlight through the link and back', () => {
    const smarts = { kind: 'smarts' as const, text: '[#6]1:[#6]:[#6]:[#6]:[#6]:[#6]:1C(=O)[O;H1]' };
    const href = structureLeafletHref(42, smarts);
    expect(href.startsWith('/leaflet/structure/42?highlight=')).toBe(true);
    expect(parseHighlight(new URL(href, 'http://x').searchParams)).toEqual(smarts);
    expect(parseHighlight(new URL(structureLeafletHref(7, { kind: 'smiles', text: 'c1ccccc1O' }), 'http://x').searchParams)).toEqual({
      kind: 'smiles',
      text: 'c1ccccc1O',
    });
  });

  it('links without a highlight when the search has none, or it is too long for a drawing', () => {
    expect(structureLeafletHref(42, null)).toBe('/leaflet/structure/42');
    expect(highlightSearch({ kind: 'smiles', text: 'C'.repeat(4_001) })).toBe('');
  });

  it('reads no highlight from a link without one, an empty one or an unknown kind', () => {
    expect(parseHighlight(new URLSearchParams(''))).toBeNull();
    expect(parseHighlight(new URLSearchParams('highlight=%20'))).toBeNull();
    expect(parseHighlight(new URLSearchParams('highlight=CCO&highlightKind=molfile'))).toBeNull();
    expect(parseHighlight(new URLSearchParams('highlight=CCO'))).toEqual({ kind: 'smiles', text: 'CCO' });
  });
});
