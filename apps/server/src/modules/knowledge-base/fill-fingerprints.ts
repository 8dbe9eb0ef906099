import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { ChemPool } from './chem/chem-pool.ts';
import { reviseStructures } from './kb-loads.ts';

/** Structures fingerprinted per round trip. */
const BATCH = 500;

/**
 * Computes the two stored fingerprints (chemistry/fingerprint.mjs) of structures that lack one —
 * a load stopped half-way, or rows written by hand — with the seeding's own RDKit workers, so the
 * bytes are those a seed would have written. Structures RDKit cannot read keep no fingerprint.
 * Answers how many structures it filled. The super admin's "Rebuild derived data" runs it.
 */
export async function fillMissingFingerprints(
  db: Kysely<Database>,
  options: { workers?: number; onProgress?: (done: number, total: number) => void } = {},
): Promise<number> {
  const missing = await db
    .selectFrom('structures')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where((eb) => eb.or([eb('morgan_fp', 'is', null), eb('pattern_fp', 'is', null)]))
    .executeTakeFirstOrThrow();
  const total = Number(missing.n);
  if (total === 0) return 0;
  const pool = new ChemPool(options.workers ?? 1);
  let filled = 0;
  let seen = 0;
  let after = 0;
  try {
    for (;;) {
      const rows = await db
        .selectFrom('structures')
        .select(['str_id', 'canonical_smiles'])
        .where('str_id', '>', after)
        .where((eb) => eb.or([eb('morgan_fp', 'is', null), eb('pattern_fp', 'is', null)]))
        .orderBy('str_id')
        .limit(BATCH)
        .execute();
      if (rows.length === 0) break;
      after = Number(rows.at(-1)!.str_id);
      const computed = await pool.compute(
        rows.map((r) => r.canonical_smiles),
        { inchi: false, fingerprints: true },
      );
      const ids: number[] = [];
      const morgan: Buffer[] = [];
      const pattern: Buffer[] = [];
      rows.forEach((row, i) => {
        const c = computed[i];
        if (!c?.morgan_fp || !c.pattern_fp) return;
        ids.push(Number(row.str_id));
        morgan.push(Buffer.from(c.morgan_fp));
        pattern.push(Buffer.from(c.pattern_fp));
      });
      if (ids.length) {
        await sql`UPDATE structures s SET morgan_fp = u.morgan, pattern_fp = u.pattern
          FROM unnest(${ids}::bigint[], ${morgan}::bytea[], ${pattern}::bytea[]) AS u(str_id, morgan, pattern)
          WHERE s.str_id = u.str_id`.execute(db);
        // Copies of the structures (the structure index's local snapshots) are stale now.
        await reviseStructures(db);
      }
      filled += ids.length;
      seen += rows.length;
      options.onProgress?.(seen, total);
    }
  } finally {
    await pool.close();
  }
  return filled;
}
