import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ONE_DATABASE, openTestDatabase } from '../../../test/harness.ts';
import type { TestDatabase } from '../../../test/harness.ts';
import { ChemReference, SUBSTRUCTURE_QUERIES } from '../../../test/chem-reference.ts';
import { fillMissingFingerprints } from '../knowledge-base/fill-fingerprints.ts';
import { structuresRevision } from '../knowledge-base/kb-loads.ts';
import { ChemInputError, ChemSearchCancelled } from './chem-engine.ts';
import { RdkitChemEngine } from './rdkit-engine.ts';

/*
 * Parity with RDKit (issue 5): on two demo chunks (2,000 structures) every substructure, SMARTS
 * and similarity hit set of the engine equals a molecule-by-molecule RDKit evaluation. Shards are
 * made small (257 structures, two workers) so that sharding, the popcount windows and merging
 * are exercised as they are at full scale.
 */
const byNumber = (a: number, b: number) => a - b;
/**
 * A search that stays long: a generic path inside a recursive SMARTS, which RDKit matches on every
 * structure (the workers decide a plain path themselves in a few ms).
 */
const SLOW_SMARTS = '[$(*~*~*~*~*~*~*~*~*~*~*~*)]';

describe.each(ONE_DATABASE)('chemistry engine parity with RDKit on demo data (%s)', (kind) => {
  let database: TestDatabase;
  let engine: RdkitChemEngine;
  let reference: ChemReference;

  beforeAll(async () => {
    database = await openTestDatabase(kind, { demoChunks: 2 });
    engine = new RdkitChemEngine(database.handle.db, {
      workers: 2,
      shardSize: 257,
      revision: () => structuresRevision(database.handle.db),
    });
    engine.start();
    await engine.ready();
    reference = await ChemReference.load(database.handle.db);
  }, 180_000);
  afterAll(async () => {
    reference?.close();
    await engine?.close();
    await database?.close();
  });

  it('indexes every structure', () => {
    const status = engine.status();
    expect(status).toMatchObject({ state: 'ready', workers: 2, error: null });
    expect(status.loaded).toBe(reference.structures.length);
    expect(status.shards).toBe(Math.ceil(reference.structures.length / 257));
  });

  it.each(SUBSTRUCTURE_QUERIES)('substructure $kind $text ($note) equals RDKit', async ({ kind: queryKind, text }) => {
    const hits = await engine.substructure({ kind: queryKind, text, desalt: true });
    expect(Array.from(hits.ids).sort(byNumber)).toEqual(reference.substructure(queryKind, text));
    expect(hits).toMatchObject({ complete: true, total: hits.ids.length, searched: reference.structures.length });
  });

  it('finds something for most queries (the parity above is not a comparison of empty sets)', async () => {
    const nonEmpty = SUBSTRUCTURE_QUERIES.filter((q) => reference.substructure(q.kind, q.text).length > 0);
    expect(nonEmpty.length).toBeGreaterThanOrEqual(26);
  });

  it('a molfile query finds what its SMILES finds', async () => {
    const molfile = reference.molfile('c1ccc2ncncc2c1');
    const hits = await engine.substructure({ kind: 'molfile', text: molfile, desalt: true });
    expect(Array.from(hits.ids).sort(byNumber)).toEqual(reference.substructure('smiles', 'c1ccc2ncncc2c1'));
  });

  it('desalted queries search for their largest fragment', async () => {
    const hits = await engine.substructure({ kind: 'smiles', text: 'c1ccncc1.Cl.[Na+]', desalt: true });
    expect(Array.from(hits.ids).sort(byNumber)).toEqual(reference.substructure('smiles', 'c1ccncc1'));
    const asIs = await engine.substructure({ kind: 'smiles', text: 'c1ccncc1.Cl', desalt: false });
    expect(Array.from(asIs.ids).sort(byNumber)).toEqual(reference.substructure('smiles', 'c1ccncc1.Cl'));
  });

  it('similarity at 0.4 / 0.6 / 0.8 / 1.0 equals RDKit Tanimoto on Morgan r=2, 2048 bits, most similar first', async () => {
    const picks = [0, Math.floor(reference.structures.length / 2), reference.structures.length - 1].map(
      (i) => reference.structures[i]!.smiles,
    );
    picks.push('CC(=O)Oc1ccccc1C(=O)O'); // aspirin: not in the demo data
    let compared = 0;
    for (const smiles of picks) {
      for (const min of [0.4, 0.6, 0.8, 1]) {
        const expected = reference.similarity(smiles, min, 1);
        const hits = await engine.similarity({ kind: 'smiles', text: smiles, desalt: true }, { min, max: 1 });
        expect(Array.from(hits.ids).sort(byNumber)).toEqual([...expected.keys()].sort(byNumber));
        hits.ids.forEach((id, i) => expect(hits.similarities![i]).toBe(expected.get(id)));
        for (let i = 1; i < hits.ids.length; i++) expect(hits.similarities![i]!).toBeLessThanOrEqual(hits.similarities![i - 1]!);
        compared += expected.size;
      }
    }
    expect(compared).toBeGreaterThan(12);
    // A window below the maximum excludes the query itself.
    const self = picks[0]!;
    const window = await engine.similarity({ kind: 'smiles', text: self, desalt: true }, { min: 0.3, max: 0.6 });
    expect(Array.from(window.ids).sort(byNumber)).toEqual([...reference.similarity(self, 0.3, 0.6).keys()].sort(byNumber));
  });

  it('restricted to candidates (a filter inside results), finds exactly the full answer within them, sparse and dense', async () => {
    const all = reference.structures.map((s) => s.strId).sort(byNumber);
    // Every 97th structure (two or three a shard: the small-library path) and 3 of every 4 (the shard-library path).
    const sparse = Float64Array.from(all.filter((_, i) => i % 97 === 0));
    const dense = Float64Array.from(all.filter((_, i) => i % 4 !== 0));
    let nonEmpty = 0;
    for (const candidates of [sparse, dense]) {
      const allowed = new Set(candidates);
      for (const { kind: queryKind, text } of SUBSTRUCTURE_QUERIES) {
        const expected = reference.substructure(queryKind, text).filter((id) => allowed.has(id));
        const hits = await engine.substructure({ kind: queryKind, text, desalt: true }, { candidates });
        expect(Array.from(hits.ids).sort(byNumber)).toEqual(expected);
        if (expected.length) nonEmpty++;
      }
      const smiles = reference.structures[3]!.smiles;
      const expected = [...reference.similarity(smiles, 0.5, 1).keys()].filter((id) => allowed.has(id)).sort(byNumber);
      const similar = await engine.similarity({ kind: 'smiles', text: smiles, desalt: true }, { min: 0.5, max: 1 }, { candidates });
      expect(Array.from(similar.ids).sort(byNumber)).toEqual(expected);
    }
    expect(nonEmpty).toBeGreaterThanOrEqual(26);
    // Unsorted, repeated candidates are taken as the set they name.
    const shuffled = Float64Array.from([...sparse].reverse().concat([sparse[0]!]));
    const hits = await engine.substructure({ kind: 'smiles', text: 'c1ccccc1', desalt: true }, { candidates: shuffled });
    expect(Array.from(hits.ids).sort(byNumber)).toEqual(
      reference.substructure('smiles', 'c1ccccc1').filter((id) => new Set(sparse).has(id)),
    );
  });

  it('a first page stops early and is part of the full answer', async () => {
    const full = new Set(reference.substructure('smiles', 'c1ccccc1'));
    const page = await engine.substructure({ kind: 'smiles', text: 'c1ccccc1', desalt: true }, { limit: 10 });
    expect(page.ids.length).toBe(10);
    expect(page.complete).toBe(false);
    expect(page.total).toBeNull();
    for (const id of page.ids) expect(full.has(id)).toBe(true);
    const top = await engine.similarity(
      { kind: 'smiles', text: reference.structures[5]!.smiles, desalt: true },
      { min: 0.2, max: 1 },
      { limit: 3 },
    );
    const expected = [...reference.similarity(reference.structures[5]!.smiles, 0.2, 1).entries()].sort(
      (a, b) => b[1] - a[1] || a[0] - b[0],
    );
    expect(Array.from(top.ids)).toEqual(expected.slice(0, 3).map(([id]) => id));
    expect(top.total).toBe(expected.length);
  });

  it('finds the k nearest in a range: the first k of the whole answer, ties by str_id, and restricted to candidates', async () => {
    for (const probe of [3, 77, 400]) {
      const smiles = reference.structures[probe]!.smiles;
      const all = [...reference.similarity(smiles, 0.1, 0.95).entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]);
      // Enough hits over many shards (257 rows each) that the workers' thresholds rise as they go.
      expect(all.length).toBeGreaterThan(100);
      for (const k of [1, 25, 100]) {
        const nearest = await engine.similarity({ kind: 'smiles', text: smiles, desalt: true }, { min: 0.1, max: 0.95 }, { nearest: k });
        expect(Array.from(nearest.ids), `probe ${probe} k ${k}`).toEqual(all.slice(0, k).map(([id]) => id));
        expect(Array.from(nearest.similarities!)).toEqual(all.slice(0, k).map(([, sim]) => sim));
        expect(nearest).toMatchObject({ complete: true, total: k });
      }
      const candidates = Float64Array.from(all.filter((_, i) => i % 2 === 1).map(([id]) => id)).sort();
      const restricted = await engine.similarity(
        { kind: 'smiles', text: smiles, desalt: true },
        { min: 0.1, max: 0.95 },
        { nearest: 10, candidates },
      );
      expect(Array.from(restricted.ids)).toEqual(
        all
          .filter((_, i) => i % 2 === 1)
          .slice(0, 10)
          .map(([id]) => id),
      );
    }
  });

  it("finds the k nearest when a worker's first shard holds most of them (its guess too high: a second pass)", async () => {
    const probe = reference.structures[3]!.smiles;
    const all = [...reference.similarity(probe, 0.1, 1).entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]);
    // Candidates: every hit of the first shard (257 rows by str_id), only a few of the others.
    const firstShard = new Set(
      reference.structures
        .map((s) => s.strId)
        .sort(byNumber)
        .slice(0, 257),
    );
    const kept = all.filter(([id], i) => firstShard.has(id) || i % 9 === 0);
    expect(kept.filter(([id]) => firstShard.has(id)).length).toBeGreaterThan(60);
    const candidates = Float64Array.from(kept.map(([id]) => id)).sort();
    for (const k of [40, 100]) {
      const nearest = await engine.similarity(
        { kind: 'smiles', text: probe, desalt: true },
        { min: 0.1, max: 1 },
        { nearest: k, candidates },
      );
      expect(Array.from(nearest.ids), `k ${k}`).toEqual(kept.slice(0, k).map(([id]) => id));
    }
  });

  it('answers the frequent fragments, the queries inside them and queries asked again from kept answers, exactly', async () => {
    await waitFor(() => engine.status().fragmentsReady);
    const sorted = (hits: { ids: Float64Array }) => Array.from(hits.ids).sort(byNumber);
    // The fragments themselves (written as a chemist may: Kekulé benzene), then molecule queries
    // inside them (hits taken from the fragments' answers without matching) and one that is not.
    for (const text of ['c1ccccc1', 'C1=CC=CC=C1', 'c1ccncc1', 'NC=O', 'OC=O', 'C=O', 'CN', 'CO', 'O', 'CC(N)=O']) {
      const hits = await engine.substructure({ kind: 'smiles', text, desalt: true });
      expect(sorted(hits), text).toEqual(reference.substructure('smiles', text));
      expect(hits.complete).toBe(true);
    }
    const benzene = await engine.substructure({ kind: 'smiles', text: 'c1ccccc1', desalt: true });
    // A kept answer: no screen, no matching (each hit is its own candidate).
    expect(benzene.screen).toEqual({ candidates: benzene.ids.length, byRdkit: 0 });
    // A first page and a search inside earlier results, from the kept answer.
    const page = await engine.substructure({ kind: 'smiles', text: 'c1ccccc1', desalt: true }, { limit: 5 });
    expect(page.ids.length).toBe(5);
    for (const id of page.ids) expect(benzene.ids).toContain(id);
    const candidates = Float64Array.from(reference.structures.map((s) => s.strId).filter((id) => id % 3 === 0)).sort();
    const inside = await engine.substructure({ kind: 'smiles', text: 'c1ccccc1', desalt: true }, { candidates });
    expect(sorted(inside)).toEqual(reference.substructure('smiles', 'c1ccccc1').filter((id) => id % 3 === 0));
    // A query asked again: the first time the screen lets through rows that do not match, the
    // second time the kept answer is read.
    const smarts = { kind: 'smarts' as const, text: '[#7;R]@[#6](=O)', desalt: false };
    const first = await engine.substructure(smarts);
    expect(first.screen!.candidates).toBeGreaterThan(first.ids.length);
    const again = await engine.substructure(smarts);
    expect(sorted(again)).toEqual(sorted(first));
    expect(sorted(again)).toEqual(reference.substructure('smarts', smarts.text));
    expect(again.screen).toEqual({ candidates: again.ids.length, byRdkit: 0 });
  });

  it("computes the fragments' answers on shards where a fragment passes no row of the screen, then reports them ready", async () => {
    // Shards of 3 rows: some hold no pyridine or amide at all (the screen leaves nothing).
    const small = new RdkitChemEngine(database.handle.db, { workers: 2, shardSize: 3, maxStructures: 60 });
    try {
      small.start();
      await small.ready();
      await waitFor(() => small.status().fragmentsReady, 30_000);
      const ids = (await small.substructure({ kind: 'smiles', text: 'c1ccncc1', desalt: true })).ids;
      const indexed = new Set(
        reference.structures
          .map((s) => s.strId)
          .sort(byNumber)
          .slice(0, 60),
      );
      expect(Array.from(ids).sort(byNumber)).toEqual(reference.substructure('smiles', 'c1ccncc1').filter((id) => indexed.has(id)));
    } finally {
      await small.close();
    }
  });

  it('answers complete searches when the index has fewer shards than workers (a worker without shards)', async () => {
    const single = new RdkitChemEngine(database.handle.db, { workers: 2, shardSize: 1_000_000 });
    try {
      single.start();
      await single.ready();
      const smiles = reference.structures[12]!.smiles;
      const similar = await single.similarity({ kind: 'smiles', text: smiles, desalt: true }, { min: 0.5, max: 1 }, { limit: 3 });
      expect(similar).toMatchObject({ complete: true, total: reference.similarity(smiles, 0.5, 1).size });
      const pyridine = await single.substructure({ kind: 'smiles', text: 'c1ccncc1', desalt: true });
      expect(pyridine).toMatchObject({ complete: true, total: reference.substructure('smiles', 'c1ccncc1').length });
    } finally {
      await single.close();
    }
  });

  it('knows the total of a first page exactly when the hits fit in it', async () => {
    const expected = reference.substructure('smiles', 'O=C1NC(=O)SC1');
    expect(expected.length).toBeGreaterThan(1);
    const fits = await engine.substructure({ kind: 'smiles', text: 'O=C1NC(=O)SC1', desalt: true }, { limit: expected.length });
    expect(fits).toMatchObject({ complete: true, total: expected.length });
    const cut = await engine.substructure({ kind: 'smiles', text: 'O=C1NC(=O)SC1', desalt: true }, { limit: expected.length - 1 });
    expect(cut).toMatchObject({ complete: false, total: null });
    expect(cut.ids.length).toBe(expected.length - 1);
  });

  it('streams progress and can be cancelled between slices of shards; the engine then answers the next search', async () => {
    const controller = new AbortController();
    const seen: number[] = [];
    // A slow query: a worker reports every few milliseconds of shards, so a fast one ends in one report.
    const cancelled = engine.substructure(
      { kind: 'smarts', text: SLOW_SMARTS, desalt: true },
      {
        signal: controller.signal,
        onProgress: (p) => {
          if (p.phase !== 'search') return;
          seen.push(p.searched);
          if (seen.length === 2) controller.abort();
        },
      },
    );
    await expect(cancelled).rejects.toBeInstanceOf(ChemSearchCancelled);
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(seen.at(-1)!).toBeLessThan(reference.structures.length);
    const after = await engine.substructure({ kind: 'smiles', text: 'C#N', desalt: true });
    expect(Array.from(after.ids).sort(byNumber)).toEqual(reference.substructure('smiles', 'C#N'));
  });

  it('serves a short search while a long one runs (shards are shared round-robin)', async () => {
    const order: string[] = [];
    const long = engine.substructure({ kind: 'smarts', text: SLOW_SMARTS, desalt: true }).then(() => order.push('long'));
    const short = engine
      .similarity({ kind: 'smiles', text: reference.structures[0]!.smiles, desalt: true }, { min: 0.9, max: 1 })
      .then(() => order.push('short'));
    await Promise.all([long, short]);
    expect(order).toEqual(['short', 'long']);
  });

  it('refuses unreadable queries with what RDKit found wrong, and where', async () => {
    await expect(engine.substructure({ kind: 'smiles', text: 'CC(C', desalt: true })).rejects.toThrow(
      /extra open parentheses[\s\S]*position 3/,
    );
    await expect(engine.substructure({ kind: 'smiles', text: 'C1CC', desalt: true })).rejects.toThrow(/unclosed ring/);
    await expect(engine.substructure({ kind: 'smiles', text: 'c1cccc1', desalt: true })).rejects.toThrow(/kekulize/i);
    await expect(engine.substructure({ kind: 'smarts', text: '[C;X4', desalt: true })).rejects.toThrow(
      /SMARTS Parse Error[\s\S]*position 5/,
    );
    await expect(engine.similarity({ kind: 'smarts', text: 'c1ccccc1', desalt: true }, { min: 0.5, max: 1 })).rejects.toBeInstanceOf(
      ChemInputError,
    );
  });

  it('survives a worker that dies: the running search is finished on its replacement, searches work again', async () => {
    const expected = reference.substructure('smarts', SLOW_SMARTS);
    const running = engine.substructure({ kind: 'smarts', text: SLOW_SMARTS, desalt: true });
    // Let the search start on every worker, then kill one thread from outside, as an
    // out-of-memory would: the search's shards of that worker are searched again on its replacement.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const workers = (engine as unknown as { workers: { worker: { terminate(): Promise<number> } }[] }).workers;
    await workers[0]!.worker.terminate();
    const hits = await running;
    expect(Array.from(hits.ids).sort(byNumber)).toEqual(expected);
    expect(hits.complete).toBe(true);
    const after = await engine.substructure({ kind: 'smiles', text: 'C#N', desalt: true });
    expect(Array.from(after.ids).sort(byNumber)).toEqual(reference.substructure('smiles', 'C#N'));
    expect(engine.status()).toMatchObject({ state: 'ready', loaded: reference.structures.length, workers: 2 });
  });

  it('picks up structures added after the first load (refresh)', async () => {
    const before = engine.status().loaded;
    await database.handle.db
      .insertInto('structures')
      .values({ smiles: 'CC(=O)Oc1ccccc1C(=O)O', canonical_smiles: 'CC(=O)Oc1ccccc1C(=O)O' })
      .execute();
    await engine.refresh();
    expect(engine.status().loaded).toBe(before + 1);
    // No fingerprints stored: RDKit computes the screen itself; the structure is found.
    const hits = await engine.substructure({ kind: 'smiles', text: 'CC(=O)Oc1ccccc1C(=O)O', desalt: true });
    expect(hits.ids.length).toBeGreaterThanOrEqual(1);
  });

  it('reads structures changed in place again (fingerprints filled): similarity finds them without a restart', async () => {
    const db = database.handle.db;
    const query = { kind: 'smiles' as const, text: 'CC(=O)Nc1ccc(O)cc1', desalt: true };
    const row = await db
      .insertInto('structures')
      .values({ smiles: query.text, canonical_smiles: query.text })
      .returning('str_id')
      .executeTakeFirstOrThrow();
    const id = Number(row.str_id);
    await engine.refresh();
    // Indexed, but without a stored Morgan fingerprint: never similar to anything.
    expect(Array.from((await engine.similarity(query, { min: 0.99, max: 1 })).ids)).not.toContain(id);

    expect(await fillMissingFingerprints(db)).toBeGreaterThanOrEqual(1);
    await engine.refresh();
    expect(Array.from((await engine.similarity(query, { min: 0.99, max: 1 })).ids)).toContain(id);
    const stored = await db
      .selectFrom('structures')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    expect(engine.status()).toMatchObject({ state: 'ready', loaded: Number(stored.n) });
    // Nothing changed since: a refresh reads nothing again.
    const loadMs = engine.status().loadMs;
    await engine.refresh();
    expect(engine.status().loadMs).toBe(loadMs);
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
