import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { RoaringBitmap32 } from './roaring.ts';
import { readFully, removeStaleTemporaries, writeFully } from '../../../db/local-cache.ts';

/**
 * The search columns as read from the database, kept in one local file so that a restarted server
 * reads them from disk in seconds instead of from PostgreSQL (34 s at L, on the cores the structure
 * index also needs at start-up). PostgreSQL stays the store of record: a snapshot is used only when
 * its key — the knowledge base's load version, the highest ids and the database — is the one the
 * database answers now, and it is written again after every read from the database. It holds no
 * reverse lists (rebuilt from the arrays, ≈ 1 s at L), only what came from the database. Each
 * array and bitmap carries a CRC-32: a damaged disk block must not become wrong counts.
 */

/** Bumped whenever what the columns hold changes (a new column, another coding) or the layout does. */
const FORMAT = 2;

/** Typed arrays as read (int ids and links, doubles, string codes). */
type StoredArray = Int32Array | Float64Array | Uint16Array;

export interface SnapshotContent {
  arrays: StoredArray[];
  /** Names of string codes, per vocabulary (code = index). */
  vocabularies: (string | null)[][];
  bitmaps: RoaringBitmap32[];
}

interface Header {
  key: string;
  arrays: { kind: 'i32' | 'f64' | 'u16'; length: number }[];
  vocabularies: (string | null)[][];
  bitmapBytes: number[];
  /** CRC-32 of each array's bytes, then of each bitmap's, in file order. */
  crc: number[];
}

/** The key a snapshot must carry to be used: what the columns were read from. */
export function snapshotKey(parts: readonly (string | number)[]): string {
  return crypto
    .createHash('sha256')
    .update(JSON.stringify([FORMAT, ...parts]))
    .digest('hex');
}

const kindOf = (array: StoredArray): Header['arrays'][number]['kind'] =>
  array instanceof Int32Array ? 'i32' : array instanceof Float64Array ? 'f64' : 'u16';
const SHORT = 'The search column snapshot is shorter than its header says.';
const align = (n: number) => Math.ceil(n / 8) * 8;
const bytesOf = (array: ArrayBufferView) => new Uint8Array(array.buffer, array.byteOffset, array.byteLength);

/** Writes the snapshot next to `file` and moves it into place (readers never see half a file). */
export async function writeSnapshot(file: string, key: string, content: SnapshotContent): Promise<void> {
  await fs.promises.mkdir(path.dirname(file), { recursive: true });
  const bitmaps = content.bitmaps.map((bitmap) => bitmap.serialize('portable'));
  const header: Header = {
    key,
    arrays: content.arrays.map((a) => ({ kind: kindOf(a), length: a.length })),
    vocabularies: content.vocabularies,
    bitmapBytes: bitmaps.map((b) => b.length),
    crc: [...content.arrays.map((a) => zlib.crc32(bytesOf(a))), ...bitmaps.map((b) => zlib.crc32(b))],
  };
  const json = Buffer.from(JSON.stringify(header));
  const prefix = Buffer.alloc(align(4 + json.length));
  prefix.writeUInt32LE(json.length, 0);
  json.copy(prefix, 4);
  await removeStaleTemporaries(file);
  const temporary = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
  const handle = await fs.promises.open(temporary, 'w');
  try {
    let position = 0;
    for (const part of [prefix, ...content.arrays, ...bitmaps]) {
      const bytes = bytesOf(part);
      await writeFully(handle, bytes, position);
      position += align(bytes.length);
    }
    // The last part's padding too: without it a file whose last bitmap is not a multiple of 8 bytes
    // long is shorter than its header says, and every start would reject it as damaged.
    await handle.truncate(position);
    // On disk before it takes the name: after a crash the file is whole or the old one.
    await handle.sync();
    await handle.close();
    await fs.promises.rename(temporary, file);
  } catch (error) {
    await handle.close().catch(() => undefined);
    await fs.promises.rm(temporary, { force: true });
    throw error;
  }
}

/** The snapshot's content when it exists and carries `key`; else null. */
export async function readSnapshot(file: string, key: string): Promise<SnapshotContent | null> {
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(file, 'r');
  } catch {
    return null;
  }
  try {
    const { size: fileBytes } = await handle.stat();
    const size = Buffer.alloc(4);
    await readFully(handle, size, 0, SHORT);
    // Lengths read from the file are bounded by the file before anything is allocated for them.
    const headerBytes = size.readUInt32LE(0);
    if (4 + headerBytes > fileBytes) throw new Error('The search column snapshot is damaged (its header is longer than the file).');
    const json = Buffer.alloc(headerBytes);
    await readFully(handle, json, 4, SHORT);
    const header = JSON.parse(json.toString()) as Header;
    if (header.key !== key) return null;
    const widths = { i32: 4, f64: 8, u16: 2 } as const;
    const sizes = [...header.arrays.map(({ kind, length }) => length * widths[kind]), ...header.bitmapBytes];
    if (sizes.reduce((sum, n) => sum + align(n), align(4 + headerBytes)) !== fileBytes || header.crc?.length !== sizes.length) {
      throw new Error('The search column snapshot is damaged (its parts do not fill the file).');
    }
    let position = align(4 + json.length);
    let part = 0;
    const checked = (bytes: Uint8Array) => {
      if (zlib.crc32(bytes) !== header.crc[part++])
        throw new Error(`The search column snapshot is damaged (part ${part} fails its checksum).`);
    };
    const arrays: StoredArray[] = [];
    for (const { kind, length } of header.arrays) {
      const array = kind === 'i32' ? new Int32Array(length) : kind === 'f64' ? new Float64Array(length) : new Uint16Array(length);
      await readFully(handle, bytesOf(array), position, SHORT);
      checked(bytesOf(array));
      position += align(array.byteLength);
      arrays.push(array);
    }
    const bitmaps: RoaringBitmap32[] = [];
    for (const length of header.bitmapBytes) {
      const bytes = Buffer.alloc(length);
      await readFully(handle, bytes, position, SHORT);
      checked(bytes);
      position += align(length);
      bitmaps.push(RoaringBitmap32.deserialize(bytes, 'portable'));
    }
    return { arrays, vocabularies: header.vocabularies, bitmaps };
  } finally {
    await handle.close();
  }
}
