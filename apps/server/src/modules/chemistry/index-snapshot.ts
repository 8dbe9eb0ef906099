import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { readFully, removeStaleTemporaries, writeFully } from '../../db/local-cache.ts';
import { FP_BITS, FP_BYTES } from './fingerprint.mjs';
import { sliceWords } from './bit-slices.mjs';
import { STORED_LIMITS } from './query-limits.ts';
import { shardArrays } from './index-loader.ts';
import type { LoadedShard } from './index-loader.ts';
import type { ShardRange } from './worker-protocol.ts';

/**
 * The structure index's shards as read from the database, kept in one local file so that a
 * restarted server reads them from disk instead of from PostgreSQL (issue 18, start-up at L: the
 * read of 2.5 M structures — SMILES and two fingerprints each, ≈ 1.9 GB as text — cost ≈ 35 s of
 * CPU between the database and this process, on the two cores that also build the index).
 * PostgreSQL stays the store of record: the file is used only when its key — the caller's version of
 * the knowledge base (no file while a load runs), the structures' count and highest id, the
 * database, the shard size, the fingerprint layout and the stored-structure limits — is what holds
 * now, and it is written again after every read of the whole index from the database.
 *
 * Layout: the shards one after the other (ids f64, bit counts u16, Morgan bit arrays, pattern,
 * has-pattern, SMILES as UTF-8 joined by newlines; each part padded to 8 bytes), then a JSON footer
 * (key, each shard's range, SMILES bytes and CRC-32), its length (u32) and MAGIC. Written to a temporary
 * file, synced, then moved into place: a reader sees a whole file or none.
 */

// 2: Morgan fingerprints as bit arrays (similarity-slices.mjs) instead of rows and their folds.
const FORMAT = 2;
const MAGIC = Buffer.from('KBIX');
const SHORT = 'The structure index snapshot is shorter than its footer says.';
const align = (n: number) => Math.ceil(n / 8) * 8;

interface Footer {
  key: string;
  /** Each shard's range, its SMILES' bytes and the CRC-32 of its bytes as written (padding included). */
  shards: (ShardRange & { smilesBytes: number; crc: number })[];
}

/** What the key is made of, besides the caller's version. */
export async function indexSnapshotKey(db: Kysely<Database>, version: string, shardSize: number): Promise<string> {
  const { rows } = await sql<{ n: string; top: string | null; name: string; port: number | null; migration: string | null }>`SELECT
      (SELECT count(*) FROM structures) AS n, (SELECT max(str_id) FROM structures) AS top,
      current_database() AS name, inet_server_port() AS port, (SELECT max(name) FROM kysely_migration) AS migration`.execute(db);
  const row = rows[0];
  const parts = [
    FORMAT,
    version,
    row?.n ?? '0',
    row?.top ?? '0',
    row?.name ?? '',
    row?.port ?? 0,
    row?.migration ?? '',
    shardSize,
    FP_BYTES,
    STORED_LIMITS,
  ];
  return crypto.createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}

/** The byte lengths of one shard's parts, in file order. */
function partSizes(count: number, smilesBytes: number): number[] {
  return [count * 8, count * 2, FP_BITS * sliceWords(count) * 4, count * FP_BYTES, count, smilesBytes].map(align);
}

/** A snapshot's shards, read one at a time (the caller hands each to a worker before the next is read). */
export interface StoredIndex {
  shards: AsyncGenerator<LoadedShard>;
  /** The last shard's range (null: no shards): the database read goes on after it. */
  last: ShardRange | null;
  structures: number;
}

/** The snapshot when it exists and carries `key`; else null. A damaged file throws (the caller reads the database). */
export async function readIndexSnapshot(file: string, key: string): Promise<StoredIndex | null> {
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(file, 'r');
  } catch {
    return null;
  }
  let footer: Footer;
  try {
    const { size } = await handle.stat();
    if (size < 8) throw new Error('The structure index snapshot is too short.');
    const tail = Buffer.alloc(8);
    await readFully(handle, tail, size - 8, SHORT);
    if (!tail.subarray(4).equals(MAGIC)) throw new Error('The structure index snapshot has no footer (an unfinished or foreign file).');
    // Lengths read from the file are bounded by the file before anything is allocated for them.
    const footerBytes = tail.readUInt32LE(0);
    if (footerBytes > size - 8) throw new Error('The structure index snapshot is damaged (its footer is longer than the file).');
    const json = Buffer.alloc(footerBytes);
    await readFully(handle, json, size - 8 - json.length, SHORT);
    footer = JSON.parse(json.toString()) as Footer;
    const data = footer.shards.reduce((sum, shard) => sum + partSizes(shard.count, shard.smilesBytes).reduce((a, b) => a + b, 0), 0);
    if (!(data === size - 8 - footerBytes)) throw new Error('The structure index snapshot is damaged (its shards do not fill the file).');
  } catch (error) {
    await handle.close();
    throw error;
  }
  if (footer.key !== key) {
    await handle.close();
    return null;
  }
  return {
    shards: shardsOf(handle, footer),
    last: footer.shards.at(-1) ?? null,
    structures: footer.shards.reduce((sum, shard) => sum + shard.count, 0),
  };
}

async function* shardsOf(handle: fs.promises.FileHandle, footer: Footer): AsyncGenerator<LoadedShard> {
  try {
    let position = 0;
    for (const { smilesBytes, crc, ...range } of footer.shards) {
      const { count } = range;
      const sizes = partSizes(count, smilesBytes);
      const bytes = Buffer.alloc(sizes.reduce((sum, n) => sum + n, 0));
      await readFully(handle, bytes, position, SHORT);
      position += bytes.length;
      // A damaged disk block would otherwise become wrong search results.
      if (zlib.crc32(bytes) !== crc)
        throw new Error(`The structure index snapshot is damaged (shard ${range.shardId} fails its checksum).`);
      const { ids, pop, morgan, pattern, hasPattern } = shardArrays(count);
      const text = Buffer.alloc(smilesBytes);
      let at = 0;
      [ids, pop, morgan, pattern, hasPattern, text].forEach((part, i) => {
        new Uint8Array(part.buffer, part.byteOffset, part.byteLength).set(bytes.subarray(at, at + part.byteLength));
        at += sizes[i]!;
      });
      const smiles = count === 0 ? [] : text.toString('utf8').split('\n');
      if (smiles.length !== count) throw new Error('The structure index snapshot is damaged (a shard has the wrong number of SMILES).');
      yield { shardId: range.shardId, count, ids, pop, morgan, smiles, pattern, hasPattern, range };
    }
  } finally {
    await handle.close();
  }
}

/**
 * Writes the shards of a database read as they pass (each copied at once: the pattern buffer moves
 * to a worker right after), then the footer; `finish` moves the file into place.
 */
export class IndexSnapshotWriter {
  private readonly temporary: string;
  private readonly footer: Footer;
  private handle: Promise<fs.promises.FileHandle>;
  private written: Promise<number>;
  private failed: unknown = null;

  constructor(
    private readonly file: string,
    key: string,
  ) {
    this.temporary = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
    this.footer = { key, shards: [] };
    this.handle = fs.promises
      .mkdir(path.dirname(file), { recursive: true })
      .then(() => removeStaleTemporaries(file))
      .then(() => fs.promises.open(this.temporary, 'w'));
    this.written = this.handle.then(() => 0);
    // A folder or file that cannot be made must not be an unhandled rejection (it would end the
    // process) before the first shard arrives: `finish` reports it.
    this.written.catch((error: unknown) => (this.failed ??= error));
  }

  add(shard: LoadedShard): void {
    if (this.failed) return;
    // A SMILES never holds a newline; one that did would shift every later row of the shard.
    if (shard.smiles.some((text) => text.includes('\n'))) {
      this.failed = new Error('A stored SMILES holds a line break: the structure index is not kept in a snapshot.');
      return;
    }
    const text = Buffer.from(shard.smiles.join('\n'));
    const parts = [shard.ids, shard.pop, shard.morgan, shard.pattern, shard.hasPattern, text];
    const sizes = partSizes(shard.count, text.length);
    const bytes = Buffer.alloc(sizes.reduce((sum, n) => sum + n, 0));
    let at = 0;
    parts.forEach((part, i) => {
      bytes.set(new Uint8Array(part.buffer, part.byteOffset, part.byteLength), at);
      at += sizes[i]!;
    });
    this.footer.shards.push({ ...shard.range, smilesBytes: text.length, crc: zlib.crc32(bytes) });
    this.written = this.written.then(async (position) => {
      await writeFully(await this.handle, bytes, position);
      return position + bytes.length;
    });
    this.written.catch((error: unknown) => (this.failed ??= error));
  }

  /** The footer written, the file synced and moved into place. */
  async finish(): Promise<void> {
    const position = await this.written.catch(() => -1);
    try {
      const handle = await this.handle;
      if (this.failed || position < 0) throw this.failed ?? new Error('The structure index snapshot could not be written.');
      const json = Buffer.from(JSON.stringify(this.footer));
      const tail = Buffer.alloc(8);
      tail.writeUInt32LE(json.length, 0);
      MAGIC.copy(tail, 4);
      await writeFully(handle, Buffer.concat([json, tail]), position);
      await handle.sync();
      await handle.close();
      await fs.promises.rename(this.temporary, this.file);
    } catch (error) {
      await this.abort();
      throw error;
    }
  }

  /** The temporary file removed (a load that failed, or a write that did). */
  async abort(): Promise<void> {
    await (await this.handle.catch(() => null))?.close().catch(() => undefined);
    await fs.promises.rm(this.temporary, { force: true });
  }
}
