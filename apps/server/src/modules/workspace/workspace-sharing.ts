import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Sharing, SharingRequest } from '@kb/contracts/workspace';
import type { z } from 'zod';
import type { ColleaguesResponseSchema } from '@kb/contracts/workspace';
import type { Database } from '../../db/schema.ts';
import type { AuthContext } from '../../http/auth-hook.ts';
import { badRequest } from '../../http/errors.ts';
import { containsPattern } from '../../db/like-pattern.ts';
import { recordAudit } from '../audit/audit-log.ts';
import type { AuditActor } from '../audit/audit-log.ts';
import { objectRights } from './workspace-access.ts';
import type { ObjectKind } from './workspace-access.ts';
import { TABLES, WHAT, personSql, requireOwner } from './workspace-objects.ts';

/** Most colleagues the sharing dialog's picker lists at once (it narrows as the owner types). */
const COLLEAGUES_LIMIT = 50;

/**
 * Sharing of collections and saved result sets inside the owner's organisation
 * (docs/access-control.md "Workspace", docs/workspace.md "Sharing"): only the owner changes it,
 * named people must be active colleagues, the named list is replaced as a whole, and every change
 * is written to the audit log with what it was before.
 */
export class WorkspaceSharing {
  constructor(private readonly db: Kysely<Database>) {}

  /** The sharing of an object as its owner sees it (named people with their names and e-mails). */
  async sharingOf(kind: ObjectKind, id: number): Promise<Sharing> {
    const object = await this.db
      .selectFrom(TABLES[kind])
      .select(['visibility', 'org_access'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    const { rows } = await sql<{ user_id: number; name: string; email: string; access: 'read' | 'edit' }>`
      SELECT s.user_id, ${personSql('u')} AS name, u.email, s.access FROM workspace_shares s JOIN users u ON u.id = s.user_id
      WHERE s.object_kind = ${kind} AND s.object_id = ${id} ORDER BY lower(${personSql('u')}), s.user_id`.execute(this.db);
    return {
      visibility: object.visibility,
      organisationAccess: object.org_access,
      people: rows.map((row) => ({ userId: row.user_id, name: row.name, email: row.email, access: row.access })),
    };
  }

  /** Replaces the sharing of an object (owner only: a colleague with edit access gets 403, anyone else 404). */
  async share(auth: AuthContext, actor: AuditActor, kind: ObjectKind, id: number, request: SharingRequest): Promise<void> {
    const rights = await objectRights(this.db, kind, id, auth.userId, WHAT[kind]);
    requireOwner(kind, rights.owner, 'share');
    // One entry per person (the last wins); the owner needs none.
    const named = new Map(request.people.filter((p) => p.userId !== auth.userId).map((p) => [p.userId, p.access]));
    const owner = await this.db.selectFrom('users').select('organisation_id').where('id', '=', auth.userId).executeTakeFirstOrThrow();
    if (request.visibility !== 'private' && owner.organisation_id === null) {
      throw badRequest('You belong to no organisation, so there is nobody to share with: keep it private.', { field: 'visibility' });
    }
    const ids = [...named.keys()];
    const colleagues = new Set<number>();
    if (ids.length && owner.organisation_id !== null) {
      const rows = await this.db
        .selectFrom('users')
        .select('id')
        .where('id', 'in', ids)
        .where('active', '=', true)
        .where('organisation_id', '=', owner.organisation_id)
        .execute();
      for (const row of rows) colleagues.add(row.id);
    }
    const strangers = ids.filter((userId) => !colleagues.has(userId));
    if (request.visibility === 'people') {
      if (strangers.length) {
        throw badRequest(
          `${strangers.map((userId) => `User ${userId}`).join(', ')} ${strangers.length === 1 ? 'is not an active member' : 'are not active members'} of your organisation: share only with colleagues.`,
          { field: 'people', userIds: strangers },
        );
      }
      if (!ids.length) throw badRequest('Name at least one colleague, or choose another visibility.', { field: 'people' });
    }
    // With the other visibilities the named list is kept (unused), less anyone who is no colleague now.
    const people = ids.filter((userId) => colleagues.has(userId)).map((userId) => ({ userId, access: named.get(userId)! }));

    await this.db.transaction().execute(async (trx) => {
      const { rows } = await sql<{ name: string; visibility: string; org_access: string }>`
        SELECT name, visibility, org_access FROM ${sql.table(TABLES[kind])} WHERE id = ${id} FOR UPDATE`.execute(trx);
      const current = rows[0];
      if (!current) return;
      const before = {
        visibility: current.visibility,
        organisationAccess: current.org_access,
        people: (
          await trx
            .selectFrom('workspace_shares')
            .select(['user_id', 'access'])
            .where('object_kind', '=', kind)
            .where('object_id', '=', id)
            .orderBy('user_id')
            .execute()
        ).map((row) => ({ userId: row.user_id, access: row.access })),
      };
      const after = {
        visibility: request.visibility,
        organisationAccess: request.organisationAccess,
        people: [...people].sort((a, b) => a.userId - b.userId),
      };
      if (JSON.stringify(before) === JSON.stringify(after)) return;
      await sql`UPDATE ${sql.table(TABLES[kind])} SET visibility = ${request.visibility}, org_access = ${request.organisationAccess},
        updated_at = now() WHERE id = ${id}`.execute(trx);
      await trx.deleteFrom('workspace_shares').where('object_kind', '=', kind).where('object_id', '=', id).execute();
      if (people.length) {
        await trx
          .insertInto('workspace_shares')
          .values(people.map((p) => ({ object_kind: kind, object_id: id, user_id: p.userId, access: p.access })))
          .execute();
      }
      await recordAudit(trx, actor, {
        action: `${kind}.share`,
        targetType: kind,
        targetId: id,
        targetLabel: current.name,
        before,
        after,
      });
    });
  }

  /** Active colleagues of the caller's organisation (not the caller) whose name or e-mail holds `q`. */
  async colleagues(auth: AuthContext, q: string): Promise<z.infer<typeof ColleaguesResponseSchema>> {
    const me = await this.db
      .selectFrom('users as u')
      .leftJoin('organisations as o', 'o.id', 'u.organisation_id')
      .select(['u.organisation_id', 'o.name'])
      .where('u.id', '=', auth.userId)
      .executeTakeFirst();
    if (!me || me.organisation_id === null) return { organisation: null, rows: [] };
    const pattern = containsPattern(q);
    const { rows } = await sql<{ id: number; name: string; email: string }>`
      SELECT u.id, ${personSql('u')} AS name, u.email FROM users u
      WHERE u.organisation_id = ${me.organisation_id} AND u.active AND u.id <> ${auth.userId}
        AND (${q} = '' OR u.email ILIKE ${pattern} OR (u.first_name || ' ' || u.last_name) ILIKE ${pattern}
          OR (u.last_name || ' ' || u.first_name) ILIKE ${pattern})
      ORDER BY lower(${personSql('u')}), u.id LIMIT ${COLLEAGUES_LIMIT}`.execute(this.db);
    return { organisation: me.name, rows: rows.map((row) => ({ userId: row.id, name: row.name, email: row.email })) };
  }
}
