import type { BrowserContext, Locator, Page, Response } from 'playwright-core';
import type { SarEndpointOption } from '@kb/contracts/sar';
import { sarEndpoints } from '@kb/contracts/sar';
import type { SarCliffsResponse } from '@kb/contracts/sar-cliffs';
import { sarCliffsEndpoints } from '@kb/contracts/sar-cliffs';
import type { SearchCriteria } from '@kb/contracts/search';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiSession } from './support/api-session.ts';
import { newAppContext, uncaughtErrors, useBrowser } from './support/browser.ts';
import { LoginPage } from './support/pages/login-page.ts';
import { useSeededServer } from './support/seeded-server.ts';
import { buildSarTable, openResultsOf as openResults, windowShot } from './support/sar-view.ts';

/*
 * Activity cliffs of a drug-sized series (docs/sar.md "Activity cliffs") at 1440 × 900: the demo
 * generator's thalidomide-linker-quinazoline PROTACs (catalog.ts scaffold PTC, degraders of EGFR
 * or ERBB2) are its largest molecules — 48 to 63 heavy atoms, median ≈ 55 — and, sharing that big
 * template, they are similar enough to make hundreds of cliffs. A substructure search for the
 * 4-aminothalidomide end finds them alone; the SAR view on EGFR DC50 with the suggested core, then
 * the cliffs: every card has its difference drawn (no "Difference not drawn"), both members drawn,
 * the pager to page 2, and over the whole visit no drawing is refused with a 429 — the depiction
 * queue (features/chemistry/depiction-queue.ts) keeps the page under the per-user rate limit while
 * every card is scrolled through.
 */
const server = useSeededServer({ chunks: 2 });
const browser = useBrowser();

/** 4-aminothalidomide: the CRBN end of the PTC degraders (IMD's isoindolinone has a CH2, not a C=O). */
const AMINO_THALIDOMIDE = 'O=C1CCC(N2C(=O)c3cccc(N)c3C2=O)C(=O)N1';
/** Cards a page of cliffs shows (cliffs-queries.ts CLIFFS_PER_PAGE). */
const PER_PAGE = 50;

let api: ApiSession;
let context: BrowserContext;
let page: Page;
/** Every answer the page received over the visit (URL and status): a 429 is a drawing refused. */
const responses: { url: string; status: number }[] = [];
/** What the tests read of a cliffs request (contracts' SarCliffsRequestSchema). */
interface SarCliffsRequest {
  minSimilarity: number;
  minDelta: number;
  core?: string | null;
}
/** The cliffs pages the page asked for (request body) and received. */
const cliffPages: { request: SarCliffsRequest; answer: SarCliffsResponse }[] = [];

function record(response: Response): void {
  responses.push({ url: response.url(), status: response.status() });
  if (new URL(response.url()).pathname === sarCliffsEndpoints.sarCliffs.path && response.ok()) {
    const request = response.request().postDataJSON() as SarCliffsRequest;
    void response.json().then((answer: SarCliffsResponse) => cliffPages.push({ request, answer }));
  }
}

/** Scrolls to each card of the page in turn (each asks for its drawings near the screen) until both members are drawn. */
async function scrollThroughCards(): Promise<number> {
  const cards = page.getByTestId('sar-cliff');
  const count = await cards.count();
  for (let i = 0; i < count; i++) {
    const card = cards.nth(i);
    await card.scrollIntoViewIfNeeded();
    await expect
      .poll(() => card.getByTestId('structure-image').count(), { timeout: 30_000, message: `both members of card ${i + 1} drawn` })
      .toBe(2);
  }
  return count;
}

/** How each card's difference was found (data-difference: mcs, partial, core, environment; none without). */
async function differenceKinds(): Promise<string[]> {
  return page.getByTestId('sar-cliff').evaluateAll((cards) => cards.map((card) => card.getAttribute('data-difference') ?? 'missing'));
}

/** A window screenshot at 1440 × 900, scrolled to `target`. */
const shot = (name: string, target?: Locator) => windowShot(page, name, target);
const openResultsOf = (criteria: SearchCriteria, tab: string) => openResults(api, page, criteria, tab);

beforeAll(async () => {
  api = await ApiSession.logIn(server().baseUrl, 'FULL_USER');
  context = await newAppContext(browser(), server().baseUrl);
  page = await context.newPage();
  page.on('response', record);
  await page.setViewportSize({ width: 1440, height: 900 });
  await new LoginPage(page).logInAs('FULL_USER');
}, 180_000);

afterAll(async () => {
  await context?.close();
});

describe('activity cliffs of a drug-sized series', () => {
  let sessionid: string;
  let endpoint: SarEndpointOption;

  beforeAll(async () => {
    sessionid = await openResultsOf(
      {
        rows: [
          {
            selectedOption: 'structure',
            operator: null,
            structure: { inputType: 'smiles', value: AMINO_THALIDOMIDE, category: 'substructure', feature: 'desalted' },
          },
        ],
      },
      'structuretab',
    );
  }, 120_000);

  it('builds the SAR table of the PROTACs on EGFR DC50 around a suggested core; the compounds are drug-sized', async () => {
    endpoint = await buildSarTable(
      api,
      page,
      sessionid,
      (e) => e.molar && e.targetName === 'Epidermal growth factor receptor' && e.activityType === 'DC50',
    );
    expect(endpoint.compounds).toBeGreaterThan(20);
    const rows = Number(await page.getByTestId('sar-table-count').getAttribute('data-value'));
    expect(rows).toBeGreaterThan(20);

    // Drug-sized (and past it: bivalent degraders): the heavy atoms of the table's compounds, as
    // RDKit counted them for the same endpoint and core.
    const suggested = await api.call(sarEndpoints.sarCores, {
      body: { sessionid, endpoint: { targetId: endpoint.targetId, activityType: endpoint.activityType } },
    });
    const core = suggested.cores[0]!;
    const built = await api.call(
      sarEndpoints.sarTable,
      {
        body: {
          sessionid,
          endpoint: { targetId: endpoint.targetId, activityType: endpoint.activityType },
          cores: [{ kind: core.kind, text: core.text }],
        },
      },
      120_000,
    );
    const heavy = built.rows.map((row) => row.heavyAtoms ?? 0).sort((a, b) => a - b);
    const median = heavy[Math.floor(heavy.length / 2)]!;
    console.log(`[sar-cliffs] PTC on EGFR DC50: ${heavy.length} compounds, heavy atoms ${heavy[0]}–${heavy.at(-1)}, median ${median}`);
    expect(median).toBeGreaterThanOrEqual(30);
    expect(heavy[0]).toBeGreaterThanOrEqual(30);
  });

  /**
   * Each member of the page's cliffs was asked for with its own common part as the highlight and
   * mode 'rest' (what differs coloured), as the page's own answer gave them (a compound met in two
   * pairs with the same common part is one drawing). The page asked with the table's core as the
   * MCS seed.
   */
  async function expectDifferencesAsked(offset: number): Promise<void> {
    await expect
      .poll(() => cliffPages.some((p) => p.answer.offset === offset && p.request.minSimilarity === 0.6 && p.request.minDelta === 1))
      .toBe(true);
    const { request, answer } = cliffPages.findLast(
      (p) => p.answer.offset === offset && p.request.minSimilarity === 0.6 && p.request.minDelta === 1,
    )!;
    expect(request.core, 'the SAR core seeds the MCS').toBeTruthy();
    expect(answer.cliffs).toHaveLength(PER_PAGE);
    const expected = new Set(
      answer.cliffs.flatMap((cliff) => [`${cliff.a.strId} ${cliff.difference?.a}`, `${cliff.b.strId} ${cliff.difference?.b}`]),
    );
    const asked = new Set(
      responses
        .map((r) => new URL(r.url))
        .filter(
          (url) =>
            url.pathname === '/api/chemistry/depiction' &&
            url.searchParams.get('highlightMode') === 'rest' &&
            url.searchParams.get('highlightKind') === 'smarts',
        )
        .map((url) => `${url.searchParams.get('strId')} ${url.searchParams.get('highlight')}`),
    );
    expect(
      [...expected].filter((key) => !asked.has(key)),
      'members drawn with what differs from the other coloured',
    ).toEqual([]);
  }

  it('draws the difference of every cliff, both members, page by page, with no drawing refused (429)', async () => {
    await page.getByTestId('sar-tab-cliffs').click();
    // 0.6 / 1 log unit: a few hundred cliffs in this series, the 200 with the highest SALI listed (4 pages).
    await page.getByTestId('sar-cliff-similarity').fill('0.6');
    await page.getByTestId('sar-cliff-delta').fill('1');
    const count = page.getByTestId('sar-cliffs-count');
    // The count names the thresholds it answers once their ranking is on screen (the previous one stays until then).
    await expect.poll(() => count.getAttribute('data-thresholds'), { timeout: 60_000 }).toBe('0.6/1');
    expect(await count.textContent()).toMatch(/among .* pairs of/);
    await expect.poll(() => page.getByTestId('sar-cliff').count(), { timeout: 60_000 }).toBe(PER_PAGE);
    const total = Number(await count.getAttribute('data-value'));
    expect(total, 'cliffs over 0.6 / 1').toBeGreaterThan(PER_PAGE);
    expect(await count.textContent()).toMatch(
      /^\d[\d,]* cliffs among [\d,]+ pairs of \d+ compounds · the 200 with the highest SALI listed · 1–50 shown$/,
    );
    expect(await page.getByTestId('sar-cliffs-key').textContent()).toMatch(/Orange = what differs/);

    // Every card has its difference: drawn as the rest of each member's common part (never "not drawn").
    expect(await page.getByTestId('sar-cliff-no-common').count()).toBe(0);
    const kinds = await differenceKinds();
    expect(
      kinds.every((kind) => ['mcs', 'partial', 'core', 'environment'].includes(kind)),
      kinds.join(' '),
    ).toBe(true);
    // Each card's numbers: similarity and Δ with two decimals.
    const first = page.getByTestId('sar-cliff').first();
    expect(await first.innerText()).toMatch(/similarity 0\.\d\d\s+Δ \d+\.\d\d\s+SALI [\d.,]+/);

    expect(await scrollThroughCards()).toBe(PER_PAGE);
    await expectDifferencesAsked(0);
    console.log(
      `[sar-cliffs] page 1: ${total} cliffs, differences ${JSON.stringify(Object.fromEntries(['mcs', 'partial', 'core', 'environment'].map((k) => [k, kinds.filter((x) => x === k).length])))}`,
    );

    // The thresholds with their labels, the count, the key and the first cards.
    await shot('sar-cliffs-page', page.getByText('Similarity at least', { exact: true }));

    // Page 2: the next 50 by SALI, their differences computed when asked for.
    const pager = page.getByTestId('sar-cliffs-pages').first();
    await pager.scrollIntoViewIfNeeded();
    await pager.getByRole('button', { name: '2', exact: true }).click();
    await expect.poll(() => page.getByTestId('sar-cliffs').getAttribute('data-offset'), { timeout: 60_000 }).toBe(String(PER_PAGE));
    await expect.poll(async () => (await count.textContent()) ?? '').toMatch(/· 51–100 shown$/);
    expect(await page.getByTestId('sar-cliff').first().textContent()).toMatch(/^#51/);
    expect(await page.getByTestId('sar-cliff-no-common').count()).toBe(0);
    const kinds2 = await differenceKinds();
    expect(kinds2).toHaveLength(PER_PAGE);
    expect(
      kinds2.every((kind) => ['mcs', 'partial', 'core', 'environment'].includes(kind)),
      kinds2.join(' '),
    ).toBe(true);
    expect(await scrollThroughCards()).toBe(PER_PAGE);
    await expectDifferencesAsked(PER_PAGE);
    console.log(
      `[sar-cliffs] page 2: differences ${JSON.stringify(Object.fromEntries(['mcs', 'partial', 'core', 'environment'].map((k) => [k, kinds2.filter((x) => x === k).length])))}`,
    );

    // Over the whole visit (results, table, cores, 200 cliff drawings): no answer 429, no failed drawing.
    const depictions = responses.filter((r) => r.url.includes('/api/chemistry/depiction'));
    console.log(`[sar-cliffs] ${responses.length} responses, ${depictions.length} depictions`);
    expect(responses.filter((r) => r.status === 429).map((r) => r.url)).toEqual([]);
    expect(depictions.filter((r) => r.status >= 400).map((r) => `${r.status} ${r.url}`)).toEqual([]);
    expect(await page.getByText('No drawing', { exact: true }).count()).toBe(0);
    expect(uncaughtErrors(context)).toEqual([]);
  }, 120_000);
});
