import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { DatabaseHandle } from '../../../db/database.ts';
import type { Database } from '../../../db/schema.ts';
import { ChemPool } from '../chem/chem-pool.ts';
import { insertBatched } from '../bulk.ts';
import { STR_PER_CHUNK, buildChunk, chunkAnalogues } from './series.ts';
import type { ChunkRows } from './series.ts';
import { ensureDemoVocabulary } from './vocabulary.ts';
import type { Vocabulary } from './vocabulary.ts';

export type DemoSize = 'S' | 'M' | 'L';

/** Chunks of 1,000 structures (~11 activities each): S ≈ 11k/120k, M ≈ 200k/2.2M, L ≈ 2.5M/27M. */
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
  /** Load only the first n chunks of the size (tests, interrupted-run simulation). */
  maxChunks?: number;
}

export interface SeedSummary {
  skipped: boolean;
  datasetLabel: string;
  counts: Record<'structures' | 'compounds' | 'activities' | 'assays' | 'documents' | 'clinical_compounds' | 'targets', number>;
  seconds: number;
}

const COUNTED = ['structures', 'compounds', 'activities', 'assays', 'documents', 'clinical_compounds', 'targets'] as const;

export async function countKnowledgeBase(db: Kysely<Database>): Promise<SeedSummary['counts']> {
  const entries = await Promise.all(
    COUNTED.map(async (table) => {
      const row = await db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      return [table, Number(row.n)] as const;
    }),
  );
  return Object.fromEntries(entries) as SeedSummary['counts'];
}

async function loadChunk(db: Kysely<Database>, rows: ChunkRows): Promise<void> {
  await insertBatched(db, 'documents', rows.documents);
  await insertBatched(db, 'document_authors', rows.authors);
  await insertBatched(db, 'document_companies', rows.documentCompanies);
  await insertBatched(db, 'assays', rows.assays);
  // A molecule met again in another chunk keeps its first str_id (unique canonical SMILES).
  await insertBatched(db, 'structures', rows.structures, { onConflictDoNothing: true });
  await insertBatched(db, 'compounds', rows.compounds);
  await insertBatched(db, 'activities', rows.activities);
  await insertBatched(db, 'clinical_compounds', rows.clinical);
  await insertBatched(db, 'clinical_compound_targets', rows.clinicalTargets);
  await insertBatched(db, 'clinical_compound_indications', rows.clinicalIndications);
  await insertBatched(db, 'clinical_compound_companies', rows.clinicalCompanies);
}

/** Explicit ids do not move identity sequences; move them so later inserts (imports) never collide. */
async function syncSequences(db: Kysely<Database>): Promise<void> {
  const keys: [string, string][] = [
    ['structures', 'str_id'], ['compounds', 'gvk_id'], ['activities', 'act_id'], ['assays', 'assay_id'],
    ['documents', 'ref_id'], ['clinical_compounds', 'clinical_compound_id'], ['targets', 'target_id'],
  ];
  for (const [table, column] of keys) {
    await sql`SELECT setval(pg_get_serial_sequence(${table}, ${column}), greatest(1, (SELECT coalesce(max(${sql.ref(column)}), 0) FROM ${sql.table(table)})))`.execute(db);
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
  const vocab: Vocabulary = await db.transaction().execute((trx) => ensureDemoVocabulary(trx));
  const total = Math.min(SIZE_CHUNKS[size], options.maxChunks ?? Number.POSITIVE_INFINITY);
  const todo = Array.from({ length: total }, (_, c) => c).filter((c) => !done.has(`chunk:${c}`));
  const pool = new ChemPool(options.workers);
  let structures = 0;
  let activities = 0;
  try {
    const prepare = async (chunk: number) => {
      const analogues = chunkAnalogues(chunk);
      const props = await pool.compute(analogues.map((a) => a.smiles));
      return buildChunk(seed, chunk, analogues, props, vocab);
    };
    let next = todo.length > 0 ? prepare(todo[0] as number) : null;
    for (let i = 0; i < todo.length; i++) {
      const chunk = todo[i] as number;
      const rows = await (next as Promise<ChunkRows>);
      next = i + 1 < todo.length ? prepare(todo[i + 1] as number) : null;
      await db.transaction().execute(async (trx) => {
        await loadChunk(trx, rows);
        await trx.insertInto('kb_load_checkpoints').values({ job, part: `chunk:${chunk}`, done: true }).execute();
      });
      structures += rows.structures.length;
      activities += rows.activities.length;
      options.onProgress?.({ chunksDone: total - todo.length + i + 1, chunksTotal: total, structures, activities });
    }
  } finally {
    await pool.close();
  }
  await syncSequences(db);
  // A run cut short by maxChunks is not complete: the next run continues it.
  if (total < SIZE_CHUNKS[size]) {
    return { skipped: false, datasetLabel, counts: await countKnowledgeBase(db), seconds: (performance.now() - started) / 1000 };
  }
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('kb_load_checkpoints').values({ job, part: 'complete', done: true }).onConflict((oc) => oc.doNothing()).execute();
    await trx.insertInto('app_settings').values({ key: 'dataset_label', value: datasetLabel })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: datasetLabel })).execute();
  });
  return { skipped: false, datasetLabel, counts: await countKnowledgeBase(db), seconds: (performance.now() - started) / 1000 };
}

export { STR_PER_CHUNK };
