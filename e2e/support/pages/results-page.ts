import type { Locator, Page } from 'playwright-core';
import type { ResultTabKey } from '@kb/contracts/result-tabs';
import { AppPage } from './app-page.ts';

/** The six counts of the results header, by the page's `data-count` keys. */
export type HeaderCounts = Record<'structures' | 'compounds' | 'activities' | 'assays' | 'references' | 'clinicalCompounds', number>;

/**
 * /results and /new-search-results: the header (`results-header`, counts as `data-count` /
 * `data-value`), one tab button per tab (`tab-<key>`), the AG Grid of the open tab
 * (`results-grid`, rows carry AG Grid's `row-id` and `row-index`), the pager and the tools above
 * the grid (selection toolbar, similarity sort, column chooser).
 */
export class ResultsPage extends AppPage {
  constructor(page: Page) {
    super(page);
  }

  workspace(): Locator {
    return this.page.getByTestId('results-workspace');
  }

  grid(): Locator {
    return this.page.getByTestId('results-grid');
  }

  /** The open tab's panel (its `data-tab` names it). */
  tabPanel(): Locator {
    return this.page.getByTestId('results-tab');
  }

  /** Waits until the open tab shows rows and is not fetching. */
  async waitForRows(timeout = 30_000): Promise<void> {
    await this.page.locator('[data-testid="results-grid"][aria-busy="false"] .ag-row[row-id]').first().waitFor({ timeout });
  }

  /** The ids of the rows on screen, top to bottom (AG Grid's row ids are the tab's id column). */
  async rowIds(): Promise<number[]> {
    return this.grid()
      .locator('.ag-row[row-id]')
      .evaluateAll((rows) =>
        rows
          .map((row) => ({ index: Number(row.getAttribute('row-index')), id: Number(row.getAttribute('row-id')) }))
          .sort((a, b) => a.index - b.index)
          .map((row) => row.id),
      );
  }

  /** The column ids of the grid's header, left to right. */
  async columnIds(): Promise<string[]> {
    return this.grid()
      .locator('.ag-header-cell[col-id]')
      .evaluateAll((cells) =>
        cells
          .map((cell) => ({ id: cell.getAttribute('col-id') ?? '', left: cell.getBoundingClientRect().left }))
          .sort((a, b) => a.left - b.left)
          .map((cell) => cell.id),
      );
  }

  /** "Rows 1–10 of 1,234" under the grid. */
  async pageRange(): Promise<string> {
    return this.page.getByTestId('page-range').innerText();
  }

  async openTab(tab: ResultTabKey): Promise<void> {
    await this.page.getByTestId(`tab-${tab}`).click();
    await this.page.locator(`[data-testid="results-tab"][data-tab="${tab}"]`).waitFor();
  }

  /** Rows of a tab as its tab button says ("Activities (1,234)" → 1234). */
  async tabCount(tab: ResultTabKey): Promise<number> {
    return Number(await this.page.getByTestId(`tab-${tab}`).getAttribute('data-count'));
  }

  async goToPage(name: 'Next page' | 'Previous page' | `Page ${number}`): Promise<void> {
    await this.page.getByTestId('pagination').getByRole('button', { name, exact: true }).click();
  }

  async setPageSize(size: number): Promise<void> {
    await this.page.getByLabel('Rows per page').selectOption(String(size));
  }

  /** Clicks a column header (AG Grid cycles ascending, descending, none). */
  async clickHeader(colId: string): Promise<void> {
    await this.grid().locator(`.ag-header-cell[col-id="${colId}"] .ag-header-cell-label`).click();
  }

  /** Ticks a column in the column chooser and closes it. */
  async showColumn(label: string): Promise<void> {
    await this.page.getByTestId('column-chooser').click();
    await this.page.getByRole('group', { name: 'Columns to show' }).getByLabel(label, { exact: true }).check();
    await this.page.keyboard.press('Escape');
  }

  /** Ticks the row at `index` (0-based, on screen); answers its id. */
  async selectRow(index: number): Promise<number> {
    const row = this.grid().locator(`.ag-row[row-index="${index}"]`);
    const id = Number(await row.getAttribute('row-id'));
    await row.getByTestId('row-select').check();
    return id;
  }

  async selectAll(): Promise<void> {
    await this.grid().getByTestId('select-all').check();
  }

  async selectedCount(): Promise<number> {
    return Number(await this.page.getByTestId('selected-count').getAttribute('data-value'));
  }

  /** The six figures of the header. */
  async headerCounts(): Promise<HeaderCounts> {
    const entries = await this.page
      .getByTestId('results-counts')
      .locator('[data-count]')
      .evaluateAll((badges) =>
        badges.map((badge) => [badge.getAttribute('data-count') ?? '', Number(badge.getAttribute('data-value'))] as const),
      );
    return Object.fromEntries(entries) as HeaderCounts;
  }

  /** The session ids the app keeps in session storage (search and selection). */
  async sessionIds(): Promise<{ searchSessionId: string | null; selectionSessionId: string | null }> {
    const raw = await this.page.evaluate(() => window.sessionStorage.getItem('kb-search-session'));
    const state = raw
      ? (JSON.parse(raw) as { state?: { searchSessionId?: string | null; selectionSessionId?: string | null } }).state
      : undefined;
    return { searchSessionId: state?.searchSessionId ?? null, selectionSessionId: state?.selectionSessionId ?? null };
  }

  /** Sorts by similarity to `smiles` through the "Sort by similarity" form. */
  async sortBySimilarity(smiles: string): Promise<void> {
    const button = this.page.getByTestId('similarity-sort');
    if (!(await this.page.getByTestId('similarity-smiles').isVisible())) await button.click();
    await this.page.getByTestId('similarity-smiles').fill(smiles);
    await this.page.getByRole('button', { name: 'Sort', exact: true }).click();
  }
}
