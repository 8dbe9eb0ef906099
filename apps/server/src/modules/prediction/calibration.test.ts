import { describe, expect, it } from 'vitest';
import {
  fitCalibration,
  isotonicFit,
  isotonicMap,
  logisticFit,
  modelProbability,
  probabilities,
  reliability,
  shrink,
  sigmoid,
} from './calibration.ts';
import type { LabelledPair } from './calibration.ts';
import { DEFAULT_CALIBRATION } from './calibration-default.ts';
import { mulberry32 } from '../knowledge-base/demo/mulberry32.mjs';

/** Pairs whose truth follows a known logistic law of the nearest active's Tanimoto (and nothing else). */
function synthetic(count: number, seed = 7): LabelledPair[] {
  const random = mulberry32(seed);
  return Array.from({ length: count }, (_, k) => {
    const nearest = random();
    // Targets of more documents are a little more often right at the same similarity.
    const documents = 1 + Math.floor(random() * 100);
    const active = random() < sigmoid(10 * nearest - 6.5 + 0.5 * Math.log10(1 + documents));
    return { nearest, ensembleZ: nearest > 0.3 ? 20 * (nearest - 0.3) : null, modelZ: null, actives: 50, documents, active, query: k % 97 };
  });
}

describe('calibration', () => {
  it('recovers a logistic law from its samples', () => {
    const pairs = synthetic(4000);
    const w = logisticFit(
      pairs.map((pair) => [pair.nearest]),
      pairs.map((pair) => Number(pair.active)),
    );
    // Without the documents' term the intercept absorbs its mean (0.5 · ~1.6): the slope stays near 10.
    expect(w[0]).toBeGreaterThan(8);
    expect(w[0]).toBeLessThan(12);
  });

  it('fits probabilities that match the observed rates (reliability) better than a constant', () => {
    const pairs = synthetic(6000);
    const calibration = fitCalibration(pairs, false)!;
    expect(calibration.source).toBe('knowledge base');
    expect(calibration.brier).not.toBeNull();
    const held = synthetic(3000, 99);
    const predicted = held.map((pair) => probabilities(calibration, pair).probability);
    const fit = reliability(
      predicted,
      held.map((pair) => pair.active),
    );
    const base = held.filter((pair) => pair.active).length / held.length;
    const constant = reliability(
      held.map(() => base),
      held.map((pair) => pair.active),
    );
    expect(fit.brier).toBeLessThan(constant.brier);
    expect(fit.ece).toBeLessThan(0.05);
  });

  it('keeps every probability in [0, 1], each predictor’s monotone in its score, and gives a target of two actives from one paper less', () => {
    const calibration = fitCalibration(synthetic(4000), false)!;
    let previous = -1;
    for (let z = -3; z <= 40; z += 0.5) {
      const p = probabilities(calibration, { nearest: 0.5, ensembleZ: z, modelZ: null, actives: 50, documents: 20 }).ensemble;
      expect(p >= 0 && p <= 1).toBe(true);
      expect(p).toBeGreaterThanOrEqual(previous - 1e-12);
      previous = p;
    }
    const many = probabilities(calibration, { nearest: 0.7, ensembleZ: 8, modelZ: null, actives: 500, documents: 80 });
    const one = probabilities(calibration, { nearest: 0.7, ensembleZ: 8, modelZ: null, actives: 2, documents: 1 });
    expect(one.probability).toBeLessThan(many.probability);
    // Two actives keep two thirds of their probability; the rest is the base rate.
    expect(shrink(0.9, 2, 0.03)).toBeCloseTo((2 * 0.9 + 0.03) / 3, 12);
    expect(shrink(0.9, 0, 0.03)).toBeCloseTo(0.03, 12);
    expect(shrink(0.9, 10_000, 0.03)).toBeCloseTo(0.9, 3);
  });

  it('maps scores onto observed rates by isotonic regression, monotone and flat beyond its points', () => {
    const scores = Array.from({ length: 600 }, (_, k) => k / 600);
    // Observed rate 0.2 below 0.5 and 0.8 above, whatever the score says.
    const labels = scores.map((s, k) => Number(s < 0.5 ? k % 5 === 0 : k % 5 !== 0));
    const map = isotonicFit(scores, labels);
    expect(map.y).toEqual([...map.y].sort((a, b) => a - b));
    expect(isotonicMap(map, 0.1)).toBeCloseTo(0.2, 1);
    expect(isotonicMap(map, 0.9)).toBeCloseTo(0.8, 1);
    expect(isotonicMap(map, -1)).toBe(map.y[0]);
    expect(isotonicMap(map, 2)).toBe(map.y.at(-1));
    expect(isotonicMap({ x: [], y: [] }, 0.37)).toBe(0.37);
  });

  it('declines to fit too few actives, and the default answers with the model’s own probability monotone in its lift', () => {
    expect(fitCalibration(synthetic(40), false)).toBeNull();
    const withModel = DEFAULT_CALIBRATION.withModel;
    let previous = -1;
    for (let z = -5; z <= 15; z += 1) {
      const p = modelProbability(withModel, z)!;
      expect(p >= 0 && p <= 1).toBe(true);
      expect(p).toBeGreaterThanOrEqual(previous);
      previous = p;
    }
    expect(modelProbability(DEFAULT_CALIBRATION.withoutModel, 3)).toBeNull();
  });
});
