import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { ChemEngine, SarWorkOptions } from './chem-engine.ts';
import { readStructureCache, writeStructureCache } from './structure-cache.ts';

/**
 * Murcko scaffolds kept in the database (docs/sar.md "Scaffold cache"; the mechanism is
 * structure-cache.ts): a scaffold is a pure function of the structure, and RDKit takes ~1.5 ms a
 * molecule for it, so each structure's is computed once (on all workers, in chunks) and read back
 * after; a structure whose SMILES changed gets its scaffold computed again and replaced.
 */

/** Scaffold per str_id (null: no ring, or RDKit cannot read the structure); ids not in `structures` are left out. */
export async function scaffoldsOf(
  db: Kysely<Database>,
  engine: ChemEngine,
  strIds: readonly number[],
  options: SarWorkOptions = {},
): Promise<Map<number, string | null>> {
  const out = new Map<number, string | null>();
  const missing: { strId: number; smiles: string }[] = [];
  for (const [strId, row] of await readStructureCache(db, 'structure_scaffolds', strIds)) {
    if (row.known) out.set(strId, row.value);
    else missing.push({ strId, smiles: row.smiles });
  }
  if (!missing.length) return out;
  const found = await engine.scaffolds(
    missing.map((m) => m.smiles),
    options,
  );
  missing.forEach((m, i) => out.set(m.strId, found[i] ?? null));
  await writeStructureCache(
    db,
    'structure_scaffolds',
    missing.map((m) => ({ ...m, value: out.get(m.strId) ?? null })),
  );
  return out;
}
