import type { BrowserContext, Locator, Page, Response } from 'playwright-core';
import type { SearchCriteria } from '@kb/contracts/search';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiSession } from './support/api-session.ts';
import { newAppContext, uncaughtErrors, useBrowser } from './support/browser.ts';
import { LeafletPage } from './support/pages/leaflet-page.ts';
import { LoginPage } from './support/pages/login-page.ts';
import { useSeededServer } from './support/seeded-server.ts';
import { buildSarTable, openResultsOf as openResults, windowShot } from './support/sar-view.ts';

/*
 * Matched molecular pairs in their environment (docs/sar.md "Matched molecular pairs") at
 * 1440 × 900, on the demo generator's molecular-glue series (catalog.ts scaffold IMD, two R
 * positions). Four demo chunks: with two, each transformation of the series is seen in one pair
 * only; with four, CDK2 IC50 has 125 compounds, ~290 transformations, ~130 of them in two pairs or
 * more (up to 7), and three that the environment splits (the same from → to at two kinds of atom).
 * The radius switch, a row's numbers and histogram, the filters by pairs and |mean Δ|, and a
 * transformation's pairs side by side with both compounds drawn and their leaflet links.
 */
const server = useSeededServer({ chunks: 4 });
const browser = useBrowser();

const GLUTARIMIDE_ISOINDOLINONE = 'O=C1CCC(N2Cc3ccccc3C2=O)C(=O)N1';

let api: ApiSession;
let context: BrowserContext;
let page: Page;
const responses: { url: string; status: number }[] = [];

const transformations = () => page.getByTestId('sar-transformation');
const countOf = async () => Number(await page.getByTestId('sar-pairs-count').getAttribute('data-value'));

/** Each row's numbers as written: pairs, mean and median Δ, environment ('' at radius 0). */
async function rowsShown(): Promise<{ pairs: number; mean: number; median: number; environment: string; key: string }[]> {
  return transformations().evaluateAll((cards) =>
    cards.map((card) => {
      const text = (card as HTMLElement).innerText.replaceAll('−', '-');
      const mean = /mean Δ ([+-]\d+\.\d\d) · median ([+-]\d+\.\d\d)/.exec(text);
      const pairs = /(\d+) pairs?\b/.exec(text);
      const environment = card.querySelector('[data-testid="sar-transformation-environment"]')?.textContent ?? '';
      return {
        pairs: Number(pairs?.[1] ?? NaN),
        mean: Number(mean?.[1] ?? NaN),
        median: Number(mean?.[2] ?? NaN),
        environment,
        key: `${card.querySelector('button')?.getAttribute('aria-label') ?? ''} ${environment}`,
      };
    }),
  );
}

/** Waits for the list to answer a new filter: the count or the first row changes from `before`. */
async function waitForChange(before: { total: number; first: string }): Promise<void> {
  await expect
    .poll(
      async () => {
        if (!(await page.getByTestId('sar-pairs-count').isVisible())) return false;
        const first = (await rowsShown())[0]?.key ?? '';
        return (await countOf()) !== before.total || first !== before.first;
      },
      { timeout: 60_000 },
    )
    .toBe(true);
}

async function state(): Promise<{ total: number; first: string }> {
  return { total: await countOf(), first: (await rowsShown())[0]?.key ?? '' };
}

/** A window screenshot at 1440 × 900, scrolled to `target`. */
const shot = (name: string, target?: Locator) => windowShot(page, name, target);
const openResultsOf = (criteria: SearchCriteria, tab: string) => openResults(api, page, criteria, tab);

beforeAll(async () => {
  api = await ApiSession.logIn(server().baseUrl, 'FULL_USER');
  context = await newAppContext(browser(), server().baseUrl);
  page = await context.newPage();
  page.on('response', (response: Response) => responses.push({ url: response.url(), status: response.status() }));
  await page.setViewportSize({ width: 1440, height: 900 });
  await new LoginPage(page).logInAs('FULL_USER');
}, 180_000);

afterAll(async () => {
  await context?.close();
});

describe('matched pairs of the glue series', () => {
  let sessionid: string;

  beforeAll(async () => {
    sessionid = await openResultsOf(
      {
        rows: [
          {
            selectedOption: 'structure',
            operator: null,
            structure: { inputType: 'smiles', value: GLUTARIMIDE_ISOINDOLINONE, category: 'substructure', feature: 'desalted' },
          },
        ],
      },
      'structuretab',
    );
  }, 120_000);

  it('opens the SAR view on CDK2 IC50 with a suggested core', async () => {
    await buildSarTable(api, page, sessionid, (e) => e.molar && e.targetName === 'Cyclin-dependent kinase 2' && e.activityType === 'IC50');
  });

  it('lists transformations in their environment: the radius switch, pairs, mean, median, histogram', async () => {
    await page.getByTestId('sar-tab-pairs').click();
    await page.getByTestId('sar-min-pairs').fill('1');
    await expect.poll(() => transformations().count(), { timeout: 90_000 }).toBeGreaterThan(0);
    // At least one pair (the view's default is two): the list then ends with transformations seen once.
    await expect.poll(async () => (await rowsShown()).some((row) => row.pairs === 1), { timeout: 60_000 }).toBe(true);
    await expect.poll(countOf, { timeout: 30_000 }).toBeGreaterThan(50);
    // Radius 0: one row per from → to, no environment written.
    const r0 = await state();
    const rows0 = await rowsShown();
    expect(rows0.every((row) => row.environment === '')).toBe(true);

    // Radius 1: the atom at the cut is written on each row; the same from → to at different atoms is two rows.
    await page.getByTestId('sar-pairs-radius').getByText('Radius 1').click();
    await expect
      .poll(async () => (await rowsShown()).every((row) => row.environment.startsWith('at [*:1]-[')), { timeout: 60_000 })
      .toBe(true);
    const r1 = await countOf();
    expect(r1, 'transformations split by the atom at the cut').toBeGreaterThan(r0.total);
    // Radius 2: that atom and its neighbours.
    await page.getByTestId('sar-pairs-radius').getByText('Radius 2').click();
    await expect
      .poll(
        async () =>
          (await rowsShown()).some((row) => /^at \[\*:1\]-\[[^\]]+\]\(/.test(row.environment) || /\]-\[[^\]]+\]-\[/.test(row.environment)),
        { timeout: 60_000 },
      )
      .toBe(true);
    const rows2 = await rowsShown();
    expect(rows2.every((row) => row.environment.startsWith('at [*:1]-['))).toBe(true);
    console.log(`[sar-pairs] transformations at radius 0 / 1 / 2: ${r0.total} / ${r1} / ${await countOf()}`);

    // A row: its pairs count, mean and median Δ with two decimals, sd and range, the Δ histogram.
    const first = transformations().first();
    expect(await first.innerText()).toMatch(
      /mean Δ [+−]\d+\.\d\d · median [+−]\d+\.\d\d\s+\d+ pairs? · sd \d+\.\d\d · [+−]\d+\.\d\d to [+−]\d+\.\d\d/,
    );
    const histogram = first.getByTestId('sar-transformation-distribution');
    expect(await histogram.evaluate((el) => el.tagName.toLowerCase())).toBe('svg');
    expect(await histogram.locator('rect').count()).toBeGreaterThan(0);
    expect(await histogram.getAttribute('aria-label')).toMatch(/^Δ of \d+ pairs?: [+−]\d+\.\d\d to [+−]\d+\.\d\d$/);
    // Most pairs first.
    const pairs = rows2.map((row) => row.pairs);
    expect(pairs).toEqual([...pairs].sort((a, b) => b - a));
    expect(pairs[0]).toBeGreaterThan(2);
  }, 120_000);

  it('narrows the list by pairs and by |mean Δ|', async () => {
    let before = await state();
    const all = before.total;
    await page.getByTestId('sar-min-pairs').fill('2');
    await waitForChange(before);
    const byPairs = await countOf();
    expect(byPairs).toBeLessThan(before.total);
    expect(byPairs).toBeGreaterThan(0);
    expect((await rowsShown()).every((row) => row.pairs >= 2)).toBe(true);

    before = await state();
    await page.getByTestId('sar-pairs-min-mean').fill('0.5');
    await waitForChange(before);
    const byMean = await countOf();
    expect(byMean).toBeLessThan(byPairs);
    expect(byMean).toBeGreaterThan(0);
    const rows = await rowsShown();
    expect(
      rows.every((row) => row.pairs >= 2 && Math.abs(row.mean) >= 0.5),
      JSON.stringify(rows.slice(0, 5)),
    ).toBe(true);
    console.log(`[sar-pairs] radius 2: ${all} transformations; in ≥ 2 pairs ${byPairs}; and |mean Δ| ≥ 0.5 ${byMean}`);
  });

  it('opens a transformation with one click: its pairs side by side, both compounds drawn, leaflet links', async () => {
    const row = transformations().first();
    const { pairs } = (await rowsShown())[0]!;
    await row.getByRole('button').first().click();
    const table = row.getByTestId('sar-transformation-pairs');
    await table.waitFor({ timeout: 10_000 });
    const listed = table.locator('tbody tr').filter({ has: page.getByRole('link') });
    expect(await listed.count()).toBe(Math.min(pairs, 100));
    for (let i = 0; i < (await listed.count()); i++) {
      const pair = listed.nth(i);
      await pair.scrollIntoViewIfNeeded();
      await expect.poll(() => pair.getByTestId('structure-image').count(), { timeout: 30_000 }).toBe(2);
      const hrefs = await pair.getByRole('link').evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''));
      expect(hrefs.filter((href) => /^\/leaflet\/structure\/\d+/.test(href)).length, hrefs.join(' ')).toBe(hrefs.length);
      expect(new Set(hrefs).size, 'a leaflet link for each compound').toBe(2);
      expect((await pair.innerText()).replaceAll('\n', ' ')).toMatch(/Structure \d+ · \d+\.\d\d.*Structure \d+ · \d+\.\d\d.*[+−]\d+\.\d\d/);
    }
    // The changed part is coloured: each compound drawn with the constant part as 'rest'.
    const drawn = responses.filter(
      (r) => r.url.includes('/api/chemistry/depiction') && new URL(r.url).searchParams.get('highlightMode') === 'rest',
    );
    expect(drawn.length).toBeGreaterThanOrEqual(2 * Math.min(pairs, 100));
    // The filters with their labels, the count and the open transformation with its first pairs.
    await shot('sar-pairs-page', page.getByText('Seen in at least', { exact: true }));

    // A leaflet link opens the compound.
    await listed
      .first()
      .getByRole('link', { name: /^Structure \d+$/ })
      .first()
      .click();
    await page.waitForURL('**/leaflet/structure/**');
    await new LeafletPage(page).compoundLoaded();
    await page.goBack();
    await page.getByTestId('sar-tabs').waitFor({ timeout: 30_000 });

    expect(responses.filter((r) => r.status === 429).map((r) => r.url)).toEqual([]);
    expect(uncaughtErrors(context)).toEqual([]);
  }, 90_000);
});
