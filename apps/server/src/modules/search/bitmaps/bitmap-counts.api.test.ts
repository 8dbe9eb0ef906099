import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoEmailForRole } from '@kb/contracts/roles';
import type { LoginResult } from '@kb/contracts/auth';
import type { SearchCounts, SearchRowInput } from '@kb/contracts/search';
import { ACTIVITY_CAP_MESSAGE, SearchCriteriaSchema } from '@kb/contracts/search';
import { ERROR_CODES } from '@kb/contracts/errors';
import { DATABASES, authHeaders, startTestApp } from '../../../../test/harness.ts';
import type { TestApp } from '../../../../test/harness.ts';
import { SearchRunner } from '../search-run.ts';
import { compileCriteria } from '../search-plan.ts';
import type { CompiledRow } from '../row-compiler.ts';
import { loadsState } from '../../knowledge-base/kb-loads.ts';
import { bitmapSearch, readRowSets } from './bitmap-counts.ts';
import { BitmapIndex } from './bitmap-index.ts';
import type { RowSetSource, RowSets } from './bitmap-counts.ts';

/**
 * The bitmap engine behind the count call (SEARCH_BITMAPS=1): the activity cap answers as on the
 * SQL path, and a load that ends makes the next count read the knowledge base again. The corpus of
 * search-corpus.api.test.ts checks its counts against plain SQL.
 */
describe.each(DATABASES)('bitmap counts on %s', (kind) => {
  const CAP = 300;
  let t: TestApp;
  let login: LoginResult;
  let target: { target_id: number; gene_symbol: string; n: number };
  const rowsOf = () =>
    [{ selectedOption: 'target', targets: [{ label: target.gene_symbol, ids: [target.target_id] }] }] as SearchRowInput[];
  const count = (rows: SearchRowInput[]) =>
    t.call({ method: 'POST', url: '/api/guidedsearch/count', headers: authHeaders(login), payload: { searchcriteria: { rows } } });

  beforeAll(async () => {
    t = await startTestApp(kind, { SEARCH_BITMAPS: '1', SEARCH_ACTIVITY_CAP: String(CAP) }, { demoChunks: 1 });
    login = await t.login(demoEmailForRole('FULL_USER'));
    const { rows } = await sql<{
      target_id: number;
      gene_symbol: string;
      n: number;
    }>`SELECT t.target_id, t.gene_symbol, count(*)::int AS n FROM targets t JOIN activities a USING (target_id)
      WHERE t.gene_symbol IS NOT NULL GROUP BY 1, 2 HAVING count(*) < ${CAP} ORDER BY count(*) DESC LIMIT 1`.execute(t.database.db);
    target = rows[0]!;
  }, 120_000);
  afterAll(() => t?.close());

  it('answers the activity cap with the same 400 as the SQL path', async () => {
    await t.app.services.search.bitmapsReady();
    const bitmapCounts = t.app.services.search.countPaths.bitmaps;
    const all = await count([{ selectedOption: 'activitytypes', activities: [{ activityType: 'IC50' }] }]);
    expect(all.statusCode).toBe(400);
    expect(all.data).toMatchObject({ message: ACTIVITY_CAP_MESSAGE, code: ERROR_CODES.validation });
    expect(t.app.services.search.countPaths.bitmaps).toBe(bitmapCounts + 1);
  });

  it('counts rows a load brought in once the load has ended', async () => {
    await t.app.services.search.bitmapsReady();
    const before = await count(rowsOf());
    expect(before.statusCode, before.body).toBe(200);
    expect((before.data.rows as SearchCounts[])[0]!.actidscount).toBe(target.n);
    // A release adds one activity on the target (a copy of one of its activities) and ends its load.
    await sql`INSERT INTO activities (str_id, gvk_id, assay_id, ref_id, target_id, std_activity_type, std_act_prefix, activity_value, standard_uom)
      SELECT str_id, gvk_id, assay_id, ref_id, target_id, std_activity_type, std_act_prefix, activity_value, standard_uom FROM activities WHERE target_id = ${target.target_id} LIMIT 1`.execute(
      t.database.db,
    );
    // While a load runs, its committed rows are counted too: on the SQL path, not from columns read before it.
    const running = await sql<{
      load_id: number;
    }>`INSERT INTO kb_loads (kind, label, status) VALUES ('update', 'test release', 'running') RETURNING load_id`.execute(t.database.db);
    const sqlBefore = t.app.services.search.countPaths.sql;
    const during = await count(rowsOf());
    expect((during.data.rows as SearchCounts[])[0]!.actidscount).toBe(target.n + 1);
    expect(t.app.services.search.countPaths.sql).toBe(sqlBefore + 1);
    await sql`UPDATE kb_loads SET status = 'complete', finished_at = now() WHERE load_id = ${running.rows[0]!.load_id}`.execute(
      t.database.db,
    );
    // At once: while the columns are read again, the count is answered on the SQL path...
    const paths = { ...t.app.services.search.countPaths };
    const meanwhile = await count(rowsOf());
    expect((meanwhile.data.rows as SearchCounts[])[0]!.actidscount).toBe(target.n + 1);
    expect(t.app.services.search.countPaths.sql).toBe(paths.sql + 1);
    // ...and once they are read, by the bitmaps, with the new activity.
    await t.app.services.search.bitmapsReady();
    const after = await count(rowsOf());
    expect((after.data.rows as SearchCounts[])[0]!.actidscount).toBe(target.n + 1);
    expect(t.app.services.search.countPaths.bitmaps).toBe(paths.bitmaps + 1);
  });

  it('reads the columns again when a load ends while a read begun during it is still under way', async () => {
    const db = t.database.db;
    const running = await sql<{
      load_id: number;
    }>`INSERT INTO kb_loads (kind, label, status) VALUES ('update', 'short release', 'running') RETURNING load_id`.execute(db);
    // A fresh index (no read in the last minute): asked during the load, it starts reading its rows.
    const index = new BitmapIndex(db);
    expect(await index.ifCurrent()).toBeNull();
    await sql`UPDATE kb_loads SET status = 'complete', finished_at = now() WHERE load_id = ${running.rows[0]!.load_id}`.execute(db);
    // Asked again before that read ends: the answer is the columns after the load, not the read's.
    const columns = await index.current();
    expect(columns.version).toBe((await loadsState(db)).version);
    expect(await index.ifCurrent()).toBe(columns);
  });

  it('keeps the same structures as SQL for a stored NaN and a NULL property (NaN sorts above every number in PostgreSQL)', async () => {
    const db = t.database.db;
    // A release sets one structure's weight to NaN and another's to NULL, and ends its load.
    const loaded = await sql<{
      load_id: number;
    }>`INSERT INTO kb_loads (kind, label, status) VALUES ('update', 'property fix', 'running') RETURNING load_id`.execute(db);
    await sql`UPDATE structures SET mol_weight = 'NaN' WHERE str_id = (SELECT min(str_id) FROM structures)`.execute(db);
    await sql`UPDATE structures SET mol_weight = NULL WHERE str_id = (SELECT max(str_id) FROM structures)`.execute(db);
    await sql`UPDATE kb_loads SET status = 'complete', finished_at = now() WHERE load_id = ${loaded.rows[0]!.load_id}`.execute(db);
    await t.app.services.search.bitmapsReady();
    // (Narrow ranges: this file's activity cap is 300.) Above every weight only the NaN one is kept.
    const expected: number[] = [];
    for (const properties of [{ molmin: 100_000 }, { molmax: 1 }, { molmin: 300, molmax: 303 }]) {
      const bitmaps = t.app.services.search.countPaths.bitmaps;
      const answer = await count([{ selectedOption: 'structure', properties }]);
      expect(t.app.services.search.countPaths.bitmaps).toBe(bitmaps + 1);
      const where = [
        properties.molmin !== undefined ? sql`mol_weight >= ${properties.molmin}` : sql`TRUE`,
        properties.molmax !== undefined ? sql`mol_weight <= ${properties.molmax}` : sql`TRUE`,
      ];
      const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM structures WHERE ${sql.join(where, sql` AND `)}`.execute(db);
      expect(answer.statusCode, answer.body).toBe(200);
      expect((answer.data.rows as SearchCounts[])[0]!.stridscount, JSON.stringify(properties)).toBe(rows[0]!.n);
      expected.push(rows[0]!.n);
    }
    expect(expected[0]).toBe(1);
    expect(expected[2]).toBeGreaterThan(0);
  });

  it("makes a row at its other level once and keeps it with the row's sets: a NOT search again reuses it, same sets", async () => {
    const runner = new SearchRunner(t.database.db, t.app.services.chemEngine, { bitmapCounts: true, databaseKind: t.database.kind });
    await runner.bitmapsReady();
    const columns = (await runner.columnsIfCurrent())!;
    // A structure row (its activities level) NOT an activity row (its structures level).
    const criteria = SearchCriteriaSchema.parse({
      rows: [
        { selectedOption: 'structure', properties: { molmin: 250, molmax: 450 }, operator: 'NOT' },
        { selectedOption: 'activitytypes', activities: [{ activityType: 'Ki' }] },
      ],
    });
    const { ctx, structures } = await runner.context(login.id);
    const compiled = await compileCriteria(criteria, ctx);
    await structures.cleanup();
    // A cache by row, as the index's: the same row objects answer both runs.
    const cached = new Map<CompiledRow, Promise<RowSets>>();
    const source: RowSetSource = (db, cols, row) => {
      if (!cached.has(row)) cached.set(row, readRowSets(db, cols, row));
      return cached.get(row)!;
    };
    const first = await bitmapSearch(t.database.db, columns, compiled, 1e9, source);
    const [structureRow, activityRow] = await Promise.all(compiled.rows.map((row) => cached.get(row)!));
    const madeActivities = structureRow!.levels?.activities;
    const madeStructures = activityRow!.levels?.structures;
    expect(madeActivities?.value?.size).toBeGreaterThan(0);
    expect(madeStructures?.value?.size).toBeGreaterThan(0);
    const again = await bitmapSearch(t.database.db, columns, compiled, 1e9, source);
    expect(structureRow!.levels?.activities).toBe(madeActivities);
    expect(activityRow!.levels?.structures).toBe(madeStructures);
    // The same sets as without any cache.
    const fresh = await bitmapSearch(t.database.db, columns, compiled, 1e9, readRowSets);
    for (const run of [first, again]) {
      expect(run.counts).toEqual(fresh.counts);
      expect(run.structures.toArray()).toEqual(fresh.structures.toArray());
      expect(run.activities.toArray()).toEqual(fresh.activities.toArray());
    }
    expect(fresh.counts.stridscount).toBeGreaterThan(0);
  });
});
