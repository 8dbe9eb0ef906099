import fs from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { authEndpoints } from '@kb/contracts/api';
import { demoEmailForRole } from '@kb/contracts/roles';
import { superAdminEndpoints } from '@kb/contracts/superadmin';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiSession } from './support/api-session.ts';
import { newAppContext, screenshot, useBrowser } from './support/browser.ts';
import { LoginPage } from './support/pages/login-page.ts';
import { sharedServer } from './support/shared-server.ts';

/*
 * The super-admin page on the shared server: a super admin grants an admin role to a demo user
 * and finds the change in the audit log, then closes another user's session. The role is revoked
 * again afterwards so that later specs see the demo users as seeded.
 */
const browser = useBrowser();
let context: BrowserContext;
let page: Page;
let superAdmin: ApiSession;
const grantee = demoEmailForRole('FLAT_FILE_ONLY');

beforeAll(async () => {
  superAdmin = await ApiSession.logIn(sharedServer().baseUrl, 'SUPER_ADMIN');
  context = await newAppContext(browser());
  page = await context.newPage();
  await new LoginPage(page).logInAs('SUPER_ADMIN');
}, 120_000);

afterAll(async () => {
  const roles = await superAdmin.call(superAdminEndpoints.adminRoles, {});
  for (const row of roles.rows.filter((r) => r.email === grantee && r.role === 'FLAT_FILE_ADMIN')) {
    await superAdmin.call(superAdminEndpoints.revokeAdminRole, { params: { subscriptionId: row.subscriptionId } });
  }
  await context?.close();
});

describe('super-admin page', () => {
  it('grants FLAT_FILE_ADMIN to a demo user and shows the change in the audit log', async () => {
    await page.goto(new URL('/superadmin?tab=roles', sharedServer().baseUrl).href);
    const user = page.getByTestId('grant-user');
    await user.click();
    await user.fill('flat-file-only');
    await page.getByRole('option', { name: grantee }).click();
    await page.getByTestId('grant-role').click();
    await page.getByRole('option', { name: 'Flat-file admin' }).click();
    await page.getByRole('button', { name: 'Grant', exact: true }).click();

    const row = page.locator(`[data-testid="admin-roles"] tbody tr[data-email="${grantee}"][data-role="FLAT_FILE_ADMIN"]`);
    await row.waitFor();
    expect(await row.innerText()).toContain('active');
    await screenshot(page, 'superadmin-roles');
    // The server agrees: the grantee holds the role now.
    const roles = await superAdmin.call(superAdminEndpoints.adminRoles, {});
    expect(roles.rows.some((r) => r.email === grantee && r.role === 'FLAT_FILE_ADMIN' && r.status === 'active')).toBe(true);

    await page.getByRole('tab', { name: 'Audit log' }).click();
    await page.getByTestId('audit-search').fill(grantee);
    const entry = page.locator('[data-testid="audit-log"] tbody tr[data-action="role.grant"]').first();
    await entry.waitFor();
    const text = await entry.innerText();
    expect(text).toContain(grantee);
    expect(text).toContain('FLAT_FILE_ADMIN');
    expect(text).toContain(demoEmailForRole('SUPER_ADMIN'));
    // Changes read as labelled fields with days as entered: never JSON, never a stored instant.
    expect(text).not.toMatch(/T\d{2}:\d{2}:\d{2}|[{}]/);
    // The action's badge shows its whole name, not "role.gr…".
    const badgeLabel = entry.locator('.mantine-Badge-label');
    expect(await badgeLabel.innerText()).toBe('role.grant');
    expect(await badgeLabel.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    await screenshot(page, 'superadmin-audit');

    // The page as a CSV file the browser saves: one line per changed field, the grant's among them.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'CSV of this page' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^audit-log-\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = fs.readFileSync(await download.path(), 'utf8').split('\r\n');
    expect(lines[0]).toBe('when,actor,action,target type,target id,target,field,before,after,ip address');
    expect(lines.some((line) => line.includes(`${demoEmailForRole('SUPER_ADMIN')},role.grant,`) && line.includes(grantee))).toBe(true);

    // A new filter: until its answer arrives, the previous page stays on screen, dimmed and marked busy.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const isAudit = (url: URL) => url.pathname === superAdminEndpoints.audit.path;
    await page.route(isAudit, async (route) => {
      await held;
      await route.continue();
    });
    await page.getByTestId('audit-search').fill('flat-file-only');
    const wrapper = (busy: boolean) => page.locator(`[aria-busy="${busy}"]`).filter({ has: page.getByTestId('audit-log') });
    await wrapper(true).and(page.locator('[data-previous="true"]')).waitFor();
    expect(await wrapper(true).evaluate((el) => (el as HTMLElement).style.opacity)).toBe('0.6');
    release();
    await wrapper(false).waitFor();
    await entry.waitFor();
    await page.unroute(isAudit);
  });

  it('closes another user’s session: that user’s next call is refused', async () => {
    const email = demoEmailForRole('EVALUATE_USER');
    const other = await ApiSession.logIn(sharedServer().baseUrl, 'EVALUATE_USER');
    await other.call(authEndpoints.profile, {});

    await page.getByRole('tab', { name: 'Sessions' }).click();
    await page.getByTestId('sessions-search').fill(email);
    const rows = page.locator(`[data-testid="open-sessions"] tbody tr[data-email="${email}"]`);
    await rows.first().waitFor();
    const before = await rows.count();
    // Most recently active first: the session just used by the API call above heads the list.
    await rows
      .first()
      .getByRole('button', { name: `Close the session of ${email}` })
      .click();
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(before - 1);
    await expect(other.call(authEndpoints.profile, {})).rejects.toThrow(/answered 401/);
  });

  it('shows the loaded data set and the run-time settings the server applies', async () => {
    const [dataset, settings] = await Promise.all([
      superAdmin.call(superAdminEndpoints.dataset, {}),
      superAdmin.call(superAdminEndpoints.settings, {}),
    ]);
    await page.getByRole('tab', { name: 'Data set' }).click();
    await expect.poll(() => page.getByTestId('dataset-label').innerText()).toBe(dataset.label);
    await page.getByRole('button', { name: 'Rebuild derived data' }).waitFor();
    await screenshot(page, 'superadmin-dataset');

    await page.getByRole('tab', { name: 'Settings' }).click();
    const limit = page.getByTestId('setting-loginPerAccountAddress');
    await limit.waitFor();
    expect(await limit.inputValue()).toBe(String(settings.values.loginPerAccountAddress));
    await screenshot(page, 'superadmin-settings');
  });
});
