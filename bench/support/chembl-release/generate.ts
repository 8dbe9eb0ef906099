import fs from 'node:fs';
import Database from 'better-sqlite3';
import { writeActivities } from './activities.ts';
import type { ActivityCounts } from './activities.ts';
import { writeEntities } from './entities.ts';
import { writeMolecules } from './molecules.ts';
import type { MoleculeCounts } from './molecules.ts';
import { FULL_SIZE } from './proportions.ts';
import type { Counts } from './proportions.ts';
import { ReleasePlan } from './release-plan.ts';
import { StructureStream } from './structures.ts';
import type { EnumerationStats, Structure } from './structures.ts';
import { readSubset } from './subset.ts';
import type { GeneratedTable } from './subset.ts';
import { ReleaseWriter } from './writer.ts';

/**
 * A ChEMBL-shaped SQLite release at any size, grown from the real ChEMBL subset: a TEST INSTRUMENT
 * for import and search timings at ChEMBL scale (docs/data-model.md "A ChEMBL-shaped release at any
 * size"). Not real data, not for scientific use.
 */

export interface GenerateOptions {
  /** The ChEMBL subset file (chembl_subset.db) to grow the release from. */
  source: string;
  out: string;
  /** Fraction of ChEMBL 35's size (1 = ~2.4 M molecules, 20 M activities). */
  scale: number;
  seed?: number;
  /** 1 = the first release; N = release 1 plus N - 1 rounds of changes (added, changed, retired rows). */
  release?: number;
  /** RDKit worker threads (default 2). */
  workers?: number;
  /**
   * Write standard InChIs and InChIKeys, as a real release has them (the subset has none). Costs
   * ~1 ms of RDKit CPU per structure here (measured at 1/100) and saves the importer computing them.
   */
  inchi?: boolean;
  /**
   * Release 1 of the same seed, scale and subset, written earlier by this generator, and where its
   * structure sequence stopped (its result's `structures.parentsRead` and `.accepted`): its
   * structures are read instead of enumerated again, so that a release N > 1 costs RDKit time only
   * for its new molecules. The file written is the same as without it.
   */
  continueFrom?: { file: string; parentsRead: number; accepted: number };
  onProgress?: (message: string) => void;
}

/** ChEMBL tables the importer reads that a generated release leaves out, and why (tests assert the list). */
export const NOT_GENERATED: Record<string, string> = {
  molecule_synonyms: "names of the subset's 9 real drugs: no generated molecule is a drug",
  drug_indication: "indications of the subset's 9 real drugs",
  products: "products of the subset's 9 real drugs",
  formulations: "formulations of the subset's 9 real drugs",
};

export interface GenerateResult {
  file: string;
  scale: number;
  seed: number;
  release: number;
  inchi: boolean;
  /** Rows per entity the plan asked for (before retirements). */
  planned: Counts;
  /** Rows per table, counted in the written file. */
  tables: Record<GeneratedTable, number>;
  /** What an import of this file into an empty knowledge base must report (kb-counts). */
  expectedImport: { compounds: number; structures: number; activities: number; assays: number; documents: number; targets: number };
  molecules: MoleculeCounts;
  activities: ActivityCounts;
  assays: { retired: number };
  structures: EnumerationStats & { analoguesPerParent: number; parents: number };
  seconds: Record<'subset' | 'entities' | 'molecules' | 'activities' | 'indexes' | 'total', number>;
  /** CPU seconds after reading the subset: main thread (rows, SQLite) and RDKit workers (enumeration). */
  cpuSeconds: { main: number; workers: number };
  fileBytes: number;
}

/**
 * Analogues per parent, sized so that the subset's parents give a full-size file's structures in
 * one round (5 % spare for cross-parent duplicates). Sized on the full file, not on this one, so the
 * structures of any scale are the start of the same sequence.
 */
function analoguesPerParent(parents: number, noStructureShare: number): number {
  return Math.max(1, Math.ceil((FULL_SIZE.molecules * (1 - noStructureShare) * 1.05) / parents) - 1);
}

function timer() {
  let last = performance.now();
  return () => {
    const now = performance.now();
    const seconds = (now - last) / 1000;
    last = now;
    return Number(seconds.toFixed(2));
  };
}

function cpuSince(start: NodeJS.CpuUsage): number {
  const used = process.threadCpuUsage(start);
  return Number(((used.user + used.system) / 1e6).toFixed(2));
}

export async function generateRelease(options: GenerateOptions): Promise<GenerateResult> {
  const started = performance.now();
  const lap = timer();
  const seed = options.seed ?? 1;
  const log = options.onProgress ?? (() => {});
  const plan = new ReleasePlan(options.scale, options.release ?? 1, seed);
  const subset = readSubset(options.source, seed);
  // CPU from here on: reading the subset is a fixed cost (about a second), not a per-row one.
  const startCpu = process.threadCpuUsage();
  const seconds = { subset: lap(), entities: 0, molecules: 0, activities: 0, indexes: 0, total: 0 };
  const writer = new ReleaseWriter(options.out, subset.shapes);
  const perParent = analoguesPerParent(subset.parents.length, subset.noStructureShare);
  const stream = new StructureStream(subset.parents, perParent, seed, options.workers ?? 2, plan.counts.molecules, options.inchi ?? false);
  const earlier = options.continueFrom ? openEarlierRelease(options.continueFrom, plan, options.inchi ?? false) : undefined;
  if (earlier) stream.continueFrom(earlier.structures);
  try {
    const { targets, retiredAssays } = writeEntities(subset, plan, writer);
    seconds.entities = lap();
    log(`targets, documents, assays: ${seconds.entities} s; enumerating ${plan.counts.molecules} molecules`);
    const molecules = await writeMolecules(subset, plan, stream, writer, log);
    seconds.molecules = lap();
    log(`molecules: ${seconds.molecules} s (${stream.stats.accepted} structures, ${stream.stats.candidatesTried} RDKit candidates)`);
    const activities = writeActivities(subset, plan, targets, writer, log);
    seconds.activities = lap();
    log(`activities: ${seconds.activities} s`);
    writer.finish();
    seconds.indexes = lap();
    const tables = writer.countRows();
    writer.close();
    seconds.total = Number(((performance.now() - started) / 1000).toFixed(2));
    return {
      file: options.out,
      scale: options.scale,
      seed,
      release: plan.release,
      inchi: options.inchi ?? false,
      planned: plan.counts,
      tables,
      expectedImport: {
        compounds: tables.molecule_dictionary,
        structures: tables.compound_structures,
        activities: tables.activities,
        assays: tables.assays,
        documents: tables.docs,
        targets: tables.target_dictionary,
      },
      molecules,
      activities,
      assays: { retired: retiredAssays },
      structures: { ...stream.stats, analoguesPerParent: perParent, parents: subset.parents.length },
      seconds,
      cpuSeconds: { main: cpuSince(startCpu), workers: Number(stream.stats.workerCpuSeconds.toFixed(2)) },
      fileBytes: fs.statSync(options.out).size,
    };
  } finally {
    writer.close();
    earlier?.structures.rows.return?.();
    earlier?.db.close();
    await stream.close();
  }
}

/** Release 1's structures in the order they were taken (by molecule key), after checking it is release 1 of this scale. */
function openEarlierRelease(from: NonNullable<GenerateOptions['continueFrom']>, plan: ReleasePlan, inchi: boolean) {
  const db = new Database(from.file, { readonly: true, fileMustExist: true });
  const molecules = (db.prepare('SELECT count(*) AS n FROM molecule_dictionary').get() as { n: number }).n;
  if (molecules !== plan.base.molecules) {
    db.close();
    throw new Error(`${from.file} has ${molecules} molecules, not the ${plan.base.molecules} of release 1 at scale ${plan.scale}`);
  }
  const count = (db.prepare('SELECT count(*) AS n FROM compound_structures').get() as { n: number }).n;
  // Without InChIs in the earlier file the reused structures would lack them where asked for (or the reverse).
  const withInchi =
    (db.prepare('SELECT count(*) AS n FROM compound_structures WHERE standard_inchi IS NOT NULL').get() as { n: number }).n > 0;
  if (count > 0 && withInchi !== inchi) {
    db.close();
    throw new Error(`${from.file} was written ${withInchi ? 'with' : 'without'} --inchi: write this one the same way`);
  }
  // One open cursor, read as the molecules are written (the connection runs nothing else after it).
  const rows = db
    .prepare(
      'SELECT canonical_smiles AS smiles, standard_inchi AS inchi, standard_inchi_key AS inchikey FROM compound_structures ORDER BY molregno',
    )
    .iterate() as IterableIterator<Structure>;
  return { db, structures: { rows, count, parentsRead: from.parentsRead, accepted: from.accepted } };
}
