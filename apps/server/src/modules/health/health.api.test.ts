import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ONE_DATABASE, startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { beginLoad, finishLoad } from '../knowledge-base/kb-loads.ts';

interface Health {
  dataset: { structures: number; activities: number };
}

/**
 * Health's data-set size is counted once per knowledge-base version (app.ts `datasetSizes`): a load
 * that ended shows, rows written outside any load (which the product never does) do not cost a
 * count of every activity on each poll.
 */
describe.each(ONE_DATABASE)('health data-set size on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    t = await startTestApp(kind, {}, { demoChunks: 1 });
    // A seed of one chunk leaves its load running (resumable); while a load runs every new row counts.
    await sql`UPDATE kb_loads SET status = 'partial', finished_at = now() WHERE finished_at IS NULL`.execute(t.database.db);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    vi.useRealTimers();
  });

  const size = async () => ((await t.call({ method: 'GET', url: '/api/health' })).data as unknown as Health).dataset;
  /**
   * Past the five-second freshness window (the clock moves past it: Date only, faked below in this
   * thread, where the app's cache reads it; the database thread keeps real time): the call after it
   * starts a refresh, the one after that sees it.
   */
  const refreshed = async () => {
    vi.setSystemTime(Date.now() + 5_100);
    await size();
    await new Promise((resolve) => setTimeout(resolve, 200));
    return size();
  };
  const copyActivities = (loadId: number | null) =>
    sql`INSERT INTO activities (str_id, gvk_id, assay_id, ref_id, target_id, std_activity_type, activity_value, load_id)
      SELECT str_id, gvk_id, assay_id, ref_id, target_id, std_activity_type, activity_value, ${loadId}::bigint FROM activities ORDER BY act_id LIMIT 10`.execute(
      t.database.db,
    );

  it('counts again only when a load has ended, and while one runs', async () => {
    const before = await size();
    expect(before.activities).toBeGreaterThan(1_000);
    await copyActivities(null);
    expect(await refreshed()).toEqual(before);
    const loadId = await beginLoad(t.database.db, { kind: 'update', label: 'health test' });
    await copyActivities(loadId);
    expect(await refreshed()).toEqual({ ...before, activities: before.activities + 20 });
    await copyActivities(loadId);
    await finishLoad(t.database.db, loadId, 'complete', { changes: [], quality: null, notes: [] });
    expect(await refreshed()).toEqual({ ...before, activities: before.activities + 30 });
  }, 30_000);
});
