import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { kbReleaseEndpoints } from '@kb/contracts/kb-loads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildChemblFixture } from '../apps/server/src/modules/knowledge-base/chembl/fixture.test-support.ts';
import { ApiSession } from './support/api-session.ts';
import { newAppContext, screenshot, useBrowser } from './support/browser.ts';
import { LoginPage } from './support/pages/login-page.ts';
import type { RunningServer } from './support/server.ts';
import { RESULTS_DIR, startServer } from './support/server.ts';

/*
 * Loading a new release from the super-admin page (issue 17): the spec writes a fixture ChEMBL
 * release into the import folder (KB_IMPORT_DIR) of its own server, which starts without demo data
 * (DEMO_DATA_SIZE=none, so no "allow mixing" is needed). The super admin imports it, watches the
 * progress and reads the report; a search user then sees "What's new" on /home.
 */
const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'kb-e2e-imports-'));
const browser = useBrowser();
let server: RunningServer;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  buildChemblFixture(path.join(folder, 'chembl_99.db'));
  server = await startServer({ logFile: path.join(RESULTS_DIR, 'e2e-kb-releases-server.log'), env: { KB_IMPORT_DIR: folder } });
}, 180_000);

afterAll(async () => {
  for (const context of contexts) await context.close();
  await server?.stop();
  fs.rmSync(folder, { recursive: true, force: true });
});

describe('knowledge-base releases', () => {
  it('a super admin imports a release from the import folder, watches the progress and reads the report', async () => {
    const context = await newAppContext(browser(), server.baseUrl);
    contexts.push(context);
    const page = await context.newPage();
    await new LoginPage(page).logInAs('SUPER_ADMIN');
    await page.goto(new URL('/superadmin?tab=releases', server.baseUrl).href);

    const row = page.locator('[data-testid="release-files"] tr[data-file="chembl_99.db"]');
    await row.waitFor();
    await row.getByRole('button', { name: 'Import chembl_99.db' }).click();
    await page.getByRole('dialog').getByText('Import chembl_99.db?').waitFor();
    await page.getByTestId('confirm-action').click();

    // The progress bar shows up (running, or already done on this small file) and ends at 100 %.
    await page.getByTestId('import-status').waitFor();
    await page.locator('[data-testid="import-status"][data-state="done"]').waitFor({ timeout: 120_000 });
    expect(await page.getByTestId('import-status').getAttribute('data-percent')).toBe('100');

    // The loads list reads again when the import finishes; the newest load's report is shown.
    const activities = page.locator('[data-testid="load-changes"] tr[data-entity="activities"]');
    await activities.waitFor({ timeout: 20_000 });
    const cells = await activities.locator('td').allInnerTexts();
    // Fixture N: 11 activities, one of them of a molecule not in the file (skipped).
    expect(cells.slice(0, 4)).toEqual(['Activities', '10', '0', '0']);
    const quality = await page.getByTestId('load-quality').innerText();
    expect(quality).toContain('Activities with a structure');
    expect(quality).toContain('molecule not in the file');
    await screenshot(page, 'superadmin-releases');

    // The server agrees with the page.
    const admin = await ApiSession.logIn(server.baseUrl, 'SUPER_ADMIN');
    const { loads } = await admin.call(kbReleaseEndpoints.loads, {});
    expect(loads[0]).toMatchObject({ kind: 'import', label: 'chembl_99', status: 'complete' });
  });

  it('a search user sees what is new in the release on /home', async () => {
    const context = await newAppContext(browser(), server.baseUrl);
    contexts.push(context);
    const page = await context.newPage();
    await new LoginPage(page).logInAs('FULL_USER');
    await page.goto(new URL('/home', server.baseUrl).href);
    const card = page.getByTestId('whats-new');
    await card.waitFor();
    expect(await card.getByRole('heading').innerText()).toBe("What's new in chembl_99");
    const cells = await card.locator('tr[data-entity="activities"] td').allInnerTexts();
    expect(cells).toEqual(['Activities', '10', '0', '0']);
    await screenshot(page, 'home-whats-new');
  });
});
