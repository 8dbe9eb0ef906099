import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { loadsVersion } from '../../knowledge-base/kb-loads.ts';
import type { KbColumns } from './kb-columns.ts';
import { loadKbColumns } from './kb-columns.ts';

/**
 * The in-memory columns of this server, kept as current as the knowledge base: before each use
 * the kb_loads version is compared (one small query), and a load that ended since — here, on
 * another server or from the command line — makes the next use read the columns again. One read
 * at a time: concurrent callers share it. Searches counted while a load is still running see the
 * rows committed when the columns were read, as the SQL path sees the rows committed when it runs.
 */
export class BitmapIndex {
  private columns: KbColumns | null = null;
  private reading: Promise<KbColumns> | null = null;

  constructor(private readonly db: Kysely<Database>) {}

  async current(): Promise<KbColumns> {
    const version = await loadsVersion(this.db);
    if (this.columns?.version === version) return this.columns;
    if (!this.reading) {
      this.reading = loadKbColumns(this.db, version)
        .then((columns) => (this.columns = columns))
        .finally(() => (this.reading = null));
    }
    return this.reading;
  }
}
