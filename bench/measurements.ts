// `npm run bench -- measurements [--database-url postgres://...] [--activities 3400000] [--hot 200000] [--runs 5]`:
// the measurement list (docs/leaflets.md "Measurement list") of a structure measured `--hot` times on
// one target, in a knowledge base inflated to about `--activities` activities (copies of the demo
// activities onto other structure ids), through the measurement service as the server calls it.
// Figures: p50 / p95 per request (first page by value, by value descending, a deep page by
// pChEMBL, by year, one type, the no-target list, an ordinary compound on every target). Reference
// in the same run: counting the hot structure's activities on the target from the index alone.
// The rows it adds carry `activity_remarks = 'bench:measurements'` and are deleted at the end.
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import type { MeasurementSort } from '@kb/contracts/leaflets';
import { openBenchDatabase, summary, writeResult } from './support/bench-kit.ts';
import { MeasurementService } from '../apps/server/src/modules/leaflets/measurement-service.ts';
import type { MeasurementSelection } from '../apps/server/src/modules/leaflets/measurement-service.ts';

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== '--'),
  options: {
    'database-url': { type: 'string' },
    activities: { type: 'string', default: '3400000' },
    hot: { type: 'string', default: '200000' },
    runs: { type: 'string', default: '5' },
  },
});
const wantedActivities = Number.parseInt(values.activities ?? '3400000', 10);
const hotCount = Number.parseInt(values.hot ?? '200000', 10);
const runs = Number.parseInt(values.runs ?? '5', 10);
const MARK = 'bench:measurements';

const handle = await openBenchDatabase(values['database-url']);
const db = handle.db;
const service = new MeasurementService(db);

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

try {
  const { rows: base } = await sql<{
    n: number;
    max_str: number;
  }>`SELECT count(*)::int AS n, max(str_id)::int AS max_str FROM activities`.execute(db);
  const { n: existing, max_str: maxStr } = base[0]!;
  const copies = Math.max(0, Math.ceil((wantedActivities - existing - hotCount) / existing));
  console.error(`${existing} activities; adding ${copies} copies and ${hotCount} measurements of one structure on one target…`);
  if (copies > 0) {
    await sql`INSERT INTO activities (str_id, gvk_id, assay_id, ref_id, target_id, std_activity_type, std_act_prefix, activity_value, standard_uom, micro_molarvalue, pchembl_value, activity_remarks)
      SELECT a.str_id + c * ${maxStr}, a.gvk_id, a.assay_id, a.ref_id, a.target_id, a.std_activity_type, a.std_act_prefix, a.activity_value, a.standard_uom, a.micro_molarvalue, a.pchembl_value, ${MARK}
      FROM activities a, generate_series(1, ${copies}) c WHERE a.activity_remarks IS DISTINCT FROM ${MARK}`.execute(db);
  }
  const { rows: hotRows } = await sql<{ str_id: number; target_id: number; ref_id: number | null; assay_id: number | null }>`
    SELECT str_id::int, target_id::int, ref_id::int, assay_id::int FROM activities WHERE target_id IS NOT NULL AND str_id IS NOT NULL ORDER BY act_id LIMIT 1`.execute(
    db,
  );
  const hot = hotRows[0]!;
  await sql`INSERT INTO activities (str_id, target_id, ref_id, assay_id, std_activity_type, std_act_prefix, activity_value, standard_uom, micro_molarvalue, pchembl_value, activity_remarks)
    SELECT ${hot.str_id}, ${hot.target_id}, ${hot.ref_id}, ${hot.assay_id}, CASE WHEN g % 3 = 0 THEN 'Ki' ELSE 'IC50' END, '=', g % 10000 + 1, 'nM', (g % 10000 + 1) / 1000.0,
      9 - log(g % 10000 + 1), ${MARK} FROM generate_series(1, ${hotCount}) g`.execute(db);
  await sql`ANALYZE activities`.execute(db);
  const { rows: totalRows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM activities`.execute(db);
  const { rows: ordinary } = await sql<{
    str_id: number;
  }>`SELECT str_id::int FROM activities WHERE str_id <> ${hot.str_id} AND str_id IS NOT NULL ORDER BY act_id LIMIT 1`.execute(db);

  const list = (selection: Partial<MeasurementSelection> & { page?: number }) => () =>
    service.list({ idType: 'structure', sort: 'value', direction: 'asc', page: 0, pageSize: 50, ...selection } as MeasurementSelection & {
      page: number;
      pageSize: number;
    });
  const on = { id: hot.str_id, targetId: hot.target_id };
  const cases: Array<[string, () => Promise<unknown>]> = [
    ['first page by value', list(on)],
    ['by value, descending', list({ ...on, direction: 'desc' })],
    ['page 1,000 by pChEMBL', list({ ...on, sort: 'pchembl' as MeasurementSort, direction: 'desc', page: 1000 })],
    ['by year', list({ ...on, sort: 'year' as MeasurementSort })],
    ['one type (Ki)', list({ ...on, type: 'Ki' })],
    ['no-target list of that structure', list({ id: hot.str_id, targetId: 'none' })],
    ['an ordinary compound, every target', list({ id: ordinary[0]!.str_id, targetId: 'all' })],
    [
      'reference: index count',
      async () => sql`SELECT count(*) FROM activities WHERE str_id = ${hot.str_id} AND target_id = ${hot.target_id}`.execute(db),
    ],
  ];
  const figures: Record<string, ReturnType<typeof summary>> = {};
  for (const [, fn] of cases) await fn(); // warm
  for (const [name, fn] of cases) {
    const ms: number[] = [];
    for (let i = 0; i < runs; i++) ms.push(await timed(fn));
    figures[name] = summary(ms);
  }
  const result = { database: handle.kind, activities: totalRows[0]!.n, hot: { ...hot, measurements: hotCount }, runs, figures };
  console.log(
    `measurements on ${handle.kind}, ${totalRows[0]!.n.toLocaleString('en-US')} activities, ${hotCount.toLocaleString('en-US')} on one structure × target: ` +
      Object.entries(figures)
        .map(([name, s]) => `${name} p50 ${s.p50} ms (p95 ${s.p95})`)
        .join('; '),
  );
  console.log(writeResult('measurements', result));
} finally {
  await sql`DELETE FROM activities WHERE activity_remarks = ${MARK}`.execute(db);
  await handle.close();
}
