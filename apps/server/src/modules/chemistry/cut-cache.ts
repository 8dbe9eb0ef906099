import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { ChemEngine, SarWorkOptions, SingleCut } from './chem-engine.ts';
import { readStructureCache, writeStructureCache } from './structure-cache.ts';

/**
 * Matched-pair cuts kept in the database (migration 0032_structure_cuts.sql; the mechanism is
 * structure-cache.ts, shared with the scaffold cache): the cuts are a pure function of the
 * structure, so each structure's are made once, for every user and session and across restarts,
 * and read back after. A kept row
 * counts only while md5 of the structure's canonical SMILES is the one it was cut from, and only
 * for a caller cutting that same SMILES; anything else is cut by the engine (whose in-memory cache
 * comes first) and, when it is the structure's canonical SMILES, stored.
 */

const encode = (cuts: readonly SingleCut[]) => JSON.stringify(cuts.map((c) => [c.constant, c.variable]));
const decode = (text: string): SingleCut[] =>
  (JSON.parse(text) as [string, string][]).map(([constant, variable]) => ({ constant, variable }));

/** Cuts of each compound (by its structure id and the SMILES to cut), in the compounds' order. */
export async function cutsOf(
  db: Kysely<Database>,
  engine: ChemEngine,
  compounds: readonly { strId: number; smiles: string }[],
  options: SarWorkOptions = {},
): Promise<SingleCut[][]> {
  if (!compounds.length) return [];
  const stored = await readStructureCache(
    db,
    'structure_cuts',
    compounds.map((c) => c.strId),
  );
  const answers: (SingleCut[] | undefined)[] = compounds.map((c) => {
    const row = stored.get(c.strId);
    return row?.known && row.value !== null && row.smiles === c.smiles ? decode(row.value) : undefined;
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
  const keep = new Map<number, { strId: number; smiles: string; value: string }>();
  for (const i of missing) {
    const c = compounds[i]!;
    if (stored.get(c.strId)?.smiles === c.smiles) keep.set(c.strId, { strId: c.strId, smiles: c.smiles, value: encode(answers[i]!) });
  }
  await writeStructureCache(db, 'structure_cuts', [...keep.values()]);
  return answers as SingleCut[][];
}
