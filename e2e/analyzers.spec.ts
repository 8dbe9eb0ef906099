import crypto from 'node:crypto';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { analyzerEndpoints } from '@kb/contracts/analyzers';
import type { SearchCriteria } from '@kb/contracts/search';
import { sarEndpoints } from '@kb/contracts/sar';
import { searchEndpoints } from '@kb/contracts/search-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiSession } from './support/api-session.ts';
import { newAppContext, screenshot, useBrowser } from './support/browser.ts';
import { LoginPage } from './support/pages/login-page.ts';
import { ResultsPage } from './support/pages/results-page.ts';
import { useSeededServer } from './support/seeded-server.ts';
import { RESULTS_DIR } from './support/server.ts';

/*
 * The analyzers (issue 15) at 1440 × 900 on one demo chunk: a search's Activities tab charted,
 * points brushed on the scatter with the mouse become "N rows selected", a new search by that
 * selection holds those activities; an analysis saved under a name opens again from /analyzers.
 * Issue 37: the Structures tab plotted and coloured by pActivity of a chosen endpoint, and the
 * selectivity heatmap of a one-target search showing the other targets its compounds were measured on.
 */
const server = useSeededServer({ chunks: 1 });
const browser = useBrowser();
const KI: SearchCriteria = { rows: [{ selectedOption: 'activitytypes', activities: [{ activityType: 'Ki' }] }] } as SearchCriteria;

let api: ApiSession;
let context: BrowserContext;
let page: Page;
let results: ResultsPage;

/** Screenshots land with the others (test-results/screenshots), where they are looked at. */
async function shot(name: string): Promise<void> {
  await screenshot(page, `analyzers-${name}`);
}

/** Runs a search through the API and makes it the page's search (as the search page would). */
async function searchAs(criteria: SearchCriteria, summary: string): Promise<string> {
  const sessionid = crypto.randomUUID();
  await api.call(searchEndpoints.allResultsCount, { body: { searchcriteria: criteria, sessionid } });
  await api.call(searchEndpoints.sessionSummarySave, { body: { sessionid, summary } });
  await page.evaluate(
    (id) =>
      window.sessionStorage.setItem(
        'kb-search-session',
        JSON.stringify({ state: { searchSessionId: id, selectionSessionId: null }, version: 0 }),
      ),
    sessionid,
  );
  return sessionid;
}

/** Moves the pointer over the scatter until a point answers with its hover card; the card's text. */
async function hoverAPoint(): Promise<string> {
  const canvas = page.getByTestId('scatter-canvas');
  await canvas.scrollIntoViewIfNeeded();
  const box = (await canvas.boundingBox())!;
  const card = page.getByTestId('scatter-hover');
  for (let fy = 0.1; fy <= 0.9; fy += 0.04) {
    for (let fx = 0.08; fx <= 0.92; fx += 0.015) {
      await page.mouse.move(box.x + box.width * fx, box.y + box.height * fy);
      if (await card.isVisible()) {
        await card.getByTestId('structure-image').waitFor({ timeout: 15_000 });
        return card.innerText();
      }
    }
  }
  throw new Error('no point of the scatter answered the pointer');
}

/** Picks an option of one of the scatter's measure pickers (Mantine Select). */
async function pickMeasure(label: 'X axis' | 'Y axis' | 'Colour', option: string): Promise<void> {
  await page.getByTestId('analyzer-scatter').getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** Drags a rectangle over the middle of the scatter's plot area (the brush is on from the start; it starts only inside the axes). */
async function brushMiddle(): Promise<void> {
  const canvas = page.getByTestId('scatter-canvas');
  const box = (await canvas.boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.2, box.y + box.height * 0.2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.5, { steps: 8 });
  await page.mouse.move(box.x + box.width * 0.7, box.y + box.height * 0.8, { steps: 8 });
  await page.mouse.up();
}

beforeAll(async () => {
  api = await ApiSession.logIn(server().baseUrl, 'FULL_USER');
  context = await newAppContext(browser(), server().baseUrl);
  page = await context.newPage();
  await page.setViewportSize({ width: 1440, height: 900 });
  await new LoginPage(page).logInAs('FULL_USER');
  results = new ResultsPage(page);
}, 180_000);
afterAll(async () => {
  await context?.close();
});

describe('analyzers', () => {
  it('charts a search, brushes points into a new search by selection, saves and reopens the analysis', async () => {
    const sessionid = crypto.randomUUID();
    await api.call(searchEndpoints.allResultsCount, { body: { searchcriteria: KI, sessionid } });
    await api.call(searchEndpoints.sessionSummarySave, { body: { sessionid, summary: 'Activity type: Ki' } });
    await page.evaluate(
      (id) =>
        window.sessionStorage.setItem(
          'kb-search-session',
          JSON.stringify({ state: { searchSessionId: id, selectionSessionId: null }, version: 0 }),
        ),
      sessionid,
    );
    await page.goto('/results/activitiestab');
    await results.waitForRows();

    // The SAR view of all the tab's rows is opened first, so its data sits in the page's cache.
    const all = await api.call(sarEndpoints.setSarData, { body: { sessionid, tab: 'activitiestab' } });
    await page.goto('/sarview/activitiestab');
    await expect
      .poll(() => page.getByTestId('sar-source').textContent(), { timeout: 30_000 })
      .toContain(`${all.activities.toLocaleString('en-US')} activit`);
    // In-app navigation (no reload): the cached SAR data stays.
    await page.getByRole('link', { name: 'Analyzers' }).click();
    await page.waitForURL(/\/analyzers\/activitiestab/);
    const note = page.getByTestId('analyzer-scatter-note');
    await note.waitFor({ timeout: 60_000 });
    expect(await note.textContent()).toMatch(/activities drawn/);
    await page.getByRole('img', { name: 'Box plots per group' }).waitFor();
    await page.getByRole('img', { name: 'Compounds per target class' }).waitFor();
    await page.getByRole('img', { name: 'Target by compound heatmap' }).waitFor();
    await page.waitForTimeout(500);
    await shot('board');

    // The pointer resting on a point shows its molecule and its values as their quantities are written.
    const canvas = page.getByTestId('scatter-canvas');
    await canvas.scrollIntoViewIfNeeded();
    const box = (await canvas.boundingBox())!;
    const card = page.getByTestId('scatter-hover');
    let found = false;
    for (let fy = 0.15; fy <= 0.85 && !found; fy += 0.05) {
      for (let fx = 0.12; fx <= 0.9 && !found; fx += 0.02) {
        await page.mouse.move(box.x + box.width * fx, box.y + box.height * fy);
        found = await card.isVisible();
      }
    }
    expect(found, 'a point of the scatter answers the pointer').toBe(true);
    await card.getByTestId('structure-image').waitFor({ timeout: 15_000 });
    const hovered = await card.innerText();
    expect(hovered).toMatch(/Structure \d+/);
    expect(hovered).toMatch(/Molecular weight \(g\/mol\): \d+\.\d{2}\b/);
    expect(hovered).toMatch(/pActivity: \d+\.\d{2}\b/);
    expect(hovered).toMatch(/Year: \d{4}\b/);
    await shot('hover');
    await page.mouse.move(box.x + 2, box.y + 2);
    await card.waitFor({ state: 'hidden' });

    await brushMiddle();
    await shot('after-drag');
    const bar = page.getByTestId('analyzer-selection');
    await bar.waitFor({ timeout: 10_000 });
    const status = (await bar.getByRole('status').textContent()) ?? '';
    const selected = Number(status.replace(/[^0-9]/g, ''));
    expect(status).toMatch(/^[\d,]+ activit(y|ies) selected$/);
    expect(selected).toBeGreaterThan(0);
    await shot('brushed');

    // The brushed rows in the SAR view: shown at once, not the cached rows of before.
    await bar.getByRole('button', { name: 'Open in SAR view' }).click();
    await page.waitForURL(/\/sarview\/activitiestab/, { timeout: 60_000 });
    const brushedSar = await api.call(sarEndpoints.sarData, { params: { sessionid } });
    expect(brushedSar.activities).toBeLessThan(all.activities);
    expect(await page.getByTestId('sar-source').textContent()).toContain(`${brushedSar.activities.toLocaleString('en-US')} activit`);
    await page.goBack();
    await page.getByTestId('analyzer-scatter-note').waitFor({ timeout: 60_000 });
    await page.getByTestId('scatter-canvas').scrollIntoViewIfNeeded();
    await brushMiddle();
    await bar.waitFor({ timeout: 10_000 });

    await bar.getByRole('button', { name: 'New search by selection' }).click();
    await page.waitForURL(/\/new-search-results\/structuretab/, { timeout: 60_000 });
    await results.waitForRows(60_000);
    expect((await results.headerCounts()).activities).toBe(selected);
    await shot('new-search');

    // Save the board of the first search under a name, and open it again from /analyzers.
    await page.goto('/analyzers/activitiestab');
    await page.getByTestId('analyzer-scatter-note').waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Save analysis' }).click();
    const name = page.getByLabel('Name');
    await name.fill('Ki overview');
    await page.getByRole('button', { name: /^(Save|Replace)$/ }).click();
    await page.getByText('Analysis saved as “Ki overview”').waitFor();

    await page.goto('/analyzers');
    const saved = page.getByTestId('saved-analyses');
    await saved.waitFor();
    expect(await saved.textContent()).toContain('Activity type: Ki');
    await shot('home');
    await saved.getByRole('link', { name: 'Ki overview' }).click();
    await page.waitForURL(/\/analyzers\/activitiestab\?analysis=\d+/);
    await page.getByTestId('analyzer-scatter-note').waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('analyzer-summary').textContent()).toContain('Ki overview');
    await page.getByRole('img', { name: 'Compounds per target class' }).waitFor();
    await shot('reopened');
  }, 300_000);

  it('plots the Structures tab by pActivity of a chosen endpoint, named on the plot and in the hover card', async () => {
    const sessionid = await searchAs(KI, 'Activity type: Ki');
    const { endpoints } = await api.call(analyzerEndpoints.endpointOptions, { body: { sessionid, tab: 'structuretab' } });
    expect(endpoints.length).toBeGreaterThan(0);
    const top = endpoints[0]!;
    const name = `${top.targetName} · ${top.activityType}`;
    await page.goto('/analyzers/structuretab');
    const note = page.getByTestId('analyzer-scatter-note');
    await note.waitFor({ timeout: 60_000 });

    // As the colour: the legend names the endpoint; structures not measured on it are drawn grey and counted.
    await pickMeasure('Colour', `pActivity, ${name} (${top.structures.toLocaleString('en-US')} structures)`);
    const coloured = page.getByRole('img', {
      name: `Scatter plot of cLogP against Molecular weight (g/mol), coloured by pActivity, ${name}`,
    });
    await coloured.waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('scatter-colour-caption').textContent()).toBe(`Colour: pActivity, ${name} (grey: no value)`);
    await expect
      .poll(() => note.textContent(), { timeout: 30_000 })
      .toMatch(new RegExp(`drawn grey \\(no pActivity on ${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\)`));
    await page.mouse.move(0, 0);
    await shot('structures-colour');

    // On the y axis: only the structures measured on the endpoint, each its median, written with two decimals.
    await pickMeasure('Y axis', `pActivity, ${name} (${top.structures.toLocaleString('en-US')} structures)`);
    await page
      .getByRole('img', { name: `Scatter plot of pActivity, ${name} against Molecular weight (g/mol), coloured by pActivity, ${name}` })
      .waitFor({ timeout: 60_000 });
    await expect
      .poll(() => note.textContent(), { timeout: 30_000 })
      .toContain(`(no pActivity on ${name}, or no value of the other measure)`);
    expect(await note.textContent()).toMatch(new RegExp(`^${top.structures.toLocaleString('en-US')} structures? drawn`));
    const hovered = await hoverAPoint();
    expect(hovered).toMatch(/Structure \d+/);
    expect(hovered).toContain(`pActivity, ${name}:`);
    expect(hovered).toMatch(/pActivity, [^\n]+: \d+\.\d{2}\b/);
    // The window as it is (a full-page capture resizes the page, and the chart drops its hover).
    await page.screenshot({ path: path.join(RESULTS_DIR, 'screenshots', 'analyzers-structures-pactivity-hover.png') });
    await page.mouse.move(0, 0);
  }, 240_000);

  it('draws the selectivity heatmap of a one-target search with the other targets its compounds were measured on', async () => {
    // A target of the Ki search whose compounds were measured elsewhere (the heatmap of the whole search names them).
    const ki = await searchAs(KI, 'Activity type: Ki');
    const wide = await api.call(analyzerEndpoints.visualization, {
      body: { sessionid: ki, tab: 'activitiestab', config: { chart: 'heatmap', targets: 25, compounds: 60 } },
    });
    if (wide.chart !== 'heatmap') throw new Error('a heatmap was asked');
    let chosen: { sessionid: string; targets: number; name: string } | null = null;
    for (const target of wide.targets.slice(0, 8)) {
      const sessionid = await searchAs(
        { rows: [{ selectedOption: 'target', targets: [{ label: target.name, ids: [target.id] }] }] } as SearchCriteria,
        `Target: ${target.name}`,
      );
      const one = await api.call(analyzerEndpoints.visualization, {
        body: { sessionid, tab: 'activitiestab', config: { chart: 'heatmap', targets: 25, compounds: 60 } },
      });
      if (one.chart === 'heatmap' && one.targets.length > 1) {
        chosen = { sessionid, targets: one.targets.length, name: target.name };
        break;
      }
    }
    expect(chosen, 'a target of the demo data whose compounds were measured on others').not.toBeNull();
    await page.goto('/analyzers/activitiestab');
    const heatmap = page.getByTestId('heatmap-canvas');
    await heatmap.waitFor({ timeout: 60_000 });
    expect(Number(await heatmap.getAttribute('data-targets'))).toBe(chosen!.targets);
    expect(chosen!.targets).toBeGreaterThan(1);
    const note = (await page.getByTestId('analyzer-heatmap-note').textContent()) ?? '';
    expect(note).toMatch(/Cells: every measurement in the knowledge base of these \d+ compounds?, not only the search’s rows/);
    expect(note).toContain(`the search’s rows are on ${chosen!.name}`);
    await page.getByTestId('analyzer-heatmap').scrollIntoViewIfNeeded();
    await page.waitForTimeout(500);
    await shot('heatmap-one-target');
  }, 240_000);

  it('shows the Saved analyses link only to a role that may open /analyzers', async () => {
    await page.goto('/analyzers/activitiestab');
    await page.getByTestId('saved-analyses-link').waitFor();
    const evaluator = await newAppContext(browser(), server().baseUrl);
    try {
      const evaluatorPage = await evaluator.newPage();
      await new LoginPage(evaluatorPage).logInAs('EVALUATE_USER');
      await evaluatorPage.goto('/analyzers/activitiestab');
      await evaluatorPage
        .getByRole('heading', { name: /Analyzers/ })
        .first()
        .waitFor();
      await evaluatorPage.getByRole('link', { name: 'Back to the results' }).waitFor();
      expect(await evaluatorPage.getByTestId('saved-analyses-link').count()).toBe(0);
    } finally {
      await evaluator.close();
    }
  }, 120_000);
});
