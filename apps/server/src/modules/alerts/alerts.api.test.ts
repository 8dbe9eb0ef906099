import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { SearchCriteriaInput } from '@kb/contracts/search';
import { demoEmailForRole } from '@kb/contracts/roles';
import type { LoginResult } from '@kb/contracts/auth';
import type { Database } from '../../db/schema.ts';
import { DATABASES, authHeaders, startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { beginLoad, finishLoad } from '../knowledge-base/kb-loads.ts';

const KI: SearchCriteriaInput = { rows: [{ selectedOption: 'activitytypes', activities: [{ activityType: 'Ki' }] }] };
const IC50: SearchCriteriaInput = { rows: [{ selectedOption: 'activitytypes', activities: [{ activityType: 'IC50' }] }] };

/**
 * A real load of new data, as an import makes it: a kb_loads row, new activity rows stamped with
 * its id (copies of Ki activities of the demo seed load: same structures, assays, references), and
 * its finish. The demo seed stamps its rows with its own load (kb_loads kind 'seed').
 */
async function loadNewKiActivities(db: Kysely<Database>, rows: number, label: string): Promise<number> {
  const loadId = await beginLoad(db, { kind: 'update', label });
  await sql`INSERT INTO activities (str_id, gvk_id, assay_id, ref_id, target_id, std_activity_type, std_act_prefix, activity_value, standard_uom, micro_molarvalue, pchembl_value, activity_type, load_id)
    SELECT str_id, gvk_id, assay_id, ref_id, target_id, std_activity_type, std_act_prefix, activity_value, standard_uom, micro_molarvalue, pchembl_value, activity_type, ${loadId}::bigint
    FROM activities WHERE std_activity_type = 'Ki' AND load_id IN (SELECT load_id FROM kb_loads WHERE kind = 'seed') ORDER BY act_id LIMIT ${rows}`.execute(
    db,
  );
  await finishLoad(db, loadId, 'complete', { changes: [], quality: null, notes: [] });
  return loadId;
}

describe.each(DATABASES)('alerts on new data for saved searches on %s', (kind) => {
  let t: TestApp;
  let me: LoginResult;
  let other: LoginResult;
  let flatFile: LoginResult;
  const post = (url: string, payload: unknown, login: LoginResult = me) =>
    t.call({ method: 'POST', url, headers: authHeaders(login), payload: payload as object });
  const get = (url: string, login: LoginResult = me) => t.call({ method: 'GET', url, headers: authHeaders(login) });
  const save = async (name: string, criteria: SearchCriteriaInput, login: LoginResult = me) => {
    const saved = await post(
      '/api/security/allmapping/search/variable/save',
      { name, makeDefault: false, searchcriteria: criteria, appliedFilters: [] },
      login,
    );
    expect(saved.statusCode, saved.body).toBe(200);
    return Number(saved.data.criteria_id);
  };
  const alertNotifications = (criteriaId: number) =>
    t.database.db
      .selectFrom('notifications')
      .selectAll()
      .where('saved_criteria_id', '=', criteriaId)
      .where('kind', '=', 'alert')
      .orderBy('id')
      .execute();
  let kiAlert: number;
  let ic50Alert: number;
  let kiQuiet: number;
  let theirKi: number;

  beforeAll(async () => {
    t = await startTestApp(kind, { PUBLIC_URL: 'https://kb.example.org' }, { demoChunks: 1 });
    me = await t.login(demoEmailForRole('FULL_USER'));
    other = await t.login(demoEmailForRole('EVALUATE_USER'));
    flatFile = await t.login(demoEmailForRole('FLAT_FILE_ONLY'));
    kiAlert = await save('Ki everywhere', KI);
    ic50Alert = await save('IC50 everywhere', IC50);
    kiQuiet = await save('Ki, no alert', KI);
    theirKi = await save('Their Ki', KI, other);
  }, 180_000);
  afterAll(() => t?.close());

  it('switches "alert me" on and off for the owner only: another user’s saved search 404, a role without search 403, a bad body 400', async () => {
    const on = await post(`/api/alerts/saved-searches/${kiAlert}`, { alert: true });
    expect(on.statusCode, on.body).toBe(200);
    expect(on.data).toMatchObject({ criteriaId: kiAlert, alert: true });
    expect((await post(`/api/alerts/saved-searches/${kiAlert}`, { alert: false }, other)).statusCode).toBe(404);
    expect((await post(`/api/alerts/saved-searches/${kiAlert}`, { alert: true }, flatFile)).statusCode).toBe(403);
    const bad = await post(`/api/alerts/saved-searches/${kiAlert}`, { alert: 'yes' });
    expect(bad.statusCode).toBe(400);
    expect((await post('/api/alerts/saved-searches/abc', { alert: true })).statusCode).toBe(400);
    const list = await get('/api/alerts/saved-searches');
    const rows = list.data.rows as { criteriaId: number; alert: boolean }[];
    expect(rows.find((r) => r.criteriaId === kiAlert)?.alert).toBe(true);
    expect(rows.find((r) => r.criteriaId === kiQuiet)?.alert).toBe(false);
    // Nobody else's saved searches are listed.
    expect(rows.map((r) => r.criteriaId)).not.toContain(theirKi);
    expect((await post(`/api/alerts/saved-searches/${ic50Alert}`, { alert: true })).statusCode).toBe(200);
    expect((await post(`/api/alerts/saved-searches/${theirKi}`, { alert: true }, other)).statusCode).toBe(200);
  });

  let notificationId: number;
  let loadId: number;

  it('raises exactly one notification with the new activities’ count and a link to them, none for a search without new rows or without the alert', async () => {
    // The other user reads no e-mail about database updates.
    const otherId = Number((await get('/api/profile', other)).data.userId);
    const settings = await post(
      '/api/dashboard/notifications/settings',
      { id: otherId, settings: { notificationSystemEmail: true, notificationDatabaseEmail: false, is_notification_email: true } },
      other,
    );
    expect(settings.statusCode, settings.body).toBe(200);
    const outboxBefore = await t.database.db
      .selectFrom('outbox')
      .select(sql<string>`coalesce(max(id), 0)`.as('max'))
      .executeTakeFirstOrThrow();
    loadId = await loadNewKiActivities(t.database.db, 3, 'Release 2 (test)');
    const { rows: expected } = await sql<{
      n: number;
    }>`SELECT count(*)::int AS n FROM activities WHERE load_id = ${loadId} AND std_activity_type = 'Ki'`.execute(t.database.db);
    expect(expected[0]!.n).toBe(3);

    const summary = await t.app.services.alertChecker.checkNow();
    expect(summary).toMatchObject({ loads: 1, failed: 0 });
    const mine = await alertNotifications(kiAlert);
    expect(mine).toHaveLength(1);
    const notification = mine[0]!;
    notificationId = Number(notification.id);
    expect(notification.title).toBe('3 new activities for “Ki everywhere”');
    expect(notification.link).toBe(`/notifications/${notificationId}`);
    expect(notification.body).toContain('Release 2 (test)');
    expect(Number(notification.load_id)).toBe(loadId);
    expect(await alertNotifications(ic50Alert)).toHaveLength(0);
    expect(await alertNotifications(kiQuiet)).toHaveLength(0);
    expect(await alertNotifications(theirKi)).toHaveLength(1);

    // E-mail only where the settings allow: to me (defaults on), not to the other user (database e-mails off).
    const mails = await t.database.db.selectFrom('outbox').selectAll().where('id', '>', String(outboxBefore.max)).execute();
    const mine2 = mails.filter((m) => m.recipient === demoEmailForRole('FULL_USER'));
    expect(mine2).toHaveLength(1);
    expect(mine2[0]!.body).toContain(`https://kb.example.org/notifications/${notificationId}`);
    expect(mine2[0]!.subject).toContain('3 new activities');
    expect(mails.filter((m) => m.recipient === demoEmailForRole('EVALUATE_USER'))).toHaveLength(0);

    // The header count (profile notificationsCount) counts it.
    const profile = await get('/api/profile');
    expect(profile.data.notificationsCount).toBe(1);
  });

  it('never notifies twice: a second check, and a re-check of the same load after a crash, add nothing', async () => {
    expect(await t.app.services.alertChecker.checkNow()).toMatchObject({ loads: 0, notified: 0 });
    // As if the process died after notifying but before marking the load checked.
    await t.database.db.updateTable('kb_loads').set({ alerts_checked_at: null }).where('load_id', '=', loadId).execute();
    expect(await t.app.services.alertChecker.checkNow()).toMatchObject({ loads: 1, notified: 0 });
    expect(await alertNotifications(kiAlert)).toHaveLength(1);
    expect(await alertNotifications(theirKi)).toHaveLength(1);
  });

  it('lists the notifications a page at a time, and refuses another user’s notification (403)', async () => {
    const page = await get('/api/notifications?page=1&pageSize=10');
    expect(page.statusCode, page.body).toBe(200);
    expect(page.data).toMatchObject({ total: 1, unread: 1, page: 1, pageSize: 10 });
    const [row] = page.data.rows as {
      id: number;
      kind: string;
      link: string;
      window: { sinceLoadId: number; loadId: number; loadLabel: string };
    }[];
    expect(row).toMatchObject({
      id: notificationId,
      kind: 'alert',
      link: `/notifications/${notificationId}`,
      window: { loadId, loadLabel: 'Release 2 (test)' },
    });
    expect((await get('/api/notifications?pageSize=1000')).statusCode).toBe(400);
    expect((await post(`/api/notifications/${notificationId}/read`, {}, other)).statusCode).toBe(403);
    expect((await post(`/api/alerts/notifications/${notificationId}/open`, { sessionid: crypto.randomUUID() }, other)).statusCode).toBe(
      403,
    );
    expect((await post('/api/notifications/99999999/read', {})).statusCode).toBe(404);
  });

  it('opens the alert as a search session holding only the new rows, says so, and marks the alert read', async () => {
    const sessionid = crypto.randomUUID();
    const opened = await post(`/api/alerts/notifications/${notificationId}/open`, { sessionid });
    expect(opened.statusCode, opened.body).toBe(200);
    const counts = opened.data.counts as Record<string, number>;
    const { rows } = await sql<{
      acts: number;
      strs: number;
      assays: number;
      refs: number;
    }>`SELECT count(*)::int AS acts, count(DISTINCT str_id)::int AS strs,
      count(DISTINCT assay_id)::int AS assays, count(DISTINCT ref_id)::int AS refs FROM activities WHERE load_id = ${loadId} AND std_activity_type = 'Ki'`.execute(
      t.database.db,
    );
    expect(counts).toMatchObject({ actidscount: rows[0]!.acts, stridscount: rows[0]!.strs, assayidscount: rows[0]!.assays });
    const session = await t.database.db
      .selectFrom('search_sessions')
      .select('set_id')
      .where('id', '=', sessionid)
      .executeTakeFirstOrThrow();
    const { rows: outside } = await sql<{
      n: number;
    }>`SELECT count(*)::int AS n FROM search_activities sa JOIN activities a ON a.act_id = sa.act_id
      WHERE sa.set_id = ${session.set_id} AND a.load_id IS DISTINCT FROM ${loadId}::bigint`.execute(t.database.db);
    expect(outside[0]!.n).toBe(0);
    // The results tabs read the same sets.
    const window = await get(`/api/alerts/sessions/${sessionid}`);
    expect(window.data).toMatchObject({ sessionid, window: { loadId, loadLabel: 'Release 2 (test)' } });
    expect((await get(`/api/alerts/sessions/${sessionid}`, other)).statusCode).toBe(403);
    expect((await get('/api/profile')).data.notificationsCount).toBe(0);
    // An ordinary search of the same criteria is not restricted.
    const plain = crypto.randomUUID();
    const all = await post('/api/guidedsearch/allresultscount', { searchcriteria: KI, sessionid: plain });
    expect((all.data.rows as Record<string, number>[])[0]!.actidscount).toBeGreaterThan(counts.actidscount!);
    expect((await get(`/api/alerts/sessions/${plain}`)).data).toMatchObject({ window: null });
  });

  it('rebuilds a session opened from an alert with the same window after its sets were lost (crash recovery)', async () => {
    const sessionid = crypto.randomUUID();
    const opened = await post(`/api/alerts/notifications/${notificationId}/open`, { sessionid });
    expect(opened.statusCode, opened.body).toBe(200);
    const setId = Number(
      (await t.database.db.selectFrom('search_sessions').select('set_id').where('id', '=', sessionid).executeTakeFirstOrThrow()).set_id,
    );
    // What a crash recovery of the UNLOGGED set tables leaves: no rows, no mark.
    for (const table of [
      'search_structures',
      'search_activities',
      'search_compounds',
      'search_assays',
      'search_references',
      'search_clinical_compounds',
      'search_set_marks',
    ] as const) {
      await sql`DELETE FROM ${sql.table(table)} WHERE set_id = ${setId}`.execute(t.database.db);
    }
    const activities = await post('/api/results/activitiestab', { sessionid, pageSize: 50 });
    expect(activities.statusCode, activities.body).toBe(200);
    expect(activities.data.rowCount).toBe((opened.data.counts as Record<string, number>).actidscount);
  });

  it('raises nothing once the alert is off, and marks every notification read', async () => {
    expect((await post(`/api/alerts/saved-searches/${kiAlert}`, { alert: false })).statusCode).toBe(200);
    await loadNewKiActivities(t.database.db, 2, 'Release 3 (test)');
    await t.app.services.alertChecker.checkNow();
    expect(await alertNotifications(kiAlert)).toHaveLength(1);
    // The other user's alert is still on: the new load's two activities are theirs to see.
    const theirs = await alertNotifications(theirKi);
    expect(theirs).toHaveLength(2);
    expect(theirs[1]!.title).toBe('2 new activities for “Their Ki”');
    const all = await post('/api/notifications/read-all', {}, other);
    expect(all.data).toMatchObject({ marked: 2, unread: 0 });
    expect((await get('/api/profile', other)).data.notificationsCount).toBe(0);
  });

  it('counts a structure the search matches directly only when its own load is in the window', async () => {
    const { rows: picked } = await sql<{
      str_id: string;
    }>`SELECT str_id FROM structures WHERE load_id IN (SELECT load_id FROM kb_loads WHERE kind = 'seed') ORDER BY str_id LIMIT 2`.execute(
      t.database.db,
    );
    const [a, b] = picked.map((r) => Number(r.str_id));
    const byIds: SearchCriteriaInput = { rows: [{ selectedOption: 'structure', strIds: [a!, b!] }] };
    const window = await beginLoad(t.database.db, { kind: 'import', label: 'Structures only (test)' });
    // As if this load had brought structure b in.
    await t.database.db.updateTable('structures').set({ load_id: window }).where('str_id', '=', b!).execute();
    await finishLoad(t.database.db, window, 'complete', { changes: [], quality: null, notes: [] });
    const criteria = (await import('@kb/contracts/search')).SearchCriteriaSchema.parse(byIds);
    const all = await t.app.services.search.countOnly(criteria);
    const fresh = await t.app.services.search.countOnly(criteria, { loadWindow: { afterLoad: window - 1, upToLoad: window } });
    expect(all.stridscount).toBe(2);
    expect(fresh.stridscount).toBe(1);
    // Their activities came with earlier loads: none of them is new.
    expect(fresh.actidscount).toBe(0);
    const later = await t.app.services.search.countOnly(criteria, { loadWindow: { afterLoad: window, upToLoad: window + 5 } });
    expect(later.stridscount).toBe(0);
  });
});
