/** Kysely types of the tables the trees module's migration adds; `Database` (db/schema.ts) extends this. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface TreeTables {}
