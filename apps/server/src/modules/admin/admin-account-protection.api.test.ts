import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { LoginResult } from '@kb/contracts/auth';
import type { AdminRoleHolder } from '@kb/contracts/superadmin';
import { demoEmailForRole } from '@kb/contracts/roles';
import type { Role } from '@kb/contracts/roles';
import { ONE_DATABASE, startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { adminClient } from '../../../test/admin-support.ts';

/*
 * Accounts that hold an admin role are the super-admin page's business: the KB admin cannot change,
 * act on, grant to or credit any of them — its own included (issue 35: it granted itself FULL_USER
 * and 1,000 credits, and renamed and moved the super admin). Every account-changing call of
 * /api/admin/… is tried on each such account and must answer 403 and change nothing.
 */

const inAYear = () => new Date(Date.now() + 365 * 86_400_000).toISOString().slice(0, 10);
const REFUSAL = /super-admin page/;

describe.each(ONE_DATABASE)('accounts holding an admin role, on %s', (kind) => {
  let t: TestApp;
  let admin: LoginResult;
  let superAdmin: LoginResult;
  let api: ReturnType<typeof adminClient>;
  const ids = new Map<Role, number>();
  /** A running FULL_USER subscription of each admin account (so that its change and end are tried too). */
  const userRoleSubscription = new Map<Role, number>();
  let organisationId = 0;

  beforeAll(async () => {
    t = await startTestApp(kind);
    admin = await t.login(demoEmailForRole('GOSTAR_ADMIN'));
    superAdmin = await t.login(demoEmailForRole('SUPER_ADMIN'));
    api = adminClient(t, () => admin);
    const db = t.database.db;
    organisationId = (
      await db.insertInto('organisations').values({ name: 'Protection Org', seats: 10 }).returning('id').executeTakeFirstOrThrow()
    ).id;
    for (const role of ['GOSTAR_ADMIN', 'SUPER_ADMIN', 'FLAT_FILE_ADMIN'] as const) {
      const { id } = await db.selectFrom('users').select('id').where('email', '=', demoEmailForRole(role)).executeTakeFirstOrThrow();
      ids.set(role, id);
      const { rows } = await sql<{ id: number }>`INSERT INTO subscriptions (user_id, role_name, contract_id, start_date, end_date)
        VALUES (${id}, 'FULL_USER', 'T', now() - interval '1 day', now() + interval '100 days') RETURNING id`.execute(db);
      userRoleSubscription.set(role, rows[0]!.id);
    }
  }, 120_000);
  afterAll(() => t.close());

  /** Every account-changing call of the KB admin's API, on one account. */
  const changes = (role: Role) => {
    const id = ids.get(role)!;
    const subscription = userRoleSubscription.get(role)!;
    return [
      ['rename', () => api.put(`/api/admin/users/${id}`, { firstName: 'Renamed' })],
      ['move to an organisation', () => api.put(`/api/admin/users/${id}`, { organisationId })],
      ...(['deactivate', 'reactivate', 'closeSessions', 'sendPasswordLink', 'liftLockout'] as const).map(
        (action) => [`action ${action}`, () => api.post(`/api/admin/users/${id}/actions`, { action })] as const,
      ),
      ['grant a subscription', () => api.post(`/api/admin/users/${id}/subscriptions`, { role: 'PARTIAL_USER', endDate: inAYear() })],
      ['extend a user-role subscription', () => api.put(`/api/admin/subscriptions/${subscription}`, { endDate: inAYear() })],
      ['end a user-role subscription', () => api.post(`/api/admin/subscriptions/${subscription}/end`, {})],
      ['grant credits', () => api.post(`/api/admin/users/${id}/credits`, { kind: 'grant', delta: 1000, reason: 'self-service' })],
      ['adjust credits', () => api.post(`/api/admin/users/${id}/credits`, { kind: 'adjustment', delta: 5, reason: 'self-service' })],
    ] as const;
  };

  for (const target of ['GOSTAR_ADMIN', 'SUPER_ADMIN', 'FLAT_FILE_ADMIN'] as const) {
    it(`refuses every account change on the ${target} account${target === 'GOSTAR_ADMIN' ? ' (the caller’s own)' : ''} with 403, changing nothing`, async () => {
      for (const [name, change] of changes(target)) {
        // Deactivating or logging out oneself has its own, earlier words (400); changed nothing all the same.
        const own = target === 'GOSTAR_ADMIN' && (name === 'action deactivate' || name === 'action closeSessions');
        const res = await api.refused(change, own ? 400 : 403, own ? /your own/ : REFUSAL);
        expect(res.statusCode, name).toBe(own ? 400 : 403);
      }
    });
  }

  it('still makes the same changes on an account without an admin role (the refusal is about the target, not the call)', async () => {
    const { id } = await t.database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', demoEmailForRole('PARTIAL_USER'))
      .executeTakeFirstOrThrow();
    expect((await api.audited(() => api.put(`/api/admin/users/${id}`, { firstName: 'Renamed' }))).answer.statusCode).toBe(200);
    expect(
      (await api.audited(() => api.post(`/api/admin/users/${id}/credits`, { kind: 'grant', delta: 10, reason: 'control' }))).answer
        .statusCode,
    ).toBe(200);
    expect(
      (await api.audited(() => api.post(`/api/admin/users/${id}/subscriptions`, { role: 'FULL_USER', endDate: inAYear() }))).answer
        .statusCode,
    ).toBe(200);
  });

  it("audits the super admin's changes to their own account: an admin role granted to and revoked from themselves", async () => {
    const superId = ids.get('SUPER_ADMIN')!;
    const granted = await api.audited(() =>
      api.post('/api/superadmin/admin-roles', { userId: superId, role: 'FLAT_FILE_ADMIN', endDate: inAYear() }, superAdmin),
    );
    expect(granted.answer.statusCode, granted.answer.body).toBe(200);
    expect(granted.audit).toMatchObject({
      action: 'role.grant',
      actor_id: superId,
      target_label: `${demoEmailForRole('SUPER_ADMIN')} · FLAT_FILE_ADMIN`,
    });
    const holder = granted.answer.data as unknown as AdminRoleHolder;
    const revoked = await api.audited(() => api.post(`/api/superadmin/admin-roles/${holder.subscriptionId}/revoke`, {}, superAdmin));
    expect(revoked.answer.statusCode, revoked.answer.body).toBe(200);
    expect(revoked.audit).toMatchObject({ action: 'role.revoke', actor_id: superId });
  });
});
