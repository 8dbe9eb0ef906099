import crypto from 'node:crypto';
import type { BrowserContext, Page } from 'playwright-core';
import { adminAccountEndpoints } from '@kb/contracts/admin-accounts';
import { resultsEndpoints } from '@kb/contracts/results';
import type { SearchCriteria } from '@kb/contracts/search';
import { workspaceEndpoints } from '@kb/contracts/workspace';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiSession } from './support/api-session.ts';
import { newAppContext, screenshot, uncaughtErrors, useBrowser } from './support/browser.ts';
import { AppPage } from './support/pages/app-page.ts';
import { ChartsPanel } from './support/pages/charts-panel.ts';
import { LoginPage } from './support/pages/login-page.ts';
import { openResultsOf } from './support/sar-view.ts';
import { useSeededServer } from './support/seeded-server.ts';

/*
 * The workspace (issue 59) in the browser against a server with two demo chunks: a kinase search
 * opens as a compound × endpoint sheet, three endpoints are chosen, the sheet is sorted by the first,
 * twenty rows are ticked and kept as a collection, whose sheet opens again after logging out and
 * in. A results page with a chart filter is saved as a result set; its permanent link restores the
 * filter and the counts after logging out and in, for a colleague of the same organisation once it
 * is shared with the organisation, and is a not-found page for a user of another organisation.
 */
const server = useSeededServer({ chunks: 2 });
const browser = useBrowser();

const suffix = crypto.randomBytes(3).toString('hex');
/** A kinase of the demo catalogue (catalog-targets.ts): its compounds were measured on many other targets too. */
const KINASE_SEARCH: SearchCriteria = {
  rows: [{ selectedOption: 'target', operator: null, targets: [{ label: 'Tyrosine-protein kinase JAK2' }] }],
} as SearchCriteria;
const YEAR_FILTER = { chartKey: 'year', minValue: 2005, maxValue: 2015 };

let owner: ApiSession;
let context: BrowserContext;
let page: Page;

/** Logs the owner out through the header and in again through the login page. */
async function logOutAndIn(): Promise<void> {
  await new AppPage(page).logOut();
  await page.waitForURL('**/login**');
  await new LoginPage(page).logInAs('FULL_USER');
}

/** A demo search user moved into an organisation of its own by an administrator: a colleague of nobody here. */
async function moveToOtherOrganisation(email: string): Promise<void> {
  const admin = await ApiSession.logIn(server().baseUrl, 'GOSTAR_ADMIN');
  const organisation = await admin.call(adminAccountEndpoints.createOrganisation, { body: { name: `E2E Elsewhere ${suffix}`, seats: 5 } });
  const users = await admin.call(adminAccountEndpoints.users, {
    query: { q: email, page: 1, pageSize: 10, sort: 'email', direction: 'asc' },
  });
  const user = users.rows.find((row) => row.email === email);
  if (!user) throw new Error(`${email} is not among the users`);
  await admin.call(adminAccountEndpoints.updateUser, { params: { userId: user.userId }, body: { organisationId: organisation.id } });
}

beforeAll(async () => {
  owner = await ApiSession.logIn(server().baseUrl, 'FULL_USER');
  await moveToOtherOrganisation('download-evaluator@demo.test');
  context = await newAppContext(browser(), server().baseUrl);
  page = await context.newPage();
  await page.setViewportSize({ width: 1440, height: 900 });
  await new LoginPage(page).logInAs('FULL_USER');
}, 240_000);

afterAll(async () => {
  const errors = context ? [...uncaughtErrors(context)] : [];
  await context?.close();
  expect(errors, 'no uncaught errors in the pages').toEqual([]);
});

describe('the sheet and collections', () => {
  const collectionName = `JAK2 picks ${suffix}`;
  let ticked: number[] = [];

  it('opens a kinase search as a sheet, takes three chosen endpoints and sorts by the first', async () => {
    await openResultsOf(owner, page, KINASE_SEARCH, 'structuretab');
    await page.getByTestId('open-sheet').click();
    await page.waitForURL('**/sheet?session=**');
    await page.locator('[data-testid="sheet-grid"] .ag-row').first().waitFor({ timeout: 60_000 });
    const pills = page.getByTestId('sheet-settings').locator('.mantine-Pill-label');
    // The three most covered endpoints are chosen when the sheet opens; replace them by choice.
    await expect.poll(() => pills.count()).toBe(3);
    await page.getByTestId('sheet-settings').locator('[data-combobox-clear], .mantine-MultiSelect-section button').first().click();
    await expect.poll(() => pills.count()).toBe(0);
    const picker = page.getByTestId('sheet-endpoints');
    for (const term of ['IC50 · JAK2', 'Ki · JAK2', 'IC50']) {
      await picker.click();
      await picker.fill(term);
      await page.locator('.mantine-MultiSelect-option').first().click();
    }
    await page.keyboard.press('Escape');
    await expect.poll(() => pills.allInnerTexts()).toEqual(expect.arrayContaining(['IC50 · JAK2', 'Ki · JAK2']));
    expect(await pills.count()).toBe(3);

    // Waited for before the click: the answer can come before a later wait would start.
    const sorted = page.waitForResponse(
      (response) => response.url().endsWith('/api/sheet/page') && response.request().postDataJSON()?.sort?.column === 'e0',
    );
    await page.locator('.ag-header-cell[col-id="e0"] .ag-header-cell-label').click();
    const answer = await sorted;
    expect(answer.ok()).toBe(true);
    const body = answer.request().postDataJSON() as { sort: { column: string; direction: string }; endpoints: unknown[] };
    expect(body.sort).toEqual({ column: 'e0', direction: 'asc' });
    expect(body.endpoints).toHaveLength(3);
    // Ascending, blanks last: the first page's values never go down.
    await page.locator('[data-testid="sheet-grid"][aria-busy="false"]').waitFor();
    await page.waitForTimeout(500);
    const values = (await page.locator('[data-testid="sheet-grid"] .ag-row .ag-cell[col-id="e0"]').allInnerTexts())
      .map((text) => text.replace(/[<>]/g, '').trim())
      .filter((text) => text !== '—')
      .map(Number);
    expect(values.length).toBeGreaterThan(5);
    expect(values).toEqual([...values].sort((a, b) => a - b));
    await screenshot(page, 'workspace-sheet');
  }, 180_000);

  it('ticks twenty rows and keeps them as a new collection', async () => {
    const ticks = page.getByTestId('sheet-tick');
    for (let index = 0; index < 20; index += 1) await ticks.nth(index).check();
    await expect.poll(() => page.getByTestId('sheet-ticked').getAttribute('data-value')).toBe('20');
    ticked = await page
      .locator('[data-testid="sheet-grid"] .ag-row')
      .evaluateAll((rows) => [...new Set(rows.map((row) => Number(row.getAttribute('row-id'))))].slice(0, 20));
    await page.getByTestId('sheet-add-to-collection').click();
    await page.getByTestId('add-to-collection').getByTestId('name-input').fill(collectionName);
    await page.getByTestId('add-submit').click();
    await page.getByTestId('added-collection-link').waitFor();
    const collections = await owner.call(workspaceEndpoints.collections, {});
    expect(collections.rows.find((row) => row.name === collectionName)?.compounds).toBe(20);
  }, 60_000);

  it('opens the collection’s sheet after logging out and in', async () => {
    await logOutAndIn();
    await page.goto('/workspace');
    const row = page.getByTestId('collections-table').locator(`tr[data-name="${collectionName}"]`);
    await row.waitFor();
    await row.getByTestId('collection-sheet').click();
    await page.waitForURL('**/sheet?collection=**');
    await expect.poll(() => page.getByTestId('sheet-count').getAttribute('data-compounds'), { timeout: 60_000 }).toBe('20');
    const shown = await page
      .locator('[data-testid="sheet-grid"] .ag-row')
      .evaluateAll((rows) => [...new Set(rows.map((row) => Number(row.getAttribute('row-id'))))]);
    expect([...shown].sort((a, b) => a - b)).toEqual([...ticked].sort((a, b) => a - b));
  }, 120_000);
});

describe('a saved result set', () => {
  const setName = `JAK2 2005–2015 ${suffix}`;
  let link = '';
  let savedCount = 0;
  let colleagueContext: BrowserContext | undefined;
  let strangerContext: BrowserContext | undefined;

  afterAll(async () => {
    await colleagueContext?.close();
    await strangerContext?.close();
  });

  it('saves the results page with a chart filter and gives its permanent link', async () => {
    const sessionid = await openResultsOf(owner, page, KINASE_SEARCH, 'activitiestab');
    const answer = await owner.call(resultsEndpoints.applyFilters, {
      params: { tab: 'activitiestab' },
      body: { sessionid, filters: [YEAR_FILTER] },
    });
    savedCount = answer.rowCount;
    await page.reload();
    await page.getByTestId('results-grid').waitFor({ timeout: 60_000 });
    await expect.poll(async () => Number(await page.getByTestId('tab-activitiestab').getAttribute('data-count'))).toBe(savedCount);
    await page.getByTestId('workspace-menu').click();
    await page.getByTestId('save-result-set-open').click();
    await page.getByTestId('name-input').fill(setName);
    await page.getByTestId('name-submit').click();
    const toastLink = page.getByTestId('saved-set-link');
    await toastLink.waitFor();
    link = new URL((await toastLink.getAttribute('href')) ?? '', server().baseUrl).pathname;
    expect(link).toMatch(/^\/workspace\/result-sets\/\d+$/);
  }, 180_000);

  it('restores the filter and the counts from the link after logging out and in', async () => {
    await logOutAndIn();
    await page.goto(link);
    await page.waitForURL('**/results/activitiestab', { timeout: 120_000 });
    await page.getByTestId('results-grid').waitFor({ timeout: 60_000 });
    await expect.poll(async () => Number(await page.getByTestId('tab-activitiestab').getAttribute('data-count'))).toBe(savedCount);
    const charts = new ChartsPanel(page);
    await expect.poll(async () => (await charts.chips()).map((chip) => chip.chartKey), { timeout: 30_000 }).toContain('year');
    await screenshot(page, 'workspace-restored');
  }, 180_000);

  it('is shared with the organisation by its owner', async () => {
    await page.goto('/workspace?tab=result-sets');
    const row = page.getByTestId('result-sets-table').locator(`tr[data-name="${setName}"]`);
    await row.getByTestId('owned-menu').click();
    await page.getByTestId('action-share').click();
    await page.getByTestId('sharing-dialog').waitFor();
    await page.getByTestId('sharing-visibility').getByText('Whole organisation').click();
    await screenshot(page, 'workspace-sharing');
    await page.getByTestId('sharing-save').click();
    await expect.poll(() => row.getByTestId('visibility-badge').getAttribute('data-visibility')).toBe('organisation');
  }, 60_000);

  it('opens for a colleague of the same organisation, with the same filter and counts', async () => {
    colleagueContext = await newAppContext(browser(), server().baseUrl);
    const colleague = await colleagueContext.newPage();
    await colleague.setViewportSize({ width: 1440, height: 900 });
    await new LoginPage(colleague).logInAs('EVALUATE_USER');
    await colleague.goto(link);
    await colleague.waitForURL('**/results/activitiestab', { timeout: 120_000 });
    await expect
      .poll(async () => Number(await colleague.getByTestId('tab-activitiestab').getAttribute('data-count')), { timeout: 60_000 })
      .toBe(savedCount);
  }, 180_000);

  it('is not found for a user of another organisation', async () => {
    strangerContext = await newAppContext(browser(), server().baseUrl);
    const stranger = await strangerContext.newPage();
    await new LoginPage(stranger).logInAs('DOWNLOAD_EVALUATOR');
    await stranger.goto(link);
    await stranger.getByTestId('workspace-not-found').waitFor({ timeout: 30_000 });
    expect(await stranger.getByTestId('workspace-not-found').innerText()).toContain('does not exist or is not shared with you');
  }, 120_000);
});
