import { describe, expect, it } from 'vitest';
import { cutEnvironment, parseSmiles } from './matched-pairs-environment.ts';
import { matchedPairs } from './matched-pairs.ts';

describe('the environment of a matched-pair cut', () => {
  it('is empty at radius 0', () => {
    expect(cutEnvironment('[*:1]c1ccccc1', 0)).toBe('');
  });

  it('is the aromatic attachment atom of a phenyl at radius 1, and its two ring neighbours at radius 2', () => {
    expect(cutEnvironment('[*:1]c1ccccc1', 1)).toBe('[*:1]-[c;D3;R]');
    expect(cutEnvironment('[*:1]c1ccccc1', 2)).toBe('[*:1]-[c;D3;R](:[c;D2;R]):[c;D2;R]');
  });

  it('reads the same environment however the SMILES is written', () => {
    expect(cutEnvironment('c1ccc([*:1])cc1', 2)).toBe(cutEnvironment('[*:1]c1ccccc1', 2));
    expect(cutEnvironment('O=C([*:1])c1ccc[nH]1', 2)).toBe(cutEnvironment('[*:1]C(=O)c1ccc[nH]1', 2));
  });

  it('tells an amide nitrogen from a ring carbon, with the carbonyl at radius 2', () => {
    // CC(=O)N-*: N has 2 heavy neighbours (C and the cut); its neighbour C has 3 (CH3, =O, N).
    expect(cutEnvironment('CC(=O)N[*:1]', 1)).toBe('[*:1]-[N;D2;!R]');
    expect(cutEnvironment('CC(=O)N[*:1]', 2)).toBe('[*:1]-[N;D2;!R]-[C;D3;!R]');
    expect(cutEnvironment('O=C([*:1])c1ccc[nH]1', 2)).toBe('[*:1]-[C;D3;!R](-[c;D3;R])=[O;D1;!R]');
  });

  it('writes charges and ring membership of aliphatic rings', () => {
    expect(cutEnvironment('C[N+](C)(C)[*:1]', 1)).toBe('[*:1]-[N+;D4;!R]');
    expect(cutEnvironment('[*:1]C1CCNCC1', 2)).toBe('[*:1]-[C;D3;R](-[C;D2;R])-[C;D2;R]');
  });

  it('has none without exactly one attachment point', () => {
    expect(cutEnvironment('c1ccccc1', 1)).toBeNull();
    expect(cutEnvironment('[*:1]CC[*:1]', 1)).toBeNull();
  });

  it('parses ring closures, branches and bracket atoms into the bonds written', () => {
    const graph = parseSmiles('[*:1]c1ccc(Cl)cc1')!;
    expect(graph.atoms).toHaveLength(8);
    expect(graph.neighbours[1]!.map(([, bond]) => bond).sort()).toEqual(['-', ':', ':']);
  });
});

describe('matched pairs by environment', () => {
  // Two series of the same H → Cl change: on a phenyl (two pairs) and on an amide N (one pair).
  const cut = (constant: string, variable: string) => ({ constant, variable });
  const items = [
    { strId: 1, value: 5, cuts: [cut('[*:1]c1ccccc1', '[*:1][H]')] },
    { strId: 2, value: 6, cuts: [cut('[*:1]c1ccccc1', '[*:1]Cl')] },
    { strId: 3, value: 5, cuts: [cut('[*:1]c1ccncc1', '[*:1][H]')] },
    { strId: 4, value: 7, cuts: [cut('[*:1]c1ccncc1', '[*:1]Cl')] },
    { strId: 5, value: 6, cuts: [cut('CC(=O)N[*:1]', '[*:1][H]')] },
    { strId: 6, value: 5, cuts: [cut('CC(=O)N[*:1]', '[*:1]Cl')] },
  ];

  it('pools every H → Cl at radius 0 and splits them by environment at radius 1', () => {
    const none = matchedPairs(items, { minPairs: 1, limit: 10, radius: 0 });
    expect(none.transformations).toHaveLength(1);
    expect(none.transformations[0]).toMatchObject({
      from: '[*:1][H]',
      to: '[*:1]Cl',
      environment: '',
      pairs: 3,
      minDelta: -1,
      maxDelta: 2,
      medianDelta: 1,
    });
    expect(none.transformations[0]!.meanDelta).toBeCloseTo(2 / 3);
    const r1 = matchedPairs(items, { minPairs: 1, limit: 10, radius: 1 });
    expect(r1.transformations.map((t) => [t.environment, t.from, t.to, t.pairs, t.meanDelta])).toEqual([
      ['[*:1]-[c;D3;R]', '[*:1][H]', '[*:1]Cl', 2, 1.5],
      ['[*:1]-[N;D2;!R]', '[*:1]Cl', '[*:1][H]', 1, 1],
    ]);
    expect(r1.transformations[0]!.deltas).toEqual([1, 2]);
  });

  it('filters by |mean Δ| and by whether the pairs agree', () => {
    expect(matchedPairs(items, { minPairs: 1, limit: 10, radius: 1, minMeanDelta: 1.2 }).transformations).toHaveLength(1);
    expect(matchedPairs(items, { minPairs: 1, limit: 10, radius: 0, sign: 'mixed' }).transformations).toHaveLength(1);
    expect(matchedPairs(items, { minPairs: 1, limit: 10, radius: 0, sign: 'consistent' }).transformations).toHaveLength(0);
    expect(matchedPairs(items, { minPairs: 1, limit: 10, radius: 1, sign: 'consistent' }).transformations).toHaveLength(2);
  });
});
