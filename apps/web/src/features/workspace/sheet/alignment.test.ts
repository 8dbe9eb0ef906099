import { describe, expect, it } from 'vitest';
import { alignmentOf } from './alignment.tsx';

describe('the drawing template', () => {
  it('is none when empty, SMARTS when it uses SMARTS signs, else SMILES', () => {
    expect(alignmentOf('  ')).toBeNull();
    expect(alignmentOf(' c1ncnc2[nH]ccc12 ')).toEqual({ text: 'c1ncnc2[nH]ccc12', kind: 'smiles' });
    expect(alignmentOf('[#6]1:[#7]:[#6]:[#7]:1')).toEqual({ text: '[#6]1:[#7]:[#6]:[#7]:1', kind: 'smarts' });
    expect(alignmentOf('c1ccccc1*')).toEqual({ text: 'c1ccccc1*', kind: 'smarts' });
  });
});
