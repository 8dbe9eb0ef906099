import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoEmailForRole } from '@kb/contracts/roles';
import type { LoginResult } from '@kb/contracts/auth';
import type { SearchCriteriaInput } from '@kb/contracts/search';
import { DATABASES, authHeaders, startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { ChemPool } from '../knowledge-base/chem/chem-pool.ts';
import { refreshDerivedData } from '../knowledge-base/derived-data.ts';
import { importChembl } from '../knowledge-base/chembl/chembl-import.ts';
import { buildChemblFixture } from '../knowledge-base/chembl/fixture.test-support.ts';
import { nextReleaseRows } from '../knowledge-base/chembl/release-fixture.test-support.ts';

/**
 * Issue 17 "Must show", the update test's last step: an alert raised once. Release N is imported,
 * a user saves a search and marks it "alert me" through the alerts API, release N+1 (which adds
 * one IC50 activity, release-fixture.ts) is imported by the real importer; the alert check then
 * raises one notification counting exactly the new rows, a second check none, and importing N+1
 * again (a new, empty update load) none.
 */
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'chembl-alert-release-'));
const RELEASE_N = path.join(tmp, 'chembl_98.db');
const RELEASE_N1 = path.join(tmp, 'chembl_98_1.db');
const IC50: SearchCriteriaInput = { rows: [{ selectedOption: 'activitytypes', activities: [{ activityType: 'IC50' }] }] };

let pool: ChemPool;
beforeAll(() => {
  buildChemblFixture(RELEASE_N);
  buildChemblFixture(RELEASE_N1, { rows: nextReleaseRows() });
  pool = new ChemPool(2);
});
afterAll(async () => {
  await pool.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe.each(DATABASES)('alerts raised by a release update on %s', (kind) => {
  let t: TestApp;
  let me: LoginResult;
  let criteriaId: number;
  const post = (url: string, payload: object) => t.call({ method: 'POST', url, headers: authHeaders(me), payload });
  const get = (url: string) => t.call({ method: 'GET', url, headers: authHeaders(me) });
  const importFile = async (file: string) => {
    const summary = await importChembl(t.database, file, { pool });
    await refreshDerivedData(t.database.db);
    return summary;
  };
  const alertNotifications = () =>
    t.database.db
      .selectFrom('notifications')
      .selectAll()
      .where('saved_criteria_id', '=', criteriaId)
      .where('kind', '=', 'alert')
      .orderBy('id')
      .execute();

  beforeAll(async () => {
    t = await startTestApp(kind);
    me = await t.login(demoEmailForRole('FULL_USER'));
    await importFile(RELEASE_N);
    // The server's poll has seen release N before anyone asks for alerts.
    expect(await t.app.services.alertChecker.checkNow()).toMatchObject({ loads: 1, notified: 0 });
    const saved = await post('/api/security/allmapping/search/variable/save', {
      name: 'IC50 watch',
      makeDefault: false,
      searchcriteria: IC50,
      appliedFilters: [],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    criteriaId = Number(saved.data.criteria_id);
    const on = await post(`/api/alerts/saved-searches/${criteriaId}`, { alert: true });
    expect(on.statusCode, on.body).toBe(200);
  }, 300_000);
  afterAll(() => t?.close());

  let updateLoad: number;

  it('raises exactly one notification after release N+1, counting the new rows, with its link', async () => {
    const update = await importFile(RELEASE_N1);
    expect(update.load.kind).toBe('update');
    updateLoad = update.load.loadId;
    // Independent count of the new rows the saved search matches.
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM activities a
      WHERE a.load_id = ${updateLoad}::bigint AND a.std_activity_type = 'IC50'`.execute(t.database.db);
    const expected = rows[0]!.n;
    expect(expected).toBe(1);

    const summary = await t.app.services.alertChecker.checkNow();
    expect(summary).toMatchObject({ loads: 1, notified: 1, failed: 0 });
    const raised = await alertNotifications();
    expect(raised).toHaveLength(1);
    const notification = raised[0]!;
    expect(notification.title).toBe(`${expected} new activity for “IC50 watch”`);
    expect(notification.link).toBe(`/notifications/${notification.id}`);
    expect(notification.body).toContain('chembl_98_1');
    expect(Number(notification.load_id)).toBe(updateLoad);
    expect((await get('/api/profile')).data.notificationsCount).toBe(1);

    // Opening it gives a session of the new rows only.
    const opened = await post(`/api/alerts/notifications/${notification.id}/open`, { sessionid: crypto.randomUUID() });
    expect(opened.statusCode, opened.body).toBe(200);
    expect((opened.data.counts as Record<string, number>).actidscount).toBe(expected);
  });

  it('raises nothing on a second check', async () => {
    expect(await t.app.services.alertChecker.checkNow()).toMatchObject({ loads: 0, notified: 0 });
    expect(await alertNotifications()).toHaveLength(1);
  });

  it('raises nothing when release N+1 is imported again', async () => {
    const again = await importFile(RELEASE_N1);
    expect(again.load.kind).toBe('update');
    expect(again.load.loadId).not.toBe(updateLoad);
    expect(await t.app.services.alertChecker.checkNow()).toMatchObject({ loads: 1, notified: 0 });
    expect(await alertNotifications()).toHaveLength(1);
  });
});
