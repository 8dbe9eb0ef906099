import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { ChemPool } from '../chem/chem-pool.ts';
import { buildChemblFixture } from './fixture.test-support.ts';
import type { FixtureOptions } from './fixture.test-support.ts';

/**
 * The ChEMBL fixture file of one test file, in its own temporary folder, and the RDKit pool the
 * imports use: built before the file's tests, removed after them.
 */
export function useChemblFixture(prefix: string, options: FixtureOptions = {}): { file: string; pool: () => ChemPool } {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const file = path.join(tmp, 'chembl_99.db');
  let pool: ChemPool | undefined;
  beforeAll(() => {
    buildChemblFixture(file, options);
    pool = new ChemPool(2);
  });
  afterAll(async () => {
    await pool?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });
  return {
    file,
    pool: () => {
      if (!pool) throw new Error('The RDKit pool starts in beforeAll: call pool() inside a test or hook.');
      return pool;
    },
  };
}
