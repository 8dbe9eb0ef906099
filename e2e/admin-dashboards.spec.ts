import type { BrowserContext, Page } from 'playwright-core';
import { usageEndpoints } from '@kb/contracts/api';
import { demoEmailForRole } from '@kb/contracts/roles';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiSession } from './support/api-session.ts';
import { newAppContext, screenshot, useBrowser } from './support/browser.ts';
import { LoginPage } from './support/pages/login-page.ts';
import { sharedServer } from './support/shared-server.ts';

/*
 * The usage dashboards on the shared server's demo data: the KB admin's dashboard draws its charts
 * with the figures the API counts (the demo users' logins of this run, the low-credit demo
 * subscription ending in 3 days, Demo Pharma as an active organisation), and a demo user opens the
 * client dashboard of their organisation from the menu.
 */
const browser = useBrowser();
const numberText = (n: number) => n.toLocaleString('en-US');

describe('admin dashboard', () => {
  let context: BrowserContext;
  let page: Page;
  let api: ApiSession;

  beforeAll(async () => {
    api = await ApiSession.logIn(sharedServer().baseUrl, 'GOSTAR_ADMIN');
    context = await newAppContext(browser());
    page = await context.newPage();
    // The KB admin lands on /admin/dashboard.
    await new LoginPage(page).logInAs('GOSTAR_ADMIN');
  }, 120_000);

  afterAll(async () => {
    await context?.close();
  });

  it('draws the daily charts with the figures the server counts', async () => {
    await page.getByTestId('chart-logins').locator('svg').first().waitFor();
    // Both logins above were made before the page asked: the API answers the same figures now.
    const usage = await api.call(usageEndpoints.adminUsage, { query: { period: '30d' } });
    expect(usage.totals.logins).toBeGreaterThanOrEqual(2);
    expect(await page.getByTestId('stat-logins').innerText()).toContain(numberText(usage.totals.logins));
    expect(await page.getByTestId('stat-active-users').innerText()).toContain(numberText(usage.totals.activeUsers));
    expect(await page.getByTestId('stat-searches').innerText()).toContain(numberText(usage.totals.searches));
    for (const chart of ['chart-active-users', 'chart-logins', 'chart-searches', 'chart-exports', 'chart-credits', 'chart-failed-logins']) {
      const box = page.getByTestId(chart).locator('[data-points]');
      expect(await box.getAttribute('data-points'), chart).toBe('30');
      expect(await page.getByTestId(chart).locator('svg').count(), chart).toBeGreaterThan(0);
    }
    // Today's logins are drawn: the logins chart has bars (paths of non-zero height).
    expect(await page.getByTestId('chart-logins').locator('svg path').count()).toBeGreaterThan(0);

    // The low-credit demo subscription ends in 3 days.
    expect(usage.endingSoon.within7Days).toBeGreaterThanOrEqual(1);
    await page
      .getByTestId('ending-7')
      .getByText(`${numberText(usage.endingSoon.within7Days)} within 7 days`)
      .waitFor();
    await page.getByTestId('ending-soon-table').getByText('lowcredit@demo.test').waitFor();
    // Demo Pharma's users logged in: it is among the most active organisations, linked to its client dashboard.
    await page.getByTestId('top-organisations-table').getByRole('link', { name: 'Demo Pharma' }).waitFor();
    await screenshot(page, 'admin-dashboard');
  });

  it('switches to the last 7 days from the period picker', async () => {
    await page.getByText('7 days', { exact: true }).click();
    await page.waitForURL(/period=7d/);
    const box = page.getByTestId('chart-logins').locator('[data-points]');
    await expect.poll(() => box.getAttribute('data-points')).toBe('7');
    // A custom period the server would refuse is refused before asking it.
    await page.getByText('From–to', { exact: true }).click();
    await page.getByRole('textbox', { name: 'From', exact: true }).fill('2026-02-10');
    await page.getByRole('textbox', { name: 'To', exact: true }).fill('2026-02-01');
    await page.getByRole('button', { name: 'Show' }).click();
    await page.getByRole('alert').getByText('The start date is after the end date.').waitFor();
  });

  it('opens an organisation’s client dashboard from the most active organisations', async () => {
    await page.getByText('30 days', { exact: true }).click();
    await page.getByTestId('top-organisations-table').getByRole('link', { name: 'Demo Pharma' }).click();
    await page.waitForURL(/\/admin\/client-dashboard\?organisationId=\d+/);
    await page.getByTestId('client-organisation-name').getByText('Demo Pharma').waitFor();
    // The administrator's organisation picker shows the organisation chosen.
    await expect.poll(() => page.getByTestId('organisation-picker').inputValue()).toContain('Demo Pharma');
  });
});

describe('client dashboard', () => {
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    context = await newAppContext(browser());
    page = await context.newPage();
    await new LoginPage(page).logInAs('FULL_USER');
  }, 120_000);

  afterAll(async () => {
    await context?.close();
  });

  it('shows a demo user their organisation from the menu', async () => {
    const api = await ApiSession.logIn(sharedServer().baseUrl, 'FULL_USER');
    // The header shows the links that fit and puts the rest under "More" (the Workspace link took its room at some widths).
    const nav = page.getByRole('navigation', { name: 'Main' });
    const direct = nav.getByRole('link', { name: 'Client dashboard' });
    if (await direct.isVisible()) await direct.click();
    else {
      await page.getByTestId('nav-more').click();
      await page.getByRole('menuitem', { name: 'Client dashboard' }).click();
    }
    await page.waitForURL(/\/admin\/client-dashboard/);
    await page.getByTestId('client-organisation-name').getByText('Demo Pharma').waitFor();
    const dashboard = await api.call(usageEndpoints.clientDashboard, { query: { period: '30d' } });
    expect(dashboard.organisation?.seats).toBe(25);
    expect(await page.getByTestId('client-seats').innerText()).toContain(`${dashboard.seats.seatsTaken} / 25`);
    const table = page.getByTestId('client-users-table');
    await table.getByText(demoEmailForRole('FULL_USER')).waitFor();
    expect(await table.locator('tbody tr').count()).toBe(dashboard.users.length);
    expect(await page.getByTestId('chart-client-trend').locator('svg').count()).toBeGreaterThan(0);
    // Not an administrator: no organisation picker.
    expect(await page.getByTestId('organisation-picker').count()).toBe(0);
    await screenshot(page, 'client-dashboard');
  });
});
