import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { LoginResult } from '@kb/contracts/auth';
import type { SearchCounts, SearchRowInput } from '@kb/contracts/search';
import { SearchCriteriaSchema } from '@kb/contracts/search';
import { DATABASES, startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { SEARCH_SET_TABLES } from '../../db/tables/search-tables.ts';
import { callerOf, searchServiceBeside } from '../../../test/search-services.ts';
import { ResultsService } from '../results/results-service.ts';
import { caller, workspacePeople } from './workspace.test-support.ts';
import type { WorkspacePeople } from './workspace.test-support.ts';

/**
 * A collection as a search row, "In collection …" (docs/search-semantics.md, docs/workspace.md):
 * it matches what a selection of the same structures matches, alone and with AND / OR / NOT, on
 * the count call and in a search session; it is read with the workspace's access rule for whom the
 * search runs, and refused in the same words whether the collection is missing or not shared.
 */
describe.each(DATABASES)('searching by collection on %s', (kind) => {
  let t: TestApp;
  let p: WorkspacePeople;
  let api: ReturnType<typeof caller>;
  /** The target with the most structures, and structures with and without activities on it. */
  let targetId: number;
  let onTarget: number[];
  let offTarget: number[];
  let members: number[];
  let collectionId: number;
  const C = '/api/workspace/collections';
  const NOT_SHARED = 'Row 1 (collection): this collection does not exist or is not shared with you.';

  const inCollection = (id: number, operator: 'AND' | 'OR' | 'NOT' = 'AND'): SearchRowInput => ({
    selectedOption: 'collection',
    collectionId: id,
    label: 'Hits on the top target',
    operator,
  });
  const selection = (ids: number[], operator: 'AND' | 'OR' | 'NOT' = 'AND'): SearchRowInput => ({
    selectedOption: 'selection',
    entity: 'structure',
    ids,
    operator,
  });
  const target = (operator: 'AND' | 'OR' | 'NOT' = 'AND'): SearchRowInput => ({
    selectedOption: 'target',
    targets: [{ label: 'top target', ids: [targetId] }],
    operator,
  });
  const activityType = (type: string): SearchRowInput => ({ selectedOption: 'activitytypes', activities: [{ activityType: type }] });

  /** The count call (`/api/guidedsearch/count`, no session) as `login`. */
  const count = (login: LoginResult, rows: SearchRowInput[]) => api.post('/api/guidedsearch/count', login, { searchcriteria: { rows } });
  const counted = async (login: LoginResult, rows: SearchRowInput[]) => {
    const answer = await count(login, rows);
    expect(answer.statusCode, answer.body).toBe(200);
    return (answer.data.rows as Omit<SearchCounts, 'gvkidscount'>[])[0]!;
  };
  /** A search session's six counts (`allresultscount`) as `login`. */
  const ran = async (login: LoginResult, rows: SearchRowInput[], sessionid: string = crypto.randomUUID()) => {
    const answer = await api.post('/api/guidedsearch/allresultscount', login, { searchcriteria: { rows }, sessionid });
    expect(answer.statusCode, answer.body).toBe(200);
    return { sessionid, counts: (answer.data.rows as SearchCounts[])[0]! };
  };
  const createCollection = async (login: LoginResult, name: string, strIds: number[]) => {
    const answer = await api.post(C, login, strIds.length ? { name, source: { kind: 'ids', strIds } } : { name });
    expect(answer.statusCode, answer.body).toBe(200);
    return (answer.data as { id: number }).id;
  };

  beforeAll(async () => {
    t = await startTestApp(kind, {}, { demoChunks: 1 });
    api = caller(t);
    p = await workspacePeople(t, 'csearch');
    const db = t.database.db;
    const top = await sql<{ target_id: number }>`SELECT target_id FROM activities
      WHERE str_id IS NOT NULL AND target_id IS NOT NULL GROUP BY target_id ORDER BY count(DISTINCT str_id) DESC, target_id LIMIT 1`.execute(
      db,
    );
    targetId = Number(top.rows[0]!.target_id);
    const on = await sql<{ str_id: number }>`SELECT DISTINCT str_id FROM activities WHERE target_id = ${targetId} AND str_id IS NOT NULL
      ORDER BY str_id LIMIT 25`.execute(db);
    const off = await sql<{ str_id: number }>`SELECT s.str_id FROM structures s
      WHERE NOT EXISTS (SELECT 1 FROM activities a WHERE a.str_id = s.str_id AND a.target_id = ${targetId})
      ORDER BY s.str_id LIMIT 25`.execute(db);
    onTarget = on.rows.map((row) => Number(row.str_id));
    offTarget = off.rows.map((row) => Number(row.str_id));
    members = [...onTarget, ...offTarget].sort((a, b) => a - b);
    collectionId = await createCollection(p.logins.owner, 'Hits on the top target', members);
  }, 180_000);
  afterAll(() => t?.close());

  it('matches exactly what a selection of its structures matches, alone and joined by AND, OR and NOT', async () => {
    expect(onTarget).toHaveLength(25);
    expect(offTarget).toHaveLength(25);
    const me = p.logins.owner;
    const alone = await counted(me, [inCollection(collectionId)]);
    expect(alone).toEqual(await counted(me, [selection(members)]));
    expect(alone.stridscount).toBe(50);

    const and = await counted(me, [inCollection(collectionId, 'AND'), target()]);
    expect(and).toEqual(await counted(me, [selection(members, 'AND'), target()]));
    // The structures of the collection with data on the target: the 25 picked for it, no more.
    expect(and.stridscount).toBe(25);

    const not = await counted(me, [inCollection(collectionId, 'NOT'), target()]);
    expect(not).toEqual(await counted(me, [selection(members, 'NOT'), target()]));
    expect(not.stridscount).toBe(25);

    const targetNot = await counted(me, [target('NOT'), inCollection(collectionId)]);
    expect(targetNot).toEqual(await counted(me, [target('NOT'), selection(members)]));
    const targetAlone = await counted(me, [target()]);
    expect(targetNot.stridscount).toBe(targetAlone.stridscount - 25);

    const or = await counted(me, [target('OR'), inCollection(collectionId)]);
    expect(or).toEqual(await counted(me, [target('OR'), selection(members)]));
    expect(or.stridscount).toBe(targetAlone.stridscount + 25);

    const { rows } = await sql<{ type: string }>`SELECT std_activity_type AS type FROM activities WHERE str_id = ANY(${members}::bigint[])
      GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1`.execute(t.database.db);
    const withType = await counted(me, [inCollection(collectionId), activityType(rows[0]!.type)]);
    expect(withType).toEqual(await counted(me, [selection(members), activityType(rows[0]!.type)]));
    expect(withType.actidscount).toBeGreaterThan(0);
    expect(withType.actidscount).toBeLessThan(alone.actidscount + 1);
  });

  it('runs in a search session with the counts of the selection, and logs it by the collection’s name', async () => {
    const me = p.logins.owner;
    const run = await ran(me, [inCollection(collectionId, 'AND'), target()]);
    const reference = await ran(me, [selection(members, 'AND'), target()]);
    expect(run.counts).toEqual(reference.counts);
    const session = await api.get(`/api/results/session/${run.sessionid}`, me);
    expect(session.statusCode, session.body).toBe(200);
    expect(session.data.counts).toMatchObject({ stridscount: 25 });
    const log = await t.database.db
      .selectFrom('search_log')
      .select(['summary', 'failed'])
      .where('search_session_id', '=', run.sessionid)
      .executeTakeFirstOrThrow();
    expect(log).toEqual({ summary: 'In collection "Hits on the top target" AND Target: top target', failed: false });
  });

  it('follows the collection’s members as they are when the search runs', async () => {
    const me = p.logins.owner;
    const id = await createCollection(me, 'Growing', onTarget.slice(0, 3));
    expect((await counted(me, [inCollection(id)])).stridscount).toBe(3);
    const added = await api.post(`${C}/${id}/items`, me, { source: { kind: 'ids', strIds: onTarget.slice(3, 5) } });
    expect(added.statusCode, added.body).toBe(200);
    expect((await counted(me, [inCollection(id)])).stridscount).toBe(5);
  });

  it('an empty collection matches nothing: alone no rows, after NOT every row of the others', async () => {
    const me = p.logins.owner;
    const id = await createCollection(me, 'Empty', []);
    const alone = await counted(me, [inCollection(id)]);
    expect(alone).toMatchObject({ stridscount: 0, actidscount: 0, assayidscount: 0, refidscount: 0 });
    expect(await counted(me, [target('NOT'), inCollection(id)])).toEqual(await counted(me, [target()]));
  });

  it('is searched by a colleague it is shared with, with the owner’s counts; refused in one message to everyone else', async () => {
    const owner = await counted(p.logins.owner, [inCollection(collectionId)]);
    const refused = async (login: LoginResult, id: number) => {
      const answer = await count(login, [inCollection(id)]);
      expect(answer.statusCode, answer.body).toBe(400);
      return answer.data.message as string;
    };
    // Private: the colleagues do not see it yet.
    expect(await refused(p.logins.reader, collectionId)).toBe(NOT_SHARED);
    const shared = await api.put(`${C}/${collectionId}/sharing`, p.logins.owner, {
      visibility: 'people',
      people: [{ userId: p.ids.reader, access: 'read' }],
    });
    expect(shared.statusCode, shared.body).toBe(200);
    expect(await counted(p.logins.reader, [inCollection(collectionId)])).toEqual(owner);
    const session = await ran(p.logins.reader, [inCollection(collectionId, 'AND'), target()]);
    expect(session.counts.stridscount).toBe(25);

    // A colleague not named, someone of another organisation, someone of none: the words of an id that does not exist.
    const missing = await refused(p.logins.outsider, 2_000_000_000);
    expect(missing).toBe(NOT_SHARED);
    for (const who of ['bystander', 'outsider', 'loner'] as const) expect(await refused(p.logins[who], collectionId), who).toBe(missing);
    // The session call too, naming the row where it stands.
    const second = await api.post('/api/guidedsearch/allresultscount', p.logins.outsider, {
      searchcriteria: { rows: [target('AND'), inCollection(collectionId)] },
      sessionid: crypto.randomUUID(),
    });
    expect(second.statusCode).toBe(400);
    expect(second.data.message).toBe('Row 2 (collection): this collection does not exist or is not shared with you.');
  });

  it('an account moved out of the organisation loses it at once, a re-run of its session included', async () => {
    const db = t.database.db;
    const mover = await p.newColleague('mover-csearch');
    const id = await createCollection(p.logins.owner, 'For the organisation', members);
    const shared = await api.put(`${C}/${id}/sharing`, p.logins.owner, { visibility: 'organisation' });
    expect(shared.statusCode, shared.body).toBe(200);
    const before = await ran(mover.login, [inCollection(id)]);
    expect(before.counts.stridscount).toBe(50);

    await db.updateTable('users').set({ organisation_id: p.otherOrgId }).where('id', '=', mover.id).execute();
    const answer = await count(mover.login, [inCollection(id)]);
    expect(answer.statusCode).toBe(400);
    expect(answer.data.message).toBe(NOT_SHARED);

    // Its session's sets lost (as after a crash: the tables emptied, and read by a server that does
    // not hold them in memory): neither recomputed nor re-run for its owner, who may no longer read it.
    const { set_id: setId } = await db
      .selectFrom('search_sessions')
      .select('set_id')
      .where('id', '=', before.sessionid)
      .executeTakeFirstOrThrow();
    for (const table of [...SEARCH_SET_TABLES, 'search_set_marks'] as const)
      await sql`DELETE FROM ${sql.table(table)} WHERE set_id = ${Number(setId)}`.execute(db);
    const restarted = await searchServiceBeside(t, { sets: 'memory' });
    try {
      const results = new ResultsService(db, restarted, t.app.services.chemEngine);
      const page = { sessionid: before.sessionid, pageNumber: 0, pageSize: 10 };
      await expect(results.page(callerOf(mover.login), 'structuretab', page)).rejects.toThrow(NOT_SHARED);
      expect(restarted.setPaths.recomputed).toBe(0);
    } finally {
      await restarted.close();
    }
    const state = await db
      .selectFrom('search_sessions')
      .select(['status', 'error'])
      .where('id', '=', before.sessionid)
      .executeTakeFirstOrThrow();
    expect(state).toEqual({ status: 'failed', error: NOT_SHARED });

    // Back in the organisation: found again.
    await db.updateTable('users').set({ organisation_id: p.orgId }).where('id', '=', mover.id).execute();
    expect((await counted(mover.login, [inCollection(id)])).stridscount).toBe(50);
  });

  it('is a row of the search criteria in the OpenAPI document', async () => {
    const answer = await t.call({ method: 'GET', url: '/api/docs/json' });
    expect(answer.statusCode).toBe(200);
    /** Every schema object in the document whose `selectedOption` is the constant `collection`. */
    const rows: Record<string, unknown>[] = [];
    const visit = (node: unknown): void => {
      if (!node || typeof node !== 'object') return;
      const record = node as Record<string, unknown>;
      const option = (record.properties as Record<string, { const?: unknown; enum?: unknown[] }> | undefined)?.selectedOption;
      if (option && (option.const === 'collection' || option.enum?.includes('collection'))) rows.push(record);
      for (const value of Object.values(record)) visit(value);
    };
    visit(answer.data);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows[0]).toMatchObject({
      required: expect.arrayContaining(['selectedOption', 'collectionId']),
      properties: { collectionId: { type: 'integer' }, label: { type: 'string', maxLength: 500 } },
    });
  });

  it('counts for the user it is given, and refuses a collection row counted for nobody', async () => {
    const criteria = SearchCriteriaSchema.parse({ rows: [inCollection(collectionId)] });
    const search = t.app.services.search;
    expect((await search.countOnly(criteria, { userId: p.ids.owner })).stridscount).toBe(50);
    await expect(search.countOnly(criteria, { userId: p.ids.outsider })).rejects.toThrow(NOT_SHARED);
    await expect(search.countOnly(criteria)).rejects.toThrow(NOT_SHARED);
  });
});
