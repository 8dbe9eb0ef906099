import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ONE_DATABASE, openTestDatabase } from '../../../test/harness.ts';
import type { TestDatabase } from '../../../test/harness.ts';
import { RdkitChemEngine } from './rdkit-engine.ts';
import { scaffoldsOf } from './scaffold-cache.ts';

/*
 * The scaffold cache (docs/sar.md "Scaffold cache") on both databases with real RDKit: computed
 * once and stored, read back after, and computed again when the structure's SMILES changed.
 */
describe.each(ONE_DATABASE)('scaffold cache on %s', (kind) => {
  let database: TestDatabase;
  let engine: RdkitChemEngine;
  const ids: number[] = [];

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    engine = new RdkitChemEngine(database.handle.db, { workers: 2 });
    for (const smiles of ['Cc1ccccc1', 'CCCCCC', 'CC(=O)c1ccc(-c2ccccc2)cc1']) {
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

  it('computes the missing scaffolds, stores them, and reads them back', async () => {
    const db = database.handle.db;
    const first = await scaffoldsOf(db, engine, [...ids, 987_654_321]);
    expect([...first.entries()].sort((a, b) => a[0] - b[0])).toEqual([
      [ids[0], 'c1ccccc1'],
      [ids[1], null],
      [ids[2], 'c1ccc(-c2ccccc2)cc1'],
    ]);
    const stored = await db.selectFrom('structure_scaffolds').select(['str_id', 'scaffold']).orderBy('str_id').execute();
    expect(stored.map((r) => [Number(r.str_id), r.scaffold])).toEqual([...first.entries()].sort((a, b) => a[0] - b[0]));
    // A stored row is what is answered (a marker put in its place comes back): no RDKit call.
    await db.updateTable('structure_scaffolds').set({ scaffold: 'C1CC1' }).where('str_id', '=', ids[0]!).execute();
    expect((await scaffoldsOf(db, engine, [ids[0]!])).get(ids[0]!)).toBe('C1CC1');
  });

  it('computes a structure’s scaffold again when its SMILES changed', async () => {
    const db = database.handle.db;
    await db.updateTable('structures').set({ smiles: 'CC1CCCCC1', canonical_smiles: 'CC1CCCCC1' }).where('str_id', '=', ids[0]!).execute();
    expect((await scaffoldsOf(db, engine, [ids[0]!, ids[2]!])).get(ids[0]!)).toBe('C1CCCCC1');
    const { rows } = await sql<{
      fresh: boolean;
    }>`SELECT c.smiles_md5 = md5(s.canonical_smiles) AS fresh, c.scaffold FROM structure_scaffolds c JOIN structures s USING (str_id) WHERE str_id = ${ids[0]}`.execute(
      db,
    );
    expect(rows).toEqual([{ fresh: true, scaffold: 'C1CCCCC1' }]);
  });
});
