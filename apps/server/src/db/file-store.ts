import { Readable } from 'node:stream';
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';

/**
 * Files kept in the database in 1 MiB chunks (migration 0009): export files and flat-file
 * datasets. Any API process serves any file, and a file is only served once `complete`.
 */

const CHUNK_BYTES = 1024 * 1024;

export interface NewFile {
  purpose: 'export' | 'dataset';
  ownerId: number | null;
  fileName: string;
  contentType: string;
  expiresAt: Date | null;
}

export interface StoredFile {
  id: number;
  purpose: 'export' | 'dataset';
  ownerId: number | null;
  fileName: string;
  contentType: string;
  byteSize: number;
  complete: boolean;
  expiresAt: Date | null;
}

/** Writes one file: bytes are buffered and stored a chunk at a time. */
export class FileWriter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private seq = 0;
  private written = 0;

  constructor(
    private readonly db: Kysely<Database>,
    readonly fileId: number,
  ) {}

  get bytes(): number {
    return this.written + this.pendingBytes;
  }

  async write(data: Buffer | string): Promise<void> {
    const buffer = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    if (!buffer.length) return;
    this.pending.push(buffer);
    this.pendingBytes += buffer.length;
    while (this.pendingBytes >= CHUNK_BYTES) await this.flushChunk(CHUNK_BYTES);
  }

  private async flushChunk(size: number): Promise<void> {
    const all = Buffer.concat(this.pending);
    const chunk = all.subarray(0, size);
    const rest = all.subarray(size);
    this.pending = rest.length ? [rest] : [];
    this.pendingBytes = rest.length;
    await this.db
      .insertInto('stored_file_chunks')
      .values({ file_id: this.fileId, seq: this.seq++, data: chunk })
      .execute();
    this.written += chunk.length;
  }

  /** Stores what is left and marks the file complete; answers its size in bytes. */
  async finish(): Promise<number> {
    if (this.pendingBytes) await this.flushChunk(this.pendingBytes);
    await this.db.updateTable('stored_files').set({ byte_size: this.written, complete: true }).where('id', '=', this.fileId).execute();
    return this.written;
  }
}

export class FileStore {
  constructor(private readonly db: Kysely<Database>) {}

  async create(file: NewFile): Promise<FileWriter> {
    const row = await this.db
      .insertInto('stored_files')
      .values({
        purpose: file.purpose,
        owner_id: file.ownerId,
        file_name: file.fileName,
        content_type: file.contentType,
        expires_at: file.expiresAt,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return new FileWriter(this.db, Number(row.id));
  }

  async get(fileId: number): Promise<StoredFile | null> {
    const row = await this.db.selectFrom('stored_files').selectAll().where('id', '=', fileId).executeTakeFirst();
    if (!row) return null;
    return {
      id: Number(row.id),
      purpose: row.purpose,
      ownerId: row.owner_id,
      fileName: row.file_name,
      contentType: row.content_type,
      byteSize: Number(row.byte_size),
      complete: row.complete,
      expiresAt: row.expires_at,
    };
  }

  /** The file's bytes as a stream, one chunk (one query) at a time: a large file never sits in memory. */
  stream(fileId: number): Readable {
    const db = this.db;
    let seq = 0;
    return new Readable({
      async read() {
        try {
          const row = await db
            .selectFrom('stored_file_chunks')
            .select('data')
            .where('file_id', '=', fileId)
            .where('seq', '=', seq)
            .executeTakeFirst();
          seq += 1;
          this.push(row ? Buffer.from(row.data) : null);
        } catch (error) {
          this.destroy(error as Error);
        }
      },
    });
  }

  async delete(fileId: number): Promise<boolean> {
    const result = await this.db.deleteFrom('stored_files').where('id', '=', fileId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /**
   * Removes files past their expiry date (export files after EXPORT_FILE_DAYS), and files left
   * half-written for a day (an upload or export whose process died); answers how many.
   */
  async sweepExpired(now: Date = new Date()): Promise<number> {
    const stale = new Date(now.getTime() - 86_400_000);
    const { rows } = await sql<{ n: number }>`WITH gone AS (DELETE FROM stored_files
        WHERE (expires_at IS NOT NULL AND expires_at < ${now}) OR (NOT complete AND created_at < ${stale}) RETURNING 1)
      SELECT count(*)::int AS n FROM gone`.execute(this.db);
    return rows[0]?.n ?? 0;
  }
}
