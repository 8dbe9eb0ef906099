import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChemInputError, ChemQueryRefused, ChemSearchCancelled } from './chem-engine.ts';
import { RdkitChemEngine, TRAP_MESSAGE } from './rdkit-engine.ts';

/*
 * The engine's SAR operations on real RDKit (the FreeWilson series is in
 * sar/analysis/freewilson-series.test.ts). The SAR work reads no structure index, so the engine
 * is built without a database: nothing here starts the index load.
 */
const ANILIDES = Array.from(
  { length: 240 },
  (_, i) => `O=C(Nc1ccc(${['C', 'Cl', 'F', 'OC', 'C#N', 'Br'][i % 6]})cc1)c1cc${['c', 'c(C)', 'c(O)', 'c(N)'][i % 4]}cn1`,
);
const CORE = { kind: 'smiles' as const, text: 'O=C(Nc1ccc([*:1])cc1)c1ccc([*:2])cn1', desalt: false };

describe('chemistry engine: SAR operations', () => {
  let engine: RdkitChemEngine;
  beforeAll(() => {
    engine = new RdkitChemEngine(undefined as never, { workers: 2, testHooks: true, requestTimeLimitMs: 5_000 });
  });
  afterAll(async () => {
    await engine.close();
  });

  it('finds Bemis–Murcko scaffolds as RDKit does', async () => {
    const got = await engine.scaffolds([
      'Cc1ccccc1',
      'CCCCCC',
      'CCc1ccc(-c2ccccc2C)cc1',
      'Cc1ccccc1Cc1ccccc1O',
      'CC1CCC(=O)CC1',
      'CC(=O)c1ccccc1',
      'CC(C)Cc1ccc(cc1)C(C)C(=O)O',
      'Cn1cc(C)c2ccccc21',
      'O=C(Nc1ccccc1Cl)c1ccccc1',
      '[Na+].[O-]C(=O)c1ccccc1C',
      'not a smiles',
      '',
    ]);
    expect(got).toEqual([
      'c1ccccc1',
      null,
      'c1ccc(-c2ccccc2)cc1',
      'c1ccc(Cc2ccccc2)cc1',
      'O=C1CCCCC1',
      'c1ccccc1',
      'c1ccccc1',
      'c1ccc2[nH]ccc2c1',
      'O=C(Nc1ccccc1)c1ccccc1',
      'c1ccccc1',
      null,
      null,
    ]);
  });

  it('decomposes a series, and molzip puts every row back together', async () => {
    const progress: number[] = [];
    const result = await engine.decompose([CORE], [...ANILIDES, 'CCCCO'], { onProgress: (done) => progress.push(done) });
    expect(result.rows.at(-1)).toBeNull();
    expect(result.rows.filter(Boolean)).toHaveLength(240);
    expect(result.labels).toEqual(['R1', 'R2']);
    expect(result.strategy).toBe('Greedy');
    expect(progress.at(-1)).toBe(241);
    expect(progress.length).toBeGreaterThan(1);
    expect(result.rows[1]).toEqual({ core: 0, rgroups: { R1: 'Cl[*:1]', R2: 'C[*:2]' } });
    for (const [i, row] of result.rows.slice(0, 12).entries()) {
      const zipped = await engine.zip(result.cores[row!.core]!, row!.rgroups);
      expect(zipped).toBe((await engine.describe({ kind: 'smiles', text: ANILIDES[i]!, desalt: true })).smiles);
    }
  });

  it('puts a substituent of a symmetric core at one label across the set, as RDKit’s Greedy does', async () => {
    // Meta-substituted N-methylbenzamides written from either side of the ring: matched as they
    // come (NoSymmetrization), the two meta positions split the series between two labels.
    const groups = ['Cl', 'F', 'C', 'OC', 'Br', 'C#N'];
    const series = groups.flatMap((g) => [
      `CNC(=O)c1cccc(${g})c1`,
      `CNC(=O)c1cc(${g})ccc1`,
      `CNC(=O)c1ccc(F)c(${g})c1`,
      `CNC(=O)c1cc(${g})c(F)cc1`,
    ]);
    const core = [{ kind: 'smiles' as const, text: 'CNC(=O)c1ccccc1', desalt: false }];
    const asMatched = await engine.decomposeOnOneWorker(core, series, 'NoSymmetrization');
    const labelsOf = (rows: typeof asMatched.rows, group: string) =>
      new Set(
        rows.flatMap((row) =>
          Object.entries(row!.rgroups)
            .filter(([, g]) => g?.replace(/\[\*:\d+\]/, '*') === `${group}*` || g?.replace(/\[\*:\d+\]/, '*') === `*${group}`)
            .map(([label]) => label),
        ),
      );
    expect(labelsOf(asMatched.rows, 'Cl').size).toBeGreaterThan(1);
    const result = await engine.decompose(core, series);
    expect(result.rows.every(Boolean)).toBe(true);
    expect(labelsOf(result.rows, 'Cl').size).toBe(1);
    expect(labelsOf(result.rows, 'Br').size).toBe(1);
    // The same R-group per compound as RDKit's Greedy in one decomposition, up to label names.
    const greedy = await engine.decomposeOnOneWorker(core, series, 'Greedy');
    const strip = (g: string | null) => (g === null ? null : g.replace(/\[\*:\d+\]/g, '*'));
    expect(result.labels).toHaveLength(greedy.labels.length);
    // Our label → Greedy's: the one holding the same substituents most often; then every row agrees under it.
    const agree = (label: string, other: string) =>
      result.rows.filter(
        (row, i) => row!.rgroups[label] !== null && strip(row!.rgroups[label]!) === strip(greedy.rows[i]!.rgroups[other] ?? null),
      ).length;
    const toGreedy = new Map(
      result.labels.map((label) => [
        label,
        greedy.labels.reduce((best, other) => (agree(label, other) > agree(label, best) ? other : best)),
      ]),
    );
    expect(new Set(toGreedy.values()).size).toBe(result.labels.length);
    for (const [i, row] of result.rows.entries()) {
      for (const label of result.labels)
        expect(strip(row!.rgroups[label]!), `compound ${series[i]} at ${label}`).toBe(
          strip(greedy.rows[i]!.rgroups[toGreedy.get(label)!] ?? null),
        );
    }
    for (const [i, row] of result.cores.length ? result.rows.entries() : []) {
      expect(await engine.zip(result.cores[0]!, row!.rgroups)).toBe(
        (await engine.describe({ kind: 'smiles', text: series[i]!, desalt: true })).smiles,
      );
    }
  });

  it('labels an unlabelled core the same way in every chunk (more compounds than one chunk)', async () => {
    const core = [{ kind: 'smiles' as const, text: 'O=C(Nc1ccccc1)c1ccccn1', desalt: false }];
    const result = await engine.decompose(core, ANILIDES);
    expect(result.rows.every(Boolean)).toBe(true);
    expect(result.labels).toHaveLength(2);
    const [para, pyridine] = result.labels as [string, string];
    expect(result.rows[1]!.rgroups).toEqual({ [para]: `Cl[*:${para.slice(1)}]`, [pyridine]: `C[*:${pyridine.slice(1)}]` });
    expect(new Set(result.rows.map((row) => row!.rgroups[para] === null)).size).toBe(1);
  });

  it('refuses an unreadable core with RDKit’s message, and cores or R-groups over the limits', async () => {
    const refused = await engine.decompose([{ kind: 'smiles', text: 'C1CC[*:1]', desalt: false }], ANILIDES).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ChemInputError);
    expect((refused as Error).message).toMatch(/unclosed ring/);
    await expect(engine.decompose([{ kind: 'smiles', text: 'C'.repeat(300), desalt: false }], ANILIDES)).rejects.toBeInstanceOf(
      ChemQueryRefused,
    );
    await expect(engine.zip('c1ccccc1[*:1]', { R1: `${'C'.repeat(300)}[*:1]` })).rejects.toThrow(/R-group may have at most 250/);
    await expect(engine.zip('c1ccccc1[*:1]', { R1: 'C1CC[*:1]' })).rejects.toBeInstanceOf(ChemInputError);
  });

  it('refuses more than 5,000 SMILES in one call', async () => {
    const many = Array.from({ length: 5_001 }, () => 'CCO');
    await expect(engine.decompose([CORE], many)).rejects.toThrow(/5,001 structures .* at most 5,000/);
    await expect(engine.scaffolds(many)).rejects.toBeInstanceOf(ChemInputError);
    await expect(engine.fragments(many)).rejects.toBeInstanceOf(ChemInputError);
    await expect(engine.contains(CORE, many)).rejects.toBeInstanceOf(ChemInputError);
  });

  it('cancels a decomposition between chunks, and the next one works', async () => {
    const controller = new AbortController();
    let seen = 0;
    const cancelled = engine.decompose([CORE], ANILIDES, {
      signal: controller.signal,
      onProgress: (done) => {
        seen = done;
        controller.abort();
      },
    });
    await expect(cancelled).rejects.toBeInstanceOf(ChemSearchCancelled);
    expect(seen).toBe(100);
    const again = await engine.decompose([CORE], ANILIDES.slice(0, 10));
    expect(again.rows.filter(Boolean)).toHaveLength(10);
  });

  it('answers after a worker trapped', async () => {
    await expect(engine.testHook('trap', 'request')).rejects.toThrow(TRAP_MESSAGE);
    const again = await engine.decompose([CORE], ANILIDES.slice(0, 20));
    expect(again.rows.filter(Boolean)).toHaveLength(20);
    expect(await engine.scaffolds(['Cc1ccccc1'])).toEqual(['c1ccccc1']);
  });

  it('finds the MCS and which compounds contain a query', async () => {
    const mcs = await engine.mcs(ANILIDES.slice(0, 24));
    expect(mcs?.timedOut).toBe(false);
    const covered = await engine.contains({ kind: 'smarts', text: mcs!.smarts, desalt: false }, ANILIDES);
    expect(covered.every(Boolean)).toBe(true);
    expect(await engine.contains({ kind: 'smiles', text: 'c1ccc(Cl)cc1', desalt: false }, ANILIDES.slice(0, 6))).toEqual([
      false,
      true,
      false,
      false,
      false,
      false,
    ]);
    expect(await engine.mcs(['CCO'])).toBeNull();
  });

  it('answers the MCS of a series with a pyrrole-type NH (a JAK pyrrolopyrimidine) as the molecule, hydrogen on that nitrogen', async () => {
    // The MCS SMARTS says nothing of hydrogens: written as a molecule its pyrrole ring would not
    // kekulize, and the core was drawn as a query (grey, with ring-bond marks) instead.
    const series = ['C', 'CC', 'OC', 'Cl', 'C#N', 'F'].map((r) => `c1nc(N2CCC(${r})CC2)c2cc[nH]c2n1`);
    const mcs = await engine.mcs(series);
    expect(mcs?.smarts).toContain('[#7]');
    expect(mcs?.smiles).toBe('c1nc(N2CCCCC2)c2cc[nH]c2n1');
    expect(await engine.contains({ kind: 'smiles', text: mcs!.smiles!, desalt: false }, series)).toEqual(series.map(() => true));
  });

  it('cuts single acyclic bonds into constant and small variable parts', async () => {
    const [cuts] = await engine.fragments(['O=C(Nc1ccc(Cl)cc1)c1ccccn1']);
    expect(cuts).toContainEqual({ constant: 'O=C(Nc1ccc([*:1])cc1)c1ccccn1', variable: 'Cl[*:1]' });
    expect(cuts).toContainEqual({ constant: 'O=C(Nc1ccc(Cl)cc1)[*:1]', variable: 'c1ccc([*:1])nc1' });
    for (const cut of cuts!) expect(cut.constant.length).toBeGreaterThan(0);
    expect(cuts!.some((c) => c.variable.startsWith('O=C(Nc1ccc(Cl)cc1)'))).toBe(false);
  });
});
