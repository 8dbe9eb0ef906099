import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { LoginResult } from '@kb/contracts/auth';
import { COLLECTION_MAX_COMPOUNDS, WORKSPACE_MAX_OWNED } from '@kb/contracts/workspace';
import { DATABASES, startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { callerOf } from '../../../test/search-services.ts';
import { caller, someStrIds, workspacePeople } from './workspace.test-support.ts';
import type { WorkspacePeople } from './workspace.test-support.ts';

/**
 * Collections through the API (docs/workspace.md "Collections", docs/access-control.md
 * "Workspace"): every call for the owner, a colleague with read access, one with edit access, a
 * colleague it is not shared with, someone of another organisation and a removed account.
 */
describe.each(DATABASES)('workspace collections on %s', (kind) => {
  let t: TestApp;
  let p: WorkspacePeople;
  let api: ReturnType<typeof caller>;
  let ids: number[];
  const C = '/api/workspace/collections';

  const create = async (login: LoginResult, body: unknown) => {
    const answer = await api.post(C, login, body);
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.data as { id: number; compounds: number; sharing: unknown; mine: boolean; canEdit: boolean };
  };
  const share = (id: number, login: LoginResult, body: unknown) => api.put(`${C}/${id}/sharing`, login, body);
  const auditRows = (id: number) =>
    t.database.db
      .selectFrom('audit_log')
      .selectAll()
      .where('target_type', '=', 'collection')
      .where('target_id', '=', String(id))
      .orderBy('id')
      .execute();
  /** Every collection call as `login`: the status each answers. */
  const statuses = async (id: number, login: LoginResult) => ({
    get: (await api.get(`${C}/${id}`, login)).statusCode,
    items: (await api.get(`${C}/${id}/items`, login)).statusCode,
    update: (await api.put(`${C}/${id}`, login, { description: 'changed' })).statusCode,
    add: (await api.post(`${C}/${id}/items`, login, { source: { kind: 'ids', strIds: [ids[9]!] } })).statusCode,
    remove: (await api.post(`${C}/${id}/items/remove`, login, { strIds: [ids[9]!] })).statusCode,
    upload: (await api.post(`${C}/${id}/upload`, login, { format: 'ids', text: String(ids[8]) })).statusCode,
    share: (await share(id, login, { visibility: 'private' })).statusCode,
    delete: (await api.del(`${C}/${id}`, login)).statusCode,
    listed: ((await api.get(C, login)).data.rows as { id: number }[]).some((row) => row.id === id),
    asSource: (await api.post(C, login, { name: 'copy', source: { kind: 'collection', collectionId: id } })).statusCode,
  });
  const NOTHING = {
    get: 404,
    items: 404,
    update: 404,
    add: 404,
    remove: 404,
    upload: 404,
    share: 404,
    delete: 404,
    listed: false,
    asSource: 404,
  };

  beforeAll(async () => {
    t = await startTestApp(kind, {}, { demoChunks: 1 });
    api = caller(t);
    p = await workspacePeople(t, 'col');
    ids = await someStrIds(t, 20);
  }, 180_000);
  afterAll(() => t?.close());

  it('creates a collection from ids (unknown ids dropped), lists it for its owner only while private', async () => {
    const made = await create(p.logins.owner, {
      name: '  Kinase hits ',
      source: { kind: 'ids', strIds: [ids[2]!, ids[0]!, ids[2]!, 999_999_999] },
    });
    expect(made).toMatchObject({ name: 'Kinase hits', compounds: 2, mine: true, canEdit: true, visibility: 'private', description: '' });
    expect(made.sharing).toEqual({ visibility: 'private', organisationAccess: 'read', people: [] });
    const list = await api.get(C, p.logins.owner);
    expect((list.data.rows as { id: number; owner: { userId: number; name: string } }[])[0]).toMatchObject({
      id: made.id,
      owner: { userId: p.ids.owner, name: 'Owner col', email: 'owner.col@ws.test' },
    });
    for (const who of ['reader', 'editor', 'bystander', 'outsider', 'loner'] as const) {
      expect(await statuses(made.id, p.logins[who]), who).toEqual(NOTHING);
    }
    // Nothing was changed by the refused calls.
    const after = await api.get(`${C}/${made.id}`, p.logins.owner);
    expect(after.data).toMatchObject({ compounds: 2, description: '', visibility: 'private' });
  });

  it('named shares: read and edit as given, others 404; the owner alone shares and deletes; each change audited', async () => {
    const made = await create(p.logins.owner, { name: 'Shared by name', source: { kind: 'ids', strIds: ids.slice(0, 5) } });
    const shared = await share(made.id, p.logins.owner, {
      visibility: 'people',
      people: [
        { userId: p.ids.reader, access: 'read' },
        { userId: p.ids.editor, access: 'edit' },
      ],
    });
    expect(shared.statusCode, shared.body).toBe(200);
    expect((shared.data.sharing as { people: unknown[] }).people).toEqual([
      { userId: p.ids.editor, name: 'Editor col', email: 'editor.col@ws.test', access: 'edit' },
      { userId: p.ids.reader, name: 'Reader col', email: 'reader.col@ws.test', access: 'read' },
    ]);
    const [audit] = await auditRows(made.id);
    expect(audit).toMatchObject({ action: 'collection.share', actor_id: p.ids.owner, target_label: 'Shared by name' });
    const json = (value: unknown) => (typeof value === 'string' ? JSON.parse(value) : value);
    expect(json(audit!.before)).toEqual({ visibility: 'private', organisationAccess: 'read', people: [] });
    expect(json(audit!.after)).toMatchObject({
      visibility: 'people',
      people: expect.arrayContaining([{ userId: p.ids.editor, access: 'edit' }]),
    });

    const readerView = await api.get(`${C}/${made.id}`, p.logins.reader);
    expect(readerView.data).toMatchObject({
      mine: false,
      canEdit: false,
      sharing: null,
      sharedWith: null,
      visibility: 'people',
      compounds: 5,
    });
    // The owner's list says how many are named; a colleague's does not.
    const ownerList = await api.get(C, p.logins.owner);
    expect((ownerList.data.rows as { id: number; sharedWith: number | null }[]).find((row) => row.id === made.id)?.sharedWith).toBe(2);
    expect(await statuses(made.id, p.logins.reader)).toEqual({
      get: 200,
      items: 200,
      update: 403,
      add: 403,
      remove: 403,
      upload: 403,
      share: 403,
      delete: 403,
      listed: true,
      asSource: 200,
    });
    const editorView = await api.get(`${C}/${made.id}`, p.logins.editor);
    expect(editorView.data).toMatchObject({ mine: false, canEdit: true, sharing: null });
    const refusedDelete = await api.del(`${C}/${made.id}`, p.logins.editor);
    expect(refusedDelete.data.message).toMatch(/^Only the owner/);
    expect(await statuses(made.id, p.logins.editor)).toEqual({
      get: 200,
      items: 200,
      update: 200,
      add: 200,
      remove: 200,
      upload: 200,
      share: 403,
      delete: 403,
      listed: true,
      asSource: 200,
    });
    for (const who of ['bystander', 'outsider', 'loner'] as const) expect(await statuses(made.id, p.logins[who]), who).toEqual(NOTHING);
    // The editor's changes are there; the refused calls wrote no audit row.
    expect((await api.get(`${C}/${made.id}`, p.logins.owner)).data).toMatchObject({ description: 'changed', compounds: 6 });
    expect(await auditRows(made.id)).toHaveLength(1);

    // Someone of another organisation cannot be named: 400 naming them, nothing changed.
    const refused = await share(made.id, p.logins.owner, { visibility: 'people', people: [{ userId: p.ids.outsider, access: 'read' }] });
    expect(refused.statusCode).toBe(400);
    expect(refused.data.message).toContain(`User ${p.ids.outsider}`);
    expect(await auditRows(made.id)).toHaveLength(1);
    expect((await api.get(`${C}/${made.id}`, p.logins.reader)).statusCode).toBe(200);

    // The named list is replaced as a whole: the reader is dropped.
    const replaced = await share(made.id, p.logins.owner, { visibility: 'people', people: [{ userId: p.ids.editor, access: 'read' }] });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect((await api.get(`${C}/${made.id}`, p.logins.reader)).statusCode).toBe(404);
    expect((await api.get(`${C}/${made.id}`, p.logins.editor)).data).toMatchObject({ canEdit: false });
    expect(await auditRows(made.id)).toHaveLength(2);

    // The owner deletes it: gone for everyone.
    expect((await api.del(`${C}/${made.id}`, p.logins.owner)).statusCode).toBe(200);
    expect((await api.get(`${C}/${made.id}`, p.logins.owner)).statusCode).toBe(404);
    expect(await t.database.db.selectFrom('workspace_shares').selectAll().where('object_id', '=', made.id).execute()).toEqual([]);
  });

  it('organisation shares reach every active colleague, never another organisation', async () => {
    const made = await create(p.logins.owner, { name: 'For Acme', source: { kind: 'ids', strIds: ids.slice(0, 3) } });
    expect((await share(made.id, p.logins.owner, { visibility: 'organisation' })).statusCode).toBe(200);
    for (const who of ['reader', 'editor', 'bystander'] as const) {
      expect((await api.get(`${C}/${made.id}`, p.logins[who])).data, who).toMatchObject({ canEdit: false, mine: false });
      expect((await api.put(`${C}/${made.id}`, p.logins[who], { name: 'x' })).statusCode, who).toBe(403);
    }
    expect(await statuses(made.id, p.logins.outsider)).toEqual(NOTHING);
    expect(await statuses(made.id, p.logins.loner)).toEqual(NOTHING);
    expect((await share(made.id, p.logins.owner, { visibility: 'organisation', organisationAccess: 'edit' })).statusCode).toBe(200);
    const renamed = await api.put(`${C}/${made.id}`, p.logins.bystander, { name: 'Renamed by a colleague' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.data).toMatchObject({ name: 'Renamed by a colleague', canEdit: true, sharing: null });
    expect((await api.del(`${C}/${made.id}`, p.logins.bystander)).statusCode).toBe(403);
    expect((await auditRows(made.id)).map((row) => row.action)).toEqual(['collection.share', 'collection.share']);
    // Someone of no organisation has nobody to share with.
    const lonely = await create(p.logins.loner, { name: 'Alone' });
    expect((await share(lonely.id, p.logins.loner, { visibility: 'organisation' })).statusCode).toBe(400);
    expect((await share(lonely.id, p.logins.loner, { visibility: 'private' })).statusCode).toBe(200);
    // Back to private: colleagues lose it at once.
    expect((await share(made.id, p.logins.owner, { visibility: 'private' })).statusCode).toBe(200);
    expect((await api.get(`${C}/${made.id}`, p.logins.bystander)).statusCode).toBe(404);
  });

  it('a colleague moved out of the organisation, or deactivated, loses access at once; so do the colleagues of an owner who leaves', async () => {
    const db = t.database.db;
    const made = await create(p.logins.owner, { name: 'Leavers', source: { kind: 'ids', strIds: ids.slice(0, 2) } });
    const mover = await p.newColleague('mover');
    const sleeper = await p.newColleague('sleeper');
    expect((await share(made.id, p.logins.owner, { visibility: 'organisation', organisationAccess: 'edit' })).statusCode).toBe(200);
    expect((await api.get(`${C}/${made.id}`, mover.login)).statusCode).toBe(200);

    await db.updateTable('users').set({ organisation_id: p.otherOrgId }).where('id', '=', mover.id).execute();
    expect(await statuses(made.id, mover.login)).toEqual(NOTHING);
    await db.updateTable('users').set({ organisation_id: p.orgId }).where('id', '=', mover.id).execute();
    expect((await api.get(`${C}/${made.id}`, mover.login)).statusCode).toBe(200);

    await db.updateTable('users').set({ active: false }).where('id', '=', sleeper.id).execute();
    // A deactivated account cannot call at all; the rule itself refuses it too.
    expect((await api.get(`${C}/${made.id}`, sleeper.login)).statusCode).toBe(401);
    await expect(t.app.services.workspace.collections.get(callerOf(sleeper.login), made.id)).rejects.toMatchObject({ statusCode: 404 });

    // The owner leaves the organisation: the colleagues of the organisation lose the collection, the owner keeps it.
    await db.updateTable('users').set({ organisation_id: null }).where('id', '=', p.ids.owner).execute();
    try {
      expect((await api.get(`${C}/${made.id}`, p.logins.editor)).statusCode).toBe(404);
      expect((await api.get(`${C}/${made.id}`, p.logins.owner)).statusCode).toBe(200);
    } finally {
      await db.updateTable('users').set({ organisation_id: p.orgId }).where('id', '=', p.ids.owner).execute();
    }
    // The owner deactivated: nobody else sees it.
    await db.updateTable('users').set({ active: false }).where('id', '=', p.ids.owner).execute();
    try {
      expect((await api.get(`${C}/${made.id}`, p.logins.editor)).statusCode).toBe(404);
    } finally {
      await db.updateTable('users').set({ active: true }).where('id', '=', p.ids.owner).execute();
    }
    expect((await api.get(`${C}/${made.id}`, p.logins.editor)).statusCode).toBe(200);
  });

  it('deleting an account deletes its collections and their items', async () => {
    const gone = await p.newColleague('gone');
    const made = await create(gone.login, { name: 'Mine', source: { kind: 'ids', strIds: ids.slice(0, 4) } });
    await t.database.db.deleteFrom('subscriptions').where('user_id', '=', gone.id).execute();
    await sql`DELETE FROM user_sessions WHERE user_id = ${gone.id}`.execute(t.database.db);
    await t.database.db.deleteFrom('users').where('id', '=', gone.id).execute();
    expect(await t.database.db.selectFrom('collections').select('id').where('id', '=', made.id).execute()).toEqual([]);
    expect(await t.database.db.selectFrom('collection_items').select('str_id').where('collection_id', '=', made.id).execute()).toEqual([]);
  });

  it('items: a page most recently added first, with SMILES and name; add and remove keep the count exact', async () => {
    const made = await create(p.logins.owner, { name: 'Items', source: { kind: 'ids', strIds: ids.slice(0, 3) } });
    const added = await api.post(`${C}/${made.id}/items`, p.logins.owner, { source: { kind: 'ids', strIds: [ids[2]!, ids[3]!, ids[4]!] } });
    expect(added.data).toEqual({ changed: 2, unchanged: 1, compounds: 5 });
    const page = await api.get(`${C}/${made.id}/items?page=0&pageSize=2`, p.logins.owner);
    expect(page.statusCode, page.body).toBe(200);
    expect(page.data.rowCount).toBe(5);
    const rows = page.data.rows as { strId: number; smiles: string; name: string | null; addedAt: string }[];
    expect(rows.map((row) => row.strId)).toEqual([ids[3], ids[4]]);
    const { rows: expected } = await sql<{
      str_id: number;
      smiles: string;
      name: string | null;
    }>`SELECT s.str_id, s.canonical_smiles AS smiles,
        (SELECT c.name FROM compounds c WHERE c.str_id = s.str_id AND c.name IS NOT NULL AND c.name <> '' ORDER BY c.gvk_id LIMIT 1) AS name
      FROM structures s WHERE s.str_id = ${ids[3]}`.execute(t.database.db);
    expect(rows[0]).toMatchObject({ smiles: expected[0]!.smiles, name: expected[0]!.name });
    const second = await api.get(`${C}/${made.id}/items?page=1&pageSize=2`, p.logins.owner);
    expect((second.data.rows as { strId: number }[]).map((row) => row.strId)).toEqual([ids[0], ids[1]]);

    const removed = await api.post(`${C}/${made.id}/items/remove`, p.logins.owner, { strIds: [ids[0]!, ids[10]!] });
    expect(removed.data).toEqual({ changed: 1, unchanged: 1, compounds: 4 });

    // Additions at once, overlapping: the count is that of the rows.
    const batches = [ids.slice(0, 8), ids.slice(4, 12), ids.slice(8, 16), ids.slice(2, 18), ids.slice(10, 20)];
    const answers = await Promise.all(
      batches.map((strIds) => api.post(`${C}/${made.id}/items`, p.logins.owner, { source: { kind: 'ids', strIds } })),
    );
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);
    const changed = answers.reduce((sum, answer) => sum + (answer.data.changed as number), 0);
    expect(changed).toBe(20 - 4);
    const row = await t.database.db.selectFrom('collections').select('compounds').where('id', '=', made.id).executeTakeFirstOrThrow();
    expect(row.compounds).toBe(20);
    expect((await api.get(`${C}/${made.id}/items`, p.logins.owner)).data.rowCount).toBe(20);
  });

  it('copies a collection, and takes the rows of a results tab', async () => {
    const source = await create(p.logins.owner, { name: 'Source', source: { kind: 'ids', strIds: ids.slice(5, 9) } });
    const copy = await create(p.logins.owner, { name: 'Copy', source: { kind: 'collection', collectionId: source.id } });
    expect(copy.compounds).toBe(4);

    const sessionid = crypto.randomUUID();
    const run = await api.post('/api/guidedsearch/allresultscount', p.logins.owner, {
      sessionid,
      searchcriteria: { rows: [{ selectedOption: 'activitytypes', activities: [{ activityType: 'Ki' }] }] },
    });
    expect(run.statusCode, run.body).toBe(200);
    const fromTab = await create(p.logins.owner, { name: 'Ki compounds', source: { kind: 'session', sessionid, tab: 'structuretab' } });
    // The reference below reads the set tables: the search's sets (held in memory) are written for it.
    await t.app.services.results.session(callerOf(p.logins.owner), sessionid);
    const { rows } = await sql<{ n: number }>`SELECT count(DISTINCT ss.str_id)::int AS n FROM search_structures ss
      JOIN search_sessions s ON s.set_id = ss.set_id WHERE s.id = ${sessionid}`.execute(t.database.db);
    expect(rows[0]!.n).toBeGreaterThan(10);
    expect(fromTab.compounds).toBe(rows[0]!.n);
    // Another user's session is not theirs to read.
    expect(
      (await api.post(C, p.logins.editor, { name: 'x', source: { kind: 'session', sessionid, tab: 'structuretab' } })).statusCode,
    ).not.toBe(200);
  });

  it('refuses past the limits and adds nothing', async () => {
    const made = await create(p.logins.owner, { name: 'Nearly full', source: { kind: 'ids', strIds: ids.slice(0, 2) } });
    // The count says the collection is one short of full (its rows are what the test can make).
    await t.database.db
      .updateTable('collections')
      .set({ compounds: COLLECTION_MAX_COMPOUNDS - 1 })
      .where('id', '=', made.id)
      .execute();
    const refused = await api.post(`${C}/${made.id}/items`, p.logins.owner, { source: { kind: 'ids', strIds: ids.slice(0, 5) } });
    expect(refused.statusCode).toBe(400);
    expect(refused.data.message).toMatch(/at most 100,000 compounds.*Nothing was added/);
    expect(await t.database.db.selectFrom('collection_items').select('str_id').where('collection_id', '=', made.id).execute()).toHaveLength(
      2,
    );
    // Already in: nothing to add, so nothing refused.
    expect(
      (await api.post(`${C}/${made.id}/items`, p.logins.owner, { source: { kind: 'ids', strIds: ids.slice(0, 2) } })).data,
    ).toMatchObject({
      changed: 0,
      unchanged: 2,
      compounds: 2,
    });

    const busy = await p.newColleague('busy');
    await sql`INSERT INTO collections (owner_id, name) SELECT ${busy.id}, 'c' || g FROM generate_series(1, ${WORKSPACE_MAX_OWNED}) g`.execute(
      t.database.db,
    );
    const tooMany = await api.post(C, busy.login, { name: 'one more' });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.data.message).toContain('500');
    expect((await api.post(C, p.logins.owner, { name: '' })).statusCode).toBe(400);
  });
});
