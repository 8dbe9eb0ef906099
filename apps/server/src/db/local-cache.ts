import fs from 'node:fs';
import path from 'node:path';

/**
 * Local caches of the database (the search columns', structure properties' and structure index's
 * snapshots) and the file reads and writes they share. They are written to `<file>.<pid>.<random>.tmp` and moved into place. A process killed
 * mid-write leaves its temporary file behind: those older than an hour are removed before the next
 * write (a younger one may belong to another server writing now).
 */
export async function removeStaleTemporaries(file: string): Promise<void> {
  const dir = path.dirname(file);
  const prefix = `${path.basename(file)}.`;
  for (const name of await fs.promises.readdir(dir).catch(() => [] as string[])) {
    if (!name.startsWith(prefix) || !name.endsWith('.tmp')) continue;
    const stat = await fs.promises.stat(path.join(dir, name)).catch(() => null);
    if (stat && Date.now() - stat.mtimeMs > 3_600_000) await fs.promises.rm(path.join(dir, name), { force: true });
  }
}

/** Bytes read or written per call (well under a single read's 2 GB limit). */
const IO_BYTES = 64 * 2 ** 20;

/** Writes all of `bytes` at `position` (a write may take fewer bytes than asked). */
export async function writeFully(handle: fs.promises.FileHandle, bytes: Uint8Array, position: number): Promise<void> {
  for (let at = 0; at < bytes.length; ) {
    const { bytesWritten } = await handle.write(bytes, at, Math.min(IO_BYTES, bytes.length - at), position + at);
    at += bytesWritten;
  }
}

/** Fills `bytes` from `position`; a file that ends first throws `shortMessage`. */
export async function readFully(handle: fs.promises.FileHandle, bytes: Uint8Array, position: number, shortMessage: string): Promise<void> {
  for (let at = 0; at < bytes.length; ) {
    const { bytesRead } = await handle.read(bytes, at, Math.min(IO_BYTES, bytes.length - at), position + at);
    if (bytesRead === 0) throw new Error(shortMessage);
    at += bytesRead;
  }
}
