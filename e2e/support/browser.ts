import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { RESULTS_DIR } from './server.ts';
import { sharedServer } from './shared-server.ts';

/** Set by scripts/run-e2e.mjs from scripts/ensure-browser.mjs, which finds or installs it. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH?.trim() || '/usr/bin/chromium';

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export async function launchBrowser(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `${CHROMIUM_PATH} is missing: run \`node scripts/ensure-browser.mjs\` (it installs or says how), or set CHROMIUM_PATH.`,
    );
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

/** Content Security Policy violations each context's pages and workers reported. */
const cspViolationsByContext = new WeakMap<BrowserContext, string[]>();

/**
 * Chromium reports a blocked script, style, image, worker or WebAssembly compilation as a console
 * error naming the "Content Security Policy": such messages are recorded per context and printed.
 */
function recordCspViolation(context: BrowserContext, text: string): void {
  if (!text.includes('Content Security Policy')) return;
  const list = cspViolationsByContext.get(context);
  if (!list || list.includes(text)) return;
  list.push(text);
  console.error(`[browser] CSP violation: ${text}`);
}

/** Errors the app's pages threw and nothing caught, per context (e.g. React's update-depth limit). */
const uncaughtByContext = new WeakMap<BrowserContext, string[]>();

/** The uncaught errors so far in a context made by `newAppContext`: a page that works throws none. */
export function uncaughtErrors(context: BrowserContext): readonly string[] {
  return uncaughtByContext.get(context) ?? [];
}

/** The CSP violations reported so far in a context made by `newAppContext` (empty when the policy blocked nothing). */
export function cspViolations(context: BrowserContext): readonly string[] {
  return cspViolationsByContext.get(context) ?? [];
}

/** A context on the server under test (or another one, e.g. a seeded server): fresh cookies and storage, as a new browser profile. */
export async function newAppContext(browser: Browser, baseUrl: string = sharedServer().baseUrl): Promise<BrowserContext> {
  const context = await browser.newContext({
    baseURL: baseUrl,
    viewport: { width: 1280, height: 800 },
    locale: 'en-GB',
  });
  // Errors of the app show up in the test output next to the failure they explain.
  context.on('weberror', (error) => {
    // An eval the policy refuses throws an EvalError naming the policy.
    recordCspViolation(context, error.error().message);
    console.error(`[browser] uncaught: ${error.error().message}`);
    uncaughtByContext.get(context)?.push(error.error().message);
  });
  cspViolationsByContext.set(context, []);
  uncaughtByContext.set(context, []);
  context.on('console', (message) => {
    recordCspViolation(context, message.text());
    // HTTP error statuses are logged by Chromium as "Failed to load resource"; tests expect many of them.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
      console.error(`[browser] console.error: ${message.text()}`);
  });
  // Workers (Ketcher's Indigo engine compiles its WebAssembly in one) report to their own console.
  context.on('page', (page) =>
    page.on('worker', (worker) => worker.on('console', (message) => recordCspViolation(context, message.text()))),
  );
  context.setDefaultTimeout(10_000);
  context.setDefaultNavigationTimeout(20_000);
  return context;
}

/** One browser per spec file, closed after it. Returns a getter for use inside tests and hooks. */
export function useBrowser(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error('The browser is not launched yet: call the getter inside a test or hook.');
    return browser;
  };
}

/** Saves a full-page screenshot under test-results/ and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  const file = path.join(RESULTS_DIR, 'screenshots', `${name}.png`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  await page.screenshot({ path: file, fullPage: true });
  return file;
}
