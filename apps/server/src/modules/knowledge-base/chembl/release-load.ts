import path from 'node:path';
import type { KbLoadKind, KbLoadReport, SkippedRows } from '@kb/contracts/kb-loads';
import { KbLoadReportSchema } from '@kb/contracts/kb-loads';
import { beginLoad, finishLoad } from '../kb-loads.ts';
import { buildLoadReport, mergeSkipped } from '../kb-load-report.ts';
import { sql } from 'kysely';
import { KEYED, KEYED_TABLES } from './release.ts';
import type { Changes, ReleaseState } from './release.ts';
import type { ChemblFile } from './sqlite-source.ts';
import { hasTable, str } from './sqlite-source.ts';
import type { Db, StepReport } from './step.ts';

/**
 * The kb_loads row of a ChEMBL import: opened by the first run of a job, continued by a resumed
 * run, its running counts saved with every batch (same transaction as the checkpoint) so that a
 * resumed import reports the whole load, and closed with the report after a finished run.
 */

export interface ImportLoad extends ReleaseState {
  kind: KbLoadKind;
  label: string;
  /** Skips of earlier runs of this load (a resumed import). */
  earlierSkipped: SkippedRows[];
  /** A first load resumed after another load came in: its checkpoints are dropped and the file read again. */
  rereadAll: boolean;
}

/** The release's name from its `version` table (ChEMBL_35), else the file name without extension. */
function releaseLabel(file: ChemblFile): string {
  if (hasTable(file, 'version')) {
    try {
      const row = file.db.prepare('SELECT name FROM version LIMIT 1').get() as { name?: unknown } | undefined;
      const name = str(row?.name);
      if (name) return name;
    } catch {
      // An unreadable version table only costs the nicer label.
    }
  }
  return path.basename(file.file).replace(/\.(db|sqlite3?)$/i, '');
}

function parseReport(raw: unknown): KbLoadReport | null {
  const value = typeof raw === 'string' ? JSON.parse(raw) : raw;
  const parsed = value == null ? null : KbLoadReportSchema.safeParse(value);
  return parsed?.success ? parsed.data : null;
}

/**
 * Continues the running load of this file, or opens one: 'update' over an earlier ChEMBL load, else
 * 'import'. `firstLoadBefore`: the job's stored decision (checkpoint part `first-load`) that it began
 * as a first load; it is decided once, when the load opens, and kept unless another load came in
 * between (then the whole file is read again as an update: `rereadAll`).
 */
export async function openImportLoad(db: Db, file: ChemblFile, job: string, firstLoadBefore: boolean): Promise<ImportLoad> {
  const sourceFile = path.basename(file.file);
  const label = releaseLabel(file);
  const running = await db
    .selectFrom('kb_loads')
    .select(['load_id', 'kind', 'label', 'report'])
    .where('status', '=', 'running')
    .where('kind', 'in', ['import', 'update'])
    .where('source_file', '=', sourceFile)
    .orderBy('load_id', 'desc')
    .executeTakeFirst();
  if (running) {
    const report = parseReport(running.report);
    const changes: Changes = {};
    for (const c of report?.changes ?? []) changes[c.entity] = { added: c.added, updated: c.updated, retired: c.retired };
    const loadId = Number(running.load_id);
    // Its first batches recorded no seen keys: once another load exists, only reading every key
    // again lets the end of this one retire correctly.
    const overtaken = firstLoadBefore && Boolean(await otherLoad(db, loadId));
    return {
      job,
      loadId,
      kind: running.kind,
      label: running.label,
      changes,
      earlierSkipped: report?.quality?.skipped ?? [],
      firstLoad: firstLoadBefore && !overtaken,
      rereadAll: overtaken,
    };
  }
  const earlier = await db
    .selectFrom('kb_loads')
    .select('load_id')
    .where('kind', 'in', ['import', 'update'])
    .where('status', 'in', ['complete', 'partial'])
    .limit(1)
    .executeTakeFirst();
  const kind: KbLoadKind = earlier ? 'update' : 'import';
  const loadId = await beginLoad(db, { kind, label, sourceFile });
  return {
    job,
    loadId,
    kind,
    label,
    changes: {},
    earlierSkipped: [],
    firstLoad: kind === 'import' && (await isFirstLoad(db, loadId)),
    rereadAll: false,
  };
}

function otherLoad(db: Db, loadId: number) {
  return db
    .selectFrom('kb_loads')
    .select('load_id')
    .where('kind', 'in', ['import', 'update'])
    .where('load_id', '<>', loadId)
    .limit(1)
    .executeTakeFirst();
}

/**
 * The first ChEMBL load into this knowledge base: no other import or update (not even an abandoned
 * one, whose rows a later release must be able to retire), no archived rows to bring back, and no
 * row with a ChEMBL key (loaded before loads were recorded, migration 0022).
 */
async function isFirstLoad(db: Db, loadId: number): Promise<boolean> {
  if (await otherLoad(db, loadId)) return false;
  if (await db.selectFrom('kb_retired_rows').select('table_name').limit(1).executeTakeFirst()) return false;
  for (const table of KEYED_TABLES) {
    const keyed = await sql`SELECT 1 FROM ${sql.table(table)} WHERE ${sql.ref(KEYED[table].key)} IS NOT NULL LIMIT 1`.execute(db);
    if (keyed.rows.length > 0) return false;
  }
  return true;
}

/** Real skips only: "already imported / present" (a re-run, a shared vocabulary row) is not a loss. */
function skippedOf(load: ImportLoad, steps: StepReport[]): SkippedRows[] {
  const now = steps.flatMap((s) =>
    Object.entries(s.skipped)
      .filter(([reason]) => !/\balready (imported|present)\b/.test(reason))
      .map(([reason, rows]) => ({ step: s.step, reason, rows })),
  );
  return mergeSkipped(load.earlierSkipped, now);
}

/** Running counts of the load, written with each batch (quality is computed only at the end). */
export async function saveProgress(trx: Db, load: ImportLoad, steps: StepReport[]): Promise<void> {
  const report: KbLoadReport = {
    changes: Object.entries(load.changes).map(([entity, c]) => ({ entity, ...c, total: 0 })),
    quality: {
      rowsPerEntity: [],
      activities: { total: 0, withStructure: 0, standardised: 0, unitConversions: 0 },
      compounds: { total: 0, withStructure: 0 },
      skipped: skippedOf(load, steps),
    },
    notes: ['import running'],
  };
  await trx
    .updateTable('kb_loads')
    .set({ report: JSON.stringify(report) })
    .where('load_id', '=', load.loadId)
    .execute();
}

/** Closes the load with its report: complete, or partial when parts of the file were unreadable. */
export async function closeImportLoad(
  db: Db,
  load: ImportLoad,
  steps: StepReport[],
  complete: boolean,
  notes: string[],
): Promise<KbLoadReport> {
  const report = await buildLoadReport(db, load.changes, skippedOf(load, steps), notes);
  await finishLoad(db, load.loadId, complete ? 'complete' : 'partial', report);
  return report;
}
