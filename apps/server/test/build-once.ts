import fs from 'node:fs';
import path from 'node:path';

/**
 * Makes `target` (a file or folder) once across the processes of a test run: the first to ask
 * builds it under an exclusive lock file, the others wait until it is there. `build` writes to the
 * path it is given, which is renamed to `target` when whole, so nobody sees a half-built one.
 */
export async function buildOnce(target: string, build: (partial: string) => Promise<void>, timeoutMs = 300_000): Promise<string> {
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const lock = `${target}.lock`;
  const deadline = Date.now() + timeoutMs;
  while (!fs.existsSync(target)) {
    let owner: number;
    try {
      owner = fs.openSync(lock, 'wx');
    } catch {
      if (Date.now() > deadline)
        throw new Error(`Timed out waiting for ${target} (another test process holds ${lock}; remove it if that process is gone).`);
      await new Promise((resolve) => setTimeout(resolve, 200));
      continue;
    }
    try {
      if (fs.existsSync(target)) break;
      const partial = `${target}.${process.pid}.part`;
      fs.rmSync(partial, { recursive: true, force: true });
      await build(partial);
      fs.renameSync(partial, target);
    } finally {
      fs.closeSync(owner);
      fs.rmSync(lock, { force: true });
    }
  }
  return target;
}

/** One promise per key in this process: concurrent callers share a build. */
export function memoise<T>(cache: Map<string, Promise<T>>, key: string, make: () => Promise<T>): Promise<T> {
  let value = cache.get(key);
  if (!value) {
    value = make();
    cache.set(key, value);
    value.catch(() => cache.delete(key));
  }
  return value;
}
