import crypto from 'node:crypto';
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { DatabaseHandle } from '../../../db/database.ts';
import type { Database } from '../../../db/schema.ts';
import { ChemPool } from '../chem/chem-pool.ts';
import type { ComputedStructure } from '../chem/chem-pool.ts';
import { insertJsonBatched } from '../bulk.ts';
import { countKnowledgeBase } from '../kb-counts.ts';
import type { KnowledgeBaseCounts } from '../kb-counts.ts';
import { buildChunk, chunkAnalogues } from './series.ts';
import type { ChunkRows } from './series.ts';
import { ensureDemoVocabulary } from './vocabulary.ts';
import { beginLoad, finishLoad } from '../kb-loads.ts';
import { buildLoadReport } from '../kb-load-report.ts';
import type { Vocabulary } from './vocabulary.ts';

export type DemoSize = 'S' | 'M' | 'L';

/** Chunks of 1,000 structures (~11 activities each): S ≈ 11k/120k, M ≈ 200k/2.2M, L ≈ 2.5M/27M. */
/** Chunks whose RDKit work is queued ahead of the one being loaded. */
const PREFETCH = 2;

export const SIZE_CHUNKS: Record<DemoSize, number> = { S: 11, M: 200, L: 2_500 };

export interface SeedProgress {
  chunksDone: number;
  chunksTotal: number;
  structures: number;
  activities: number;
}

export interface SeedOptions {
  size?: DemoSize;
  seed?: number;
  /** Called after each committed chunk. */
  onProgress?: (progress: SeedProgress) => void;
  /** RDKit worker threads (default: all cores). */
  workers?: number;
  /**
   * A pool to use instead of starting one (not closed here). The CLI starts it before opening the
   * database, so the workers load RDKit while PGlite starts and migrates.
   */
  pool?: ChemPool;
  /** Load only the first n chunks of the size (tests, interrupted-run simulation). */
  maxChunks?: number;
}

export interface SeedSummary {
  skipped: boolean;
  datasetLabel: string;
  counts: KnowledgeBaseCounts;
  seconds: number;
}

/**
 * A molecule met again in a later chunk (another enumeration of the same canonical SMILES) keeps
 * the str_id of its first chunk: the insert skips it, and this chunk's compounds, activities and
 * development compounds are pointed at the stored row (before they are inserted).
 */
async function insertStructures(db: Kysely<Database>, rows: ChunkRows): Promise<void> {
  const inserted = await insertJsonBatched(db, 'structures', rows.structures, { onConflictDoNothing: true });
  if (inserted === rows.structures.length) return;
  const ours = new Map(rows.structures.map((s) => [s.canonical_smiles, Number(s.str_id)]));
  // md5(canonical_smiles) is the unique index; PostgreSQL's md5 of text is the md5 of its UTF-8 bytes.
  const hashes = [...ours.keys()].map((smiles) => crypto.createHash('md5').update(smiles, 'utf8').digest('hex'));
  const stored = await db
    .selectFrom('structures')
    .select(['str_id', 'canonical_smiles'])
    .where(sql<boolean>`md5(canonical_smiles) = ANY(${hashes}::text[])`)
    .execute();
  const moved = new Map<number, number>();
  for (const row of stored) {
    const mine = ours.get(row.canonical_smiles);
    if (mine !== undefined && mine !== Number(row.str_id)) moved.set(mine, Number(row.str_id));
  }
  const remap = <R extends { str_id?: unknown }>(list: R[]) => {
    for (const r of list) {
      const to = moved.get(Number(r.str_id));
      if (to !== undefined) r.str_id = to;
    }
  };
  remap(rows.compounds);
  remap(rows.activities);
  remap(rows.clinical);
}

/**
 * One chunk in dependency order. JSON-parameter statements (one per 5,000 rows) instead of
 * multi-row INSERTs with up to 30,000 bind parameters: 2.2x faster on PGlite (docs/benchmarks.md).
 */
export async function loadChunk(db: Kysely<Database>, rows: ChunkRows): Promise<void> {
  await insertJsonBatched(db, 'documents', rows.documents);
  await insertJsonBatched(db, 'document_authors', rows.authors);
  await insertJsonBatched(db, 'document_companies', rows.documentCompanies);
  await insertJsonBatched(db, 'assays', rows.assays);
  await insertStructures(db, rows);
  await insertJsonBatched(db, 'compounds', rows.compounds);
  await insertJsonBatched(db, 'activities', rows.activities);
  await insertJsonBatched(db, 'clinical_compounds', rows.clinical);
  await insertJsonBatched(db, 'clinical_compound_targets', rows.clinicalTargets);
  await insertJsonBatched(db, 'clinical_compound_indications', rows.clinicalIndications);
  await insertJsonBatched(db, 'clinical_compound_companies', rows.clinicalCompanies);
}

/** Explicit ids do not move identity sequences; move them so later inserts (imports) never collide. */
async function syncSequences(db: Kysely<Database>): Promise<void> {
  const keys: [string, string][] = [
    ['structures', 'str_id'],
    ['compounds', 'gvk_id'],
    ['activities', 'act_id'],
    ['assays', 'assay_id'],
    ['documents', 'ref_id'],
    ['clinical_compounds', 'clinical_compound_id'],
    ['targets', 'target_id'],
  ];
  for (const [table, column] of keys) {
    await sql`SELECT setval(pg_get_serial_sequence(${table}, ${column}), greatest(1, (SELECT coalesce(max(${sql.ref(column)}), 0) FROM ${sql.table(table)})))`.execute(
      db,
    );
  }
}

/**
 * Seeds the synthetic demo knowledge base (clearly labelled "DEMO"). Does nothing when the KB
 * already holds data from elsewhere or a finished run; resumes an unfinished run chunk by chunk.
 * RDKit work for the next chunk overlaps the database load of the current one.
 */
export async function seedDemoKnowledgeBase(handle: DatabaseHandle, options: SeedOptions = {}): Promise<SeedSummary> {
  const started = performance.now();
  const size = options.size ?? 'S';
  const seed = options.seed ?? 42;
  const job = `seed:${size}:${seed}`;
  const datasetLabel = `demo-${size}`;
  const { db } = handle;
  const doneRows = await db.selectFrom('kb_load_checkpoints').select('part').where('job', '=', job).execute();
  const done = new Set(doneRows.map((r) => r.part));
  const hasData = await db.selectFrom('structures').select('str_id').limit(1).executeTakeFirst();
  if (done.has('complete') || (hasData && done.size === 0)) {
    return { skipped: true, datasetLabel, counts: await countKnowledgeBase(db), seconds: (performance.now() - started) / 1000 };
  }
  const total = Math.min(SIZE_CHUNKS[size], options.maxChunks ?? Number.POSITIVE_INFINITY);
  const todo = Array.from({ length: total }, (_, c) => c).filter((c) => !done.has(`chunk:${c}`));
  const pool = options.pool ?? new ChemPool(options.workers);
  const loadId = await seedLoad(db, job, datasetLabel);
  let structures = 0;
  let activities = 0;
  try {
    // RDKit is ~85 % of the work: keep PREFETCH chunks queued on the workers so that none of them
    // idles while the main thread builds rows and loads a chunk. The first chunks start computing
    // before the vocabulary is written; only buildChunk needs it.
    const computed = new Map<number, Promise<(ComputedStructure | null)[]>>();
    const compute = (i: number) => {
      const chunk = todo[i];
      if (chunk === undefined || computed.has(i)) return;
      const props = pool.compute(chunkAnalogues(chunk).map((a) => a.smiles));
      // Awaited in order below; a failure before then (e.g. the load threw) must not go unhandled.
      props.catch(() => {});
      computed.set(i, props);
    };
    for (let i = 0; i < PREFETCH; i++) compute(i);
    const vocab: Vocabulary = await db.transaction().execute((trx) => ensureDemoVocabulary(trx));
    for (let i = 0; i < todo.length; i++) {
      const chunk = todo[i] as number;
      compute(i + PREFETCH);
      const props = await (computed.get(i) as Promise<(ComputedStructure | null)[]>);
      computed.delete(i);
      const rows = buildChunk(seed, chunk, chunkAnalogues(chunk), props, vocab);
      // The load that brought them in: what alerts and "what's new" count.
      for (const row of rows.structures) row.load_id = loadId;
      for (const row of rows.activities) row.load_id = loadId;
      await db.transaction().execute(async (trx) => {
        await loadChunk(trx, rows);
        await trx
          .insertInto('kb_load_checkpoints')
          .values({ job, part: `chunk:${chunk}`, done: true })
          .execute();
      });
      structures += rows.structures.length;
      activities += rows.activities.length;
      options.onProgress?.({ chunksDone: total - todo.length + i + 1, chunksTotal: total, structures, activities });
    }
  } finally {
    if (!options.pool) await pool.close();
  }
  await syncSequences(db);
  // A run cut short by maxChunks is not complete: the next run continues it.
  if (total < SIZE_CHUNKS[size]) {
    return { skipped: false, datasetLabel, counts: await countKnowledgeBase(db), seconds: (performance.now() - started) / 1000 };
  }
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('kb_load_checkpoints')
      .values({ job, part: 'complete', done: true })
      .onConflict((oc) => oc.doNothing())
      .execute();
    await trx
      .insertInto('app_settings')
      .values({ key: 'dataset_label', value: datasetLabel })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: datasetLabel }))
      .execute();
  });
  await finishSeedLoad(db, loadId);
  return { skipped: false, datasetLabel, counts: await countKnowledgeBase(db), seconds: (performance.now() - started) / 1000 };
}

/** The running seed load of this job (a resumed seed continues it), or a new one. */
async function seedLoad(db: Kysely<Database>, job: string, label: string): Promise<number> {
  const running = await db
    .selectFrom('kb_loads')
    .select('load_id')
    .where('kind', '=', 'seed')
    .where('status', '=', 'running')
    .where('source_file', '=', job)
    .orderBy('load_id', 'desc')
    .executeTakeFirst();
  return running ? Number(running.load_id) : beginLoad(db, { kind: 'seed', label, sourceFile: job });
}

/** A seed only adds (into an empty knowledge base): every live row of a seeded entity is an added one. */
async function finishSeedLoad(db: Kysely<Database>, loadId: number): Promise<void> {
  const counts = await countKnowledgeBase(db);
  const changes = Object.fromEntries(Object.entries(counts).map(([entity, n]) => [entity, { added: n, updated: 0, retired: 0 }]));
  await finishLoad(db, loadId, 'complete', await buildLoadReport(db, changes, [], ['synthetic demo data (clearly labelled DEMO)']));
}
