// `npm run bench -- structure-native -- --database-url URL --queries FILE:KIND[:LABEL] [--queries …] [--limit N] [--workers N] [--warm 50]`
//
// The engine's substructure search against native RDKit on the same structures, same run, same
// machine: every structure of the database (canonical SMILES) goes to Debian's python3-rdkit
// (bench/support/native-substructure.py: SubstructLibrary with pattern fingerprints, as RDKit users
// build it, counting with as many threads as the engine has workers), then each public query is
// counted by both. Reports per query set: queries read by both, hit counts that differ, and the
// engine's time divided by native's (median and p95 of the per-query ratios, and of the sums).
//
// KIND is smiles or smarts; a query file holds one query per line, its first field (blank, tab or
// comma separated, quotes removed); lines starting with '#' are skipped. Public sets used in
// docs/benchmarks.md: greglandrum/rdkit_blog data/zinc.leads.500.q.smi, zinc.frags.500.q.smi,
// fragqueries.q.txt; quantori/qtr-fingerprint data/queries_3488_good.txt; rdkit/rdkit
// Data/SmartsLib/RLewis_smarts.txt, Data/Pains/wehi_pains.csv.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { openBenchDatabase, quantile, writeResult } from './support/bench-kit.ts';
import { RdkitChemEngine } from '../apps/server/src/modules/chemistry/rdkit-engine.ts';
import { compileWebAssemblyEagerly } from '../apps/server/src/modules/chemistry/wasm-compile.ts';
import type { ChemQuery } from '../apps/server/src/modules/chemistry/chem-engine.ts';

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== '--'),
  options: {
    'database-url': { type: 'string' },
    queries: { type: 'string', multiple: true },
    limit: { type: 'string' },
    workers: { type: 'string' },
    python: { type: 'string', default: '/usr/bin/python3' },
    warm: { type: 'string', default: '50' },
  },
});
const workers = values.workers ? Number.parseInt(values.workers, 10) : os.availableParallelism();
const limit = values.limit ? Number.parseInt(values.limit, 10) : Infinity;
if (!values.queries?.length) throw new Error('Give at least one --queries FILE:KIND[:LABEL]');

interface QuerySet {
  label: string;
  kind: 'smiles' | 'smarts';
  texts: string[];
}
const sets: QuerySet[] = values.queries.map((spec) => {
  const [file, kind, label] = spec.split(':');
  if (!file || (kind !== 'smiles' && kind !== 'smarts')) throw new Error(`--queries ${spec}: expected FILE:smiles|smarts[:LABEL]`);
  const texts = fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => line.split(/[\s,]+/)[0]!.replace(/^"|"$/g, ''))
    .filter(Boolean)
    .slice(0, limit);
  return { label: label ?? path.basename(file), kind, texts };
});

const handle = await openBenchDatabase(values['database-url']);
const { rows } = await sql<{ canonical_smiles: string }>`SELECT canonical_smiles FROM structures ORDER BY str_id`.execute(handle.db);

// ---- native RDKit: one process, every set
const native = spawnSync(values.python!, [path.join(import.meta.dirname, 'support/native-substructure.py')], {
  input: JSON.stringify({
    smiles: rows.map((r) => r.canonical_smiles),
    queries: sets.flatMap((s) => s.texts.map((text) => ({ kind: s.kind, text }))),
    threads: workers,
  }),
  maxBuffer: 1 << 28,
  encoding: 'utf8',
});
if (native.status !== 0) throw new Error(`native RDKit failed: ${native.stderr}`);
const reference = JSON.parse(native.stdout) as {
  rdkit: string;
  size: number;
  buildMs: number;
  results: ({ count: number; ms: number } | null)[];
};

// ---- the engine, as the server runs it
compileWebAssemblyEagerly();
const engine = new RdkitChemEngine(handle.db, { workers });
const startedAt = performance.now();
engine.start();
await engine.ready();
const startupMs = performance.now() - startedAt;
// A server runs long: its JavaScript is compiled and optimised after its first searches. The
// first `--warm` queries of each set run once untimed before the timed pass (native needs none).
const warmCount = Number.parseInt(values.warm ?? '50', 10);
for (const set of sets) {
  for (const text of set.texts.slice(0, warmCount))
    await engine.substructure({ kind: set.kind, text, desalt: false }).catch(() => undefined);
}

let at = 0;
const report = [];
for (const set of sets) {
  const ratios: number[] = [];
  const perQuery: { query: string; ms: number; nativeMs: number; hits: number }[] = [];
  const differ: { query: string; engine: number; native: number }[] = [];
  let engineMs = 0;
  let nativeMs = 0;
  let refusedByEngine = 0;
  let unreadByNative = 0;
  for (const text of set.texts) {
    const ref = reference.results[at++];
    const query: ChemQuery = { kind: set.kind, text, desalt: false };
    const started = performance.now();
    let count: number | null = null;
    try {
      count = (await engine.substructure(query)).ids.length;
    } catch {
      refusedByEngine++;
    }
    const ms = performance.now() - started;
    if (!ref) {
      unreadByNative++;
      continue;
    }
    if (count === null) continue;
    if (count !== ref.count) differ.push({ query: text, engine: count, native: ref.count });
    engineMs += ms;
    nativeMs += ref.ms;
    // Below 0.1 ms neither clock says much: the ratio is taken against at least 0.1 ms.
    ratios.push(Math.max(ms, 0.1) / Math.max(ref.ms, 0.1));
    perQuery.push({ query: text, ms: Number(ms.toFixed(1)), nativeMs: Number(ref.ms.toFixed(1)), hits: count });
  }
  ratios.sort((a, b) => a - b);
  report.push({
    set: set.label,
    kind: set.kind,
    queries: set.texts.length,
    compared: ratios.length,
    refusedByEngine,
    unreadByNative,
    countsDiffer: differ.length,
    differ: differ.slice(0, 20),
    ratioMedian: Number(quantile(ratios, 0.5).toFixed(2)),
    ratioP95: Number(quantile(ratios, 0.95).toFixed(2)),
    engineMs: Math.round(engineMs),
    nativeMs: Math.round(nativeMs),
    ratioOfSums: Number((engineMs / Math.max(nativeMs, 0.001)).toFixed(2)),
    slowestAgainstNative: perQuery
      .sort((a, b) => Math.max(b.ms, 0.1) / Math.max(b.nativeMs, 0.1) - Math.max(a.ms, 0.1) / Math.max(a.nativeMs, 0.1))
      .slice(0, 10),
  });
}
await engine.close();
await handle.close();

const file = writeResult('structure-native', {
  bench: 'structure-native',
  database: handle.kind,
  structures: rows.length,
  nativeLibrary: reference.size,
  nativeRdkit: reference.rdkit,
  workers,
  loadAverage: os.loadavg().map((l) => Number(l.toFixed(2))),
  engineStartupMs: Math.round(startupMs),
  nativeBuildMs: Math.round(reference.buildMs),
  sets: report,
});
console.log(
  `structure-native: ${rows.length} structures, ${workers} workers/threads, native RDKit ${reference.rdkit}; ` +
    report
      .map(
        (r) =>
          `${r.set} (${r.kind}, ${r.compared}/${r.queries}): counts differ ${r.countsDiffer}, engine ÷ native median ${r.ratioMedian} / p95 ${r.ratioP95}, sums ${r.engineMs} / ${r.nativeMs} ms`,
      )
      .join('; ') +
    ` -> ${file}`,
);
