import { describe, expect, it } from 'vitest';
import { FUSION_K, fuseRankings, modelEValue, normalUpperTail } from './combine.ts';
import {
  buildActiveSet,
  extremeValuePValue,
  withoutStructures,
  withParents,
  fitBackground,
  SMALL_TARGET_ACTIVES,
  nearestActive,
  rawScoresOf,
  scoreTargets,
  zScore,
} from './similarity-ensemble.ts';
import type { EnsembleTarget } from './similarity-ensemble.ts';
import { targetFamily } from './target-family.ts';

const target = (name: string): EnsembleTarget => ({
  targetId: name.length,
  chemblId: null,
  name,
  geneSymbol: null,
  organism: null,
  family: 'other',
  thresholdNm: 1000,
});

describe('similarity ensemble', () => {
  // Target 0 has 3 actives (str 1, 2, 3), target 1 has 1 (str 3), target 2 has 40 (str 100–139).
  const targets = [target('A'), target('B'), target('C')];
  const pairs = [
    { strId: 1, target: 0, nm: 5 },
    { strId: 2, target: 0, nm: 50 },
    { strId: 3, target: 0, nm: 500 },
    { strId: 3, target: 1, nm: 20 },
    ...Array.from({ length: 40 }, (_, k) => ({ strId: 100 + k, target: 2, nm: 100 })),
  ];
  const set = buildActiveSet(targets, pairs);
  const background = { meanScale: 0.01, meanExponent: 1, sdScale: 0.1, sdExponent: 0.5, queries: 100 };

  it('keeps each structure’s targets and counts actives per target', () => {
    expect(Array.from(set.strIds.slice(0, 3))).toEqual([1, 2, 3]);
    expect(Array.from(set.activesPerTarget)).toEqual([3, 1, 40]);
  });

  it('drops the structures found without a fingerprint, their pairs and their counts, and keeps the rest as it was', () => {
    const without = withoutStructures(set, new Set([3, 120, 5000]));
    expect(Array.from(without.strIds)).toEqual(Array.from(set.strIds).filter((id) => id !== 3 && id !== 120));
    expect(Array.from(without.activesPerTarget)).toEqual([2, 0, 39]);
    const at = without.strIds.indexOf(2);
    expect(Array.from(without.targetOf.slice(without.offsets[at], without.offsets[at + 1]))).toEqual([0]);
    expect(Array.from(without.nmOf.slice(without.offsets[at], without.offsets[at + 1]))).toEqual([50]);
    expect(withoutStructures(set, new Set())).toBe(set);
  });

  it('sums Tanimoto at or above the threshold into the raw score, keeps the nearest actives as evidence, and leaves out excluded structures', () => {
    const neighbours = [
      { strId: 1, similarity: 0.8 },
      { strId: 2, similarity: 0.25 },
      { strId: 3, similarity: 0.5 },
      { strId: 100, similarity: 0.35 },
      { strId: 999, similarity: 0.9 }, // not an active of anything
    ];
    const scores = scoreTargets(neighbours, set, background);
    const a = scores.find((s) => s.target === 0)!;
    expect(a.rawScore).toBeCloseTo(1.3, 12);
    // Cut at the nearest one: the nearest active alone.
    expect(scoreTargets(neighbours, set, background, { topK: 1 }).find((s) => s.target === 0)!.rawScore).toBeCloseTo(0.8, 12);
    expect(a.hits).toBe(2);
    expect(a.maxSimilarity).toBe(0.8);
    expect(a.evidence.map((e) => e.strId)).toEqual([1, 3, 2]);
    expect(scores[0]!.target).toBe(0);
    const without = scoreTargets(neighbours, set, background, { exclude: (id) => id === 1 });
    expect(without.find((s) => s.target === 0)!.rawScore).toBeCloseTo(0.5, 12);
    expect(nearestActive(neighbours, set)?.strId).toBe(1);
    expect(nearestActive(neighbours, set, (id) => id === 1)?.strId).toBe(3);
  });

  it('ranks by E-value: the same raw score means less on a target with many actives', () => {
    expect(zScore(0.6, 1, background)).toBeGreaterThan(zScore(0.6, 40, background));
    const e1 = extremeValuePValue(5);
    const e2 = extremeValuePValue(2);
    expect(e1).toBeLessThan(e2);
    expect(extremeValuePValue(-10)).toBeCloseTo(1, 6);
    expect(extremeValuePValue(50)).toBeGreaterThan(0);
  });

  it('fits the background’s power laws from random queries', () => {
    // Raw scores drawn so that the mean is 0.02·n and the spread 0.1·n^0.5 (two-point distribution).
    const n = Uint32Array.from([4, 16, 64, 256]);
    const rows: Float64Array[] = [];
    for (let q = 0; q < 200; q++) rows.push(Float64Array.from(n, (size) => 0.02 * size + (q % 2 === 0 ? 1 : -1) * 0.1 * Math.sqrt(size)));
    const fitted = fitBackground(rows, n);
    expect(fitted.meanScale).toBeCloseTo(0.02, 6);
    expect(fitted.meanExponent).toBeCloseTo(1, 6);
    expect(fitted.sdExponent).toBeCloseTo(0.5, 6);
    expect(fitted.sdScale).toBeCloseTo(0.1, 6);
    expect(fitted.queries).toBe(200);
  });

  it('computes a background sample’s raw scores without the query itself', () => {
    const raw = rawScoresOf(
      [
        { strId: 1, similarity: 1 },
        { strId: 3, similarity: 0.4 },
      ],
      set,
      (id) => id === 1,
    );
    expect(Array.from(raw)).toEqual([0.4, 0.4, 0]);
  });

  it('gives each parent one evidence slot and never counts the query’s own parent', () => {
    // Structures 1 and 2 are forms of one parent (a free base and its salt); 3 is another compound.
    const parented = withParents(set, (strId) => (strId === 1 || strId === 2 ? -7 : null));
    const neighbours = [
      { strId: 1, similarity: 0.8 },
      { strId: 2, similarity: 0.78 },
      { strId: 3, similarity: 0.5 },
    ];
    const a = scoreTargets(neighbours, parented, background).find((s) => s.target === 0)!;
    expect(a.evidence.map((e) => e.strId)).toEqual([1, 3]);
    expect(a.hits).toBe(2);
    expect(a.rawScore).toBeCloseTo(1.3, 12);
    // A query that is a form of parent −7: neither form is its evidence, nor its nearest active.
    const own = scoreTargets(neighbours, parented, background, { excludeParent: -7 }).find((s) => s.target === 0)!;
    expect(own.evidence.map((e) => e.strId)).toEqual([3]);
    expect(nearestActive(neighbours, parented, undefined, -7)?.strId).toBe(3);
    expect(Array.from(rawScoresOf(neighbours, parented, () => false))).toEqual([1.3, 0.5, 0]);
    expect(Array.from(rawScoresOf(neighbours, parented, () => false, undefined, undefined, -7))).toEqual([0.5, 0.5, 0]);
    // Dropping structures keeps the others' parents.
    expect(Array.from(withoutStructures(parented, new Set([3])).parentOf.slice(0, 2))).toEqual([-7, -7]);
  });

  it('counts each target’s documents, a pair without one as its own', () => {
    const withDocs = buildActiveSet(targets, [
      { strId: 1, target: 0, nm: 5, docId: 10 },
      { strId: 2, target: 0, nm: 5, docId: 10 },
      { strId: 3, target: 0, nm: 5, docId: 11 },
      { strId: 4, target: 1, nm: 5, docId: null },
      { strId: 5, target: 1, nm: 5 },
    ]);
    expect(Array.from(withDocs.documentsPerTarget)).toEqual([2, 2, 0]);
  });

  it('takes a small target’s spread as if it had SMALL_TARGET_ACTIVES actives', () => {
    expect(zScore(0.9, 2, background)).toBeCloseTo(zScore(0.9, 2, background), 12);
    const sd = background.sdScale * Math.pow(SMALL_TARGET_ACTIVES, background.sdExponent);
    expect(zScore(0.9, 2, background)).toBeCloseTo((0.9 - background.meanScale * 2) / sd, 12);
    expect(zScore(0.9, 40, background)).toBeCloseTo((0.9 - background.meanScale * 40) / (background.sdScale * Math.sqrt(40)), 12);
  });

  it('fuses the three orders by weighted reciprocal rank, the nearest active counting double', () => {
    const fused = fuseRankings({ nearest: ['a', 'b', 'c'], ensemble: ['b', 'a'], model: ['c', 'b'] });
    const score = (key: string) => fused.find((f) => f.key === key)!.score;
    const best = 4 / (FUSION_K + 1);
    expect(score('a')).toBeCloseTo((2 / (FUSION_K + 1) + 1 / (FUSION_K + 2)) / best, 12);
    expect(score('b')).toBeCloseTo((2 / (FUSION_K + 2) + 1 / (FUSION_K + 1) + 1 / (FUSION_K + 2)) / best, 12);
    expect(fused.map((f) => f.key)).toEqual(['b', 'a', 'c']);
    expect(fused[0]).toMatchObject({ nearestRank: 2, ensembleRank: 1, modelRank: 2 });
    expect(fuseRankings({ nearest: ['x'], ensemble: ['x'], model: ['x'] })[0]!.score).toBeCloseTo(1, 12);
    expect(normalUpperTail(0)).toBeCloseTo(0.5, 7);
    expect(normalUpperTail(1.959964)).toBeCloseTo(0.025, 6);
    expect(normalUpperTail(-1.959964)).toBeCloseTo(0.975, 6);
    expect(modelEValue(3, 800)).toBeCloseTo(800 * 0.0013499, 3);
  });
});

describe('target families', () => {
  it('reads the family from the classification, else from the name', () => {
    expect(targetFamily(['Enzyme', 'Kinase', 'Protein Kinase', 'TK'], 'Epidermal growth factor receptor')).toBe('kinase');
    expect(targetFamily(['Membrane receptor', 'Family A G protein-coupled receptor'], 'D(2) dopamine receptor')).toBe('gpcr');
    expect(targetFamily(['Transcription factor', 'Nuclear receptor'], 'Estrogen receptor')).toBe('nuclear receptor');
    expect(targetFamily(['Ion channel', 'Voltage-gated ion channel'], 'hERG')).toBe('ion channel');
    expect(targetFamily(['Enzyme', 'Protease'], 'Coagulation factor X')).toBe('other');
    expect(targetFamily([], 'Tyrosine-protein kinase JAK2')).toBe('kinase');
    expect(targetFamily([], 'Hepatocyte growth factor receptor')).toBe('kinase');
    expect(targetFamily([], 'Epidermal growth factor receptor erbB1')).toBe('kinase');
    expect(targetFamily([], 'Angiopoietin-1 receptor')).toBe('kinase');
    expect(targetFamily([], 'Bcr/Abl fusion protein')).toBe('kinase');
    expect(targetFamily([], 'Voltage-gated inwardly rectifying potassium channel KCNH2')).toBe('ion channel');
    expect(targetFamily([], 'Peroxisome proliferator-activated receptor gamma')).toBe('nuclear receptor');
    expect(targetFamily([], 'Beta-2 adrenergic receptor')).toBe('gpcr');
    expect(targetFamily([], 'Cyclin-dependent kinase inhibitor 1')).toBe('other');
    expect(targetFamily([], 'Acetylcholinesterase')).toBe('other');
  });
});
