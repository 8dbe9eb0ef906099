import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

/** One row as SQLite returns it; the mappers convert field by field (releases differ in types). */
export type SqlRow = Record<string, unknown>;

/** The file is not a ChEMBL release we can read at all: the CLI exits with code 2. */
export class NotChemblFileError extends Error {
  override readonly name = 'NotChemblFileError';
}

/** Any of these tables makes a file a ChEMBL release (a partial one is fine). */
const CORE_TABLES = ['molecule_dictionary', 'compound_structures', 'activities'] as const;

const SQLITE_MAGIC = Buffer.from('SQLite format 3\u0000', 'latin1');

export interface ChemblFile {
  db: Database.Database;
  file: string;
  /** Table name -> its column names, read from the file's own schema. */
  tables: Map<string, Set<string>>;
  /** Set when the file is shorter than its header says (truncated download/copy). */
  truncation: string | null;
  sizeBytes: number;
  close(): void;
}

/** better-sqlite3 error codes that mean "this part of the file cannot be read", not a bug of ours. */
export function isSqliteReadError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^SQLITE_(CORRUPT|NOTADB|IOERR)/.test(code);
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function readHeader(file: string): Buffer {
  const fd = fs.openSync(file, 'r');
  try {
    const header = Buffer.alloc(100);
    const n = fs.readSync(fd, header, 0, 100, 0);
    return header.subarray(0, n);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * The header stores page size and page count: a file shorter than their product was cut off.
 * Checking this up front gives a clear message before the first unreadable page is hit.
 */
function truncationOf(header: Buffer, sizeBytes: number): string | null {
  if (header.length < 32) return `the file is truncated (${sizeBytes} bytes, shorter than an SQLite header)`;
  const rawPageSize = header.readUInt16BE(16);
  const pageSize = rawPageSize === 1 ? 65_536 : rawPageSize;
  const pageCount = header.readUInt32BE(28);
  const expected = pageSize * pageCount;
  if (pageCount > 0 && sizeBytes < expected) {
    return (
      `the file is truncated: ${sizeBytes.toLocaleString('en')} of ${expected.toLocaleString('en')} bytes ` +
      `(${Math.floor(sizeBytes / pageSize)} of ${pageCount} pages); loading what is still readable`
    );
  }
  return null;
}

function readSchema(db: Database.Database): Map<string, Set<string>> {
  const names = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[];
  const tables = new Map<string, Set<string>>();
  for (const name of names) {
    const columns = db.prepare(`PRAGMA table_info("${name.replaceAll('"', '""')}")`).all() as { name: string }[];
    tables.set(name.toLowerCase(), new Set(columns.map((c) => c.name.toLowerCase())));
  }
  return tables;
}

/**
 * Opens a ChEMBL SQLite release read-only and reads its schema. Refuses (NotChemblFileError) a file
 * that is missing, not SQLite, has an unreadable schema, or has none of the core ChEMBL tables.
 */
export function openChemblFile(file: string): ChemblFile {
  const resolved = path.resolve(file);
  if (!fs.existsSync(resolved) || !fs.statSync(resolved).isFile()) throw new NotChemblFileError(`${file}: no such file.`);
  const sizeBytes = fs.statSync(resolved).size;
  const header = readHeader(resolved);
  if (header.length < 16 || !header.subarray(0, 16).equals(SQLITE_MAGIC)) {
    throw new NotChemblFileError(`${file} is not an SQLite database, so not a ChEMBL SQLite release (chembl_NN.db).`);
  }
  let db: Database.Database;
  let tables: Map<string, Set<string>>;
  const truncation = truncationOf(header, sizeBytes);
  try {
    db = new Database(resolved, { readonly: true, fileMustExist: true });
    // SQLite refuses any read when the header counts more pages than the file has, unless
    // writable_schema is on (needs unsafe mode in better-sqlite3). The connection is read-only,
    // so this only lets it read the pages that are still there.
    if (truncation) {
      db.unsafeMode(true);
      db.pragma('writable_schema = ON');
    }
  } catch (error) {
    throw new NotChemblFileError(`${file}: SQLite cannot open it (${errorText(error)}).`);
  }
  try {
    tables = readSchema(db);
  } catch (error) {
    db.close();
    throw new NotChemblFileError(`${file}: its schema is unreadable, the file is corrupt or truncated (${errorText(error)}).`);
  }
  if (!CORE_TABLES.some((t) => tables.has(t))) {
    db.close();
    throw new NotChemblFileError(
      `${file} is an SQLite database but not a ChEMBL release: it has none of the tables ${CORE_TABLES.join(', ')}.`,
    );
  }
  return { db, file: resolved, tables, truncation, sizeBytes, close: () => db.close() };
}

/**
 * A select list that tolerates partial releases: a missing column becomes `NULL AS column` and is
 * recorded in `missing`, so one query shape serves every release.
 */
export function selectList(file: ChemblFile, table: string, alias: string, columns: readonly string[], missing: string[]): string {
  const present = file.tables.get(table);
  return columns
    .map((column) => {
      if (present?.has(column)) return `${alias}.${column} AS ${column}`;
      missing.push(`${table}.${column}`);
      return `NULL AS ${column}`;
    })
    .join(', ');
}

export function hasTable(file: ChemblFile, table: string): boolean {
  return file.tables.has(table);
}

export function hasColumn(file: ChemblFile, table: string, column: string): boolean {
  return file.tables.get(table)?.has(column) ?? false;
}

/** Row count for the progress bar; an unreadable table counts as 0 (its rows show up as unreadable). */
export function countRows(file: ChemblFile, sql: string): number {
  try {
    return Number(file.db.prepare(sql).pluck().get() ?? 0);
  } catch (error) {
    if (isSqliteReadError(error)) return 0;
    throw error;
  }
}

/* Field converters: releases store numbers as TEXT or NUMERIC now and then; map defensively. */

export function str(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  const text = String(value).trim();
  return text === '' ? null : text;
}

export function num(value: unknown): number | null {
  if (value === null || value === undefined || value === '') return null;
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(n) ? n : null;
}

export function int(value: unknown): number | null {
  const n = num(value);
  return n === null ? null : Math.trunc(n);
}
