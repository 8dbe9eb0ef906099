import { sql } from 'kysely';
import type { LoginResult } from '@kb/contracts/auth';
import { demoEmailForRole } from '@kb/contracts/roles';
import { authHeaders } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';

/**
 * The people of the workspace tests: an owner and colleagues of one organisation (one given read
 * access by name, one edit access, one given nothing), someone of another organisation, and
 * someone of no organisation. Real accounts with a running FULL_USER subscription, logged in
 * through the API.
 */
const PEOPLE = ['owner', 'reader', 'editor', 'bystander', 'outsider', 'loner'] as const;
type PersonKey = (typeof PEOPLE)[number];

export interface WorkspacePeople {
  orgId: number;
  otherOrgId: number;
  ids: Record<PersonKey, number>;
  logins: Record<PersonKey, LoginResult>;
  /** A new account of the organisation (for tests that move or deactivate it). */
  newColleague(key: string): Promise<{ id: number; login: LoginResult }>;
}

export async function workspacePeople(t: TestApp, tag: string): Promise<WorkspacePeople> {
  const db = t.database.db;
  const org = async (name: string) => (await db.insertInto('organisations').values({ name }).returning('id').executeTakeFirstOrThrow()).id;
  const orgId = await org(`Acme ${tag}`);
  const otherOrgId = await org(`Beta ${tag}`);
  const { password_hash: hash } = await db
    .selectFrom('users')
    .select('password_hash')
    .where('email', '=', demoEmailForRole('FULL_USER'))
    .executeTakeFirstOrThrow();
  const user = async (key: string, organisationId: number | null) => {
    const email = `${key}.${tag}@ws.test`;
    const { id } = await db
      .insertInto('users')
      .values({
        email,
        first_name: key[0]!.toUpperCase() + key.slice(1),
        last_name: tag,
        organisation_id: organisationId,
        active: true,
        password_hash: hash,
        is_new_user: false,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await sql`INSERT INTO subscriptions (user_id, role_name, contract_id, start_date, end_date)
      VALUES (${id}, 'FULL_USER', 'T', now() - interval '1 day', now() + interval '100 days')`.execute(db);
    return { id, login: await t.login(email) };
  };
  const ids = {} as Record<PersonKey, number>;
  const logins = {} as Record<PersonKey, LoginResult>;
  for (const key of PEOPLE) {
    const made = await user(key, key === 'outsider' ? otherOrgId : key === 'loner' ? null : orgId);
    ids[key] = made.id;
    logins[key] = made.login;
  }
  return { orgId, otherOrgId, ids, logins, newColleague: (key) => user(key, orgId) };
}

/** JSON calls as one person. */
export function caller(t: TestApp) {
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, login: LoginResult, payload?: unknown) =>
    t.call({ method, url, headers: authHeaders(login), ...(payload === undefined ? {} : { payload: payload as object }) });
  return {
    get: (url: string, login: LoginResult) => call('GET', url, login),
    post: (url: string, login: LoginResult, payload: unknown) => call('POST', url, login, payload),
    put: (url: string, login: LoginResult, payload: unknown) => call('PUT', url, login, payload),
    del: (url: string, login: LoginResult) => call('DELETE', url, login),
  };
}

/** Some structure ids of the knowledge base, lowest first. */
export async function someStrIds(t: TestApp, n: number, offset = 0): Promise<number[]> {
  const rows = await t.database.db.selectFrom('structures').select('str_id').orderBy('str_id').limit(n).offset(offset).execute();
  return rows.map((row) => Number(row.str_id));
}
