import { describe, expect, it } from 'vitest';
import { freeWilson } from './free-wilson.ts';
import type { FreeWilsonRow } from './free-wilson.ts';

const R1 = { '[*:1]C': 0.5, '[*:1]Cl': 1.2, '[*:1]OC': -0.3 } as const;
const R2 = { '[*:2]F': 0.8, '[*:2]C#N': 2.0 } as const;

/** Every combination of R1 (with H) × R2 (with H), value = 5 + c1 + c2: exactly additive. */
function additiveSeries(): FreeWilsonRow[] {
  const rows: FreeWilsonRow[] = [];
  let strId = 1;
  for (const [r1, c1] of [[null, 0], ...Object.entries(R1)] as const) {
    for (const [r2, c2] of [[null, 0], ...Object.entries(R2)] as const) {
      // Leave out the best combination: Free-Wilson should predict it.
      if (r1 === '[*:1]Cl' && r2 === '[*:2]C#N') continue;
      rows.push({ strId: strId++, rgroups: { R1: r1, R2: r2 }, value: 5 + c1 + c2 });
    }
  }
  return rows;
}

describe('Free-Wilson', () => {
  it('recovers the contributions of an additive series exactly (R² = 1) and predicts the unmade best compound', () => {
    const fit = freeWilson(additiveSeries(), { best: 3 });
    if (!('result' in fit)) throw new Error(fit.note);
    const { result } = fit;
    expect(result.compounds).toBe(11);
    expect(result.r2).toBeCloseTo(1, 9);
    // Exactly additive: each compound left out is predicted exactly by the others.
    expect(result.q2).toBeCloseTo(1, 6);
    const c = (label: string, smiles: string | null) =>
      result.contributions.find((x) => x.label === label && x.smiles === smiles)!.contribution;
    for (const [smiles, value] of Object.entries(R1)) expect(c('R1', smiles) - c('R1', null)).toBeCloseTo(value, 6);
    for (const [smiles, value] of Object.entries(R2)) expect(c('R2', smiles) - c('R2', null)).toBeCloseTo(value, 6);
    expect(result.intercept).toBeCloseTo(additiveSeries().reduce((s, r) => s + r.value, 0) / 11, 9);
    expect(result.best[0]).toMatchObject({ rgroups: { R1: '[*:1]Cl', R2: '[*:2]C#N' }, strId: null });
    expect(result.best[0]!.predicted).toBeCloseTo(5 + 1.2 + 2.0, 6);
    // The second best was made: it is linked to its compound.
    expect(result.best[1]).toMatchObject({ rgroups: { R1: '[*:1]C', R2: '[*:2]C#N' } });
    expect(result.best[1]!.strId).not.toBeNull();
    expect(result.best[1]!.predicted).toBeCloseTo(7.5, 6);
    expect(result.contributions.find((x) => x.label === 'R1' && x.smiles === '[*:1]Cl')!.n).toBe(2);
  });

  it('handles groups that always occur together and positions without hydrogen', () => {
    const rows: FreeWilsonRow[] = [
      { strId: 1, rgroups: { R1: 'A', R2: 'X' }, value: 5 },
      { strId: 2, rgroups: { R1: 'B', R2: 'Y' }, value: 6 },
      { strId: 3, rgroups: { R1: 'B', R2: 'Y' }, value: 6.2 },
      { strId: 4, rgroups: { R1: 'A', R2: 'X' }, value: 5.1 },
      { strId: 5, rgroups: { R1: 'C', R2: 'X' }, value: 7 },
      { strId: 6, rgroups: { R1: 'C', R2: 'X' }, value: 7.1 },
    ];
    const fit = freeWilson(rows);
    if (!('result' in fit)) throw new Error(fit.note);
    expect(Number.isFinite(fit.result.r2)).toBe(true);
    expect(fit.result.r2).toBeGreaterThan(0.95);
    for (const x of fit.result.contributions) expect(Number.isFinite(x.contribution)).toBe(true);
  });

  it('leaves out compounds whose R-group is seen only once, and says so (a singleton is fitted exactly)', () => {
    const rows = [...additiveSeries(), { strId: 999, rgroups: { R1: '[*:1]I', R2: '[*:2]C#N' }, value: 3 }];
    const fit = freeWilson(rows);
    if (!('result' in fit)) throw new Error(fit.note);
    expect(fit.result.compounds).toBe(additiveSeries().length);
    expect(fit.result.contributions.some((x) => x.smiles === '[*:1]I')).toBe(false);
    expect(fit.note).toMatch(/^1 compound with an R-group seen in only one compound is left out/);
  });

  it('refuses a fit with as many terms as compounds', () => {
    // Three positions of three groups, each group in two of six compounds: 6 terms for 6 compounds.
    const group = (label: string, level: number) => `[*:${label.slice(1)}]${'C'.repeat(1 + level)}`;
    const rows = Array.from({ length: 6 }, (_, i) => ({
      strId: i,
      rgroups: { R1: group('R1', i % 3), R2: group('R2', Math.floor(i / 2)), R3: group('R3', (i * 2) % 3) },
      value: i,
    }));
    const fit = freeWilson(rows);
    expect(fit).toHaveProperty('note');
    expect('result' in fit).toBe(false);
  });

  it('cross-validates by leaving one out: q² equals refitting without each compound in turn', () => {
    // Three positions, each group in at least three compounds (so every refit keeps every term), noisy values.
    const rows: FreeWilsonRow[] = Array.from({ length: 40 }, (_, i) => {
      const rgroups = { R1: ['A', 'B', 'C', null][i % 4]!, R2: ['X', 'Y', null][(i * 7) % 3]!, R3: ['P', null][Math.floor(i / 3) % 2]! };
      const noise = Math.sin(i * 12.9898) * 0.4;
      return { strId: i, rgroups, value: 6 + (rgroups.R1 === 'A' ? 1 : 0) + (rgroups.R2 === 'Y' ? -0.5 : 0) + noise };
    });
    const fit = freeWilson(rows);
    if (!('result' in fit)) throw new Error(fit.note);
    expect(fit.result.terms).toBe(3 + 2 + 1);
    let press = 0;
    let ssTot = 0;
    const mean = rows.reduce((s, r) => s + r.value, 0) / rows.length;
    for (const [i, row] of rows.entries()) {
      const other = freeWilson(rows.filter((_, j) => j !== i));
      if (!('result' in other)) throw new Error(other.note);
      const contribution = (label: string) =>
        other.result.contributions.find((x) => x.label === label && x.smiles === (row.rgroups[label] ?? null))!.contribution;
      const predicted = other.result.intercept + contribution('R1') + contribution('R2') + contribution('R3');
      press += (row.value - predicted) ** 2;
      ssTot += (row.value - mean) ** 2;
    }
    expect(fit.result.q2).toBeCloseTo(1 - press / ssTot, 6);
    expect(fit.result.q2).toBeLessThan(fit.result.r2);
    expect(fit.result.q2).toBeGreaterThan(0.3);
  });

  it('gives a q² far under R² when the terms nearly match the compounds (each group in two compounds, values noise)', () => {
    // 12 groups at R1, 12 at R2, each in two of 24 compounds: 22 terms for 24 compounds, values without any structure.
    const rows = Array.from({ length: 24 }, (_, i) => ({
      strId: i,
      rgroups: { R1: `a${i % 12}`, R2: `b${(i * 5 + Math.floor(i / 12)) % 12}` },
      value: 5 + Math.sin(i * 78.233) * 1.5,
    }));
    const fit = freeWilson(rows);
    if (!('result' in fit)) throw new Error(fit.note);
    expect(fit.result.terms).toBe(22);
    expect(fit.result.r2).toBeGreaterThan(0.8);
    expect(fit.result.q2).toBeLessThan(0);
  });

  it('gives a note, not an error, when there is nothing to fit', () => {
    expect(freeWilson(additiveSeries().slice(0, 4))).toHaveProperty('note');
    const same = Array.from({ length: 6 }, (_, i) => ({ strId: i, rgroups: { R1: '[*:1]C' }, value: i }));
    expect(freeWilson(same)).toHaveProperty('note');
  });
});
