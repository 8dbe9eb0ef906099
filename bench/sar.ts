// `npm run bench -- sar [--compounds 2000] [--rounds 3] [--database-url …] [--only table]`: a SAR view
// of 2,000 compounds (issue 15), then issue 37's parts, each its own script with its JSON and line:
// cliffs (a page of differences) and pairs on 650 and 5,000 compounds (bench/sar-cliffs-pairs.ts), and,
// with --database-url, a four-endpoint SAR table at that knowledge base (bench/sar-endpoints.ts).
// The first part
// through the real chemistry engine, against its budget of 3 s on this machine:
//   decomposition — R-group decomposition on the generalised core of the FreeWilson series;
//   table         — pActivity, median per compound, LE and LipE for every decomposed compound;
//   cliffs        — every pair's Tanimoto on Morgan fingerprints, SALI ranking.
// Compounds: the FreeWilson series of RDKit's contrib (1,017, ../shared/data/chembl-subset/
// supplementary) plus analogues enumerated by molzip from its own R-groups (R1 of one compound with
// R3 of another) up to `--compounds`; each compound gets 1–3 measurements in nM around its pIC50
// (analogues: the mean of their two parents'). Fingerprints are computed once before timing (the
// SAR view reads them from `structures.morgan`). References in the same run: brute-force cliffs
// (every pair, byte by byte), and the decomposition as one RDKit run on one worker: the old path
// (NoSymmetrization above GREEDY_MAX_COMPOUNDS) and RDKit's Greedy on the whole set.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { RdkitChemEngine } from '../apps/server/src/modules/chemistry/rdkit-engine.ts';
import { activityCliffs } from '../apps/server/src/modules/sar/analysis/activity-cliffs.ts';
import { aggregate } from '../apps/server/src/modules/sar/analysis/aggregate.ts';
import { toPActivity } from '../apps/server/src/modules/sar/analysis/pactivity.ts';
import { summary, writeResult } from './support/bench-kit.ts';
import { benchCompounds } from './sar-cliffs-pairs.ts';

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== '--'),
  options: {
    compounds: { type: 'string', default: '2000' },
    rounds: { type: 'string', default: '3' },
    /** The knowledge base of the four-endpoint table (issue 37); without it that part is left out and says so. */
    'database-url': { type: 'string' },
    /** `table`: only the decomposition figures of issue 15. */
    only: { type: 'string' },
  },
});
const wanted = Number.parseInt(values.compounds ?? '2000', 10);
const rounds = Number.parseInt(values.rounds ?? '3', 10);
const BUDGET_MS = 3_000;
const CORE = '[*:1]S(=O)(=O)c1cc([*:10])c(O[*:3])c([*:4])c1';
const SERIES = path.resolve(import.meta.dirname, '../../shared/data/chembl-subset/supplementary/rdkit_freewilson_CHEMBL2321810');
if (!fs.existsSync(path.join(SERIES, 'CHEMBL2321810.smi'))) {
  console.error(`The FreeWilson series is not at ${SERIES}: this bench needs ../shared/data.`);
  process.exit(2);
}

const engine = new RdkitChemEngine(undefined as never, {});
const core = [{ kind: 'smiles' as const, text: CORE, desalt: false }];
let seed = 15;
const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;

// ---- the compounds: the series plus enumerated analogues (shared with the cliffs and pairs bench)
const setupStarted = performance.now();
const compounds = await benchCompounds(engine, wanted);
const series = { length: Math.min(wanted, 1_017) };
const described = await Promise.all(compounds.map((c) => engine.describe({ kind: 'smiles', text: c.smiles, desalt: true })));
const measurements = compounds.map((c) =>
  Array.from({ length: 1 + Math.floor(random() * 3) }, () => 10 ** (9 - c.p + (random() - 0.5) * 0.4)),
);
const heavy = described.map((d) => d.atoms);
const clogp = compounds.map(() => 1 + random() * 4);
const setupMs = performance.now() - setupStarted;

// ---- the timed SAR view
function table(rows: ({ core: number; rgroups: Record<string, string | null> } | null)[]) {
  return rows.flatMap((row, i) => {
    if (!row) return [];
    const values = measurements[i]!.flatMap((v) => toPActivity(v, 'nM')?.value ?? []);
    const activity = aggregate(values);
    return [{ i, rgroups: row.rgroups, activity, le: (1.37 * activity.value) / heavy[i]!, lipe: activity.value - clogp[i]! }];
  });
}

function bruteCliffs(items: { fp: Uint8Array; value: number }[], minSimilarity: number, minDelta: number): number {
  const pop8 = new Uint8Array(256);
  for (let i = 1; i < 256; i++) pop8[i] = (i & 1) + pop8[i >> 1]!;
  let found = 0;
  for (let i = 0; i < items.length; i++) {
    for (let j = i + 1; j < items.length; j++) {
      let both = 0;
      let either = 0;
      const a = items[i]!.fp;
      const b = items[j]!.fp;
      for (let k = 0; k < a.length; k++) {
        both += pop8[a[k]! & b[k]!]!;
        either += pop8[a[k]! | b[k]!]!;
      }
      if (either && both / either >= minSimilarity && Math.abs(items[i]!.value - items[j]!.value) >= minDelta) found++;
    }
  }
  return found;
}

const times: Record<'decompose' | 'table' | 'cliffs' | 'total' | 'oneWorker', number[]> = {
  decompose: [],
  table: [],
  cliffs: [],
  total: [],
  oneWorker: [],
};
let last: { decomposed: number; strategy?: string; cliffs: number; compared: number } | null = null;
const smiles = compounds.map((c) => c.smiles);
for (let round = 0; round < rounds; round++) {
  const t0 = performance.now();
  const result = await engine.decompose(core, smiles);
  const t1 = performance.now();
  const rows = table(result.rows);
  const t2 = performance.now();
  const items = rows.map((r) => ({ strId: r.i, fp: described[r.i]!.morgan!, value: r.activity.value }));
  const cliffs = activityCliffs(items, { minSimilarity: 0.8, minDelta: 1, limit: 200 });
  const t3 = performance.now();
  times.decompose.push(t1 - t0);
  times.table.push(t2 - t1);
  times.cliffs.push(t3 - t2);
  times.total.push(t3 - t0);
  last = { decomposed: rows.length, strategy: result.strategy, cliffs: cliffs.total, compared: cliffs.compared };
  // The reference in the same round (the machine's load changes between rounds): the path before
  // the parallel one, one RDKit decomposition on one worker (NoSymmetrization at this size).
  const t4 = performance.now();
  const oneWorker = await engine.decomposeOnOneWorker(core, smiles, 'NoSymmetrization');
  times.oneWorker.push(performance.now() - t4);
  if (oneWorker.rows.filter(Boolean).length !== rows.length)
    throw new Error(`one worker decomposed ${oneWorker.rows.filter(Boolean).length}, the parallel path ${rows.length}`);
}

// ---- references
const refItems = compounds.map((c, i) => ({ fp: described[i]!.morgan!, value: c.p }));
let t = performance.now();
const oursAll = activityCliffs(
  refItems.map((x, i) => ({ ...x, strId: i })),
  { minSimilarity: 0.8, minDelta: 1, limit: 200 },
).total;
const oursMs = performance.now() - t;
t = performance.now();
const bruteAll = bruteCliffs(refItems, 0.8, 1);
const bruteMs = performance.now() - t;
if (bruteAll !== oursAll) throw new Error(`cliffs differ: ${oursAll} against brute force ${bruteAll}`);
// RDKit's own Greedy on the whole set in one decomposition (what the symmetry pass stands in for).
t = performance.now();
const greedy = await engine.decomposeOnOneWorker(core, smiles, 'Greedy');
const greedyMs = performance.now() - t;
if (greedy.rows.filter(Boolean).length !== last?.decomposed)
  throw new Error(`Greedy decomposed ${greedy.rows.filter(Boolean).length}, the parallel path ${last?.decomposed}`);
await engine.close();

const result = {
  date: new Date().toISOString(),
  compounds: compounds.length,
  series: series.length,
  enumerated: compounds.length - series.length,
  core: CORE,
  setupMs: Math.round(setupMs),
  budgetMs: BUDGET_MS,
  last,
  timings: Object.fromEntries(Object.entries(times).map(([k, v]) => [k, summary(v)])),
  reference: {
    cliffsOursMs: Number(oursMs.toFixed(1)),
    cliffsBruteMs: Number(bruteMs.toFixed(1)),
    cliffs: oursAll,
    oneWorkerGreedyMs: Math.round(greedyMs),
    decomposeSpeedup: Number((times.oneWorker.reduce((a, b) => a + b, 0) / times.decompose.reduce((a, b) => a + b, 0)).toFixed(2)),
  },
};
const file = writeResult('sar', result);
const p50 = (k: keyof typeof times) => result.timings[k]!.p50;
console.log(
  `sar: ${compounds.length} compounds (${series.length} series + ${result.enumerated} enumerated), ${last?.decomposed} decomposed (${last?.strategy}); ` +
    `p50 total ${p50('total')} ms (decompose ${p50('decompose')}, table ${p50('table')}, cliffs ${p50('cliffs')}) against ${BUDGET_MS} ms; ` +
    `cliffs ${oursMs.toFixed(0)} ms against brute force ${bruteMs.toFixed(0)} ms (${(bruteMs / oursMs).toFixed(1)} ×); ` +
    `one worker, same rounds: NoSymmetrization p50 ${p50('oneWorker')} ms (parallel ${result.reference.decomposeSpeedup} × faster); RDKit Greedy once ${Math.round(greedyMs)} ms → ${file}`,
);

// ---- issue 37's parts, each in its own process (its own engine and workers, as a server would have)
if (values.only !== 'table') {
  const run = (name: string, args: string[]) => {
    const child = spawnSync(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, `${name}.ts`), ...args], {
      stdio: 'inherit',
    });
    if (child.status !== 0) process.exitCode = child.status ?? 1;
  };
  run('sar-cliffs-pairs', ['--sizes', '650,5000', '--rounds', String(rounds)]);
  if (values['database-url']) run('sar-endpoints', ['--database-url', values['database-url'], '--rounds', String(rounds)]);
  else console.log('sar-endpoints: left out (give --database-url of a seeded knowledge base, e.g. demo M, for the four-endpoint table)');
}
