import type { Page } from 'playwright-core';
import { RESULT_TABS } from '@kb/contracts/result-tabs';
import type { ResultTabKey } from '@kb/contracts/result-tabs';
import { resultsEndpoints } from '@kb/contracts/results';
import type { SearchCounts, SearchCriteria, SearchRow } from '@kb/contracts/search';
import { searchEndpoints } from '@kb/contracts/search-api';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiSession } from './support/api-session.ts';
import { screenshot, useBrowser } from './support/browser.ts';
import { firstPage, useLoggedInUser } from './support/logged-in.ts';
import { ResultsPage } from './support/pages/results-page.ts';
import { SearchPage } from './support/pages/search-page.ts';
import { useSeededServer } from './support/seeded-server.ts';

/*
 * The structure filter inside results (docs/results.md "Structure filter"): applied from the
 * results page, it must narrow every tab's count exactly as a new search with the same structure
 * row ANDed (include) or NOTed (exclude) would — computed here by the count call of the API.
 */
const server = useSeededServer({ chunks: 1 });
const browser = useBrowser();
const user = useLoggedInUser(server, browser, 'FULL_USER');

let api: ApiSession;
let page: Page;
let results: ResultsPage;
let searched: SearchCriteria;
let unfiltered: Record<ResultTabKey, number>;

const PYRIDINE = 'c1ccncc1';
const TAB_COUNT: Record<ResultTabKey, Exclude<keyof SearchCounts, 'gvkidscount'>> = {
  structuretab: 'stridscount',
  activitiestab: 'actidscount',
  assaytab: 'assayidscount',
  developmentcompoundstab: 'clinicalcompoundidscount',
  documentstab: 'refidscount',
};

/** The five tab counts of a plain search with a structure row joined to the searched rows by `join`. */
async function plainSearchCounts(join: 'AND' | 'NOT'): Promise<Record<ResultTabKey, number>> {
  const rows = searched.rows.map((row, i) => (i === searched.rows.length - 1 ? { ...row, operator: join } : row)) as SearchRow[];
  const structure = {
    selectedOption: 'structure',
    operator: null,
    fileName: null,
    structure: { inputType: 'smiles', value: PYRIDINE, category: 'substructure', feature: 'desalted' },
  } as SearchRow;
  const answer = await api.call(searchEndpoints.count, { body: { searchcriteria: { rows: [...rows, structure] } } });
  const counts = answer.rows[0]!;
  return Object.fromEntries(RESULT_TABS.map((tab) => [tab.key, counts[TAB_COUNT[tab.key]]])) as Record<ResultTabKey, number>;
}

async function shownTabCounts(): Promise<Record<ResultTabKey, number>> {
  const entries: [ResultTabKey, number][] = [];
  for (const tab of RESULT_TABS) entries.push([tab.key, await results.tabCount(tab.key)]);
  return Object.fromEntries(entries) as Record<ResultTabKey, number>;
}

async function applyFilter(mode: 'Keep structures that match' | 'Leave out structures that match') {
  const modal = page.getByTestId('structure-filter-modal');
  await modal.getByText(mode, { exact: true }).click();
  await modal.getByRole('textbox', { name: 'SMILES' }).fill(PYRIDINE);
  await modal.getByTestId('structure-filter-apply').click();
  await modal.waitFor({ state: 'hidden', timeout: 60_000 });
}

beforeAll(() => {
  api = user().api;
  page = firstPage(user());
  results = new ResultsPage(page);
});

describe('the structure filter inside results', () => {
  it('narrows all five tabs exactly as the search with the structure row ANDed', async () => {
    const search = new SearchPage(page);
    await search.openSearch();
    const assay = await search.addRow('Add Assay row');
    await assay.getByLabel('Binding', { exact: true }).check();
    searched = (await search.search()).criteria;
    await page.getByRole('link', { name: 'View results' }).click();
    await page.waitForURL((url) => url.pathname === '/results/structuretab');
    await results.waitForRows();
    unfiltered = await shownTabCounts();
    const before = (await results.sessionIds()).searchSessionId;

    await page.getByTestId('structure-filter-open').click();
    await applyFilter('Keep structures that match');
    await page.getByTestId('structure-filter-summary').getByText(`Structures containing ${PYRIDINE}`).waitFor();
    const expected = await plainSearchCounts('AND');
    await expect.poll(shownTabCounts, { timeout: 30_000 }).toEqual(expected);
    expect(expected.structuretab).toBeGreaterThan(0);
    expect(expected.structuretab).toBeLessThan(unfiltered.structuretab);
    // A session of its own, whose criteria carry the filter as their last row.
    const sessionid = (await results.sessionIds()).searchSessionId!;
    expect(sessionid).not.toBe(before);
    const session = await api.call(resultsEndpoints.session, { params: { sessionid } });
    expect(session.searchcriteria?.rows.at(-1)).toMatchObject({ selectedOption: 'structure', resultFilter: true });
    await screenshot(page, 'structure-filter-include');
  });

  it('leaves out the matching structures exactly as the search with the row NOTed, and the two split the results', async () => {
    await page.getByRole('button', { name: 'Change' }).click();
    await applyFilter('Leave out structures that match');
    await page.getByTestId('structure-filter-summary').getByText(`Leaving out structures containing ${PYRIDINE}`).waitFor();
    const expected = await plainSearchCounts('NOT');
    await expect.poll(shownTabCounts, { timeout: 30_000 }).toEqual(expected);
    const kept = await plainSearchCounts('AND');
    expect(kept.structuretab + expected.structuretab).toBe(unfiltered.structuretab);
  });

  it('is removed in one click: every tab counts as before', async () => {
    await page.getByTestId('structure-filter-remove').click();
    await page.getByTestId('structure-filter-open').waitFor({ timeout: 60_000 });
    await expect.poll(shownTabCounts, { timeout: 30_000 }).toEqual(unfiltered);
  });

  it('says what is wrong with an unreadable SMILES and keeps the results', async () => {
    await page.getByTestId('structure-filter-open').click();
    const modal = page.getByTestId('structure-filter-modal');
    await modal.getByRole('textbox', { name: 'SMILES' }).fill('c1ccc(');
    await modal.getByTestId('structure-filter-apply').click();
    await modal.getByTestId('structure-filter-error').waitFor({ timeout: 30_000 });
    expect(await modal.getByTestId('structure-filter-error').innerText()).toMatch(/SMILES|parenthes/i);
    await modal.getByRole('button', { name: 'Cancel' }).click();
    expect(await shownTabCounts()).toEqual(unfiltered);
  });
});
