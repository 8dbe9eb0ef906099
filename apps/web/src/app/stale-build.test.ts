import { describe, expect, it } from 'vitest';
import { shouldReloadForStaleBuild } from './stale-build.ts';

describe('reloading for a new release', () => {
  it('reloads the first time, and again only after a minute', () => {
    const now = 1_800_000_000_000;
    expect(shouldReloadForStaleBuild(null, now)).toBe(true);
    expect(shouldReloadForStaleBuild(String(now - 5_000), now)).toBe(false);
    expect(shouldReloadForStaleBuild(String(now - 61_000), now)).toBe(true);
    expect(shouldReloadForStaleBuild('not a time', now)).toBe(true);
  });
});
