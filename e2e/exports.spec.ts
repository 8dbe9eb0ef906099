import type { BrowserContext, Page } from 'playwright-core';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import initRDKitModule from '@rdkit/rdkit';
import type { ExportJob } from '@kb/contracts/exports';
import { exportEndpoints } from '@kb/contracts/exports';
import type { ResultTabKey } from '@kb/contracts/result-tabs';
import { resultsEndpoints } from '@kb/contracts/results';
import type { ResultColumn } from '@kb/contracts/results';
import { DEMO_PASSWORD } from '@kb/contracts/roles';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiSession } from './support/api-session.ts';
import { newAppContext, screenshot, useBrowser } from './support/browser.ts';
import { DashboardPage } from './support/pages/dashboard-page.ts';
import { DownloadsPage, ExportPage, downloadedBytes } from './support/pages/export-page.ts';
import { LoginPage } from './support/pages/login-page.ts';
import { ResultsPage } from './support/pages/results-page.ts';
import { SearchPage } from './support/pages/search-page.ts';
import { roleLanding } from './support/route-expectations.ts';
import { useSeededServer } from './support/seeded-server.ts';

/*
 * Exports from the results (docs/exports.md) against a server with demo data: selected rows as
 * XLSX and SDF read back with exceljs and RDKit, the balance falling one credit a record, a
 * whole-tab export running as a background job with its progress bar, a balance too short for the
 * export, and no export for EVALUATE_USER. What the page should show is asked of the API.
 */
const BACKGROUND_FROM = 500;
const server = useSeededServer({
  chunks: 2,
  // Whole tabs of a few thousand rows become background jobs, written in small batches so the job
  // runs long enough for its progress to be watched from a second page.
  env: { EXPORT_BACKGROUND_ROWS: String(BACKGROUND_FROM), EXPORT_BATCH_ROWS: '10' },
});
const browser = useBrowser();

type RDKitModule = Awaited<ReturnType<typeof initRDKitModule>>;

let api: ApiSession;
let context: BrowserContext;
let page: Page;
let results: ResultsPage;
let exporter: ExportPage;
let sessionid: string;
let columns: Record<string, ResultColumn[]>;
let rdkit: RDKitModule;

/** Runs the search of these tests (Binding assays) from the search page and opens its results. */
async function searchAndOpenResults(on: Page): Promise<ResultsPage> {
  const search = new SearchPage(on);
  await search.openSearch();
  const assay = await search.addRow('Add Assay row');
  await assay.getByLabel('Binding', { exact: true }).check();
  await search.search();
  await search.searchCounts();
  await on.getByRole('link', { name: 'View results' }).click();
  await on.waitForURL((url) => url.pathname === '/results/structuretab');
  const shown = new ResultsPage(on);
  await shown.waitForRows();
  return shown;
}

/** The labels of some columns of a tab, in the tab's column order (the order an export writes them). */
function labelsInTabOrder(tab: ResultTabKey, keys: readonly string[]): string[] {
  return [...columns[tab]!]
    .sort((a, b) => a.order - b.order)
    .filter((column) => keys.includes(column.key))
    .map((column) => column.label);
}

function labelOf(tab: ResultTabKey, key: string): string {
  const column = columns[tab]!.find((entry) => entry.key === key);
  if (!column) throw new Error(`The ${tab} tab has no column ${key}`);
  return column.label;
}

beforeAll(async () => {
  api = await ApiSession.logIn(server().baseUrl, 'FULL_USER');
  const metadata = await api.call(resultsEndpoints.tabColumns, { params: { resetAllFlag: false } });
  columns = Object.fromEntries(metadata.tabs.map((entry) => [entry.tab, entry.columns]));
  rdkit = await initRDKitModule();
  context = await newAppContext(browser(), server().baseUrl);
  page = await context.newPage();
  await new LoginPage(page).logInAs('FULL_USER');
  results = await searchAndOpenResults(page);
  sessionid = (await results.sessionIds()).searchSessionId!;
  exporter = new ExportPage(page);
}, 180_000);

afterAll(async () => {
  await context?.close();
});

describe('exports of a FULL_USER', () => {
  const picked: number[] = [];
  const jobs: ExportJob[] = [];

  it('exports three ticked activities as XLSX: the chosen columns, the ticked ids, three credits', async () => {
    await results.openTab('activitiestab');
    await results.waitForRows();
    for (const index of [0, 1, 2]) picked.push(await results.selectRow(index));
    expect(await results.selectedCount()).toBe(3);
    const idsInFileOrder = [...picked].sort((a, b) => a - b);

    await page.getByTestId('results-export').click();
    await page.waitForURL((url) => url.pathname === '/export/activitiestab');
    await exporter.waitForForm('activitiestab');
    const priced = await api.call(exportEndpoints.exportDataCount, {
      body: { sessionid, tab: 'activitiestab', selection: { selectAll: false, selectedIds: picked, unselectedIds: [] } },
    });
    expect(priced).toMatchObject({ rows: 3, credits: 3, allowed: true, background: false });
    expect(await exporter.waitForCost(3)).toEqual({ rows: 3, credits: 3 });
    expect(await exporter.rowsChoice('selected').isChecked()).toBe(true);
    expect(await exporter.rowsLabel('selected')).toBe('Selected rows (3)');
    const before = await exporter.shownBalance();
    expect(before).toBe(priced.creditBalance);

    // A few columns, ticked out of the tab's order: the file keeps the tab's order.
    const chosen = ['std_activity_type', 'act_id', 'protein', 'activity_value'];
    await exporter.chooseColumns(chosen.map((key) => labelOf('activitiestab', key)));
    expect(await exporter.chosenColumnCount()).toBe(chosen.length);
    await exporter.chooseFormat('xlsx');
    expect(await exporter.submitButton().innerText()).toContain('XLSX');

    const { job, download } = await exporter.exportAndDownload();
    jobs.push(job);
    expect(job).toMatchObject({ status: 'done', format: 'xlsx', rows: 3, credits: 3 });
    expect(download.suggestedFilename()).toBe(job.fileName);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await downloadedBytes(download)) as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    const header = labelsInTabOrder('activitiestab', chosen);
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual(header);
    expect(sheet.rowCount).toBe(1 + 3);
    const idColumn = header.indexOf(labelOf('activitiestab', 'act_id')) + 1;
    expect([2, 3, 4].map((row) => Number(sheet.getRow(row).getCell(idColumn).value))).toEqual(idsInFileOrder);

    await exporter.jobCard().locator('[data-status="done"]').first().waitFor();
    await expect.poll(() => exporter.shownBalance(), { message: 'the balance shown falls by 3', timeout: 15_000 }).toBe(before - 3);
    expect((await api.call(exportEndpoints.downloadHistory, {})).creditBalance).toBe(before - 3);
  });

  it('exports the same rows as SDF: three records RDKit reads, each titled by its activity id', async () => {
    const before = await exporter.shownBalance();
    await exporter.chooseFormat('sdf');
    expect(await exporter.submitButton().innerText()).toContain('SDF');
    const { job, download } = await exporter.exportAndDownload();
    jobs.push(job);
    expect(job).toMatchObject({ status: 'done', format: 'sdf', rows: 3, credits: 3 });

    const text = (await downloadedBytes(download)).toString('utf8');
    const records = text.split('$$$$\n').filter((record) => record.trim());
    expect(records).toHaveLength(3);
    const titles: string[] = [];
    for (const record of records) {
      const molblock = record.slice(0, record.indexOf('M  END') + 'M  END'.length);
      titles.push(molblock.split('\n')[0]!);
      const mol = rdkit.get_mol(molblock);
      try {
        expect(mol, `RDKit reads the record titled ${molblock.split('\n')[0]}`).not.toBeNull();
        expect(mol!.is_valid()).toBe(true);
        expect(mol!.get_num_atoms()).toBeGreaterThan(0);
      } finally {
        mol?.delete();
      }
    }
    expect(titles).toEqual([...picked].sort((a, b) => a - b).map(String));

    await expect.poll(() => exporter.shownBalance(), { message: 'the balance shown falls by 3 more', timeout: 15_000 }).toBe(before - 3);
    expect((await api.call(exportEndpoints.downloadHistory, {})).creditBalance).toBe(before - 3);
    await screenshot(page, 'export-selected-rows');
  });

  it('lists both exports in the download history: format, 3 records, 3 credits', async () => {
    const history = await api.call(exportEndpoints.downloadHistory, {});
    const dashboard = new DashboardPage(page);
    await dashboard.openTab('download-history');
    await dashboard.waitForHistory();
    const shown = await dashboard.historyRows();
    for (const job of jobs) {
      const expected = history.rows.find((row) => row.exportId === job.id);
      expect(expected, `the API's history has export ${job.id}`).toBeDefined();
      const row = shown.find((entry) => entry.file.split('\n')[0] === job.fileName);
      expect(row, `the history shows ${job.fileName}; shown: ${JSON.stringify(shown)}`).toBeDefined();
      expect(row).toMatchObject({ kind: 'export', description: expected!.description, rows: '3', credits: '3' });
      expect(row!.description).toContain(job.format.toUpperCase());
    }
    expect(await dashboard.historyBalance()).toBe(history.creditBalance);
  });

  /** A tab whose whole export runs in the background and fits the balance; its rows. */
  async function backgroundTab(): Promise<{ tab: ResultTabKey; rowCount: number }> {
    const session = await api.call(resultsEndpoints.session, { params: { sessionid } });
    const { creditBalance } = await api.call(exportEndpoints.downloadHistory, {});
    const candidates: ResultTabKey[] = ['structuretab', 'documentstab', 'assaytab', 'activitiestab'];
    const tab = candidates.find(
      (key) => (session.tabCounts[key] ?? 0) >= BACKGROUND_FROM && (session.tabCounts[key] ?? 0) <= creditBalance,
    );
    expect(tab, `a tab with ${BACKGROUND_FROM} to ${creditBalance} rows; counts: ${JSON.stringify(session.tabCounts)}`).toBeDefined();
    return { tab: tab!, rowCount: session.tabCounts[tab!]! };
  }

  /** Opens the export of a whole tab as CSV, checks its price against the API and starts it. */
  async function startWholeTab(tab: ResultTabKey, rowCount: number): Promise<ExportJob> {
    await exporter.open(`/export/${tab}`);
    await exporter.waitForForm(tab);
    await exporter.chooseRows('all');
    const priced = await api.call(exportEndpoints.exportDataCount, { body: { sessionid, tab, selection: null } });
    expect(priced).toMatchObject({ rows: rowCount, credits: rowCount, allowed: true, background: true });
    expect(await exporter.waitForCost(rowCount)).toEqual({ rows: rowCount, credits: rowCount });
    await exporter.chooseFormat('csv');
    await exporter.recordProgress();
    const job = await exporter.start();
    // A background job answers at once, before it is written (queued, or already claimed by the runner).
    expect(job).toMatchObject({ rows: rowCount, credits: rowCount, fileId: null });
    expect(['queued', 'running']).toContain(job.status);
    return job;
  }

  it('runs a whole tab above the background threshold as a job: a progress bar, then a Download button here and on /downloads; the CSV has every row', async () => {
    const { tab, rowCount } = await backgroundTab();
    const job = await startWholeTab(tab, rowCount);

    await page.getByTestId('export-download').waitFor({ timeout: 60_000 });
    const seenHere = await exporter.progressSeen();
    expect(
      seenHere.some((bar) => bar.testId === 'export-job-progress'),
      'the export page showed a progress bar',
    ).toBe(true);
    expect(await exporter.jobCard().getAttribute('data-status')).toBe('done');
    const file = await downloadedBytes(await exporter.downloadFromCard());

    const done = await api.call(exportEndpoints.job, { params: { id: job.id } });
    expect(done).toMatchObject({ status: 'done', rowsWritten: rowCount, progress: 100 });
    const records = parse(file.toString('utf8'), { bom: true }) as string[][];
    expect(records).toHaveLength(rowCount + 1);
    expect(records[0]).toEqual(done.columns.map((key) => labelOf(tab, key)));

    const downloads = new DownloadsPage(page);
    await downloads.openDownloads(tab);
    await page.locator(`[data-testid="downloads-row"][data-job="${job.id}"][data-status="done"]`).waitFor();
    const again = await downloadedBytes(await downloads.download(job.id));
    expect(again.equals(file), 'the file from /downloads is the file from the export page').toBe(true);
    await screenshot(page, 'downloads-background-job');
  });

  it('answers while a background job runs: /downloads shows the running job with its progress bar', async () => {
    const { tab, rowCount } = await backgroundTab();
    // A second page of the same login, already open in the app, moves to /downloads once the job runs.
    const watcher = new DownloadsPage(await context.newPage());
    try {
      await watcher.open('/dashboard?tab=profile');
      await watcher.page.getByTestId('profile-card').waitFor({ timeout: 20_000 });
      await watcher.recordProgress();
      const job = await startWholeTab(tab, rowCount);
      const asked = Date.now();
      await watcher.openDownloadsInApp(tab);
      await watcher.row(job.id).waitFor();
      const shownAfter = Date.now() - asked;
      const seen = await watcher.progressSeen();
      expect(
        seen.some((bar) => bar.testId === 'downloads-progress' && bar.job === job.id),
        `/downloads showed job ${job.id} with a progress bar while it ran (the list came ${shownAfter} ms after it was asked for, with the job ${await watcher.row(job.id).getAttribute('data-status')})`,
      ).toBe(true);
      await watcher.page.locator(`[data-testid="downloads-row"][data-job="${job.id}"][data-status="done"]`).waitFor({ timeout: 60_000 });
    } finally {
      await page.getByTestId('export-download').waitFor({ timeout: 60_000 });
      await watcher.page.close();
    }
  });
});

describe('a balance too short for the export', () => {
  it("shows the server's message, keeps Export disabled and charges nothing", async () => {
    const email = 'lowcredit@demo.test';
    const lowApi = await ApiSession.logInAs(server().baseUrl, email);
    const historyBefore = await lowApi.call(exportEndpoints.downloadHistory, {});
    const low = await newAppContext(browser(), server().baseUrl);
    try {
      const lowPage = await low.newPage();
      const login = new LoginPage(lowPage);
      await login.openLogin();
      await login.submit(email, DEMO_PASSWORD);
      await login.expectLanding(roleLanding('FULL_USER'), 'the low-credit FULL_USER lands on the search');
      const lowResults = await searchAndOpenResults(lowPage);
      const lowSession = (await lowResults.sessionIds()).searchSessionId!;
      const rowCount = await lowResults.tabCount('structuretab');
      expect(rowCount, 'the whole tab needs more credits than the balance').toBeGreaterThan(historyBefore.creditBalance);

      // Nothing ticked: the Export button exports the whole tab.
      await lowPage.getByTestId('results-export').click();
      await lowPage.waitForURL((url) => url.pathname === '/export/structuretab');
      const lowExport = new ExportPage(lowPage);
      await lowExport.waitForForm('structuretab');
      expect(await lowExport.rowsChoice('all').isChecked()).toBe(true);

      const priced = await lowApi.call(exportEndpoints.exportDataCount, {
        body: { sessionid: lowSession, tab: 'structuretab', selection: null },
      });
      expect(priced).toMatchObject({ rows: rowCount, credits: rowCount, creditBalance: historyBefore.creditBalance, allowed: false });
      expect(priced.message).toContain(
        `needs ${rowCount.toLocaleString('en-US')} download credits and you have ${historyBefore.creditBalance.toLocaleString('en-US')}`,
      );
      await lowExport.notAllowed().waitFor({ timeout: 20_000 });
      expect((await lowExport.notAllowed().innerText()).trim()).toBe(priced.message);
      expect(await lowExport.shownBalance()).toBe(historyBefore.creditBalance);
      expect(await lowExport.submitButton().isDisabled()).toBe(true);
      await screenshot(lowPage, 'export-short-balance');

      const historyAfter = await lowApi.call(exportEndpoints.downloadHistory, {});
      expect(historyAfter.creditBalance).toBe(historyBefore.creditBalance);
      expect(historyAfter.rows).toHaveLength(historyBefore.rows.length);
    } finally {
      await low.close();
    }
  });
});

describe('EVALUATE_USER', () => {
  it('sees no Export button in the results, with or without ticked rows', async () => {
    const evaluator = await newAppContext(browser(), server().baseUrl);
    try {
      const evalPage = await evaluator.newPage();
      await new LoginPage(evalPage).logInAs('EVALUATE_USER');
      const evalResults = await searchAndOpenResults(evalPage);
      // The toolbar is there (new search by selection), without its Export button.
      await evalPage.getByTestId('new-search-by-selection').waitFor();
      expect(await evalPage.getByTestId('results-export').count()).toBe(0);
      await evalResults.selectRow(0);
      expect(await evalResults.selectedCount()).toBe(1);
      expect(await evalPage.getByTestId('results-export').count()).toBe(0);
      expect(await evalPage.getByRole('link', { name: /^Export/ }).count()).toBe(0);
    } finally {
      await evaluator.close();
    }
  });
});
