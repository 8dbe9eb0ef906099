import type { BrowserContext, Page, Request } from 'playwright-core';
import type { SarEndpointOption } from '@kb/contracts/sar';
import { sarEndpoints } from '@kb/contracts/sar';
import type { SarCliffsResponse } from '@kb/contracts/sar-cliffs';
import { sarCliffsEndpoints } from '@kb/contracts/sar-cliffs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiSession } from './support/api-session.ts';
import { newAppContext, uncaughtErrors, useBrowser } from './support/browser.ts';
import { LoginPage } from './support/pages/login-page.ts';
import { useSeededServer } from './support/seeded-server.ts';
import { openResultsOf, windowShot } from './support/sar-view.ts';

/*
 * What a medicinal chemist reads in the SAR view (docs/sar.md), at 1440 × 900 and 1280 × 800 on the
 * demo data: the JAK series (catalog.ts scaffold PYP, pyrrolo[2,3-d]pyrimidines made for JAK2 or
 * JAK3). A difference column between two endpoints no compound was measured on both of is refused
 * before building, with a message; blanks sort last both ways; the table takes the window's width
 * and the set-up folds; the two compounds of a cliff are drawn on one template (aligned on what they
 * share); Free-Wilson shows its cross-validated q² beside R².
 */
// Four chunks: the JAK2 series is then large enough for a Free-Wilson fit (128 compounds, 119 terms: the warning's case).
const server = useSeededServer({ chunks: 4 });
const browser = useBrowser();

/** The pyrrolo[2,3-d]pyrimidine-piperidine of the JAK series. */
const PYRROLOPYRIMIDINE = 'c1nc(N2CCCCC2)c2cc[nH]c2n1';

let api: ApiSession;
let context: BrowserContext;
let page: Page;
let sessionid: string;
/** A (the rows' endpoint with most compounds), an endpoint none of A's compounds was measured on, and one some were. */
let a: SarEndpointOption;
let apart: SarEndpointOption;
let shared: SarEndpointOption;
/** The suggested core the table is built on. */
let coreIndex = -1;
/** Every depiction the page asked for. */
const depictions: URL[] = [];
/** The cliffs pages the page received. */
const cliffPages: SarCliffsResponse[] = [];

const shot = (name: string, testId?: string) =>
  windowShot(page, `sar-readability-${name}`, testId ? page.getByTestId(testId) : undefined, 140);

/** Picks an endpoint in the endpoint select or the compare multi-select by typing part of its target's name. */
async function pick(testId: string, endpoint: SarEndpointOption): Promise<void> {
  await page.getByTestId(testId).click();
  await page.getByTestId(testId).fill(endpoint.targetName.slice(0, 12));
  const name = `${endpoint.targetName} · ${endpoint.activityType}`.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // The endpoint select draws its count as a badge after the name; the multi-select writes "— n compounds", and "(all measurements)" for every measurement.
  const option =
    testId === 'sar-endpoint'
      ? new RegExp(`^${name}`)
      : new RegExp(`^${name} — .*compounds?${endpoint.scope === 'knowledgeBase' ? ' \\(all measurements\\)' : ''}$`);
  await page.getByRole('option', { name: option }).first().click();
}

/** The table's rows in row order: their A − B (null: blank). A row is drawn in the pinned and the scrolling part of the grid: joined by row index. */
function differenceColumn(): Promise<(number | null)[]> {
  return page
    .getByTestId('sar-table')
    .locator('.ag-row')
    .evaluateAll((rows) => {
      const byIndex = new Map<number, string | null>();
      for (const row of rows) {
        const index = Number(row.getAttribute('row-index'));
        const value = row.querySelector('[data-testid="sar-difference-0"]')?.getAttribute('data-value') ?? null;
        if (value !== null || !byIndex.has(index)) byIndex.set(index, value);
      }
      return [...byIndex.entries()].sort((x, y) => x[0] - y[0]).map(([, value]) => (value === null ? null : Number(value)));
    });
}

/** Numbers in order (ascending or descending) with every blank after them. */
function blanksLastIn(values: (number | null)[], direction: 'ascending' | 'descending'): boolean {
  const firstBlank = values.indexOf(null);
  const numbers = (firstBlank < 0 ? values : values.slice(0, firstBlank)) as number[];
  const rest = firstBlank < 0 ? [] : values.slice(firstBlank);
  const ordered = numbers.every((v, i) => i === 0 || (direction === 'ascending' ? v >= numbers[i - 1]! : v <= numbers[i - 1]!));
  return ordered && rest.every((v) => v === null);
}

beforeAll(async () => {
  api = await ApiSession.logIn(server().baseUrl, 'FULL_USER');
  context = await newAppContext(browser(), server().baseUrl);
  page = await context.newPage();
  page.on('request', (request: Request) => {
    if (request.url().includes('/api/chemistry/depiction')) depictions.push(new URL(request.url()));
  });
  page.on('response', (response) => {
    if (new URL(response.url()).pathname === sarCliffsEndpoints.sarCliffs.path && response.ok())
      // A page closed before its body was read has none: that answer is simply not recorded.
      void response
        .json()
        .then((answer: SarCliffsResponse) => cliffPages.push(answer))
        .catch(() => undefined);
  });
  await page.setViewportSize({ width: 1440, height: 900 });
  await new LoginPage(page).logInAs('FULL_USER');
  sessionid = await openResultsOf(
    api,
    page,
    {
      rows: [
        {
          selectedOption: 'structure',
          operator: null,
          structure: { inputType: 'smiles', value: PYRROLOPYRIMIDINE, category: 'substructure', feature: 'desalted' },
        },
      ],
    },
    'structuretab',
  );
  await page.getByTestId('open-sar-view').click();
  await page.waitForURL('**/sarview/structuretab');
  await page.getByTestId('sar-endpoint').waitFor({ timeout: 30_000 });
  // The endpoints, and how many of A's compounds each other one shares, as the server counts them.
  const data = await api.call(sarEndpoints.sarData, { params: { sessionid } });
  const molar = [...data.endpoints, ...data.measuredEndpoints].filter((e) => e.molar);
  a = data.endpoints.find((e) => e.molar)!;
  const others = molar.filter((e) => e !== a && !(e.targetId === a.targetId && e.activityType === a.activityType));
  // B for the table: of those measured on some but not all of A's compounds, the one measured on most.
  const found: { apart?: SarEndpointOption; shared?: SarEndpointOption } = {};
  let most = 3;
  for (const other of others.slice(0, 30)) {
    const overlap = await api.call(sarEndpoints.sarOverlap, { body: { sessionid, endpoint: a, moreEndpoints: [other] } });
    const both = overlap.pairs[0]!.compounds;
    if (both === 0 && other.compounds >= 5) found.apart ??= other;
    if (both > most && both < overlap.compounds) [found.shared, most] = [other, both];
  }
  expect(found.apart, `an endpoint none of the ${a.targetName} compounds was measured on`).toBeDefined();
  expect(found.shared, `an endpoint some of the ${a.targetName} compounds were measured on`).toBeDefined();
  apart = found.apart!;
  shared = found.shared!;
  // The suggested core (in the page's order) whose table of A has a Free-Wilson fit. Asked before
  // the page asks for its own suggestions: a newer SAR job of a kind cancels an older one.
  const suggested = await api.call(sarEndpoints.sarCores, { body: { sessionid, endpoint: a } }, 120_000);
  for (const [index, core] of suggested.cores.slice(0, 6).entries()) {
    const built = await api.call(
      sarEndpoints.sarTable,
      { body: { sessionid, endpoint: a, cores: [{ kind: core.kind, text: core.text }] } },
      120_000,
    );
    if (built.freeWilson) {
      coreIndex = index;
      break;
    }
  }
  expect(coreIndex, 'a suggested core with a Free-Wilson fit').toBeGreaterThanOrEqual(0);
}, 300_000);

afterAll(async () => {
  await context?.close();
});

describe('the SAR view read by a medicinal chemist', () => {
  it('refuses an A − B that no compound is measured on both of, with a message, before building', async () => {
    await pick('sar-endpoint', a);
    await pick('sar-more-endpoints', apart);
    await page.keyboard.press('Escape');
    const chip = page.getByTestId('sar-difference-AB');
    await expect.poll(() => chip.locator('xpath=..').innerText(), { timeout: 30_000 }).toMatch(/A − B · none on both/);
    const message = page.getByTestId('sar-difference-empty');
    await message.waitFor({ timeout: 30_000 });
    expect(await message.innerText()).toMatch(/^A − B would be empty: no compound is measured on both A and B\./);
    const cores = page.getByTestId('sar-suggested-core');
    await expect.poll(() => cores.count(), { timeout: 60_000 }).toBeGreaterThan(0);
    await expect.poll(() => cores.count(), { timeout: 60_000 }).toBeGreaterThan(coreIndex);
    await cores.nth(coreIndex).click();
    expect(await page.getByTestId('sar-run').isDisabled()).toBe(true);
    await shot('empty-difference', 'sar-compare');
    // Unticked (its label: Mantine hides the checkbox), the message goes and the table may be built (B blank in every row).
    await page.locator(`label[for="${await chip.getAttribute('id')}"]`).click();
    await expect.poll(() => message.count()).toBe(0);
    expect(await page.getByTestId('sar-run').isDisabled()).toBe(false);
  }, 120_000);

  it('builds over the whole width, folds the set-up, states one footnote, and sorts blanks last both ways', async () => {
    // B: an endpoint some of A's compounds were measured on: A − B is blank for the others.
    const remove = page.getByTestId('sar-compare').locator('.mantine-Pill-remove');
    while ((await remove.count()) > 0) await remove.first().click();
    await pick('sar-more-endpoints', shared);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('sar-difference-AB').isChecked()).toBe(true);
    await expect.poll(() => page.getByTestId('sar-difference-AB').getAttribute('data-both'), { timeout: 30_000 }).toMatch(/^[1-9]\d*$/);
    await page.getByTestId('sar-run').click();
    const table = page.getByTestId('sar-table');
    await table.locator('.ag-header-cell[col-id="difference-0"]').waitFor({ timeout: 90_000 });
    await table.locator('.ag-row').first().waitFor();

    // The set-up folded, with what the table was built from; it opens again.
    const toggle = page.getByTestId('sar-setup-toggle');
    await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await page.getByTestId('sar-setup-summary').innerText()).toMatch(/^Set-up: A = .+ · B = .+ · A − B · 1 core$/);
    expect(await page.getByTestId('sar-endpoint').isVisible()).toBe(false);
    // One footnote, each endpoint's own counts lettered.
    expect(await page.getByTestId('sar-table-note').count()).toBe(1);

    // The page's width: the grid is wider than the old centred column, and every column fits without a sideways scroll.
    const width = await table.evaluate((el) => el.getBoundingClientRect().width);
    expect(width).toBeGreaterThan(1300);
    // The last column (LipE) is drawn, and ends inside the grid: no sideways scroll (off-screen columns are not drawn at all).
    const edges = await table.evaluate((el) => ({
      right: el.getBoundingClientRect().right,
      lipe: el.querySelector('.ag-header-cell[col-id="lipe"]')?.getBoundingClientRect().right ?? null,
    }));
    expect(edges.lipe, 'the LipE column drawn at 1440').not.toBeNull();
    expect(edges.lipe!, 'no sideways scroll at 1440').toBeLessThanOrEqual(edges.right + 1);
    // The pointer off the table: a drawing's hover card would cover the screenshot.
    await page.mouse.move(1, 1);
    await shot('table-1440', 'sar-tabs');

    // A − B ascending, then descending: the compounds without a value stay at the bottom both ways.
    const header = table.locator('.ag-header-cell[col-id="difference-0"] .ag-header-cell-label');
    await header.click();
    await expect.poll(() => table.locator('.ag-header-cell[col-id="difference-0"]').getAttribute('aria-sort')).toBe('ascending');
    await expect.poll(async () => blanksLastIn(await differenceColumn(), 'ascending'), { timeout: 10_000 }).toBe(true);
    const ascending = await differenceColumn();
    expect(typeof ascending[0], 'a value first when sorted ascending').toBe('number');
    await header.click();
    await expect.poll(() => table.locator('.ag-header-cell[col-id="difference-0"]').getAttribute('aria-sort')).toBe('descending');
    await expect.poll(async () => blanksLastIn(await differenceColumn(), 'descending'), { timeout: 10_000 }).toBe(true);
    const descending = await differenceColumn();
    expect(typeof descending[0], 'a value first when sorted descending').toBe('number');
    expect(descending[0]!).toBeGreaterThanOrEqual(ascending[0]!);

    await page.setViewportSize({ width: 1280, height: 800 });
    await page.mouse.move(1, 1);
    await shot('table-1280', 'sar-tabs');
    // At 1280 too, every column fits.
    const narrow = await table.evaluate((el) => ({
      right: el.getBoundingClientRect().right,
      lipe: el.querySelector('.ag-header-cell[col-id="lipe"]')?.getBoundingClientRect().right ?? null,
    }));
    expect(narrow.lipe, 'the LipE column drawn at 1280').not.toBeNull();
    expect(narrow.lipe!).toBeLessThanOrEqual(narrow.right + 1);
    await page.setViewportSize({ width: 1440, height: 900 });
  }, 180_000);

  it('keeps the R-group matrix text inside its cells', async () => {
    await page.getByTestId('sar-tab-matrix').click();
    const matrix = page.getByTestId('sar-matrix');
    const none = page.getByTestId('sar-matrix-none');
    await matrix.or(none).waitFor({ timeout: 30_000 });
    if (await none.isVisible()) return;
    const cells = matrix.getByTestId('sar-matrix-cell');
    expect(await cells.count()).toBeGreaterThan(0);
    // Every text of a cell lies within the cell's box, and the cell names the whole on hover.
    const spills = await cells.evaluateAll((all) =>
      all.flatMap((cell) => {
        const box = cell.getBoundingClientRect();
        return [...cell.querySelectorAll('p, span')].flatMap((text) => {
          const own = text.getBoundingClientRect();
          const inside =
            own.left >= box.left - 0.5 && own.right <= box.right + 0.5 && own.top >= box.top - 0.5 && own.bottom <= box.bottom + 0.5;
          return inside && (text as HTMLElement).scrollWidth <= (text as HTMLElement).clientWidth + 1 ? [] : [text.textContent];
        });
      }),
    );
    expect(spills).toEqual([]);
    expect(await cells.first().getAttribute('title')).toMatch(/\d/);
    await shot('matrix-1440', 'sar-tabs');
    await page.setViewportSize({ width: 1280, height: 800 });
    await shot('matrix-1280', 'sar-tabs');
    await page.setViewportSize({ width: 1440, height: 900 });
  });

  it('draws both compounds of a cliff on one template, aligned on what they share, on an endpoint or on A − B', async () => {
    await page.getByTestId('sar-tab-cliffs').click();
    // The defaults (0.7, 1: measured on the demo's ~500-compound series, docs/sar.md "Activity cliffs").
    expect(await page.getByTestId('sar-cliff-similarity').inputValue()).toBe('0.7');
    expect(await page.getByTestId('sar-cliff-delta').inputValue()).toBe('1');
    // This two-chunk series has a few dozen compounds of A: lower thresholds make sure pairs pass.
    await page.getByTestId('sar-cliff-similarity').fill('0.6');
    await page.getByTestId('sar-cliff-delta').fill('0.5');
    const count = page.getByTestId('sar-cliffs-count');
    await expect
      .poll(async () => (await count.getAttribute('data-thresholds')) === '0.6/0.5' && cliffPages.some((p) => p.cliffs.length > 0), {
        timeout: 90_000,
      })
      .toBe(true);
    expect(Number(await count.getAttribute('data-value'))).toBeGreaterThan(0);
    const card = page.getByTestId('sar-cliff').first();
    await expect.poll(() => card.getByTestId('structure-image').count(), { timeout: 60_000 }).toBe(2);
    const answer = cliffPages.at(-1)!;
    const cliff = answer.cliffs[0]!;
    // The template both are laid out on: the pair's common substructure, the same for both members.
    const template = cliff.common;
    expect(template, 'the first pair has a common substructure').toBeTruthy();
    expect(await card.getAttribute('data-aligned')).toBe(template);
    const alignOf = (strId: number) =>
      depictions
        .filter((url) => url.searchParams.get('strId') === String(strId) && url.searchParams.get('highlightMode') === 'rest')
        .map((url) => url.searchParams.get('align'));
    expect(alignOf(cliff.a.strId)).toContain(template);
    expect(alignOf(cliff.b.strId)).toContain(template);
    await shot('cliffs-1440', 'sar-tabs');
    await page.setViewportSize({ width: 1280, height: 800 });
    await shot('cliffs-1280', 'sar-cliffs');
    await page.setViewportSize({ width: 1440, height: 900 });

    // The chooser: the cliffs of the difference column A − B, over the compounds measured on both.
    const onA = answer.compounds;
    await page.getByTestId('sar-cliff-measure').click();
    await page.getByRole('option', { name: /^A − B: difference in pActivity$/ }).click();
    await expect.poll(() => cliffPages.at(-1)!.compounds, { timeout: 60_000 }).toBeLessThan(onA);
    // Lower thresholds: the compounds measured on both are fewer.
    await page.getByTestId('sar-cliff-similarity').fill('0.5');
    await page.getByTestId('sar-cliff-delta').fill('0.3');
    await count
      .or(page.getByText(/^No pair of compounds passes/))
      .first()
      .waitFor({ timeout: 60_000 });
    if ((await page.getByTestId('sar-cliff').count()) > 0)
      expect(await page.getByTestId('sar-cliff').first().innerText()).toMatch(/Δ pActivity [+−-]?\d/);
    await shot('cliffs-difference', 'sar-tabs');
  }, 180_000);

  it('shows Free-Wilson’s cross-validated q² beside R²', async () => {
    await page.getByTestId('sar-tab-freewilson').click();
    const fit = page.getByTestId('sar-free-wilson');
    const none = page.getByTestId('sar-fw-none');
    await fit.or(none).waitFor({ timeout: 60_000 });
    // The core was chosen for its fit (beforeAll).
    expect(await none.count()).toBe(0);
    expect(await page.getByTestId('sar-fw-r2').textContent()).toMatch(/^R² [01]\.\d\d$/);
    expect(await page.getByTestId('sar-fw-q2').textContent()).toMatch(/^q² [−-]?\d+\.\d\d \(leave-one-out\)$/);
    expect(Number(await page.getByTestId('sar-fw-q2').getAttribute('data-value'))).toBeLessThanOrEqual(
      Number.parseFloat((await page.getByTestId('sar-fw-r2').textContent())!.slice(3)) + 0.005,
    );
    expect(await page.getByTestId('sar-fw-terms').textContent()).toMatch(/\d+ compounds? fitted with \d+ terms?/);
    await shot('free-wilson', 'sar-tabs');
    expect(uncaughtErrors(context)).toEqual([]);
  }, 120_000);
});
