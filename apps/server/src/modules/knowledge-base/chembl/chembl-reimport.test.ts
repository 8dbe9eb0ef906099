// A ChEMBL release over an abandoned or earlier import, a changed structure, and bad input
// (the first import of the fixture is chembl-import.test.ts).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../../db/database.ts';
import { openDatabase } from '../../../db/database.ts';
import { migrateToLatest } from '../../../db/migrate.ts';
import { DATABASES } from '../../../../test/harness.ts';
import { ChemPool } from '../chem/chem-pool.ts';
import { seedDemoKnowledgeBase } from '../demo/demo-seed.ts';
import { NotChemblFileError, importChembl } from './chembl-import.ts';
import { findDemoData } from './mixing.ts';
import { buildChemblFixture, defaultFixtureRows } from './fixture.test-support.ts';
import { nextReleaseRows } from './release-fixture.test-support.ts';
import { ACTIVITY_REPORT } from './steps-molecules.ts';

import { EXPECTED_COUNTS, fileKeys, liveKeys, openMigrated, step } from './chembl-import.test-support.ts';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'chembl-fixture-'));
const FIXTURE = path.join(tmp, 'chembl_99.db');
let pool: ChemPool;
beforeAll(() => {
  buildChemblFixture(FIXTURE);
  pool = new ChemPool(2);
});
afterAll(async () => {
  await pool.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

// A first load writes no seen keys and retires nothing; an abandoned first import must not make
// the next release a "first load" too, or the abandoned rows it lacks would stay live for ever.
describe.each(DATABASES)('ChEMBL import of another release over an abandoned first import on %s', (kind) => {
  it("is not a first load: it retires the abandoned import's rows that the new release lacks", async () => {
    const fresh = await openMigrated(kind);
    const other = path.join(tmp, 'chembl_99_next.db');
    buildChemblFixture(other, { rows: nextReleaseRows() });
    try {
      const nextKeys = fileKeys(other);
      // One batch per run until the abandoned import holds a key the next release does not have.
      let stale: string[] = [];
      for (let runs = 0; stale.length === 0 && runs < 60; runs++) {
        const run = await importChembl(fresh.handle, FIXTURE, { pool, batchSize: 2, maxBatches: 1 });
        expect(run.complete).toBe(false);
        stale = [...(await liveKeys(fresh.handle))].filter((k) => !nextKeys.has(k));
      }
      expect(stale.length).toBeGreaterThan(0);
      const next = await importChembl(fresh.handle, other, { pool });
      expect(next.complete).toBe(true);
      const live = await liveKeys(fresh.handle);
      expect(stale.filter((k) => live.has(k))).toEqual([]);
      expect([...live].filter((k) => !nextKeys.has(k))).toEqual([]);
    } finally {
      await fresh.drop();
    }
  });

  it('reads a first import overtaken by another release again when resumed, so its end retires correctly', async () => {
    const fresh = await openMigrated(kind);
    const other = path.join(tmp, 'chembl_99_overtaking.db');
    buildChemblFixture(other, { rows: nextReleaseRows() });
    try {
      for (let runs = 0; runs < 8; runs++) await importChembl(fresh.handle, FIXTURE, { pool, batchSize: 2, maxBatches: 1 });
      const early = await liveKeys(fresh.handle);
      expect(early.size).toBeGreaterThan(0);
      expect((await importChembl(fresh.handle, other, { pool })).complete).toBe(true);
      const resumed = await importChembl(fresh.handle, FIXTURE, { pool });
      expect(resumed.complete).toBe(true);
      const live = await liveKeys(fresh.handle);
      const firstKeys = fileKeys(FIXTURE);
      // Nothing only the overtaking release had stays live; the first import's early rows do.
      expect([...live].filter((k) => !firstKeys.has(k))).toEqual([]);
      expect([...early].filter((k) => !live.has(k))).toEqual([]);
    } finally {
      await fresh.drop();
    }
  });
});

// An update runs RDKit only for structures that changed; the others keep the stored structure.
describe.each(DATABASES)('ChEMBL update with one changed structure on %s', (kind) => {
  it('recomputes only the changed structure and points the molecule at it', async () => {
    const fresh = await openMigrated(kind);
    const changed = path.join(tmp, 'chembl_99_changed.db');
    const rows = defaultFixtureRows();
    rows.compound_structures = (rows.compound_structures ?? []).map((r) =>
      r.molregno === 2001 ? { molregno: 2001, canonical_smiles: 'OC(=O)c1ccccc1O' } : r,
    );
    buildChemblFixture(changed, { rows });
    try {
      await importChembl(fresh.handle, FIXTURE, { pool });
      const update = await importChembl(fresh.handle, changed, { pool });
      expect(update.load.kind).toBe('update');
      const structureOf = async (molregno: number) =>
        (
          await fresh.handle.db
            .selectFrom('compounds')
            .innerJoin('structures', 'structures.str_id', 'compounds.str_id')
            .select('structures.canonical_smiles')
            .where('compounds.chembl_molregno', '=', molregno)
            .executeTakeFirst()
        )?.canonical_smiles;
      expect(await structureOf(2001)).toBe('O=C(O)c1ccccc1O');
      expect(await structureOf(1280)).toBe('CC(=O)Oc1ccccc1C(=O)O');
      const withStructure = (await fresh.handle.db.selectFrom('compounds').select('gvk_id').where('str_id', 'is not', null).execute())
        .length;
      const molecules = step(update, 'molecules');
      // RDKit runs again for 2001 (changed) and 2005 (a molfile: stored as RDKit's SMILES, so its text never compares equal).
      expect(molecules.info['structure as in the earlier load (RDKit not run again)']).toBe(withStructure - 2);
    } finally {
      await fresh.drop();
    }
  });
});

describe.each(DATABASES)('ChEMBL import of bad input on %s', (kind) => {
  let handle: DatabaseHandle;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ handle, drop } = await openMigrated(kind));
  });
  afterAll(async () => {
    await drop();
  });

  it('refuses a file that is not SQLite, and an SQLite file without ChEMBL tables', async () => {
    const text = path.join(tmp, `notes-${kind}.db`);
    fs.writeFileSync(text, 'molregno,smiles\n1,CCO\n');
    await expect(importChembl(handle, text, { pool })).rejects.toThrow(NotChemblFileError);
    await expect(importChembl(handle, text, { pool })).rejects.toThrow(/not an SQLite database/);
    const other = path.join(tmp, `other-${kind}.db`);
    const db = new Database(other);
    db.exec('CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)');
    db.close();
    await expect(importChembl(handle, other, { pool })).rejects.toThrow(/not a ChEMBL release: it has none of the tables/);
    await expect(importChembl(handle, path.join(tmp, `absent-${kind}.db`), { pool })).rejects.toThrow(/no such file/);
    const structures = await handle.db.selectFrom('structures').select('str_id').execute();
    expect(structures).toHaveLength(0);
  });

  it('loads a partial release and reports the missing tables and columns', async () => {
    const partial = path.join(tmp, `partial-${kind}.db`);
    buildChemblFixture(partial, {
      omitTables: ['molecule_hierarchy', 'drug_mechanism', 'docs', 'component_synonyms', 'ligand_eff', 'compound_records'],
      omitColumns: { activities: ['pchembl_value', 'action_type'] },
    });
    const summary = await importChembl(handle, partial, { pool });
    expect(summary.complete).toBe(true);
    expect(summary.missingTables).toEqual(expect.arrayContaining(['molecule_hierarchy', 'drug_mechanism', 'docs', 'component_synonyms']));
    expect(step(summary, 'docs').status).toBe('missing table');
    expect(step(summary, 'activities').notes.join()).toMatch(/activities\.pchembl_value, activities\.action_type/);
    expect(step(summary, 'activities').notes.join()).toMatch(/ligand_eff \(whole table.*compound_records \(whole table/);
    // Without molecule_hierarchy the salt has no structure: its activity is kept without one.
    expect(step(summary, 'activities')).toMatchObject({ loaded: { activities: 10 }, skipped: { 'molecule not in the file': 1 } });
    expect(step(summary, 'activities').info[ACTIVITY_REPORT.withoutStructure]).toBe(4);
    expect(await handle.db.selectFrom('activities').select('chembl_activity_id').where('bei', 'is not', null).execute()).toEqual([]);
    const egfr = await handle.db
      .selectFrom('targets')
      .select(['gene_symbol', 'uniprot_id'])
      .where('chembl_tid', '=', 9)
      .executeTakeFirstOrThrow();
    expect(egfr).toEqual({ gene_symbol: null, uniprot_id: 'P00533' });
  });

  it('loads what SQLite can still read from a truncated file and says so', async () => {
    const big = path.join(tmp, `big-${kind}.db`);
    const rows = defaultFixtureRows();
    // Many activities written last: their pages are the end of the file, cut off below.
    rows.activities = Array.from({ length: 6_000 }, (_, i) => ({
      activity_id: 100_000 + i,
      assay_id: 1000,
      doc_id: 100,
      molregno: 1280,
      standard_relation: '=',
      standard_value: i + 1,
      standard_units: 'nM',
      standard_type: 'IC50',
      activity_comment: `padding row ${i} to fill pages`.repeat(3),
    }));
    buildChemblFixture(big, { rows });
    const truncated = path.join(tmp, `truncated-${kind}.db`);
    const bytes = fs.readFileSync(big);
    fs.writeFileSync(truncated, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    const summary = await importChembl(handle, truncated, { pool, batchSize: 500 });
    expect(summary.warnings.join('\n')).toMatch(/truncated/);
    expect(summary.complete).toBe(false);
    const damaged = summary.steps.filter((s) => s.status === 'unreadable part');
    expect(damaged.length).toBeGreaterThan(0);
    expect(damaged.flatMap((s) => s.notes).join('\n')).toMatch(/malformed|corrupt|short read|not a database/i);
    // Pages before the cut still load: the molecules, and activities up to the damage.
    expect(step(summary, 'molecules')).toMatchObject({ status: 'loaded', read: 7 });
    expect(step(summary, 'activities')).toMatchObject({ status: 'unreadable part' });
    expect(step(summary, 'activities').read).toBeLessThan(6_000);
    const label = await handle.db.selectFrom('app_settings').select('value').where('key', '=', 'dataset_label').executeTakeFirstOrThrow();
    expect(label.value).toBe(`chembl:truncated-${kind}.db`);
  });
});

describe('import-chembl CLI', () => {
  it('exits with code 2 and a clear message for a file that is not a ChEMBL release', () => {
    const text = path.join(tmp, 'readme.txt');
    fs.writeFileSync(text, 'not a database');
    const cli = path.resolve(import.meta.dirname, '../../../cli/import-chembl.ts');
    const result = spawnSync(process.execPath, ['--import', 'tsx', cli, text], {
      encoding: 'utf8',
      env: { ...process.env, DATA_DIR: path.join(tmp, 'cli-data'), DATABASE_URL: '' },
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/Refused: .*not an SQLite database/);
    expect(fs.existsSync(path.join(tmp, 'cli-data'))).toBe(false);
  });

  it('refuses (exit 2) a database holding demo data unless --allow-mixed is given', async () => {
    const dataDir = path.join(tmp, 'mixed-data');
    // An unfinished demo seed (one chunk): dataset_label is not set yet, the demo rows are there.
    const seeded = await openDatabase({ pgliteDir: path.join(dataDir, 'db') });
    await migrateToLatest(seeded);
    await seedDemoKnowledgeBase(seeded, { size: 'S', maxChunks: 1, pool });
    await seeded.close();
    const cli = path.resolve(import.meta.dirname, '../../../cli/import-chembl.ts');
    const run = (...extra: string[]) =>
      spawnSync(process.execPath, ['--import', 'tsx', cli, FIXTURE, ...extra], {
        encoding: 'utf8',
        env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
      });
    const chemblRows = async () => {
      const handle = await openDatabase({ pgliteDir: path.join(dataDir, 'db') });
      try {
        const row = await handle.db
          .selectFrom('compounds')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('chembl_molregno', 'is not', null)
          .executeTakeFirstOrThrow();
        return Number(row.n);
      } finally {
        await handle.close();
      }
    };

    const refused = run();
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(
      /Refused: this database already holds synthetic demo data \(1,000 demo compounds; demo seed run seed:S:42\)/,
    );
    expect(refused.stderr).toMatch(/--allow-mixed/);
    expect(await chemblRows()).toBe(0);

    const allowed = run('--allow-mixed');
    expect(allowed.status).toBe(0);
    expect(allowed.stderr).toMatch(/Warning: importing on top of synthetic demo data/);
    expect(await chemblRows()).toBe(EXPECTED_COUNTS.compounds);
  }, 120_000);
});

describe.each(DATABASES)('findDemoData on %s', (kind) => {
  it('finds nothing in an empty or ChEMBL-only database, and finds a demo dataset label', async () => {
    const { handle, drop } = await openMigrated(kind);
    try {
      expect(await findDemoData(handle.db)).toBeNull();
      await importChembl(handle, FIXTURE, { pool });
      expect(await findDemoData(handle.db)).toBeNull();
      await handle.db.updateTable('app_settings').set({ value: 'demo-M' }).where('key', '=', 'dataset_label').execute();
      expect(await findDemoData(handle.db)).toEqual({ datasetLabel: 'demo-M', demoCompounds: 0, seedJobs: [] });
    } finally {
      await drop();
    }
  }, 60_000);
});
