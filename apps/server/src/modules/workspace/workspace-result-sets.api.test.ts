import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { LoginResult } from '@kb/contracts/auth';
import type { SearchCriteriaInput } from '@kb/contracts/search';
import { HISTORY_LIMIT, RESULT_SET_STATE_MAX_BYTES, ResultSetStateSchema } from '@kb/contracts/workspace';
import { DATABASES, startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { caller, workspacePeople } from './workspace.test-support.ts';
import type { WorkspacePeople } from './workspace.test-support.ts';

/**
 * Saved result sets, the colleague picker and the history through the API (docs/workspace.md):
 * every saved-set call for the owner, a reader, an editor, a colleague it is not shared with,
 * someone of another organisation and a removed account.
 */
const KI: SearchCriteriaInput = { rows: [{ selectedOption: 'activitytypes', activities: [{ activityType: 'Ki' }] }] };
const IC50: SearchCriteriaInput = { rows: [{ selectedOption: 'activitytypes', activities: [{ activityType: 'IC50' }] }] };

describe.each(DATABASES)('workspace saved result sets and history on %s', (kind) => {
  let t: TestApp;
  let p: WorkspacePeople;
  let api: ReturnType<typeof caller>;
  const R = '/api/workspace/result-sets';
  const counts = { stridscount: 3, actidscount: 7, assayidscount: 2, refidscount: 1, clinicalcompoundidscount: 0, gvkidscount: 3 };
  const state = (tab = 'activitiestab', extra: Record<string, unknown> = {}) => ({
    tab,
    criteria: KI,
    summary: 'Ki anywhere',
    filters: [{ chartKey: 'year', tab: 'activitiestab', minValue: 2000, maxValue: 2020 }],
    counts,
    filteredCounts: { activitiestab: 5 },
    view: { activitiestab: { sort: [{ colId: 'year', sort: 'desc' }], selection: { selectAll: false, selectedIds: [1, 2] } } },
    ...extra,
  });
  const save = async (login: LoginResult, name = 'Ki set') => {
    const answer = await api.post(R, login, { name, state: state() });
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.data as Record<string, unknown> & { id: number };
  };
  const statuses = async (id: number, login: LoginResult) => ({
    get: (await api.get(`${R}/${id}`, login)).statusCode,
    update: (await api.put(`${R}/${id}`, login, { description: 'by a colleague' })).statusCode,
    share: (await api.put(`${R}/${id}/sharing`, login, { visibility: 'private' })).statusCode,
    delete: (await api.del(`${R}/${id}`, login)).statusCode,
    listed: ((await api.get(R, login)).data.rows as { id: number }[]).some((row) => row.id === id),
  });
  const NOTHING = { get: 404, update: 404, share: 404, delete: 404, listed: false };
  const run = async (login: LoginResult, criteria: SearchCriteriaInput) => {
    const sessionid = crypto.randomUUID();
    const answer = await api.post('/api/guidedsearch/allresultscount', login, { sessionid, searchcriteria: criteria });
    expect(answer.statusCode, answer.body).toBe(200);
    return sessionid;
  };

  beforeAll(async () => {
    t = await startTestApp(kind, {}, { demoChunks: 1 });
    api = caller(t);
    p = await workspacePeople(t, 'rs');
  }, 180_000);
  afterAll(() => t?.close());

  it('saves a results page with its state, counts and the knowledge base version; restores it as saved', async () => {
    const saved = await save(p.logins.owner);
    expect(saved).toMatchObject({ name: 'Ki set', tab: 'activitiestab', summary: 'Ki anywhere', counts, mine: true, canEdit: true });
    expect(saved.kbVersion).toEqual(expect.any(String));
    expect(saved.currentKbVersion).toBe(saved.kbVersion);
    expect(saved.sharing).toEqual({ visibility: 'private', organisationAccess: 'read', people: [] });
    const back = await api.get(`${R}/${saved.id}`, p.logins.owner);
    // As sent, with the contract's defaults filled in.
    expect(back.data.state).toEqual(JSON.parse(JSON.stringify(ResultSetStateSchema.parse(state()))));
    expect((await api.get(R, p.logins.owner)).data.rows).toEqual([expect.objectContaining({ id: saved.id, counts, tab: 'activitiestab' })]);

    // A load finishes: the saved set says the knowledge base changed since.
    await sql`INSERT INTO kb_loads (kind, label, status, finished_at) VALUES ('update', 'workspace test', 'complete', now())`.execute(
      t.database.db,
    );
    const later = await api.get(`${R}/${saved.id}`, p.logins.owner);
    expect(later.data.kbVersion).toBe(saved.kbVersion);
    expect(later.data.currentKbVersion).not.toBe(saved.kbVersion);
    // Replacing the state takes the version of now.
    const updated = await api.put(`${R}/${saved.id}`, p.logins.owner, { state: state('structuretab', { summary: null, counts: null }) });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.data).toMatchObject({ tab: 'structuretab', summary: null, counts: null, kbVersion: later.data.currentKbVersion });
  });

  it('refuses a state that is invalid or too large', async () => {
    expect((await api.post(R, p.logins.owner, { name: 'bad', state: { ...state(), tab: 'nosuchtab' } })).statusCode).toBe(400);
    expect((await api.post(R, p.logins.owner, { name: 'bad', state: { tab: 'activitiestab' } })).statusCode).toBe(400);
    const big = await api.post(R, p.logins.owner, {
      name: 'big',
      state: state('activitiestab', { view: { x: 'y'.repeat(RESULT_SET_STATE_MAX_BYTES) } }),
    });
    expect(big.statusCode).toBe(400);
    expect(big.data.message).toMatch(/at most 256 KB/);
    expect((await api.get(R, p.logins.owner)).data.rows).not.toEqual(expect.arrayContaining([expect.objectContaining({ name: 'big' })]));
  });

  it('every call for reader, editor, bystander, other organisation and a removed account; sharing audited', async () => {
    const saved = await save(p.logins.owner, 'Shared set');
    for (const who of ['reader', 'editor', 'bystander', 'outsider', 'loner'] as const)
      expect(await statuses(saved.id, p.logins[who]), who).toEqual(NOTHING);
    const shared = await api.put(`${R}/${saved.id}/sharing`, p.logins.owner, {
      visibility: 'people',
      people: [
        { userId: p.ids.reader, access: 'read' },
        { userId: p.ids.editor, access: 'edit' },
      ],
    });
    expect(shared.statusCode, shared.body).toBe(200);
    expect((shared.data.sharing as { people: { userId: number }[] }).people.map((x) => x.userId).sort()).toEqual(
      [p.ids.reader, p.ids.editor].sort(),
    );
    const reader = await api.get(`${R}/${saved.id}`, p.logins.reader);
    expect(reader.data).toMatchObject({ mine: false, canEdit: false, sharing: null, state: state() });
    expect(await statuses(saved.id, p.logins.reader)).toEqual({ get: 200, update: 403, share: 403, delete: 403, listed: true });
    expect(await statuses(saved.id, p.logins.editor)).toEqual({ get: 200, update: 200, share: 403, delete: 403, listed: true });
    expect((await api.del(`${R}/${saved.id}`, p.logins.editor)).data.message).toMatch(/^Only the owner/);
    for (const who of ['bystander', 'outsider', 'loner'] as const) expect(await statuses(saved.id, p.logins[who]), who).toEqual(NOTHING);

    await api.put(`${R}/${saved.id}/sharing`, p.logins.owner, { visibility: 'organisation' });
    expect((await api.get(`${R}/${saved.id}`, p.logins.bystander)).statusCode).toBe(200);
    expect(await statuses(saved.id, p.logins.outsider)).toEqual(NOTHING);
    const audit = await t.database.db
      .selectFrom('audit_log')
      .select(['action', 'actor_id', 'target_label'])
      .where('target_type', '=', 'result_set')
      .where('target_id', '=', String(saved.id))
      .orderBy('id')
      .execute();
    expect(audit).toEqual([
      { action: 'result_set.share', actor_id: p.ids.owner, target_label: 'Shared set' },
      { action: 'result_set.share', actor_id: p.ids.owner, target_label: 'Shared set' },
    ]);

    // The bystander moves to the other organisation: 404 at once.
    await t.database.db.updateTable('users').set({ organisation_id: p.otherOrgId }).where('id', '=', p.ids.bystander).execute();
    try {
      expect(await statuses(saved.id, p.logins.bystander)).toEqual(NOTHING);
    } finally {
      await t.database.db.updateTable('users').set({ organisation_id: p.orgId }).where('id', '=', p.ids.bystander).execute();
    }
    expect((await api.del(`${R}/${saved.id}`, p.logins.owner)).statusCode).toBe(200);
    expect((await api.get(`${R}/${saved.id}`, p.logins.reader)).statusCode).toBe(404);
  });

  it('lists active colleagues of the caller’s organisation for the sharing dialog', async () => {
    const all = await api.get('/api/workspace/colleagues', p.logins.owner);
    expect(all.statusCode, all.body).toBe(200);
    expect(all.data.organisation).toBe('Acme rs');
    const names = (all.data.rows as { name: string; userId: number }[]).map((row) => row.name);
    expect(names).toEqual(['Bystander rs', 'Editor rs', 'Reader rs']);
    const found = await api.get('/api/workspace/colleagues?q=EDIT', p.logins.owner);
    expect(found.data.rows).toEqual([{ userId: p.ids.editor, name: 'Editor rs', email: 'editor.rs@ws.test' }]);
    expect((await api.get('/api/workspace/colleagues?q=%25', p.logins.owner)).data.rows).toEqual([]);
    const sleeper = await p.newColleague('sleeper');
    await t.database.db.updateTable('users').set({ active: false }).where('id', '=', sleeper.id).execute();
    expect((await api.get('/api/workspace/colleagues?q=sleeper', p.logins.owner)).data.rows).toEqual([]);
    expect((await api.get('/api/workspace/colleagues', p.logins.loner)).data).toEqual({ organisation: null, rows: [] });
    expect((await api.get('/api/workspace/colleagues', p.logins.outsider)).data).toEqual({ organisation: 'Beta rs', rows: [] });
  });

  it('history: the caller’s searches that ran, newest first, with counts, criteria and each tab’s filters', async () => {
    const first = await run(p.logins.reader, KI);
    const second = await run(p.logins.reader, IC50);
    await run(p.logins.editor, KI);
    const applied = await api.post('/api/results/applyfilters/activitiestab', p.logins.reader, {
      sessionid: first,
      filters: [{ chartKey: 'year', minValue: 1990, maxValue: 2030 }],
    });
    expect(applied.statusCode, applied.body).toBe(200);
    // A session whose stored criteria no longer read, and one that never ran.
    const db = t.database.db;
    const broken = crypto.randomUUID();
    await sql`INSERT INTO search_sessions (id, user_id, kind, status, criteria, counts, filters, created_at)
      VALUES (${broken}, ${p.ids.reader}, 'search', 'ready', '{"rows": "not a list"}', ${JSON.stringify(counts)}, '{"activitiestab": [{"chartKey": 5}]}', now() - interval '1 hour')`.execute(
      db,
    );
    await sql`INSERT INTO search_sessions (id, user_id, kind, status) VALUES (${crypto.randomUUID()}, ${p.ids.reader}, 'search', 'new')`.execute(
      db,
    );

    const history = await api.get('/api/workspace/history', p.logins.reader);
    expect(history.statusCode, history.body).toBe(200);
    const rows = history.data.rows as { sessionid: string; kind: string; counts: unknown; criteria: unknown; filters: unknown[] }[];
    expect(rows.map((row) => row.sessionid)).toEqual([second, first, broken]);
    const stored = await db.selectFrom('search_sessions').select(['id', 'counts']).where('id', 'in', [first, second]).execute();
    const countsOf = (id: string) => {
      const value = stored.find((row) => row.id === id)!.counts;
      return typeof value === 'string' ? JSON.parse(value) : value;
    };
    expect(rows[0]).toMatchObject({ kind: 'search', counts: countsOf(second), filters: [] });
    expect((rows[0]!.criteria as { rows: unknown[] }).rows).toHaveLength(1);
    expect(rows[1]).toMatchObject({
      counts: countsOf(first),
      filters: [{ chartKey: 'year', tab: 'activitiestab', minValue: 1990, maxValue: 2030 }],
    });
    expect(rows[2]).toMatchObject({ criteria: null, counts, filters: [] });
    expect(HISTORY_LIMIT).toBe(100);
    // Nobody else's searches.
    expect(((await api.get('/api/workspace/history', p.logins.owner)).data.rows as unknown[]).length).toBe(0);
  });
});
