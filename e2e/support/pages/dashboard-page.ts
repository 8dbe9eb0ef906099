import type { Download, Locator, Page, Response } from 'playwright-core';
import { datasetEndpoints } from '@kb/contracts/datasets';
import type { DatasetType } from '@kb/contracts/datasets';
import { AppPage } from './app-page.ts';

export type DashboardTab = 'datasets' | 'requests' | 'login-history' | 'download-history' | 'notifications' | 'profile';

/** One row of the download history as the table shows it. */
export interface ShownHistoryRow {
  kind: string;
  description: string;
  file: string;
  rows: string;
  credits: string;
  status: string;
}

/**
 * /dashboard?tab=…: the Datasets section (`datasets-table`, one `dataset-row` per file with
 * `data-file`, its Download button `dataset-download`; for FLAT_FILE_ADMIN the upload form
 * `dataset-upload` and its error `dataset-upload-error`), Requests for data (`request-new`, the
 * modal's `request-type` / `request-description` / `request-submit`, one `request-row` per request
 * with `data-status`, its `request-cancel` / `request-cancel-confirm` and `request-cancelled-by`)
 * and the Download history (`download-history-table`, `history-row` with `data-kind`).
 */
export class DashboardPage extends AppPage {
  constructor(page: Page) {
    super(page);
  }

  async openTab(tab: DashboardTab): Promise<void> {
    await this.open(`/dashboard?tab=${tab}`);
    await this.page.getByRole('tab', { name: tabName(tab), selected: true }).waitFor({ timeout: 20_000 });
  }

  // --- Datasets ---------------------------------------------------------------------------------

  /** Waits until the datasets list has loaded (a table, the empty note or the no-access note). */
  async waitForDatasets(timeout = 20_000): Promise<void> {
    await this.page
      .locator('[data-testid="datasets-table"], [data-testid="datasets-no-access"]')
      .or(this.page.getByText('No flat-file datasets yet.'))
      .first()
      .waitFor({ timeout });
  }

  datasetRow(fileName: string): Locator {
    return this.page.locator(`[data-testid="dataset-row"][data-file="${fileName}"]`);
  }

  /** The cells of a dataset row: type, file, size, uploaded, for. */
  async datasetCells(fileName: string): Promise<string[]> {
    return this.datasetRow(fileName).locator('td').allInnerTexts();
  }

  async downloadDataset(fileName: string): Promise<Download> {
    const [download] = await Promise.all([
      this.page.waitForEvent('download', { timeout: 30_000 }),
      this.datasetRow(fileName).getByTestId('dataset-download').click(),
    ]);
    return download;
  }

  uploadForm(): Locator {
    return this.page.getByTestId('dataset-upload');
  }

  /** Fills the upload form (FLAT_FILE_ADMIN) and submits it; answers the upload call's response. Roles stay as the form starts (FULL_USER) unless given. */
  async uploadDataset(input: { name: string; content: Buffer; datasetType: DatasetType; description: string }): Promise<Response> {
    const form = this.uploadForm();
    await form
      .locator('input[type="file"]')
      .setInputFiles({ name: input.name, mimeType: 'application/octet-stream', buffer: input.content });
    await this.pickOption(form.getByTestId('dataset-upload-type'), input.datasetType);
    await form.getByLabel('Description').fill(input.description);
    const [response] = await Promise.all([
      this.page.waitForResponse((r) => new URL(r.url()).pathname === datasetEndpoints.upload.path && r.request().method() === 'PUT', {
        timeout: 30_000,
      }),
      form.getByTestId('dataset-upload-submit').click(),
    ]);
    return response;
  }

  uploadError(): Locator {
    return this.page.getByTestId('dataset-upload-error');
  }

  /** The roles the upload form will send, as its chips show them. */
  async uploadRoles(): Promise<string[]> {
    return this.uploadForm().locator('.mantine-MultiSelect-pill').allInnerTexts();
  }

  // --- Requests for data ------------------------------------------------------------------------

  /** Opens the New request modal, fills it and sends it. */
  async createRequest(datasetType: DatasetType, description: string): Promise<void> {
    await this.page.getByTestId('request-new').click();
    const modal = this.page.getByRole('dialog', { name: 'New request for data' });
    await modal.waitFor();
    await this.pickOption(modal.getByTestId('request-type'), datasetType);
    await modal.getByTestId('request-description').fill(description);
    await modal.getByTestId('request-submit').click();
    await modal.waitFor({ state: 'hidden' });
  }

  /** The request row whose description is `description`. */
  requestRow(description: string): Locator {
    return this.page.getByTestId('request-row').filter({ hasText: description });
  }

  /** Waits until the requests list has loaded (a table or the empty note). */
  async waitForRequests(timeout = 20_000): Promise<void> {
    await this.page.getByTestId('requests-table').or(this.page.getByText('No requests for data yet.')).first().waitFor({ timeout });
  }

  /** Cancel, then confirm in the popover. */
  async cancelRequest(description: string): Promise<void> {
    await this.requestRow(description).getByTestId('request-cancel').click();
    await this.page.getByTestId('request-cancel-confirm').click();
  }

  // --- Download history -------------------------------------------------------------------------

  async waitForHistory(timeout = 20_000): Promise<void> {
    await this.page
      .getByTestId('download-history-table')
      .or(this.page.getByText('No downloads yet.', { exact: false }))
      .first()
      .waitFor({ timeout });
  }

  /** Every row of the download history, top to bottom. */
  async historyRows(): Promise<ShownHistoryRow[]> {
    return this.page.getByTestId('history-row').evaluateAll((rows) =>
      rows.map((row) => {
        const cells = [...row.querySelectorAll('td')].map((cell) => (cell as HTMLElement).innerText.trim());
        return {
          kind: row.getAttribute('data-kind') ?? '',
          description: cells[1] ?? '',
          file: cells[2] ?? '',
          rows: cells[3] ?? '',
          credits: cells[4] ?? '',
          status: cells[5] ?? '',
        };
      }),
    );
  }

  /** The balance above the history ("Download balance: 4,994 credits"). */
  async historyBalance(): Promise<number> {
    return Number((await this.page.getByTestId('history-balance').innerText()).replace(/\D/g, ''));
  }

  // ---------------------------------------------------------------------------------------------

  /** Opens a Mantine Select and takes the option named `option`. */
  private async pickOption(input: Locator, option: string): Promise<void> {
    await input.click();
    await this.page.getByRole('option', { name: option, exact: true }).click();
  }
}

function tabName(tab: DashboardTab): string {
  const names: Record<DashboardTab, string> = {
    datasets: 'Datasets',
    requests: 'Requests for data',
    'login-history': 'Login history',
    'download-history': 'Download history',
    notifications: 'Notification settings',
    profile: 'Profile',
  };
  return names[tab];
}
