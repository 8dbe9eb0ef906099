import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { GeneratedTable, Row, TableShape } from './subset.ts';

/**
 * Writes the release file: tables as the subset (the official ChEMBL dump) defines them, rows in
 * key order through prepared statements, one transaction per batch, and the dump's indexes after
 * the rows (building an index once over sorted keys is much cheaper than growing it row by row).
 */

/** Rows per transaction: large enough that commits cost nothing, small enough to hold in memory. */
const BATCH = 20_000;

/** Indexes the importer's joins and lookups use besides primary keys (the real dump has these too). */
const FOREIGN_KEY_INDEXES: Partial<Record<GeneratedTable, string[]>> = {
  activities: ['assay_id', 'molregno', 'doc_id'],
  assays: ['doc_id', 'tid'],
  target_components: ['tid', 'component_id'],
  molecule_hierarchy: ['parent_molregno'],
};

export class TableWriter {
  private readonly pending: unknown[][] = [];
  private readonly insert: Database.Statement;
  /** Column names in table order: the order of `addValues`. */
  readonly names: string[];
  rows = 0;

  constructor(
    private readonly db: Database.Database,
    table: string,
    shape: TableShape,
  ) {
    this.names = shape.columns.map((c) => c.name);
    this.insert = db.prepare(`INSERT INTO ${table} (${this.names.join(', ')}) VALUES (${this.names.map(() => '?').join(', ')})`);
  }

  /** Columns the row does not name are NULL. */
  add(row: Row): void {
    this.addValues(this.names.map((n) => normalise(row[n])));
  }

  /** One row as values in column order (the activities' fast path: no object per row). */
  addValues(values: unknown[]): void {
    this.pending.push(values);
    if (this.pending.length >= BATCH) this.flush();
  }

  /** Position of a column in `addValues` arrays. */
  column(name: string): number {
    const index = this.names.indexOf(name);
    if (index < 0) throw new Error(`no column ${name}`);
    return index;
  }

  flush(): void {
    if (this.pending.length === 0) return;
    const rows = this.pending.splice(0);
    this.db.transaction(() => {
      for (const values of rows) this.insert.run(values);
    })();
    this.rows += rows.length;
  }
}

/** better-sqlite3 binds numbers, strings, bigints, buffers and null; undefined means "no value". */
function normalise(value: unknown): unknown {
  return value === undefined ? null : value;
}

export class ReleaseWriter {
  private readonly db: Database.Database;
  private readonly tables = new Map<GeneratedTable, TableWriter>();

  constructor(
    readonly file: string,
    private readonly shapes: Map<GeneratedTable, TableShape>,
  ) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.rmSync(file, { force: true });
    this.db = new Database(file);
    // A file written once from scratch: no journal or fsync needed (a crash means generating again).
    this.db.pragma('journal_mode = OFF');
    this.db.pragma('synchronous = OFF');
    this.db.pragma('cache_size = -65536');
    for (const [table, shape] of shapes) {
      this.db.exec(`CREATE TABLE ${table} (${shape.columns.map((c) => `${c.name} ${c.type}`).join(', ')})`);
      this.tables.set(table, new TableWriter(this.db, table, shape));
    }
  }

  table(name: GeneratedTable): TableWriter {
    const writer = this.tables.get(name);
    if (!writer) throw new Error(`no table ${name} in the release`);
    return writer;
  }

  /** Flushes every table and builds the indexes: primary keys and unique ids as the dump declares them. */
  finish(): void {
    for (const writer of this.tables.values()) writer.flush();
    for (const [table, shape] of this.shapes) {
      if (shape.primaryKey) this.db.exec(`CREATE UNIQUE INDEX pk_${table} ON ${table} (${shape.primaryKey})`);
      for (const column of shape.unique) this.db.exec(`CREATE UNIQUE INDEX uk_${table}_${column} ON ${table} (${column})`);
      for (const column of FOREIGN_KEY_INDEXES[table] ?? []) this.db.exec(`CREATE INDEX idx_${table}_${column} ON ${table} (${column})`);
    }
  }

  /** Rows per table, counted in the file (not by the writer): what the tests compare with the import. */
  countRows(): Record<GeneratedTable, number> {
    const counts = {} as Record<GeneratedTable, number>;
    for (const table of this.shapes.keys()) counts[table] = Number(this.db.prepare(`SELECT count(*) FROM ${table}`).pluck().get());
    return counts;
  }

  /** Safe to call twice (after a failure the generator closes whatever is still open). */
  close(): void {
    if (this.db.open) this.db.close();
  }
}
