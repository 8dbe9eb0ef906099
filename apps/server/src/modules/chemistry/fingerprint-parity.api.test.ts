import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../../test/harness.ts';
import type { TestDatabase } from '../../../test/harness.ts';
import { ChemPool } from '../knowledge-base/chem/chem-pool.ts';
import { FP_BYTES } from './fingerprint.mjs';
import { RdkitChemEngine } from './rdkit-engine.ts';

/*
 * Seeding and import (ChemPool, knowledge-base/chem/rdkit-worker.mjs) store the Morgan fingerprint
 * that similarity search and sort compare against the query's, which the search workers compute
 * (chem-worker.mjs). Both read chemistry/fingerprint.mjs; this proves, with real RDKit in both
 * pools, that they produce the same bytes for the same molecules, so the two can never drift.
 */
const MOLECULES = [
  'CC(=O)Oc1ccccc1C(=O)O', // aspirin
  'CN1C=NC2=C1C(=O)N(C(=O)N2C)C', // caffeine
  'Cc1ccc(cc1Nc1nccc(n1)-c1cccnc1)NC(=O)c1ccc(cc1)CN1CCN(C)CC1', // imatinib
  'C[C@H](N)C(=O)O', // L-alanine (stereo)
  'c1ccc2c(c1)ccc1ccccc12', // phenanthrene
  'OC(=O)CCc1c[nH]c2ccccc12', // indole-3-propionic acid
];

describe('one fingerprint definition for seeding and search', () => {
  let database: TestDatabase;
  let engine: RdkitChemEngine;
  let pool: ChemPool;

  beforeAll(async () => {
    database = await openTestDatabase('pglite');
    engine = new RdkitChemEngine(database.handle.db, { workers: 1 });
    await engine.ready();
    pool = new ChemPool(1);
  }, 120_000);
  afterAll(async () => {
    await pool?.close();
    await engine?.close();
    await database?.close();
  });

  it("stored Morgan fingerprints equal the search engine's query fingerprints, byte for byte", async () => {
    const stored = await pool.compute(MOLECULES, { inchi: false });
    for (const [i, smiles] of MOLECULES.entries()) {
      const described = await engine.describe({ kind: 'smiles', text: smiles, desalt: true });
      const seeded = stored[i]?.morgan_fp;
      expect(seeded?.length, smiles).toBe(FP_BYTES);
      expect(described.morgan?.length, smiles).toBe(FP_BYTES);
      expect(Buffer.from(described.morgan!).equals(Buffer.from(seeded!)), smiles).toBe(true);
    }
  });

  it('the fingerprints differ between molecules (the comparison above is not of empty bytes)', async () => {
    const stored = await pool.compute(MOLECULES.slice(0, 2), { inchi: false });
    const [a, b] = stored.map((s) => Buffer.from(s!.morgan_fp!));
    expect(a!.equals(b!)).toBe(false);
    expect(a!.some((byte) => byte !== 0)).toBe(true);
    expect(stored.every((s) => s?.pattern_fp?.length === FP_BYTES)).toBe(true);
  });
});
