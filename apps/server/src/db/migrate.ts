import fs from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import type { DatabaseHandle } from './database.ts';
import type { Migration, MigrationProvider } from 'kysely/migration';

const MIGRATIONS_DIR = path.join(import.meta.dirname, 'migrations');
const DOWN_MARKER = /^--\s*migrate:down\s*$/m;

/**
 * Plain-SQL migrations run by Kysely's Migrator: `NNNN_name.sql`, the `up` part first and the
 * `down` part after a `-- migrate:down` line. SQL stays readable and identical on both databases.
 */
class SqlFileMigrationProvider implements MigrationProvider {
  constructor(
    private readonly dir: string,
    private readonly execScript: DatabaseHandle['execScript'],
  ) {}

  async getMigrations(): Promise<Record<string, Migration>> {
    const files = (await fs.readdir(this.dir)).filter((f) => f.endsWith('.sql')).sort();
    const migrations: Record<string, Migration> = {};
    for (const file of files) {
      const text = await fs.readFile(path.join(this.dir, file), 'utf8');
      const [up = '', down = ''] = text.split(DOWN_MARKER);
      migrations[file.replace(/\.sql$/, '')] = {
        up: (db) => this.execScript(db, up),
        down: (db) => this.execScript(db, down),
      };
    }
    return migrations;
  }
}

/** Brings the schema up to date; throws with the failing migration's name. */
export async function migrateToLatest(handle: DatabaseHandle, dir: string = MIGRATIONS_DIR): Promise<string[]> {
  // The bookkeeping tables live in the schema being migrated: Kysely otherwise looks for them in
  // every schema of the database and, with parallel test schemas, finds another one's.
  const { rows } = await sql<{ schema: string }>`SELECT current_schema() AS schema`.execute(handle.db);
  const migrator = new Migrator({
    db: handle.db,
    provider: new SqlFileMigrationProvider(dir, handle.execScript),
    migrationTableSchema: rows[0]?.schema ?? 'public',
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`Migration ${failed?.migrationName ?? '(unknown)'} failed: ${reason}`, { cause: error });
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
