// `npm run bench -- chembl-release -- --scale <fraction> --out <file.db> [--seed N] [--release N]
// [--source chembl_subset.db] [--workers N] [--inchi] [--continue-from release1.db]`: writes a ChEMBL-shaped SQLite release grown from the
// real ChEMBL subset (bench/support/chembl-release/), a TEST INSTRUMENT for import timings at
// ChEMBL scale: not real data, not for scientific use (docs/data-model.md). --scale 1 is ChEMBL 35's
// size (~2.4 M molecules, 20 M activities); --release 2 is the next release of the same file.
// --continue-from names release 1 of the same seed and scale, written earlier: its structures are
// read instead of enumerated again (release 2 at full size in minutes; the same file either way).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { newestResult, writeResult } from './support/bench-kit.ts';
import { generateRelease } from './support/chembl-release/generate.ts';
import type { GenerateResult } from './support/chembl-release/generate.ts';

const DEFAULT_SOURCE = path.resolve(import.meta.dirname, '../../shared/data/chembl-subset/chembl_subset.db');

// `npm run bench -- chembl-release -- --scale 0.001` hands this script a literal `--` first: drop it.
const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== '--'),
  options: {
    scale: { type: 'string' },
    out: { type: 'string' },
    seed: { type: 'string', default: '1' },
    release: { type: 'string', default: '1' },
    source: { type: 'string', default: DEFAULT_SOURCE },
    workers: { type: 'string', default: '2' },
    inchi: { type: 'boolean', default: false },
    'continue-from': { type: 'string' },
  },
});
if (!values.scale || !values.out) {
  console.error(
    'Usage: npm run bench -- chembl-release -- --scale <fraction, 1 = full size> --out <file.db> [--seed N] [--release N] [--source subset.db] [--workers N] [--inchi] [--continue-from release1.db]',
  );
  process.exit(2);
}

const source = values.source ?? DEFAULT_SOURCE;
if (!fs.existsSync(source)) {
  console.error(`The ChEMBL subset ${source} is absent: the generator grows its rows from it (../shared/data/chembl-subset, or --source).`);
  process.exit(2);
}

const seed = Number.parseInt(values.seed ?? '1', 10);
const continueFrom = values['continue-from'] ? earlierRelease(path.resolve(values['continue-from'])) : undefined;

/** Where release 1's structure sequence stopped: from the result the generator wrote for that file. */
function earlierRelease(file: string) {
  const earlier = newestResult<GenerateResult>('chembl-release', (r) => path.resolve(r.file) === file && r.release === 1);
  if (!earlier || earlier.scale !== Number(values.scale) || earlier.seed !== seed) {
    console.error(
      `--continue-from ${file}: no result of this generator for release 1 of that file at scale ${values.scale}, seed ${seed} in bench/results/ (the file must be written here, with the same --scale and --seed).`,
    );
    process.exit(2);
  }
  return { file, parentsRead: earlier.structures.parentsRead, accepted: earlier.structures.accepted };
}

const result = await generateRelease({
  source,
  out: path.resolve(values.out),
  scale: Number(values.scale),
  seed,
  continueFrom,
  release: Number.parseInt(values.release ?? '1', 10),
  workers: Number.parseInt(values.workers ?? '2', 10),
  inchi: values.inchi ?? false,
  onProgress: (message) => console.error(message),
});
// Peak resident memory of this process (the RDKit workers are threads of it): KB on Linux.
const peakRssMb = Math.round(process.resourceUsage().maxRSS / 1024);
const structuresPerSecond = Math.round(result.tables.compound_structures / Math.max(result.seconds.molecules, 1e-3));
const workers = Number.parseInt(values.workers ?? '2', 10);
// Full size on idle cores, from CPU time (wall time on a busy machine says little): the RDKit
// workers share the enumeration, the main thread writes everything else after it. Linear in the
// scale; worker start-up and reading the subset make small scales overestimate it.
const projectedFullMinutes = (cpu: number) => Number((cpu / result.scale / 60).toFixed(1));
const figures = {
  bench: 'chembl-release',
  ...result,
  cpus: os.availableParallelism(),
  loadAverage: os.loadavg().map((l) => Number(l.toFixed(2))),
  peakRssMb,
  structuresPerSecond,
  rdkitCpuMsPerStructure: Number(((result.cpuSeconds.workers * 1000) / Math.max(1, result.structures.accepted)).toFixed(2)),
  projectedFullSizeOnIdleCores: {
    enumerationMinutes: projectedFullMinutes(result.cpuSeconds.workers / workers),
    mainThreadMinutes: projectedFullMinutes(result.cpuSeconds.main),
    totalMinutes: projectedFullMinutes(result.cpuSeconds.workers / workers + result.cpuSeconds.main),
  },
};
const file = writeResult('chembl-release', figures);
const rows = Object.entries(result.tables)
  .map(([t, n]) => `${t} ${n}`)
  .join(', ');
console.log(
  `chembl-release: scale ${result.scale} release ${result.release}: ${rows}; ${result.seconds.total} s ` +
    `(molecules ${result.seconds.molecules} s = ${structuresPerSecond} structures/s, activities ${result.seconds.activities} s, indexes ${result.seconds.indexes} s); ` +
    `${(result.fileBytes / 1e6).toFixed(1)} MB, peak RSS ${peakRssMb} MB; CPU s main ${result.cpuSeconds.main}, RDKit ${result.cpuSeconds.workers} ` +
    `(${figures.rdkitCpuMsPerStructure} ms per structure); full size on ${workers} idle cores ~${figures.projectedFullSizeOnIdleCores.totalMinutes} min -> ${file}`,
);
