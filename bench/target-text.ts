// `npm run bench -- target-text [--database-url postgres://.../scratch] [--rounds 5]`: the target
// resolver (modules/targets, docs/search-semantics.md "Target text and families") on a synthetic
// target dictionary of ChEMBL's size (15,000 targets, 45,000 synonyms, 1,200 families): what one
// Target row's text costs to resolve (identifier, prefix, whole word, wildcard, family), and an
// upload of 1,000 terms (identifiers, and terms that match nothing, the worst case: every fuzzy
// rule is tried). The dictionary is written into the given database when it has fewer than 1,000
// targets (use a scratch database), else into in-memory PGlite; activities are not needed.
import os from 'node:os';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import type { TargetTerm } from '@kb/contracts/search';
import { TARGET_CATEGORIES } from '@kb/contracts/search';
import { openDatabase } from '../apps/server/src/db/database.ts';
import { migrateToLatest } from '../apps/server/src/db/migrate.ts';
import { resolveTargetTerms } from '../apps/server/src/modules/targets/target-resolver.ts';
import { summary, writeResult } from './support/bench-kit.ts';

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== '--'),
  options: { 'database-url': { type: 'string' }, rounds: { type: 'string', default: '5' } },
});
const rounds = Number.parseInt(values.rounds ?? '5', 10);
const handle = await openDatabase({ url: values['database-url'] });
await migrateToLatest(handle);
const db = handle.db;

const { rows: existing } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM targets`.execute(db);
if ((existing[0]?.n ?? 0) < 1000) {
  const started = performance.now();
  // Words of real target names, so names and synonyms look like ChEMBL's (several words, hyphens, brackets).
  await sql`CREATE TEMP TABLE bench_words AS SELECT w, row_number() OVER () - 1 AS i FROM unnest(${[
    'Tyrosine-protein',
    'kinase',
    'receptor',
    'subunit',
    'alpha',
    'beta',
    'gamma',
    'Serine/threonine-protein',
    'Poly',
    '[ADP-ribose]',
    'polymerase',
    'Histone',
    'deacetylase',
    'Cytochrome',
    'P450',
    'Dopamine',
    'Serotonin',
    'transporter',
    'channel',
    'Sodium',
    'Potassium',
    'voltage-gated',
    'Carbonic',
    'anhydrase',
    'Phosphodiesterase',
    'Metabotropic',
    'glutamate',
    'Nuclear',
    'factor',
    'Bromodomain-containing',
    'protein',
    'Ubiquitin',
    'ligase',
    'E3',
    'Mitogen-activated',
    'Cyclin-dependent',
    'Glucocorticoid',
    'Estrogen',
    'Androgen',
    'Adenosine',
    'Muscarinic',
    'acetylcholine',
  ]}::text[]) AS w`.execute(db);
  await sql`INSERT INTO target_classes (class_id, parent_id, name, level)
    SELECT n, CASE WHEN n <= 12 THEN NULL ELSE (n - 1) / 8 END,
      (SELECT string_agg(w, ' ') FROM bench_words WHERE i IN ((n * 7) % 42, (n * 13 + 5) % 42)) || ' family ' || n,
      CASE WHEN n <= 12 THEN 1 WHEN n <= 100 THEN 2 WHEN n <= 800 THEN 3 ELSE 4 END
    FROM generate_series(1, 1200) AS s(n)`.execute(db);
  await sql`SELECT setval(pg_get_serial_sequence('target_classes', 'class_id'), 1200)`.execute(db);
  await sql`INSERT INTO targets (target_id, name, gene_symbol, uniprot_id, chembl_id, organism, class_id)
    SELECT n,
      (SELECT string_agg(w, ' ') FROM bench_words WHERE i IN ((n * 3) % 42, (n * 11 + 1) % 42, (n * 17 + 2) % 42)) || ' ' || (n % 20 + 1),
      upper(substr(md5(n::text), 1, 3 + n % 3)) || (n % 9 + 1),
      'Q' || lpad(n::text, 5, '0'), 'CHEMBL' || (100000 + n), 'Homo sapiens', 13 + n % 1188
    FROM generate_series(1, 15000) AS s(n)`.execute(db);
  await sql`INSERT INTO target_synonyms (target_id, synonym, syn_type)
    SELECT target_id, upper(substr(md5('alias' || target_id), 1, 4)) || (target_id % 7), 'gene symbol other' FROM targets
    UNION ALL SELECT target_id, 'P' || lpad(target_id::text, 5, '0'), 'UniProt accession' FROM targets
    UNION ALL SELECT target_id, split_part(name, ' ', 1) || '-' || (target_id % 30), 'synonym' FROM targets`.execute(db);
  await sql`ANALYZE target_classes; ANALYZE targets; ANALYZE target_synonyms`.execute(db).catch(async () => {
    for (const table of ['target_classes', 'targets', 'target_synonyms']) await sql.raw(`ANALYZE ${table}`).execute(db);
  });
  console.error(`synthetic target dictionary written in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
const { rows: size } = await sql<{
  targets: number;
  synonyms: number;
  classes: number;
}>`SELECT (SELECT count(*)::int FROM targets) AS targets,
  (SELECT count(*)::int FROM target_synonyms) AS synonyms, (SELECT count(*)::int FROM target_classes) AS classes`.execute(db);

const anyField = [...TARGET_CATEGORIES];
const term = (label: string, extra: Partial<TargetTerm> = {}): TargetTerm => ({
  label,
  targetCategories: anyField,
  operator: '|',
  ...extra,
});
const someTarget = (
  await sql<{
    gene_symbol: string;
    uniprot_id: string;
  }>`SELECT gene_symbol, uniprot_id FROM targets ORDER BY target_id LIMIT 1 OFFSET 500`.execute(db)
).rows[0]!;
const CASES: [string, TargetTerm[]][] = [
  ['identifier (gene symbol)', [term(someTarget.gene_symbol)]],
  ['identifier (UniProt)', [term(someTarget.uniprot_id)]],
  ['prefix "PARP"', [term('PARP')]],
  ['whole word "kinase" (thousands)', [term('kinase')]],
  ['two words "protein kinase"', [term('protein kinase')]],
  ['wildcard "kin*"', [term('kin*')]],
  ['wildcard "*ase"', [term('*ase')]],
  ['family by class id', [term('family', { classIds: [3] })]],
  ['row of 5 text terms', ['PARP', 'JAK', 'receptor', 'CYP*', 'histone deacetylase'].map((l) => term(l))],
];
const time = async (fn: () => Promise<unknown>) => {
  const started = performance.now();
  await fn();
  return performance.now() - started;
};
// Warm-up (plans, caches).
for (const [, terms] of CASES) await resolveTargetTerms(db, terms);
const perCase: Record<string, { ms: number[]; targets: number }> = {};
const all: number[] = [];
for (let round = 0; round < rounds; round++) {
  for (const [name, terms] of CASES) {
    const ms = await time(() => resolveTargetTerms(db, terms));
    all.push(ms);
    const resolved = await resolveTargetTerms(db, terms);
    perCase[name] ??= { ms: [], targets: new Set(resolved.flatMap((r) => r.ids)).size };
    perCase[name].ms.push(Number(ms.toFixed(1)));
  }
}
// Uploads of 1,000 terms: gene symbols and accessions (identifiers), then terms that match nothing.
const genes = (await sql<{ g: string }>`SELECT gene_symbol AS g FROM targets ORDER BY target_id LIMIT 500`.execute(db)).rows.map(
  (r) => r.g,
);
const accessions = (await sql<{ u: string }>`SELECT uniprot_id AS u FROM targets ORDER BY target_id DESC LIMIT 500`.execute(db)).rows.map(
  (r) => r.u,
);
const identifiersMs = await time(() =>
  resolveTargetTerms(
    db,
    [...genes, ...accessions].map((l) => term(l)),
  ),
);
const nothingMs = await time(() =>
  resolveTargetTerms(
    db,
    Array.from({ length: 1000 }, (_, i) => term(`zz no such target ${i}`)),
  ),
);
await handle.close();

const result = {
  bench: 'target-text',
  database: handle.kind,
  size: size[0],
  cpus: os.availableParallelism(),
  loadAverage: os.loadavg().map((l) => Number(l.toFixed(2))),
  rounds,
  resolve: summary(all),
  perCase: Object.fromEntries(Object.entries(perCase).map(([name, v]) => [name, { ...summary(v.ms), targets: v.targets }])),
  upload1000: { identifiersMs: Number(identifiersMs.toFixed(0)), unmatchedMs: Number(nothingMs.toFixed(0)) },
};
const file = writeResult('target-text', result);
console.log(
  `target text on ${handle.kind} (${size[0]?.targets.toLocaleString('en-US')} targets, ${size[0]?.synonyms.toLocaleString('en-US')} synonyms, ${size[0]?.classes.toLocaleString('en-US')} families): ` +
    `one row resolved p50 ${result.resolve.p50} ms p95 ${result.resolve.p95} ms max ${result.resolve.max} ms (${CASES.length} rows × ${rounds}); ` +
    Object.entries(result.perCase)
      .map(([name, v]) => `${name} ${v.p50} ms (${v.targets})`)
      .join(', ') +
    `; upload of 1,000 identifiers ${result.upload1000.identifiersMs} ms, of 1,000 unmatched terms ${result.upload1000.unmatchedMs} ms → ${file}`,
);
