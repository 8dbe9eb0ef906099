import { sql } from 'kysely';
import { openBenchDatabase, quantile } from './bench/support/bench-kit.ts';
import { RdkitChemEngine } from './apps/server/src/modules/chemistry/rdkit-engine.ts';
import { compileWebAssemblyEagerly } from './apps/server/src/modules/chemistry/wasm-compile.ts';
const max = Number(process.argv[2]);
const handle = await openBenchDatabase('postgres://postgres@127.0.0.1:5432/kb_bench_l');
compileWebAssemblyEagerly();
const engine = new RdkitChemEngine(handle.db, { workers: 2, maxStructures: max });
let t = performance.now(); engine.start(); await engine.ready(); console.log('startup', Math.round(performance.now() - t), engine.status().loaded, 'rss', Math.round(process.memoryUsage().rss / 2 ** 20));
const { rows } = await sql<{ s: string }>`SELECT canonical_smiles AS s FROM structures WHERE str_id <= ${max} AND str_id % 997 = 3 ORDER BY str_id LIMIT 40`.execute(handle.db);
for (const min of [0.7, 0.8, 0.9]) {
  const ms: number[] = []; let hits = 0;
  for (let round = 0; round < 2; round++) for (const r of rows) { t = performance.now(); const h = await engine.similarity({ kind: 'smiles', text: r.s, desalt: true }, { min, max: 1 }); ms.push(performance.now() - t); hits += h.ids.length; }
  ms.sort((a, b) => a - b);
  console.log(min, 'p50', quantile(ms, 0.5).toFixed(1), 'p95', quantile(ms, 0.95).toFixed(1), 'hits', hits);
}
await engine.close(); await handle.close?.(); process.exit(0);
