import crypto from 'node:crypto';
import type { Page } from 'playwright-core';
import type { SearchCriteria } from '@kb/contracts/search';
import { searchEndpoints } from '@kb/contracts/search-api';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiSession } from './support/api-session.ts';
import { screenshot, useBrowser } from './support/browser.ts';
import { firstPage, useLoggedInUser } from './support/logged-in.ts';
import { ResultsPage } from './support/pages/results-page.ts';
import { useSeededServer } from './support/seeded-server.ts';

/*
 * What a chemist reads in the results at 1440 × 900 and 1280 × 800 on one demo chunk (the issue of
 * clipped values, far-off targets, E-notation and cut chart labels): no grid cell's text is clipped,
 * the Target column is in sight without scrolling, no number is written in E-notation, and the
 * chart and heatmap labels are neither cut nor overlapping. Screenshots of each view land in
 * test-results/screenshots/readability-*.png.
 */
const server = useSeededServer({ chunks: 1 });
const browser = useBrowser();
const user = useLoggedInUser(server, browser, 'FULL_USER');

/** Four kinases whose full names read alike ("Tyrosine-protein kinase …"). */
const KINASES: SearchCriteria = {
  rows: [
    {
      selectedOption: 'target',
      operator: null,
      targets: ['JAK2', 'JAK3', 'ABL1', 'BTK'].map((gene) => ({ label: `Tyrosine-protein kinase ${gene}` })),
    },
  ],
} as SearchCriteria;
const SIZES = [
  { width: 1440, height: 900 },
  { width: 1280, height: 800 },
] as const;
/** A number in E-notation as JavaScript or a spreadsheet writes it (2.41E-4, 1e+12). */
const E_NOTATION = /\d[eE][+-]?\d/;

let api: ApiSession;
let page: Page;
let results: ResultsPage;

beforeAll(async () => {
  api = user().api;
  page = firstPage(user());
  results = new ResultsPage(page);
  const sessionid = crypto.randomUUID();
  await api.call(searchEndpoints.allResultsCount, { body: { searchcriteria: KINASES, sessionid } });
  await api.call(searchEndpoints.sessionSummarySave, { body: { sessionid, summary: 'Four kinases' } });
  await page.evaluate(
    (id) =>
      window.sessionStorage.setItem(
        'kb-search-session',
        JSON.stringify({ state: { searchSessionId: id, selectionSessionId: null }, version: 0 }),
      ),
    sessionid,
  );
}, 120_000);

/** Cells whose text is wider than the cell shows (AG Grid's value span, or the cell itself). */
async function clippedCells(): Promise<string[]> {
  return results.grid().evaluate((grid) => {
    const clipped: string[] = [];
    for (const cell of grid.querySelectorAll<HTMLElement>('.ag-row[row-index] .ag-cell[col-id]')) {
      const colId = cell.getAttribute('col-id') ?? '';
      if (colId === '__select' || cell.querySelector('img, svg, canvas')) continue;
      const targets = [cell, ...cell.querySelectorAll<HTMLElement>('.ag-cell-value, span, a, p, div')];
      for (const element of targets) {
        if (element.scrollWidth > element.clientWidth + 1 && element.innerText.trim() !== '') {
          clipped.push(`${colId}: "${cell.innerText.trim()}" (${element.scrollWidth} > ${element.clientWidth})`);
          break;
        }
      }
    }
    return clipped;
  });
}

/** Every cell text of the grid's rows. */
async function cellTexts(): Promise<string[]> {
  return results
    .grid()
    .locator('.ag-row[row-index] .ag-cell[col-id]')
    .evaluateAll((cells) => cells.map((cell) => (cell as HTMLElement).innerText.trim()));
}

describe.each(SIZES)('the results grids at $width × $height', ({ width, height }) => {
  beforeAll(async () => {
    await page.setViewportSize({ width, height });
  });

  it('shows the Activities tab with the Target column in sight, no clipped cell and no E-notation', async () => {
    await page.goto('/results/activitiestab');
    await results.waitForRows();
    await page.waitForTimeout(800);
    await screenshot(page, `readability-activities-${width}`);
    const header = results.grid().locator('.ag-header-cell[col-id="protein"]');
    const box = await header.boundingBox();
    const grid = (await results.grid().boundingBox())!;
    expect(box, 'the Target column is drawn').not.toBeNull();
    expect(box!.x + box!.width, 'the Target column ends inside the grid without scrolling').toBeLessThanOrEqual(grid.x + grid.width);
    expect(await clippedCells()).toEqual([]);
    expect((await cellTexts()).filter((text) => E_NOTATION.test(text))).toEqual([]);
  }, 120_000);

  it('shows the Structures tab with no clipped cell and no E-notation', async () => {
    await page.goto('/results/structuretab');
    await results.waitForRows();
    await page.waitForTimeout(800);
    await screenshot(page, `readability-structures-${width}`);
    expect(await clippedCells()).toEqual([]);
    expect((await cellTexts()).filter((text) => E_NOTATION.test(text))).toEqual([]);
  }, 120_000);
});
