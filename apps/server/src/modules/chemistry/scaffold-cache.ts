import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { ChemEngine, SarWorkOptions } from './chem-engine.ts';

/**
 * Murcko scaffolds kept in the database (docs/sar.md "Scaffold cache"): a scaffold is a pure
 * function of the structure, and RDKit takes ~1.5 ms a molecule for it, so each structure's is
 * computed once (on all workers, in chunks) and read back after. A kept scaffold counts only while
 * md5 of the structure's canonical SMILES is the one it was computed from: a structure whose SMILES
 * changed gets its scaffold computed again and replaced.
 */

/** Rows per INSERT (two array parameters each; well inside PGlite's and PostgreSQL's limits). */
const INSERT_BATCH = 2_000;

/** Scaffold per str_id (null: no ring, or RDKit cannot read the structure); ids not in `structures` are left out. */
export async function scaffoldsOf(db: Kysely<Database>, engine: ChemEngine, strIds: readonly number[], options: SarWorkOptions = {}): Promise<Map<number, string | null>> {
  const out = new Map<number, string | null>();
  if (!strIds.length) return out;
  const { rows } = await sql<{ str_id: string | number; smiles: string; scaffold: string | null; known: boolean }>`
    SELECT s.str_id, s.canonical_smiles AS smiles, c.scaffold, (c.smiles_md5 IS NOT NULL AND c.smiles_md5 = md5(s.canonical_smiles)) AS known
    FROM structures s LEFT JOIN structure_scaffolds c ON c.str_id = s.str_id
    WHERE s.str_id = ANY(${[...new Set(strIds)]}::bigint[])`.execute(db);
  const missing: { strId: number; smiles: string }[] = [];
  for (const row of rows) {
    if (row.known) out.set(Number(row.str_id), row.scaffold);
    else missing.push({ strId: Number(row.str_id), smiles: row.smiles });
  }
  if (!missing.length) return out;
  const found = await engine.scaffolds(
    missing.map((m) => m.smiles),
    options,
  );
  missing.forEach((m, i) => out.set(m.strId, found[i] ?? null));
  for (let at = 0; at < missing.length; at += INSERT_BATCH) {
    const part = missing.slice(at, at + INSERT_BATCH);
    // md5 of the SMILES as the database computes it (the read above compares it so).
    await sql`INSERT INTO structure_scaffolds (str_id, smiles_md5, scaffold)
      SELECT u.str_id, md5(u.smiles), u.scaffold FROM unnest(${part.map((m) => m.strId)}::bigint[], ${part.map((m) => m.smiles)}::text[], ${part.map((m) => out.get(m.strId) ?? null)}::text[]) AS u(str_id, smiles, scaffold)
      ON CONFLICT (str_id) DO UPDATE SET smiles_md5 = EXCLUDED.smiles_md5, scaffold = EXCLUDED.scaffold`.execute(db);
  }
  return out;
}
