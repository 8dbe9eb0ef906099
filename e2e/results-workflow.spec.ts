import crypto from 'node:crypto';
import type { Locator, Page } from 'playwright-core';
import { resultsEndpoints } from '@kb/contracts/results';
import type { SearchCriteria } from '@kb/contracts/search';
import { searchEndpoints } from '@kb/contracts/search-api';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiSession } from './support/api-session.ts';
import { screenshot, useBrowser } from './support/browser.ts';
import { firstPage, useLoggedInUser } from './support/logged-in.ts';
import { ResultsPage } from './support/pages/results-page.ts';
import { useSeededServer } from './support/seeded-server.ts';

/*
 * The daily workflow in the results grids (issue 14) at 1440 × 900 against a server with one demo
 * chunk: how many activity rows a screen shows, the potency columns in sight, the density choice,
 * pinned columns, similarity searches sorted by their score, substructure matches highlighted in
 * the grid and the leaflet, and ticking a half-visible row. Searches run through the API as the
 * same user; the browser opens their results as the search page's "View results" does.
 */
const server = useSeededServer({ chunks: 1 });
const browser = useBrowser();
const user = useLoggedInUser(server, browser, 'FULL_USER');

let api: ApiSession;
let page: Page;
let results: ResultsPage;

/** RDKit's highlight colours: the orange of large drawings ([1, 0.55, 0.1]) and the light one of compact grid drawings ([1, 0.82, 0.6]). */
const HIGHLIGHT = /#FF8C19/i;
const LIGHT_HIGHLIGHT = /#FFD199/i;
const POTENCY = ['std_activity_type', 'std_act_prefix', 'activity_value', 'standard_uom', 'pchembl_value'];

/** Runs a search through the API and opens its results in the browser's tab. */
async function openResultsOf(criteria: SearchCriteria, tab: string): Promise<string> {
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
  await results.waitForRows();
  return sessionid;
}

/** Scrolls the page until the grid's top is just under the app's header, as a user scrolling down to it. */
async function scrollGridIntoView(): Promise<void> {
  await results.grid().evaluate((grid) => {
    const appHeader = document.querySelector('header')?.getBoundingClientRect().bottom ?? 0;
    window.scrollBy(0, grid.getBoundingClientRect().top - appHeader - 4);
  });
}

/**
 * Rows drawn entirely inside the grid's scrolling viewport (below its header, above its
 * horizontal scroll bar) and inside the window. AG Grid 36 draws one `.ag-row` per row, its pinned
 * cells sticking to the left.
 */
async function fullyVisibleRows(): Promise<number> {
  return results.grid().evaluate((grid) => {
    const viewport = grid.querySelector<HTMLElement>('.ag-grid-viewport')!;
    const box = viewport.getBoundingClientRect();
    const header = grid.querySelector('.ag-header')!.getBoundingClientRect();
    const appHeader = document.querySelector('header')?.getBoundingClientRect().bottom ?? 0;
    const top = Math.max(box.top, header.bottom, appHeader);
    // AG Grid's horizontal scroll bar lies over the last pixels of the viewport.
    const scrollBar = grid.querySelector('.ag-body-horizontal-scroll')!.getBoundingClientRect();
    const bottom = Math.min(box.top + viewport.clientHeight, scrollBar.height > 0 ? scrollBar.top : Infinity, window.innerHeight);
    const rows = [...grid.querySelectorAll('.ag-grid-scrolling-rows .ag-row[row-index]')];
    const visible = new Set(
      rows
        .filter((row) => {
          const rect = row.getBoundingClientRect();
          return rect.height > 0 && rect.top >= top - 0.5 && rect.bottom <= bottom + 0.5;
        })
        .map((row) => row.getAttribute('row-index')),
    );
    return visible.size;
  });
}

function headerCell(colId: string): Locator {
  return results.grid().locator(`.ag-header-cell[col-id="${colId}"]`);
}

async function leftOf(colId: string): Promise<number> {
  return (await headerCell(colId).boundingBox())!.x;
}

async function firstRowHeight(): Promise<number> {
  return (await results.grid().locator('.ag-row[row-index="0"]').first().boundingBox())!.height;
}

/** How far the grid is scrolled sideways. */
async function scrollLeft(): Promise<number> {
  return results
    .grid()
    .locator('.ag-grid-viewport')
    .evaluate((viewport) => viewport.scrollLeft);
}

/** The cell texts of one column, top to bottom. */
async function columnTexts(colId: string): Promise<string[]> {
  return results
    .grid()
    .locator(`.ag-row[row-index] .ag-cell[col-id="${colId}"]`)
    .evaluateAll((cells) =>
      cells
        .map((cell) => ({
          index: Number(cell.closest('.ag-row')!.getAttribute('row-index')),
          text: (cell as HTMLElement).innerText.trim(),
        }))
        .sort((a, b) => a.index - b.index)
        .map((cell) => cell.text),
    );
}

/** Saves what the window shows now (the screenshot helper's full page, and this screen of it). */
async function screenView(name: string): Promise<void> {
  const file = await screenshot(page, name);
  await page.screenshot({ path: file.replace(/\.png$/, '-screen.png') });
}

/** The SVG an <img> of a drawing shows (a blob URL of the server's depiction). */
async function drawingOf(image: Locator): Promise<string> {
  await expect.poll(() => image.getAttribute('src'), { timeout: 30_000 }).toMatch(/^blob:/);
  return image.evaluate(async (img) => (await fetch((img as HTMLImageElement).src)).text());
}

beforeAll(async () => {
  api = user().api;
  page = firstPage(user());
  await page.setViewportSize({ width: 1440, height: 900 });
  results = new ResultsPage(page);
});

describe('the Activities grid at 1440 × 900', () => {
  beforeAll(async () => {
    await openResultsOf({ rows: [{ selectedOption: 'assay', operator: null, fileName: null, assayTypes: ['binding'] }] }, 'activitiestab');
  }, 120_000);

  it('shows at least 12 whole rows on a screen, compact by default, with the potency in sight', async () => {
    expect(await results.grid().getAttribute('data-density')).toBe('compact');
    await scrollGridIntoView();
    expect(await fullyVisibleRows()).toBeGreaterThanOrEqual(12);

    // Type, relation, value, unit and pActivity lie inside the grid's visible width, unscrolled.
    expect(await scrollLeft()).toBe(0);
    const right = await results
      .grid()
      .locator('.ag-grid-viewport')
      .evaluate((viewport) => Math.min(viewport.getBoundingClientRect().left + viewport.clientWidth, window.innerWidth));
    for (const colId of POTENCY) {
      const box = (await headerCell(colId).boundingBox())!;
      expect(box.width, colId).toBeGreaterThan(30);
      expect(box.x + box.width, colId).toBeLessThanOrEqual(right + 1);
    }
    // Every drawn structure is a picture the server made, not a placeholder.
    await expect.poll(() => results.grid().getByTestId('structure-image').count(), { timeout: 30_000 }).toBeGreaterThan(10);
    await screenView('results-workflow-activities-compact');
  });

  it('changes the row height with the density choice, and keeps the choice', async () => {
    const compact = await firstRowHeight();
    await page.getByTestId('grid-density').getByText('Comfortable', { exact: true }).click();
    await expect.poll(() => results.grid().getAttribute('data-density')).toBe('comfortable');
    await expect.poll(() => firstRowHeight()).toBeGreaterThan(compact + 40);
    const image = results.grid().getByTestId('structure-image').first();
    await expect.poll(async () => (await image.boundingBox())?.height ?? 0, { timeout: 30_000 }).toBeGreaterThan(100);
    await scrollGridIntoView();
    await screenView('results-workflow-activities-comfortable');

    await page.reload();
    await results.waitForRows();
    expect(await results.grid().getAttribute('data-density')).toBe('comfortable');
    await page.getByTestId('grid-density').getByText('Compact', { exact: true }).click();
    await expect.poll(() => firstRowHeight()).toBe(compact);
  });

  it('keeps the structure id and drawing pinned on the left while the others (the activity id too) scroll sideways', async () => {
    const pinned = ['str_id', 'smiles'];
    const before = Object.fromEntries(
      await Promise.all([...pinned, 'pchembl_value'].map(async (colId) => [colId, await leftOf(colId)] as const)),
    );
    await scrollGridIntoView();
    const viewport = (await results.grid().locator('.ag-grid-viewport').boundingBox())!;
    await page.mouse.move(viewport.x + viewport.width / 2, viewport.y + 100);
    await page.mouse.wheel(600, 0);
    await expect.poll(() => scrollLeft()).toBeGreaterThan(100);
    for (const colId of pinned) expect(await leftOf(colId), colId).toBeCloseTo(before[colId]!, 0);
    expect(await leftOf('pchembl_value')).toBeLessThan(before.pchembl_value! - 100);
    // The pinned cells of a row stay in place too, beside its scrolled cells.
    const cell = results.grid().locator('.ag-row[row-index="0"] .ag-cell[col-id="str_id"]');
    expect((await cell.boundingBox())!.x).toBeCloseTo(before.str_id!, 0);
    expect(await cell.innerText()).toMatch(/^\d+$/);
    await page.mouse.wheel(-600, 0);
    await expect.poll(() => scrollLeft()).toBe(0);
  });

  it('ticks a row that is half out of sight at the bottom of the grid in one click', async () => {
    await scrollGridIntoView();
    expect(await results.selectedCount()).toBe(0);
    // Scroll the grid so that a row is cut by its bottom edge, about two thirds in sight.
    const target = await results.grid().evaluate((grid) => {
      const viewport = grid.querySelector<HTMLElement>('.ag-grid-viewport')!;
      const height = grid.querySelector('.ag-row[row-index="0"]')!.getBoundingClientRect().height;
      const header = grid.querySelector('.ag-header')!.getBoundingClientRect();
      const shown = grid.querySelector('.ag-body-horizontal-scroll')!.getBoundingClientRect().top - header.bottom;
      const index = Math.floor(shown / height) + 2;
      viewport.scrollTop = (index + 0.7) * height - shown;
      return index;
    });
    const row = results.grid().locator(`.ag-row[row-index="${target}"]`);
    const box = row.getByTestId('row-select');
    // Where the rows end on screen: above AG Grid's horizontal scroll bar, which lies over the viewport.
    const bottom = (await results.grid().locator('.ag-body-horizontal-scroll').boundingBox())!.y;
    await expect
      .poll(async () => {
        const r = (await row.boundingBox())!;
        return r.y + r.height;
      })
      .toBeGreaterThan(bottom + 5);
    expect((await row.boundingBox())!.y).toBeLessThan(bottom - 20);
    // A click on the row's sliver in sight, in its tick-box cell but beside the 16 px box.
    const cell = (await row.locator(`.ag-cell[col-id="__select"]`).boundingBox())!;
    const tick = (await box.boundingBox())!;
    expect(cell.x + 6).toBeLessThan(tick.x);
    await page.mouse.click(cell.x + 6, bottom - 3);
    await expect.poll(() => results.selectedCount()).toBe(1);
    expect(await box.isChecked()).toBe(true);
    await page.getByTestId('selection-toolbar').getByRole('button', { name: 'Clear' }).click();
  });

  it('ticks a row that is half out of sight at the bottom of the window in one click', async () => {
    await page.evaluate(() => window.scrollTo(0, 0));
    await results
      .grid()
      .locator('.ag-grid-viewport')
      .evaluate((viewport) => {
        viewport.scrollTop = 0;
      });
    // Scroll the page so that the window's bottom edge cuts a row through its tick box (a row
    // the grid itself shows whole, lower down than the window reaches).
    const target = await results.grid().evaluate((grid) => {
      const gridBottom = grid.querySelector('.ag-body-horizontal-scroll')!.getBoundingClientRect().top;
      const row = [...grid.querySelectorAll('.ag-row[row-index]')].find((candidate) => {
        const box = candidate.querySelector('[data-testid="row-select"]')!.getBoundingClientRect();
        return box.top > window.innerHeight && box.bottom < gridBottom;
      })!;
      const box = row.querySelector('[data-testid="row-select"]')!.getBoundingClientRect();
      window.scrollBy(0, box.top - (window.innerHeight - 8));
      return Number(row.getAttribute('row-index'));
    });
    const box = results.grid().locator(`.ag-row[row-index="${target}"]`).getByTestId('row-select');
    const cell = (await results.grid().locator(`.ag-row[row-index="${target}"] .ag-cell[col-id="__select"]`).boundingBox())!;
    const before = await results.selectedCount();
    // The box's top half is in sight; the click lands beside it, on the window's last pixels.
    await page.mouse.click(cell.x + 6, 900 - 2);
    await expect.poll(() => results.selectedCount()).toBe(before + 1);
    expect(await box.isChecked()).toBe(true);
    await page.getByTestId('selection-toolbar').getByRole('button', { name: 'Clear' }).click();
  });
});

describe('structure searches in the grids', () => {
  let probeSmiles: string;

  beforeAll(async () => {
    const sessionid = crypto.randomUUID();
    await api.call(searchEndpoints.allResultsCount, {
      body: { searchcriteria: { rows: [{ selectedOption: 'assay', operator: null, fileName: null, assayTypes: ['binding'] }] }, sessionid },
    });
    const first = await api.call(resultsEndpoints.tabRows, {
      params: { tab: 'structuretab' },
      body: { sessionid, pageNumber: 0, pageSize: 10, sortOrder: null },
    });
    probeSmiles = String(first.data[0]!.smiles);
  }, 120_000);

  it('shows the score of a similarity search and sorts by it, most similar first', async () => {
    const sessionid = await openResultsOf(
      {
        rows: [
          {
            selectedOption: 'structure',
            operator: null,
            structure: { inputType: 'smiles', value: probeSmiles, category: 'similarity', similarityMin: 0.3, feature: 'desalted' },
          },
        ],
      },
      'structuretab',
    );
    expect(await results.columnIds()).toContain('similarity');
    expect(await headerCell('similarity').getAttribute('aria-sort')).toBe('descending');
    // The score is in sight beside the structure, without scrolling sideways.
    const score = (await headerCell('similarity').boundingBox())!;
    const viewport = (await results.grid().locator('.ag-grid-viewport').boundingBox())!;
    expect(score.x + score.width).toBeLessThanOrEqual(viewport.x + viewport.width);
    const scores = (await columnTexts('similarity')).map(Number);
    expect(scores.length).toBeGreaterThan(1);
    expect(scores[0]).toBe(1);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    const expected = await api.call(resultsEndpoints.tabRows, {
      params: { tab: 'structuretab' },
      body: { sessionid, pageNumber: 0, pageSize: 25, sortOrder: null },
    });
    expect(await results.rowIds()).toEqual(expected.data.map((row) => Number(row.str_id)));
    await screenshot(page, 'results-workflow-similarity');

    // The activities of the search are in the same order: their structure's score, descending.
    await results.openTab('activitiestab');
    await results.waitForRows();
    expect(await results.columnIds()).toContain('similarity');
    const activityScores = (await columnTexts('similarity')).map(Number);
    expect(activityScores[0]).toBe(1);
    expect(activityScores).toEqual([...activityScores].sort((a, b) => b - a));
  });

  it('highlights the match of a substructure search in the Structures grid and the compound leaflet', async () => {
    const ring = 'c1ccccc1';
    const highlighted = page.waitForRequest((request) => new URL(request.url()).searchParams.get('highlight') === ring, {
      timeout: 30_000,
    });
    await openResultsOf(
      {
        rows: [
          {
            selectedOption: 'structure',
            operator: null,
            structure: { inputType: 'smiles', value: ring, category: 'substructure', feature: 'desalted' },
          },
        ],
      },
      'structuretab',
    );
    await highlighted;
    const image = results.grid().getByTestId('structure-image').first();
    const compact = await drawingOf(image);
    expect(compact).toMatch(LIGHT_HIGHLIGHT);
    expect(compact).not.toMatch(HIGHLIGHT);
    await screenshot(page, 'results-workflow-substructure');

    const [strId] = await results.rowIds();
    await results.grid().getByTestId('structure-link').first().click();
    await page.waitForURL((url) => url.pathname === `/leaflet/structure/${strId}` && url.searchParams.get('highlight') === ring);
    const leafletImage = page.getByTestId('leaflet-structure').getByTestId('structure-image');
    expect(await drawingOf(leafletImage)).toMatch(HIGHLIGHT);
    await page.getByTestId('leaflet-highlight-note').waitFor();
    await screenshot(page, 'results-workflow-leaflet-highlight');

    // Without the search's query the same leaflet draws the structure plain.
    await page.goto(`/leaflet/structure/${strId}`);
    expect(await drawingOf(page.getByTestId('leaflet-structure').getByTestId('structure-image'))).not.toMatch(HIGHLIGHT);
  });
});
