import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../../../test/harness.ts';
import type { TestDatabase } from '../../../../test/harness.ts';
import { ChemPool } from '../chem/chem-pool.ts';
import { EXPECTED_TABLES, importChembl } from './chembl-import.ts';
import type { ImportSummary } from './chembl-import.ts';
import { CHEMBL_COLUMNS } from './fixture-schema.test-support.ts';
import { ACTIVITY_REPORT } from './steps-molecules.ts';
import { generateRelease, NOT_GENERATED } from '../../../../../../bench/support/chembl-release/generate.ts';
import type { GenerateResult } from '../../../../../../bench/support/chembl-release/generate.ts';
import { scaledCounts } from '../../../../../../bench/support/chembl-release/proportions.ts';
import { GENERATED_TABLES } from '../../../../../../bench/support/chembl-release/subset.ts';
import { carbonHydrogenSites, substitute } from '../../../../../../bench/support/chembl-release/hydrogen-sites.mjs';

/**
 * The ChEMBL-shaped release generator (bench/support/chembl-release/, a test instrument): a 1/1000
 * file has the planned rows, the tables and columns the importer reads, and imports with exactly
 * the generator's counts. The generator grows its rows from the real ChEMBL subset
 * (../shared/data/chembl-subset); without it these tests are skipped.
 * CHEMBL_SUBSET=/path/to/file.db points elsewhere; CHEMBL_SUBSET=off skips them.
 */
const SUBSET =
  process.env.CHEMBL_SUBSET ?? path.resolve(import.meta.dirname, '../../../../../../../shared/data/chembl-subset/chembl_subset.db');
const available = process.env.CHEMBL_SUBSET !== 'off' && fs.existsSync(SUBSET);
if (!available) {
  console.warn(
    `Skipping the generated ChEMBL release tests: ${process.env.CHEMBL_SUBSET === 'off' ? 'CHEMBL_SUBSET=off' : `${SUBSET} is absent`} (the generator grows its rows from the real subset).`,
  );
}

const SCALE = 0.001;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'chembl-release-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function open(file: string): Database.Database {
  return new Database(file, { readonly: true, fileMustExist: true });
}

const count = (db: Database.Database, sql: string): number => Number(db.prepare(sql).pluck().get());

/** The activity fields the importer uses (docs/data-model.md), as shares of all activities: the subset's mix. */
function activityMix(db: Database.Database) {
  const all = count(db, 'SELECT count(*) FROM activities');
  const share = (where: string) => count(db, `SELECT count(*) FROM activities WHERE ${where}`) / all;
  return {
    publishedTypeOnly: share("nullif(trim(standard_type), '') IS NULL AND nullif(trim(type), '') IS NOT NULL"),
    noStandardValue: share('standard_value IS NULL'),
    pchembl: share('pchembl_value IS NOT NULL'),
    validityComment: share('data_validity_comment IS NOT NULL'),
    notEqual: share("standard_relation IS NOT NULL AND standard_relation <> '='"),
  };
}

describe('hydrogen sites of an explicit-hydrogen SMILES', () => {
  it('finds hydrogens on carbon (leading, in branches, on bracket atoms) and writes analogues', () => {
    const smiles = '[H]c1nc([H])c(C([H])([H])[H])n1[H]';
    const sites = carbonHydrogenSites(smiles);
    // The hydrogen on the ring nitrogen is not a site; the two aromatic and three methyl ones are.
    expect(sites.map((s) => s.offset)).toEqual([0, 8, 16, 21, 25]);
    expect(substitute(smiles, sites, [])).toBe('c1ncc(C)n1[H]');
    expect(substitute(smiles, sites, [{ offset: 0, group: 'O(C)' }])).toBe('O(C)c1ncc(C)n1[H]');
    expect(
      substitute(smiles, sites, [
        { offset: 8, group: 'F' },
        { offset: 25, group: 'Cl' },
      ]),
    ).toBe('c1nc(F)c(CCl)n1[H]');
    // A stereocentre keeps its hydrogen: without it the bracket carbon would be a radical.
    const chiral = 'F[C@@]([H])(Cl)C([H])([H])[H]';
    const chiralSites = carbonHydrogenSites(chiral);
    expect(chiralSites.map((s) => s.span)).toEqual([null, [16, 21], [21, 26], [26, 29]]);
    expect(substitute(chiral, chiralSites, [])).toBe('F[C@@]([H])(Cl)C');
  });
});

describe.skipIf(!available)('a generated ChEMBL-shaped release (1/1000 of ChEMBL 35) imported into PGlite', () => {
  const file = path.join(tmp, 'chembl_generated_1.db');
  let generated: GenerateResult;
  let release: Database.Database;
  let subset: Database.Database;
  let database: TestDatabase;
  let pool: ChemPool;
  let summary: ImportSummary;

  beforeAll(async () => {
    // With standard InChIs, as a real release (and the importer then takes them instead of computing them).
    generated = await generateRelease({ source: SUBSET, out: file, scale: SCALE, seed: 7, inchi: true });
    release = open(file);
    subset = open(SUBSET);
    database = await openTestDatabase('pglite');
    pool = new ChemPool(2);
    const started = performance.now();
    summary = await importChembl(database.handle, file, { pool });
    console.log(
      `generated release 1/1000: generated in ${generated.seconds.total} s, imported in ${((performance.now() - started) / 1000).toFixed(1)} s, ${JSON.stringify(summary.counts)}`,
    );
  }, 300_000);
  afterAll(async () => {
    release?.close();
    subset?.close();
    await pool?.close();
    await database?.close();
  });

  it('has the planned rows of every entity, counted in the file, and every key resolves', () => {
    const planned = scaledCounts(SCALE);
    expect(count(release, 'SELECT count(*) FROM molecule_dictionary')).toBe(planned.molecules);
    expect(count(release, 'SELECT count(*) FROM activities')).toBe(planned.activities);
    expect(count(release, 'SELECT count(*) FROM assays')).toBe(planned.assays);
    expect(count(release, 'SELECT count(*) FROM docs')).toBe(planned.docs);
    expect(count(release, 'SELECT count(*) FROM target_dictionary')).toBe(planned.targets);
    // Distinct structures, and some molecules without any (the subset has them too).
    const structures = count(release, 'SELECT count(*) FROM compound_structures');
    expect(count(release, 'SELECT count(DISTINCT canonical_smiles) FROM compound_structures')).toBe(structures);
    expect(
      count(release, "SELECT count(*) FROM compound_structures WHERE standard_inchi LIKE 'InChI=1S/%' AND length(standard_inchi_key) = 27"),
    ).toBe(structures);
    expect(structures).toBeLessThan(planned.molecules);
    expect(structures).toBeGreaterThan(planned.molecules * 0.9);
    for (const [what, sql] of Object.entries({
      'activity molecule':
        'SELECT count(*) FROM activities a WHERE NOT EXISTS (SELECT 1 FROM molecule_dictionary m WHERE m.molregno = a.molregno)',
      'activity assay': 'SELECT count(*) FROM activities a WHERE NOT EXISTS (SELECT 1 FROM assays s WHERE s.assay_id = a.assay_id)',
      'activity document':
        'SELECT count(*) FROM activities a WHERE a.doc_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM docs d WHERE d.doc_id = a.doc_id)',
      'assay document':
        'SELECT count(*) FROM assays s WHERE s.doc_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM docs d WHERE d.doc_id = s.doc_id)',
      'assay target': 'SELECT count(*) FROM assays s WHERE NOT EXISTS (SELECT 1 FROM target_dictionary t WHERE t.tid = s.tid)',
      'activity and assay document':
        'SELECT count(*) FROM activities a JOIN assays s ON s.assay_id = a.assay_id WHERE a.doc_id <> s.doc_id',
    }))
      expect({ what, dangling: count(release, sql) }).toEqual({ what, dangling: 0 });
    // Generated keys never reuse a real ChEMBL key or one of the subset's surrogate keys.
    expect(count(release, 'SELECT min(activity_id) FROM activities')).toBeGreaterThan(
      count(subset, 'SELECT max(activity_id) FROM activities'),
    );
    expect(count(release, 'SELECT min(molregno) FROM molecule_dictionary')).toBeGreaterThan(
      count(subset, 'SELECT max(molregno) FROM molecule_dictionary'),
    );
  });

  it('holds every table and column of the subset that the importer reads, and says which it leaves out', () => {
    const subsetTables = new Set(subset.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[]);
    // The importer's own list: what it reports missing is what the subset lacks plus what the generator leaves out on purpose.
    const expectedMissing = EXPECTED_TABLES.filter((t) => !subsetTables.has(t) || t in NOT_GENERATED);
    expect([...summary.missingTables].sort()).toEqual([...expectedMissing].sort());
    for (const table of GENERATED_TABLES) {
      const columns = new Set((release.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((c) => c.name));
      const subsetColumns = (subset.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((c) => c.name);
      expect({ table, missing: subsetColumns.filter((c) => !columns.has(c)) }).toEqual({ table, missing: [] });
      const official = Object.keys(CHEMBL_COLUMNS[table] ?? {}).filter((c) => subsetColumns.includes(c));
      expect({ table, missing: official.filter((c) => !columns.has(c)) }).toEqual({ table, missing: [] });
    }
    // Columns the importer read as NULL (its step notes; whole tables are named without a dot): none the subset has.
    const readAsNull = summary.steps
      .flatMap((s) => s.notes)
      .filter((n) => n.startsWith('columns missing'))
      .flatMap((n) => n.match(/\b[a-z_]+\.[a-z_]+\b/g) ?? []);
    const subsetHas = (qualified: string) => {
      const [table, column] = qualified.split('.');
      return (subset.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).some((c) => c.name === column);
    };
    expect(readAsNull.filter(subsetHas)).toEqual([]);
  });

  it('imports with exactly the counts the generator reports', () => {
    expect(summary.complete).toBe(true);
    expect(summary.counts).toEqual({ ...generated.expectedImport, clinical_compounds: 0 });
    const molecules = summary.steps.find((s) => s.step === 'molecules');
    expect(molecules?.skipped).toEqual({});
    expect(molecules?.loaded).toMatchObject({
      compounds: generated.expectedImport.compounds,
      structures: generated.expectedImport.structures,
    });
    const activities = summary.steps.find((s) => s.step === 'activities');
    expect(activities?.skipped).toEqual({});
    expect(activities?.loaded.activities).toBe(generated.expectedImport.activities);
    // Activities of compounds without a structure are in the file, and the importer keeps them.
    const withoutStructure = count(
      release,
      'SELECT count(*) FROM activities a WHERE NOT EXISTS (SELECT 1 FROM compound_structures c WHERE c.molregno = a.molregno)',
    );
    expect(withoutStructure).toBeGreaterThan(0);
    expect(activities?.info[ACTIVITY_REPORT.withoutStructure]).toBe(withoutStructure);
  });

  it("keeps the subset's mix of standardised and published-only values, relations and units", () => {
    const mine = activityMix(release);
    const real = activityMix(subset);
    // 20,000 of the 48,900 templates: a sample's share is within 0.2 points; 2 points is a broken mix.
    const off = (Object.keys(real) as (keyof typeof real)[])
      .filter((f) => Math.abs(mine[f] - real[f]) >= 0.02)
      .map((f) => `${f}: ${mine[f]} vs ${real[f]}`);
    expect(off).toEqual([]);
    expect(mine.publishedTypeOnly).toBeGreaterThan(0);
    const units = (db: Database.Database) => count(db, 'SELECT count(DISTINCT coalesce(standard_units, units)) FROM activities');
    expect(units(release)).toBeGreaterThanOrEqual(Math.min(10, units(subset)));
    // Values are moved by a factor per activity, not copied: most are distinct.
    expect(count(release, 'SELECT count(DISTINCT standard_value) FROM activities')).toBeGreaterThan(
      count(release, 'SELECT count(*) FROM activities') / 4,
    );
  });
});

describe.skipIf(!available)('generated releases are reproducible, and release 2 changes release 1', () => {
  // 3,600 molecules: release 1 takes structures from three requests of parents, so continuing it
  // skips two and replays the third.
  const small = 0.0015;
  const files = {
    first: path.join(tmp, 'r1a.db'),
    again: path.join(tmp, 'r1b.db'),
    second: path.join(tmp, 'r2.db'),
    continued: path.join(tmp, 'r2c.db'),
  };
  let r1: GenerateResult;
  let r2: GenerateResult;
  let continued: GenerateResult;

  beforeAll(async () => {
    // One RDKit worker: at this size it starts faster than two would finish sooner.
    const options = { source: SUBSET, scale: small, seed: 3, workers: 1 };
    r1 = await generateRelease({ ...options, out: files.first });
    await generateRelease({ ...options, out: files.again });
    r2 = await generateRelease({ ...options, out: files.second, release: 2 });
    const from = { file: files.first, parentsRead: r1.structures.parentsRead, accepted: r1.structures.accepted };
    continued = await generateRelease({ ...options, out: files.continued, release: 2, continueFrom: from });
  }, 300_000);

  /** A digest of every row of every generated table, in key order. */
  function digest(file: string): string {
    const db = open(file);
    try {
      const hash = crypto.createHash('sha256');
      for (const table of GENERATED_TABLES) {
        for (const row of db.prepare(`SELECT * FROM ${table} ORDER BY 1, 2`).raw().iterate()) hash.update(JSON.stringify(row));
      }
      return hash.digest('hex');
    } finally {
      db.close();
    }
  }

  it('writes the same file twice for the same seed', () => {
    expect(digest(files.again)).toBe(digest(files.first));
  });

  it("writes the same release 2 when it continues release 1's structures instead of enumerating them again", async () => {
    expect(continued.structures.reused).toBe(r1.tables.compound_structures);
    expect(continued.structures.candidatesTried).toBeLessThan(r2.structures.candidatesTried);
    expect(continued.structures.parentsRead).toBe(r2.structures.parentsRead);
    expect(digest(files.continued)).toBe(digest(files.second));
    // A release 1 of another seed is refused, not silently continued into a different sequence.
    const other = path.join(tmp, 'r1-seed4.db');
    const r1Other = await generateRelease({ source: SUBSET, scale: small, seed: 4, workers: 1, out: other });
    const wrong = { file: other, parentsRead: r1Other.structures.parentsRead, accepted: r1Other.structures.accepted };
    await expect(
      generateRelease({
        source: SUBSET,
        scale: small,
        seed: 3,
        workers: 1,
        out: path.join(tmp, 'r2-wrong.db'),
        release: 2,
        continueFrom: wrong,
      }),
    ).rejects.toThrow(/repeats a structure|does not continue|not where one of its requests ended/);
  }, 120_000);

  it('keeps the keys of release 1, adds new keys after them, retires a few and changes some values', () => {
    const db = new Database(files.second, { readonly: true });
    try {
      db.exec(`ATTACH DATABASE '${files.first.replaceAll("'", "''")}' AS r1`);
      const kept = count(db, 'SELECT count(*) FROM activities a JOIN r1.activities o ON o.activity_id = a.activity_id');
      const before = count(db, 'SELECT count(*) FROM r1.activities');
      const retired = before - kept;
      const added = count(db, 'SELECT count(*) FROM activities WHERE activity_id > (SELECT max(activity_id) FROM r1.activities)');
      expect(count(db, 'SELECT count(*) FROM activities')).toBe(kept + added);
      expect(retired).toBeGreaterThan(0);
      expect(retired).toBeLessThan(before * 0.05);
      // New activities are in new assays on new molecules: none of them is retired in the release that adds them.
      expect(added).toBe(r2.planned.activities - scaledCounts(small).activities);
      const changed = count(
        db,
        `SELECT count(*) FROM activities a JOIN r1.activities o ON o.activity_id = a.activity_id
        WHERE a.standard_value IS NOT o.standard_value OR a.value IS NOT o.value`,
      );
      expect(changed).toBeGreaterThan(0);
      expect(changed).toBeLessThan(kept * 0.03);
      // Unchanged rows are the same rows: same molecule, assay and values.
      expect(
        count(
          db,
          'SELECT count(*) FROM activities a JOIN r1.activities o ON o.activity_id = a.activity_id WHERE a.molregno <> o.molregno OR a.assay_id <> o.assay_id',
        ),
      ).toBe(0);
      // A kept molecule keeps its structure; new molecules bring new distinct structures.
      expect(
        count(
          db,
          'SELECT count(*) FROM compound_structures c JOIN r1.compound_structures o ON o.molregno = c.molregno WHERE c.canonical_smiles <> o.canonical_smiles',
        ),
      ).toBe(0);
      expect(
        count(db, 'SELECT count(*) FROM compound_structures WHERE molregno > (SELECT max(molregno) FROM r1.molecule_dictionary)'),
      ).toBeGreaterThan(0);
      expect(count(db, 'SELECT count(DISTINCT canonical_smiles) FROM compound_structures')).toBe(
        count(db, 'SELECT count(*) FROM compound_structures'),
      );
      // Every key still resolves after the retirements.
      expect(
        count(db, 'SELECT count(*) FROM activities a WHERE NOT EXISTS (SELECT 1 FROM molecule_dictionary m WHERE m.molregno = a.molregno)'),
      ).toBe(0);
      expect(count(db, 'SELECT count(*) FROM activities a WHERE NOT EXISTS (SELECT 1 FROM assays s WHERE s.assay_id = a.assay_id)')).toBe(
        0,
      );
    } finally {
      db.close();
    }
  });
});
