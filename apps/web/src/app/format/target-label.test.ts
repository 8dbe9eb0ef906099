import { describe, expect, it } from 'vitest';
import { shortName, targetLabel } from './target-label.ts';

describe('target labels', () => {
  it('names a target by its gene symbol when it has one', () => {
    expect(targetLabel('Tyrosine-protein kinase JAK2', 'JAK2')).toBe('JAK2');
    expect(targetLabel('Tyrosine-protein kinase JAK2', '  ')).toBe('…kinase JAK2');
  });

  it('keeps the distinguishing end of a long name and short names whole', () => {
    const cut = ['JAK2', 'JAK3', 'ABL1', 'BTK'].map((gene) => shortName(`Tyrosine-protein kinase ${gene}`));
    expect(new Set(cut).size).toBe(4);
    expect(shortName('Androgen receptor')).toBe('Androgen receptor');
    expect(shortName('Peroxisome proliferator-activated receptor gamma')).toBe('…receptor gamma');
    expect(shortName('Averyveryverylongsinglewordtargetname').length).toBeLessThanOrEqual(22);
    expect(targetLabel(null)).toBe('');
  });
});
