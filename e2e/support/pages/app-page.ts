import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import type { Landing } from '../route-expectations.ts';
import { waitForEqual, waitUntil } from '../wait.ts';

/** What the browser shows: where it is and which page and look the app rendered. */
export interface PageState {
  pathname: string;
  dataPage: string | null;
  look: string | null;
  /** `?redirect=` of the current URL, null when absent. */
  redirect: string | null;
}

const SETTLE_MS = 150;

/** Any page of the app: the contract's `data-page` / `data-look` markers and the shared header. */
export class AppPage {
  constructor(readonly page: Page) {}

  async state(): Promise<PageState | null> {
    try {
      return await this.page.evaluate(() => ({
        pathname: window.location.pathname,
        dataPage: document.querySelector('[data-page]')?.getAttribute('data-page') ?? null,
        look: document.querySelector('[data-look]')?.getAttribute('data-look') ?? null,
        redirect: new URLSearchParams(window.location.search).get('redirect'),
      }));
    } catch {
      // The page is between documents (a full redirect): ask again.
      return null;
    }
  }

  /** The state reduced to what `landing` constrains, so a mismatch prints as a readable diff. */
  private async comparable(landing: Landing): Promise<Partial<PageState> | null> {
    const state = await this.state();
    if (state === null) return null;
    const seen: Partial<PageState> = { pathname: state.pathname, dataPage: state.dataPage };
    if (landing.look !== null) seen.look = state.look;
    if (landing.redirect !== undefined) seen.redirect = state.redirect;
    return seen;
  }

  private static wanted(landing: Landing): Partial<PageState> {
    const wanted: Partial<PageState> = { pathname: landing.pathname, dataPage: landing.dataPage };
    if (landing.look !== null) wanted.look = landing.look;
    if (landing.redirect !== undefined) wanted.redirect = landing.redirect;
    return wanted;
  }

  /**
   * Waits until the app shows `landing`, then checks it is still there a moment later: a guard that
   * renders the page and only then redirects would otherwise pass.
   */
  async expectLanding(landing: Landing, message = landing.reason, timeout = 10_000): Promise<void> {
    const wanted = AppPage.wanted(landing);
    expect(await waitForEqual(() => this.comparable(landing), wanted, timeout), message).toEqual(wanted);
    await this.page.waitForTimeout(SETTLE_MS);
    expect(await this.comparable(landing), `${message} (after settling)`).toEqual(wanted);
  }

  /** Waits for the landing without failing; answers what was seen (for tests that collect mismatches). */
  async landingMismatch(landing: Landing): Promise<Partial<PageState> | null> {
    try {
      // Shorter than expectLanding's wait: a broken app should not cost ten seconds per route.
      await this.expectLanding(landing, landing.reason, 3_000);
      return null;
    } catch {
      return (await this.comparable(landing)) ?? { pathname: '(navigating)' };
    }
  }

  /** Full page load: the app starts from browser storage, as after a reload or a pasted link. */
  async open(url: string): Promise<void> {
    await this.page.goto(url, { waitUntil: 'domcontentloaded' });
  }

  /**
   * Client-side navigation, as a link inside the app does: the router hears a history change and
   * no document is loaded. Answers whether the document survived (false means a full reload happened).
   */
  async navigateInApp(url: string): Promise<() => Promise<boolean>> {
    await this.page.evaluate((target) => {
      (window as unknown as { __e2eDocument?: boolean }).__e2eDocument = true;
      window.history.pushState({}, '', target);
      window.dispatchEvent(new PopStateEvent('popstate', { state: {} }));
    }, url);
    return async () => {
      try {
        return await this.page.evaluate(() => (window as unknown as { __e2eDocument?: boolean }).__e2eDocument === true);
      } catch {
        return false;
      }
    };
  }

  async logOut(): Promise<void> {
    await this.page.getByRole('button', { name: 'Log out' }).click();
  }

  /** Texts of every element with role="alert" (form errors, notifications). */
  async alertTexts(): Promise<string[]> {
    return this.page.getByRole('alert').allInnerTexts();
  }

  /** Waits until some alert contains `text`. */
  async expectAlert(text: string | RegExp, message?: string): Promise<void> {
    const matches = (texts: string[]) => texts.some((t) => (typeof text === 'string' ? t.includes(text) : text.test(t)));
    const texts = await waitUntil(() => this.alertTexts(), matches);
    expect(matches(texts), `${message ?? `an alert saying ${String(text)}`}; alerts shown: ${JSON.stringify(texts)}`).toBe(true);
  }

  async localStorageItems(): Promise<Record<string, string>> {
    return this.page.evaluate(() => Object.fromEntries(Object.entries(window.localStorage)));
  }

  async sessionStorageItems(): Promise<Record<string, string>> {
    return this.page.evaluate(() => Object.fromEntries(Object.entries(window.sessionStorage)));
  }
}
