// `npm run bench -- search [--database-url postgres://...] [--rounds 3]`: p50 / p95 of guided-search
// counts (22 mixed searches, fewer where the data lacks their ingredients, each run as `api/guidedsearch/count` does: sets built and rolled back)
// and of autocomplete look-ups, on the given database (default: in-memory PGlite seeded with demo S).
// Then the same searches as the search page runs them (a session: counts, then its sets written for
// the results), once with the sets written in SQL and once written from the bitmaps (issue 18).
// Reference measured in the same run: a full count of the activities table, so the ratio
// "search p50 / full scan" survives a noisy machine.
import os from 'node:os';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import crypto from 'node:crypto';
import { benchUser, openBenchDatabase, summary, writeResult } from './support/bench-kit.ts';
import type { SearchCriteria, SearchRowInput } from '@kb/contracts/search';
import { SearchCriteriaSchema } from '@kb/contracts/search';
import { SearchService } from '../apps/server/src/modules/search/search-service.ts';
import { RdkitChemEngine } from '../apps/server/src/modules/chemistry/rdkit-engine.ts';
import { runLookup } from '../apps/server/src/modules/lookups/lookup-service.ts';
import type { TermLookupName } from '../apps/server/src/modules/lookups/lookup-service.ts';

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== '--'),
  options: { 'database-url': { type: 'string' }, rounds: { type: 'string', default: '3' } },
});
const rounds = Number.parseInt(values.rounds ?? '3', 10);

const handle = await openBenchDatabase(values['database-url']);
const db = handle.db;

const pick = async <T>(query: ReturnType<typeof sql<T>>) => (await query.execute(db)).rows;
// Picks from the data itself, so that the bench runs on any knowledge base (demo seed or an imported
// ChEMBL release); a search whose ingredient the data lacks (no company, strain or indication in a
// generated release, no gene symbols) is left out and named in the result.
const targets = await pick(sql<{ target_id: number; label: string; gene: boolean }>`SELECT target_id, coalesce(gene_symbol, name) AS label,
  gene_symbol IS NOT NULL AS gene FROM targets ORDER BY gene_symbol IS NULL, target_id LIMIT 6`);
const company = (
  await pick(sql<{ company_id: number }>`SELECT company_id FROM document_companies GROUP BY 1 ORDER BY count(*) DESC LIMIT 1`)
)[0];
const pubmed = await pick(sql<{ pubmed_id: number }>`SELECT pubmed_id FROM documents WHERE pubmed_id IS NOT NULL ORDER BY ref_id LIMIT 20`);
const strIds = await pick(sql<{ str_id: number }>`SELECT str_id FROM structures ORDER BY str_id LIMIT 500`);
const named = (
  await pick(sql<{ inchikey: string }>`SELECT inchikey FROM structures WHERE inchikey IS NOT NULL ORDER BY str_id LIMIT 1`)
)[0];
const taxon = (await pick(sql<{ taxonomy_id: number }>`SELECT taxonomy_id FROM taxonomy WHERE rank = 'strain' ORDER BY 1 LIMIT 1`))[0];
const indication = (
  await pick(sql<{ indication_id: number }>`SELECT indication_id FROM indications WHERE parent_id IS NULL ORDER BY 1 LIMIT 1`)
)[0];
if (targets.length === 0) throw new Error('This database has no targets: seed or import a knowledge base first');

const target = (i: number) => targets[i % targets.length]!;
const t = (i: number) => ({ label: target(i).label, ids: [target(i).target_id] });
/** Each search, or null when the data lacks what it needs. */
const CANDIDATES: Array<[string, SearchRowInput[] | null]> = [
  ['target', [{ selectedOption: 'target', targets: [t(0)] }]],
  [
    'target gene label',
    [{ selectedOption: 'target', targets: [{ label: target(1).label, targetCategories: [target(1).gene ? 'gene' : 'name'] }] }],
  ],
  [
    'target AND IC50 < 100 nM',
    [
      { selectedOption: 'target', targets: [t(0)] },
      { selectedOption: 'activitytypes', activities: [{ activityType: 'IC50', activityUom: 'nM', prefix: '<', minValue: 100 }] },
    ],
  ],
  [
    'two targets OR',
    [
      { selectedOption: 'target', targets: [t(1)], operator: 'OR' },
      { selectedOption: 'target', targets: [t(2)] },
    ],
  ],
  [
    'target NOT mechanism',
    [
      { selectedOption: 'target', targets: [t(3)], operator: 'NOT' },
      { selectedOption: 'activitymechanism', mechanisms: ['INHIBITOR'] },
    ],
  ],
  [
    'Ki range 1-10 nM',
    [{ selectedOption: 'activitytypes', activities: [{ activityType: 'Ki', activityUom: 'nM', prefix: 'R', minValue: 1, maxValue: 10 }] }],
  ],
  ['DC50 (degraders)', [{ selectedOption: 'activitytypes', activities: [{ activityType: 'DC50' }] }]],
  ['bivalent CRBN degraders', [{ selectedOption: 'degrader', degraderTypes: ['bivalent'], ligases: ['CRBN'] }]],
  ['assay toxicity + method', [{ selectedOption: 'assay', assayTypes: ['toxicity'], methodNames: ['Automated patch clamp'] }]],
  ['PubMed list', pubmed.length > 0 ? [{ selectedOption: 'bibliography', pubmedIds: pubmed.map((p) => Number(p.pubmed_id)) }] : null],
  [
    'patents 2018-2020 AND Ki',
    [
      { selectedOption: 'bibliography', sources: ['P'], yearRange: { fromYear: 2018, toYear: 2020 } },
      { selectedOption: 'activitytypes', activities: [{ activityType: 'Ki', activityUom: 'nM', prefix: '<=', minValue: 10 }] },
    ],
  ],
  [
    'company AND target',
    company
      ? [
          { selectedOption: 'company', companyIds: [company.company_id] },
          { selectedOption: 'target', targets: [t(0), t(1)] },
        ]
      : null,
  ],
  ['structure ids (500)', strIds.length > 0 ? [{ selectedOption: 'structure', strIds: strIds.map((s) => s.str_id) }] : null],
  [
    'InChIKey',
    named ? [{ selectedOption: 'structure', structure: { inputType: 'inchikey', value: named.inchikey, category: 'exact' } }] : null,
  ],
  [
    'Rule of 3 AND target',
    [
      {
        selectedOption: 'structure',
        properties: { molmin: 0, molmax: 300, hbdmin: 0, hbdmax: 3, hbamin: 0, hbamax: 3, logpmin: 0, logpmax: 3 },
      },
      { selectedOption: 'target', targets: [t(4)] },
    ],
  ],
  [
    'MW 350-400 AND logP < 3 AND IC50',
    [
      { selectedOption: 'structure', properties: { molmin: 350, molmax: 400, logpmax: 3 } },
      { selectedOption: 'activitytypes', activities: [{ activityType: 'IC50', activityUom: 'uM', prefix: '<', minValue: 1 }] },
    ],
  ],
  ['clinical Launched', [{ selectedOption: 'clinicalphase', phases: ['Launched'] }]],
  [
    'indication subtree NOT Launched',
    indication
      ? [
          { selectedOption: 'indication', indicationIds: [indication.indication_id], operator: 'NOT' },
          { selectedOption: 'clinicalphase', phases: ['Launched'] },
        ]
      : null,
  ],
  [
    'source strain AND CC50',
    taxon
      ? [
          { selectedOption: 'source', taxonomyIds: [taxon.taxonomy_id] },
          { selectedOption: 'activitytypes', activities: [{ activityType: 'CC50' }] },
        ]
      : null,
  ],
  [
    'category OR phase II',
    [
      { selectedOption: 'compoundcategories', categories: ['monovalent degrader'], operator: 'OR' },
      { selectedOption: 'clinicalphase', phases: ['Phase II'] },
    ],
  ],
  [
    '(target AND binding) OR bivalent',
    [
      { selectedOption: 'target', targets: [t(5)] },
      { selectedOption: 'assay', assayTypes: ['binding'], operator: 'OR' },
      { selectedOption: 'degrader', degraderTypes: ['bivalent'] },
    ],
  ],
  [
    'agonists in functional assays',
    [
      { selectedOption: 'activitymechanism', mechanisms: ['AGONIST'] },
      { selectedOption: 'assay', assayTypes: ['functional'] },
    ],
  ],
];

// Target families and text as typed (docs/search-semantics.md "Target text and families"): resolved
// by the target resolver, then counted like any target row. Reported apart from the others.
const family = (
  await pick(sql<{ class_id: number; name: string }>`SELECT class_id, name FROM target_classes WHERE lower(name) = 'nuclear receptor'
  UNION ALL (SELECT class_id, name FROM target_classes c WHERE EXISTS (SELECT 1 FROM targets t WHERE t.class_id = c.class_id) ORDER BY class_id LIMIT 1)`)
)[0];
const typed = (label: string) => ({
  label,
  targetCategories: ['name', 'uniprot', 'gene', 'entrez', 'pdb'] as Array<'name' | 'uniprot' | 'gene' | 'entrez' | 'pdb'>,
});
const FAMILY_CANDIDATES: Array<[string, SearchRowInput[] | null]> = [
  [`family "${family?.name ?? '(none)'}" as typed`, family ? [{ selectedOption: 'target', targets: [typed(family.name)] }] : null],
  [
    'family picked (class id)',
    family ? [{ selectedOption: 'target', targets: [{ label: family.name, classIds: [family.class_id] }] }] : null,
  ],
  [
    'prefix "JAK" AND IC50',
    [
      { selectedOption: 'target', targets: [typed('JAK')] },
      { selectedOption: 'activitytypes', activities: [{ activityType: 'IC50' }] },
    ],
  ],
  ['wildcards "CDK?" | "HDAC*"', [{ selectedOption: 'target', targets: [typed('CDK?'), typed('HDAC*')] }]],
];
const available = (list: Array<[string, SearchRowInput[] | null]>) => list.filter((e): e is [string, SearchRowInput[]] => e[1] !== null);
const SKIPPED = [...CANDIDATES, ...FAMILY_CANDIDATES].filter(([, rows]) => rows === null).map(([name]) => name);
const SEARCHES = available(CANDIDATES);
const FAMILY_SEARCHES = available(FAMILY_CANDIDATES);
const FAMILY_NAMES = new Set(FAMILY_SEARCHES.map(([name]) => name));
SEARCHES.push(...FAMILY_SEARCHES);

const LOOKUPS: Array<[TermLookupName, string]> = [
  ['target', 'kin'],
  ['target', target(0).label.slice(0, 3)],
  ['targetByUniprotId', 'P0'],
  ['targetByName', 'recep'],
  ['structure', 'DEMO'],
  ['bibliography', 'inhib'],
  ['activityType', 'IC'],
  ['indication', 'neo'],
  ['source', 'hom'],
  ['strainGenus', 'Ho'],
  ['clinicalPhase', 'pha'],
  ['moleculeCategory', 'deg'],
  ['activityMechanism', 'ag'],
  ['journalCustomSearch', 'J'],
  ['patentCustomSearch', 'US'],
  ['doiCustomSearch', '10.5555'],
  ['companyByName', 'DEMO'],
];

async function time<T>(fn: () => Promise<T>): Promise<[number, T | Error]> {
  const started = performance.now();
  try {
    const value = await fn();
    return [performance.now() - started, value];
  } catch (error) {
    return [performance.now() - started, error as Error];
  }
}

// No structure-engine rows in these searches: the engine's workers start only if one is used.
const engine = new RdkitChemEngine(db);
const service = new SearchService(db, engine);
// The bitmap engine (issue 18) on the same searches, same run: its first count reads the columns.
const bitmapService = new SearchService(db, engine, { bitmapCounts: true, databaseKind: handle.kind });
// Reference: one full count of the activities table.
const [fullScanMs] = await time(() => sql`SELECT count(*) FROM activities`.execute(db));

// Warm-up: build the look-up table and tree counts if needed, prime caches.
await runLookup(db, 'target', { term: 'a', limit: 20 });
const perSearch: Record<string, { ms: number[]; bitmapMs?: number[]; counts: unknown }> = {};
const countMs: number[] = [];
const familyMs: number[] = [];
const familyBitmapMs: number[] = [];
for (let round = 0; round < rounds; round++) {
  for (const [name, rows] of SEARCHES) {
    const criteria: SearchCriteria = SearchCriteriaSchema.parse({ rows });
    const [ms, result] = await time(() => service.countOnly(criteria));
    (FAMILY_NAMES.has(name) ? familyMs : countMs).push(ms);
    perSearch[name] ??= { ms: [], counts: null };
    perSearch[name].ms.push(Number(ms.toFixed(1)));
    perSearch[name].counts = result instanceof Error ? `error: ${result.message}` : result;
  }
}
// Bitmaps: the column read is timed on its own (start-up cost), then the same rounds.
const [columnsMs] = await time(() => bitmapService.bitmapsReady());
const rssColumns = process.memoryUsage().rss;
// Round 1 reads every row's ids from the database (cold); later rounds find them in the row cache
// (warm), as a chemist re-counting a search after adding a row does.
const bitmapMs: number[] = [];
const bitmapWarmMs: number[] = [];
const mismatches: string[] = [];
for (let round = 0; round < rounds; round++) {
  for (const [name, rows] of SEARCHES) {
    const criteria: SearchCriteria = SearchCriteriaSchema.parse({ rows });
    const [ms, result] = await time(() => bitmapService.countOnly(criteria));
    if (FAMILY_NAMES.has(name)) familyBitmapMs.push(ms);
    else (round === 0 ? bitmapMs : bitmapWarmMs).push(ms);
    const entry = perSearch[name]!;
    (entry.bitmapMs ??= []).push(Number(ms.toFixed(1)));
    const counts = result instanceof Error ? `error: ${result.message}` : result;
    // Same counts as the SQL path, or the bench says so (the corpus test is the real check).
    if (JSON.stringify(counts) !== JSON.stringify(entry.counts) && !mismatches.includes(name)) mismatches.push(name);
  }
}
// Search page runs, one round: until the sets are written, on each path (a run over the activity cap
// fails on both, as quickly, and is left out of the figures).
const auth = await benchUser(db, 'bench-search@example.com');
const runMs = { sql: [] as number[], bitmaps: [] as number[], bitmapCountsShown: [] as number[] };
for (const [name, rows] of SEARCHES) {
  if (FAMILY_NAMES.has(name)) continue;
  const criteria: SearchCriteria = SearchCriteriaSchema.parse({ rows });
  for (const [path, searches] of [
    ['sql', service],
    ['bitmaps', bitmapService],
  ] as const) {
    const sessionId = crypto.randomUUID();
    const started = performance.now();
    const [shownMs, counts] = await time(() => searches.run(auth, sessionId, criteria));
    await searches.settled(sessionId);
    const ms = performance.now() - started;
    const session = await db
      .selectFrom('search_sessions')
      .select(['set_id', 'status'])
      .where('id', '=', sessionId)
      .executeTakeFirstOrThrow();
    await searches.dropSets(Number(session.set_id), sessionId);
    if (counts instanceof Error || session.status !== 'ready') continue;
    runMs[path].push(ms);
    if (path === 'bitmaps') runMs.bitmapCountsShown.push(shownMs);
    const entry = perSearch[name]!;
    Object.assign(entry, { [`${path}RunMs`]: Number(ms.toFixed(1)) });
  }
}
const lookupMs: number[] = [];
for (let round = 0; round < rounds; round++) {
  for (const [name, term] of LOOKUPS) {
    const [ms] = await time(() => runLookup(db, name, { term, limit: 20 }));
    lookupMs.push(ms);
  }
}
await service.close();
await bitmapService.close();
await engine.close();
const { rows: size } = await sql<{ structures: number; activities: number }>`SELECT (SELECT count(*)::int FROM structures) AS structures,
  (SELECT count(*)::int FROM activities) AS activities`.execute(db);
await handle.close();

const counts = summary(countMs);
const bitmaps = summary(bitmapMs);
const bitmapsWarm = summary(bitmapWarmMs);
const lookups = summary(lookupMs);
const runs = { sql: summary(runMs.sql), bitmaps: summary(runMs.bitmaps), countsShown: summary(runMs.bitmapCountsShown) };
const result = {
  bench: 'search',
  database: handle.kind,
  size: size[0],
  cpus: os.availableParallelism(),
  loadAverage: os.loadavg().map((l) => Number(l.toFixed(2))),
  rounds,
  reference: { fullActivityCountMs: Number(fullScanMs.toFixed(1)) },
  skipped: SKIPPED,
  counts: { ...counts, searches: SEARCHES.length - FAMILY_SEARCHES.length, p50OverFullScan: Number((counts.p50 / fullScanMs).toFixed(3)) },
  // Target families and text as typed, both engines (the bitmap figures are all rounds, cold and warm).
  targetFamilies: { sql: summary(familyMs), bitmaps: summary(familyBitmapMs), searches: FAMILY_SEARCHES.length },
  bitmapCounts: {
    ...bitmaps,
    columnsReadMs: Number(columnsMs.toFixed(0)),
    rssAfterColumnsMb: Math.round(rssColumns / 2 ** 20),
    p50OverSqlP50: Number((bitmaps.p50 / counts.p50).toFixed(3)),
    p95OverSqlP95: Number((bitmaps.p95 / counts.p95).toFixed(3)),
    warmRowCache: bitmapsWarm,
    mismatches,
  },
  autocomplete: { ...lookups, lookups: LOOKUPS.length },
  // Whole search page runs, counts to sets written: SQL against bitmaps (counts shown first).
  searchRuns: {
    ...runs,
    totalOverSql: Number(
      (
        runMs.bitmaps.reduce((a, b) => a + b, 0) /
        Math.max(
          1,
          runMs.sql.reduce((a, b) => a + b, 0),
        )
      ).toFixed(3),
    ),
  },
  perSearch,
};
const file = writeResult('search', result);
console.log(
  `search on ${handle.kind} (${size[0]?.structures.toLocaleString('en-US')} structures, ${size[0]?.activities.toLocaleString('en-US')} activities): ` +
    `counts p50 ${counts.p50} ms p95 ${counts.p95} ms (${SEARCHES.length - FAMILY_SEARCHES.length} searches × ${rounds}${SKIPPED.length > 0 ? `; not in this data: ${SKIPPED.join(', ')}` : ''}); ` +
    `target families and text: SQL p50 ${result.targetFamilies.sql.p50} / p95 ${result.targetFamilies.sql.p95} ms, bitmaps p50 ${result.targetFamilies.bitmaps.p50} / p95 ${result.targetFamilies.bitmaps.p95} ms (${FAMILY_SEARCHES.length} searches); ` +
    `bitmap counts p50 ${bitmaps.p50} ms p95 ${bitmaps.p95} ms max ${bitmaps.max} ms, rows cached p50 ${bitmapsWarm.p50} ms p95 ${bitmapsWarm.p95} ms (columns read in ${result.bitmapCounts.columnsReadMs} ms, process RSS ${result.bitmapCounts.rssAfterColumnsMb} MB; ${mismatches.length} searches counted differently); ` +
    `search runs to sets written: SQL p50 ${runs.sql.p50} / p95 ${runs.sql.p95} ms, from bitmaps p50 ${runs.bitmaps.p50} / p95 ${runs.bitmaps.p95} ms (counts shown p50 ${runs.countsShown.p50} ms; all runs ${result.searchRuns.totalOverSql}× of SQL's time); autocomplete p50 ${lookups.p50} ms p95 ${lookups.p95} ms; ` +
    `full activity count ${result.reference.fullActivityCountMs} ms (counts p50 = ${result.counts.p50OverFullScan}× of it) → ${file}`,
);
