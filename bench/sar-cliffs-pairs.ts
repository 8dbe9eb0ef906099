// `npm run bench -- sar-cliffs-pairs [--sizes 650,5000] [--rounds 3]`: activity cliffs with their
// differences drawn (one page of 50) and matched pairs in their environment (radius 2), through the
// real chemistry engine, on the FreeWilson series (../shared/data/chembl-subset/supplementary) plus
// analogues enumerated by molzip from its own R-groups (as bench/sar.ts) up to each size.
// References in the same run: the old cliff differences (engine.mcs per pair, first 50, 0.5 s
// budget, two lanes, a timed-out MCS dropped) and the old cuts.
// Cold pairs are a server's first call on a set: fresh engines (no cut cache, no remembered halves)
// whose workers are already running (warmed on other molecules first, as a server's are), each
// round the cuts as made now and as made before (`referenceFragments`: every half read again),
// in alternating order; WebAssembly compiled eagerly as the server does (`--lazy-wasm`: not).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { RdkitChemEngine } from '../apps/server/src/modules/chemistry/rdkit-engine.ts';
import { compileWebAssemblyEagerly } from '../apps/server/src/modules/chemistry/wasm-compile.ts';
import { activityCliffs } from '../apps/server/src/modules/sar/analysis/activity-cliffs.ts';
import { matchedPairs } from '../apps/server/src/modules/sar/analysis/matched-pairs.ts';
import { summary, writeResult } from './support/bench-kit.ts';

const CORE = '[*:1]S(=O)(=O)c1cc([*:10])c(O[*:3])c([*:4])c1';
const SERIES = path.resolve(import.meta.dirname, '../../shared/data/chembl-subset/supplementary/rdkit_freewilson_CHEMBL2321810');

export interface BenchCompound {
  smiles: string;
  p: number;
  fp: Uint8Array;
}

/** The series plus enumerated analogues (R1 of one compound with R3 of another) up to `wanted`, with fingerprints. */
export async function benchCompounds(engine: RdkitChemEngine, wanted: number): Promise<BenchCompound[]> {
  const acts = new Map(
    fs
      .readFileSync(path.join(SERIES, 'CHEMBL2321810_act.csv'), 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => l.split(',').map(Number) as [number, number]),
  );
  const series = fs
    .readFileSync(path.join(SERIES, 'CHEMBL2321810.smi'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => {
      const [smiles, id] = l.trim().split(/\s+/);
      return { smiles: smiles!, p: acts.get(Number(id))! };
    });
  let seed = 15;
  const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const base = await engine.decompose(
    [{ kind: 'smiles', text: CORE, desalt: false }],
    series.map((c) => c.smiles),
  );
  const made = base.rows.flatMap((row, i) => (row ? [{ row, p: series[i]!.p }] : []));
  const compounds = series.slice(0, wanted).map((c) => ({ smiles: c.smiles, p: c.p }));
  const seen = new Set<string>();
  for (let i = 0; compounds.length < wanted && i < 200_000; i++) {
    const x = made[Math.floor(random() * made.length)]!;
    const y = made[Math.floor(random() * made.length)]!;
    if (x.row.rgroups.R3 === y.row.rgroups.R3 || x.row.rgroups.R1 === y.row.rgroups.R1) continue;
    const rgroups = { ...x.row.rgroups, R3: y.row.rgroups.R3 ?? null };
    const key = JSON.stringify(rgroups);
    if (seen.has(key)) continue;
    seen.add(key);
    compounds.push({ smiles: await engine.zip(base.cores[x.row.core]!, rgroups), p: (x.p + y.p) / 2 + (random() - 0.5) * 0.6 });
  }
  const described = await Promise.all(compounds.map((c) => engine.describe({ kind: 'smiles', text: c.smiles, desalt: true })));
  return compounds.map((c, i) => ({ ...c, fp: described[i]!.morgan! }));
}

/** Other molecules (ethers, none of the set's) cut once by a fresh engine so that both its workers are running. */
const WARM_UP = Array.from({ length: 200 }, (_, i) => `${'C'.repeat(1 + (i % 15))}O${'C'.repeat(1 + Math.floor(i / 15))}`);

/** The old cliff differences: engine.mcs per pair (first 50, 0.5 s budget, two lanes, a timed-out MCS dropped). */
async function oldCliffCommons(engine: RdkitChemEngine, pairs: (readonly [string, string])[]): Promise<number> {
  let drawn = 0;
  let next = 0;
  const deadline = Date.now() + 500;
  const lane = async () => {
    while (next < Math.min(50, pairs.length) && Date.now() < deadline) {
      const pair = pairs[next++]!;
      const found = await engine.mcs([...pair], { timeoutSeconds: 1, completeRings: false }).catch(() => null);
      if (found && !found.timedOut) drawn += 1;
    }
  };
  await Promise.all([lane(), lane()]);
  return drawn;
}

/** Cliffs (first page of 50 with differences) and pairs (radius 2) over `compounds`, `rounds` times, with the old ways as references. */
export async function benchCliffsPairs(compounds: BenchCompound[], rounds: number) {
  const engine = new RdkitChemEngine(undefined as never, {});
  const cliffsMs: number[] = [];
  const oldCliffsMs: number[] = [];
  const pairsColdMs: number[] = [];
  const pairsWarmMs: number[] = [];
  const pairsBeforeMs: number[] = [];
  const results: { now?: string; before?: string } = {};
  let same = true;
  let drawn = 0;
  let oldDrawn = 0;
  let page = 0;
  let transformations = 0;
  try {
    const items = compounds.map((c, i) => ({ strId: i, fp: c.fp, value: c.p }));
    for (let round = 0; round < rounds; round++) {
      let t = performance.now();
      const found = activityCliffs(items, { minSimilarity: 0.8, minDelta: 1, limit: 200 });
      const pairs = found.cliffs.slice(0, 50).map((c) => [compounds[c.a]!.smiles, compounds[c.b]!.smiles] as const);
      const differences = await engine.pairDifferences(pairs, { timeoutSeconds: 1, budgetMs: 4_000, core: CORE });
      cliffsMs.push(performance.now() - t);
      drawn = differences.filter(Boolean).length;
      page = pairs.length;
      t = performance.now();
      activityCliffs(items, { minSimilarity: 0.8, minDelta: 1, limit: 200 });
      oldDrawn = await oldCliffCommons(engine, pairs);
      oldCliffsMs.push(performance.now() - t);

      // Pairs, cold: fresh engines, their workers warmed on other molecules; now and before, alternating.
      for (const way of round % 2 ? (['before', 'now'] as const) : (['now', 'before'] as const)) {
        const fresh = new RdkitChemEngine(undefined as never, { testHooks: true });
        try {
          await fresh.fragments(WARM_UP);
          t = performance.now();
          const smiles = compounds.map((c) => c.smiles);
          const cuts = way === 'now' ? await fresh.fragments(smiles) : await fresh.referenceFragments(smiles);
          const found = matchedPairs(
            compounds.map((c, i) => ({ strId: i, value: c.p, cuts: cuts[i]! })),
            { minPairs: 2, limit: 200, radius: 2 },
          );
          (way === 'now' ? pairsColdMs : pairsBeforeMs).push(performance.now() - t);
          results[way] = JSON.stringify(found);
          if (way === 'now') transformations = found.total;
        } finally {
          await fresh.close();
        }
      }
      if (results.now !== results.before) same = false;
      await engine.fragments(compounds.map((c) => c.smiles));
      t = performance.now();
      const cuts = await engine.fragments(compounds.map((c) => c.smiles));
      matchedPairs(
        compounds.map((c, i) => ({ strId: i, value: c.p, cuts: cuts[i]! })),
        { minPairs: 2, limit: 200, radius: 2 },
      );
      pairsWarmMs.push(performance.now() - t);
    }
  } finally {
    await engine.close();
  }
  const cliffs = summary(cliffsMs);
  const old = summary(oldCliffsMs);
  return {
    compounds: compounds.length,
    cliffs: { ...cliffs, page, drawn, oldDrawn, old, ratio: cliffs.p50 / Math.max(1, old.p50) },
    pairs: {
      cold: summary(pairsColdMs),
      before: summary(pairsBeforeMs),
      coldRatio: summary(pairsColdMs).p50 / Math.max(1, summary(pairsBeforeMs).p50),
      same,
      warm: summary(pairsWarmMs),
      transformations,
      ratio: summary(pairsWarmMs).p50 / Math.max(1, summary(pairsColdMs).p50),
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    args: process.argv.slice(2).filter((a) => a !== '--'),
    options: {
      sizes: { type: 'string', default: '650,5000' },
      rounds: { type: 'string', default: '3' },
      'lazy-wasm': { type: 'boolean', default: false },
    },
  });
  if (!values['lazy-wasm']) compileWebAssemblyEagerly();
  if (!fs.existsSync(path.join(SERIES, 'CHEMBL2321810.smi'))) {
    console.error(`The FreeWilson series is not at ${SERIES}: this bench needs ../shared/data.`);
    process.exit(2);
  }
  const rounds = Number.parseInt(values.rounds ?? '3', 10);
  const results = [];
  for (const size of (values.sizes ?? '650,5000').split(',').map(Number)) {
    const setup = new RdkitChemEngine(undefined as never, {});
    const compounds = await benchCompounds(setup, size).finally(() => setup.close());
    const load = os.loadavg();
    const r = { ...(await benchCliffsPairs(compounds, rounds)), load, loadAfter: os.loadavg() };
    results.push(r);
    console.log(
      `sar-cliffs-pairs ${r.compounds} compounds: cliffs page of ${r.cliffs.page} p50/p95 ${Math.round(r.cliffs.p50)}/${Math.round(r.cliffs.p95)} ms, ${r.cliffs.drawn}/${r.cliffs.page} drawn (old: ${Math.round(r.cliffs.old.p50)} ms, ${r.cliffs.oldDrawn} drawn, ratio ${r.cliffs.ratio.toFixed(2)}×); pairs r=2 warm p50/p95 ${Math.round(r.pairs.warm.p50)}/${Math.round(r.pairs.warm.p95)} ms, cold ${Math.round(r.pairs.cold.p50)}/${Math.round(r.pairs.cold.p95)} ms (warm/cold ${r.pairs.ratio.toFixed(2)}×; cuts as before: cold ${Math.round(r.pairs.before.p50)}/${Math.round(r.pairs.before.p95)} ms, now/before ${r.pairs.coldRatio.toFixed(2)}×, same result: ${r.pairs.same}), ${r.pairs.transformations} transformations; load ${r.load.map((l) => l.toFixed(2)).join(' ')} → ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
  }
  console.log(`written ${writeResult('sar-cliffs-pairs', { rounds, results })}`);
}
