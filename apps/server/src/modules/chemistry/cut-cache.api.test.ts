import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ONE_DATABASE, openTestDatabase } from '../../../test/harness.ts';
import type { TestDatabase } from '../../../test/harness.ts';
import { cutsOf } from './cut-cache.ts';
import { RdkitChemEngine } from './rdkit-engine.ts';

/*
 * The cut cache (migration 0032, cut-cache.ts) on both databases with real RDKit: cut once and
 * stored, read back after (also by another engine: another server, a restart), cut again when the
 * structure's SMILES changed, and never kept for a SMILES other than the structure's own.
 */
const SMILES = ['O=C(Nc1ccc(Cl)cc1)c1ccccn1', 'C[C@H](N)C(=O)Nc1ccccc1', 'c1ccccc1'];

describe.each(ONE_DATABASE)('cut cache on %s', (kind) => {
  let database: TestDatabase;
  let engine: RdkitChemEngine;
  const ids: number[] = [];

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    engine = new RdkitChemEngine(database.handle.db, { workers: 2 });
    for (const smiles of SMILES) {
      const row = await database.handle.db
        .insertInto('structures')
        .values({ smiles, canonical_smiles: smiles })
        .returning('str_id')
        .executeTakeFirstOrThrow();
      ids.push(Number(row.str_id));
    }
  }, 120_000);
  afterAll(async () => {
    await engine?.close();
    await database?.close();
  });

  it('cuts the missing structures, stores their cuts, and reads them back', async () => {
    const db = database.handle.db;
    const expected = await engine.fragments(SMILES);
    const progress: number[] = [];
    const first = await cutsOf(
      db,
      engine,
      ids.map((strId, i) => ({ strId, smiles: SMILES[i]! })),
      { onProgress: (done) => progress.push(done) },
    );
    expect(first).toEqual(expected);
    expect(first[0]).toContainEqual({ constant: 'O=C(Nc1ccc([*:1])cc1)c1ccccn1', variable: 'Cl[*:1]' });
    expect(first[2]).toEqual([]);
    expect(progress.at(-1)).toBe(3);
    const stored = await db.selectFrom('structure_cuts').select(['str_id', 'cuts']).orderBy('str_id').execute();
    expect(stored.map((r) => Number(r.str_id))).toEqual(ids);
    // Another engine (another server, or after a restart) reads them without cutting: a marker put in a row's place comes back.
    await db
      .updateTable('structure_cuts')
      .set({ cuts: JSON.stringify([['C[*:1]', 'F[*:1]']]) })
      .where('str_id', '=', ids[1]!)
      .execute();
    const other = new RdkitChemEngine(db, { workers: 1 });
    try {
      const again = await cutsOf(
        db,
        other,
        ids.map((strId, i) => ({ strId, smiles: SMILES[i]! })),
      );
      expect(again[1]).toEqual([{ constant: 'C[*:1]', variable: 'F[*:1]' }]);
      expect(again[0]).toEqual(expected[0]);
    } finally {
      await other.close();
    }
  });

  it('cuts a structure again when its SMILES changed, and keeps no cuts of another SMILES', async () => {
    const db = database.handle.db;
    await db
      .updateTable('structures')
      .set({ smiles: 'CC(=O)Nc1ccc(Br)cc1', canonical_smiles: 'CC(=O)Nc1ccc(Br)cc1' })
      .where('str_id', '=', ids[1]!)
      .execute();
    const [cuts] = await cutsOf(db, engine, [{ strId: ids[1]!, smiles: 'CC(=O)Nc1ccc(Br)cc1' }]);
    expect(cuts).toContainEqual({ constant: 'CC(=O)Nc1ccc([*:1])cc1', variable: 'Br[*:1]' });
    const { rows } = await sql<{
      fresh: boolean;
    }>`SELECT c.smiles_md5 = md5(s.canonical_smiles) AS fresh FROM structure_cuts c JOIN structures s USING (str_id) WHERE str_id = ${ids[1]}`.execute(
      db,
    );
    expect(rows).toEqual([{ fresh: true }]);
    // A SMILES that is not the structure's own is cut, not stored in its row, and an unknown id is cut too.
    const [odd, unknown] = await cutsOf(db, engine, [
      { strId: ids[0]!, smiles: 'Clc1ccccc1' },
      { strId: 987_654_321, smiles: 'Fc1ccccc1' },
    ]);
    expect(odd).toEqual([{ constant: 'c1ccc([*:1])cc1', variable: 'Cl[*:1]' }]);
    expect(unknown).toEqual([{ constant: 'c1ccc([*:1])cc1', variable: 'F[*:1]' }]);
    expect((await cutsOf(db, engine, [{ strId: ids[0]!, smiles: SMILES[0]! }]))[0]).toEqual((await engine.fragments([SMILES[0]!]))[0]);
    const count = await db.selectFrom('structure_cuts').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
    expect(count.n).toBe(3);
  });
});
