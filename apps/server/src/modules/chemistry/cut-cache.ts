import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { ChemEngine, SarWorkOptions, SingleCut } from './chem-engine.ts';

/**
 * Matched-pair cuts kept in the database (migration 0032_structure_cuts.sql), as the scaffold
 * cache (scaffold-cache.ts): the cuts are a pure function of the structure, so each structure's are
 * made once, for every user and session and across restarts, and read back after. A kept row
 * counts only while md5 of the structure's canonical SMILES is the one it was cut from, and only
 * for a caller cutting that same SMILES; anything else is cut by the engine (whose in-memory cache
 * comes first) and, when it is the structure's canonical SMILES, stored.
 */

/** Table of the cut cache (registered in db/schema.ts). */
/** Rows per INSERT (three array parameters each; well inside PGlite's and PostgreSQL's limits). */
const INSERT_BATCH = 2_000;

const encode = (cuts: readonly SingleCut[]) => JSON.stringify(cuts.map((c) => [c.constant, c.variable]));
const decode = (text: string): SingleCut[] => (JSON.parse(text) as [string, string][]).map(([constant, variable]) => ({ constant, variable }));

/** Cuts of each compound (by its structure id and the SMILES to cut), in the compounds' order. */
export async function cutsOf(db: Kysely<Database>, engine: ChemEngine, compounds: readonly { strId: number; smiles: string }[], options: SarWorkOptions = {}): Promise<SingleCut[][]> {
  if (!compounds.length) return [];
  const { rows } = await sql<{ str_id: string | number; smiles: string; cuts: string | null; known: boolean }>`
    SELECT s.str_id, s.canonical_smiles AS smiles, c.cuts, (c.smiles_md5 IS NOT NULL AND c.smiles_md5 = md5(s.canonical_smiles)) AS known
    FROM structures s LEFT JOIN structure_cuts c ON c.str_id = s.str_id
    WHERE s.str_id = ANY(${[...new Set(compounds.map((c) => c.strId))]}::bigint[])`.execute(db);
  const stored = new Map(rows.map((r) => [Number(r.str_id), r]));
  const answers: (SingleCut[] | undefined)[] = compounds.map((c) => {
    const row = stored.get(c.strId);
    return row?.known && row.cuts !== null && row.smiles === c.smiles ? decode(row.cuts) : undefined;
  });
  const missing = compounds.flatMap((c, i) => (answers[i] === undefined ? [i] : []));
  if (!missing.length) {
    options.onProgress?.(compounds.length, compounds.length);
    return answers as SingleCut[][];
  }
  const done = compounds.length - missing.length;
  const cut = await engine.fragments(
    missing.map((i) => compounds[i]!.smiles),
    { ...options, onProgress: options.onProgress && ((n) => options.onProgress!(done + n, compounds.length)) },
  );
  missing.forEach((i, k) => (answers[i] = cut[k] ?? []));
  // Only cuts of a structure's own canonical SMILES are kept, once per structure.
  const keep = new Map<number, { smiles: string; cuts: string }>();
  for (const i of missing) {
    const c = compounds[i]!;
    if (stored.get(c.strId)?.smiles === c.smiles) keep.set(c.strId, { smiles: c.smiles, cuts: encode(answers[i]!) });
  }
  const entries = [...keep.entries()];
  for (let at = 0; at < entries.length; at += INSERT_BATCH) {
    const part = entries.slice(at, at + INSERT_BATCH);
    // md5 of the SMILES as the database computes it (the read above compares it so).
    await sql`INSERT INTO structure_cuts (str_id, smiles_md5, cuts)
      SELECT u.str_id, md5(u.smiles), u.cuts FROM unnest(${part.map(([id]) => id)}::bigint[], ${part.map(([, e]) => e.smiles)}::text[], ${part.map(([, e]) => e.cuts)}::text[]) AS u(str_id, smiles, cuts)
      ON CONFLICT (str_id) DO UPDATE SET smiles_md5 = EXCLUDED.smiles_md5, cuts = EXCLUDED.cuts`.execute(db);
  }
  return answers as SingleCut[][];
}
