import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/**
 * What the per-structure caches share (scaffold-cache.ts, cut-cache.ts): a value derived by RDKit
 * from a structure's canonical SMILES, kept in its own table with md5 of the SMILES it came from.
 * A kept value counts only while that md5 is the structure's current one: a structure whose SMILES
 * changed is computed again and its row replaced. No foreign key (seeds and imports reload
 * `structures` without knowing these tables); rows are read through `structures`, so a deleted
 * structure's row is never answered.
 */

/** The cache tables and the column each keeps its value in. */
const COLUMNS = { structure_scaffolds: 'scaffold', structure_cuts: 'cuts' } as const;
export type StructureCacheTable = keyof typeof COLUMNS;

/** Rows per INSERT (three array parameters each; well inside PGlite's and PostgreSQL's limits). */
const INSERT_BATCH = 2_000;

export interface StoredRow {
  /** The structure's canonical SMILES now. */
  smiles: string;
  /** The kept value; null when none is kept, or when the kept value is null. */
  value: string | null;
  /** A value is kept and was computed from the current SMILES. */
  known: boolean;
}

/** The kept row of each structure that exists (ids not in `structures` are left out). */
export async function readStructureCache(
  db: Kysely<Database>,
  table: StructureCacheTable,
  strIds: readonly number[],
): Promise<Map<number, StoredRow>> {
  if (!strIds.length) return new Map();
  const { rows } = await sql<{ str_id: string | number; smiles: string; value: string | null; known: boolean }>`
    SELECT s.str_id, s.canonical_smiles AS smiles, c.${sql.ref(COLUMNS[table])} AS value, (c.smiles_md5 IS NOT NULL AND c.smiles_md5 = md5(s.canonical_smiles)) AS known
    FROM structures s LEFT JOIN ${sql.table(table)} c ON c.str_id = s.str_id
    WHERE s.str_id = ANY(${[...new Set(strIds)]}::bigint[])`.execute(db);
  return new Map(rows.map((row) => [Number(row.str_id), { smiles: row.smiles, value: row.value, known: row.known }]));
}

/** Keeps each structure's value computed from `smiles` (its canonical SMILES), replacing an older one. */
export async function writeStructureCache(
  db: Kysely<Database>,
  table: StructureCacheTable,
  entries: readonly { strId: number; smiles: string; value: string | null }[],
): Promise<void> {
  const column = sql.ref(COLUMNS[table]);
  for (let at = 0; at < entries.length; at += INSERT_BATCH) {
    const part = entries.slice(at, at + INSERT_BATCH);
    // md5 of the SMILES as the database computes it (the read compares it so).
    await sql`INSERT INTO ${sql.table(table)} (str_id, smiles_md5, ${column})
      SELECT u.str_id, md5(u.smiles), u.value FROM unnest(${part.map((e) => e.strId)}::bigint[], ${part.map((e) => e.smiles)}::text[], ${part.map((e) => e.value)}::text[]) AS u(str_id, smiles, value)
      ON CONFLICT (str_id) DO UPDATE SET smiles_md5 = EXCLUDED.smiles_md5, ${column} = EXCLUDED.${column}`.execute(db);
  }
}
