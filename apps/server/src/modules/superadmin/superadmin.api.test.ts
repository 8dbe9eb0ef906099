import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { sql } from 'kysely';
import { PRODUCT_SLUG } from '@kb/contracts/auth';
import type { Role } from '@kb/contracts/roles';
import { ROLES, demoEmailForRole } from '@kb/contracts/roles';
import type {
  AdminRoleHolder,
  AdminRoleHolders,
  AuditPage,
  DatasetState,
  OpenSessions,
  RebuildJob,
  SettingsState,
  UserSearchResult,
} from '@kb/contracts/superadmin';
import { superAdminEndpoints } from '@kb/contracts/superadmin';
import { DATABASES, authHeaders, startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { structuresRevision } from '../knowledge-base/kb-loads.ts';

const inOneYear = () => new Date(Date.now() + 365 * 86_400_000).toISOString().slice(0, 10);
let nextAddress = 1;
const freshAddress = () => `10.77.${Math.floor(nextAddress / 250)}.${(nextAddress++ % 250) + 1}`;

describe.each(DATABASES)('super admin on %s', (kind) => {
  let t: TestApp;
  let superAdmin: Record<string, string>;
  const call = (options: InjectOptions) => t.call(options);
  const get = (url: string, headers = superAdmin) => call({ method: 'GET', url, headers });
  const post = (url: string, payload: unknown = {}, headers = superAdmin) =>
    call({ method: 'POST', url, headers, payload: payload as Record<string, unknown> });
  const put = (url: string, payload: unknown, headers = superAdmin) =>
    call({ method: 'PUT', url, headers, payload: payload as Record<string, unknown> });
  const auditRows = async (query: string) => (await get(`/api/superadmin/audit?${query}`)).data as unknown as AuditPage;
  const userId = async (email: string) => {
    const found = (await get(`/api/superadmin/users?q=${encodeURIComponent(email)}`)).data as unknown as UserSearchResult;
    const row = found.rows.find((r) => r.email === email);
    if (!row) throw new Error(`no user ${email}`);
    return row.userId;
  };
  const grant = async (email: string, role: Role, headers = superAdmin) =>
    post('/api/superadmin/admin-roles', { userId: await userId(email), role, endDate: inOneYear() }, headers);

  beforeAll(async () => {
    t = await startTestApp(kind);
    superAdmin = authHeaders(await t.login(demoEmailForRole('SUPER_ADMIN')));
  });
  afterAll(() => t.close());

  it('refuses every super-admin call to every other role (GOSTAR_ADMIN included) with 403, and without a session with 401', async () => {
    const calls = Object.values(superAdminEndpoints).map((e) => ({
      method: e.method,
      url: e.path.replace(':subscriptionId', '1').replace(':sessionId', '00000000-0000-4000-8000-000000000000'),
    }));
    for (const role of ROLES.filter((r) => r !== 'SUPER_ADMIN')) {
      const headers = authHeaders(await t.login(demoEmailForRole(role)));
      for (const c of calls) {
        const res = await call({ ...c, headers, ...(c.method === 'GET' ? {} : { payload: {} }) });
        expect(res.statusCode, `${role} ${c.method} ${c.url}`).toBe(403);
      }
    }
    for (const c of calls) expect((await call(c)).statusCode, `${c.method} ${c.url}`).toBe(401);
    const before = await t.database.db
      .selectFrom('subscriptions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const gostar = authHeaders(await t.login(demoEmailForRole('GOSTAR_ADMIN')));
    const target = await t.database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', demoEmailForRole('FULL_USER'))
      .executeTakeFirstOrThrow();
    expect(
      (await post('/api/superadmin/admin-roles', { userId: target.id, role: 'GOSTAR_ADMIN', endDate: inOneYear() }, gostar)).statusCode,
    ).toBe(403);
    const after = await t.database.db
      .selectFrom('subscriptions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('grants an admin role that applies at the holder’s next request, and revokes it the same way, one audit row each', async () => {
    const email = demoEmailForRole('FULL_USER');
    const holder = authHeaders(await t.login(email));
    expect((await get('/api/admin/trackers/logins', holder)).statusCode).toBe(403);

    const granted = await grant(email, 'FLAT_FILE_ADMIN');
    expect(granted.statusCode).toBe(200);
    const role = granted.data as unknown as AdminRoleHolder;
    // A new holder has no authenticator yet (the list says so; a super admin may reset it once enrolled).
    expect(role).toMatchObject({ email, role: 'FLAT_FILE_ADMIN', status: 'active', mfaEnrolled: false });
    const listed = (await get('/api/superadmin/admin-roles')).data as unknown as AdminRoleHolders;
    expect(listed.rows.some((r) => r.subscriptionId === role.subscriptionId)).toBe(true);
    // The same token, no new login: the role is read on every request. Admin calls then need the
    // second factor (docs/administration.md), so the session is asked to enrol, not refused the role.
    const asked = await get('/api/admin/trackers/logins', holder);
    expect(asked.statusCode).toBe(403);
    expect(asked.data.code).toBe('MFA_ENROLMENT_REQUIRED');
    const admin = authHeaders(await t.login(email));
    expect((await get('/api/admin/trackers/logins', admin)).statusCode).toBe(200);
    // Granting the same role again in an overlapping period is refused.
    expect((await grant(email, 'FLAT_FILE_ADMIN')).statusCode).toBe(409);

    const revoked = await post(`/api/superadmin/admin-roles/${role.subscriptionId}/revoke`);
    expect(revoked.statusCode).toBe(200);
    const refused = await get('/api/admin/trackers/logins', admin);
    expect(refused.statusCode).toBe(403);
    expect(refused.data.code).toBe('FORBIDDEN');
    // Still a FULL_USER: the session stays open for what the user may do.
    expect((await get('/api/profile', admin)).statusCode).toBe(200);
    expect((await post(`/api/superadmin/admin-roles/${role.subscriptionId}/revoke`)).statusCode).toBe(400);
    const listedAfter = (await get('/api/superadmin/admin-roles')).data as unknown as AdminRoleHolders;
    expect(listedAfter.rows.some((r) => r.subscriptionId === role.subscriptionId)).toBe(false);

    const audit = await auditRows(`targetType=role&target=${encodeURIComponent(email)}`);
    expect(audit.rows.map((r) => r.action)).toEqual(['role.revoke', 'role.grant']);
    expect(audit.rows[0]).toMatchObject({ actorEmail: demoEmailForRole('SUPER_ADMIN'), targetId: String(role.subscriptionId) });
    expect(audit.rows[0]!.before).toMatchObject({ role: 'FLAT_FILE_ADMIN', user: email });
  });

  it('refuses a grant with a bad role, a past end date or an unknown user (400/404), changing nothing', async () => {
    const id = await userId(demoEmailForRole('EVALUATE_USER'));
    const before = (await auditRows('')).total;
    expect((await post('/api/superadmin/admin-roles', { userId: id, role: 'FULL_USER', endDate: inOneYear() })).statusCode).toBe(400);
    expect((await post('/api/superadmin/admin-roles', { userId: id, role: 'GOSTAR_ADMIN', endDate: '2001-01-01' })).statusCode).toBe(400);
    expect((await post('/api/superadmin/admin-roles', { userId: id, role: 'GOSTAR_ADMIN', endDate: 'soon' })).statusCode).toBe(400);
    expect((await post('/api/superadmin/admin-roles', { userId: 999_999, role: 'GOSTAR_ADMIN', endDate: inOneYear() })).statusCode).toBe(
      404,
    );
    expect((await auditRows('')).total).toBe(before);
  });

  it('closes another user’s session: that session’s next call is 401, with one audit row; the caller’s own is refused', async () => {
    const email = demoEmailForRole('DOWNLOAD_EVALUATOR');
    const login = await t.login(email);
    const victim = authHeaders(login);
    expect((await get('/api/profile', victim)).statusCode).toBe(200);
    const open = (await get(`/api/superadmin/sessions?q=${encodeURIComponent(email)}`)).data as unknown as OpenSessions;
    expect(open.total).toBeGreaterThanOrEqual(1);
    const session = open.rows.find((r) => r.sessionId === login.sessionId);
    expect(session).toMatchObject({ email, current: false });

    const closed = await post(`/api/superadmin/sessions/${login.sessionId}/close`);
    expect(closed.statusCode).toBe(200);
    expect((await get('/api/profile', victim)).statusCode).toBe(401);
    expect((await post(`/api/superadmin/sessions/${login.sessionId}/close`)).statusCode).toBe(404);
    const row = await t.database.db
      .selectFrom('user_sessions')
      .select('close_reason')
      .where('id', '=', login.sessionId)
      .executeTakeFirstOrThrow();
    expect(row.close_reason).toBe('closed_by_admin');
    const audit = await auditRows(`action=session.close&target=${login.sessionId}`);
    expect(audit.total).toBe(1);

    const mine = (await get(`/api/superadmin/sessions?q=${encodeURIComponent(demoEmailForRole('SUPER_ADMIN'))}`))
      .data as unknown as OpenSessions;
    const own = mine.rows.find((r) => r.current);
    expect(own).toBeDefined();
    expect((await post(`/api/superadmin/sessions/${own!.sessionId}/close`)).statusCode).toBe(400);
    expect((await get('/api/superadmin/overview')).statusCode).toBe(200);
  });

  it('refuses out-of-range and non-numeric settings with 400 and changes nothing', async () => {
    const before = (await get('/api/superadmin/settings')).data as unknown as SettingsState;
    expect(before.values).toEqual(before.defaults);
    for (const body of [
      { loginPerAccountAddress: 0 },
      { loginPerAccountAddress: 'three' },
      { loginPerAccountAddress: 2.5 },
      { exportBackgroundFromRows: 10_000_000 },
      { loginKnownAddressDays: -1 },
      {},
    ]) {
      const res = await put('/api/superadmin/settings', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(String(res.data.message)).not.toBe('');
    }
    const after = (await get('/api/superadmin/settings')).data as unknown as SettingsState;
    expect(after.values).toEqual(before.values);
    expect((await auditRows('targetType=setting')).total).toBe(0);
  });

  it('applies a lower login limit at the next login, without a restart, with one audit row', async () => {
    const email = 'lowcredit@demo.test';
    const wrong = (ip: string) =>
      call({
        method: 'POST',
        url: `/api/pub/${PRODUCT_SLUG}/generate-token`,
        payload: { username: email, password: 'not the password' },
        remoteAddress: ip,
      });
    // Default (5 per account and address): two wrong passwords do not lock the account.
    const first = freshAddress();
    for (let i = 0; i < 2; i++) expect((await wrong(first)).data.code).toBe('BAD_CREDENTIALS');
    await t.login(email, undefined, first);

    const changed = await put('/api/superadmin/settings', { loginPerAccountAddress: 2, exportBackgroundFromRows: 5_000 });
    expect(changed.statusCode).toBe(200);
    expect((changed.data as unknown as SettingsState).values).toMatchObject({ loginPerAccountAddress: 2, exportBackgroundFromRows: 5_000 });

    const second = freshAddress();
    for (let i = 0; i < 2; i++) expect((await wrong(second)).data.code).toBe('BAD_CREDENTIALS');
    await expect(t.login(email, undefined, second)).rejects.toThrow(/429/);

    const audit = await auditRows('targetType=setting');
    expect(audit.total).toBe(1);
    expect(audit.rows[0]).toMatchObject({
      action: 'setting.update',
      before: { loginPerAccountAddress: 5 },
      after: { loginPerAccountAddress: 2, exportBackgroundFromRows: 5_000 },
    });
    // Writing the same values again is no change: no audit row.
    expect((await put('/api/superadmin/settings', { loginPerAccountAddress: 2 })).statusCode).toBe(200);
    expect((await auditRows('targetType=setting')).total).toBe(1);
    // Back to the default for the other tests.
    expect((await put('/api/superadmin/settings', { loginPerAccountAddress: 5 })).statusCode).toBe(200);
  });

  it('searches the audit log by text, actor, action, target type and dates, newest first and paged', async () => {
    const all = await auditRows('pageSize=200');
    expect(all.total).toBeGreaterThanOrEqual(4);
    for (let i = 1; i < all.rows.length; i++) expect(all.rows[i]!.createdAt <= all.rows[i - 1]!.createdAt).toBe(true);
    const roles = await auditRows('action=role');
    expect(roles.total).toBeGreaterThanOrEqual(2);
    expect(roles.rows.every((r) => r.action.startsWith('role.'))).toBe(true);
    const sessions = await auditRows('targetType=session');
    expect(sessions.rows.every((r) => r.targetType === 'session')).toBe(true);
    expect(sessions.total).toBe(1);
    const byText = await auditRows(`q=${encodeURIComponent(demoEmailForRole('DOWNLOAD_EVALUATOR'))}`);
    expect(byText.total).toBe(1);
    expect((await auditRows(`actor=${encodeURIComponent('nobody@nowhere.test')}`)).total).toBe(0);
    expect((await auditRows(`actor=super-admin`)).total).toBe(all.total);
    expect((await auditRows('to=2001-01-01')).total).toBe(0);
    const today = new Date().toISOString().slice(0, 10);
    expect((await auditRows(`from=${today}&to=${today}`)).total).toBe(all.total);
    const page = await auditRows('pageSize=1&page=2');
    expect(page.rows).toHaveLength(1);
    expect(page.rows[0]!.id).toBe(all.rows[1]!.id);
    expect((await get('/api/superadmin/audit?from=2030-01-02&to=2030-01-01')).statusCode).toBe(400);
    expect((await get('/api/superadmin/audit?pageSize=5000')).statusCode).toBe(400);
  });

  it('does not start a rebuild whose audit row cannot be written', async () => {
    const db = t.database.db;
    // A real failure of the audit write: the database refuses the row (a trigger of this test).
    await sql`CREATE FUNCTION refuse_rebuild_audit() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN IF NEW.action = 'dataset.rebuild' THEN RAISE EXCEPTION 'audit refused by the test'; END IF; RETURN NEW; END $$`.execute(
      db,
    );
    await sql`CREATE TRIGGER refuse_rebuild_audit BEFORE INSERT ON audit_log FOR EACH ROW EXECUTE FUNCTION refuse_rebuild_audit()`.execute(
      db,
    );
    try {
      const res = await post('/api/superadmin/dataset/rebuild');
      expect(res.statusCode).toBe(500);
      await t.app.services.derivedDataRebuild.settled();
      expect(((await get('/api/superadmin/dataset/rebuild')).data as unknown as RebuildJob).state).toBe('idle');
    } finally {
      await sql`DROP TRIGGER refuse_rebuild_audit ON audit_log`.execute(db);
      await sql`DROP FUNCTION refuse_rebuild_audit()`.execute(db);
    }
    expect((await auditRows('action=dataset.rebuild')).total).toBe(0);
  });

  it('rebuilds the derived data in the background, refuses a second rebuild while it runs, and fills missing fingerprints', async () => {
    const db = t.database.db;
    await db.insertInto('structures').values({ smiles: 'Oc1ccccc1', canonical_smiles: 'Oc1ccccc1' }).execute();
    const before = (await get('/api/superadmin/dataset')).data as unknown as DatasetState;
    expect(before.structureIndex.structures).toBeGreaterThanOrEqual(1);
    expect(before.structureIndex.withMorganFingerprint).toBeLessThan(before.structureIndex.structures);
    expect(before.counts.find((c) => c.table === 'structures')?.rows).toBe(before.structureIndex.structures);

    const revision = await structuresRevision(db);
    const started = await post('/api/superadmin/dataset/rebuild');
    expect(started.statusCode).toBe(200);
    expect((started.data as unknown as RebuildJob).state).toBe('running');
    const again = await post('/api/superadmin/dataset/rebuild');
    expect(again.statusCode).toBe(409);
    await t.app.services.derivedDataRebuild.settled();
    const job = (await get('/api/superadmin/dataset/rebuild')).data as unknown as RebuildJob;
    expect(job).toMatchObject({ state: 'done', percent: 100, error: null, startedBy: demoEmailForRole('SUPER_ADMIN') });
    expect(job.log.some((line) => line.startsWith('Fingerprints computed for 1 structures'))).toBe(true);
    // Copies of the structures (the structure index's local snapshot) see them stale.
    expect(await structuresRevision(db)).not.toBe(revision);

    const after = (await get('/api/superadmin/dataset')).data as unknown as DatasetState;
    expect(after.structureIndex.withMorganFingerprint).toBe(after.structureIndex.structures);
    expect(after.structureIndex.withPatternFingerprint).toBe(after.structureIndex.structures);
    expect(after.treesRefreshedAt).not.toBeNull();
    // One audit row (none for the refused second call), with the start time of the job.
    const audit = await auditRows('action=dataset.rebuild');
    expect(audit.total).toBe(1);
    expect(audit.rows[0]?.after).toEqual({ startedAt: job.startedAt });
  });

  it('sends a test mail to the super admin’s own address through the outbox', async () => {
    const res = await post('/api/superadmin/mail/test');
    expect(res.statusCode).toBe(200);
    // The newest mail to the super admin (their two-step set-up was mailed to them before).
    const mail = await t.database.db
      .selectFrom('outbox')
      .select(['subject'])
      .where('recipient', '=', demoEmailForRole('SUPER_ADMIN'))
      .orderBy('id', 'desc')
      .executeTakeFirst();
    expect(mail?.subject).toBe('Test mail from the knowledge base');
    const state = (await get('/api/superadmin/settings')).data as unknown as SettingsState;
    expect(state.mail).toMatchObject({ smtpConfigured: false });
    expect(state.mail.outboxPending).toBeGreaterThanOrEqual(1);
  });

  it('refuses to revoke the last super admin, and lets another super admin do it once there are two', async () => {
    const own = ((await get('/api/superadmin/admin-roles')).data as unknown as AdminRoleHolders).rows.find(
      (r) => r.email === demoEmailForRole('SUPER_ADMIN') && r.role === 'SUPER_ADMIN',
    );
    expect(own).toBeDefined();
    expect(own!.mfaEnrolled).toBe(true);
    const refused = await post(`/api/superadmin/admin-roles/${own!.subscriptionId}/revoke`);
    expect(refused.statusCode).toBe(400);
    expect(String(refused.data.message)).toMatch(/last super admin/);
    expect((await get('/api/superadmin/overview')).statusCode).toBe(200);

    const second = demoEmailForRole('GOSTAR_ADMIN');
    const secondHeaders = authHeaders(await t.login(second));
    expect((await get('/api/superadmin/overview', secondHeaders)).statusCode).toBe(403);
    expect((await grant(second, 'SUPER_ADMIN')).statusCode).toBe(200);
    expect((await get('/api/superadmin/overview', secondHeaders)).statusCode).toBe(200);
    // The second revokes the first; the first held no other role, so their session ends.
    expect((await post(`/api/superadmin/admin-roles/${own!.subscriptionId}/revoke`, {}, secondHeaders)).statusCode).toBe(200);
    expect((await get('/api/superadmin/overview')).statusCode).toBe(401);
    const mine = ((await get('/api/superadmin/admin-roles', secondHeaders)).data as unknown as AdminRoleHolders).rows.find(
      (r) => r.email === second && r.role === 'SUPER_ADMIN',
    );
    const last = await post(`/api/superadmin/admin-roles/${mine!.subscriptionId}/revoke`, {}, secondHeaders);
    expect(last.statusCode).toBe(400);
    expect(String(last.data.message)).toMatch(/You are the last super admin/);
  });
});
