/**
 * Pages load their code on first use (pages.tsx). A tab opened before a new release still names the
 * old release's chunks, which the server no longer has: the next page change would fail with
 * "Failed to fetch dynamically imported module". Vite reports that as `vite:preloadError`; we
 * reload once, which fetches the new index.html and its chunks. At most once a minute, so a chunk
 * that is really missing shows the error page instead of reloading for ever.
 */
const LAST_RELOAD_KEY = 'kb:stale-build-reload-at';
const MIN_INTERVAL_MS = 60_000;

export function shouldReloadForStaleBuild(lastReloadAt: string | null, now: number): boolean {
  const last = Number(lastReloadAt);
  return !lastReloadAt || !Number.isFinite(last) || now - last > MIN_INTERVAL_MS;
}

export function reloadOnStaleBuild(): void {
  window.addEventListener('vite:preloadError', (event) => {
    const now = Date.now();
    if (!shouldReloadForStaleBuild(sessionStorage.getItem(LAST_RELOAD_KEY), now)) return;
    sessionStorage.setItem(LAST_RELOAD_KEY, String(now));
    event.preventDefault();
    window.location.reload();
  });
}
