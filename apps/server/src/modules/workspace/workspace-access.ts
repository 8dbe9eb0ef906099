import { sql } from 'kysely';
import type { Kysely, RawBuilder } from 'kysely';
import type { ShareAccess } from '@kb/contracts/workspace';
import type { Database } from '../../db/schema.ts';
import { notFound } from '../../http/errors.ts';

/**
 * Who may see and change a workspace object (docs/access-control.md "Workspace"):
 * - its owner, always;
 * - a colleague — an active account in the owner's organisation *now* — when the object is shared
 *   with the whole organisation, or with them by name; what they may do is the access given.
 * Organisations are read on every call, so an account moved out of the organisation, or
 * deactivated, loses access at once, and so do the colleagues of an owner who left. Anyone else
 * is told the object does not exist (404), so ids cannot be probed.
 */

export type ObjectKind = 'collection' | 'result_set';

const TABLES = { collection: 'collections', result_set: 'result_sets' } as const;

/** What the caller may do with an object: nothing (null), read, or edit; `owner` when it is theirs. */
export interface ObjectRights {
  ownerId: number;
  owner: boolean;
  access: ShareAccess;
}

/**
 * SQL: the access the user `userId` has to the object row aliased `o` of `kind` ('edit', 'read'
 * or NULL). One expression, so lists filter by it and single reads check it in the same query.
 */
export function accessSql(kind: ObjectKind, userId: number): RawBuilder<ShareAccess | null> {
  return sql<ShareAccess | null>`CASE
    WHEN o.owner_id = ${userId} THEN 'edit'
    WHEN o.visibility = 'private' THEN NULL
    WHEN NOT EXISTS (
      SELECT 1 FROM users me JOIN users own ON own.id = o.owner_id
      WHERE me.id = ${userId} AND me.active AND own.active
        AND me.organisation_id IS NOT NULL AND me.organisation_id = own.organisation_id) THEN NULL
    WHEN o.visibility = 'organisation' THEN o.org_access
    ELSE (SELECT s.access FROM workspace_shares s
          WHERE s.object_kind = ${kind} AND s.object_id = o.id AND s.user_id = ${userId})
  END`;
}

/** The caller's rights on one object; 404 (with `what`) when the object is not there for them. */
export async function objectRights(
  db: Kysely<Database>,
  kind: ObjectKind,
  id: number,
  userId: number,
  what: string,
): Promise<ObjectRights> {
  const { rows } = await sql<{ owner_id: number; access: ShareAccess | null }>`
    SELECT o.owner_id, ${accessSql(kind, userId)} AS access FROM ${sql.table(TABLES[kind])} o WHERE o.id = ${id}`.execute(db);
  const row = rows[0];
  if (!row || !row.access) throw notFound(`There is no ${what} ${id}, or it is not shared with you.`);
  return { ownerId: row.owner_id, owner: row.owner_id === userId, access: row.access };
}
