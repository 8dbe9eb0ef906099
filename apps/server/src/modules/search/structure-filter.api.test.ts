import crypto from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoginResult } from '@kb/contracts/auth';
import { demoEmailForRole } from '@kb/contracts/roles';
import { SearchCriteriaSchema } from '@kb/contracts/search';
import type { SearchRowInput } from '@kb/contracts/search';
import { DATABASES, startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { StructureRowResolver } from './structure-query.ts';
import type { SearchService } from './search-service.ts';
import type { AuthContext } from '../../http/auth-hook.ts';
import { callerOf, searchServiceBeside } from '../../../test/search-services.ts';

/**
 * The structure filter of the results (docs/results.md "Structure filter") is the search with a
 * last structure row joined by AND (include) or NOT (exclude), whose chemistry runs only on the
 * structures the other rows leave. Each case here is run twice on the same database and structure
 * engine as the app's own search service: by a search service with that restriction (whatever share
 * of the index the other rows leave), and by one built without it (`structureCandidates: false`:
 * the engine searches the whole index, the plain AND / NOT search). Counts and the kept ids must be
 * identical.
 */
describe.each(DATABASES)('structure filter inside results on %s', (kind) => {
  let t: TestApp;
  let me: LoginResult;
  let targets: { target_id: number; gene_symbol: string }[];
  let someSmiles: string;
  let auth: AuthContext;
  /** Every case takes the restricted path, however much of this small index the search covers. */
  let restricted: SearchService;
  /** The reference: no restriction. */
  let plain: SearchService;
  /** As the app builds it (the restriction up to half of the index). */
  let defaults: SearchService;

  beforeAll(async () => {
    // Each run's sets are read back from the set tables, so the app writes them with every run.
    t = await startTestApp(kind, { SEARCH_SETS: 'tables' }, { demoChunks: 2 });
    me = await t.login(demoEmailForRole('FULL_USER'));
    targets = (
      await sql<{
        target_id: number;
        gene_symbol: string;
      }>`SELECT t.target_id, t.gene_symbol FROM targets t JOIN activities a USING (target_id)
        WHERE t.gene_symbol IS NOT NULL GROUP BY 1, 2 ORDER BY count(*) DESC LIMIT 3`.execute(t.database.db)
    ).rows;
    const picked = await sql<{ s: string }>`SELECT s.canonical_smiles AS s FROM structures s JOIN activities a USING (str_id)
      WHERE a.target_id = ${targets[0]!.target_id} ORDER BY s.str_id LIMIT 1`.execute(t.database.db);
    someSmiles = picked.rows[0]!.s;
    auth = callerOf(me);
    restricted = await searchServiceBeside(t, { structureCandidatesMaxShare: 1 });
    plain = await searchServiceBeside(t, { structureCandidates: false });
    defaults = t.app.services.search;
    await defaults.bitmapsReady();
  }, 240_000);
  afterAll(async () => {
    await restricted?.close();
    await plain?.close();
    await t?.close();
  });

  const target = (i: number, operator: 'AND' | 'OR' | 'NOT' | null = null): SearchRowInput =>
    ({ selectedOption: 'target', operator, targets: [{ label: targets[i]!.gene_symbol, ids: [targets[i]!.target_id] }] }) as SearchRowInput;
  const filterRow = (structure: Record<string, unknown>, properties?: Record<string, number>): SearchRowInput =>
    ({ selectedOption: 'structure', resultFilter: true, structure, ...(properties ? { properties } : {}) }) as SearchRowInput;

  /** Runs the rows in a new session of `service` (by default the restricted one), sets written; its counts and kept ids. */
  async function run(rows: SearchRowInput[], service: SearchService = restricted) {
    const sessionid = crypto.randomUUID();
    const counts = await service.run(auth, sessionid, SearchCriteriaSchema.parse({ rows }));
    await service.settled(sessionid);
    const session = await t.database.db
      .selectFrom('search_sessions')
      .select('set_id')
      .where('id', '=', sessionid)
      .executeTakeFirstOrThrow();
    const ids = async (table: 'search_structures' | 'search_activities', column: 'str_id' | 'act_id') =>
      (
        await sql<{
          id: number;
        }>`SELECT ${sql.ref(column)} AS id FROM ${sql.table(table)} WHERE set_id = ${session.set_id} ORDER BY 1`.execute(t.database.db)
      ).rows.map((r) => Number(r.id));
    return { counts, structures: await ids('search_structures', 'str_id'), activities: await ids('search_activities', 'act_id') };
  }

  // Thunks: the targets are read from the database once it is seeded.
  const bases: [string, () => SearchRowInput[]][] = [
    ['one target', () => [target(0)]],
    ['two targets OR', () => [target(0, 'OR'), target(1)]],
    [
      'a target NOT a mechanism',
      () => [target(0, 'NOT'), { selectedOption: 'activitymechanism', mechanisms: ['AGONIST'] } as SearchRowInput],
    ],
    [
      'IC50 below 1 µM',
      () => [
        {
          selectedOption: 'activitytypes',
          activities: [{ activityType: 'IC50', prefix: '<', minValue: 1, activityUom: 'uM' }],
        } as SearchRowInput,
      ],
    ],
  ];
  const filters: [string, 'AND' | 'NOT', () => SearchRowInput][] = [
    ['contains a pyridine', 'AND', () => filterRow({ inputType: 'smiles', value: 'c1ccncc1', category: 'substructure' })],
    ['no pyridine (exclude)', 'NOT', () => filterRow({ inputType: 'smiles', value: 'c1ccncc1', category: 'substructure' })],
    ['SMARTS amide N-H', 'AND', () => filterRow({ inputType: 'smarts', value: '[NX3;H1]C(=O)', category: 'substructure' })],
    [
      'similar to a result compound (0.5–1)',
      'AND',
      () => filterRow({ inputType: 'smiles', value: someSmiles, category: 'similarity', similarityMin: 0.5, similarityMax: 1 }),
    ],
    [
      'a ring and a weight window',
      'AND',
      () => filterRow({ inputType: 'smiles', value: 'c1ccccc1', category: 'substructure' }, { molmin: 300, molmax: 450 }),
    ],
  ];

  const cases = bases.flatMap(([baseName, base]) =>
    filters.map(([filterName, join, make]) => [`${baseName} · ${filterName}`, base, join, make] as const),
  );

  it.each(cases)('%s: equals the plain search with the row ANDed / NOTed', async (_name, baseOf, join, make) => {
    const base = baseOf();
    const rows = [...base.slice(0, -1), { ...base.at(-1)!, operator: join }, make()];
    const restrictedBefore = StructureRowResolver.candidateSearches;
    const filtered = await run(rows);
    expect(StructureRowResolver.candidateSearches).toBe(restrictedBefore + 1);
    const reference = await run(rows, plain);
    expect(StructureRowResolver.candidateSearches).toBe(restrictedBefore + 1);
    expect(filtered.counts).toEqual(reference.counts);
    expect(filtered.structures).toEqual(reference.structures);
    expect(filtered.activities).toEqual(reference.activities);
  });

  it('narrows: an include and its exclude split the search exactly, and neither is empty for a common ring', async () => {
    const base = [target(0, 'AND'), filterRow({ inputType: 'smiles', value: 'c1ccccc1', category: 'substructure' })];
    const all = await run([target(0)]);
    const include = await run(base);
    const exclude = await run([{ ...base[0]!, operator: 'NOT' }, base[1]!]);
    expect(include.structures.length).toBeGreaterThan(0);
    expect(include.structures.length + exclude.structures.length).toBe(all.structures.length);
    expect(include.activities.length + exclude.activities.length).toBe(all.activities.length);
    // Independently in SQL: the target's structures whose SMILES RDKit matched are the include's; the include is a subset.
    const allSet = new Set(all.structures);
    expect(include.structures.every((id) => allSet.has(id))).toBe(true);
  });

  it('searches the whole index when the other rows leave most of it (the same answer, less to send)', async () => {
    const all = await sql<{ n: number }>`SELECT count(*)::int AS n FROM structures`.execute(t.database.db);
    const before = StructureRowResolver.candidateSearches;
    const broad = await run(
      [
        {
          selectedOption: 'activitytypes',
          operator: 'AND',
          activities: [{ activityType: 'IC50' }, { activityType: 'Ki' }, { activityType: 'EC50' }, { activityType: 'Kd' }],
        } as SearchRowInput,
        filterRow({ inputType: 'smiles', value: 'c1ccncc1', category: 'substructure' }),
      ],
      defaults,
    );
    const base = await run([
      {
        selectedOption: 'activitytypes',
        activities: [{ activityType: 'IC50' }, { activityType: 'Ki' }, { activityType: 'EC50' }, { activityType: 'Kd' }],
      } as SearchRowInput,
    ]);
    expect(base.structures.length * 2).toBeGreaterThan(all.rows[0]!.n);
    expect(StructureRowResolver.candidateSearches).toBe(before);
    expect(broad.structures.length).toBeGreaterThan(0);
  });

  it('a last structure row after OR is not restricted (it may add structures)', async () => {
    const before = StructureRowResolver.candidateSearches;
    await run([target(0, 'OR'), filterRow({ inputType: 'smiles', value: 'c1ccncc1', category: 'substructure' })]);
    expect(StructureRowResolver.candidateSearches).toBe(before);
  });
});
