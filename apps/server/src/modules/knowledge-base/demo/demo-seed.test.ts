import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle, DatabaseKind } from '../../../db/database.ts';
import { DATABASES, openTestDatabase } from '../../../../test/harness.ts';
import { ChemPool } from '../chem/chem-pool.ts';
import { SIZE_CHUNKS, loadChunk, seedDemoKnowledgeBase } from './demo-seed.ts';
import { ensureDemoVocabulary } from './vocabulary.ts';
import { STR_PER_CHUNK, buildChunk, chunkAnalogues } from './series.ts';
import type { Vocabulary } from './vocabulary.ts';

/** A migrated database; `drop` closes it (and drops its private schema on a server). */
async function openMigrated(kind: DatabaseKind): Promise<{ handle: DatabaseHandle; drop: () => Promise<void> }> {
  const { handle, close } = await openTestDatabase(kind);
  return { handle, drop: close };
}

const FAKE_VOCAB: Vocabulary = {
  dataSourceId: 1,
  targetIdByGene: new Map([['EGFR', 1]]),
  endpointIdByName: new Map(),
  companyIds: [1, 2],
  strains: new Map(),
  indicationIdsByGene: new Map(),
  phaseIdByName: new Map(),
  statusIdByName: new Map(),
};

describe('demo generator (pure part)', () => {
  let pool: ChemPool;
  beforeAll(() => {
    pool = new ChemPool(2);
  });
  afterAll(async () => {
    await pool.close();
  });

  it('builds the same rows for the same seed and different rows for another seed', async () => {
    const analogues = chunkAnalogues(3);
    const props = await pool.compute(
      analogues.map((a) => a.smiles),
      { inchi: false, fingerprints: false },
    );
    const a = buildChunk(7, 3, analogues, props, FAKE_VOCAB);
    const b = buildChunk(7, 3, analogues, props, FAKE_VOCAB);
    const c = buildChunk(8, 3, analogues, props, FAKE_VOCAB);
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    expect(JSON.stringify(a.activities)).not.toBe(JSON.stringify(c.activities));
  });

  it('enumerates only SMILES that RDKit parses, with no duplicate structure inside a chunk', async () => {
    for (const chunk of [0, 10, 2_499]) {
      const analogues = chunkAnalogues(chunk);
      const props = await pool.compute(
        analogues.map((a) => a.smiles),
        { inchi: false, fingerprints: false },
      );
      expect(props.every((p) => p !== null)).toBe(true);
      expect(new Set(props.map((p) => p?.canonical_smiles)).size).toBe(analogues.length);
    }
  });

  it('sizes S, M and L to the issue targets', () => {
    expect(SIZE_CHUNKS.S * STR_PER_CHUNK).toBeGreaterThanOrEqual(10_000);
    expect(SIZE_CHUNKS.M * STR_PER_CHUNK).toBe(200_000);
    expect(SIZE_CHUNKS.L * STR_PER_CHUNK).toBe(2_500_000);
  });
});

describe.each(DATABASES)('demo seed on %s', (kind) => {
  let handle: DatabaseHandle;
  let drop: () => Promise<void>;
  let pool: ChemPool;
  beforeAll(async () => {
    ({ handle, drop } = await openMigrated(kind));
    pool = new ChemPool(1);
    await seedDemoKnowledgeBase(handle, { size: 'S', maxChunks: 1 });
  }, 120_000);
  afterAll(async () => {
    await pool.close();
    await drop();
  });

  it('loads a chunk of 1,000 structures with about ten activities each, labelled DEMO', async () => {
    const { db } = handle;
    const s = await db
      .selectFrom('structures')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const a = await db
      .selectFrom('activities')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(s.n)).toBe(1_000);
    expect(Number(a.n)).toBeGreaterThan(9_000);
    const titles = await db.selectFrom('documents').select('title').execute();
    expect(titles.every((t) => t.title?.startsWith('[DEMO]'))).toBe(true);
    const types = await db.selectFrom('assays').select('assay_type').distinct().execute();
    expect(types.map((t) => t.assay_type).sort()).toEqual(['adme', 'binding', 'functional', 'physicochemical', 'toxicity']);
    const degraders = await db
      .selectFrom('activities')
      .select(['degrader', 'ligase_name'])
      .where('degrader', 'is not', null)
      .distinct()
      .execute();
    expect(degraders.length).toBeGreaterThan(0);
  });

  it('stores the properties RDKit computes for the canonical SMILES', async () => {
    const rows = await handle.db.selectFrom('structures').selectAll().orderBy('str_id').limit(25).execute();
    const fresh = await pool.compute(rows.map((r) => r.smiles));
    rows.forEach((row, i) => {
      const p = fresh[i];
      expect(p).not.toBeNull();
      expect(row.canonical_smiles).toBe(p?.canonical_smiles);
      expect(row.inchikey).toBe(p?.inchikey);
      expect(row.mol_formula).toBe(p?.mol_formula);
      expect(row.mol_weight).toBeCloseTo(p?.mol_weight ?? 0, 6);
      expect(row.logp_calc).toBeCloseTo(p?.logp_calc ?? 0, 6);
      expect(row.psa).toBeCloseTo(p?.psa ?? 0, 6);
      expect([row.hb_donors, row.hb_acceptor, row.rot_bonds]).toEqual([p?.hb_donors, p?.hb_acceptor, p?.rot_bonds]);
      expect(Buffer.from(row.morgan_fp ?? []).equals(Buffer.from(p?.morgan_fp ?? []))).toBe(true);
    });
  });

  it('carries a structure-activity trend: primary potency depends on the R1 substituent', async () => {
    // Mean pChEMBL of primary IC50/Ki results, per series and smiles prefix, must spread > 1 log unit.
    const rows = await handle.db
      .selectFrom('activities')
      .innerJoin('assays', 'assays.assay_id', 'activities.assay_id')
      .select(['activities.pchembl_value', 'activities.ref_id'])
      .where('assays.assay_position', '=', 'primary')
      .where('activities.pchembl_value', 'is not', null)
      .execute();
    const values = rows.map((r) => r.pchembl_value as number);
    expect(Math.max(...values) - Math.min(...values)).toBeGreaterThan(2);
    const { sarPotency } = await import('./series.ts');
    // Substituent contributions are additive and fixed: the same R1 helps or hurts in every analogue.
    const withF = sarPotency(0, 'EGFR', [1, 0, 0], null) - sarPotency(0, 'EGFR', [0, 0, 0], null);
    expect(sarPotency(0, 'EGFR', [1, 5, 9], null) - sarPotency(0, 'EGFR', [0, 5, 9], null)).toBeCloseTo(withF, 10);
  });

  it('points a later chunk that meets a stored molecule again at the stored structure', async () => {
    // Chunk 50 with its first analogue replaced by chunk 0's first molecule (str_id 1), as happens
    // from chunk 135 of M on: the structure is not stored twice and the chunk's rows use str_id 1.
    const { db } = handle;
    const vocab = await ensureDemoVocabulary(db);
    const analogues = chunkAnalogues(50);
    const props = await pool.compute(analogues.map((a) => a.smiles));
    const first = await pool.compute([chunkAnalogues(0)[0]?.smiles ?? '']);
    props[0] = first[0] ?? null;
    const rows = buildChunk(42, 50, analogues, props, vocab);
    await db.transaction().execute((trx) => loadChunk(trx, rows));
    const compound = await db
      .selectFrom('compounds')
      .select('str_id')
      .where('gvk_id', '=', 50 * STR_PER_CHUNK + 1)
      .executeTakeFirstOrThrow();
    expect(Number(compound.str_id)).toBe(1);
    const acts = await db
      .selectFrom('activities')
      .select('str_id')
      .distinct()
      .where('gvk_id', '=', 50 * STR_PER_CHUNK + 1)
      .execute();
    expect(acts.map((a) => Number(a.str_id))).toEqual([1]);
    const dup = await db
      .selectFrom('structures')
      .select('str_id')
      .where('str_id', '=', 50 * STR_PER_CHUNK + 1)
      .execute();
    expect(dup).toEqual([]);
    await db
      .deleteFrom('clinical_compound_companies')
      .where('clinical_compound_id', '>', 50 * 40)
      .execute();
    await db
      .deleteFrom('clinical_compound_indications')
      .where('clinical_compound_id', '>', 50 * 40)
      .execute();
    await db
      .deleteFrom('clinical_compound_targets')
      .where('clinical_compound_id', '>', 50 * 40)
      .execute();
    await db
      .deleteFrom('clinical_compounds')
      .where('clinical_compound_id', '>', 50 * 40)
      .execute();
    await db
      .deleteFrom('activities')
      .where('act_id', '>', 50 * 40_000)
      .execute();
    await db
      .deleteFrom('compounds')
      .where('gvk_id', '>', 50 * STR_PER_CHUNK)
      .execute();
    await db
      .deleteFrom('structures')
      .where('str_id', '>', 50 * STR_PER_CHUNK)
      .execute();
    await db
      .deleteFrom('assays')
      .where('assay_id', '>', 50 * 960)
      .execute();
    await db
      .deleteFrom('document_companies')
      .where('ref_id', '>', 50 * 40)
      .execute();
    await db
      .deleteFrom('document_authors')
      .where('ref_id', '>', 50 * 40)
      .execute();
    await db
      .deleteFrom('documents')
      .where('ref_id', '>', 50 * 40)
      .execute();
  }, 60_000);

  it('resumes: a second run adds only the missing chunk, a repeated run adds nothing', async () => {
    const more = await seedDemoKnowledgeBase(handle, { size: 'S', maxChunks: 2 });
    expect(more.counts.structures).toBe(2_000);
    const again = await seedDemoKnowledgeBase(handle, { size: 'S', maxChunks: 2 });
    expect(again.counts.structures).toBe(2_000);
    expect(again.counts.activities).toBe(more.counts.activities);
  }, 120_000);

  it('records one seed load, continued by the resumed run, on every activity and structure it inserted', async () => {
    const loads = await handle.db.selectFrom('kb_loads').select(['load_id', 'kind', 'label', 'status', 'source_file']).execute();
    // maxChunks leaves the seed unfinished: its load stays running until the last chunk.
    expect(loads).toEqual([{ load_id: expect.anything(), kind: 'seed', label: 'demo-S', status: 'running', source_file: 'seed:S:42' }]);
    const loadId = Number(loads[0]?.load_id);
    for (const table of ['activities', 'structures'] as const) {
      const { rows } = await sql<{
        n: number;
        stamped: number;
      }>`SELECT count(*)::int AS n, count(*) FILTER (WHERE load_id = ${loadId})::int AS stamped
        FROM ${sql.table(table)}`.execute(handle.db);
      expect(rows[0]?.stamped, table).toBe(rows[0]?.n);
    }
  });
});
