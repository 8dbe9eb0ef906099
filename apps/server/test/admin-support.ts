import { sql } from 'kysely';
import { expect } from 'vitest';
import type { InjectOptions } from 'fastify';
import type { LoginResult } from '@kb/contracts/auth';
import { authHeaders } from './harness.ts';
import type { TestApp } from './harness.ts';

/** Helpers of the account-administration API tests (modules/admin/*.api.test.ts). */

/** The address the administrator's calls come from (the audit log records it). */
export const ADMIN_IP = '203.0.113.7';

export function adminClient(t: TestApp, admin: () => LoginResult) {
  const db = () => t.database.db;
  const call = (method: InjectOptions['method'], url: string, payload?: unknown, login: LoginResult = admin()) =>
    t.call({
      method,
      url,
      headers: authHeaders(login),
      remoteAddress: ADMIN_IP,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

  const auditCount = async () =>
    (await db().selectFrom('audit_log').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow()).n;

  /** Every table an administrative change may write, for "nothing changed" (sessions' activity times aside). */
  const snapshot = async () =>
    JSON.stringify(
      await Promise.all([
        db().selectFrom('users').selectAll().orderBy('id').execute(),
        db().selectFrom('subscriptions').selectAll().orderBy('id').execute(),
        db().selectFrom('organisations').selectAll().orderBy('id').execute(),
        db().selectFrom('credit_ledger').selectAll().orderBy('id').execute(),
        db().selectFrom('audit_log').select('id').orderBy('id').execute(),
        db().selectFrom('verification_codes').select('code_hash').orderBy('code_hash').execute(),
        db().selectFrom('user_sessions').select(['id', 'closed_at']).orderBy('id').execute(),
      ]),
    );

  return {
    call,
    get: (url: string, login?: LoginResult) => call('GET', url, undefined, login),
    post: (url: string, payload: unknown = {}, login?: LoginResult) => call('POST', url, payload, login),
    put: (url: string, payload: unknown = {}, login?: LoginResult) => call('PUT', url, payload, login),
    auditCount,
    snapshot,
    /** Runs a change and asserts it wrote exactly `rows` audit rows; answers the change's answer and the newest row. */
    async audited<T>(change: () => Promise<T>, rows = 1) {
      const before = await auditCount();
      const answer = await change();
      expect(await auditCount()).toBe(before + rows);
      const last = await db().selectFrom('audit_log').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
      return { answer, audit: last };
    },
    /** A refused call (status, message) that changed nothing. */
    async refused(
      change: () => Promise<{ statusCode: number; data: Record<string, unknown>; body: string }>,
      status: number,
      message?: RegExp,
    ) {
      const before = await snapshot();
      const res = await change();
      expect(res.statusCode, res.body).toBe(status);
      if (message) expect(String(res.data.message)).toMatch(message);
      expect(await snapshot()).toBe(before);
      return res;
    },
    /** balance = SUM(ledger) for every user. */
    async ledgerMismatches() {
      const { rows } = await sql<{ email: string; balance: number; ledger: number }>`
        SELECT u.email, u.credit_balance AS balance, coalesce(sum(l.delta), 0)::int AS ledger
        FROM users u LEFT JOIN credit_ledger l ON l.user_id = u.id GROUP BY u.id HAVING u.credit_balance <> coalesce(sum(l.delta), 0)`.execute(
        db(),
      );
      return rows;
    },
  };
}
