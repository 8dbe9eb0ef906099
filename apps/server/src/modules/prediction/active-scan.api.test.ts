import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, openTestDatabase } from '../../../test/harness.ts';
import type { TestDatabase } from '../../../test/harness.ts';
import { RdkitChemEngine } from '../chemistry/rdkit-engine.ts';
import { structuresRevision } from '../knowledge-base/kb-loads.ts';
import initRDKitModule from '@rdkit/rdkit';
import { MORGAN_SETTINGS } from '../chemistry/fingerprint.mjs';
import { beginLoad, finishLoad } from '../knowledge-base/kb-loads.ts';
import { ActiveScan } from './active-scan.ts';
import { readActiveSet } from './active-index.ts';
import { activeIndexOf, topsOfNeighbours, withParents, withoutStructures } from './similarity-ensemble.ts';
import type { ActiveTops } from './similarity-ensemble.ts';

/*
 * The prediction's own scan (inverted indexes in worker threads) against the structure index's
 * similarity search, over the same stored fingerprints: for queries typed as SMILES, the
 * neighbours at Tanimoto ≥ 0.3 among a set of structures must be exactly the structure index's
 * hits among them, with the same Tanimoto to the last bit — split over one part or several, in
 * one block of rows or many.
 */
describe.each(DATABASES)('active-structure scan on %s', (kind) => {
  let database: TestDatabase;
  let engine: RdkitChemEngine;
  let every: Float64Array;
  let saltsAdded = false;

  beforeAll(async () => {
    database = await openTestDatabase(kind, { demoChunks: 1 });
    engine = new RdkitChemEngine(database.handle.db, { workers: 1, revision: () => structuresRevision(database.handle.db) });
    engine.start();
    await engine.ready();
    const { rows } = await sql<{ str_id: number }>`SELECT str_id::int AS str_id FROM structures ORDER BY str_id`.execute(
      database.handle.db,
    );
    every = Float64Array.from(rows, (row) => row.str_id);
  }, 180_000);
  afterAll(async () => {
    await engine?.close();
    await database?.close();
  });

  const querySmiles = async (count: number) => {
    const { rows } = await sql<{
      canonical_smiles: string;
    }>`SELECT canonical_smiles FROM structures ORDER BY str_id DESC LIMIT ${count}`.execute(database.handle.db);
    // Beside stored structures, two that are not stored: a drug and a fragment.
    return [...rows.map((row) => row.canonical_smiles), 'COCCOc1cc2ncnc(Nc3cccc(C#C)c3)c2cc1OCCOC', 'c1ccccc1O'];
  };

  it.each([
    { workers: 1, block: undefined },
    { workers: 3, block: undefined },
    { workers: 2, block: 64 },
  ])(
    'finds exactly the structure index’s neighbours ≥ 0.3 among every other structure, in $workers part(s), blocks of $block rows',
    async (options) => {
      // Every other structure: the set is not the whole index, as the actives are not.
      const subset = every.filter((_, k) => k % 2 === 0);
      const scan = await ActiveScan.build(database.handle.db, subset, options);
      try {
        const smiles = await querySmiles(12);
        const described = await Promise.all(smiles.map((text) => engine.describe({ kind: 'smiles', text, desalt: false })));
        const found = await scan.neighbours(
          described.map((d) => d.morgan!),
          0.3,
        );
        let compared = 0;
        for (const [q, text] of smiles.entries()) {
          const hits = await engine.similarity({ kind: 'smiles', text, desalt: false }, { min: 0.3, max: 1 });
          const inSubset = new Set(subset);
          const expected = Array.from(hits.ids, (id, k) => ({ strId: id, similarity: hits.similarities![k]! }))
            .filter((hit) => inSubset.has(hit.strId))
            .sort((a, b) => a.strId - b.strId);
          const actual = [...found[q]!].sort((a, b) => a.strId - b.strId);
          expect(actual, text).toEqual(expected);
          compared += expected.length;
        }
        // Not a comparison of empty lists.
        expect(compared).toBeGreaterThan(smiles.length);
      } finally {
        await scan.close();
      }
    },
  );

  it.each([
    { workers: 1, block: undefined },
    { workers: 2, block: undefined },
    { workers: 3, block: 64 },
  ])(
    'gathers in its workers exactly the tops the plain rule gathers from the neighbours (salt forms as one parent), in $workers part(s)',
    async (options) => {
      const db = database.handle.db;
      // Salt forms of a few actives, active where their free bases are: parents with several forms.
      if (!saltsAdded) {
        saltsAdded = true;
        const { rows: picks } = await sql<{ str_id: number; canonical_smiles: string }>`
          SELECT DISTINCT ON (s.str_id) s.str_id::int AS str_id, s.canonical_smiles FROM activities a JOIN structures s ON s.str_id = a.str_id
          WHERE a.micro_molarvalue <= 0.005 AND upper(a.std_activity_type) IN ('IC50','KI') AND coalesce(a.std_act_prefix, '=') = '='
            AND s.canonical_smiles NOT LIKE '%.%' AND s.inchi IS NOT NULL ORDER BY s.str_id LIMIT 6`.execute(db);
        const rdkit = await initRDKitModule();
        const load = await beginLoad(db, { kind: 'import', label: 'salt forms (scan test)' });
        for (const [k, pick] of picks.entries()) {
          for (const suffix of k % 2 === 0 ? ['.Cl'] : ['.Cl', '.O']) {
            const smiles = `${pick.canonical_smiles}${suffix}`;
            const mol = rdkit.get_mol(smiles)!;
            const inserted = await db
              .insertInto('structures')
              .values({
                smiles,
                canonical_smiles: smiles,
                inchi: mol.get_inchi(),
                morgan_fp: new Uint8Array(mol.get_morgan_fp_as_uint8array(MORGAN_SETTINGS)),
                load_id: load,
              })
              .returning('str_id')
              .executeTakeFirstOrThrow();
            mol.delete();
            await sql`INSERT INTO activities (str_id, target_id, ref_id, std_activity_type, std_act_prefix, activity_value, standard_uom, micro_molarvalue, load_id)
              SELECT ${inserted.str_id}, target_id, ref_id, std_activity_type, std_act_prefix, activity_value * ${1 + k / 10}, standard_uom, micro_molarvalue * ${1 + k / 10}, ${load}
              FROM activities WHERE str_id = ${pick.str_id}`.execute(db);
          }
        }
        await finishLoad(db, load, 'complete', { changes: [], quality: null, notes: [] });
      }
      const read = await readActiveSet(db);
      const scan = await ActiveScan.build(db, read.strIds, options);
      try {
        const set = withParents(withoutStructures(read, scan.withoutFingerprint), (strId) => scan.parentOfStructure(strId));
        const parents = new Map<number, number>();
        for (const parent of set.parentOf) parents.set(parent, (parents.get(parent) ?? 0) + 1);
        expect(
          [...parents.values()].some((forms) => forms > 1),
          'some parent has several forms',
        ).toBe(true);
        await scan.attach(set);
        // Stored actives (their own structure and parent excluded; one with a long list excluded), and typed structures.
        const stored = await sql<{ str_id: number; fp: Uint8Array }>`
          SELECT str_id::int AS str_id, morgan_fp AS fp FROM structures WHERE str_id = ANY(${`{${[...set.strIds]
            .filter((_, k) => k % 7 === 0)
            .slice(0, 16)
            .join(',')}}`}::bigint[])
            OR canonical_smiles LIKE '%.Cl' OR canonical_smiles LIKE '%.Cl.O' ORDER BY str_id`.execute(db);
        const typed = await Promise.all(
          (await querySmiles(4)).map(async (text) => (await engine.describe({ kind: 'smiles', text, desalt: false })).morgan!),
        );
        const queries = [
          ...stored.rows.map((row, k) => {
            const at = activeIndexOf(set, row.str_id);
            const exclude = k === 1 ? [...set.strIds].filter((_, j) => j % 3 === 0) : [row.str_id];
            return { fingerprint: new Uint8Array(row.fp), exclude, excludeParent: at < 0 ? null : set.parentOf[at]! };
          }),
          ...typed.map((fingerprint) => ({ fingerprint, exclude: [], excludeParent: null })),
        ];
        const shape = { min: 0.3, threshold: 0.35, keep: 5, nearest: 4 };
        const tops = await scan.score(queries, shape);
        const neighbours = await scan.neighbours(
          queries.map((query) => query.fingerprint),
          shape.min,
        );
        const sorted = (value: ActiveTops) => ({ ...value, targets: [...value.targets].sort((a, b) => a.target - b.target) });
        let compared = 0;
        for (const [q, query] of queries.entries()) {
          const excluded = new Set(query.exclude);
          const expected = topsOfNeighbours(neighbours[q]!, set, {
            exclude: (id) => excluded.has(id),
            excludeParent: query.excludeParent,
            threshold: shape.threshold,
            keep: shape.keep,
            nearest: shape.nearest,
          });
          expect(sorted(tops[q]!), `query ${q}`).toEqual(sorted(expected));
          compared += expected.targets.length;
        }
        expect(compared).toBeGreaterThan(queries.length);
      } finally {
        await scan.close();
      }
    },
  );

  it('reports the structures stored without a fingerprint, and never finds them, however like the query they are', async () => {
    const first = every[0]!;
    const { rows } = await sql<{
      canonical_smiles: string;
      fp: Uint8Array;
    }>`SELECT canonical_smiles, morgan_fp AS fp FROM structures WHERE str_id = ${first}`.execute(database.handle.db);
    const query = (await engine.describe({ kind: 'smiles', text: rows[0]!.canonical_smiles, desalt: false })).morgan!;
    const before = await ActiveScan.build(database.handle.db, every.subarray(0, 2), { workers: 1 });
    try {
      expect(before.withoutFingerprint.size).toBe(0);
      expect((await before.neighbours([query], 0.3))[0]!.map((n) => n.strId)).toContain(first);
    } finally {
      await before.close();
    }
    await sql`UPDATE structures SET morgan_fp = NULL WHERE str_id = ${first}`.execute(database.handle.db);
    const scan = await ActiveScan.build(database.handle.db, every.subarray(0, 2), { workers: 1 });
    try {
      expect([...scan.withoutFingerprint]).toEqual([first]);
      expect((await scan.neighbours([query], 0.3))[0]!.map((n) => n.strId)).not.toContain(first);
      expect(scan.size).toBe(2);
    } finally {
      await scan.close();
      await sql`UPDATE structures SET morgan_fp = ${rows[0]!.fp} WHERE str_id = ${first}`.execute(database.handle.db);
    }
  });

  it('answers nothing for an empty fingerprint and stops its workers on close', async () => {
    const scan = await ActiveScan.build(database.handle.db, every.subarray(0, 50), { workers: 1 });
    expect(await scan.neighbours([new Uint8Array(256)], 0.3)).toEqual([[]]);
    await scan.close();
    await expect(scan.neighbours([new Uint8Array(256)], 0.3)).rejects.toThrow(/stopped/);
  });
});
