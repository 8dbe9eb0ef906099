import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/**
 * The fits prediction keeps per knowledge-base version in app_settings (the ensemble's background,
 * the calibration), so a restart does not estimate them again: the stored text, and its replacement.
 */
export async function readKept(db: Kysely<Database>, key: string): Promise<string | null> {
  const row = await db.selectFrom('app_settings').select('value').where('key', '=', key).executeTakeFirst();
  return row?.value ?? null;
}

export async function keep(db: Kysely<Database>, key: string, value: string): Promise<void> {
  await db
    .insertInto('app_settings')
    .values({ key, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute();
}
