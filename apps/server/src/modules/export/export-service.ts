import { sql } from 'kysely';
import type { Kysely, Selectable, Updateable } from 'kysely';
import type {
  ExportDataCount,
  ExportFormat,
  ExportJob,
  ExportRequest,
  ExportScope,
  ExportSource,
  DownloadHistoryRow,
} from '@kb/contracts/exports';
import { EXPORT_FILE_DAYS, MAX_EXPORT_ROWS, exportCredits } from '@kb/contracts/exports';
import type { ResultTabKey } from '@kb/contracts/result-tabs';
import { tabInfo } from '@kb/contracts/result-tabs';
import type { ResultRow } from '@kb/contracts/results';
import { ERROR_CODES } from '@kb/contracts/errors';
import type { Database } from '../../db/schema.ts';
import type { AuthContext } from '../../http/auth-hook.ts';
import { HttpError, badRequest, forbidden, notFound } from '../../http/errors.ts';
import type { ResultsService, SessionSets } from '../results/results-service.ts';
import type { ResultSession } from '../results/result-sessions.ts';
import { TAB_MODELS } from '../results/tab-model.ts';
import { TAB_COLUMNS } from '../results/tab-columns.ts';
import { chosenColumns, exportFileName } from './export-columns.ts';
import type { ExportColumn } from './export-formats.ts';
import { CONTENT_TYPES, SMILES_FIELD, TITLE_FIELD, createFormatWriter } from './export-formats.ts';
import type { FileStore } from '../../db/file-store.ts';
import { CreditBalanceTooLow, changeCredits } from '../credits/credit-ledger.ts';

/**
 * Exports (docs/exports.md): price, charge, write, refund. An export's rows are fixed when it starts
 * (export_job_rows), charged in the same transaction, and written in batches of ids in id order —
 * short transactions, so a long export never holds the embedded database's single connection.
 */

export interface ExportSettings {
  backgroundFromRows: number;
  batchRows: number;
  /** The threshold as it applies now, when a super admin may change it at run time (settings module); else `backgroundFromRows`. */
  currentBackgroundFromRows?: () => Promise<number>;
}

type ScopeSql = Awaited<ReturnType<ResultsService['selectionScope']>>;

/**
 * Rows computed by another module, exported through the same jobs, credits and history: each row
 * holds its columns' values by key, and `TITLE_FIELD` / `SMILES_FIELD` (the SDF record's name and structure).
 */
export interface PreparedExport {
  source: Exclude<ExportSource, 'results'>;
  /** The tab whose entities the rows are (a SAR table lists structures). */
  tab: ResultTabKey;
  format: ExportFormat;
  /** Names the file, the sheet and the download-history row ("SAR table"). */
  label: string;
  /** What the download history says instead of the label, when the label alone is too vague ("Measurements of Gefitinib on EGFR"). */
  description?: string;
  columns: ExportColumn[];
  rows: ResultRow[];
}

/** What a prepared job keeps in export_jobs.payload. */
interface PreparedPayload {
  columns: ExportColumn[];
  rows: ResultRow[];
  sheetName: string;
}

/** An export job with the size of its file once complete (null before). */
type JobRow = Selectable<Database['export_jobs']> & { file_size: number | null };

function toJob(row: JobRow, creditBalance: number): ExportJob {
  const rows = row.row_count;
  const written = row.rows_written;
  const status = row.status;
  return {
    id: row.id,
    source: row.source,
    tab: row.tab,
    format: row.format,
    columns: row.columns,
    rows,
    credits: row.credits,
    status,
    rowsWritten: written,
    progress: status === 'done' ? 100 : rows ? Math.min(99, Math.floor((written / rows) * 100)) : 0,
    fileName: row.file_name,
    fileId: status === 'done' && row.file_id != null ? row.file_id : null,
    fileSize: row.file_size,
    createdAt: row.created_at.toISOString(),
    finishedAt: row.finished_at?.toISOString() ?? null,
    error: row.error,
    refunded: row.refunded,
    creditBalance,
  };
}

export class ExportService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly results: ResultsService,
    private readonly files: FileStore,
    private readonly molblocks: (smiles: readonly string[]) => Promise<(string | null)[]>,
    private readonly settings: ExportSettings,
    /** Where unexpected failures of a job are reported (the server log). */
    private readonly logError: (error: unknown, jobId: number) => void = () => undefined,
  ) {}

  /** From how many rows an export runs in the background, now. */
  private async backgroundFromRows(): Promise<number> {
    return this.settings.currentBackgroundFromRows ? this.settings.currentBackgroundFromRows() : this.settings.backgroundFromRows;
  }

  /** The user's credits; inside a transaction pass it (PGlite has one connection: another query would wait on it for ever). */
  async balance(userId: number, db: Kysely<Database> = this.db): Promise<number> {
    const row = await db.selectFrom('users').select('credit_balance').where('id', '=', userId).executeTakeFirst();
    return row?.credit_balance ?? 0;
  }

  /** The rows an export scope stands for, as SQL pieces of the results service. */
  private async scopeSql({ session, sets }: SessionSets, scope: ExportScope) {
    if (scope.selection && !scope.selection.selectAll && scope.selection.selectedIds.length === 0) {
      throw badRequest('Select at least one row to export, or export the whole tab.', { field: 'selection' });
    }
    return this.results.selectionScope(scope.tab, session, scope.selection, scope, sets);
  }

  private async countRows({ from, join, where }: ScopeSql): Promise<number> {
    return this.results.withWorkMem(async (trx) => {
      const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${from} ${join} WHERE ${where}`.execute(trx);
      return rows[0]?.n ?? 0;
    });
  }

  /** Why an export of `rows` cannot run for this balance, or null. */
  private refusal(rows: number, balance: number): { status: number; message: string } | null {
    if (rows === 0) return { status: 400, message: 'Nothing to export: none of the chosen rows are in these results.' };
    if (rows > MAX_EXPORT_ROWS) {
      return {
        status: 400,
        message: `One export holds at most ${MAX_EXPORT_ROWS.toLocaleString('en-US')} rows; this one has ${rows.toLocaleString('en-US')}. Filter the tab or select fewer rows.`,
      };
    }
    const credits = exportCredits(rows);
    if (credits > balance) {
      return {
        status: 402,
        message: `This export needs ${credits.toLocaleString('en-US')} download credits and you have ${balance.toLocaleString('en-US')}. Select fewer rows, or ask your administrator for more credits.`,
      };
    }
    return null;
  }

  /**
   * The session and its export scope: ticked rows from the sets held in memory when they can be
   * (no set table read or written), else over the session's sets — held in memory as relations, or
   * the set tables (results-service.ts `sessionAndSets`).
   */
  private async sessionScope(auth: AuthContext, scope: ExportScope): Promise<{ session: ResultSession; scope: ScopeSql }> {
    const first = await this.results.session(auth, scope.sessionid, 'definition');
    const held = await this.results.heldSelectionScope(scope.tab, first, scope.selection ?? null, scope);
    if (held) return { session: first, scope: held };
    const read = await this.results.sessionAndSets(auth, scope.sessionid);
    return { session: read.session, scope: await this.scopeSql(read, scope) };
  }

  /** Spec `exportdatacount`: what an export would hold and cost. */
  async count(auth: AuthContext, scope: ExportScope): Promise<ExportDataCount> {
    const rows = await this.countRows((await this.sessionScope(auth, scope)).scope);
    const balance = await this.balance(auth.userId);
    const refusal = this.refusal(rows, balance);
    const backgroundFromRows = await this.backgroundFromRows();
    return {
      tab: scope.tab,
      rows,
      credits: exportCredits(rows),
      creditBalance: balance,
      allowed: refusal === null,
      background: rows >= backgroundFromRows,
      backgroundFromRows,
      message: refusal?.message ?? null,
    };
  }

  /**
   * Starts an export: refused before any work when the price is over the balance; otherwise the
   * rows are fixed and the credits charged in one transaction whose ledger movement (the user row
   * locked, balance ≥ price) is what keeps concurrent exports from spending the same credits twice.
   */
  async create(auth: AuthContext, request: ExportRequest): Promise<{ jobId: number; background: boolean }> {
    if (request.format === 'sdf' && !TAB_MODELS[request.tab].strId) {
      throw badRequest(
        `An SDF holds structures; the ${tabInfo(request.tab)!.label} tab's rows have none. Export it as CSV or XLSX, or export the Structures or Activities tab as SDF.`,
        { field: 'format' },
      );
    }
    const columns = chosenColumns(request.tab, request.columns);
    const { session, scope } = await this.sessionScope(auth, request);
    const counted = await this.countRows(scope);
    const early = this.refusal(counted, await this.balance(auth.userId));
    if (early) throw refusalError(early);

    const { from, join, where } = scope;
    const entity = TAB_MODELS[request.tab].entity;
    const jobId = await this.db.transaction().execute(async (trx) => {
      const now = new Date();
      const job = await trx
        .insertInto('export_jobs')
        .values({
          user_id: auth.userId,
          search_session_id: session.id,
          set_id: session.set_id,
          tab: request.tab,
          format: request.format,
          columns: JSON.stringify(columns.map((c) => c.key)),
          row_count: counted,
          credits: exportCredits(counted),
          status: 'queued',
          file_name: 'export',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const id = Number(job.id);
      const { rows } = await sql<{ n: number }>`WITH ins AS (INSERT INTO export_job_rows (job_id, id)
          SELECT DISTINCT ${id}::bigint, ${entity} FROM ${from} ${join} WHERE ${where} RETURNING 1)
        SELECT count(*)::int AS n FROM ins`.execute(trx);
      const fixed = rows[0]?.n ?? 0;
      const credits = exportCredits(fixed);
      // The rows may have changed since they were counted (a filter applied meanwhile).
      const changed = this.refusal(fixed, Number.MAX_SAFE_INTEGER);
      if (changed) throw refusalError(changed);
      if (request.expectedCredits !== undefined && request.expectedCredits !== credits) {
        throw new HttpError(409, {
          message: `These rows changed since their price was shown: the export now holds ${fixed.toLocaleString('en-US')} records (${credits.toLocaleString('en-US')} credits). Check the new price and export again.`,
          code: ERROR_CODES.conflict,
          details: { rows: fixed, credits },
        });
      }
      // The price of the rows as fixed now (a filter may have changed since the count).
      const fileName = exportFileName(tabInfo(request.tab)!.label, request.format, id, now);
      await this.charge(trx, auth, {
        id,
        rows: fixed,
        fileName,
        description: `${tabInfo(request.tab)!.label} · ${request.format.toUpperCase()}`,
      });
      return id;
    });
    const job = await this.db.selectFrom('export_jobs').select('row_count').where('id', '=', jobId).executeTakeFirstOrThrow();
    return { jobId, background: job.row_count >= (await this.backgroundFromRows()) };
  }

  /**
   * Charges a job's credits through the credit ledger (the user row is locked and the balance
   * checked there, so concurrent exports cannot spend the same credits twice), names its file and writes its download-history row — inside the
   * transaction that created the job.
   */
  private async charge(
    trx: Kysely<Database>,
    auth: AuthContext,
    job: { id: number; rows: number; fileName: string; description: string },
  ): Promise<void> {
    const credits = exportCredits(job.rows);
    try {
      await changeCredits(trx, { userId: auth.userId, delta: -credits, kind: 'export', reason: job.description, exportJobId: job.id });
    } catch (error) {
      if (!(error instanceof CreditBalanceTooLow)) throw error;
      const refusal = this.refusal(job.rows, error.balance) ?? {
        status: 402,
        message: 'Your download credits changed meanwhile; try again.',
      };
      throw refusalError(refusal);
    }
    await trx.updateTable('export_jobs').set({ row_count: job.rows, credits, file_name: job.fileName }).where('id', '=', job.id).execute();
    await trx
      .insertInto('download_logs')
      .values({ user_id: auth.userId, kind: 'export', export_id: job.id, description: job.description, file_name: job.fileName, credits })
      .execute();
  }

  /**
   * Starts the export of rows another module computed (a SAR table, docs/exports.md "SAR tables"):
   * priced, charged and logged like a tab's export, its rows kept with the job (`payload`) so the
   * same runner writes the file on any process. Answers the job id and whether it runs in the background.
   */
  async createPrepared(
    auth: AuthContext,
    session: ResultSession | null,
    prepared: PreparedExport,
  ): Promise<{ jobId: number; background: boolean }> {
    const rows = prepared.rows.length;
    const early = this.refusal(rows, await this.balance(auth.userId));
    if (early) throw refusalError(early);
    const payload: PreparedPayload = { columns: prepared.columns, rows: prepared.rows, sheetName: prepared.label };
    const jobId = await this.db.transaction().execute(async (trx) => {
      const job = await trx
        .insertInto('export_jobs')
        .values({
          user_id: auth.userId,
          // A dynamic query's or measurement list's rows come from no search session (migrations 0027, 0031).
          search_session_id: session?.id ?? null,
          set_id: session?.set_id ?? null,
          source: prepared.source,
          payload: JSON.stringify(payload),
          tab: prepared.tab,
          format: prepared.format,
          columns: JSON.stringify(prepared.columns.map((c) => c.key)),
          row_count: rows,
          credits: exportCredits(rows),
          status: 'queued',
          file_name: 'export',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const id = Number(job.id);
      const fileName = exportFileName(prepared.label, prepared.format, id, new Date());
      await this.charge(trx, auth, {
        id,
        rows,
        fileName,
        description: `${prepared.description ?? prepared.label} · ${prepared.format.toUpperCase()}`,
      });
      return id;
    });
    return { jobId, background: rows >= (await this.backgroundFromRows()) };
  }

  /** One of the caller's exports (403 for another user's, 404 for none). */
  async job(auth: AuthContext, jobId: number): Promise<ExportJob> {
    const row = await this.jobRow(jobId);
    if (!row) throw notFound(`There is no export ${jobId}.`);
    if (row.user_id !== auth.userId) throw forbidden('This export belongs to another user.');
    return toJob(row, await this.balance(auth.userId));
  }

  /** Jobs with their file's size (the file counts once complete). */
  private jobRows() {
    return this.db
      .selectFrom('export_jobs as j')
      .leftJoin('stored_files as f', (join) => join.onRef('f.id', '=', 'j.file_id').on('f.complete', '=', true))
      .selectAll('j')
      .select('f.byte_size as file_size');
  }

  private async jobRow(jobId: number): Promise<JobRow | undefined> {
    return this.jobRows().where('j.id', '=', jobId).executeTakeFirst();
  }

  async jobs(auth: AuthContext): Promise<{ jobs: ExportJob[]; creditBalance: number }> {
    const balance = await this.balance(auth.userId);
    const rows = await this.jobRows().where('j.user_id', '=', auth.userId).orderBy('j.id', 'desc').limit(500).execute();
    return { jobs: rows.map((row) => toJob(row, balance)), creditBalance: balance };
  }

  /** Spec `exportlogs/export`: the caller's download history. */
  async history(auth: AuthContext): Promise<{ rows: DownloadHistoryRow[]; creditBalance: number }> {
    const { rows } = await sql<Record<string, unknown>>`SELECT l.*, j.status AS job_status, j.row_count, j.refunded,
        CASE WHEN l.kind = 'export' AND j.status = 'done' AND f.complete THEN f.id
             WHEN l.kind = 'dataset' THEN ds.file_id END AS live_file_id,
        coalesce(l.file_size, f.byte_size) AS size
      FROM download_logs l
      LEFT JOIN export_jobs j ON j.id = l.export_id
      LEFT JOIN stored_files f ON f.id = j.file_id
      LEFT JOIN datasets ds ON ds.id = l.dataset_id
      WHERE l.user_id = ${auth.userId} ORDER BY l.id DESC LIMIT 1000`.execute(this.db);
    return {
      creditBalance: await this.balance(auth.userId),
      rows: rows.map((row) => ({
        id: Number(row.id),
        kind: row.kind as DownloadHistoryRow['kind'],
        description: String(row.description),
        fileName: String(row.file_name),
        fileSize: row.size == null ? null : Number(row.size),
        rows: row.row_count == null ? null : Number(row.row_count),
        credits: row.refunded ? 0 : Number(row.credits),
        status: row.kind === 'dataset' ? 'downloaded' : row.refunded ? 'failed (credits returned)' : String(row.job_status ?? 'deleted'),
        downloadedOn: new Date(row.created_at as string).toISOString(),
        fileId: row.live_file_id == null ? null : Number(row.live_file_id),
        exportId: row.export_id == null ? null : Number(row.export_id),
      })),
    };
  }

  /**
   * Writes one claimed job's file. `claim` is the token its claim set: every write of the job is
   * conditional on it, so a process presumed dead that wakes up again
   * can neither finish nor fail a job another process has taken over. A restart begins again from
   * the first row (the file of an earlier attempt is dropped); a job whose search is gone fails and
   * returns its credits.
   */
  async run(jobId: number, claim: string, stillMine: () => boolean = () => true): Promise<void> {
    const job = await this.db.selectFrom('export_jobs').selectAll().where('id', '=', jobId).executeTakeFirst();
    if (!job || job.status !== 'running' || job.claim !== claim) return;
    try {
      await this.write(job, claim, stillMine);
    } catch (error) {
      const message =
        error instanceof ExportAbandoned
          ? null
          : error instanceof HttpError
            ? String(error.body.message)
            : 'The export failed on our side.';
      if (!(error instanceof ExportAbandoned) && !(error instanceof HttpError)) this.logError(error, jobId);
      if (message) await this.fail(jobId, `${message} Its credits were returned.`, claim);
    }
  }

  /** Updates the job if this claim still holds it; answers whether it did. */
  private async updateClaimed(
    jobId: number,
    claim: string,
    values: Updateable<Database['export_jobs']>,
    db: Kysely<Database> = this.db,
  ): Promise<boolean> {
    const result = await db
      .updateTable('export_jobs')
      .set(values)
      .where('id', '=', jobId)
      .where('status', '=', 'running')
      .where('claim', '=', claim)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  private async write(job: Selectable<Database['export_jobs']>, claim: string, stillMine: () => boolean): Promise<void> {
    const tab = job.tab;
    // A crash may have emptied the sets since the rows were fixed: they are rebuilt (same criteria) first.
    // A job without a session (a dynamic query's) holds all its rows in its payload.
    // Its rows are read from the session's sets in memory when they are there, else from the set tables.
    let session: ResultSession | null = null;
    if (job.search_session_id !== null) {
      session = await this.results.keptSessionById(job.search_session_id, 'definition');
      if (session?.status === 'ready' && !(await this.results.holdsTab(session, tab)))
        session = await this.results.keptSessionById(job.search_session_id);
      if (!session || session.status !== 'ready' || Number(session.set_id) !== Number(job.set_id)) {
        throw new HttpError(410, { message: 'The search this export came from has expired or was run again.', code: ERROR_CODES.conflict });
      }
    }
    if (job.file_id != null) await this.files.delete(Number(job.file_id));
    const prepared = job.source === 'results' ? null : (job.payload as PreparedPayload);
    const columns = prepared ? prepared.columns : chosenColumns(tab, job.columns);
    const format = job.format;
    const file = await this.files.create({
      purpose: 'export',
      ownerId: job.user_id,
      fileName: job.file_name,
      contentType: CONTENT_TYPES[format],
      expiresAt: new Date(Date.now() + EXPORT_FILE_DAYS * 86_400_000),
    });
    if (!(await this.updateClaimed(job.id, claim, { file_id: file.fileId, rows_written: 0 }))) {
      await this.files.delete(file.fileId);
      throw new ExportAbandoned();
    }
    const writer = createFormatWriter({
      format,
      columns,
      sink: file,
      sheetName: prepared?.sheetName ?? tabInfo(tab)!.label,
      molblocks: this.molblocks,
    });
    const load = prepared
      ? async (after: number) => preparedBatch(prepared.rows, after, this.settings.batchRows)
      : async (after: number) => {
          const ids = await this.nextIds(job.id, after);
          return ids.length ? { ids, rows: await this.readRows(tab, Number(job.set_id), ids, columns, format === 'sdf', session) } : null;
        };
    // The next batch is read while this one is written (for an SDF, while RDKit lays it out).
    let pending = load(0);
    // Observed at once: a read-ahead failing while a batch is written must not be unhandled.
    pending.catch(() => undefined);
    let written = 0;
    try {
      for (let batch = await pending; batch; batch = await pending) {
        pending = load(batch.ids[batch.ids.length - 1]!);
        pending.catch(() => undefined);
        if (batch.rows.length !== batch.ids.length) {
          throw new HttpError(410, {
            message: 'Some rows of this export are no longer in its search (the search expired or was dropped).',
            code: ERROR_CODES.conflict,
          });
        }
        await writer.rows(batch.rows);
        written += batch.ids.length;
        // Taken over by another process (this one was presumed dead), or failed meanwhile: stop.
        const beat = await this.updateClaimed(job.id, claim, { rows_written: written, heartbeat_at: new Date() });
        if (!beat || !stillMine()) throw new ExportAbandoned();
        // Embedded PGlite answers without real I/O: without this turn of the event loop, one
        // export would keep every other request of the process waiting until it ended.
        await new Promise((resolve) => setImmediate(resolve));
      }
    } finally {
      pending.catch(() => undefined);
    }
    await writer.end();
    const size = await file.finish();
    const finished = await this.db.transaction().execute(async (trx) => {
      if (
        !(await this.updateClaimed(
          job.id,
          claim,
          { status: 'done', rows_written: written, finished_at: new Date(), heartbeat_at: new Date() },
          trx,
        ))
      )
        return false;
      await trx.updateTable('download_logs').set({ file_size: size }).where('export_id', '=', job.id).execute();
      return true;
    });
    if (!finished) throw new ExportAbandoned();
  }

  private async nextIds(jobId: number, after: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('export_job_rows')
      .select('id')
      .where('job_id', '=', jobId)
      .where('id', '>', after)
      .orderBy('id')
      .limit(this.settings.batchRows)
      .execute();
    return rows.map((row) => Number(row.id));
  }

  /** The chosen columns of some rows of a tab, in id order (and their structure's SMILES for an SDF). */
  private async readRows(
    tab: ResultTabKey,
    setId: number,
    ids: readonly number[],
    columns: readonly ExportColumn[],
    withSmiles: boolean,
    session: ResultSession | null,
  ) {
    const model = TAB_MODELS[tab];
    const held = session ? await this.results.heldRowsRelation(tab, session, ids) : null;
    const defs = new Map(TAB_COLUMNS[tab].map((column) => [column.key, column]));
    const values = columns.map((column) => sql`${defs.get(column.key)!.value(setId)} AS ${sql.ref(column.key)}`);
    const extra = [sql`${model.entity} AS ${sql.ref(TITLE_FIELD)}`];
    if (withSmiles && model.strId)
      extra.push(sql`(SELECT st.canonical_smiles FROM structures st WHERE st.str_id = ${model.strId}) AS ${sql.ref(SMILES_FIELD)}`);
    return this.results.withWorkMem(async (trx) => {
      const { rows } = await sql<ResultRow>`SELECT ${sql.join([...values, ...extra])}
        FROM ${held?.from ?? model.from(setId)} WHERE ${model.where(setId)} AND ${model.entity} = ANY(${[...ids]}::bigint[])
        ORDER BY ${model.entity}`.execute(trx);
      const counts = held?.structureActivities;
      if (!counts || !columns.some((column) => column.key === 'activities')) return rows;
      return rows.map((row) => ({ ...row, activities: counts.get(Number(row[TITLE_FIELD])) ?? 0 }));
    });
  }

  /** Removes export files past their EXPORT_FILE_DAYS (their history rows stay, without a file). */
  async sweepExpiredFiles(now: Date = new Date()): Promise<number> {
    return this.files.sweepExpired(now);
  }

  /** Marks a job failed and returns its credits, once (the `refunded` guard); with `claim`, only if that claim still holds it. */
  async fail(jobId: number, message: string, claim?: string): Promise<void> {
    const fileId = await this.db.transaction().execute(async (trx) => {
      let update = trx
        .updateTable('export_jobs')
        .set({ status: 'failed', error: message, refunded: true, finished_at: new Date() })
        .where('id', '=', jobId)
        .where('status', 'in', ['queued', 'running'])
        .where('refunded', '=', false);
      if (claim !== undefined) update = update.where('claim', '=', claim);
      const failed = await update.returning(['user_id', 'credits', 'file_id']).executeTakeFirst();
      if (!failed) return null;
      if (failed.credits > 0) {
        await changeCredits(trx, {
          userId: failed.user_id,
          delta: failed.credits,
          kind: 'refund',
          reason: 'Export failed: credits returned',
          exportJobId: jobId,
        });
      }
      return failed.file_id;
    });
    if (fileId != null) await this.files.delete(Number(fileId));
  }
}

/** The next batch of a prepared job's rows; `ids` are positions (1-based) so the loop's "after the last id" works alike. */
function preparedBatch(rows: readonly ResultRow[], after: number, size: number): { ids: number[]; rows: ResultRow[] } | null {
  const batch = rows.slice(after, after + size);
  return batch.length ? { ids: batch.map((_, index) => after + index + 1), rows: batch } : null;
}

/** The job is no longer this process's to write (taken over or failed meanwhile). */
class ExportAbandoned extends Error {}

function refusalError(refusal: { status: number; message: string }): HttpError {
  return new HttpError(refusal.status, {
    message: refusal.message,
    code: refusal.status === 402 ? ERROR_CODES.insufficientCredits : ERROR_CODES.validation,
  });
}
