import crypto from 'node:crypto';
import type { BrowserContext, Page } from 'playwright-core';
import { searchEndpoints } from '@kb/contracts/search-api';
import { chemistryEndpoints } from '@kb/contracts/chemistry';
import type { SearchCriteria } from '@kb/contracts/search';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiSession } from './support/api-session.ts';
import { newAppContext, screenshot, useBrowser } from './support/browser.ts';
import { LoginPage } from './support/pages/login-page.ts';
import { SearchPage } from './support/pages/search-page.ts';
import { StructureEditorModal } from './support/pages/structure-editor-modal.ts';
import { useSeededServer } from './support/seeded-server.ts';

/*
 * Structure search end to end against a server with one demo chunk (1,000 structures): a ring
 * drawn in Ketcher is searched, the row previews its hits drawn with the ring highlighted, and the
 * counts equal the API's for the same criteria. RDKit highlights in orange (#FF8C19).
 */
const server = useSeededServer({ chunks: 1 });
const browser = useBrowser();
const HIGHLIGHT = /#FF8C19/i;

let api: ApiSession;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  api = await ApiSession.logIn(server().baseUrl, 'FULL_USER');
  context = await newAppContext(browser(), server().baseUrl);
  page = await context.newPage();
  await new LoginPage(page).logInAs('FULL_USER');
}, 120_000);
afterAll(async () => {
  await context?.close();
});

const isDepiction = (url: string) => new URL(url).pathname === chemistryEndpoints.depiction.path;

describe('structure search in the browser', () => {
  it('draws a ring in Ketcher, previews highlighted hits, and searches', async () => {
    const search = new SearchPage(page);
    await search.openSearch();
    const row = await search.addRow('Add Structure row');
    const editor = new StructureEditorModal(page);
    await editor.openFrom(row);
    await editor.drawBenzene();

    // The preview asks for its drawings with the query to highlight.
    const highlighted = page.waitForRequest((r) => isDepiction(r.url()) && new URL(r.url()).searchParams.get('highlight') === 'c1ccccc1', {
      timeout: 60_000,
    });
    await editor.useStructure();
    const preview = row.getByTestId('structure-preview');
    await preview.waitFor({ timeout: 60_000 });
    const tiles = row.getByTestId('structure-preview-hit');
    await expect.poll(() => tiles.count(), { timeout: 30_000 }).toBeGreaterThan(0);
    await highlighted;
    // Each tile shows an RDKit drawing from a blob URL; what is shown has the ring in orange.
    const image = tiles.first().getByTestId('structure-image');
    await expect.poll(() => image.getAttribute('src'), { timeout: 30_000 }).toMatch(/^blob:/);
    const svg = await image.evaluate(async (img) => (await fetch((img as HTMLImageElement).src)).text());
    expect(svg).toMatch(/<svg/);
    expect(svg).toMatch(HIGHLIGHT);
    await expect.poll(() => row.getByTestId('structure-preview-summary').innerText()).toMatch(/structures/);
    await screenshot(page, 'structure-search-preview');

    const { criteria } = await search.search();
    const shown = await search.searchCounts();
    const row0 = criteria.rows[0];
    expect(row0?.selectedOption).toBe('structure');
    const answer = await api.call(searchEndpoints.allResultsCount, {
      body: { searchcriteria: criteria as SearchCriteria, sessionid: crypto.randomUUID() },
    });
    expect(shown.structures).toBe(answer.rows[0]!.stridscount);
    expect(shown.structures).toBeGreaterThan(0);
    expect(shown.activities).toBe(answer.rows[0]!.actidscount);
  }, 180_000);

  it('keeps only the nearest N of a similarity search, in the preview, the counts and the sent criteria', async () => {
    // A stored structure as the query: its nearest start with itself.
    const stored = await api.call(chemistryEndpoints.structuresBySmilesSmarts, {
      body: { inputType: 'smiles', value: 'c1ccncc1', category: 'substructure', feature: 'desalted', limit: 1 },
    });
    const query = stored.hits[0]!.smiles;
    // A page of its own: the rows of the tests before stay on the other one.
    const own = await newAppContext(browser(), server().baseUrl);
    const page = await own.newPage();
    await new LoginPage(page).logInAs('FULL_USER');
    const search = new SearchPage(page);
    await search.openSearch();
    const row = await search.addRow('Add Structure row');
    await row.getByRole('radiogroup', { name: 'Structure input' }).getByText('SMILES', { exact: true }).click();
    await row.getByRole('textbox', { name: 'SMILES' }).fill(query);
    await row.getByText('Similarity', { exact: true }).click();
    await row.getByRole('textbox', { name: 'Similarity min' }).fill('0.2');
    const nearest = row.getByRole('textbox', { name: /Nearest only/ });
    await nearest.fill('7');
    // The preview counts the 7 and shows the query's own structure first, at 1.00.
    const summary = row.getByTestId('structure-preview-summary');
    await expect.poll(() => summary.innerText(), { timeout: 60_000 }).toMatch(/^7 structures of/);
    await expect.poll(() => row.getByTestId('structure-preview-hit').count(), { timeout: 30_000 }).toBe(7);
    await screenshot(page, 'structure-search-nearest');

    const { criteria } = await search.search();
    expect(criteria.rows[0]).toMatchObject({ structure: { category: 'similarity', similarityMin: 0.2, similarityNearest: 7 } });
    const shown = await search.searchCounts();
    expect(shown.structures).toBe(7);

    // More than the most it may ask for is brought back to it when the field is left.
    await nearest.fill('20000');
    await nearest.blur();
    await expect.poll(() => nearest.inputValue()).toBe('10,000');
    await own.close();
  }, 180_000);

  it('says what is wrong with a mistyped SMILES, in the row and when searching', async () => {
    const search = new SearchPage(page);
    await search.openSearch();
    const row = await search.addRow('Add Structure row');
    await row.getByRole('radiogroup', { name: 'Structure input' }).getByText('SMILES', { exact: true }).click();
    await row.getByRole('textbox', { name: 'SMILES' }).fill('c1ccc(C(=O)O');
    const error = row.getByTestId('structure-preview-error');
    await error.waitFor({ timeout: 30_000 });
    expect(await error.innerText()).toMatch(/extra open parentheses[\s\S]*position/);
    await page.getByTestId('run-search').click();
    const alert = page.getByTestId('search-error');
    await alert.waitFor({ timeout: 30_000 });
    expect(await alert.innerText()).toMatch(/RDKit could not read the SMILES/);
    // The row is kept as typed: nothing is lost.
    expect(await row.getByRole('textbox', { name: 'SMILES' }).inputValue()).toBe('c1ccc(C(=O)O');
  }, 120_000);
});
