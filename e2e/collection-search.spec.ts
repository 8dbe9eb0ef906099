import crypto from 'node:crypto';
import type { Page } from 'playwright-core';
import type { SearchCriteria, SearchRowInput } from '@kb/contracts/search';
import { searchEndpoints } from '@kb/contracts/search-api';
import { lookupEndpoints } from '@kb/contracts/lookups';
import { workspaceEndpoints } from '@kb/contracts/workspace';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiSession } from './support/api-session.ts';
import { screenshot, useBrowser } from './support/browser.ts';
import { firstPage, useLoggedInUser } from './support/logged-in.ts';
import { ResultsPage } from './support/pages/results-page.ts';
import { SearchPage, apiCounts } from './support/pages/search-page.ts';
import { useSeededServer } from './support/seeded-server.ts';

/*
 * A collection as a search row, "In collection …" (docs/search-semantics.md), against a server with
 * one demo chunk. The collection holds the structures of a JAK2 search and twenty more by id; in
 * the builder it is joined by AND to a Target row picked from the autocomplete, and the counts on
 * the page are the API's for what the page sent and for the same search with a selection of the
 * collection's structures. From the collection's page, SAR view runs [In collection X] and opens
 * the SAR view of its Structures tab with every compound of the collection; Search and Analyzers
 * land on the results and the analyzers.
 */
const server = useSeededServer({ chunks: 1 });
const browser = useBrowser();
const user = useLoggedInUser(server, browser, 'FULL_USER', {
  // The target look-up is built on first use after a seed: build it now, not inside a test's timeout.
  prepare: (session) => session.call(lookupEndpoints.target, { query: { term: 'a', limit: 1 } }, 120_000),
});

const suffix = crypto.randomBytes(3).toString('hex');
const collectionName = `JAK2 and friends ${suffix}`;
const JAK2: SearchRowInput = { selectedOption: 'target', operator: null, targets: [{ label: 'Tyrosine-protein kinase JAK2' }] };

let api: ApiSession;
let page: Page;
let collectionId: number;
let members: number[];

beforeAll(async () => {
  api = user().api;
  page = firstPage(user());
  await page.setViewportSize({ width: 1440, height: 900 });
  // The collection: the structures of a JAK2 search (a session as its source), then twenty more by id.
  const sessionid = crypto.randomUUID();
  await api.call(searchEndpoints.allResultsCount, { body: { searchcriteria: { rows: [JAK2] } as SearchCriteria, sessionid } });
  const made = await api.call(workspaceEndpoints.createCollection, {
    body: { name: collectionName, description: '', source: { kind: 'session', sessionid, tab: 'structuretab' } },
  });
  collectionId = made.id;
  await api.call(workspaceEndpoints.addItems, {
    params: { id: collectionId },
    body: { source: { kind: 'ids', strIds: Array.from({ length: 20 }, (_, i) => i + 1) } },
  });
  const items = await api.call(workspaceEndpoints.collectionItems, { params: { id: collectionId }, query: { page: 0, pageSize: 500 } });
  members = items.rows.map((row) => row.strId).sort((a, b) => a - b);
}, 180_000);

afterAll(async () => {
  // Nothing left behind for the user's later searches.
  if (collectionId) await api.call(workspaceEndpoints.deleteCollection, { params: { id: collectionId } });
});

describe('searching by collection', () => {
  it('joins an "In collection" row to a Target row by AND and shows the counts of the same search by selection', async () => {
    expect(members.length).toBeGreaterThan(20);
    const search = new SearchPage(page);
    await search.openSearch();
    const collectionRow = await search.addRow('Add In collection row');
    const select = collectionRow.getByTestId('collection-row-select');
    await select.click();
    await select.fill(collectionName.slice(0, 12));
    await page.getByRole('option', { name: new RegExp(collectionName) }).click();
    await expect.poll(() => collectionRow.getByTestId('collection-row-size').getAttribute('data-value')).toBe(String(members.length));

    const target = await search.addRow('Add Target/Enzyme/Protein row');
    await search.pick(target, 'Targets', 'JAK2', /JAK2/);
    const { criteria } = await search.search();
    expect(criteria.rows[0]).toMatchObject({ selectedOption: 'collection', collectionId, label: collectionName, operator: 'AND' });
    const shown = await search.searchCounts();
    expect(shown).toEqual(await apiCounts(api, criteria));
    const bySelection: SearchCriteria = {
      rows: [{ selectedOption: 'selection', operator: 'AND', entity: 'structure', ids: members }, criteria.rows[1]!],
    } as SearchCriteria;
    expect(shown).toEqual(await apiCounts(api, bySelection));
    // Every JAK2 structure is in the collection, the twenty by id mostly not measured on JAK2.
    expect(shown.structures).toBeGreaterThan(0);
    expect(shown.structures).toBeLessThan(members.length);
    await screenshot(page, 'collection-search-builder');
  }, 120_000);

  it('opens the SAR view of the collection from its page, with every compound of it', async () => {
    await page.goto(`/workspace/collections/${collectionId}`);
    await page.getByTestId('collection-page').waitFor();
    await screenshot(page, 'collection-search-page');
    await page.getByTestId('collection-sar').click();
    await page.waitForURL('**/sarview/structuretab', { timeout: 60_000 });
    await expect
      .poll(() => page.getByTestId('sar-source').textContent(), { timeout: 30_000 })
      .toMatch(new RegExp(`^${members.length} compounds and [\\d,]+ activities from the Structures tab`));
    await page.getByTestId('sar-endpoint').waitFor();
    await screenshot(page, 'collection-search-sar-view');
  }, 120_000);

  it('Search lands on its results, Analyzers on the analyzers of its Structures tab', async () => {
    await page.goto(`/workspace/collections/${collectionId}`);
    await page.getByTestId('collection-results').click();
    await page.waitForURL('**/results/structuretab', { timeout: 60_000 });
    const results = new ResultsPage(page);
    await results.waitForRows();
    expect(await results.tabCount('structuretab')).toBe(members.length);

    await page.goto(`/workspace/collections/${collectionId}`);
    await page.getByTestId('collection-analyzers').click();
    await page.waitForURL('**/analyzers/structuretab', { timeout: 60_000 });
    await page.getByTestId('analyzer-summary').waitFor({ timeout: 30_000 });
  }, 120_000);
});
