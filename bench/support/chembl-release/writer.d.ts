import Database from 'better-sqlite3';
import type { GeneratedTable, Row, TableShape } from './subset.ts';
export declare class TableWriter {
    private readonly db;
    private readonly pending;
    private readonly insert;
    /** Column names in table order: the order of `addValues`. */
    readonly names: string[];
    rows: number;
    constructor(db: Database.Database, table: string, shape: TableShape);
    /** Columns the row does not name are NULL. */
    add(row: Row): void;
    /** One row as values in column order (the activities' fast path: no object per row). */
    addValues(values: unknown[]): void;
    /** Position of a column in `addValues` arrays. */
    column(name: string): number;
    flush(): void;
}
export declare class ReleaseWriter {
    readonly file: string;
    private readonly shapes;
    private readonly db;
    private readonly tables;
    constructor(file: string, shapes: Map<GeneratedTable, TableShape>);
    table(name: GeneratedTable): TableWriter;
    /** Flushes every table and builds the indexes: primary keys and unique ids as the dump declares them. */
    finish(): void;
    /** Rows per table, counted in the file (not by the writer): what the tests compare with the import. */
    countRows(): Record<GeneratedTable, number>;
    /** Safe to call twice (after a failure the generator closes whatever is still open). */
    close(): void;
}
