import crypto from 'node:crypto';
import type { BrowserContext, Page } from 'playwright-core';
import type { ResultTabKey } from '@kb/contracts/result-tabs';
import { RESULT_TABS, tabInfo } from '@kb/contracts/result-tabs';
import type { ResultRow, SortOrder } from '@kb/contracts/results';
import { resultsEndpoints } from '@kb/contracts/results';
import { leafletEndpoints } from '@kb/contracts/leaflets';
import type { SearchCounts } from '@kb/contracts/search';
import { searchEndpoints } from '@kb/contracts/search-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiSession } from './support/api-session.ts';
import { screenshot, useBrowser } from './support/browser.ts';
import { firstPage, useLoggedInUser } from './support/logged-in.ts';
import type { HeaderCounts } from './support/pages/results-page.ts';
import { ResultsPage } from './support/pages/results-page.ts';
import { SearchPage } from './support/pages/search-page.ts';
import { useSeededServer } from './support/seeded-server.ts';

/*
 * The results workspace against a server with one demo chunk (1,000 structures, ~11,000
 * activities). One search runs through the search page; the tests then work in its results in
 * order, in one browser tab, comparing what the grid shows with what the API answers for the same
 * session and parameters.
 */
const server = useSeededServer({ chunks: 1 });
const browser = useBrowser();
const user = useLoggedInUser(server, browser, 'FULL_USER');

let api: ApiSession;
let context: BrowserContext;
let page: Page;
let results: ResultsPage;
let sessionid: string;

/** Rows of a page as the grid asks for them at first (tab-state GRID_PAGE_SIZE). */
const PAGE = 25;

/** A column each tab is sorted by in the test (sortable on the server). */
const SORT_COLUMN: Record<ResultTabKey, string> = {
  structuretab: 'mol_weight',
  activitiestab: 'activity_value',
  assaytab: 'assay_type',
  developmentcompoundstab: 'drug_name',
  documentstab: 'year',
};

function idsOf(tab: ResultTabKey, rows: ResultRow[]): number[] {
  const idColumn = tabInfo(tab)!.idColumn;
  return rows.map((row) => Number(row[idColumn]));
}

/** One page of a tab as the API answers it for the browser's session. */
async function apiPage(tab: ResultTabKey, options: { pageNumber?: number; sortOrder?: SortOrder; extra?: Record<string, unknown> } = {}) {
  return api.call(resultsEndpoints.tabRows, {
    params: { tab },
    body: { sessionid, pageNumber: options.pageNumber ?? 0, pageSize: PAGE, sortOrder: options.sortOrder ?? null, ...options.extra },
  });
}

function figures(counts: SearchCounts): HeaderCounts {
  return {
    structures: counts.stridscount,
    compounds: counts.gvkidscount,
    activities: counts.actidscount,
    assays: counts.assayidscount,
    references: counts.refidscount,
    clinicalCompounds: counts.clinicalcompoundidscount,
  };
}

/** The API's error message of a failing call (ApiSession throws "… answered 400: {json}"). */
async function apiErrorMessage(call: Promise<unknown>): Promise<string> {
  try {
    await call;
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    return (JSON.parse(text.slice(text.indexOf('{'))) as { message: string }).message;
  }
  throw new Error('The call was expected to fail');
}

beforeAll(() => {
  ({ api, context } = user());
  page = firstPage(user());
  results = new ResultsPage(page);
});

describe('the results of a search', () => {
  it('opens from the search page with the counts of the search', async () => {
    const search = new SearchPage(page);
    await search.openSearch();
    const assay = await search.addRow('Add Assay row');
    await assay.getByLabel('Binding', { exact: true }).check();
    await search.search();
    const shown = await search.searchCounts();
    expect(shown.structures).toBeGreaterThan(PAGE);

    await page.getByRole('link', { name: 'View results' }).click();
    await page.waitForURL((url) => url.pathname === '/results/structuretab');
    await results.waitForRows();
    sessionid = (await results.sessionIds()).searchSessionId!;
    expect(await results.headerCounts()).toEqual(shown);
    const session = await api.call(resultsEndpoints.session, { params: { sessionid } });
    for (const tab of RESULT_TABS) expect(await results.tabCount(tab.key), `${tab.label} tab count`).toBe(session.tabCounts[tab.key]);
    await screenshot(page, 'results-structures');
  });

  it('shows a quick view of a structure: its knowledge-base row and whether it is in development', async () => {
    await results.openTab('structuretab');
    await results.waitForRows();
    const strId = (await results.rowIds())[0]!;
    await page.getByRole('button', { name: `Quick view of structure ${strId}`, exact: true }).click();
    const panel = page.getByTestId('structure-quick-view-panel');
    await panel.getByText(`Structure ${strId}`, { exact: true }).waitFor();
    const view = await api.call(resultsEndpoints.tabularView, { params: { id: strId } });
    const dcm = await api.call(leafletEndpoints.findDcmOrNot, { params: { id: strId } });
    await panel.getByText(String(view.row.mol_formula), { exact: true }).waitFor();
    expect(await panel.getByText(dcm.isDcm ? 'Development compound' : 'Not in development', { exact: true }).count()).toBe(1);
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'hidden' });
  });

  it('pages and sorts every tab on the server', async () => {
    const session = await api.call(resultsEndpoints.session, { params: { sessionid } });
    for (const { key: tab, label } of RESULT_TABS) {
      await results.openTab(tab);
      const rowCount = session.tabCounts[tab] ?? 0;
      if (rowCount === 0) {
        // Spec §4: the server answers 204 and the tab is emptied.
        await results.tabPanel().getByText('No rows in this tab').waitFor();
        continue;
      }
      const first = await apiPage(tab);
      await expect.poll(() => results.rowIds(), { message: `${label}: first page`, timeout: 20_000 }).toEqual(idsOf(tab, first.data));
      expect(await results.pageRange()).toBe(`Rows 1–${Math.min(PAGE, rowCount)} of ${rowCount.toLocaleString('en-US')}`);

      if (rowCount > PAGE) {
        await results.goToPage('Next page');
        const second = await apiPage(tab, { pageNumber: 1 });
        await expect.poll(() => results.rowIds(), { message: `${label}: second page`, timeout: 20_000 }).toEqual(idsOf(tab, second.data));
      }

      // A header click sorts the whole tab on the server and starts again from the first page.
      const column = SORT_COLUMN[tab];
      await results.clickHeader(column);
      const ascending = await apiPage(tab, { sortOrder: { column, direction: 'asc' } });
      await expect
        .poll(() => results.rowIds(), { message: `${label}: sorted by ${column} ascending`, timeout: 20_000 })
        .toEqual(idsOf(tab, ascending.data));
      await results.clickHeader(column);
      const descending = await apiPage(tab, { sortOrder: { column, direction: 'desc' } });
      await expect
        .poll(() => results.rowIds(), { message: `${label}: sorted by ${column} descending`, timeout: 20_000 })
        .toEqual(idsOf(tab, descending.data));
      expect(idsOf(tab, descending.data)).not.toEqual(idsOf(tab, ascending.data));
    }
  });

  it('keeps the rows on screen with a note when a tab fails to refresh (spec §8)', async () => {
    await results.openTab('structuretab');
    await results.waitForRows();
    const before = await results.rowIds();
    await page.route(`**${resultsEndpoints.tabRows.path.replace(':tab', 'structuretab')}`, (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ message: 'boom', code: 'X' }) }),
    );
    try {
      await results.setPageSize(50);
      await page.getByTestId('refresh-failed').waitFor();
      expect(await results.rowIds()).toEqual(before);
    } finally {
      await page.unrouteAll();
    }
    await results.setPageSize(PAGE);
    await results.waitForRows();
  });

  it('shows a hidden column, and keeps the choice across tabs', async () => {
    expect(await results.columnIds()).not.toContain('pka_value');
    await results.showColumn('pKa');
    await expect.poll(() => results.columnIds()).toContain('pka_value');
    await results.openTab('documentstab');
    await results.openTab('structuretab');
    await results.waitForRows();
    expect(await results.columnIds()).toContain('pka_value');
    expect(await results.grid().getByTestId('structure-image').count()).toBeGreaterThan(0);

    // "Reset columns" asks the server for the defaults again and drops the choice.
    await page.getByTestId('column-chooser').click();
    await page.getByRole('button', { name: 'Reset columns' }).click();
    await expect.poll(() => results.columnIds()).not.toContain('pka_value');
    await page.keyboard.press('Escape');
  });

  it("sorts by similarity to a SMILES, keeping a refused SMILES with the server's message", async () => {
    const invalid = 'C1CC(';
    const expected = await apiErrorMessage(
      apiPage('structuretab', {
        sortOrder: { column: 'similarity', direction: 'desc' },
        extra: { sortSmiles: invalid, smilesSortCategory: 'similarity' },
      }),
    );
    await results.sortBySimilarity(invalid);
    // In the open form under the input, or beside the button once the form has closed.
    await page.getByText(expected, { exact: true }).filter({ visible: true }).first().waitFor();
    expect(await page.getByTestId('similarity-smiles').inputValue()).toBe(invalid);
    expect(await results.columnIds()).not.toContain('similarity');

    const smiles = String((await apiPage('structuretab')).data[3]?.smiles);
    await results.sortBySimilarity(smiles);
    const sorted = await apiPage('structuretab', {
      sortOrder: { column: 'similarity', direction: 'desc' },
      extra: { sortSmiles: smiles, smilesSortCategory: 'similarity', minValue: null, maxValue: null },
    });
    await expect.poll(() => results.rowIds(), { timeout: 20_000 }).toEqual(idsOf('structuretab', sorted.data));
    // Spec §4: sorting by similarity reveals the hidden similarity column.
    expect(await results.columnIds()).toContain('similarity');
    expect(sorted.data[0]?.similarity).toBe(1);

    await page.getByRole('button', { name: 'Stop sorting by similarity' }).click();
    await expect.poll(() => results.columnIds()).not.toContain('similarity');
  });

  it('goes from selected structures to their activities, and back to all activities', async () => {
    await results.waitForRows();
    const picked = [await results.selectRow(0), await results.selectRow(1)];
    expect(await results.selectedCount()).toBe(2);
    const expected = await api.call(resultsEndpoints.gotoTab, {
      body: { sessionid, fromTab: 'structuretab', toTab: 'activitiestab', ids: picked },
    });

    await page.getByTestId('goto-menu').click();
    await page.getByRole('menuitem', { name: 'Show activities of the selected rows' }).click();
    await page.waitForURL((url) => url.pathname === '/results/activitiestab');
    const banner = page.getByTestId('goto-banner');
    await banner.waitFor();
    expect(Number(await banner.getAttribute('data-structures'))).toBe(expected.strIdList.length);
    await expect.poll(() => results.pageRange(), { timeout: 20_000 }).toContain(`of ${expected.rowCount.toLocaleString('en-US')}`);
    // The tab keeps the sort it was left with (descending, from the paging test).
    const restricted = await apiPage('activitiestab', {
      sortOrder: { column: SORT_COLUMN.activitiestab, direction: 'desc' },
      extra: { strIdList: expected.strIdList },
    });
    await expect.poll(() => results.rowIds()).toEqual(idsOf('activitiestab', restricted.data));

    await banner.getByRole('button', { name: 'View all' }).click();
    await banner.waitFor({ state: 'detached' });
    const all = await results.tabCount('activitiestab');
    await expect.poll(() => results.pageRange(), { timeout: 20_000 }).toContain(`of ${all.toLocaleString('en-US')}`);
  });

  it('opens the inner grids of an activity', async () => {
    await results.waitForRows();
    await results.grid().getByTestId('open-details').first().click();
    const drawer = page.getByRole('dialog');
    await drawer.getByTestId('inner-grid').first().waitFor();
    expect(await drawer.getByRole('table').count()).toBeGreaterThan(0);
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'detached' });
  });

  it('lists every measurement behind an activity row: its compound on its target, the row among them', async () => {
    await results.waitForRows();
    const button = results.grid().getByTestId('open-measurements').first();
    const actId = Number(
      await button.locator('xpath=ancestor::div[contains(concat(" ", @class, " "), " ag-row ")]').getAttribute('row-id'),
    );
    expect(actId).toBeGreaterThan(0);
    const expected = await api.call(leafletEndpoints.measurements, {
      query: { idType: 'structure', actId, sort: 'value', direction: 'asc', page: 0, pageSize: 50 },
    });
    await button.click();
    const list = page.getByTestId('measurement-list');
    await list.waitFor({ timeout: 20_000 });
    expect(Number(await list.getAttribute('data-total'))).toBe(expected.total);
    const shown = await page.getByTestId('measurement-row').evaluateAll((trs) => trs.map((tr) => Number(tr.getAttribute('data-act-id'))));
    expect(shown).toEqual(expected.rows.map((r) => r.act_id));
    if (expected.total <= 50) expect(shown).toContain(actId);
    await page.keyboard.press('Escape');
    await list.waitFor({ state: 'detached' });
  });

  it('opens the compound leaflet from the structure column', async () => {
    await results.openTab('structuretab');
    await results.waitForRows();
    const [firstId] = await results.rowIds();
    const link = results.grid().getByTestId('structure-link').first();
    expect(await link.getAttribute('href')).toBe(`/leaflet/structure/${firstId}`);
    await link.click();
    await page.waitForURL((url) => url.pathname === `/leaflet/structure/${firstId}`);
    await page.goBack();
    await page.waitForURL((url) => url.pathname === '/results/structuretab');
    await results.waitForRows();
  });

  it('starts a new search by selection with the counts the API gives for the same selection, and can select again there', async () => {
    // The two structures ticked before are still selected.
    expect(await results.selectedCount()).toBe(2);
    const stored = await page.evaluate(() => window.sessionStorage.getItem('kb-results'));
    const selection = (
      JSON.parse(stored!) as {
        state: {
          scopes: {
            search: { tabs: { structuretab: { selection: { selectAll: boolean; selectedIds: number[]; unselectedIds: number[] } } } };
          };
        };
      }
    ).state.scopes.search.tabs.structuretab.selection;
    expect(selection.selectedIds).toHaveLength(2);
    const built = await api.call(resultsEndpoints.newSearchBy, { params: { tab: 'structuretab' }, body: { sessionid, selection } });
    const counts = await api.call(searchEndpoints.newSearchBySelectionCount, {
      body: { searchcriteria: built.searchcriteria, sessionid: crypto.randomUUID() },
    });

    await page.getByTestId('new-search-by-selection').click();
    await page.waitForURL((url) => url.pathname === '/new-search-results/structuretab', { timeout: 60_000 });
    // The URL changes a moment before the new page replaces the old one: wait for the new header.
    await expect.poll(() => results.headerCounts(), { timeout: 30_000 }).toEqual(figures(counts.rows[0]!));
    await results.waitForRows();
    expect(await results.tabCount('structuretab')).toBe(2);
    const ids = await results.sessionIds();
    expect(ids.selectionSessionId).not.toBe(sessionid);
    expect(ids.searchSessionId).toBe(sessionid);

    await results.openTab('activitiestab');
    await results.waitForRows();
    await results.selectAll();
    expect(await results.selectedCount()).toBe(await results.tabCount('activitiestab'));
    await screenshot(page, 'results-new-search-by-selection');
  });

  it('refuses a new search by selection without a selection, with the server message', async () => {
    await page.goto('/results/assaytab');
    await results.waitForRows();
    expect(await results.selectedCount()).toBe(0);
    const expected = await apiErrorMessage(
      api.call(resultsEndpoints.newSearchBy, {
        params: { tab: 'assaytab' },
        body: { sessionid, selection: { selectAll: false, selectedIds: [], unselectedIds: [] } },
      }),
    );
    await page.getByTestId('new-search-by-selection').click();
    await results.expectAlert(expected);
  });

  it('ticks and unticks a row from the keyboard', async () => {
    await results.grid().locator('.ag-row[row-index="0"] .ag-cell[col-id="assay_type"]').click();
    // Home: the row's first cell, the tick box (whatever the tab's column order).
    await page.keyboard.press('Home');
    await page.keyboard.press('Space');
    await expect.poll(() => results.selectedCount()).toBe(1);
    await page.keyboard.press('Enter');
    await expect.poll(() => results.selectedCount()).toBe(0);
  });
});

describe('results without a session to show', () => {
  it('points to the search when this tab never searched', async () => {
    // A new tab starts with empty session storage (the login comes back from local storage).
    const fresh = await context.newPage();
    try {
      await fresh.goto('/results');
      const empty = fresh.getByTestId('results-empty');
      await empty.waitFor();
      expect(await empty.getByRole('link', { name: 'Go to the search' }).getAttribute('href')).toBe('/search');
    } finally {
      await fresh.close();
    }
  });

  it("says the results are another user's and offers to run the search again", async () => {
    const other = await ApiSession.logIn(server().baseUrl, 'EVALUATE_USER');
    const foreign = crypto.randomUUID();
    await other.call(searchEndpoints.allResultsCount, {
      body: {
        searchcriteria: { rows: [{ selectedOption: 'assay', operator: null, fileName: null, assayTypes: ['binding'] }] },
        sessionid: foreign,
      },
    });
    await page.evaluate(
      (id) =>
        window.sessionStorage.setItem(
          'kb-search-session',
          JSON.stringify({ state: { searchSessionId: id, selectionSessionId: null }, version: 0 }),
        ),
      foreign,
    );
    await page.goto('/results/structuretab');
    const problem = page.getByTestId('session-problem');
    await problem.waitFor();
    expect(await problem.getAttribute('data-problem')).toBe('forbidden');
    expect(await problem.getByRole('button', { name: 'Run the search again' }).isVisible()).toBe(true);
  });
});
