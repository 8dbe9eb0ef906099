import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { cspViolations, newAppContext, screenshot, useBrowser } from './support/browser.ts';
import { LoginPage } from './support/pages/login-page.ts';
import { SearchPage } from './support/pages/search-page.ts';

/**
 * Speed as felt (issue 14): what a first visit downloads. Budgets are the scripts' bytes on the
 * wire (compressed, as served), with room for growth over what the build gives today (see
 * docs/benchmarks.md "Static files"): the login page is the first thing every user waits for.
 */
const LOGIN_SCRIPT_BUDGET = 300_000;
const SEARCH_SCRIPT_BUDGET = 450_000;

/**
 * Chunks of the heavy libraries, by the names the build gives their files: the structure editor
 * (`ketcher-canvas`, Ketcher's standalone package and Miew, both `index.modern-*`, the Indigo worker
 * and WebAssembly) and the results workspace (AG Grid and ECharts, `results-workspace`). Neither the
 * login page nor the search page may download them up front.
 */
const HEAVY_CHUNKS = /\/assets\/(ketcher|indigo|index\.modern|ag-grid|echarts|results-workspace)[^/]*$/;

interface LoadedScript {
  url: string;
  /** Bytes of the body on the wire (after content encoding). */
  transferred: number;
  encoding: string;
}

const browser = useBrowser();
const contexts: BrowserContext[] = [];

afterEach(async () => {
  const violations = contexts.flatMap((context) => [...cspViolations(context)]);
  await Promise.all(contexts.splice(0).map((context) => context.close()));
  expect(violations, 'the Content Security Policy blocked nothing').toEqual([]);
});

async function freshContext(from: Browser, storageState?: Awaited<ReturnType<BrowserContext['storageState']>>): Promise<BrowserContext> {
  const context = await newAppContext(from);
  if (storageState)
    await context.addInitScript(
      seedStorage,
      storageState.origins.flatMap((origin) => origin.localStorage),
    );
  contexts.push(context);
  return context;
}

/** Puts a logged-in session's local storage into a new context before the app's scripts run. */
function seedStorage(items: { name: string; value: string }[]): void {
  // The script also runs in about:blank, which has no storage.
  if (window.location.protocol !== 'http:' && window.location.protocol !== 'https:') return;
  for (const item of items) if (window.localStorage.getItem(item.name) === null) window.localStorage.setItem(item.name, item.value);
}

/** Records every script the page downloads (modules, preloads, workers), with its size on the wire. */
function recordScripts(page: Page): () => Promise<LoadedScript[]> {
  const finished: Promise<LoadedScript | null>[] = [];
  page.on('requestfinished', (request) => {
    const pathname = new URL(request.url()).pathname;
    if (!pathname.endsWith('.js')) return;
    finished.push(
      (async () => {
        const response = await request.response();
        if (!response) return null;
        const sizes = await request.sizes();
        return {
          url: pathname,
          transferred: sizes.responseBodySize,
          encoding: (await response.headerValue('content-encoding')) ?? 'identity',
        };
      })(),
    );
  });
  return async () => (await Promise.all(finished)).filter((script): script is LoadedScript => script !== null);
}

function describeScripts(scripts: LoadedScript[]): string {
  return scripts.map((s) => `${s.url} ${(s.transferred / 1000).toFixed(1)} kB ${s.encoding}`).join('\n');
}

function total(scripts: LoadedScript[]): number {
  return scripts.reduce((sum, script) => sum + script.transferred, 0);
}

describe('the bundle budget', () => {
  it(`the login page downloads at most ${LOGIN_SCRIPT_BUDGET / 1000} kB of scripts, compressed, and none of the heavy libraries`, async () => {
    const page = await (await freshContext(browser())).newPage();
    const scripts = recordScripts(page);
    await new LoginPage(page).openLogin();
    // Idle: lazy chunks the page would fetch on its own after the form showed are counted too.
    await page.waitForLoadState('networkidle');
    const loaded = await scripts();
    console.log(`[budget] /login scripts, ${total(loaded)} bytes:\n${describeScripts(loaded)}`);
    await screenshot(page, 'bundle-budget-login');

    expect(loaded.length, 'the login page loads scripts').toBeGreaterThan(0);
    // The build compresses files of 1 kB and more (apps/web/vite.config.ts).
    expect(
      loaded.filter((s) => s.encoding === 'identity' && s.transferred >= 1024),
      'every script of 1 kB or more is served compressed',
    ).toEqual([]);
    expect(
      loaded.filter((s) => HEAVY_CHUNKS.test(s.url)).map((s) => s.url),
      'no editor, grid or chart chunk',
    ).toEqual([]);
    expect(total(loaded)).toBeLessThan(LOGIN_SCRIPT_BUDGET);
  });

  it(`the search page, opened directly by a logged-in user, downloads at most ${SEARCH_SCRIPT_BUDGET / 1000} kB of scripts`, async () => {
    const loginContext = await freshContext(browser());
    await new LoginPage(await loginContext.newPage()).logInAs('FULL_USER');
    const session = await loginContext.storageState();

    // A new context: nothing cached, as a user opening a bookmark to /search.
    const page = await (await freshContext(browser(), session)).newPage();
    const scripts = recordScripts(page);
    await new SearchPage(page).openSearch();
    await page.waitForLoadState('networkidle');
    const loaded = await scripts();
    console.log(`[budget] /search scripts, ${total(loaded)} bytes:\n${describeScripts(loaded)}`);
    await screenshot(page, 'bundle-budget-search');

    expect(
      loaded.filter((s) => HEAVY_CHUNKS.test(s.url)).map((s) => s.url),
      'no editor, grid or chart chunk',
    ).toEqual([]);
    expect(total(loaded)).toBeLessThan(SEARCH_SCRIPT_BUDGET);
  });
});
