import { sql } from 'kysely';
import type { Expression, Kysely } from 'kysely';
import type { Organisation, OrganisationInput, OrganisationList, OrganisationUpdate } from '@kb/contracts/admin-accounts';
import type { Database } from '../../db/schema.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import { recordAudit } from '../audit/audit-log.ts';
import type { AuditActor } from '../audit/audit-log.ts';
import { changedFields, conflict } from './admin-context.ts';
import { containsPattern } from '../../db/like-pattern.ts';

/** Organisations (clients): names unique ignoring case, seats, contact, the figures of their users. */

type Db = Kysely<Database>;

/**
 * The seats an organisation's users take: one per account that is not deactivated, invited ones
 * included (a seat is reserved when the account is made, whether or not a subscription runs now).
 * The one rule behind the list's figure, the seat check of every way in and a lower seat limit.
 */
export const seatsTaken = (organisationId: Expression<number>) =>
  sql<number>`(SELECT count(*)::int FROM users u WHERE u.organisation_id = ${organisationId} AND u.active)`;

function selectOrganisations(db: Db) {
  return db.selectFrom('organisations as o').select([
    'o.id',
    'o.name',
    'o.seats',
    'o.contact_email',
    'o.notes',
    'o.active',
    'o.created_at',
    sql<number>`(SELECT count(*)::int FROM users u WHERE u.organisation_id = o.id)`.as('users'),
    seatsTaken(sql.ref<number>('o.id')).as('active_users'),
    sql<number>`(SELECT coalesce(sum(u.credit_balance), 0)::int FROM users u WHERE u.organisation_id = o.id)`.as('credit_balance'),
    sql<Date | null>`(SELECT min(s.end_date) FROM users u JOIN subscriptions s ON s.user_id = u.id
      WHERE u.organisation_id = o.id AND s.start_date <= now() AND s.end_date > now())`.as('next_end_date'),
  ]);
}

type Row = Awaited<ReturnType<ReturnType<typeof selectOrganisations>['execute']>>[number];

function toOrganisation(row: Row): Organisation {
  return {
    id: row.id,
    name: row.name,
    seats: row.seats,
    contactEmail: row.contact_email,
    notes: row.notes,
    active: row.active,
    users: row.users,
    activeUsers: row.active_users,
    creditBalance: row.credit_balance,
    nextEndDate: row.next_end_date ? new Date(row.next_end_date).toISOString() : null,
    createdAt: new Date(row.created_at).toISOString(),
  };
}

export async function listOrganisations(
  db: Db,
  query: { q?: string | undefined; page: number; pageSize: number },
): Promise<OrganisationList> {
  const where = query.q ? sql<boolean>`o.name ILIKE ${containsPattern(query.q)}` : sql<boolean>`true`;
  const [rows, count] = await Promise.all([
    selectOrganisations(db)
      .where(where)
      .orderBy(sql`lower(o.name)`)
      .orderBy('o.id')
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize)
      .execute(),
    db.selectFrom('organisations as o').select(sql<number>`count(*)::int`.as('n')).where(where).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map(toOrganisation), total: count.n };
}

async function organisation(db: Db, id: number): Promise<Organisation> {
  const row = await selectOrganisations(db).where('o.id', '=', id).executeTakeFirst();
  if (!row) throw notFound(`There is no organisation ${id}.`);
  return toOrganisation(row);
}

/** 409 when another organisation has this name, ignoring case. */
async function assertNameFree(db: Db, name: string, exceptId: number | null): Promise<void> {
  const taken = await db
    .selectFrom('organisations')
    .select(['id', 'name'])
    .where(sql<boolean>`lower(name) = lower(${name})`)
    .$if(exceptId !== null, (q) => q.where('id', '!=', exceptId as number))
    .executeTakeFirst();
  if (taken) throw conflict(`An organisation named "${taken.name}" already exists (names are compared ignoring case).`, { field: 'name' });
}

/** A unique-index violation raced past the check: the same answer as the check. */
function uniqueViolation(error: unknown, name: string): never {
  if ((error as { code?: string }).code === '23505')
    throw conflict(`An organisation named "${name}" already exists (names are compared ignoring case).`, { field: 'name' });
  throw error;
}

export async function createOrganisation(db: Db, actor: AuditActor, input: OrganisationInput): Promise<Organisation> {
  const id = await db
    .transaction()
    .execute(async (trx) => {
      await assertNameFree(trx, input.name, null);
      const row = await trx
        .insertInto('organisations')
        .values({ name: input.name, seats: input.seats ?? null, contact_email: input.contactEmail ?? null, notes: input.notes ?? '' })
        .returning(['id', 'name', 'seats', 'contact_email', 'notes', 'active'])
        .executeTakeFirstOrThrow();
      await recordAudit(trx, actor, {
        action: 'organisation.create',
        targetType: 'organisation',
        targetId: row.id,
        targetLabel: row.name,
        after: { name: row.name, seats: row.seats, contactEmail: row.contact_email, notes: row.notes, active: row.active },
      });
      return row.id;
    })
    .catch((error: unknown) => uniqueViolation(error, input.name));
  return organisation(db, id);
}

export async function updateOrganisation(db: Db, actor: AuditActor, id: number, input: OrganisationUpdate): Promise<Organisation> {
  const wanted = {
    name: input.name,
    seats: input.seats === undefined ? undefined : input.seats,
    contactEmail: input.contactEmail === undefined ? undefined : input.contactEmail,
    notes: input.notes,
    active: input.active,
  };
  if (Object.values(wanted).every((v) => v === undefined)) throw badRequest('Nothing to change: give at least one field.');
  await db
    .transaction()
    .execute(async (trx) => {
      const current = await trx.selectFrom('organisations').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
      if (!current) throw notFound(`There is no organisation ${id}.`);
      if (wanted.name !== undefined && wanted.name.toLowerCase() !== current.name.toLowerCase()) await assertNameFree(trx, wanted.name, id);
      if (wanted.seats != null) {
        const { n } = await trx.selectNoFrom(seatsTaken(sql.val(id)).as('n')).executeTakeFirstOrThrow();
        if (n > wanted.seats)
          throw badRequest(
            `${current.name} has ${n} users taking a seat (accounts not deactivated): give at least ${n} seats, or move or deactivate users first.`,
            { field: 'seats' },
          );
      }
      const before = {
        name: current.name,
        seats: current.seats,
        contactEmail: current.contact_email,
        notes: current.notes,
        active: current.active,
      };
      const change = changedFields(before, wanted);
      if (!change) return;
      await trx
        .updateTable('organisations')
        .set({
          ...(wanted.name !== undefined ? { name: wanted.name } : {}),
          ...(wanted.seats !== undefined ? { seats: wanted.seats } : {}),
          ...(wanted.contactEmail !== undefined ? { contact_email: wanted.contactEmail } : {}),
          ...(wanted.notes !== undefined ? { notes: wanted.notes } : {}),
          ...(wanted.active !== undefined ? { active: wanted.active } : {}),
          updated_at: sql`now()`,
        })
        .where('id', '=', id)
        .execute();
      await recordAudit(trx, actor, {
        action: 'organisation.update',
        targetType: 'organisation',
        targetId: id,
        targetLabel: wanted.name ?? current.name,
        ...change,
      });
    })
    .catch((error: unknown) => uniqueViolation(error, input.name ?? ''));
  return organisation(db, id);
}

/**
 * Checks that `organisationId` may take one more user (inside the caller's transaction): it exists,
 * is active and has a free seat. Answers its name.
 */
export async function assertSeatFree(trx: Db, organisationId: number, adding = 1): Promise<string> {
  const org = await trx
    .selectFrom('organisations')
    .select(['name', 'seats', 'active'])
    .where('id', '=', organisationId)
    .forUpdate()
    .executeTakeFirst();
  if (!org) throw badRequest(`There is no organisation ${organisationId}.`, { field: 'organisationId' });
  if (!org.active) throw badRequest(`${org.name} is inactive: reactivate it before adding users.`, { field: 'organisationId' });
  if (org.seats !== null) {
    const { n } = await trx.selectNoFrom(seatsTaken(sql.val(organisationId)).as('n')).executeTakeFirstOrThrow();
    if (n + adding > org.seats) {
      throw badRequest(
        `${org.name} has ${org.seats} seats, ${n} taken (accounts not deactivated, invited ones included): ${adding === 1 ? 'no seat is free' : `${adding} more do not fit`}. Raise its seats first.`,
        { field: 'organisationId' },
      );
    }
  }
  return org.name;
}
