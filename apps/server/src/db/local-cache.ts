import fs from 'node:fs';
import path from 'node:path';

/**
 * Local caches of the database (the search columns', structure properties' and structure index's
 * snapshots) are written to `<file>.<pid>.<random>.tmp` and moved into place. A process killed
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
