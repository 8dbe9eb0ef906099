import type { BrowserContext, Page } from 'playwright-core';
import { authEndpoints } from '@kb/contracts/api';
import { exportEndpoints } from '@kb/contracts/exports';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiSession } from './support/api-session.ts';
import { newAppContext, screenshot, useBrowser } from './support/browser.ts';
import { ExportPage } from './support/pages/export-page.ts';
import { LoginPage } from './support/pages/login-page.ts';
import { ResultsPage } from './support/pages/results-page.ts';
import { SearchPage } from './support/pages/search-page.ts';
import { useSeededServer } from './support/seeded-server.ts';

/*
 * What a demanding chemist met beside the search form: the results export spending credits on
 * one click (it now asks the one credit question every charging export asks), misspelt analyzer
 * addresses, and a toast that followed the user to the next page. One demo chunk: a search with
 * results to export.
 */
const server = useSeededServer({ chunks: 1 });
const browser = useBrowser();

let api: ApiSession;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  api = await ApiSession.logIn(server().baseUrl, 'FULL_USER');
  context = await newAppContext(browser(), server().baseUrl);
  page = await context.newPage();
  await new LoginPage(page).logInAs('FULL_USER');
}, 120_000);

afterAll(async () => {
  await context?.close();
});

/** The balance as the server keeps it. */
async function balance(): Promise<number> {
  return (await api.call(authEndpoints.subscriptionSummary, {})).downloadBalance;
}

describe('the results export', () => {
  it('asks the credit question once, with the price, spends nothing on Cancel and the price on Export', async () => {
    const search = new SearchPage(page);
    await search.openSearch();
    const assay = await search.addRow('Add Assay row');
    await assay.getByLabel('Binding', { exact: true }).check();
    await search.search();
    await search.searchCounts();
    await page.getByRole('link', { name: 'View results' }).click();
    await page.waitForURL((url) => url.pathname === '/results/structuretab');
    await new ResultsPage(page).waitForRows();

    const starts: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === exportEndpoints.start.path) starts.push(request.method());
    });
    const exporter = new ExportPage(page);
    await exporter.open('/export/structuretab');
    await exporter.waitForForm('structuretab');
    await exporter.chooseRows('all');
    await expect.poll(async () => (await exporter.cost())?.rows ?? 0, { timeout: 30_000 }).toBeGreaterThan(0);
    const cost = (await exporter.cost())!;
    const before = await balance();
    expect(before).toBeGreaterThanOrEqual(cost.credits);

    await exporter.ask();
    const question = await exporter.question().innerText();
    expect(question).toContain(`Export ${cost.rows.toLocaleString('en-GB')} structures as CSV for`);
    expect(question).toContain(`${cost.credits.toLocaleString('en-GB')} download credits?`);
    expect(question).toContain(`Your balance is ${before.toLocaleString('en-GB')}.`);
    await screenshot(page, 'results-export-question');
    await page.getByTestId('export-cancel').click();
    await exporter.question().waitFor({ state: 'detached' });
    expect(starts, 'nothing started before Export in the question').toEqual([]);
    expect(await balance(), 'Cancel spends nothing').toBe(before);

    const job = await exporter.start();
    expect(job).toMatchObject({ rows: cost.rows, credits: cost.credits });
    expect(starts, 'one start for one confirmed question').toEqual(['POST']);
    expect(await balance()).toBe(before - cost.credits);
  }, 180_000);
});

describe('analyzer addresses', () => {
  it('takes /analyzers/activitytab to the activities analyzer, keeping the query', async () => {
    await page.goto('/analyzers/activitytab?from=search', { waitUntil: 'domcontentloaded' });
    await page.waitForURL((url) => url.pathname === '/analyzers/activitiestab', { timeout: 30_000 });
    expect(new URL(page.url()).search).toBe('?from=search');
    await page.getByRole('heading', { name: 'Analyzers — Activities' }).waitFor();
    expect(await page.getByTestId('analyzer-problem').count()).toBe(0);
  });

  it('says there is no such analyzer for an unknown address, with links to the real ones', async () => {
    await page.goto('/analyzers/nonsense', { waitUntil: 'domcontentloaded' });
    const problem = page.getByTestId('analyzer-problem');
    await problem.waitFor();
    expect(await problem.innerText()).toContain('There is no analyzer “nonsense”');
    expect(await problem.getByTestId('analyzer-real-link').evaluateAll((links) => links.map((a) => a.getAttribute('href')))).toEqual([
      '/analyzers/structuretab',
      '/analyzers/activitiestab',
    ]);
    await problem.getByRole('link', { name: /Activities/ }).click();
    await page.waitForURL((url) => url.pathname === '/analyzers/activitiestab');
  });
});

describe('toasts', () => {
  it('ends a toast of the search page when the user goes to another page', async () => {
    // A tab of its own starts with an empty builder (the rows of the export's search stay in the first).
    const page = await context.newPage();
    const search = new SearchPage(page);
    await search.openSearch();
    await search.addRow('Add Structure row');
    await page.getByRole('button', { name: /^Remove row 1 / }).click();
    const toast = page.locator('.mantine-Notification-root').filter({ hasText: 'Removed the Structure row.' });
    await toast.waitFor();
    // Hovering holds Mantine's timer; leaving the toast for the link starts its 5 s again: without
    // the page's end, it would still be there long after the dashboard is shown.
    await toast.hover();
    await page.waitForTimeout(1_500);
    await page.getByRole('link', { name: 'Dashboard', exact: true }).first().click();
    await page.waitForURL((url) => url.pathname.startsWith('/dashboard'));
    await expect.poll(() => toast.count(), { timeout: 2_000, message: 'the search page’s toast ended with the page' }).toBe(0);
    await page.close();
  });
});
