import path from 'node:path';
import type { DatabaseHandle } from '../../../db/database.ts';
import { ChemPool } from '../chem/chem-pool.ts';
import { countKnowledgeBase } from '../kb-counts.ts';
import type { KnowledgeBaseCounts } from '../kb-counts.ts';
import { seedLookups } from '../lookup-vocabulary.ts';
import { dataSourceIds } from './lookups.ts';
import { hasTable, isSqliteReadError, openChemblFile } from './sqlite-source.ts';
import type { ChemblFile } from './sqlite-source.ts';
import { buildDeferredIndexes, deferIndexes, DEFERRED_INDEX_TABLES } from './deferred-indexes.ts';
import { newReport } from './step.ts';
import type { KbLoadKind, KbLoadReport } from '@kb/contracts/kb-loads';
import { KEYED_TABLES, completeEntities, forgetSeen, retireMissing } from './release.ts';
import { closeImportLoad, openImportLoad, saveProgress } from './release-load.ts';
import type { ImportLoad } from './release-load.ts';
import type { Db, ImportContext, Loader, ReadBatch, Step, StepReport } from './step.ts';
import { assaysStep, documentsStep, readBaoLabels, targetsStep } from './steps-entities.ts';
import { activitiesStep, moleculesStep, synonymsStep } from './steps-molecules.ts';
import { clinicalStep, companiesStep, indicationsStep, mechanismsStep } from './steps-clinical.ts';
import { actionTypesStep, activityTypesStep, sourceStep, targetClassesStep } from './steps-vocabulary.ts';
import { assayCellsStep, assayParametersStep, cellDictionaryStep, tissueDictionaryStep } from './steps-dictionaries.ts';
import { atcClassesStep, componentXrefStep, moleculeAtcStep } from './steps-classifications.ts';

export { NotChemblFileError } from './sqlite-source.ts';
export type { StepReport } from './step.ts';

const CHEMBL_SOURCE_NAME = 'ChEMBL';

/** Steps in dependency order: each one only looks up ids that earlier steps loaded. */
function createSteps(): Step[] {
  return [
    sourceStep(),
    activityTypesStep(),
    actionTypesStep(),
    documentsStep(),
    targetClassesStep(),
    targetsStep(),
    assaysStep(),
    moleculesStep(),
    synonymsStep(),
    activitiesStep(),
    clinicalStep(),
    indicationsStep(),
    mechanismsStep(),
    companiesStep(),
    // Left out until issue 17; each reads only ids loaded above (targets, assays, compounds).
    componentXrefStep(),
    cellDictionaryStep(),
    tissueDictionaryStep(),
    assayCellsStep(),
    assayParametersStep(),
    atcClassesStep(),
    moleculeAtcStep(),
  ];
}

/** The ChEMBL tables the importer is meant to read (a partial release reports those it lacks). */
export const EXPECTED_TABLES = [
  'molecule_dictionary',
  'compound_structures',
  'compound_properties',
  'compound_records',
  'molecule_synonyms',
  'molecule_hierarchy',
  'target_dictionary',
  'target_components',
  'component_sequences',
  'component_synonyms',
  'protein_classification',
  'component_class',
  'assays',
  'activities',
  'docs',
  'source',
  'drug_indication',
  'drug_mechanism',
  'action_type',
  'bioassay_ontology',
  'activity_stds_lookup',
  'products',
  'formulations',
  'ligand_eff',
  'component_xref',
  'cell_dictionary',
  'tissue_dictionary',
  'assay_parameters',
  'atc_classification',
  'molecule_atc_classification',
];

const READ_TABLES = new Set([
  'source',
  'activity_stds_lookup',
  'action_type',
  'docs',
  'protein_classification',
  'target_dictionary',
  'target_components',
  'component_sequences',
  'component_synonyms',
  'component_class',
  'assays',
  'bioassay_ontology',
  'compound_structures',
  'molecule_dictionary',
  'molecule_hierarchy',
  'molecule_synonyms',
  'activities',
  'drug_indication',
  'drug_mechanism',
  'formulations',
  'products',
  'ligand_eff',
  'compound_records',
  'component_xref',
  'cell_dictionary',
  'tissue_dictionary',
  'assay_parameters',
  'atc_classification',
  'molecule_atc_classification',
]);

/** Why a present table is not read (tables not listed: no column of ours to put them in). */
const NOT_READ_BECAUSE: Record<string, string> = {
  compound_properties: 'RDKit recomputes the properties, so every source uses the same definitions',
};

export interface ImportProgress {
  step: string;
  stepNumber: number;
  steps: number;
  /** Rows read in this step / in the whole file (steps already done count as read). */
  read: number;
  total: number;
  rowsRead: number;
  rowsTotal: number;
}

export interface ImportOptions {
  /** Rows per batch (one transaction + checkpoint each). Default: the step's own (2,000; assays and activities 10,000). */
  batchSize?: number;
  /** Stop after this many batches in all (simulates an interrupted import in tests). */
  maxBatches?: number;
  /** Ignore checkpoints and read everything again: unchanged rows are not written again (upsert with IS DISTINCT FROM). */
  restart?: boolean;
  /** RDKit worker threads (default: all cores), or a pool to share (tests). */
  workers?: number;
  pool?: ChemPool;
  onProgress?: (progress: ImportProgress) => void;
  /** After each step this run worked on (loaded, unreadable part): its report, e.g. for a log line. */
  onStepDone?: (report: StepReport) => void;
}

export interface ImportSummary {
  file: string;
  job: string;
  datasetLabel: string;
  /** Every step finished (none stopped by maxBatches, none hit an unreadable part). */
  complete: boolean;
  stopped: boolean;
  warnings: string[];
  missingTables: string[];
  tablesNotRead: Record<string, string>;
  steps: StepReport[];
  totals: { read: number; loaded: number; skipped: number };
  counts: KnowledgeBaseCounts;
  seconds: number;
  /** The kb_loads row of this import and, once the run finished, its report (changes + data quality). */
  load: { loadId: number; kind: KbLoadKind; label: string; report: KbLoadReport | null };
}

/** Checkpoint part that records a job's decision to load plainly (release-load.ts openImportLoad). */
const FIRST_LOAD = 'first-load';

/** One checkpoint row per step (`table:<step>`) keeps the last source key loaded. */
interface Checkpoint {
  lastKey: number | null;
  done: boolean;
}

function jobName(file: ChemblFile): string {
  return `chembl:${path.basename(file.file)}:${file.sizeBytes}`;
}

async function readCheckpoints(db: Db, job: string): Promise<Map<string, Checkpoint>> {
  const rows = await db.selectFrom('kb_load_checkpoints').select(['part', 'last_key', 'done']).where('job', '=', job).execute();
  return new Map(rows.map((r) => [r.part, { lastKey: r.last_key, done: r.done }]));
}

async function writeCheckpoint(trx: Db, job: string, part: string, lastKey: number | null, done: boolean): Promise<void> {
  await trx
    .insertInto('kb_load_checkpoints')
    .values({ job, part, last_key: lastKey, done, updated_at: new Date() })
    .onConflict((oc) => oc.columns(['job', 'part']).doUpdateSet({ last_key: lastKey, done, updated_at: new Date() }))
    .execute();
}

/** Shared vocabularies (units, phases ...) and the ChEMBL provenance row; ids for the mappers. */
async function prepareContext(db: Db, file: ChemblFile, pool: ChemPool, release: ImportLoad): Promise<ImportContext> {
  const chemblSourceId = await db.transaction().execute(async (trx) => {
    await seedLookups(trx);
    await trx
      .insertInto('data_sources')
      .values({
        name: CHEMBL_SOURCE_NAME,
        short_name: 'ChEMBL',
        url: 'https://www.ebi.ac.uk/chembl',
        description: 'ChEMBL release (EMBL-EBI), CC BY-SA 3.0',
        is_demo: false,
      })
      .onConflict((oc) => oc.doNothing())
      .execute();
    return (await trx.selectFrom('data_sources').select('data_source_id').where('name', '=', CHEMBL_SOURCE_NAME).executeTakeFirstOrThrow())
      .data_source_id;
  });
  const phases = await db.selectFrom('clinical_phases').select(['phase_id', 'name']).execute();
  const statuses = await db.selectFrom('clinical_statuses').select(['status_id', 'name']).execute();
  return {
    file,
    db,
    pool,
    chemblSourceId,
    release,
    sourceIds: await dataSourceIds(db),
    baoLabels: readBaoLabels(file),
    phaseIds: new Map(phases.map((p) => [p.name, p.phase_id])),
    statusIds: new Map(statuses.map((s) => [s.name, s.status_id])),
  };
}

function missingRequirement(file: ChemblFile, step: Step): string | null {
  const missing = step.requires.filter((t) => !hasTable(file, t));
  if (missing.length > 0) return `table${missing.length > 1 ? 's' : ''} ${missing.join(', ')} not in the file`;
  if (step.requiresAny && !step.requiresAny.some((t) => hasTable(file, t))) return `none of ${step.requiresAny.join(', ')} in the file`;
  return null;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

interface RunState {
  reports: StepReport[];
  batches: number;
  stopped: boolean;
  rowsRead: number;
}

/**
 * Reads the next batch; on an unreadable page (corrupt/truncated file) retries with smaller batches
 * to load every row SQLite can still read before the damage, then gives up on that table.
 */
function readSafely(
  step: Step,
  ctx: ImportContext,
  report: StepReport,
  afterKey: number | null,
  limit: { value: number },
): ReadBatch | null {
  for (;;) {
    try {
      return step.read(ctx, report, afterKey, limit.value);
    } catch (error) {
      if (!isSqliteReadError(error)) throw error;
      if (limit.value > 1) {
        limit.value = Math.max(1, Math.floor(limit.value / 10));
        continue;
      }
      report.status = 'unreadable part';
      report.notes.push(`stopped reading after key ${afterKey ?? '(start)'}: ${errorText(error)}`);
      return null;
    }
  }
}

interface Pending {
  batch: ReadBatch;
  loader: Promise<Loader>;
}

/**
 * Batches prepared ahead of the one being loaded. With one, each RDKit worker idled at every batch's
 * end (the batch is split between the workers, the quicker half waits for the slower) and while the
 * next batch was read from the file; with two, the workers' queues never run dry. Loads and
 * checkpoints stay in key order, one batch per transaction, so resume is unchanged: a batch prepared
 * but not loaded when a run stops is simply read again by the next run.
 */
const BATCHES_IN_FLIGHT = 2;

function startBatch(batch: ReadBatch | null): Pending | null {
  if (!batch) return null;
  const loader = batch.prepare();
  // If the run stops before this batch is loaded, its rejection must not go unhandled.
  loader.catch(() => {});
  return { batch, loader };
}

/** Runs one step batch by batch: each batch and its checkpoint commit together (exactly-once resume). */
async function runStep(
  db: Db,
  ctx: ImportContext,
  job: string,
  step: Step,
  report: StepReport,
  start: number | null,
  options: ImportOptions,
  state: RunState,
  progress: (read: number) => void,
): Promise<void> {
  const part = `table:${step.name}`;
  const limit = { value: options.batchSize ?? step.batchRows ?? 2_000 };
  const queue: Pending[] = [];
  let lastRead = start;
  let more = true;
  const fill = () => {
    while (more && queue.length < BATCHES_IN_FLIGHT) {
      const next = startBatch(readSafely(step, ctx, report, lastRead, limit));
      if (!next) more = false;
      else {
        queue.push(next);
        lastRead = next.batch.lastKey;
      }
    }
  };
  fill();
  for (let pending = queue.shift(); pending; pending = queue.shift()) {
    if (options.maxBatches !== undefined && state.batches >= options.maxBatches) {
      state.stopped = true;
      report.status = 'stopped';
      return;
    }
    const { batch } = pending;
    const loader = await pending.loader;
    fill();
    await db.transaction().execute(async (trx) => {
      await loader(trx);
      await writeCheckpoint(trx, job, part, batch.lastKey, false);
      await saveProgress(trx, ctx.release as ImportLoad, state.reports);
    });
    state.batches++;
    report.read += batch.rows;
    state.rowsRead += batch.rows;
    progress(report.read);
  }
  if (report.status === 'loaded') await writeCheckpoint(db, job, part, null, true);
}

/** A first load's deferred indexes of `table`, built once its rows are in (deferred-indexes.ts). */
async function buildIndexesAfterRows(db: Db, job: string, table: string, report: StepReport): Promise<void> {
  const started = performance.now();
  const built = await buildDeferredIndexes(db, job);
  if (built > 0)
    report.notes.push(
      `${built} secondary indexes of ${table} built after its rows, in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
}

function totalsOf(steps: StepReport[]): ImportSummary['totals'] {
  const sum = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);
  return {
    read: steps.reduce((a, s) => a + s.read, 0),
    loaded: steps.reduce((a, s) => a + sum(s.loaded), 0),
    skipped: steps.reduce((a, s) => a + sum(s.skipped), 0),
  };
}

function tablesNotRead(file: ChemblFile): Record<string, string> {
  const result: Record<string, string> = {};
  for (const table of file.tables.keys()) {
    if (!READ_TABLES.has(table) && !table.startsWith('sqlite_')) result[table] = NOT_READ_BECAUSE[table] ?? 'no table of ours maps it';
  }
  return result;
}

/**
 * Checkpoints to start from. A job that completed before (the same file imported again) starts
 * over: it is read whole again so that the update compares every key (and adds nothing if the
 * knowledge base already matches it). --restart also forgets the keys an earlier run has seen.
 */
async function startingCheckpoints(db: Db, job: string, restart: boolean): Promise<Map<string, Checkpoint>> {
  const checkpoints = await readCheckpoints(db, job);
  if (!restart && !checkpoints.get('complete')?.done) return checkpoints;
  // Indexes an earlier first load deferred are built before their record goes.
  await buildDeferredIndexes(db, job);
  await db.deleteFrom('kb_load_checkpoints').where('job', '=', job).execute();
  await forgetSeen(db, job);
  return new Map();
}

function loadNotes(file: ChemblFile, complete: boolean, warnings: string[], reports: StepReport[]): string[] {
  const missing = EXPECTED_TABLES.filter((t) => !hasTable(file, t));
  const done = completeEntities(reports);
  const notRetired = KEYED_TABLES.filter((t) => !done.has(t));
  return [
    ...(missing.length > 0 ? [`tables not in the file: ${missing.join(', ')}`] : []),
    ...(complete && notRetired.length > 0 ? [`not retired (their ChEMBL table is not in the file): ${notRetired.join(', ')}`] : []),
    ...(complete ? [] : ['incomplete file: nothing was retired']),
    ...warnings,
  ];
}

async function setDatasetLabel(db: Db, label: string): Promise<void> {
  await db
    .insertInto('app_settings')
    .values({ key: 'dataset_label', value: label })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: label }))
    .execute();
}

/**
 * Imports a ChEMBL SQLite release (or a partial file) into the knowledge base, as one load (kb_loads).
 * Over an earlier release it adds, updates and retires rows (release.ts). Idempotent (source
 * keys in unique chembl_* columns, upserted) and resumable (checkpoint per step).
 * Throws NotChemblFileError for a file that is not a ChEMBL release.
 */
export async function importChembl(handle: DatabaseHandle, filePath: string, options: ImportOptions = {}): Promise<ImportSummary> {
  const started = performance.now();
  const file = openChemblFile(filePath);
  const pool = options.pool ?? new ChemPool(options.workers);
  const { db } = handle;
  const job = jobName(file);
  const datasetLabel = `chembl:${path.basename(file.file)}`;
  const warnings = file.truncation ? [file.truncation] : [];
  const reports: StepReport[] = [];
  const state: RunState = { reports, batches: 0, stopped: false, rowsRead: 0 };
  try {
    let checkpoints = await startingCheckpoints(db, job, options.restart ?? false);
    const load = await openImportLoad(db, file, job, checkpoints.get(FIRST_LOAD)?.done ?? false);
    if (load.rereadAll) checkpoints = await startingCheckpoints(db, job, true);
    if (load.firstLoad) await writeCheckpoint(db, job, FIRST_LOAD, null, true);
    const ctx = await prepareContext(db, file, pool, load);
    const steps = createSteps();
    const totals = steps.map((s) => (missingRequirement(file, s) ? 0 : s.total(ctx)));
    const rowsTotal = totals.reduce((a, b) => a + b, 0);
    for (const [i, step] of steps.entries()) {
      const report = newReport(step);
      reports.push(report);
      const missing = missingRequirement(file, step);
      const checkpoint = checkpoints.get(`table:${step.name}`);
      if (missing) {
        report.status = 'missing table';
        report.notes.push(missing);
      } else if (checkpoint?.done) {
        report.status = 'already loaded';
        state.rowsRead += totals[i] ?? 0;
      } else if (!state.stopped) {
        const progress = (read: number) =>
          options.onProgress?.({
            step: step.name,
            stepNumber: i + 1,
            steps: steps.length,
            read,
            total: totals[i] ?? 0,
            rowsRead: state.rowsRead,
            rowsTotal,
          });
        const stepStarted = performance.now();
        try {
          const deferred = load.firstLoad ? DEFERRED_INDEX_TABLES[step.name] : undefined;
          if (deferred) await deferIndexes(db, job, deferred);
          await runStep(db, ctx, job, step, report, checkpoint?.lastKey ?? null, options, state, progress);
          if (deferred && report.status === 'loaded') await buildIndexesAfterRows(db, job, deferred, report);
        } catch (error) {
          // A damaged page met while loading (not while paging) ends this step only.
          if (!isSqliteReadError(error)) throw error;
          report.status = 'unreadable part';
          report.notes.push(`stopped: ${errorText(error)}`);
        }
        report.seconds = (performance.now() - stepStarted) / 1000;
        if (report.status !== 'stopped') options.onStepDone?.(report);
      } else {
        report.status = 'stopped';
      }
    }
    // Indexes a killed run left deferred (its step finished, or was cut short by a damaged page).
    if (!state.stopped) await buildDeferredIndexes(db, job);
    const complete = !state.stopped && reports.every((r) => r.status !== 'unreadable part' && r.status !== 'stopped');
    if (!state.stopped) await setDatasetLabel(db, datasetLabel);
    if (reports.some((r) => r.status === 'unreadable part')) {
      warnings.push(
        'parts of the file are unreadable (corrupt or truncated): what SQLite could read was loaded; see the steps marked "unreadable part"',
      );
    }
    // Retiring needs the whole release: never after a damaged file; per entity, never after a missing table.
    if (complete) await retireMissing(db, load, completeEntities(reports));
    if (complete) await writeCheckpoint(db, job, 'complete', null, true);
    const report = state.stopped ? null : await closeImportLoad(db, load, reports, complete, loadNotes(file, complete, warnings, reports));
    return {
      file: file.file,
      job,
      datasetLabel,
      complete,
      stopped: state.stopped,
      warnings,
      missingTables: EXPECTED_TABLES.filter((t) => !hasTable(file, t)),
      tablesNotRead: tablesNotRead(file),
      steps: reports,
      totals: totalsOf(reports),
      counts: await countKnowledgeBase(db),
      seconds: (performance.now() - started) / 1000,
      load: { loadId: load.loadId, kind: load.kind, label: load.label, report },
    };
  } finally {
    if (!options.pool) await pool.close();
    file.close();
  }
}

/**
 * Reads every row the import would read, without RDKit or database work: the reference figure of
 * the import benchmark (how much of the time is only SQLite paging on this machine, right now).
 */
export function scanChembl(filePath: string, batchSize = 2_000): { rows: number; seconds: number } {
  const started = performance.now();
  const file = openChemblFile(filePath);
  try {
    // read() only touches the file; the other context fields are never used by it.
    const ctx = { file } as ImportContext;
    let rows = 0;
    for (const step of createSteps()) {
      if (missingRequirement(file, step)) continue;
      const report = newReport(step);
      for (let batch = step.read(ctx, report, null, batchSize); batch; batch = step.read(ctx, report, batch.lastKey, batchSize)) {
        rows += batch.rows;
      }
    }
    return { rows, seconds: (performance.now() - started) / 1000 };
  } finally {
    file.close();
  }
}
