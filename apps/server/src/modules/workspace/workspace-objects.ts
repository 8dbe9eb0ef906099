import { sql } from 'kysely';
import type { Kysely, RawBuilder, Transaction } from 'kysely';
import type { Person, ShareAccess, Visibility } from '@kb/contracts/workspace';
import { WORKSPACE_MAX_OWNED } from '@kb/contracts/workspace';
import type { Database } from '../../db/schema.ts';
import { badRequest, forbidden, notFound } from '../../http/errors.ts';
import { accessSql } from './workspace-access.ts';
import type { ObjectKind } from './workspace-access.ts';

/**
 * What collections and saved result sets share (docs/workspace.md): reading them with their owner
 * and the caller's access in one query (the access rule of workspace-access.ts), the fields every
 * listed object carries, and the checks of who may change or delete one.
 */

export const TABLES = { collection: 'collections', result_set: 'result_sets' } as const;
export const WHAT = { collection: 'collection', result_set: 'saved result set' } as const;

/** The columns both tables have, with the owner and the caller's access. */
export interface OwnedRow {
  id: number;
  owner_id: number;
  name: string;
  description: string;
  visibility: Visibility;
  org_access: ShareAccess;
  created_at: Date | string;
  updated_at: Date | string;
  access: ShareAccess;
  owner_email: string;
  owner_name: string;
  shared_with: number;
}

/** A person as the workspace shows them: "First Last", or the e-mail when no name was given. */
export function personSql(alias: string): RawBuilder<string> {
  const u = sql.raw(alias);
  return sql<string>`coalesce(nullif(trim(${u}.first_name || ' ' || ${u}.last_name), ''), ${u}.email)`;
}

/**
 * The objects of `kind` the user may see (or the one `id`), newest change first, with `columns`
 * of the object (aliased `o`) beside the shared ones.
 */
export async function ownedRows<T extends object>(
  db: Kysely<Database> | Transaction<Database>,
  kind: ObjectKind,
  userId: number,
  options: { id?: number; columns: RawBuilder<unknown> },
): Promise<(OwnedRow & T)[]> {
  const access = accessSql(kind, userId);
  const { rows } = await sql<OwnedRow & T>`SELECT * FROM (
      SELECT o.id, o.owner_id, o.name, o.description, o.visibility, o.org_access, o.created_at, o.updated_at,
        ${access} AS access, u.email AS owner_email, ${personSql('u')} AS owner_name,
        (SELECT count(*)::int FROM workspace_shares s WHERE s.object_kind = ${kind} AND s.object_id = o.id) AS shared_with, ${options.columns}
      FROM ${sql.table(TABLES[kind])} o JOIN users u ON u.id = o.owner_id
      WHERE ${options.id === undefined ? candidates(userId) : sql`o.id = ${options.id}`}) seen
    WHERE seen.access IS NOT NULL
    ORDER BY seen.updated_at DESC, seen.id DESC`.execute(db);
  return rows;
}

/**
 * A list's candidates before the access rule decides: the user's own objects and the shared ones
 * of owners in the user's organisation (through the owner index), not every object of the server.
 */
function candidates(userId: number): RawBuilder<boolean> {
  return sql<boolean>`(o.owner_id = ${userId} OR (o.visibility <> 'private' AND o.owner_id IN (
    SELECT own.id FROM users me JOIN users own ON own.organisation_id = me.organisation_id WHERE me.id = ${userId})))`;
}

/** The one object, or 404 as for one that does not exist (ids cannot be probed). */
export async function ownedRow<T extends object>(
  db: Kysely<Database> | Transaction<Database>,
  kind: ObjectKind,
  userId: number,
  id: number,
  columns: RawBuilder<unknown>,
): Promise<OwnedRow & T> {
  const [row] = await ownedRows<T>(db, kind, userId, { id, columns });
  if (!row) throw notFound(`There is no ${WHAT[kind]} ${id}, or it is not shared with you.`);
  return row;
}

const iso = (value: Date | string) => (value instanceof Date ? value : new Date(value)).toISOString();

/** The fields of contracts' OwnedShape. */
export function ownedShape(row: OwnedRow, userId: number) {
  const owner: Person = { userId: row.owner_id, name: row.owner_name, email: row.owner_email };
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    owner,
    mine: row.owner_id === userId,
    canEdit: row.access === 'edit',
    visibility: row.visibility,
    // Who else is named is the owner's business (a colleague sees only the visibility).
    sharedWith: row.owner_id === userId ? Number(row.shared_with) : null,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

/** 403 for a colleague who may only read (they see the object, so 404 would be a lie). */
export function requireEdit(kind: ObjectKind, access: ShareAccess): void {
  if (access !== 'edit') throw forbidden(`This ${WHAT[kind]} is shared with you read-only: ask its owner for edit access.`);
}

/** 403 for a colleague (even with edit access) on what only the owner may do. */
export function requireOwner(kind: ObjectKind, owner: boolean, action: 'delete' | 'share'): void {
  if (!owner) throw forbidden(`Only the owner of this ${WHAT[kind]} may ${action} it.`);
}

/**
 * Refuses a new object past WORKSPACE_MAX_OWNED. Call it in the transaction that inserts the
 * object: the owner's row is locked, so two creations at once cannot both pass at the limit.
 */
export async function checkOwnedLimit(trx: Transaction<Database>, kind: ObjectKind, userId: number): Promise<void> {
  await sql`SELECT id FROM users WHERE id = ${userId} FOR UPDATE`.execute(trx);
  const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.table(TABLES[kind])} WHERE owner_id = ${userId}`.execute(
    trx,
  );
  if (Number(rows[0]?.n ?? 0) >= WORKSPACE_MAX_OWNED) {
    throw badRequest(
      `You have ${WORKSPACE_MAX_OWNED.toLocaleString('en-US')} ${kind === 'collection' ? 'collections' : 'saved result sets'}, the most one person keeps: delete some first.`,
      { max: WORKSPACE_MAX_OWNED },
    );
  }
}
