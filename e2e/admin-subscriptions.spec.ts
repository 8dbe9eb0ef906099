import type { BrowserContext, Page } from 'playwright-core';
import { adminEndpoints } from '@kb/contracts/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { ApiSession } from './support/api-session.ts';
import { newAppContext, screenshot, useBrowser } from './support/browser.ts';
import { LoginPage } from './support/pages/login-page.ts';

/*
 * The Subscriptions page (GOSTAR_ADMIN) on the shared server: one row per user the API lists,
 * each subscription shown under the role's name (as on the profile and the header) rather than its
 * code, and every badge whole (not clipped).
 */
const browser = useBrowser();
let context: BrowserContext;
let page: Page;
let api: ApiSession;

beforeAll(async () => {
  api = await ApiSession.logIn(inject('baseUrl'), 'GOSTAR_ADMIN');
  context = await newAppContext(browser());
  page = await context.newPage();
  await new LoginPage(page).logInAs('GOSTAR_ADMIN');
}, 120_000);

afterAll(async () => {
  await context?.close();
});

describe('subscriptions page', () => {
  it('lists every user with friendly role names on whole badges', async () => {
    const expected = await api.call(adminEndpoints.subscriptions, {});
    await page.goto(new URL('/admin/subscriptions', inject('baseUrl')).href);
    const table = page.getByTestId('subscriptions-table');
    await table.waitFor();
    expect(await table.locator('tbody tr').count()).toBe(expected.rows.length);

    const badges = page.getByTestId('subscription-badge');
    const texts = await badges.allInnerTexts();
    expect(texts.length).toBe(expected.rows.reduce((n, row) => n + row.subscriptions.length, 0));
    expect(texts.some((text) => text.startsWith('Super admin · until '))).toBe(true);
    // No raw role code (FULL_USER, GOSTAR_ADMIN ...) is shown.
    for (const text of texts) expect(text).not.toMatch(/[A-Z]+_[A-Z]+/);
    // Mantine clips a badge's label (the inner span) with an ellipsis: its text must fit in both.
    const clipped = await badges.evaluateAll((elements) =>
      elements.filter((badge) => [badge, ...badge.querySelectorAll('span')].some((element) => element.scrollWidth > element.clientWidth + 1)).length,
    );
    expect(clipped).toBe(0);
    await screenshot(page, 'admin-subscriptions');
  });

  it('filters by name or e-mail and says when nothing matches', async () => {
    await page.getByLabel('Filter users').fill('no-such-user-xyz');
    await page.getByText('No user matches “no-such-user-xyz”.').waitFor();
    expect(await page.getByTestId('subscriptions-table').locator('tbody tr').count()).toBe(0);
    await page.getByLabel('Filter users').fill('');
  });
});
