import crypto from 'node:crypto';
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { ResultTabKey } from '@kb/contracts/result-tabs';
import type { Database } from '../../db/schema.ts';
import { badRequest } from '../../http/errors.ts';
import type { ChemEngine } from '../chemistry/chem-engine.ts';
import { ChemInputError } from '../chemistry/chem-engine.ts';
import type { Sql } from './tab-model.ts';
import type { SetSource } from './set-source.ts';

/**
 * "Sort by similarity" of a results tab (spec §3 `sortSmiles`, §4): the Tanimoto similarity (Morgan
 * r=2, 2048 bits, as the structure search) of every structure of the session to one SMILES,
 * computed once per session and query into `result_similarity` and read by every page of the sort
 * (one query per session is kept; sets of up to MAX_SIMILARITY_STRUCTURES structures).
 * Assays and references take the best similarity of their structures in the search.
 */

const POPCOUNT = Uint8Array.from({ length: 256 }, (_, byte) => {
  let n = 0;
  for (let b = byte; b; b >>= 1) n += b & 1;
  return n;
});

/** Tanimoto of two fingerprints of equal length. */
function tanimoto(a: Uint8Array, b: Uint8Array): number {
  let both = 0;
  let either = 0;
  for (let i = 0; i < a.length; i++) {
    both += POPCOUNT[a[i]! & b[i]!]!;
    either += POPCOUNT[a[i]! | b[i]!]!;
  }
  return either === 0 ? 0 : both / either;
}

export interface SimilaritySort {
  /** Canonical SMILES of the query. */
  smiles: string;
  /** result_similarity.query_key of the tab's rows. */
  key: string;
  /** The tab's expression `result_similarity.id` is matched with. */
  idOf: Sql;
}

/** Fingerprints read and scored per batch: memory stays flat however large the set. */
const BATCH = 20_000;
/** Largest structure set a similarity sort scores (about 1 s of work on one core). */
const MAX_SIMILARITY_STRUCTURES = 250_000;

async function computeStructureSimilarity(db: Kysely<Database>, sets: SetSource, key: string, query: Uint8Array): Promise<void> {
  const setId = sets.setId;
  let after = 0;
  for (;;) {
    const { rows } = await sql<{ str_id: number; fp: Uint8Array | null }>`SELECT ss.str_id, s.morgan_fp AS fp
      FROM ${sets.table('search_structures', 'ss')} JOIN structures s ON s.str_id = ss.str_id
      WHERE ss.set_id = ${setId}::bigint AND ss.str_id > ${after} ORDER BY ss.str_id LIMIT ${BATCH}`.execute(db);
    if (!rows.length) return;
    after = Number(rows.at(-1)!.str_id);
    const ids: number[] = [];
    const values: number[] = [];
    for (const row of rows) {
      if (!row.fp || row.fp.length !== query.length) continue;
      ids.push(row.str_id);
      values.push(Math.round(tanimoto(query, row.fp) * 1e4) / 1e4);
    }
    await sql`INSERT INTO result_similarity (set_id, query_key, id, similarity)
      SELECT ${setId}::bigint, ${key}, u.id, u.sim FROM unnest(${ids}::bigint[], ${values}::real[]) AS u(id, sim)`.execute(db);
    // Let other requests in between batches: the scoring runs on the server's main thread.
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Best similarity of each assay / reference over its activities' structures in the search. */
async function aggregate(
  db: Kysely<Database>,
  sets: SetSource,
  key: string,
  structureKey: string,
  column: 'assay_id' | 'ref_id',
): Promise<void> {
  await sql`INSERT INTO result_similarity (set_id, query_key, id, similarity)
    SELECT ${sets.setId}::bigint, ${key}, sa.${sql.ref(column)}, max(rs.similarity)
    FROM ${sets.table('search_activities', 'sa')} JOIN result_similarity rs ON rs.set_id = sa.set_id AND rs.query_key = ${structureKey} AND rs.id = sa.str_id
    WHERE sa.set_id = ${sets.setId}::bigint AND sa.${sql.ref(column)} IS NOT NULL
    GROUP BY sa.${sql.ref(column)}`.execute(db);
}

async function has(db: Kysely<Database>, setId: number, key: string): Promise<boolean> {
  const { rows } = await sql<{
    one: number;
  }>`SELECT 1 AS one FROM result_similarity WHERE set_id = ${setId}::bigint AND query_key = ${key} LIMIT 1`.execute(db);
  return rows.length > 0;
}

/** Prepares the similarity of a tab's rows to `smiles`; an unreadable SMILES answers 400 with RDKit's reason. */
export async function prepareSimilaritySort(
  db: Kysely<Database>,
  engine: ChemEngine,
  sets: SetSource,
  tab: ResultTabKey,
  smiles: string,
): Promise<SimilaritySort> {
  const setId = sets.setId;
  let described;
  try {
    described = await engine.describe({ kind: 'smiles', text: smiles, desalt: true });
  } catch (error) {
    if (error instanceof ChemInputError) throw badRequest(`Sort by similarity: ${error.message}`, { field: 'sortSmiles' });
    throw error;
  }
  if (!described.morgan || !described.smiles)
    throw badRequest('Sort by similarity: RDKit could not compute a fingerprint for this SMILES.', { field: 'sortSmiles' });
  const morgan = described.morgan;
  const hash = crypto.createHash('sha1').update(described.smiles).digest('hex').slice(0, 20);
  const structureKey = `str:${hash}`;
  // `db` is the caller's transaction holding the session row: a sort is written whole or not at all.
  if (!(await has(db, setId, structureKey))) {
    const { rows } = await sql<{
      n: number;
    }>`SELECT count(*)::int AS n FROM ${sets.table('search_structures', 'ss')} WHERE ss.set_id = ${setId}::bigint`.execute(db);
    const structures = rows[0]?.n ?? 0;
    if (structures > MAX_SIMILARITY_STRUCTURES) {
      throw badRequest(
        `Sort by similarity scores up to ${MAX_SIMILARITY_STRUCTURES.toLocaleString('en-US')} structures; this search has ${structures.toLocaleString('en-US')}. Refine the search first.`,
        { field: 'sortSmiles' },
      );
    }
    // One similarity sort per search is kept: a new SMILES replaces the previous one.
    await sql`DELETE FROM result_similarity WHERE set_id = ${setId}::bigint`.execute(db);
    await computeStructureSimilarity(db, sets, structureKey, morgan);
  }
  const derived = async (key: string, column: 'assay_id' | 'ref_id') => {
    if (!(await has(db, setId, key))) await aggregate(db, sets, key, structureKey, column);
  };
  switch (tab) {
    case 'assaytab': {
      const key = `assay:${hash}`;
      await derived(key, 'assay_id');
      return { smiles: described.smiles, key, idOf: sql`sy.assay_id` };
    }
    case 'documentstab': {
      const key = `ref:${hash}`;
      await derived(key, 'ref_id');
      return { smiles: described.smiles, key, idOf: sql`sr.ref_id` };
    }
    case 'structuretab':
      return { smiles: described.smiles, key: structureKey, idOf: sql`ss.str_id` };
    case 'activitiestab':
      return { smiles: described.smiles, key: structureKey, idOf: sql`sa.str_id` };
    case 'developmentcompoundstab':
      return { smiles: described.smiles, key: structureKey, idOf: sql`cc.str_id` };
  }
}
