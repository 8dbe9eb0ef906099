import type { Locator, Page } from 'playwright-core';
import { AppPage } from './app-page.ts';

/**
 * /admin/subscriptions: tabs Users / Organisations / Bulk onboarding; the users table
 * (`users-table`, rows `data-email`), the user drawer (`user-detail`) and its dialogs.
 */
export class SubscriptionsPage extends AppPage {
  constructor(page: Page) {
    super(page);
  }

  /** Opens the page and waits for the users list; a list that failed to load fails here with the page's message. */
  async openSubscriptions(): Promise<void> {
    await this.open('/admin/subscriptions');
    const failed = this.page.getByRole('alert').filter({ hasText: 'Could not load' });
    await this.page.getByTestId('users-table').or(this.page.getByTestId('empty-state')).or(failed).first().waitFor({ timeout: 20_000 });
    if ((await failed.count()) > 0) throw new Error(`The users list did not load: ${await failed.first().innerText()}`);
  }

  /** Switches tab; an open user page (drawer) covers the tabs, so it is closed first, as a user would. */
  async tab(name: 'Users' | 'Organisations' | 'Bulk onboarding'): Promise<void> {
    if (await this.page.getByTestId('user-detail').isVisible()) await this.closeDrawer();
    await this.page.getByRole('tab', { name }).click();
  }

  /** Creates an organisation from the Organisations tab and waits for its row. */
  async createOrganisation(name: string, seats: number): Promise<Locator> {
    await this.tab('Organisations');
    await this.page.getByTestId('new-organisation').click();
    const dialog = this.page.getByRole('dialog', { name: 'New organisation' });
    await dialog.getByLabel('Name', { exact: false }).first().fill(name);
    await dialog.getByLabel('Seats').fill(String(seats));
    await dialog.getByTestId('organisation-submit').click();
    await dialog.waitFor({ state: 'hidden' });
    const row = this.page.getByTestId('organisations-table').locator(`tr[data-organisation="${name}"]`);
    await row.waitFor();
    return row;
  }

  /**
   * Creates a user from the Users tab with a subscription of `roleLabel` (the default end date, a
   * year on) in `organisation`; the new user's drawer opens.
   */
  async createUser(input: {
    email: string;
    firstName: string;
    lastName: string;
    organisation: string;
    roleLabel: string;
    invite: boolean;
  }): Promise<Locator> {
    await this.tab('Users');
    await this.page.getByTestId('new-user').click();
    const dialog = this.page.getByRole('dialog', { name: 'New user' });
    await dialog.getByRole('textbox', { name: /^E-mail/ }).fill(input.email);
    await dialog.getByLabel(/^First name/).fill(input.firstName);
    await dialog.getByLabel(/^Last name/).fill(input.lastName);
    const organisation = dialog.getByTestId('user-organisation');
    await organisation.click();
    await organisation.fill(input.organisation);
    await this.page.getByRole('option', { name: input.organisation, exact: true }).click();
    const invite = dialog.getByLabel('E-mail the registration link now');
    if ((await invite.isChecked()) !== input.invite) await invite.click();
    await dialog.getByTestId('user-role').click();
    await this.page.getByRole('option', { name: input.roleLabel, exact: true }).click();
    await dialog.getByTestId('user-create-submit').click();
    await dialog.waitFor({ state: 'hidden' });
    const drawer = this.userDrawer(input.email);
    await drawer.waitFor();
    return drawer;
  }

  /** The open user page (drawer) of `email`. */
  userDrawer(email: string): Locator {
    return this.page.locator(`[data-testid="user-detail"][data-email="${email.toLowerCase()}"]`);
  }

  /** Confirms the open confirmation dialog. */
  async confirm(): Promise<void> {
    await this.page.getByTestId('confirm-action').click();
  }

  /** Adds credits with a reason from the drawer. */
  async addCredits(drawer: Locator, amount: number, reason: string): Promise<void> {
    await drawer.getByTestId('add-credits').click();
    const dialog = this.page.getByRole('dialog', { name: /^Add credits for / });
    await dialog.getByLabel(/^Credits/).fill(String(amount));
    await dialog.getByLabel(/^Reason/).fill(reason);
    await dialog.getByTestId('credits-submit').click();
    await dialog.waitFor({ state: 'hidden' });
  }

  async closeDrawer(): Promise<void> {
    await this.page.getByRole('button', { name: 'Close the user’s page' }).click();
    await this.page.getByTestId('user-detail').waitFor({ state: 'hidden' });
  }

  /** Opens a user's drawer from the users table (searching for the address first). */
  async openUser(email: string): Promise<Locator> {
    await this.tab('Users');
    await this.page.getByLabel('Search users').fill(email);
    await this.page.getByTestId('users-table').locator(`tr[data-email="${email.toLowerCase()}"]`).getByTestId('open-user').click();
    const drawer = this.userDrawer(email);
    await drawer.waitFor();
    return drawer;
  }
}
