// `npm run bench -- structure [--database-url postgres://...] [--max-structures N] [--rounds 5] [--ring-rounds 3] [--lazy-wasm] [--workers N]`:
// the chemistry engine on the given database (default: in-memory PGlite seeded with demo S):
// index start-up, similarity at 0.7 / 0.8 / 0.9, the 1,000 nearest, selective substructure (< 1 % hits), generic
// substructure first page and full count, each p50 / p95. Reference measured in the same run: a
// naive RDKit full scan (parse every molecule, match / fingerprint it, one thread) on a sample of
// the same structures, scaled to the index size; the JSON gives each figure as a ratio to it.
// RDKit is compiled eagerly as the server does (wasm-compile.ts); `--lazy-wasm` keeps V8's default.
// `--workers N` sets the engine's RDKit workers (default: one per core, as the server): run with 1
// and with the cores to see how a search scales with them.
import os from 'node:os';
import { parseArgs } from 'node:util';
import initRDKitModule from '@rdkit/rdkit';
import { sql } from 'kysely';
import { openBenchDatabase, quantile, summary, writeResult } from './support/bench-kit.ts';
import { RdkitChemEngine } from '../apps/server/src/modules/chemistry/rdkit-engine.ts';
import { compileWebAssemblyEagerly } from '../apps/server/src/modules/chemistry/wasm-compile.ts';
import type { ChemQuery, StructureHits } from '../apps/server/src/modules/chemistry/chem-engine.ts';

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== '--'),
  options: {
    'database-url': { type: 'string' },
    'max-structures': { type: 'string' },
    rounds: { type: 'string', default: '5' },
    sample: { type: 'string', default: '5000' },
    'lazy-wasm': { type: 'boolean', default: false },
    workers: { type: 'string' },
    // Rounds of the ring-primitive pairs (best of): a recursive SMARTS takes minutes at L.
    'ring-rounds': { type: 'string' },
  },
});
const rounds = Number.parseInt(values.rounds ?? '5', 10);
const sampleSize = Number.parseInt(values.sample ?? '5000', 10);
const maxStructures = values['max-structures'] ? Number.parseInt(values['max-structures'], 10) : undefined;
const workers = values.workers ? Number.parseInt(values.workers, 10) : os.availableParallelism();
const ringRounds = values['ring-rounds'] ? Math.max(1, Number.parseInt(values['ring-rounds'], 10)) : Math.max(1, Math.min(rounds, 3));

const handle = await openBenchDatabase(values['database-url']);
const db = handle.db;

async function timed<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const started = performance.now();
  const value = await fn();
  return [performance.now() - started, value];
}
const smiles = (text: string): ChemQuery => ({ kind: 'smiles', text, desalt: true });

// ---- index start-up
// As the server (main.ts) does before its engine starts; `--lazy-wasm` measures V8's default.
if (!values['lazy-wasm']) compileWebAssemblyEagerly();
// Every query is timed as asked the first time: the engine's answers of recent queries are not kept
// (a query asked again is read from them in milliseconds: "asked again" below times one apart).
const engine = new RdkitChemEngine(db, { workers, keepRecentAnswers: false, ...(maxStructures ? { maxStructures } : {}) });
const [startupMs] = await timed(async () => {
  engine.start();
  await engine.ready();
});
const indexSize = engine.status().loaded;
// Workers are threads of this process: its resident size includes their RDKit heaps.
const rssAfterIndexMb = Math.round(process.memoryUsage().rss / 2 ** 20);
// The frequent fragments' answers are computed in the background once the index is in (searches
// go first); the timings below start once they are, and this is how long that took.
const [fragmentsMs] = await timed(async () => {
  const until = Date.now() + 600_000;
  while (!engine.status().fragmentsReady && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
});
if (!engine.status().fragmentsReady)
  console.warn('structure bench: the frequent fragments were not ready after 10 minutes; timing without them');

// ---- queries: similarity probes are stored structures spread over the id range
const { rows: probes } = await sql<{ canonical_smiles: string }>`SELECT canonical_smiles FROM structures
  WHERE str_id IN (SELECT str_id FROM structures ORDER BY str_id LIMIT ${indexSize}) AND morgan_fp IS NOT NULL
  ORDER BY md5(str_id::text) LIMIT 10`.execute(db);
// Candidates for "selective" (< 1 % hits, the issue's definition): each is classified by its
// measured hit rate; those at 1 % or more are reported apart as "medium".
const SELECTIVE_CANDIDATES = [
  'C#Cc1cccc(N)c1',
  'c1ccc(-c2ccncc2)nc1',
  'O=C1CCC(N2CC3=CC=CC=C3C2=O)C(=O)N1',
  'Cc1ncsc1',
  'c1cnc2[nH]ccc2c1',
  'NC1CC1',
  'c1ccc2[nH]ccc2c1',
  'O=C1NC(=O)SC1',
  'Cc1noc(C)c1',
  'FC(F)(F)Oc1ccccc1',
  'c1ccc2ncncc2c1N',
  'O=S(=O)(N)c1ccc(F)cc1',
];
const GENERIC = ['c1ccccc1', 'C(=O)N', 'c1ccncc1'];

const similarity: Record<string, number[]> = { '0.7': [], '0.8': [], '0.9': [] };
// The first similarity scan after start-up was measured ≈ 100 ms slower at L than the next ones;
// the engine now warms itself once the index is in (rdkit-engine.ts `warmUp`). The chemist's first
// search, a second after the index is ready, is timed apart and also counted below.
await new Promise((resolve) => setTimeout(resolve, 1_000));
const [firstSimilarityMs] = await timed(() => engine.similarity(smiles(probes[0]!.canonical_smiles), { min: 0.7, max: 1 }));
similarity['0.7']!.push(firstSimilarityMs);
const similarityHits: Record<string, number[]> = { '0.7': [], '0.8': [], '0.9': [] };
for (let round = 0; round < rounds; round++) {
  for (const probe of probes) {
    for (const min of [0.7, 0.8, 0.9]) {
      const [ms, hits] = await timed(() => engine.similarity(smiles(probe.canonical_smiles), { min, max: 1 }));
      similarity[String(min)]!.push(ms);
      if (round === 0) similarityHits[String(min)]!.push(hits.ids.length);
    }
  }
}

// The k nearest (k = 1,000, any similarity): each worker raises its threshold to the k-th best it has seen.
const NEAREST = 1_000;
const nearestMs: number[] = [];
for (let round = 0; round < rounds; round++) {
  for (const probe of probes) {
    const [ms, hits] = await timed(() => engine.similarity(smiles(probe.canonical_smiles), { min: 0, max: 1 }, { nearest: NEAREST }));
    if (hits.ids.length !== Math.min(NEAREST, indexSize)) throw new Error(`nearest ${NEAREST} answered ${hits.ids.length} structures`);
    nearestMs.push(ms);
  }
}

const selectiveMs: number[] = [];
const mediumMs: number[] = [];
const selectiveHits: Record<string, number> = {};
/** Per query: rows that passed the fingerprint screen, and those RDKit matched (the rest were matched in JavaScript). */
const screens: Record<string, { hits: number; candidates: number; byRdkit: number }> = {};
const noteScreen = (query: string, hits: StructureHits) => {
  if (hits.screen && hits.complete) screens[query] = { hits: hits.ids.length, ...hits.screen };
};
for (let round = 0; round < rounds; round++) {
  for (const query of SELECTIVE_CANDIDATES) {
    const [ms, hits] = await timed(() => engine.substructure(smiles(query)));
    selectiveHits[query] = hits.ids.length;
    noteScreen(query, hits);
    const percent = (100 * hits.ids.length) / indexSize;
    if (percent > 0 && percent < 1) selectiveMs.push(ms);
    else if (percent >= 1) mediumMs.push(ms);
  }
}
const firstPageMs: number[] = [];
for (let round = 0; round < rounds; round++) {
  for (const query of GENERIC) firstPageMs.push((await timed(() => engine.substructure(smiles(query), { limit: 50 })))[0]);
}
// Ring primitives against the same SMARTS without them (issue 39: at most 3× the plain form).
const RING_PAIRS: [string, string][] = [
  ['N!@N', 'NN'],
  ['[$(N@N)]', '[$(NN)]'],
  ['[R]c1ccccc1', '*c1ccccc1'],
  ['C(=O)!@N', 'C(=O)N'],
  ['[C;R0]=[C;R0]', 'C=C'],
  ['[x3]', '[#6]'],
];
const smarts = (text: string): ChemQuery => ({ kind: 'smarts', text, desalt: false });
const ringPrimitives: Record<string, { ms: number; hits: number; plain: string; plainMs: number; plainHits: number; ratio: number }> = {};
for (const [ring, plain] of RING_PAIRS) {
  const best = async (text: string) => {
    let ms = Infinity;
    let hits = 0;
    for (let round = 0; round < ringRounds; round++) {
      const [t, h] = await timed(() => engine.substructure(smarts(text)));
      ms = Math.min(ms, t);
      hits = h.ids.length;
    }
    return { ms, hits };
  };
  const r = await best(ring);
  const p = await best(plain);
  ringPrimitives[ring] = {
    ms: Math.round(r.ms),
    hits: r.hits,
    plain,
    plainMs: Math.round(p.ms),
    plainHits: p.hits,
    ratio: Number((r.ms / Math.max(p.ms, 1)).toFixed(2)),
  };
}
// Full counts of generic queries are long at scale: once each.
const genericFull: Record<string, { ms: number; hits: number }> = {};
// The three generic queries are frequent fragments (their answers kept); these are not, and hit
// more than 30 % of demo structures: the cost of a generic query matched structure by structure
// (`C=O` takes the structures holding an amide or an acid as hits without matching them).
const GENERIC_UNLISTED = ['CC', 'C=O', 'Cc1ccccc1'];
for (const query of [...GENERIC, ...GENERIC_UNLISTED]) {
  const [ms, hits] = await timed(() => engine.substructure(smiles(query)));
  genericFull[query] = { ms: Math.round(ms), hits: hits.ids.length };
  noteScreen(query, hits);
}
await engine.close();

// ---- reference: naive RDKit full scan on a sample, one thread, scaled to the index size
const rd = await initRDKitModule();
rd.disable_logging();
const { rows: sample } = await sql<{ canonical_smiles: string }>`SELECT canonical_smiles FROM structures
  WHERE str_id IN (SELECT str_id FROM structures ORDER BY str_id LIMIT ${indexSize}) ORDER BY md5(str_id::text) LIMIT ${sampleSize}`.execute(
  db,
);
const naivePerStructure = (query: string, kind: 'substructure' | 'similarity'): number => {
  const q = rd.get_mol(query)!;
  const morgan = JSON.stringify({ radius: 2, nBits: 2048 });
  const started = performance.now();
  for (const row of sample) {
    const mol = rd.get_mol(row.canonical_smiles);
    if (!mol) continue;
    if (kind === 'substructure') mol.get_substruct_match(q);
    else mol.get_morgan_fp_as_uint8array(morgan);
    mol.delete();
  }
  q.delete();
  return (performance.now() - started) / sample.length;
};
const naiveSubstructureMs = naivePerStructure('c1ccncc1', 'substructure') * indexSize;
const naiveSimilarityMs = naivePerStructure(probes[0]!.canonical_smiles, 'similarity') * indexSize;

const { rows: size } = await sql<{ structures: number }>`SELECT count(*)::int AS structures FROM structures`.execute(db);
await handle.close();

const ratio = (naive: number, ms: number) => Number((naive / Math.max(ms, 0.001)).toFixed(0));
const sim = Object.fromEntries(
  Object.entries(similarity).map(([min, ms]) => [
    min,
    {
      ...summary(ms),
      medianHits: quantile(
        [...similarityHits[min]!].sort((a, b) => a - b),
        0.5,
      ),
      samplesMs: ms.map(Math.round),
    },
  ]),
);
const selective = summary(selectiveMs);
const firstPage = summary(firstPageMs);
const result = {
  bench: 'structure',
  database: handle.kind,
  structuresInDatabase: size[0]?.structures,
  indexSize,
  cpus: os.availableParallelism(),
  workers,
  loadAverage: os.loadavg().map((l) => Number(l.toFixed(2))),
  rounds,
  wasmCompile: values['lazy-wasm'] ? 'lazy (V8 default)' : 'eager (as the server)',
  startupMs: Math.round(startupMs),
  rssAfterIndexMb,
  fragmentsMs: Math.round(fragmentsMs),
  rssAfterFragmentsMb: Math.round(process.memoryUsage().rss / 2 ** 20),
  firstSimilarityMs: Math.round(firstSimilarityMs),
  reference: {
    sample: sample.length,
    naiveSubstructureFullScanMs: Math.round(naiveSubstructureMs),
    naiveSimilarityFullScanMs: Math.round(naiveSimilarityMs),
  },
  similarity: Object.fromEntries(Object.entries(sim).map(([min, s]) => [min, { ...s, speedupVsNaive: ratio(naiveSimilarityMs, s.p50) }])),
  nearest: { k: NEAREST, ...summary(nearestMs) },
  mediumSubstructure: summary(mediumMs),
  selectiveSubstructure: {
    ...selective,
    speedupVsNaive: ratio(naiveSubstructureMs, selective.p50),
    hitPercent: Object.fromEntries(Object.entries(selectiveHits).map(([q, n]) => [q, Number(((100 * n) / indexSize).toFixed(3))])),
  },
  genericFirstPage: { ...firstPage, pageSize: 50, speedupVsNaive: ratio(naiveSubstructureMs, firstPage.p50) },
  screen: screens,
  ringPrimitives,
  genericFullCount: Object.fromEntries(
    Object.entries(genericFull).map(([q, v]) => [
      q,
      { ...v, hitPercent: Number(((100 * v.hits) / indexSize).toFixed(1)), speedupVsNaive: ratio(naiveSubstructureMs, v.ms) },
    ]),
  ),
};
const file = writeResult('structure', result);
const ringLine = `; ring primitives ÷ plain (best of ${ringRounds}) ${Object.entries(ringPrimitives)
  .map(([q, v]) => `${q} ${v.ms}/${v.plainMs} ms ×${v.ratio}`)
  .join(', ')}`;
const screened = Object.values(screens);
const sum = (pick: (v: { hits: number; candidates: number; byRdkit: number }) => number) =>
  screened.reduce((total, v) => total + pick(v), 0);
const screenLine =
  screened.length > 0
    ? `; screen ${(
        sum((v) => v.candidates) /
          Math.max(
            1,
            sum((v) => v.hits),
          )
      ).toFixed(2)} candidates a hit, ${(
        (100 * sum((v) => v.byRdkit)) /
          Math.max(
            1,
            sum((v) => v.candidates),
          )
      ).toFixed(1)} % of them matched by RDKit`
    : '';
const s = result.similarity;
console.log(
  `structure: ${indexSize} structures (${handle.kind}, ${workers} RDKit workers), start-up ${result.startupMs} ms, RSS ${rssAfterIndexMb} MB, fragments ${result.fragmentsMs} ms; first similarity ${result.firstSimilarityMs} ms; similarity p50/p95 0.7 ${s['0.7']!.p50}/${s['0.7']!.p95} ms, ` +
    `0.8 ${s['0.8']!.p50}/${s['0.8']!.p95}, 0.9 ${s['0.9']!.p50}/${s['0.9']!.p95}; nearest ${NEAREST} ${result.nearest.p50}/${result.nearest.p95} ms; selective (<1 %) substructure ${selective.p50}/${selective.p95} ms (n=${selective.n}), medium (1-10 %) ${result.mediumSubstructure.p50}/${result.mediumSubstructure.p95} ms; ` +
    `generic first page ${firstPage.p50}/${firstPage.p95} ms; generic full ${Object.entries(genericFull)
      .map(([q, v]) => `${q} ${v.ms} ms`)
      .join(', ')}; ` +
    `naive full scan ${result.reference.naiveSubstructureFullScanMs} ms (×${result.selectiveSubstructure.speedupVsNaive} selective)${screenLine}${ringLine} -> ${file}`,
);
