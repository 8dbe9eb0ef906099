import type { Download, Locator, Page, Response } from 'playwright-core';
import type { ExportFormat, ExportJob } from '@kb/contracts/exports';
import { exportEndpoints } from '@kb/contracts/exports';
import { waitUntil } from '../wait.ts';
import { AppPage } from './app-page.ts';

/** One progress bar the page rendered while a job ran: which bar, its percentage and (on /downloads) its job. */
export interface SeenProgress {
  testId: string;
  progress: number;
  job: number | null;
}

const FORMAT_LABELS: Record<ExportFormat, string> = { csv: 'CSV', xlsx: 'XLSX', sdf: 'SDF' };
const PROGRESS_SELECTOR = '[data-testid="export-job-progress"], [data-testid="downloads-progress"]';

/**
 * Records every export progress bar the document renders, however briefly (a small background job
 * may be queued, run and done within a second). Runs in the browser, through `evaluate`; the
 * recording lasts as long as the document (moves inside the app keep it).
 */
function recordProgressBars(selector: string): void {
  const win = window as unknown as {
    __e2eProgress?: { testId: string; progress: number; job: number | null }[];
    __e2eProgressObserver?: boolean;
  };
  win.__e2eProgress ??= [];
  if (win.__e2eProgressObserver) return;
  win.__e2eProgressObserver = true;
  const read = () => {
    for (const bar of document.querySelectorAll(selector)) {
      const job = bar.closest('[data-job]')?.getAttribute('data-job');
      win.__e2eProgress!.push({
        testId: bar.getAttribute('data-testid') ?? '',
        progress: Number(bar.getAttribute('data-progress')),
        job: job ? Number(job) : null,
      });
    }
  };
  new MutationObserver(read).observe(document, { subtree: true, childList: true, attributes: true });
  read();
}

/**
 * /export/{tab} (`data-testid="export-form"`, `data-tab`): the rows picker (`export-rows-selected`,
 * `export-rows-all`), the format (`export-format`), the column checklist (`export-columns`, one
 * checkbox per column labelled as the grid labels it), the cost line (`export-cost` with
 * `data-rows` / `data-credits`, `export-balance`), the refusal (`export-not-allowed`), the Export
 * button (`export-submit`) with its credit question (`export-question`, `export-confirm`,
 * `export-cancel`) and the card of the job just started (`export-job`, `data-status`, its
 * progress bar `export-job-progress` and its `export-download` button).
 */
export class ExportPage extends AppPage {
  constructor(page: Page) {
    super(page);
  }

  form(): Locator {
    return this.page.getByTestId('export-form');
  }

  /** Waits until the form of `tab` is shown. */
  async waitForForm(tab: string, timeout = 30_000): Promise<void> {
    await this.page.locator(`[data-testid="export-form"][data-tab="${tab}"]`).waitFor({ timeout });
  }

  /** The cost line as shown, once it is not being recomputed: records and credits. */
  async cost(): Promise<{ rows: number; credits: number } | null> {
    const line = this.page.getByTestId('export-cost');
    if ((await line.count()) === 0) return null;
    return { rows: Number(await line.getAttribute('data-rows')), credits: Number(await line.getAttribute('data-credits')) };
  }

  /** Waits until the cost line shows `rows` records. */
  async waitForCost(rows: number, timeout = 20_000): Promise<{ rows: number; credits: number } | null> {
    return waitUntil(
      () => this.cost(),
      (cost) => cost?.rows === rows,
      timeout,
    );
  }

  /** The balance the cost line shows ("your balance 4,997" → 4997). */
  async shownBalance(): Promise<number> {
    const text = await this.page.getByTestId('export-balance').innerText();
    return Number(text.replace(/\D/g, ''));
  }

  /** The radio of the rows choice and its label. */
  rowsChoice(choice: 'selected' | 'all'): Locator {
    return this.page.getByTestId(choice === 'selected' ? 'export-rows-selected' : 'export-rows-all');
  }

  /** The label next to a rows radio ("Selected rows (3)"). */
  async rowsLabel(choice: 'selected' | 'all'): Promise<string> {
    const id = await this.rowsChoice(choice).getAttribute('id');
    return (await this.page.locator(`label[for="${id}"]`).innerText()).trim();
  }

  async chooseRows(choice: 'selected' | 'all'): Promise<void> {
    await this.rowsChoice(choice).check();
  }

  async chooseFormat(format: ExportFormat): Promise<void> {
    await this.page.getByTestId('export-format').getByText(FORMAT_LABELS[format], { exact: true }).click();
  }

  columnsGroup(): Locator {
    return this.page.getByRole('group', { name: 'Columns to export' });
  }

  /** Unticks every column, then ticks those labelled `labels`. */
  async chooseColumns(labels: readonly string[]): Promise<void> {
    await this.page.getByTestId('export-columns-none').click();
    for (const label of labels) await this.columnsGroup().getByLabel(label, { exact: true }).check();
  }

  /** How many columns the checklist says are chosen. */
  async chosenColumnCount(): Promise<number> {
    return Number(await this.page.getByTestId('export-columns').getAttribute('data-count'));
  }

  submitButton(): Locator {
    return this.page.getByTestId('export-submit');
  }

  notAllowed(): Locator {
    return this.page.getByTestId('export-not-allowed');
  }

  /** The credit question Export opens ("Export 3 activities as CSV for 3 download credits? …"). */
  question(): Locator {
    return this.page.getByTestId('export-question');
  }

  /** Clicks Export: the question opens, nothing is started. */
  async ask(): Promise<void> {
    await this.submitButton().click();
    await this.question().waitFor();
  }

  /**
   * Clicks Export, answers the credit question with Export, and answers the job the start call
   * answered (its file is saved by the page when it is done at once).
   */
  async start(): Promise<ExportJob> {
    await this.ask();
    const [response] = await Promise.all([
      this.page.waitForResponse((r) => new URL(r.url()).pathname === exportEndpoints.start.path && r.request().method() === 'POST', {
        timeout: 60_000,
      }),
      this.page.getByTestId('export-confirm').click(),
    ]);
    return jobOf(response);
  }

  /** Clicks Export for a small export and answers its job and the file the browser saved. */
  async exportAndDownload(): Promise<{ job: ExportJob; download: Download }> {
    const downloaded = this.page.waitForEvent('download', { timeout: 60_000 });
    const job = await this.start();
    return { job, download: await downloaded };
  }

  jobCard(): Locator {
    return this.page.getByTestId('export-job');
  }

  /** Clicks the job card's Download button and answers the saved file. */
  async downloadFromCard(): Promise<Download> {
    const [download] = await Promise.all([
      this.page.waitForEvent('download', { timeout: 30_000 }),
      this.page.getByTestId('export-download').click(),
    ]);
    return download;
  }

  /** Starts recording the progress bars this document renders (see `progressSeen`). */
  async recordProgress(): Promise<void> {
    await this.page.evaluate(recordProgressBars, PROGRESS_SELECTOR);
  }

  /** The progress bars rendered since recording started. */
  async progressSeen(): Promise<SeenProgress[]> {
    return this.page.evaluate(() => (window as unknown as { __e2eProgress?: SeenProgress[] }).__e2eProgress ?? []);
  }
}

/**
 * /downloads and /downloads/{tab}: the balance (`downloads-balance`) and one row per export
 * (`downloads-row`, `data-job`, `data-status`) with its progress bar (`downloads-progress`) while it
 * runs and its Download button (`downloads-download`) once done.
 */
export class DownloadsPage extends ExportPage {
  async openDownloads(tab?: string): Promise<void> {
    await this.open(tab ? `/downloads/${tab}` : '/downloads');
    await this.page.getByTestId('downloads-balance').waitFor({ timeout: 20_000 });
  }

  /** Moves to /downloads from another page of the app as a link does (no document load, so it shows at once). */
  async openDownloadsInApp(tab?: string): Promise<void> {
    await this.navigateInApp(tab ? `/downloads/${tab}` : '/downloads');
    await this.page.getByTestId('downloads-balance').waitFor({ timeout: 20_000 });
  }

  row(jobId: number): Locator {
    return this.page.locator(`[data-testid="downloads-row"][data-job="${jobId}"]`);
  }

  async download(jobId: number): Promise<Download> {
    const [download] = await Promise.all([
      this.page.waitForEvent('download', { timeout: 30_000 }),
      this.row(jobId).getByTestId('downloads-download').click(),
    ]);
    return download;
  }
}

async function jobOf(response: Response): Promise<ExportJob> {
  if (!response.ok()) throw new Error(`POST ${exportEndpoints.start.path} answered ${response.status()}: ${await response.text()}`);
  return (await response.json()) as ExportJob;
}

/** The bytes of a file the browser saved. */
export async function downloadedBytes(download: Download): Promise<Buffer> {
  const stream = await download.createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
