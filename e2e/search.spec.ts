import crypto from 'node:crypto';
import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { searchEndpoints } from '@kb/contracts/search-api';
import { lookupEndpoints } from '@kb/contracts/lookups';
import { treeEndpoints } from '@kb/contracts/trees';
import { uploadEndpoints } from '@kb/contracts/uploads';
import { ACTIVITY_CAP_MESSAGE, SAVED_QUERY_FORMAT } from '@kb/contracts/search';
import type { SearchCriteria } from '@kb/contracts/search';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApiSession } from './support/api-session.ts';
import { screenshot, useBrowser } from './support/browser.ts';
import { useLoggedInUser, useSearchPageEachTest } from './support/logged-in.ts';
import { apiCounts, readCounts } from './support/pages/search-page.ts';
import type { SearchPage } from './support/pages/search-page.ts';
import { useSeededServer } from './support/seeded-server.ts';

/*
 * The guided search against a server with two demo chunks (2,000 structures, ~21,000
 * activities). The activity cap is lowered to 10,000 so that the cap message can be reached with
 * this little data; the other searches stay well under it.
 */
const ACTIVITY_CAP = 10_000;
const server = useSeededServer({ chunks: 2, env: { SEARCH_ACTIVITY_CAP: String(ACTIVITY_CAP) } });
const browser = useBrowser();
// One login for the file: every test opens its own tab, which starts with an empty builder
// (session storage) and restores the login from local storage.
const user = useLoggedInUser(server, browser, 'FULL_USER', {
  firstPage: 'close',
  // Look-ups and tree counts are built on first use after a seed: build them now, not inside a test's timeout.
  prepare: (session) =>
    Promise.all([
      session.call(lookupEndpoints.target, { query: { term: 'a', limit: 1 } }, 120_000),
      session.call(treeEndpoints.children, { params: { tree: 'target', id: 'root' } }, 120_000),
    ]),
});
const searchTab = useSearchPageEachTest(user);

let api: ApiSession;
let page: Page;
let search: SearchPage;

/** Saved searches of the demo user are removed again: a default search would open in every later tab. */
async function deleteSavedSearches(): Promise<void> {
  const { rows } = await api.call(searchEndpoints.criteriaFetch, {});
  for (const row of rows) await api.call(searchEndpoints.criteriaDelete, { body: { criteriaId: row.criteria_id } });
}

beforeEach(() => {
  api = user().api;
  search = searchTab();
  page = search.page;
});

describe('building and running a search', () => {
  it('combines an autocompleted target, a tree selection and an uploaded id file, and shows the counts the API gives', async () => {
    const target = await search.addRow('Add Target/Enzyme/Protein row');
    const picked = await search.pick(target, 'Targets', 'EGFR', /epidermal growth factor receptor/i);
    await expect.poll(() => target.locator('.mantine-Pill-root').allInnerTexts()).toEqual([expect.stringContaining(picked)]);

    // Tree: open the first top-level entry with the keyboard and select its first child with data
    // (entries without data cannot be selected) with Space.
    const treeRow = await search.addRow('Add Target tree row');
    const tree = treeRow.getByRole('tree');
    const firstRoot = tree.getByRole('treeitem').first();
    await firstRoot.waitFor();
    await firstRoot.focus();
    await page.keyboard.press('ArrowRight');
    const children = firstRoot.getByRole('group').getByRole('treeitem');
    await children.first().waitFor();
    const disabled = await children.evaluateAll((items) => items.map((item) => item.getAttribute('aria-disabled') === 'true'));
    const index = disabled.indexOf(false);
    expect(index, 'a child of the first entry has data').toBeGreaterThanOrEqual(0);
    const child = children.nth(index);
    for (let step = 0; step <= index; step++) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Space');
    await expect.poll(() => child.getAttribute('aria-selected')).toBe('true');
    const childLabel = (await child.getAttribute('aria-label'))?.split(',')[0] ?? '';
    await expect.poll(() => treeRow.getByTestId('tree-selection').innerText()).toContain(childLabel);

    // Structure ids from a .txt file.
    const structure = await search.addRow('Add Structure row');
    await search.upload(structure, { name: 'structure-ids.txt', content: '1\n2\n3\n' }, 'Structure ids');
    const report = structure.getByTestId('upload-report');
    await report.waitFor({ timeout: 30_000 });
    await expect.poll(() => structure.getByTestId('structure-ids').locator('.mantine-Pill-root').allInnerTexts()).toEqual(['1', '2', '3']);

    // OR between the rows: the union has data whichever tree entry came first.
    await search.setOperator(0, 'OR');
    await search.setOperator(1, 'OR');
    const { criteria } = await search.search();
    expect(criteria.rows.map((row) => [row.selectedOption, row.operator])).toEqual([
      ['target', 'OR'],
      ['treeview', 'OR'],
      ['structure', null],
    ]);
    expect(criteria.rows[0]).toMatchObject({
      targets: [{ label: expect.stringMatching(/epidermal growth factor receptor/i), ids: [expect.any(Number)] }],
    });
    expect(criteria.rows[1]).toMatchObject({ tree: 'Target', labels: [childLabel] });
    expect(criteria.rows[2]).toMatchObject({ strIds: [1, 2, 3] });

    const shown = await search.searchCounts();
    expect(shown).toEqual(await apiCounts(api, criteria));
    expect(shown.structures).toBeGreaterThan(0);
    // Thousands separators, and a link to the results tab of each figure.
    const structuresLink = page.getByTestId('search-counts').locator('[data-count="structures"] a');
    expect(await structuresLink.innerText()).toBe(shown.structures.toLocaleString('en-US'));
    expect(await structuresLink.getAttribute('href')).toBe('/results/structuretab');
    await screenshot(page, 'search-counts');
  });

  it('shows the knowledge-base counts before any search, as the API counts them', async () => {
    const table = page.getByTestId('kb-counts');
    await table.waitFor();
    const kb = await api.call(searchEndpoints.defaultCount, {});
    expect(await readCounts(table)).toEqual({
      structures: kb.strIdsCount,
      compounds: kb.gvkIdsCount,
      activities: kb.actIdsCount,
      assays: kb.assayIdsCount,
      references: kb.refIdsCount,
      clinicalCompounds: kb.clinicalCompoundIdsCount,
    });
    expect(await table.locator('[data-count="activities"] [data-value]').innerText()).toMatch(/^\d{1,3}(,\d{3})+$/);
  });

  it('refuses a minimum above its maximum next to the field and keeps every other row', async () => {
    const target = await search.addRow('Add Target/Enzyme/Protein row');
    await search.pick(target, 'Targets', 'EGFR', /epidermal growth factor receptor/i);
    const structure = await search.addRow('Add Structure row');
    await structure.getByRole('button', { name: /Structural properties/ }).click();
    await structure.getByLabel('Molecular weight minimum').fill('600');
    await structure.getByLabel('Molecular weight maximum').fill('500');

    const countCalls: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === searchEndpoints.allResultsCount.path) countCalls.push(request.url());
    });
    await page.getByTestId('run-search').click();
    await expect.poll(() => structure.getByLabel('Molecular weight minimum').getAttribute('aria-invalid')).toBe('true');
    expect(await structure.getByText('The minimum is above the maximum').isVisible()).toBe(true);
    expect(await page.getByTestId('form-error').innerText()).toContain('Correct the marked field');
    expect(countCalls).toEqual([]);
    // Nothing was lost: both rows and the picked target are still there.
    expect(await search.rows().count()).toBe(2);
    expect(await target.locator('.mantine-Pill-root').count()).toBe(1);
    await screenshot(page, 'search-min-above-max');

    // Fixing the field lets the search run.
    await structure.getByLabel('Molecular weight minimum').fill('100');
    await search.search();
    await search.searchCounts();
    expect(await page.getByTestId('form-error').count()).toBe(0);
  });

  it('shows the exact activity-cap message and zero counts when a search exceeds the cap', async () => {
    const assay = await search.addRow('Add Assay row');
    for (const type of ['Binding', 'Functional', 'ADME', 'Toxicity', 'Physicochemical', 'Unassigned'])
      await assay.getByLabel(type, { exact: true }).check();
    await page.getByTestId('run-search').click();
    const error = page.getByTestId('search-error');
    await error.waitFor({ timeout: 60_000 });
    expect(await error.innerText()).toBe(ACTIVITY_CAP_MESSAGE);
    const shown = await readCounts(page.getByTestId('search-counts'));
    expect(Object.values(shown)).toEqual([0, 0, 0, 0, 0, 0]);
    expect(await search.rows().count()).toBe(1);
  });
});

describe('uploading files of search terms', () => {
  it('lists invalid and unidentified terms and downloads the unidentified ones', async () => {
    const structure = await search.addRow('Add Structure row');
    const content = '1\n2\nnot-an-id\n99999901\n99999902\n';
    const expected = await api.call(uploadEndpoints.validate, {
      body: { listType: 'strid', fileName: 'mixed.txt', contentBase64: Buffer.from(content).toString('base64') },
    });
    expect(expected.unidentified).toEqual(['99999901', '99999902']);

    await search.upload(structure, { name: 'mixed.txt', content }, 'Structure ids');
    const report = structure.getByTestId('upload-report');
    await report.waitFor({ timeout: 30_000 });
    expect(await report.getByTestId('upload-valid-terms').innerText()).toMatch(/^1\b.*, 2\b/);
    expect(await report.getByTestId('upload-invalid-terms').innerText()).toContain('not-an-id');
    expect(await report.getByTestId('upload-unidentified-terms').innerText()).toBe('99999901, 99999902');
    // The valid ones entered the row; the others did not.
    await expect.poll(() => structure.getByTestId('structure-ids').locator('.mantine-Pill-root').allInnerTexts()).toEqual(['1', '2']);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      report.getByRole('button', { name: 'Download unidentified terms' }).click(),
    ]);
    const file = await download.path();
    const lines = fs.readFileSync(file, 'utf8').split(/\r?\n/).filter(Boolean);
    expect(lines).toEqual(['99999901', '99999902']);
    await screenshot(page, 'search-upload-report');

    await report.getByRole('button', { name: 'Report to curators' }).click();
    await report.getByRole('status').waitFor();
    expect(await report.getByRole('button', { name: 'Reported' }).isDisabled()).toBe(true);
  });

  it('refuses a file that is not a list of terms and keeps the rows already built', async () => {
    const target = await search.addRow('Add Target/Enzyme/Protein row');
    await search.pick(target, 'Targets', 'EGFR', /epidermal growth factor receptor/i);
    const structure = await search.addRow('Add Structure row');
    const chooser = page.waitForEvent('filechooser');
    await structure.getByRole('button', { name: /Upload/ }).click();
    await page.getByRole('menuitem', { name: 'Structure ids' }).click();
    await (await chooser).setFiles({ name: 'structure.sdf', mimeType: 'chemical/x-mdl-sdfile', buffer: Buffer.from('CCO\n$$$$\n') });
    const error = structure.getByTestId('upload-error');
    await error.waitFor();
    expect(await error.innerText()).toContain('not a .txt, .csv or .xlsx file');
    expect(await search.rows().count()).toBe(2);
    expect(await target.locator('.mantine-Pill-root').count()).toBe(1);
  });
});

describe('saved queries', () => {
  it('opens a saved query file: its rows, operators and charts come back', async () => {
    const file = {
      format: SAVED_QUERY_FORMAT,
      name: 'Inhibitors in phase II',
      savedAt: new Date().toISOString(),
      searchcriteria: {
        rows: [
          { selectedOption: 'activitymechanism', operator: 'OR', mechanisms: ['Inhibitor'] },
          { selectedOption: 'clinicalphase', operator: null, phases: ['Phase II'] },
        ],
      },
      appliedFilters: ['target', 'year', 'source', 'company', 'indication'].map((chartKey) => ({ chartKey, include: ['x'] })),
    };
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Open query' }).click();
    await (await chooser).setFiles({ name: 'inhibitors.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(file)) });

    await expect.poll(() => search.rows().count()).toBe(2);
    expect(await search.rows().nth(0).getByRole('heading').innerText()).toBe('Activity Mechanism');
    expect(await search.rows().nth(0).locator('.mantine-Pill-root').allInnerTexts()).toEqual(['Inhibitor']);
    expect(await search.rows().nth(1).locator('.mantine-Pill-root').allInnerTexts()).toEqual(['Phase II']);
    expect(await page.getByTestId('row-operator').getByRole('radio', { name: 'OR' }).isChecked()).toBe(true);
    // Spec §4: more than four saved charts become the whole set for the results page.
    const charts = await page.evaluate(
      () => JSON.parse(window.sessionStorage.getItem('kb-search-charts') ?? '{}') as { state?: { enabledCharts?: string[] } },
    );
    expect(charts.state?.enabledCharts).toEqual(['target', 'year', 'source', 'company', 'indication']);
  });

  it('says so when the opened file is not a saved query, and keeps the rows', async () => {
    await search.addRow('Add Company row');
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Open query' }).click();
    await (await chooser).setFiles({ name: 'notes.json', mimeType: 'application/json', buffer: Buffer.from('{"hello": "world"}') });
    const error = page.getByTestId('page-error');
    await error.waitFor();
    expect(await error.innerText()).toContain('notes.json: This file is not a saved KB Search query');
    expect(await search.rows().count()).toBe(1);
  });

  it('saves the query to a file that opens again into the same rows', async () => {
    const target = await search.addRow('Add Target/Enzyme/Protein row');
    await search.pick(target, 'Targets', 'EGFR', /epidermal growth factor receptor/i);
    const activity = await search.addRow('Add Activity Types row');
    await activity.getByLabel('Activity type 1').fill('IC50');
    await activity.getByLabel('Relation 1').click();
    await page.getByRole('option', { name: 'Range (R)' }).click();
    await activity.getByLabel('Minimum 1').fill('1');
    await activity.getByLabel('Maximum 1').fill('100');

    // Unsaved rows are not cleared without the confirmation (spec §5 text); cancelling keeps them.
    await page.getByRole('button', { name: 'Clear all' }).click();
    const confirm = page.getByRole('dialog', { name: 'Clear every row?' });
    await confirm.getByText('Are you sure to proceed with current input?').waitFor();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    expect(await search.rows().count()).toBe(2);

    await page.getByRole('button', { name: 'Save query' }).click();
    await page.getByRole('dialog').getByLabel('Name').fill('EGFR IC50');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('dialog').getByRole('button', { name: 'Download' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('EGFR IC50.json');
    const saved = JSON.parse(fs.readFileSync(await download.path(), 'utf8')) as { format: string; searchcriteria: SearchCriteria };
    expect(saved.format).toBe(SAVED_QUERY_FORMAT);
    expect(saved.searchcriteria.rows[1]).toMatchObject({
      selectedOption: 'activitytypes',
      activities: [{ activityType: 'IC50', prefix: 'R', minValue: 1, maxValue: 100 }],
    });

    // Saved, so clearing goes ahead at once; the file brings everything back.
    await page.getByRole('button', { name: 'Clear all' }).click();
    await expect.poll(() => search.rows().count()).toBe(0);
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Open query' }).click();
    await (await chooser).setFiles(await download.path());
    await expect.poll(() => search.rows().count()).toBe(2);
    expect(await search.rows().nth(1).getByLabel('Maximum 1').inputValue()).toBe('100');
  });
});

describe('saved searches in the account', () => {
  afterEach(deleteSavedSearches);

  it('saves a search under a name, opens it from the home page and deletes it', async () => {
    const degrader = await search.addRow('Add Degrader Type row');
    await degrader.getByLabel('Bivalent degraders (PROTACs)').check();
    await page.getByRole('button', { name: 'More saving options' }).click();
    await page.getByRole('menuitem', { name: /Save as/ }).click();
    await page.getByRole('dialog').getByLabel('Name').fill('e2e PROTACs');
    await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved “e2e PROTACs” to your account.').waitFor();

    // Saved, so clearing does not ask; then the home page brings it back into the builder.
    await page.getByRole('button', { name: 'Clear all' }).click();
    await expect.poll(() => search.rows().count()).toBe(0);
    await page.goto('/home');
    await page.getByTestId('home-saved-queries').getByRole('link', { name: 'e2e PROTACs' }).click();
    await expect.poll(() => search.rows().count()).toBe(1);
    expect(await search.rows().first().getByLabel('Bivalent degraders (PROTACs)').isChecked()).toBe(true);
    expect(new URL(page.url()).search).toBe('');

    await page.getByRole('button', { name: 'More saving options' }).click();
    await page.getByRole('menuitem', { name: 'My saved searches' }).click();
    const list = page.getByTestId('saved-criteria');
    await list.getByText('e2e PROTACs').waitFor();
    await list.getByRole('button', { name: 'Delete e2e PROTACs' }).click();
    await page.getByRole('dialog', { name: 'Delete the saved search?' }).getByRole('button', { name: 'Delete' }).click();
    await page.getByText('No saved searches yet.').waitFor();
  });
});

describe('the home page', () => {
  it('lists a recent search with its summary and runs it again into the results', async () => {
    const criteria: SearchCriteria = { rows: [{ selectedOption: 'clinicalphase', operator: null, fileName: null, phases: ['Launched'] }] };
    const sessionid = crypto.randomUUID();
    await api.call(searchEndpoints.allResultsCount, { body: { searchcriteria: criteria, sessionid } });
    await api.call(searchEndpoints.sessionSummarySave, { body: { sessionid, summary: 'Clinical Phase or Status: Launched (e2e)' } });

    await page.goto('/home');
    const recent = page.getByTestId('recent-searches');
    await recent.waitFor();
    const entry = recent.getByRole('button', { name: /Clinical Phase or Status: Launched \(e2e\)/ });
    await entry.waitFor();
    const [request] = await Promise.all([
      page.waitForRequest((r) => new URL(r.url()).pathname === searchEndpoints.allResultsCount.path, { timeout: 60_000 }),
      entry.click(),
    ]);
    expect((request.postDataJSON() as { searchcriteria: SearchCriteria }).searchcriteria).toEqual(criteria);
    await page.waitForURL((url) => url.pathname === '/results/structuretab', { timeout: 60_000 });
  });
});
