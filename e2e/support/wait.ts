import { isDeepStrictEqual } from 'node:util';

/**
 * Reads `read()` until `done` holds or `timeoutMs` passes; answers the last value read. Unlike
 * `expect.poll` it also works in hooks (logging in once per role happens in `beforeAll`).
 */
export async function waitUntil<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 10_000, intervalMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() >= deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** `waitUntil` for a value deeply equal to `wanted`. */
export function waitForEqual<T>(read: () => Promise<T>, wanted: unknown, timeoutMs?: number): Promise<T> {
  return waitUntil(read, (value) => isDeepStrictEqual(value, wanted), timeoutMs);
}
