import type { BrowserContext, Page } from 'playwright-core';
import { leafletEndpoints } from '@kb/contracts/leaflets';
import type { Role } from '@kb/contracts/roles';
import { TREE_KEY_BY_VIEW, treeEndpoints } from '@kb/contracts/trees';
import type { TreeNode } from '@kb/contracts/trees';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApiSession } from './support/api-session.ts';
import { newAppContext, screenshot, useBrowser } from './support/browser.ts';
import { ChartsPanel } from './support/pages/charts-panel.ts';
import { LoginPage } from './support/pages/login-page.ts';
import { SearchPage } from './support/pages/search-page.ts';
import { useSeededServer } from './support/seeded-server.ts';
import { waitUntil } from './support/wait.ts';

/*
 * Wording and numbers as the user reads them (issue 14), against one demo chunk: Range chart
 * labels without float noise, singular and plural counted nouns, counts that say whose they are,
 * the access-denied page, and tree entries without data that cannot be picked.
 */
const server = useSeededServer({ chunks: 1 });
const browser = useBrowser();

/** Float noise as raw float8 values print it: 297.38300000000004, 905.0469999999997. */
const FLOAT_NOISE = /0{6,}\d|9{6,}\d|\.\d{4,}/;

let api: ApiSession;
let context: BrowserContext;
let page: Page;
let search: SearchPage;

beforeAll(async () => {
  api = await ApiSession.logIn(server().baseUrl, 'FULL_USER');
  // Tree counts are built on first use after a seed: not inside a test's timeout.
  await api.call(treeEndpoints.children, { params: { tree: 'target', id: 'root' } }, 120_000);
  context = await newAppContext(browser(), server().baseUrl);
  const first = await context.newPage();
  await new LoginPage(first).logInAs('FULL_USER');
  await first.close();
}, 180_000);

afterAll(async () => {
  await context?.close();
});

/** The issue was reported at this size; the screenshots are taken at it. */
const VIEWPORT = { width: 1440, height: 900 };

beforeEach(async () => {
  page = await context.newPage();
  await page.setViewportSize(VIEWPORT);
  search = new SearchPage(page);
});

afterEach(async () => {
  await page.close();
});

/** Searches assays of two types (thousands of activities) and opens the Activities tab with its charts. */
async function openActivityResults(charts: ChartsPanel): Promise<void> {
  await search.openSearch();
  const assay = await search.addRow('Add Assay row');
  for (const type of ['Binding', 'Functional']) await assay.getByLabel(type, { exact: true }).check();
  await search.search();
  await search.searchCounts();
  await search.open('/results/activitiestab');
  await page.getByTestId('results-grid').waitFor({ timeout: 30_000 });
  await charts.waitForCharts();
}

/** Turns charts on with the panel's "Charts" chooser. */
async function enableCharts(labels: string[]): Promise<void> {
  await page.getByRole('button', { name: 'Charts', exact: true }).click();
  for (const label of labels) await page.getByRole('checkbox', { name: new RegExp(`^${label}`) }).check();
  await page.keyboard.press('Escape');
}

describe('Range chart labels', () => {
  it('shows rounded numbers with their unit in ticks, notes, tooltips and placeholders, years without separators', async () => {
    const charts = new ChartsPanel(page);
    await openActivityResults(charts);
    await enableCharts(['Molecular weight', 'cLogP']);
    const texts: string[] = [];
    for (const key of ['year', 'molweight', 'logp']) {
      const card = await charts.waitForChart(key);
      // SVG text has no innerText.
      const ticks = await card
        .locator('[data-testid="histogram"] text')
        .evaluateAll((nodes) => nodes.map((node) => node.textContent ?? ''));
      expect(ticks.length, `${key} has tick labels`).toBeGreaterThan(0);
      const note = await card.getByTestId('values-note').innerText();
      const placeholders = await card
        .locator('input[placeholder]')
        .evaluateAll((inputs) => inputs.map((input) => input.getAttribute('placeholder') ?? ''));
      texts.push(...ticks, note, ...placeholders);
      if (key === 'year') for (const tick of ticks) expect(tick).toMatch(/^\d{4}$/);
      if (key === 'molweight') expect(note).toMatch(/^[\d,]+ values from [\d,.]+ to [\d,.]+ g\/mol$/);
      if (key === 'logp') expect(note).toMatch(/^[\d,]+ values from -?[\d,.]+ to -?[\d,.]+$/);
    }
    // A bar's tooltip names its bin with rounded edges and the unit.
    const molweight = charts.chart('molweight');
    // The plain bar colour of bar-options.ts: the histogram's bars, not its axis lines. The tallest
    // bar: the end bins may be a pixel high.
    const bars = molweight.locator('[data-testid="histogram"] path[fill="#4dabf7"]');
    const heights = await bars.evaluateAll((paths) => paths.map((path) => path.getBoundingClientRect().height));
    await bars.nth(heights.indexOf(Math.max(...heights))).hover();
    const tooltip = await waitUntil(
      () =>
        page.evaluate(
          () =>
            [...document.querySelectorAll('div')].find((div) => div.innerText.includes('g/mol') && /rows?$/.test(div.innerText.trim()))
              ?.innerText ?? '',
        ),
      (text) => text !== '',
    );
    texts.push(tooltip);
    expect(tooltip).toMatch(/[\d,.]+–[\d,.]+ g\/mol\n[\d,]+ rows?/);
    for (const text of texts) expect(text, `"${text}" carries float noise`).not.toMatch(FLOAT_NOISE);
    await screenshot(page, 'wording-range-charts');
  });

  it('says "1 value" for a Range chart over one structure', async () => {
    await search.openSearch();
    const structure = await search.addRow('Add Structure row');
    await search.upload(structure, { name: 'one-structure.txt', content: '1\n' }, 'Structure ids');
    await expect
      .poll(() => structure.getByTestId('structure-ids').locator('.mantine-Pill-root').allInnerTexts(), { timeout: 30_000 })
      .toEqual(['1']);
    await search.search();
    expect((await search.searchCounts()).structures).toBe(1);
    await search.open('/results/structuretab');
    await page.getByTestId('results-grid').waitFor({ timeout: 30_000 });
    const charts = new ChartsPanel(page);
    await charts.waitForCharts();
    await enableCharts(['Molecular weight']);
    const card = await charts.waitForChart('molweight');
    expect(await card.getByTestId('values-note').innerText()).toMatch(/^1 value from ([\d,.]+) to \1 g\/mol$/);
  });
});

describe('counted nouns', () => {
  it('asks to clear "the row" for one row and "all 2 rows" for two', async () => {
    await search.openSearch();
    const first = await search.addRow('Add Assay row');
    await first.getByLabel('Binding', { exact: true }).check();
    await page.getByRole('button', { name: 'Clear all', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain('The row of this search will be removed.');
    expect(await dialog.getByRole('button', { name: 'Clear the row' }).count()).toBe(1);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });

    const second = await search.addRow('Add Assay row');
    await second.getByLabel('Functional', { exact: true }).check();
    await page.getByRole('button', { name: 'Clear all', exact: true }).click();
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain('All 2 rows of this search will be removed.');
    await dialog.getByRole('button', { name: 'Clear all rows' }).click();
    await expect.poll(() => search.rows().count()).toBe(0);
  });

  it('offers "Show 1 more compound" on a reference with one compound past the first page', async () => {
    // Demo references report 25 compounds each; the grid shows 24 at first.
    let refId = 0;
    let total = 0;
    for (let rid = 1; rid <= 40 && refId === 0; rid++) {
      const leaflet = await api
        .call(leafletEndpoints.referenceLeaflet, { params: { rid }, query: { inSearchOnly: false } })
        .catch(() => null);
      if (leaflet && leaflet.compounds.rows.length === 25) {
        refId = rid;
        total = leaflet.compounds.total;
      }
    }
    expect(refId, 'a demo reference with 25 compounds').toBeGreaterThan(0);
    await search.open(`/leafletreference/0/${refId}`);
    const grid = page.getByTestId('reference-compounds');
    await grid.waitFor({ timeout: 30_000 });
    const more = page.getByRole('button', { name: /^Show .* more/ });
    expect(await more.innerText()).toBe('Show 1 more compound');
    await more.click();
    await expect.poll(() => grid.locator(':scope > *').count()).toBe(25);
    expect(await more.count()).toBe(0);
    expect(await page.locator('#compounds').innerText()).toContain(`${total} compounds`);
  });
});

describe('counts after the rows change', () => {
  it('labels the counts as the last run’s once the rows are cleared or changed, and as this search’s after searching again', async () => {
    await search.openSearch();
    const panel = page.getByTestId('counts-panel');
    const assay = await search.addRow('Add Assay row');
    await assay.getByLabel('Binding', { exact: true }).check();
    await search.search();
    const counts = await search.searchCounts();
    expect(await panel.getAttribute('data-counts')).toBe('this-search');
    expect(await panel.getByRole('heading').first().innerText()).toBe('This search');

    // Searched rows need no confirmation to be cleared.
    await page.getByRole('button', { name: 'Clear all', exact: true }).click();
    await expect.poll(() => search.rows().count()).toBe(0);
    await expect.poll(() => panel.getAttribute('data-counts')).toBe('last-run');
    expect(await panel.getByRole('heading').first().innerText()).toBe('Last search run');
    expect(await panel.innerText()).not.toContain('This search');
    expect(await panel.getByTestId('stale-counts').innerText()).toContain('You cleared the rows');
    // The figures stay, marked as the last run's.
    expect((await search.searchCounts()).activities).toBe(counts.activities);
    await screenshot(page, 'wording-counts-after-clear');

    const again = await search.addRow('Add Assay row');
    await again.getByLabel('Functional', { exact: true }).check();
    expect(await panel.getAttribute('data-counts')).toBe('last-run');
    expect(await panel.getByTestId('stale-counts').innerText()).toContain('The rows changed');
    await search.search();
    await search.searchCounts();
    await expect.poll(() => panel.getAttribute('data-counts')).toBe('this-search');
    expect(await panel.getByTestId('stale-counts').count()).toBe(0);
  });
});

describe('access', () => {
  async function pageAs(role: Role): Promise<{ roleContext: BrowserContext; login: LoginPage }> {
    const roleContext = await newAppContext(browser(), server().baseUrl);
    const rolePage = await roleContext.newPage();
    await rolePage.setViewportSize(VIEWPORT);
    const login = new LoginPage(rolePage);
    await login.logInAs(role);
    return { roleContext, login };
  }

  it('sends a role to the access-denied page, which names the page and says it is not part of the subscription', async () => {
    const { roleContext, login } = await pageAs('EVALUATE_USER');
    try {
      await login.open('/sarview');
      const denied = login.page.locator('[data-page="access-denied"]');
      await denied.waitFor();
      expect(new URL(login.page.url()).pathname).toBe('/accessdenied');
      const reason = await denied.getByTestId('access-denied-reason').innerText();
      expect(reason).toContain('SAR view (/sarview) is not part of your subscription.');
      expect(reason).toContain('Evaluation user');
      expect(await login.page.getByText('Page not found').count()).toBe(0);
      await screenshot(login.page, 'wording-access-denied');
      await denied.getByRole('link', { name: 'Go to your dashboard' }).click();
      await expect.poll(() => new URL(login.page.url()).pathname).toBe('/dashboard');

      // An unknown path still gets the plain not-found page.
      await login.open('/no-such-page');
      await login.page.locator('[data-page="not-found"]').waitFor();
      expect(await login.page.locator('[data-page="not-found"]').innerText()).not.toContain('subscription');
    } finally {
      await roleContext.close();
    }
  });

  it('tells an administrator sent to /dashboard from another kind of admin page why', async () => {
    const { roleContext, login } = await pageAs('FLAT_FILE_ADMIN');
    try {
      await login.open('/admin/subscriptions');
      const notice = login.page.getByTestId('admin-redirect-notice');
      await notice.waitFor();
      expect(new URL(login.page.url()).pathname).toBe('/dashboard');
      expect(await notice.innerText()).toContain('Subscriptions (/admin/subscriptions) is only open to the KB admin role');
      await screenshot(login.page, 'wording-admin-redirect');
      await notice.getByRole('button', { name: 'Close the notice' }).click();
      await notice.waitFor({ state: 'hidden' });
    } finally {
      await roleContext.close();
    }
  });
});

describe('tree entries without data', () => {
  /** A node with count 0 among the top two levels of the tree views, with its view. */
  async function emptyNode(): Promise<{ view: string; node: TreeNode }> {
    for (const [view, tree] of Object.entries(TREE_KEY_BY_VIEW)) {
      if (tree === 'adme' || tree === 'toxicity') continue;
      const roots = await api.call(treeEndpoints.children, { params: { tree, id: 'root' } }, 120_000);
      const empty = roots.nodes.find((node) => node.count === 0);
      if (empty) return { view, node: empty };
      for (const root of roots.nodes.filter((node) => node.hasChildren).slice(0, 5)) {
        const children = await api.call(treeEndpoints.children, { params: { tree, id: root.id } }, 120_000);
        const child = children.nodes.find((node) => node.count === 0);
        if (child) return { view, node: child };
      }
    }
    throw new Error('The demo trees have no entry without data');
  }

  it('shows a count-0 entry as disabled and ignores clicks and Space on it', async () => {
    const { view, node } = await emptyNode();
    await search.openSearch();
    // The add-row buttons name trees as users know them ("Clinical Phase"; Taxonomy travels as SourceOntologyTreeView).
    const label = view === 'SourceOntologyTreeView' ? 'Taxonomy' : view.replace(/([a-z])([A-Z])/g, '$1 $2');
    const row = await search.addRow(`Add ${label} tree row`);
    // Reveal the entry wherever it is: the tree search, then "Show in tree".
    await row.getByRole('textbox', { name: /^Search the/ }).fill(node.label);
    const hit = row.getByRole('listitem').filter({ hasText: node.label }).first();
    await hit.waitFor({ timeout: 20_000 });
    expect(await hit.getByRole('checkbox').isDisabled()).toBe(true);
    await hit.getByRole('button', { name: 'Show in tree' }).click();
    const item = row.locator(`[role="treeitem"][data-node-id="${node.id}"]`);
    await item.waitFor();
    expect(await item.getAttribute('aria-disabled')).toBe('true');
    expect(await item.locator('input[type="checkbox"]').first().isDisabled()).toBe(true);

    await item.locator('button').filter({ hasText: node.label }).first().click({ force: true });
    await item.focus();
    await page.keyboard.press('Space');
    await page.waitForTimeout(300);
    expect(await item.getAttribute('aria-selected')).toBe('false');
    expect(await row.getByTestId('tree-selection').innerText()).toContain('Nothing selected yet');
    await item.scrollIntoViewIfNeeded();
    await screenshot(page, 'wording-tree-disabled');
  });
});
