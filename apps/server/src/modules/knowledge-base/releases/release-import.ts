import fs from 'node:fs/promises';
import path from 'node:path';
import type { ReleaseFiles, ReleaseImportJob, ReleaseImportRequest } from '@kb/contracts/kb-loads';
import { ReleaseFileNameSchema } from '@kb/contracts/kb-loads';
import { ERROR_CODES } from '@kb/contracts/errors';
import type { DatabaseHandle } from '../../../db/database.ts';
import { withDbPriority } from '../../../db/db-priority.ts';
import { HttpError, badRequest } from '../../../http/errors.ts';
import { importChembl } from '../chembl/chembl-import.ts';
import { findDemoData, mixedDataMessage } from '../chembl/mixing.ts';
import { openChemblFile } from '../chembl/sqlite-source.ts';
import { refreshDerivedData } from '../derived-data.ts';

/**
 * Imports a ChEMBL release from the super-admin page, in the server process (docs/administration.md
 * "Loading a new release"): the only way for an embedded-PGlite server, whose database a second
 * process cannot open. The file is chosen by name among the .db files of the import folder
 * (KB_IMPORT_DIR) — never a path from the client — and one import runs at a time per server.
 */

const IDLE: ReleaseImportJob = {
  state: 'idle',
  file: null,
  startedBy: null,
  startedAt: null,
  finishedAt: null,
  step: null,
  rowsRead: 0,
  rowsTotal: 0,
  percent: 0,
  loadId: null,
  error: null,
};

/** The .db files of the folder (none when it does not exist yet), newest first. */
export async function listReleaseFiles(folder: string): Promise<ReleaseFiles> {
  let names: string[];
  try {
    names = await fs.readdir(folder);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { folder, files: [] };
    throw error;
  }
  const files = [];
  for (const name of names) {
    if (!ReleaseFileNameSchema.safeParse(name).success) continue;
    const stat = await fs.stat(path.join(folder, name));
    if (stat.isFile()) files.push({ name, sizeBytes: stat.size, modifiedAt: stat.mtime.toISOString() });
  }
  files.sort((a, b) => b.modifiedAt.localeCompare(a.modifiedAt) || a.name.localeCompare(b.name));
  return { folder, files };
}

export interface ReleaseImportOptions {
  /** Structure index of this server: refreshed after the import when it is loaded. */
  refreshStructureIndex?: () => Promise<void>;
  log?: (message: string) => void;
}

export class ReleaseImportRunner {
  private job: ReleaseImportJob = IDLE;
  private running: Promise<void> | null = null;
  /** Claimed synchronously by start(): a second request meanwhile gets the 409. */
  private starting = false;

  constructor(
    private readonly database: DatabaseHandle,
    private readonly folder: string,
    private readonly options: ReleaseImportOptions = {},
  ) {}

  status(): ReleaseImportJob {
    return { ...this.job };
  }

  /** Waits for a running import (tests, shutdown). */
  async settled(): Promise<void> {
    await this.running;
  }

  /**
   * Checks the request (listed file, a ChEMBL release, no demo data unless allowed), writes the
   * audit row through `beforeStart`, then starts the import in the background.
   */
  async start(startedBy: string, request: ReleaseImportRequest, beforeStart: (file: string) => Promise<void>): Promise<ReleaseImportJob> {
    if (this.running || this.starting) {
      throw new HttpError(409, {
        message: `An import of ${this.job.file ?? 'a release'} is running (${this.job.step ?? 'starting'}). Wait for it to finish.`,
        code: ERROR_CODES.conflict,
      });
    }
    this.starting = true;
    try {
      const listed = await listReleaseFiles(this.folder);
      if (!listed.files.some((f) => f.name === request.file))
        throw badRequest(`${request.file} is not one of the release files in the import folder.`);
      const file = path.join(this.folder, request.file);
      try {
        openChemblFile(file).close();
      } catch (error) {
        throw badRequest(`${request.file}: ${error instanceof Error ? error.message : String(error)}`);
      }
      const demo = await findDemoData(this.database.db);
      if (demo && !request.allowMixed) {
        throw new HttpError(409, {
          message: mixedDataMessage(demo).replace('pass --allow-mixed', 'tick "allow mixing with demo data"'),
          code: ERROR_CODES.conflict,
        });
      }
      await beforeStart(request.file);
      this.job = {
        ...IDLE,
        state: 'running',
        file: request.file,
        startedBy,
        startedAt: new Date().toISOString(),
        step: 'Opening the file',
      };
      this.running = withDbPriority('bulk', () => this.run(file))
        .catch((error: unknown) => {
          const message = error instanceof Error ? error.message : String(error);
          this.options.log?.(`release import failed: ${message}`);
          this.job = { ...this.job, state: 'failed', finishedAt: new Date().toISOString(), error: message };
        })
        .finally(() => {
          this.running = null;
        });
      return this.status();
    } finally {
      this.starting = false;
    }
  }

  private async run(file: string): Promise<void> {
    const summary = await importChembl(this.database, file, {
      onProgress: (p) => {
        // 95 % for the import, the rest for the derived data.
        const percent = p.rowsTotal > 0 ? Math.min(95, (95 * p.rowsRead) / p.rowsTotal) : 0;
        this.job = { ...this.job, step: `${p.step} (${p.stepNumber}/${p.steps})`, rowsRead: p.rowsRead, rowsTotal: p.rowsTotal, percent };
      },
    });
    this.job = { ...this.job, loadId: summary.load.loadId, step: 'Derived data (autocomplete terms, tree counts)', percent: 95 };
    await refreshDerivedData(this.database.db);
    await this.options.refreshStructureIndex?.();
    const incomplete = summary.complete
      ? null
      : 'Parts of the file could not be read: what could be read was loaded and nothing was retired (see the load report).';
    this.job = { ...this.job, state: 'done', step: null, percent: 100, finishedAt: new Date().toISOString(), error: incomplete };
  }
}
