import type { Locator, Page } from 'playwright-core';
import { resultsEndpoints } from '@kb/contracts/results';
import type { SearchCriteria } from '@kb/contracts/search';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiSession } from './support/api-session.ts';
import { useBrowser } from './support/browser.ts';
import { firstPage, useLoggedInUser } from './support/logged-in.ts';
import { ChartsPanel } from './support/pages/charts-panel.ts';
import { openResultsOf, windowShot } from './support/sar-view.ts';
import { useSeededServer } from './support/seeded-server.ts';

/*
 * Charts a chemist reads at a glance (issue 61), at 1440 × 900 and 1280 × 800 on one demo chunk:
 * target bars and heatmap rows named by gene symbol, no label cut by the chart or overlapping
 * another (measured on the SVG text); the heatmap's cell shows its compound on hover; the scatter
 * spans its card with points of at least 6 px and opens full screen; a chart filter says which tab
 * it narrows and is applied to every tab on request. Screenshots: test-results/screenshots/charts-*.png.
 */
const server = useSeededServer({ chunks: 1 });
const browser = useBrowser();
const user = useLoggedInUser(server, browser, 'FULL_USER');

const KINASE_GENES = ['JAK2', 'JAK3', 'ABL1', 'BTK'];
/** Four kinases whose full names read alike ("Tyrosine-protein kinase …"). */
const KINASES: SearchCriteria = {
  rows: [{ selectedOption: 'target', operator: null, targets: KINASE_GENES.map((gene) => ({ label: `Tyrosine-protein kinase ${gene}` })) }],
} as SearchCriteria;
const SIZES = [
  { width: 1440, height: 900 },
  { width: 1280, height: 800 },
] as const;

let api: ApiSession;
let page: Page;
let sessionid: string;

/**
 * The SVG text labels inside `chart` that are cut (ECharts' "..." or a box past the drawing's edge)
 * or overlap another label; empty when every label reads whole.
 */
async function labelProblems(chart: Locator): Promise<string[]> {
  return chart.evaluate((element) => {
    const svg = element.querySelector('svg');
    if (!svg) return ['no SVG drawn'];
    const frame = svg.getBoundingClientRect();
    const texts = [...svg.querySelectorAll('text')].filter((text) => (text.textContent ?? '').trim() !== '');
    const boxes = texts.map((text) => ({ text: (text.textContent ?? '').trim(), box: text.getBoundingClientRect() }));
    const problems: string[] = [];
    for (const { text, box } of boxes) {
      if (text.endsWith('...')) problems.push(`"${text}" is cut`);
      if (box.left < frame.left - 1 || box.right > frame.right + 1 || box.top < frame.top - 1 || box.bottom > frame.bottom + 1)
        problems.push(`"${text}" runs past the chart`);
    }
    boxes.forEach((a, i) => {
      for (const b of boxes.slice(i + 1)) {
        const overlapX = Math.min(a.box.right, b.box.right) - Math.max(a.box.left, b.box.left);
        const overlapY = Math.min(a.box.bottom, b.box.bottom) - Math.max(a.box.top, b.box.top);
        if (overlapX > 1 && overlapY > 1) problems.push(`"${a.text}" overlaps "${b.text}"`);
      }
    });
    return problems;
  });
}

/** The text labels of an SVG chart. */
async function svgTexts(chart: Locator): Promise<string[]> {
  return chart.locator('svg text').evaluateAll((texts) => texts.map((text) => (text.textContent ?? '').trim()).filter(Boolean));
}

beforeAll(async () => {
  api = user().api;
  page = firstPage(user());
  await page.setViewportSize({ width: 1440, height: 900 });
  sessionid = await openResultsOf(api, page, KINASES, 'activitiestab');
  // The Target chart joins the panel's default four (the choice is kept for the session's page).
  const charts = new ChartsPanel(page);
  await charts.panel().getByRole('button', { name: 'Charts', exact: true }).click();
  await page.getByRole('checkbox', { name: 'Target', exact: true }).check();
  await page.keyboard.press('Escape');
  await charts.waitForChart('target');
}, 180_000);

describe.each(SIZES)('charts at $width × $height', ({ width, height }) => {
  beforeAll(async () => {
    await page.setViewportSize({ width, height });
  });

  it('names target bars by gene symbol, no label cut or overlapping', async () => {
    await page.goto('/results/activitiestab');
    const charts = new ChartsPanel(page);
    const target = await charts.waitForChart('target');
    const bars = target.getByTestId('bar-chart');
    const texts = await svgTexts(bars);
    for (const gene of KINASE_GENES) expect(texts).toContain(gene);
    expect(await labelProblems(bars)).toEqual([]);
    // The full name is in the chart's accessible name (and its tooltip).
    expect(await bars.getAttribute('aria-label')).toContain('JAK2 · Tyrosine-protein kinase JAK2');
    await windowShot(page, `charts-target-bars-${width}`, target);
  }, 120_000);

  it('names heatmap rows by gene symbol, no label cut or overlapping, and shows the compound of a hovered cell', async () => {
    await page.goto('/analyzers/activitiestab');
    const heatmap = page.getByTestId('heatmap-canvas');
    await heatmap.waitFor({ timeout: 60_000 });
    await heatmap.locator('svg text').first().waitFor();
    const texts = await svgTexts(heatmap);
    expect(texts.some((text) => KINASE_GENES.some((gene) => text.startsWith(gene)))).toBe(true);
    expect(texts.filter((text) => text.startsWith('Tyrosine-protein kinase'))).toEqual([]);
    expect(texts).toContain('No data');
    expect(await labelProblems(heatmap)).toEqual([]);
    // Cells never measured are drawn hatched (a pattern fill), not left white like the background.
    const hatched = await heatmap.locator('svg path[fill^="url("], svg rect[fill^="url("]').count();
    expect(hatched, 'no-data cells drawn hatched, beyond the legend’s swatch').toBeGreaterThan(1);

    // The pointer over the cells: the first cell that answers shows its compound drawn.
    await heatmap.scrollIntoViewIfNeeded();
    const box = (await heatmap.boundingBox())!;
    const card = page.getByTestId('heatmap-hover');
    let found = false;
    for (let fx = 0.2; fx <= 0.95 && !found; fx += 0.05) {
      for (let fy = 0.1; fy <= 0.7 && !found; fy += 0.05) {
        await page.mouse.move(box.x + box.width * fx, box.y + box.height * fy);
        found = await card.isVisible();
      }
    }
    expect(found, 'a heatmap cell answers the pointer').toBe(true);
    await card.getByTestId('structure-image').waitFor({ timeout: 15_000 });
    expect(await card.innerText()).toMatch(
      /Compound \d+[\s\S]*(Median pActivity \d+\.\d{2} over \d+ activit|No measurement on this target)/,
    );
    await windowShot(page, `charts-heatmap-hover-${width}`, page.getByTestId('analyzer-heatmap'));
    await page.mouse.move(0, 0);
  }, 180_000);

  it('draws the scatter across its card with points of at least 6 px, and opens it full screen', async () => {
    await page.goto('/analyzers/activitiestab');
    const card = page.getByTestId('analyzer-scatter');
    const canvas = page.getByTestId('scatter-canvas');
    await page.getByTestId('analyzer-scatter-note').waitFor({ timeout: 60_000 });
    const cardBox = (await card.boundingBox())!;
    const plot = (await canvas.boundingBox())!;
    expect(plot.width, 'the plot spans its card').toBeGreaterThan(cardBox.width - 2 * 24);
    expect(cardBox.width, 'the card spans the board').toBeGreaterThan(width * 0.6);
    expect(plot.height).toBeGreaterThanOrEqual(400);
    expect(Number(await canvas.getAttribute('data-point-px'))).toBeGreaterThanOrEqual(6);
    await windowShot(page, `charts-scatter-${width}`, card);

    await card.getByRole('button', { name: 'Open the scatter full screen' }).click();
    const full = page.getByTestId('scatter-canvas-full');
    await full.waitFor();
    await expect.poll(async () => (await full.boundingBox())?.width ?? 0).toBeGreaterThan(width * 0.9);
    expect((await full.boundingBox())!.height).toBeGreaterThan(height * 0.75);
    await page.waitForTimeout(300);
    await windowShot(page, `charts-scatter-full-screen-${width}`, undefined, 0);
    await page.keyboard.press('Escape');
    await full.waitFor({ state: 'detached' });
  }, 180_000);
});

describe('filter scope', () => {
  it('says a chart filter narrows its tab only, and applies it to every tab on request', async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto('/results/activitiestab');
    const charts = new ChartsPanel(page);
    await charts.waitForChart('target');
    await charts.clickBar('target', 0);
    const { sent } = await charts.apply('target');
    const scope = page.getByTestId('filter-scope-text');
    await expect.poll(() => scope.textContent()).toBe('This filter narrows the Activities tab only.');
    expect(await page.getByTestId('tab-activitiestab').getAttribute('data-filters')).toBe('1');
    expect(await page.getByTestId('tab-structuretab').getAttribute('data-filters')).toBe('0');
    await page.getByTestId('tab-activitiestab').getByTestId('tab-filtered').waitFor();
    await windowShot(page, 'charts-filter-scope-one-tab', charts.panel());

    await Promise.all([
      page.waitForResponse((r) => new URL(r.url()).pathname === '/api/results/applyfilters/documentstab'),
      page.getByRole('button', { name: 'Apply to all tabs' }).click(),
    ]);
    await expect
      .poll(() => scope.textContent())
      .toMatch(
        /^This filter is on every tab\. Filtered tabs: Structures \(1\), Assay \(1\)(, Development Compounds \(1\))?, Documents \(1\)\.$/,
      );
    const session = await api.call(resultsEndpoints.session, { params: { sessionid } });
    for (const tab of ['structuretab', 'assaytab', 'documentstab'] as const) {
      expect(session.filters[tab]?.map(({ chartKey, include }) => ({ chartKey, include }))).toEqual(
        sent.map(({ chartKey, include }) => ({ chartKey, include })),
      );
      // The tab's label counts its filtered rows, as the server does.
      await expect.poll(() => page.getByTestId(`tab-${tab}`).getAttribute('data-count')).toBe(String(session.tabCounts[tab]));
    }
    expect(session.tabCounts.structuretab).toBeLessThan(session.counts!.stridscount);
    await windowShot(page, 'charts-filter-scope-every-tab', charts.panel());
    await charts.resetAll();
  }, 180_000);
});
