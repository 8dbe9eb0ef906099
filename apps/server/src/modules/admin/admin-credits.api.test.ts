import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { CreditLedger } from '@kb/contracts/admin-accounts';
import type { LoginResult } from '@kb/contracts/auth';
import { demoEmailForRole } from '@kb/contracts/roles';
import type { SearchCriteriaInput } from '@kb/contracts/search';
import { DATABASES, authHeaders, startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { adminClient } from '../../../test/admin-support.ts';

/*
 * The credit ledger (issue 16): every movement — administrators' grants and adjustments, the user's
 * exports and their refunds — is one ledger row, and the balance is always the sum of the ledger,
 * also when grants and exports of one user race.
 */

const KI: SearchCriteriaInput = { rows: [{ selectedOption: 'activitytypes', activities: [{ activityType: 'Ki' }] }] };

describe.each(DATABASES)('credit administration on %s', (kind) => {
  let t: TestApp;
  let admin: LoginResult;
  let user: LoginResult;
  let sessionid: string;
  let api: ReturnType<typeof adminClient>;
  const balanceOf = async (id: number) =>
    (await t.database.db.selectFrom('users').select('credit_balance').where('id', '=', id).executeTakeFirstOrThrow()).credit_balance;
  const ledgerSum = async (id: number) =>
    (await sql<{ n: number }>`SELECT coalesce(sum(delta), 0)::int AS n FROM credit_ledger WHERE user_id = ${id}`.execute(t.database.db))
      .rows[0]!.n;

  beforeAll(async () => {
    t = await startTestApp(kind, {}, { demoChunks: 1 });
    admin = await t.login(demoEmailForRole('GOSTAR_ADMIN'));
    user = await t.login(demoEmailForRole('FULL_USER'));
    api = adminClient(t, () => admin);
    sessionid = crypto.randomUUID();
    const search = await t.call({
      method: 'POST',
      url: '/api/guidedsearch/allresultscount',
      headers: authHeaders(user),
      payload: { searchcriteria: KI, sessionid },
    });
    expect(search.statusCode, search.body).toBe(200);
  }, 180_000);
  afterAll(() => t.close());

  it('starts every balance from the ledger: the seeded credits are opening rows', async () => {
    expect(await api.ledgerMismatches()).toEqual([]);
    const res = await api.get(`/api/admin/users/${user.id}/credits`);
    expect(res.statusCode, res.body).toBe(200);
    const ledger = res.data as unknown as CreditLedger;
    expect(ledger).toMatchObject({
      balance: 5000,
      total: 1,
      rows: [{ delta: 5000, kind: 'opening', balanceAfter: 5000, actorEmail: null, exportJobId: null }],
    });
  });

  it('grants and adjusts with a reason, one ledger row and one audit row each, never below zero', async () => {
    const before = await balanceOf(user.id);
    const { answer, audit } = await api.audited(() =>
      api.post(`/api/admin/users/${user.id}/credits`, { kind: 'grant', delta: 300, reason: 'Renewal bonus' }),
    );
    expect(answer.statusCode, answer.body).toBe(200);
    const ledger = answer.data as unknown as CreditLedger;
    expect(ledger.balance).toBe(before + 300);
    expect(ledger.rows[0]).toMatchObject({
      delta: 300,
      kind: 'grant',
      reason: 'Renewal bonus',
      actorEmail: admin.username,
      balanceAfter: before + 300,
    });
    expect(audit).toMatchObject({
      action: 'credits.grant',
      target_type: 'credits',
      target_id: String(user.id),
      before: { balance: before },
      after: { balance: before + 300, delta: 300 },
    });

    const { answer: taken } = await api.audited(() =>
      api.post(`/api/admin/users/${user.id}/credits`, { kind: 'adjustment', delta: -100, reason: 'Correction' }),
    );
    expect((taken.data as unknown as CreditLedger).balance).toBe(before + 200);

    const balance = before + 200;
    await api.refused(
      () => api.post(`/api/admin/users/${user.id}/credits`, { kind: 'adjustment', delta: -(balance + 1), reason: 'Too much' }),
      400,
      /would leave fewer than zero/,
    );
    await api.refused(
      () => api.post(`/api/admin/users/${user.id}/credits`, { kind: 'grant', delta: -5, reason: 'Sneaky' }),
      400,
      /make an adjustment/,
    );
    await api.refused(
      () => api.post(`/api/admin/users/${user.id}/credits`, { kind: 'grant', delta: 0, reason: 'Nothing' }),
      400,
      /must not be zero/,
    );
    await api.refused(
      () => api.post(`/api/admin/users/${user.id}/credits`, { kind: 'grant', delta: 2.5, reason: 'Half' }),
      400,
      /whole number/,
    );
    await api.refused(
      () => api.post(`/api/admin/users/${user.id}/credits`, { kind: 'grant', delta: '10', reason: 'Text' }),
      400,
      /whole number/,
    );
    await api.refused(
      () => api.post(`/api/admin/users/${user.id}/credits`, { kind: 'grant', delta: 10_000_001, reason: 'Huge' }),
      400,
      /At most 10,000,000/,
    );
    await api.refused(
      () => api.post(`/api/admin/users/${user.id}/credits`, { kind: 'grant', delta: 10, reason: '  ' }),
      400,
      /Give a reason/,
    );
    await api.refused(() => api.post(`/api/admin/users/${user.id}/credits`, { kind: 'opening', delta: 10, reason: 'Kind' }), 400);
    await api.refused(() => api.post('/api/admin/users/999999/credits', { kind: 'grant', delta: 10, reason: 'Ghost' }), 404);
    expect((await api.get('/api/admin/users/999999/credits')).statusCode).toBe(404);
    expect(await balanceOf(user.id)).toBe(await ledgerSum(user.id));
  });

  it('keeps balance = SUM(ledger) through 20 concurrent admin grants and user exports', async () => {
    const { rows: picked } = await sql<{
      act_id: number;
    }>`SELECT act_id FROM activities WHERE std_activity_type = 'Ki' ORDER BY act_id LIMIT 3`.execute(t.database.db);
    const selection = { selectedIds: picked.map((r) => r.act_id) };
    // Start from a small balance so some exports find it short while grants top it up.
    const start = await balanceOf(user.id);
    await api.post(`/api/admin/users/${user.id}/credits`, { kind: 'adjustment', delta: 10 - start, reason: 'Race set-up' });
    const calls = Array.from({ length: 20 }, (_, i) =>
      i % 2 === 0
        ? api.post(`/api/admin/users/${user.id}/credits`, { kind: 'grant', delta: 2, reason: `Race grant ${i}` })
        : t.call({
            method: 'POST',
            url: '/api/export/start',
            headers: authHeaders(user),
            payload: { sessionid, tab: 'activitiestab', selection, format: 'csv', columns: ['act_id'] },
          }),
    );
    const answers = await Promise.all(calls);
    const grants = answers.filter((_, i) => i % 2 === 0);
    const exports = answers.filter((_, i) => i % 2 === 1);
    expect(grants.map((a) => a.statusCode)).toEqual(Array(10).fill(200));
    for (const a of exports) expect([200, 402], a.body).toContain(a.statusCode);
    const charged = exports.filter((a) => a.statusCode === 200).length;
    expect(charged).toBeGreaterThan(0);
    expect(await balanceOf(user.id)).toBe(10 + 10 * 2 - charged * 3);
    expect(await balanceOf(user.id)).toBe(await ledgerSum(user.id));
    expect(await api.ledgerMismatches()).toEqual([]);
    // Each charged export is one ledger row naming its job; the rows' running balances chain.
    const exportRows = await t.database.db
      .selectFrom('credit_ledger')
      .select(['export_job_id', 'delta'])
      .where('user_id', '=', user.id)
      .where('kind', '=', 'export')
      .execute();
    expect(exportRows.filter((r) => r.export_job_id !== null && r.delta === -3).length).toBeGreaterThanOrEqual(charged);
    const chain = await t.database.db
      .selectFrom('credit_ledger')
      .select(['delta', 'balance_after'])
      .where('user_id', '=', user.id)
      .orderBy('id')
      .execute();
    let running = 0;
    for (const row of chain) {
      running += row.delta;
      expect(row.balance_after).toBe(running);
    }
  });
});
