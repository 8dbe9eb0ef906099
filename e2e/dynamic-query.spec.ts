import type { BrowserContext, Page } from 'playwright-core';
import { parse } from 'csv-parse/sync';
import { authEndpoints } from '@kb/contracts/api';
import type { DqQuery } from '@kb/contracts/dynamic-query';
import { dynamicQueryEndpoints } from '@kb/contracts/dynamic-query';
import { exportEndpoints } from '@kb/contracts/exports';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiSession } from './support/api-session.ts';
import { newAppContext, screenshot, useBrowser } from './support/browser.ts';
import { downloadedBytes } from './support/pages/export-page.ts';
import { LoginPage } from './support/pages/login-page.ts';
import { useSeededServer } from './support/seeded-server.ts';

/*
 * The dynamic query (docs/dynamic-query.md) in the browser, against a server with demo data: a
 * table, its columns, two typed filters and a sort built with the mouse and keyboard; the rows and
 * their count as the API answers the same query; the next page; the export as CSV read back, one
 * credit a row; the query saved and opened again.
 */
const server = useSeededServer({ chunks: 1 });
const browser = useBrowser();

let api: ApiSession;
let context: BrowserContext;
let page: Page;

/** The query the test builds in the page, as the API takes it. */
const QUERY: DqQuery = {
  entity: 'activities',
  // In the table's column order (the grid and the file keep it, whatever order they were ticked in).
  columns: ['act_id', 'std_activity_type', 'activity_value', 'standard_uom', 'target_name'],
  filters: [
    { column: 'std_activity_type', operator: 'eq', value: 'Ki' },
    { column: 'activity_value', operator: 'lt', value: 100 },
  ],
  sort: { column: 'activity_value', direction: 'desc' },
};

/** Picks an option of a Mantine Select (its input carries the test id). */
async function choose(testId: string, option: string, nth = 0): Promise<void> {
  await page.getByTestId(testId).nth(nth).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** The activity ids the grid shows, in row order (AG Grid's DOM order need not be the rows' order). */
const gridIds = () =>
  page.locator('[data-testid="dq-grid"][aria-busy="false"] .ag-row[row-index]').evaluateAll((rows) =>
    rows
      .map((row) => ({
        index: Number(row.getAttribute('row-index')),
        id: Number(row.querySelector('.ag-cell[col-id="act_id"]')?.textContent ?? 'NaN'),
      }))
      .sort((a, b) => a.index - b.index)
      .map((row) => row.id),
  );

beforeAll(async () => {
  api = await ApiSession.logIn(server().baseUrl, 'FULL_USER');
  context = await newAppContext(browser(), server().baseUrl);
  page = await context.newPage();
  await new LoginPage(page).logInAs('FULL_USER');
}, 120_000);

afterAll(async () => {
  await context?.close();
});

describe('dynamic query', () => {
  it('builds a query (table, columns, typed filters, sort), pages its rows and exports them as CSV for one credit a row', async () => {
    await page.getByRole('link', { name: 'Dynamic query' }).first().click();
    await page.waitForURL((url) => url.pathname === '/dynamicquery');
    await choose('dq-entity', 'Activities');

    // Columns: the defaults of Activities, then SMILES off and the unit on.
    const columns = page.getByTestId('dq-columns');
    await columns.getByRole('checkbox', { name: /^SMILES/ }).uncheck();
    await columns.getByRole('checkbox', { name: /^Relation/ }).uncheck();
    for (const key of QUERY.columns) expect(await columns.locator(`input[value="${key}"]`).isChecked(), key).toBe(true);

    // Filter 1: Activity type equals Ki (a text column offers text operators).
    await page.getByTestId('dq-add-filter').click();
    await choose('dq-filter-column', 'Activity type (text)', 0);
    await choose('dq-filter-operator', 'equals', 0);
    await page.getByLabel('Filter 1: value').fill('Ki');
    // Filter 2: Value < 100 (a number column offers comparisons, not "contains").
    await page.getByTestId('dq-add-filter').click();
    await choose('dq-filter-column', 'Value (number)', 1);
    await page.getByTestId('dq-filter-operator').nth(1).click();
    expect(await page.getByRole('option', { name: 'contains' }).count()).toBe(0);
    await page.getByRole('option', { name: '<', exact: true }).click();
    await page.getByLabel('Filter 2: value').fill('100');

    await choose('dq-sort-column', 'Value');
    await page.getByText('Descending', { exact: true }).click();
    await page.getByTestId('dq-run').click();

    const expected = await api.call(dynamicQueryEndpoints.run, { body: { ...QUERY, page: 0, pageSize: 25 } });
    expect(expected.rowCount).toBeGreaterThan(25);
    const count = page.getByTestId('dq-row-count');
    await count.waitFor();
    expect(Number(await count.getAttribute('data-rows'))).toBe(expected.rowCount);
    await expect.poll(gridIds, { timeout: 15_000 }).toEqual(expected.rows.map((row) => row.act_id));
    await screenshot(page, 'dynamic-query-rows');

    // The next page, as the server pages it.
    const second = await api.call(dynamicQueryEndpoints.run, { body: { ...QUERY, page: 1, pageSize: 25 } });
    await page.getByRole('button', { name: 'Page 2' }).click();
    await expect.poll(gridIds, { timeout: 15_000 }).toEqual(second.rows.map((row) => row.act_id));

    // Export as CSV: the price shown, asked once, the file downloaded, the balance one credit a row lower.
    const before = (await api.call(authEndpoints.subscriptionSummary, {})).downloadBalance;
    expect(Number(await page.getByTestId('dq-export-cost').getAttribute('data-credits'))).toBe(expected.rowCount);
    await page.getByTestId('dq-export-open').click();
    expect(await page.getByTestId('dq-export-question').innerText()).toContain(
      `for ${expected.rowCount.toLocaleString('en-US')} download credits?`,
    );
    // Nothing is spent before the answer.
    expect((await api.call(authEndpoints.subscriptionSummary, {})).downloadBalance).toBe(before);
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 60_000 }),
      page.getByTestId('dq-export-confirm').click(),
    ]);
    const records = parse((await downloadedBytes(download)).toString('utf8').replace(/^\uFEFF/, ''), { columns: true }) as Record<
      string,
      string
    >[];
    expect(records.length).toBe(expected.rowCount);
    expect(Object.keys(records[0]!)).toEqual(['Activity id', 'Activity type', 'Value', 'Unit', 'Target']);
    expect(records.slice(0, 25).map((row) => Number(row['Activity id']))).toEqual(expected.rows.map((row) => row.act_id));
    await page.locator('[data-testid="export-job"][data-status="done"]').waitFor();
    expect((await api.call(authEndpoints.subscriptionSummary, {})).downloadBalance).toBe(before - expected.rowCount);
    const history = await api.call(exportEndpoints.downloadHistory, {});
    expect(history.rows[0]).toMatchObject({
      description: 'Dynamic query Activities · CSV',
      rows: expected.rowCount,
      credits: expected.rowCount,
    });
  });

  it('saves the query, and opening it again runs it', async () => {
    await page.getByTestId('dq-save-name').fill('Ki below 100');
    await page.getByTestId('dq-save').click();
    const saved = page.getByTestId('dq-saved-query').filter({ hasText: 'Ki below 100' });
    await saved.waitFor();
    const listed = await api.call(dynamicQueryEndpoints.listSaved, {});
    expect(listed.queries.find((q) => q.name === 'Ki below 100')?.query).toMatchObject(QUERY);

    // A fresh page: the saved query restores the table, filters and sort and runs.
    await page.reload();
    await page.getByRole('button', { name: 'Open the saved query Ki below 100' }).click();
    await page.getByTestId('dq-row-count').waitFor();
    expect(await page.getByLabel('Filter 1: value').inputValue()).toBe('Ki');
    const expected = await api.call(dynamicQueryEndpoints.run, { body: { ...QUERY, page: 0, pageSize: 25 } });
    await expect.poll(gridIds, { timeout: 15_000 }).toEqual(expected.rows.map((row) => row.act_id));
  });
});
