import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { Role } from '@kb/contracts/roles';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { ApiSession } from './api-session.ts';
import { newAppContext } from './browser.ts';
import { LoginPage } from './pages/login-page.ts';
import { SearchPage } from './pages/search-page.ts';
import type { RunningServer } from './server.ts';

/** One demo user twice: an API session that says what the page should show, and a browser context logged in through the login page. */
export interface LoggedInUser {
  api: ApiSession;
  context: BrowserContext;
  /** The tab that logged in, left on the role's landing page; null when the spec asked to close it. */
  page: Page | null;
}

export interface LoggedInOptions {
  /** Work the API does before the browser logs in, outside any test's timeout (building tree counts on first use, say). */
  prepare?: (api: ApiSession) => Promise<unknown>;
  /** 'close': the spec opens a tab of its own for every test (useSearchPageEachTest). */
  firstPage?: 'keep' | 'close';
}

/**
 * Logs the role in before the spec's tests, through the API and through the login page of a fresh
 * context, and closes the context after them. Hooks register in call order: call it after
 * useSeededServer and useBrowser, whose getters it reads.
 */
export function useLoggedInUser(
  server: () => RunningServer,
  browser: () => Browser,
  role: Role,
  options: LoggedInOptions = {},
): () => LoggedInUser {
  let user: LoggedInUser | undefined;
  beforeAll(async () => {
    const api = await ApiSession.logIn(server().baseUrl, role);
    await options.prepare?.(api);
    const context = await newAppContext(browser(), server().baseUrl);
    const page = await context.newPage();
    await new LoginPage(page).logInAs(role);
    if (options.firstPage === 'close') await page.close();
    user = { api, context, page: options.firstPage === 'close' ? null : page };
  }, 180_000);
  afterAll(async () => {
    await user?.context.close();
  });
  return () => {
    if (!user) throw new Error('The user is not logged in yet: call the getter inside a test or hook.');
    return user;
  };
}

/** The logged-in tab of a spec that kept it (useLoggedInUser without firstPage 'close'). */
export function firstPage(user: LoggedInUser): Page {
  if (!user.page) throw new Error('The spec closed its first tab (firstPage: "close").');
  return user.page;
}

/** A fresh tab on the search page for every test, closed after it: one test's rows and drawers never leak into the next. */
export function useSearchPageEachTest(user: () => LoggedInUser): () => SearchPage {
  let search: SearchPage | undefined;
  beforeEach(async () => {
    search = new SearchPage(await user().context.newPage());
    await search.openSearch();
  });
  afterEach(async () => {
    await search?.page.close();
  });
  return () => {
    if (!search) throw new Error('No search tab yet: call the getter inside a test or hook.');
    return search;
  };
}
