import crypto from 'node:crypto';
import type { Locator, Page, Request } from 'playwright-core';
import { searchEndpoints } from '@kb/contracts/search-api';
import type { SearchCriteria } from '@kb/contracts/search';
import { AppPage } from './app-page.ts';
import type { ApiSession } from '../api-session.ts';

/** The six figures of the counts panel, by the page's `data-count` keys. */
export type ShownCounts = Record<'structures' | 'compounds' | 'activities' | 'assays' | 'references' | 'clinicalCompounds', number>;

/** The six counts the API gives for criteria, in a session of its own (what the page should show for them). */
export async function apiCounts(api: ApiSession, criteria: SearchCriteria): Promise<ShownCounts> {
  const answer = await api.call(searchEndpoints.allResultsCount, { body: { searchcriteria: criteria, sessionid: crypto.randomUUID() } });
  const row = answer.rows[0];
  if (!row) throw new Error('The API answered no counts');
  return {
    structures: row.stridscount,
    compounds: row.gvkidscount,
    activities: row.actidscount,
    assays: row.assayidscount,
    references: row.refidscount,
    clinicalCompounds: row.clinicalcompoundidscount,
  };
}

/**
 * /search: rows added from the "add a row" panel (buttons named "Add <option> row"), each row a
 * `section` with `data-testid="search-row"`, the Search button and the counts panel.
 */
export class SearchPage extends AppPage {
  constructor(page: Page) {
    super(page);
  }

  async openSearch(): Promise<void> {
    await this.open('/search');
    await this.page.getByTestId('add-row-panel').waitFor();
  }

  rows(): Locator {
    return this.page.getByTestId('search-row');
  }

  /** Adds a row with the option's button and answers it (the last row). */
  async addRow(buttonName: string): Promise<Locator> {
    const before = await this.rows().count();
    await this.page.getByRole('button', { name: buttonName, exact: true }).click();
    const row = this.rows().nth(before);
    await row.waitFor();
    return row;
  }

  /** Types into an autocomplete of the row and takes the first suggestion matching `option`. */
  async pick(row: Locator, fieldName: string, text: string, option: RegExp): Promise<string> {
    await row.getByRole('textbox', { name: fieldName }).fill(text);
    const choice = this.page.getByRole('option', { name: option }).first();
    await choice.waitFor({ timeout: 20_000 });
    const label = (await choice.innerText()).split('\n')[0] ?? '';
    await choice.click();
    return label;
  }

  /** Uploads a file through the row's "Upload file" button (choosing `listLabel` when the row offers several lists). */
  async upload(row: Locator, file: { name: string; content: string }, listLabel?: string): Promise<void> {
    const chooser = this.page.waitForEvent('filechooser');
    await row
      .getByRole('button', { name: /Upload/ })
      .first()
      .click();
    if (listLabel) await this.page.getByRole('menuitem', { name: listLabel }).click();
    await (await chooser).setFiles({ name: file.name, mimeType: 'text/plain', buffer: Buffer.from(file.content) });
  }

  /** Sets the operator between rows `index` and `index + 1` (0-based). */
  async setOperator(index: number, operator: 'AND' | 'OR' | 'NOT'): Promise<void> {
    await this.page.getByTestId('row-operator').nth(index).getByText(operator, { exact: true }).click();
  }

  /** Clicks Search and answers the criteria the page sent with its count call. */
  async search(): Promise<{ criteria: SearchCriteria; request: Request }> {
    const [request] = await Promise.all([
      this.page.waitForRequest((r) => new URL(r.url()).pathname === searchEndpoints.allResultsCount.path, { timeout: 60_000 }),
      this.page.getByTestId('run-search').click(),
    ]);
    const body = request.postDataJSON() as { searchcriteria: SearchCriteria };
    return { criteria: body.searchcriteria, request };
  }

  /** Waits until the panel shows a finished search and reads its six figures. */
  async searchCounts(): Promise<ShownCounts> {
    const table = this.page.getByTestId('search-counts');
    await table.waitFor();
    await this.page.waitForFunction(
      () => document.querySelector('[data-testid="counts-panel"]')?.getAttribute('aria-busy') === 'false',
      undefined,
      { timeout: 60_000 },
    );
    return readCounts(table);
  }
}

/** Reads the `data-value` of each `data-count` row of a counts table. */
export async function readCounts(table: Locator): Promise<ShownCounts> {
  const entries = await table
    .locator('[data-count]')
    .evaluateAll((rows) =>
      rows.map(
        (row) => [row.getAttribute('data-count') ?? '', Number(row.querySelector('[data-value]')?.getAttribute('data-value'))] as const,
      ),
    );
  return Object.fromEntries(entries) as ShownCounts;
}
