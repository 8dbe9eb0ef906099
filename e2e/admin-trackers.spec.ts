import type { BrowserContext, Page } from 'playwright-core';
import { authEndpoints, uploadEndpoints } from '@kb/contracts/api';
import type { UploadValidateResponse } from '@kb/contracts/uploads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiSession } from './support/api-session.ts';
import { newAppContext, screenshot, useBrowser } from './support/browser.ts';
import { LoginPage } from './support/pages/login-page.ts';
import { useSeededServer } from './support/seeded-server.ts';

/*
 * /admin/trackers, reported terms: a FULL_USER's upload leaves a term unidentified and reports it
 * (through the API: the upload UI has its own spec); the KB admin resolves it in the browser to a
 * structure picked in the dialog; the same upload then identifies the term as that structure.
 * The picker needs compounds: a server with one demo chunk.
 */
const server = useSeededServer({ chunks: 1 });
const browser = useBrowser();
let context: BrowserContext;
let page: Page;
let user: ApiSession;

const TERM = `E2E-Curated-${Date.now().toString(36)}`;

async function upload(listType: 'compoundname', terms: string[]): Promise<UploadValidateResponse> {
  return user.call(uploadEndpoints.validate, {
    body: { listType, fileName: 'terms.txt', contentBase64: Buffer.from(terms.join('\n')).toString('base64') },
  });
}

beforeAll(async () => {
  user = await ApiSession.logIn(server().baseUrl, 'FULL_USER');
  context = await newAppContext(browser(), server().baseUrl);
  page = await context.newPage();
  await new LoginPage(page).logInAs('GOSTAR_ADMIN');
}, 180_000);

afterAll(async () => {
  await context?.close();
});

describe('trackers: reported terms', () => {
  it('resolves a reported term to a structure, and the same upload then identifies it', async () => {
    const first = await upload('compoundname', [TERM]);
    expect(first.unidentified).toEqual([TERM]);
    const profile = await user.call(authEndpoints.profile, {});
    await user.call(uploadEndpoints.reportTermsSave, { body: { user_id: profile.userId, listType: 'compoundname', terms: [TERM] } });
    await page.goto(new URL('/admin/trackers', server().baseUrl).href);
    await page.getByRole('tab', { name: 'Reported terms' }).click();
    const row = page.getByTestId('terms-table').locator('tbody tr', { hasText: TERM });
    await row.waitFor();
    await expect.poll(() => row.getByTestId('term-status').innerText()).toBe('open');

    await row.getByRole('button', { name: `Resolve ${TERM}` }).click();
    const dialog = page.getByRole('dialog', { name: `Resolve “${TERM}”` });
    // The picker searches compound names (or a structure id); its options end with the structure id.
    await dialog.getByTestId('curation-target').fill('a');
    const option = page.getByRole('option').first();
    const picked = /\((\d+)\)$/.exec(await option.innerText());
    expect(picked, 'an option ends with its structure id').not.toBeNull();
    const strId = Number(picked![1]);
    await option.click();
    await dialog.getByLabel('Note').fill('Company code of this structure');
    await screenshot(page, 'admin-trackers-resolve');
    await dialog.getByRole('button', { name: 'Resolve as synonym' }).click();
    await page.getByText('Term resolved').waitFor();
    await dialog.waitFor({ state: 'detached' });
    // The open list no longer holds it; the resolved list does, with who and what.
    await row.waitFor({ state: 'detached' });
    await page.getByRole('combobox', { name: 'Status' }).click();
    await page.getByRole('option', { name: 'Resolved' }).click();
    const resolved = page.getByTestId('terms-table').locator('tbody tr', { hasText: TERM });
    await resolved.waitFor();
    expect(await resolved.getByTestId('term-status').innerText()).toBe('resolved');
    expect(await resolved.innerText()).toContain('gostar-admin@demo.test');

    const again = await upload('compoundname', [TERM]);
    expect(again.unidentified).toEqual([]);
    expect(again.valid).toEqual([expect.objectContaining({ term: TERM, ids: [strId] })]);
  });
});
