import crypto from 'node:crypto';
import type { BrowserContext, Page } from 'playwright-core';
import { datasetEndpoints } from '@kb/contracts/datasets';
import type { Dataset } from '@kb/contracts/datasets';
import { exportEndpoints } from '@kb/contracts/exports';
import type { Role } from '@kb/contracts/roles';
import { demoEmailForRole } from '@kb/contracts/roles';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiSession } from './support/api-session.ts';
import { newAppContext, screenshot, useBrowser } from './support/browser.ts';
import { DashboardPage } from './support/pages/dashboard-page.ts';
import { downloadedBytes } from './support/pages/export-page.ts';
import { LoginPage } from './support/pages/login-page.ts';
import { sharedServer } from './support/shared-server.ts';

/*
 * The dashboard's data sections on the shared server: FLAT_FILE_ADMIN uploads a dataset for
 * FULL_USER subscriptions through the Datasets form, FULL_USER downloads it (free, in the download
 * history) and FLAT_FILE_ONLY does not see it; a file that is not what its name says is refused
 * with the server's message; a request for data is made and cancelled. The lists are compared with
 * what the API answers each user.
 */
const browser = useBrowser();

interface Actor {
  api: ApiSession;
  context: BrowserContext;
  page: Page;
  dashboard: DashboardPage;
}

const actors: Partial<Record<Role, Actor>> = {};

async function actor(role: Role): Promise<Actor> {
  const known = actors[role];
  if (known) return known;
  const api = await ApiSession.logIn(sharedServer().baseUrl, role);
  const context = await newAppContext(browser());
  const page = await context.newPage();
  await new LoginPage(page).logInAs(role);
  const created = { api, context, page, dashboard: new DashboardPage(page) };
  actors[role] = created;
  return created;
}

const tag = crypto.randomBytes(4).toString('hex');

beforeAll(async () => {
  // Logged in one after the other: the logins compete for the same two cores.
  for (const role of ['FLAT_FILE_ADMIN', 'FULL_USER', 'FLAT_FILE_ONLY'] as const) await actor(role);
}, 120_000);

afterAll(async () => {
  for (const entry of Object.values(actors)) await entry?.context.close();
});

describe('flat-file datasets', () => {
  const fileName = `e2e-structures-${tag}.csv`;
  // Under 1 KB, so the size column reads in bytes.
  const content = Buffer.from(
    ['str_id,canonical_smiles,mol_weight', '1,CCO,46.07', '2,c1ccccc1,78.11', `3,CC(=O)Oc1ccccc1C(=O)O,180.16`, `# ${tag}`].join('\n') +
      '\n',
  );

  it('FLAT_FILE_ADMIN uploads a CSV for FULL_USER subscriptions through the Datasets form', async () => {
    const { dashboard, api } = await actor('FLAT_FILE_ADMIN');
    await dashboard.openTab('datasets');
    await dashboard.uploadForm().waitFor();
    const response = await dashboard.uploadDataset({
      name: fileName,
      content,
      datasetType: 'Structures',
      description: `E2E upload ${tag}`,
    });
    expect(response.status(), await response.text()).toBe(200);
    const uploaded = (await response.json()) as Dataset;
    expect(uploaded).toMatchObject({
      flatfileName: fileName,
      flatfileSize: content.length,
      datasetType: 'Structures',
      roles: ['FULL_USER'],
    });

    await dashboard.datasetRow(fileName).waitFor();
    const listed = await api.call(datasetEndpoints.list, { query: {} });
    expect(listed.rows.map((row) => row.flatfileName)).toContain(fileName);
  });

  it('FULL_USER sees it with its size, downloads the same bytes for 0 credits, and finds it in the download history', async () => {
    const { dashboard, api, page } = await actor('FULL_USER');
    const listed = await api.call(datasetEndpoints.list, { query: { userName: demoEmailForRole('FULL_USER') } });
    const dataset = listed.rows.find((row) => row.flatfileName === fileName);
    expect(dataset, 'the API lists the dataset for FULL_USER').toBeDefined();
    expect(dataset!.flatfileSize).toBe(content.length);
    const before = await api.call(exportEndpoints.downloadHistory, {});

    await dashboard.openTab('datasets');
    await dashboard.waitForDatasets();
    await dashboard.datasetRow(fileName).waitFor();
    expect(await page.getByTestId('dataset-row').count()).toBe(listed.rows.length);
    const [type, file, size] = await dashboard.datasetCells(fileName);
    expect(type).toBe(dataset!.datasetType);
    expect(file).toContain(fileName);
    expect(size).toBe(`${content.length} B`);

    const download = await dashboard.downloadDataset(fileName);
    expect(download.suggestedFilename()).toBe(fileName);
    expect((await downloadedBytes(download)).equals(content), 'the downloaded bytes are the uploaded bytes').toBe(true);

    const after = await api.call(exportEndpoints.downloadHistory, {});
    const logged = after.rows.find((row) => row.kind === 'dataset' && row.fileName === fileName);
    expect(logged, 'the API history has the download').toMatchObject({ credits: 0 });
    expect(after.creditBalance).toBe(before.creditBalance);

    await dashboard.openTab('download-history');
    await dashboard.waitForHistory();
    const shown = (await dashboard.historyRows()).find((row) => row.kind === 'dataset' && row.file.split('\n')[0] === fileName);
    expect(shown, 'the download history shows the dataset download').toBeDefined();
    expect(shown).toMatchObject({ description: logged!.description, credits: '0' });
    expect(await dashboard.historyBalance()).toBe(before.creditBalance);
    await screenshot(page, 'dashboard-download-history-dataset');
  });

  it('FLAT_FILE_ONLY does not see a dataset meant for FULL_USER', async () => {
    const { dashboard, api, page } = await actor('FLAT_FILE_ONLY');
    const listed = await api.call(datasetEndpoints.list, { query: { userName: demoEmailForRole('FLAT_FILE_ONLY') } });
    expect(listed.rows.map((row) => row.flatfileName)).not.toContain(fileName);
    await dashboard.openTab('datasets');
    await dashboard.waitForDatasets();
    expect(await page.getByTestId('dataset-row').count()).toBe(listed.rows.length);
    expect(await dashboard.datasetRow(fileName).count()).toBe(0);
  });

  it("refuses a file that is not what its name says with the server's message, and lists nothing", async () => {
    const { dashboard, api, page } = await actor('FLAT_FILE_ADMIN');
    const fakeZip = `e2e-not-a-zip-${tag}.zip`;
    await dashboard.openTab('datasets');
    await dashboard.uploadForm().waitFor();
    const response = await dashboard.uploadDataset({
      name: fakeZip,
      content: Buffer.from(`plain text, not a ZIP archive ${tag}\n`),
      datasetType: 'Activities',
      description: 'E2E refused upload',
    });
    expect(response.status()).toBe(400);
    const { message } = (await response.json()) as { message: string };
    expect(message.length).toBeGreaterThan(0);
    await dashboard.uploadError().waitFor();
    expect((await dashboard.uploadError().innerText()).trim()).toBe(message);

    const listed = await api.call(datasetEndpoints.list, { query: {} });
    expect(listed.rows.map((row) => row.flatfileName)).not.toContain(fakeZip);
    await dashboard.openTab('datasets');
    await dashboard.datasetRow(fileName).waitFor();
    expect(await dashboard.datasetRow(fakeZip).count()).toBe(0);
    expect(await page.getByTestId('dataset-row').count()).toBe(listed.rows.length);
  });
});

describe('requests for data', () => {
  const description = `E2E: activities of kinase targets measured in 2024, request ${tag}`;

  it('FULL_USER asks for data and sees the request pending', async () => {
    const { dashboard, api } = await actor('FULL_USER');
    await dashboard.openTab('requests');
    await dashboard.waitForRequests();
    await dashboard.createRequest('Activities', description);

    const row = dashboard.requestRow(description);
    await row.waitFor();
    const mine = await api.call(datasetEndpoints.requests, { query: { flatFileReqType: 'user' } });
    const request = mine.rows.find((entry) => entry.description === description);
    expect(request).toMatchObject({
      datasetType: 'Activities',
      status: 'pending',
      requestedBy: demoEmailForRole('FULL_USER'),
      cancelled_by: null,
    });
    expect(await row.getAttribute('data-status')).toBe('pending');
    const cells = await row.locator('td').allInnerTexts();
    expect(cells[0]).toBe('Activities');
    expect(cells[2]).toBe(request!.requestedBy);
    expect(cells[4]).toContain('Pending');
  });

  it('cancels it after confirming: Cancelled, by their e-mail', async () => {
    const { dashboard, api, page } = await actor('FULL_USER');
    await dashboard.cancelRequest(description);
    const row = dashboard.requestRow(description);
    await page.locator('[data-testid="request-row"][data-status="cancelled"]').filter({ hasText: description }).waitFor();
    expect(await row.locator('td').nth(4).innerText()).toContain('Cancelled');
    expect((await row.getByTestId('request-cancelled-by').innerText()).trim()).toBe(`by ${demoEmailForRole('FULL_USER')}`);
    expect(await row.getByTestId('request-cancel').count()).toBe(0);

    const mine = await api.call(datasetEndpoints.requests, { query: { flatFileReqType: 'user' } });
    expect(mine.rows.find((entry) => entry.description === description)).toMatchObject({
      status: 'cancelled',
      cancelled_by: demoEmailForRole('FULL_USER'),
    });
    await screenshot(page, 'dashboard-request-cancelled');
  });

  it('another user does not see it', async () => {
    const { dashboard, api } = await actor('FLAT_FILE_ONLY');
    const theirs = await api.call(datasetEndpoints.requests, { query: { flatFileReqType: 'user' } });
    expect(theirs.rows.map((entry) => entry.description)).not.toContain(description);
    await dashboard.openTab('requests');
    await dashboard.waitForRequests();
    expect(await dashboard.requestRow(description).count()).toBe(0);
  });
});
