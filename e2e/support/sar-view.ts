import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { SarEndpointOption } from '@kb/contracts/sar';
import { sarEndpoints } from '@kb/contracts/sar';
import type { SearchCriteria } from '@kb/contracts/search';
import { searchEndpoints } from '@kb/contracts/search-api';
import type { ApiSession } from './api-session.ts';
import { ResultsPage } from './pages/results-page.ts';
import { RESULTS_DIR } from './server.ts';

/** What the SAR view's specs share: a search run through the API and opened in the browser, and window screenshots. */

const SHOTS = path.join(RESULTS_DIR, 'screenshots');

/** Runs a search through the API and opens its results in the browser, as "View results" does. */
export async function openResultsOf(api: ApiSession, page: Page, criteria: SearchCriteria, tab: string): Promise<string> {
  const sessionid = crypto.randomUUID();
  await api.call(searchEndpoints.allResultsCount, { body: { searchcriteria: criteria, sessionid } });
  await page.evaluate(
    (id) =>
      window.sessionStorage.setItem(
        'kb-search-session',
        JSON.stringify({ state: { searchSessionId: id, selectionSessionId: null }, version: 0 }),
      ),
    sessionid,
  );
  await page.goto(`/results/${tab}`);
  await new ResultsPage(page).waitForRows();
  return sessionid;
}

/**
 * Saves what the window shows to test-results/screenshots/<name>.png, scrolled to `target` first
 * when given and then back by `above` pixels (the sticky header covers the top of the window).
 */
export async function windowShot(page: Page, name: string, target?: Locator, above = 72): Promise<void> {
  fs.mkdirSync(SHOTS, { recursive: true });
  if (target) await target.first().evaluate((element) => element.scrollIntoView({ block: 'start' }));
  await page.evaluate((pixels) => window.scrollBy(0, -pixels), above);
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
}

/**
 * From the results on screen into the SAR view: opens it with every row of the Structures tab,
 * picks the endpoint `pick` chooses among the SAR data's endpoints (failing with the list when
 * none), then the first suggested core, builds the table and answers the endpoint.
 */
export async function buildSarTable(
  api: ApiSession,
  page: Page,
  sessionid: string,
  pick: (endpoint: SarEndpointOption) => boolean,
): Promise<SarEndpointOption> {
  await page.getByTestId('open-sar-view').click();
  await page.waitForURL('**/sarview/structuretab');
  await expect
    .poll(() => page.getByTestId('sar-source').textContent(), { timeout: 30_000 })
    .toMatch(/compounds? and .* from the Structures tab/);
  const data = await api.call(sarEndpoints.sarData, { params: { sessionid } });
  const endpoint = data.endpoints.find(pick);
  expect(endpoint, `an endpoint among ${data.endpoints.map((e) => `${e.targetName} · ${e.activityType}`).join(', ')}`).toBeDefined();
  await page.getByTestId('sar-endpoint').click();
  await page.getByTestId('sar-endpoint').fill(endpoint!.targetName.slice(0, 12));
  await page
    .getByRole('option', { name: `${endpoint!.targetName} · ${endpoint!.activityType}` })
    .first()
    .click();
  await expect.poll(() => page.getByTestId('sar-endpoint-summary').textContent()).toContain('pActivity');
  const cores = page.getByTestId('sar-suggested-core');
  await expect.poll(() => cores.count(), { timeout: 60_000 }).toBeGreaterThan(0);
  await cores.first().click();
  await page.getByTestId('sar-run').click();
  await page.getByTestId('sar-table').locator('.ag-row').first().waitFor({ timeout: 60_000 });
  return endpoint!;
}
