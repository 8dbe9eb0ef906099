import { sql } from 'kysely';
import type { ExpressionBuilder, Kysely } from 'kysely';
import type { AuditPage, AuditQuery } from '@kb/contracts/superadmin';
import { PLAIN_DATE, endInstant, startInstant } from '@kb/contracts/plain-date';
import type { Database } from '../../db/schema.ts';
import { containsPattern, escapeLike } from '../../db/like-pattern.ts';

type Db = Kysely<Database>;

/** The rows a query asks for, as one WHERE (shared by the page and its count). */
function filters(query: AuditQuery) {
  return (eb: ExpressionBuilder<Database, 'audit_log'>) => {
    const all = [];
    if (query.q) {
      const p = containsPattern(query.q.toLowerCase());
      all.push(
        eb.or([
          eb(sql`lower(actor_email)`, 'like', p),
          eb(sql`lower(action)`, 'like', p),
          eb(sql`lower(coalesce(target_label, ''))`, 'like', p),
          eb(sql`lower(coalesce(target_id, ''))`, 'like', p),
          eb(sql`lower(coalesce(before::text, ''))`, 'like', p),
          eb(sql`lower(coalesce(after::text, ''))`, 'like', p),
        ]),
      );
    }
    if (query.actor) all.push(eb(sql`lower(actor_email)`, 'like', containsPattern(query.actor.toLowerCase())));
    if (query.action) all.push(eb.or([eb('action', '=', query.action), eb('action', 'like', `${escapeLike(query.action)}.%`)]));
    if (query.targetType) all.push(eb('target_type', '=', query.targetType));
    if (query.target) {
      const p = containsPattern(query.target.toLowerCase());
      all.push(eb.or([eb(sql`lower(coalesce(target_label, ''))`, 'like', p), eb(sql`lower(coalesce(target_id, ''))`, 'like', p)]));
    }
    if (query.from) all.push(eb('created_at', '>=', startInstant(query.from)));
    // A plain date includes that whole day (up to its 24:00, excluded); a date-time is the last instant included.
    if (query.to)
      all.push(PLAIN_DATE.test(query.to) ? eb('created_at', '<', endInstant(query.to)) : eb('created_at', '<=', new Date(query.to)));
    return eb.and(all);
  };
}

/** A page of the audit log, newest first, and how many rows match in all. */
export async function searchAudit(db: Db, query: AuditQuery): Promise<AuditPage> {
  const where = filters(query);
  const [rows, total] = await Promise.all([
    db
      .selectFrom('audit_log')
      .selectAll()
      .where(where)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize)
      .execute(),
    db.selectFrom('audit_log').select(sql<number>`count(*)::int`.as('n')).where(where).executeTakeFirstOrThrow(),
  ]);
  return {
    total: total.n,
    rows: rows.map((r) => ({
      id: Number(r.id),
      createdAt: r.created_at.toISOString(),
      actorEmail: r.actor_email,
      action: r.action,
      targetType: r.target_type,
      targetId: r.target_id,
      targetLabel: r.target_label,
      before: r.before ?? null,
      after: r.after ?? null,
      ipAddress: r.ip_address,
    })),
  };
}
