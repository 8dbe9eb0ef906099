import crypto from 'node:crypto';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueEmail } from './support/api.ts';
import { cspViolations, newAppContext, screenshot, useBrowser } from './support/browser.ts';
import { outboxMark, verifyLinkOf, waitForMail } from './support/outbox.ts';
import { SetPasswordPage } from './support/pages/account-pages.ts';
import { LoginPage } from './support/pages/login-page.ts';
import { SubscriptionsPage } from './support/pages/subscriptions-page.ts';
import { roleLanding } from './support/route-expectations.ts';
import { waitUntil } from './support/wait.ts';

/*
 * Account administration in the browser (issue 16, /admin/subscriptions): a KB admin onboards an
 * organisation and two users, each user sets a password from the mailed link and logs in with the
 * granted role, the admin tops up credits, and ending a logged-in user's only subscription sends
 * that user's next request to the login page.
 */
const browser = useBrowser();
let adminContext: BrowserContext;
let admin: SubscriptionsPage;
const userContexts: BrowserContext[] = [];

const suffix = crypto.randomBytes(3).toString('hex');
const organisation = `E2E Onboarding ${suffix}`;
const invited = uniqueEmail('onboard-invited');
const linked = uniqueEmail('onboard-linked');
const password = 'onboarding maple 4821';

/** In a fresh browser profile: sets the password from the link, logs in, and lands where a FULL_USER lands. */
async function setPasswordAndLogIn(link: string, email: string): Promise<Page> {
  const context = await newAppContext(browser());
  userContexts.push(context);
  const page = await context.newPage();
  const setPassword = new SetPasswordPage(page);
  await setPassword.openLink(link);
  await setPassword.setPassword(password);
  const login = new LoginPage(page);
  await login.openLogin();
  const answer = await login.submit(email, password);
  expect(answer.status(), `${email} logs in with the password set from the link`).toBe(200);
  await login.expectLanding(roleLanding('FULL_USER'), 'the granted Full user role opens its landing page');
  return page;
}

beforeAll(async () => {
  adminContext = await newAppContext(browser());
  const page = await adminContext.newPage();
  await new LoginPage(page).logInAs('GOSTAR_ADMIN');
  admin = new SubscriptionsPage(page);
  await admin.openSubscriptions();
}, 120_000);

afterAll(async () => {
  const contexts = [adminContext, ...userContexts].filter(Boolean);
  const violations = contexts.flatMap((context) => [...cspViolations(context)]);
  for (const context of contexts) await context.close();
  expect(violations, 'the Content Security Policy blocked nothing').toEqual([]);
});

describe('account administration', () => {
  let linkedPage: Page;

  it('creates an organisation that lists its seats and no users yet', async () => {
    const row = await admin.createOrganisation(organisation, 5);
    expect(await row.innerText()).toMatch(/0 \/ 5 \(0\)/);
  });

  it('creates an invited user whose mailed link sets a password that logs in with the granted role', async () => {
    const mark = outboxMark();
    const drawer = await admin.createUser({
      email: invited,
      firstName: 'Ivy',
      lastName: 'Invited',
      organisation,
      roleLabel: 'Full user',
      invite: true,
    });
    expect(await drawer.getByTestId('account-state').innerText()).toBe('Invited');
    expect(await drawer.getByTestId('user-subscriptions').locator('tr[data-role="FULL_USER"]').count()).toBe(1);

    await setPasswordAndLogIn(verifyLinkOf(await waitForMail(invited, mark)), invited);
  });

  it('tops up the credits of a user: the balance shown changes and the ledger has the movement', async () => {
    const drawer = await admin.openUser(invited);
    const balance = drawer.getByTestId('credit-balance');
    await drawer.getByTestId('credit-ledger').or(drawer.getByTestId('empty-state')).first().waitFor();
    const before = Number((await balance.innerText()).replace(/\D/g, ''));
    await admin.addCredits(drawer, 1250, 'E2E top-up');
    const after = await waitUntil(
      async () => Number((await balance.innerText()).replace(/\D/g, '')),
      (value) => value === before + 1250,
    );
    expect(after).toBe(before + 1250);
    const ledgerRow = drawer.getByTestId('credit-ledger').locator('tbody tr').first();
    await ledgerRow.filter({ hasText: 'E2E top-up' }).waitFor();
    expect(await ledgerRow.innerText()).toContain('+1,250');
    await admin.closeDrawer();
  });

  it('creates a user without an invitation and mails the password link on request', async () => {
    const drawer = await admin.createUser({
      email: linked,
      firstName: 'Lee',
      lastName: 'Linked',
      organisation,
      roleLabel: 'Full user',
      invite: false,
    });
    const mark = outboxMark();
    await drawer.getByTestId('action-sendPasswordLink').click();
    await admin.confirm();
    linkedPage = await setPasswordAndLogIn(verifyLinkOf(await waitForMail(linked, mark)), linked);
  });

  it('ends the only subscription of a logged-in user: the confirmation warns, and their next request goes to login', async () => {
    const drawer = await admin.openUser(linked);
    const row = drawer.getByTestId('user-subscriptions').locator('tr[data-role="FULL_USER"]');
    await row.getByTestId('end-subscription').click();
    const confirmation = admin.page.getByRole('dialog', { name: /^End Full user now/ });
    expect(await confirmation.innerText()).toMatch(/open sessions will be closed/);
    await admin.confirm();
    await row
      .getByTestId('subscription-status')
      .filter({ hasText: /^ended/ })
      .waitFor();
    await screenshot(admin.page, 'admin-onboarding-ended');

    // The user's page still shows; the next request to the server is refused.
    await linkedPage.reload({ waitUntil: 'domcontentloaded' });
    await new LoginPage(linkedPage).expectLanding({
      pathname: '/login',
      dataPage: '/login',
      look: null,
      reason: 'a user without a running subscription is sent to log in',
    });
  });

  it('lists the organisation with its two users, both taking a seat (an ended subscription keeps the account)', async () => {
    await admin.tab('Organisations');
    await admin.page.getByLabel('Search organisations').fill(organisation);
    const row = admin.page.getByTestId('organisations-table').locator(`tr[data-organisation="${organisation}"]`);
    const text = await waitUntil(
      async () => ((await row.count()) === 1 ? row.innerText() : ''),
      (shown) => /\b2 \/ 5 \(2\)/.test(shown),
    );
    expect(text).toMatch(/\b2 \/ 5 \(2\)/);
  });
});
