import type { Insertable, Kysely } from 'kysely';
import { insertBatched } from '../bulk.ts';
import type { Database } from '../../../db/schema.ts';
import type { ChemPool } from '../chem/chem-pool.ts';
import type { ChemblFile, SqlRow } from './sqlite-source.ts';
import { countRows, hasTable, selectList } from './sqlite-source.ts';

export type Db = Kysely<Database>;

/** What one import step did: part of the final summary. */
export interface StepReport {
  step: string;
  /** ChEMBL table(s) read. */
  source: string;
  /** Our table(s) written. */
  target: string;
  status: 'loaded' | 'already loaded' | 'missing table' | 'unreadable part' | 'stopped';
  read: number;
  /** Wall time of this step in this run. */
  seconds: number;
  /** Rows inserted per our table. */
  loaded: Record<string, number>;
  /** Rows not loaded, per reason. */
  skipped: Record<string, number>;
  /** Facts worth knowing that are not skips (e.g. "structure from the parent molecule"). */
  info: Record<string, number>;
  notes: string[];
}

/** Added / updated / retired rows of one entity in a load (release.ts). */
export interface Change {
  added: number;
  updated: number;
  retired: number;
}
export type Changes = Record<string, Change>;

/** What one run of an import writes into: the load it belongs to and the changes so far. */
export interface ReleaseState {
  job: string;
  loadId: number;
  changes: Changes;
  /**
   * No other ChEMBL load and nothing retired before: every keyed row is new, so batches are
   * inserted plainly (no per-row compare, no seen keys, no restore) and nothing is retired at the end.
   */
  firstLoad: boolean;
}

/** Writes one prepared batch inside the transaction that also moves the checkpoint. */
export type Loader = (trx: Db) => Promise<void>;

export interface ReadBatch {
  rows: number;
  lastKey: number;
  /**
   * Async work (RDKit, look-ups of earlier steps' rows) done outside the transaction, overlapping the
   * loads of the batches before it. Runs may stop before the batch is loaded (it is read again next
   * run), so counts for the report are made or applied in the returned loader, never here.
   */
  prepare(): Promise<Loader>;
}

export interface ImportContext {
  file: ChemblFile;
  /** For look-ups a batch's preparation makes outside its transaction (earlier loads' rows only). */
  db: Db;
  pool: ChemPool;
  /** data_sources row of the ChEMBL release itself. */
  chemblSourceId: number;
  /** ChEMBL source.src_id -> data_sources.data_source_id. */
  sourceIds: Map<number, number>;
  /** bioassay_ontology: BAO id -> label. */
  baoLabels: Map<string, string>;
  phaseIds: Map<string, number>;
  statusIds: Map<string, number>;
  /** The load this run belongs to and the changes per entity so far (release.ts). */
  release: ReleaseState;
}

export interface Step {
  name: string;
  source: string;
  target: string;
  /** Tables that must exist; the step is skipped (reported) when one is missing. */
  requires: string[];
  /** At least one of these tables must exist. */
  requiresAny?: string[];
  /** Rows per batch (one transaction + checkpoint) unless the caller sets one; default 2,000. */
  batchRows?: number;
  total(ctx: ImportContext): number;
  read(ctx: ImportContext, report: StepReport, afterKey: number | null, limit: number): ReadBatch | null;
}

export function newReport(step: Pick<Step, 'name' | 'source' | 'target'>): StepReport {
  return {
    step: step.name,
    source: step.source,
    target: step.target,
    status: 'loaded',
    read: 0,
    seconds: 0,
    loaded: {},
    skipped: {},
    info: {},
    notes: [],
  };
}

/** Counts a skipped row and maps it to no output row (for flatMap). */
export function skip(report: Pick<StepReport, 'skipped'>, reason: string): [] {
  add(report.skipped, reason);
  return [];
}

export function add(counts: Record<string, number>, key: string, n = 1): void {
  if (n > 0) counts[key] = (counts[key] ?? 0) + n;
}

/**
 * Inserts a mapped batch, keeping rows already present (their ChEMBL source key is unique), and
 * reports how many landed and how many an earlier run had imported: what makes a re-run add nothing.
 */
export async function insertNew<T extends keyof Database & string>(
  trx: Db,
  report: StepReport,
  table: T,
  rows: Insertable<Database[T]>[],
): Promise<number> {
  const inserted = await insertBatched(trx, table, rows, { onConflictDoNothing: true });
  add(report.loaded, table, inserted);
  add(report.skipped, 'already imported', rows.length - inserted);
  return inserted;
}

/** Distinct non-null integer keys of a batch, for IN lookups. */
export function keysOf(rows: SqlRow[], column: string): number[] {
  const keys = new Set<number>();
  for (const row of rows) {
    const value = row[column];
    if (value !== null && value !== undefined && Number.isFinite(Number(value))) keys.add(Number(value));
  }
  return [...keys];
}

/** The SQL text of a keyset step: built once per import (it depends on the file's columns). */
interface KeysetQuery {
  sql: string;
  /** How many times the `afterKey` parameter appears before the LIMIT parameter. */
  keyParams: number;
  countSql: string;
}

export interface KeysetStepDefinition {
  name: string;
  source: string;
  target: string;
  requires: string[];
  requiresAny?: string[];
  /** Column of the result rows that orders the batches (molregno, activity_id ...). */
  key: string;
  batchRows?: number;
  /** Builds the query; pushes the file's missing columns into `missing`. */
  query(ctx: ImportContext, missing: string[]): KeysetQuery;
  prepare(ctx: ImportContext, report: StepReport, rows: SqlRow[]): Promise<Loader>;
}

/**
 * A step that reads `WHERE key > ? ORDER BY key LIMIT ?`: O(batch) per read on the primary-key
 * index (OFFSET would rescan), and the last key is the resume point stored in kb_load_checkpoints.
 */
export function keysetStep(def: KeysetStepDefinition): Step {
  let built: KeysetQuery | null = null;
  const missing: string[] = [];
  let noted = false;
  const build = (ctx: ImportContext): KeysetQuery => {
    built ??= def.query(ctx, missing);
    return built;
  };
  return {
    name: def.name,
    source: def.source,
    target: def.target,
    requires: def.requires,
    ...(def.requiresAny ? { requiresAny: def.requiresAny } : {}),
    ...(def.batchRows ? { batchRows: def.batchRows } : {}),
    total: (ctx) => countRows(ctx.file, build(ctx).countSql),
    read(ctx, report, afterKey, limit) {
      const query = build(ctx);
      if (!noted && missing.length > 0) report.notes.push(`columns missing from the file (read as NULL): ${missing.join(', ')}`);
      noted = true;
      const params = [...Array.from({ length: query.keyParams }, () => afterKey ?? Number.MIN_SAFE_INTEGER), limit];
      const rows = ctx.file.db.prepare(query.sql).all(...params) as SqlRow[];
      if (rows.length === 0) return null;
      const last = rows[rows.length - 1] as SqlRow;
      return { rows: rows.length, lastKey: Number(last[def.key]), prepare: () => def.prepare(ctx, report, rows) };
    },
  };
}

/** The keyset query of a whole source table: `columns` (those the file lacks read as NULL) in `key` order. */
export function tableKeysetQuery(table: string, alias: string, key: string, columns: readonly string[]): KeysetStepDefinition['query'] {
  return (ctx, missing) => ({
    sql: `SELECT ${selectList(ctx.file, table, alias, columns, missing)} FROM ${table} ${alias} WHERE ${alias}.${key} > ? ORDER BY ${alias}.${key} LIMIT ?`,
    keyParams: 1,
    countSql: `SELECT count(*) FROM ${table}`,
  });
}

export interface WholeTableStepDefinition {
  name: string;
  source: string;
  target: string;
  requires: string[];
  query(ctx: ImportContext, missing: string[]): string;
  prepare(ctx: ImportContext, report: StepReport, rows: SqlRow[]): Promise<Loader>;
}

/** Small vocabulary tables (hundreds of rows, tree order): one batch, checkpointed as done. */
export function wholeTableStep(def: WholeTableStepDefinition): Step {
  return {
    name: def.name,
    source: def.source,
    target: def.target,
    requires: def.requires,
    total: (ctx) => countRows(ctx.file, `SELECT count(*) FROM ${def.requires[0] ?? def.source}`),
    read(ctx, report, afterKey) {
      if (afterKey !== null) return null;
      const missing: string[] = [];
      const sql = def.query(ctx, missing);
      if (missing.length > 0) report.notes.push(`columns missing from the file (read as NULL): ${missing.join(', ')}`);
      const rows = ctx.file.db.prepare(sql).all() as SqlRow[];
      if (rows.length === 0) return null;
      return { rows: rows.length, lastKey: 0, prepare: () => def.prepare(ctx, report, rows) };
    },
  };
}

export function tablesPresent(file: ChemblFile, tables: readonly string[]): string[] {
  return tables.filter((t) => hasTable(file, t));
}
