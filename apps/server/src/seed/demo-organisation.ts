import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/** The organisation the demo users belong to, so the client dashboard has something to show on a first start. */
export const DEMO_ORGANISATION = { name: 'Demo Pharma', seats: 25 } as const;

/**
 * Creates "Demo Pharma" when no organisation of that name exists and places the given demo users
 * that belong to no organisation in it. Only when it creates the organisation: an administrator's
 * later changes (a demo user moved elsewhere or out) are left alone on the next start.
 */
export async function seedDemoOrganisation(db: Kysely<Database>, emails: readonly string[]): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const created = await trx
      .insertInto('organisations')
      .columns(['name', 'seats', 'notes'])
      .expression(
        trx
          .selectNoFrom([
            sql.lit(DEMO_ORGANISATION.name).as('name'),
            sql.lit(DEMO_ORGANISATION.seats).as('seats'),
            sql.lit('Demo data: the demo users.').as('notes'),
          ])
          .where(sql<boolean>`NOT EXISTS (SELECT 1 FROM organisations WHERE lower(name) = lower(${DEMO_ORGANISATION.name}))`),
      )
      .returning('id')
      .executeTakeFirst();
    if (!created || emails.length === 0) return;
    await trx
      .updateTable('users')
      .set({ organisation_id: created.id })
      .where('email', 'in', [...emails])
      .where('organisation_id', 'is', null)
      .execute();
  });
}
