import type { Readable } from 'node:stream';
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { DataRequest, DataRequestStatus, Dataset, DatasetList, DatasetType } from '@kb/contracts/datasets';
import { DATASET_ROLES, FLAT_FILE_MAX_BYTES, OPEN_REQUEST_STATUSES } from '@kb/contracts/datasets';
import type { Role } from '@kb/contracts/roles';
import { ERROR_CODES } from '@kb/contracts/errors';
import type { Database } from '../../db/schema.ts';
import type { AuthContext } from '../../http/auth-hook.ts';
import { HttpError, badRequest, forbidden, notFound } from '../../http/errors.ts';
import type { FileStore } from '../../db/file-store.ts';
import { HEAD_BYTES, flatFileExtension, flatFileProblem } from './flat-file-check.ts';

/**
 * Flat-file datasets and requests for data (docs/exports.md). Spec §6: a subscription marks
 * flat-file access for one of the first five roles, or the user holds FLAT_FILE_ONLY; a dataset is
 * meant for some of those roles, and a user sees the datasets of the roles that give them access.
 */

const CONTENT_TYPE_OF: Record<string, string> = {
  csv: 'text/csv',
  tsv: 'text/tab-separated-values',
  txt: 'text/plain',
  sdf: 'chemical/x-mdl-sdfile',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  zip: 'application/zip',
  gz: 'application/gzip',
};

const isAdmin = (auth: AuthContext) => auth.roles.includes('FLAT_FILE_ADMIN');

type DatasetRow = {
  id: number;
  dataset_type: string;
  description: string;
  roles: string[];
  file_id: number;
  uploaded_at: Date;
  file_name: string;
  byte_size: number;
};

function toDataset(row: DatasetRow): Dataset {
  return {
    id: Number(row.id),
    datasetType: row.dataset_type as DatasetType,
    flatfileName: row.file_name,
    flatfileSize: Number(row.byte_size),
    uploadedDate: new Date(row.uploaded_at).toISOString(),
    description: row.description,
    roles: row.roles as Role[],
    fileId: Number(row.file_id),
  };
}

type RequestRow = {
  id: number;
  dataset_type: string;
  description: string;
  email: string;
  requested_on: Date;
  cancelled_by: string | null;
  status: string;
  updated_on: Date;
};

function toRequest(row: RequestRow): DataRequest {
  return {
    id: Number(row.id),
    datasetType: row.dataset_type as DatasetType,
    description: row.description,
    requestedBy: row.email,
    requestedOn: new Date(row.requested_on).toISOString(),
    cancelled_by: row.cancelled_by,
    status: row.status as DataRequestStatus,
    updatedOn: new Date(row.updated_on).toISOString(),
  };
}

export class DatasetService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly files: FileStore,
  ) {}

  /** The roles through which the caller has flat-file access (active subscriptions only). */
  async flatFileRoles(userId: number): Promise<Role[]> {
    const subscriptions = await this.db
      .selectFrom('subscriptions')
      .select(['role_name', 'having_flat_file_access'])
      .where('user_id', '=', userId)
      .where('start_date', '<=', sql<Date>`now()`)
      .where('end_date', '>', sql<Date>`now()`)
      .execute();
    const roles = subscriptions
      .filter((s) => s.role_name === 'FLAT_FILE_ONLY' || (s.having_flat_file_access && DATASET_ROLES.includes(s.role_name as Role)))
      .map((s) => s.role_name as Role);
    return [...new Set(roles)];
  }

  private datasetQuery() {
    return sql<DatasetRow>`SELECT d.id, d.dataset_type, d.description, d.roles, d.file_id, d.uploaded_at, f.file_name, f.byte_size
      FROM datasets d JOIN stored_files f ON f.id = d.file_id AND f.complete`;
  }

  /** Spec `flatfile/userdownload/fetch`: the datasets the caller may download. */
  async list(auth: AuthContext, userName: string | undefined): Promise<DatasetList> {
    if (userName && userName.toLowerCase() !== auth.email.toLowerCase() && !isAdmin(auth))
      throw forbidden('You can only list your own datasets.');
    if (isAdmin(auth)) {
      const { rows } = await sql<DatasetRow>`${this.datasetQuery()} ORDER BY d.uploaded_at DESC, d.id DESC`.execute(this.db);
      return { havingFlatFileAccess: true, rows: rows.map(toDataset) };
    }
    const roles = await this.flatFileRoles(auth.userId);
    if (!roles.length) return { havingFlatFileAccess: false, rows: [] };
    const { rows } =
      await sql<DatasetRow>`${this.datasetQuery()} WHERE d.roles && ${roles}::text[] ORDER BY d.uploaded_at DESC, d.id DESC`.execute(
        this.db,
      );
    return { havingFlatFileAccess: true, rows: rows.map(toDataset) };
  }

  /** The dataset stored in a file, when the caller may download it; 403 otherwise. */
  async datasetForDownload(auth: AuthContext, fileId: number): Promise<Dataset> {
    const { rows } = await sql<DatasetRow>`${this.datasetQuery()} WHERE d.file_id = ${fileId}::bigint`.execute(this.db);
    const row = rows[0];
    if (!row) throw notFound(`There is no file ${fileId}.`);
    if (isAdmin(auth)) return toDataset(row);
    const roles = await this.flatFileRoles(auth.userId);
    if (!roles.length) throw forbidden('Your subscription does not include flat-file downloads.');
    if (!row.roles.some((role) => roles.includes(role as Role))) throw forbidden('This dataset is not part of your subscription.');
    return toDataset(row);
  }

  /** Records a dataset download in the caller's download history (flat files use no credits). */
  async logDownload(auth: AuthContext, dataset: Dataset): Promise<void> {
    await this.db
      .insertInto('download_logs')
      .values({
        user_id: auth.userId,
        kind: 'dataset',
        dataset_id: dataset.id,
        description: `Dataset · ${dataset.datasetType}`,
        file_name: dataset.flatfileName,
        file_size: dataset.flatfileSize,
        credits: 0,
      })
      .execute();
  }

  /**
   * Stores an uploaded file as it streams in: the head is checked against the extension, the size
   * against FLAT_FILE_MAX_BYTES; a refused file leaves nothing behind.
   */
  async upload(
    auth: AuthContext,
    meta: { datasetType: DatasetType; fileName: string; roles: Role[]; description: string },
    body: Readable,
    maxBytes = FLAT_FILE_MAX_BYTES,
  ): Promise<Dataset> {
    const ext = flatFileExtension(meta.fileName);
    if (!ext)
      throw badRequest(
        `Datasets can be ${['csv', 'tsv', 'txt', 'sdf', 'xlsx', 'zip', 'gz'].map((e) => `.${e}`).join(', ')} files; "${meta.fileName}" is not.`,
        { field: 'fileName' },
      );
    const file = await this.files.create({
      purpose: 'dataset',
      ownerId: null,
      fileName: meta.fileName,
      contentType: CONTENT_TYPE_OF[ext] ?? 'application/octet-stream',
      expiresAt: null,
    });
    try {
      let head = Buffer.alloc(0);
      let checked = false;
      for await (const piece of body) {
        const chunk = Buffer.isBuffer(piece) ? piece : Buffer.from(piece as Uint8Array);
        if (file.bytes + chunk.length > maxBytes) {
          throw new HttpError(413, {
            message: `A dataset can be at most ${Math.round(maxBytes / 1024 / 1024)} MiB; this file is larger.`,
            code: ERROR_CODES.validation,
          });
        }
        if (!checked) {
          head = Buffer.concat([head, chunk]);
          if (head.length >= HEAD_BYTES) {
            const problem = flatFileProblem(ext, head, false);
            if (problem) throw badRequest(problem, { field: 'file' });
            checked = true;
          }
        }
        await file.write(chunk);
      }
      if (!checked) {
        const problem = flatFileProblem(ext, head, true);
        if (problem) throw badRequest(problem, { field: 'file' });
      }
      await file.finish();
      const row = await this.db
        .insertInto('datasets')
        .values({
          dataset_type: meta.datasetType,
          description: meta.description,
          roles: meta.roles,
          file_id: file.fileId,
          uploaded_by: auth.userId,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const { rows } = await sql<DatasetRow>`${this.datasetQuery()} WHERE d.id = ${row.id}::bigint`.execute(this.db);
      return toDataset(rows[0]!);
    } catch (error) {
      await this.files.delete(file.fileId);
      throw error;
    }
  }

  // ------------------------------------------------------------------ requests for data

  private async request(id: number): Promise<RequestRow & { user_id: number }> {
    const { rows } = await sql<
      RequestRow & { user_id: number }
    >`SELECT r.*, u.email FROM data_requests r JOIN users u ON u.id = r.user_id WHERE r.id = ${id}::bigint`.execute(this.db);
    const row = rows[0];
    if (!row) throw notFound(`There is no request ${id}.`);
    return row;
  }

  async requests(auth: AuthContext, type: 'user' | 'all'): Promise<{ rows: DataRequest[] }> {
    if (type === 'all' && !isAdmin(auth)) throw forbidden('Only flat-file administrators see everyone’s requests.');
    const mine = type === 'user' ? sql`WHERE r.user_id = ${auth.userId}` : sql``;
    const { rows } =
      await sql<RequestRow>`SELECT r.*, u.email FROM data_requests r JOIN users u ON u.id = r.user_id ${mine} ORDER BY r.id DESC LIMIT 1000`.execute(
        this.db,
      );
    return { rows: rows.map(toRequest) };
  }

  async createRequest(auth: AuthContext, body: { datasetType: DatasetType; description: string }): Promise<DataRequest> {
    const row = await this.db
      .insertInto('data_requests')
      .values({ user_id: auth.userId, dataset_type: body.datasetType, description: body.description })
      .returning('id')
      .executeTakeFirstOrThrow();
    return toRequest(await this.request(Number(row.id)));
  }

  /** Cancels an open request: its requester or a flat-file administrator; `cancelled_by` records who. */
  async cancelRequest(auth: AuthContext, id: number): Promise<DataRequest> {
    const row = await this.request(id);
    if (row.user_id !== auth.userId && !isAdmin(auth)) throw forbidden('This request belongs to another user.');
    return this.moveRequest(row, 'cancelled', auth.email);
  }

  async updateRequest(auth: AuthContext, id: number, status: 'in_progress' | 'fulfilled' | 'rejected'): Promise<DataRequest> {
    return this.moveRequest(await this.request(id), status, null);
  }

  private async moveRequest(row: RequestRow, status: DataRequestStatus, cancelledBy: string | null): Promise<DataRequest> {
    const moved = await this.db
      .updateTable('data_requests')
      .set({ status, updated_on: new Date(), ...(cancelledBy ? { cancelled_by: cancelledBy } : {}) })
      .where('id', '=', row.id)
      .where('status', 'in', [...OPEN_REQUEST_STATUSES])
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) === 0) {
      throw new HttpError(409, {
        message: `This request is ${row.status.replace('_', ' ')} already and cannot change any more.`,
        code: ERROR_CODES.conflict,
      });
    }
    return toRequest(await this.request(Number(row.id)));
  }
}
