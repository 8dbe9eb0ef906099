import fs from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import {
  PREDICTION_CONFIDENT_PROBABILITY,
  PREDICTION_DISCLAIMER,
  aggregatePredictions,
  predictionEndpoints,
} from '@kb/contracts/prediction';
import type { PredictTargetsResponse } from '@kb/contracts/prediction';
import type { SearchCriteria } from '@kb/contracts/search';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiSession } from './support/api-session.ts';
import { newAppContext, uncaughtErrors, useBrowser } from './support/browser.ts';
import { useLoggedInUser } from './support/logged-in.ts';
import { LeafletPage } from './support/pages/leaflet-page.ts';
import { LoginPage } from './support/pages/login-page.ts';
import { ResultsPage } from './support/pages/results-page.ts';
import { SearchPage } from './support/pages/search-page.ts';
import { openResultsOf, windowShot } from './support/sar-view.ts';
import { REPO_ROOT } from './support/server.ts';
import { useSeededServer } from './support/seeded-server.ts';

/*
 * Target prediction (issues 38 and 60) at 1280 × 900 against a server with one demo chunk: a
 * 4-anilinoquinazoline typed into a structure row (the demo's QZN series, EGFR / ERBB2 inhibitors)
 * is predicted from its search row as calibrated probabilities, most probable first, with the
 * evidence actives drawn; structures unlike anything measured (a perfluorinated sulfonic acid,
 * water) get "no target predicted with confidence" with the nearest measured compounds, and the
 * weaker hypotheses on request; a drug's model-only targets (when the model is installed); a
 * compound's leaflet opens its Predicted targets; a few rows of a Structures tab are predicted
 * together. The multitask model is used when ../shared/models holds it; the ensemble alone must
 * pass too. Every expectation is read from the API's answer for the same structure.
 */
const MODEL_DIR = path.resolve(REPO_ROOT, '../shared/models/chembl-multitask');
const MODEL_INSTALLED = fs.existsSync(MODEL_DIR);
const server = useSeededServer({ chunks: 1, env: MODEL_INSTALLED ? { PREDICTION_MODEL_DIR: MODEL_DIR } : {} });
const browser = useBrowser();

/** Gefitinib's core with the demo's 3-chloro-4-fluoroanilino: an EGFR-family inhibitor of the QZN series. */
const QUINAZOLINE = 'COc1cc2ncnc(Nc3ccc(F)c(Cl)c3)c2cc1OC';
const QZN_TARGETS = /Epidermal growth factor receptor|erbB-2/;
/** Perfluorooctanesulfonic acid and water: nothing in the demo data looks like them. */
const PERFLUORO = 'OS(=O)(=O)C(F)(F)C(F)(F)C(F)(F)C(F)(F)C(F)(F)C(F)(F)C(F)(F)C(F)(F)F';
const WATER = 'O';
/** Two drugs the ChEMBL model knows well: an EGFR kinase inhibitor and a β-blocker. */
const DRUGS = {
  erlotinib: 'COCCOc1cc2ncnc(Nc3cccc(C#C)c3)c2cc1OCCOC',
  propranolol: 'CC(C)NCC(O)COc1cccc2ccccc12',
};

const user = useLoggedInUser(server, browser, 'FULL_USER');
let api: ApiSession;
let context: BrowserContext;
let page: Page;

/**
 * A screenshot of the window, the pointer moved away first (a tooltip under it would cover what is
 * shown); with `target`, scrolled to it first — in the drawer's own scroll, `above` pixels under
 * its sticky title.
 */
async function shot(name: string, target?: Locator, above = 0): Promise<void> {
  await page.mouse.move(0, 0);
  if (target)
    await target.first().evaluate((element, pixels) => {
      element.scrollIntoView({ block: 'start' });
      for (let parent = element.parentElement; parent; parent = parent.parentElement) {
        const { overflowY } = getComputedStyle(parent);
        if ((overflowY === 'auto' || overflowY === 'scroll') && parent.scrollHeight > parent.clientHeight) {
          parent.scrollBy(0, -pixels);
          return;
        }
      }
      window.scrollBy(0, -pixels);
    }, above);
  await windowShot(page, `prediction-${name}`, undefined, 0);
}

beforeAll(async () => {
  ({ api, context } = user());
  page = user().page!;
  await page.setViewportSize({ width: 1280, height: 900 });
});

/** The API's answer for a SMILES, at the product's threshold or another (0: every candidate). */
function predict(smiles: string, minProbability = PREDICTION_CONFIDENT_PROBABILITY): Promise<PredictTargetsResponse> {
  return api.call(predictionEndpoints.predictTargets, {
    body: { structure: { kind: 'smiles', text: smiles, desalt: true }, limit: 15, minProbability },
  });
}

/** The whole percent a probability is shown as: the number in "62 %", "< 1 %", "> 99 %". */
function percentShown(text: string): number {
  const match = /^\s*([<>])?\s*(\d+)\s%\s*$/.exec(text);
  expect(match, `a percentage, not "${text}"`).not.toBeNull();
  return Number(match![2]);
}

/** What the panel must show for a probability (formatProbability's rule: never 0 % for a real one, never 100 % short of it). */
function expectedPercent(probability: number): number {
  const percent = probability * 100;
  if (percent > 0 && percent < 0.5) return 1;
  if (percent < 100 && percent >= 99.5) return 99;
  return Math.round(percent);
}

/** The prediction drawer that is open (each structure row has its own): the one holding its dialog. */
function openDrawer(): Locator {
  return page.getByTestId('prediction-drawer').filter({ has: page.getByRole('dialog') });
}

/** Types SMILES into a new structure row of the search page and opens its predicted targets. */
async function predictFromSearchRow(smiles: string): Promise<Locator> {
  // A drawer left open by the previous case closes first (one shows at a time).
  const open = openDrawer();
  if ((await open.count()) > 0) {
    await open.getByRole('button', { name: 'Close the predicted targets' }).click();
    await expect.poll(() => open.count()).toBe(0);
  }
  const search = new SearchPage(page);
  await search.openSearch();
  const row = await search.addRow('Add Structure row');
  await row.getByRole('radiogroup', { name: 'Structure input' }).getByText('SMILES', { exact: true }).click();
  await row.getByRole('textbox', { name: 'SMILES' }).fill(smiles);
  await row.getByTestId('predict-targets').click();
  const drawer = openDrawer();
  await drawer.getByTestId('prediction-answer').waitFor({ timeout: 30_000 });
  return drawer;
}

/**
 * After a click that starts a search from outside the builder: confirms "Replace and search" when
 * the builder holds rows never searched (it asks first), then waits for the results whose header
 * names `name`; answers the header's text.
 */
async function searchRunFor(name: string): Promise<string> {
  const replace = page.getByRole('dialog').getByRole('button', { name: 'Replace and search' });
  const header = page.getByTestId('results-header').filter({ hasText: name });
  await replace.or(header).first().waitFor({ timeout: 30_000 });
  if (await replace.isVisible()) await replace.click();
  await header.waitFor({ timeout: 30_000 });
  expect(new URL(page.url()).pathname).toBe('/results/structuretab');
  await new ResultsPage(page).waitForRows();
  return header.innerText();
}

/** The probabilities of a table's rows as shown, top to bottom. */
async function shownPercents(scope: Locator, testId: string): Promise<number[]> {
  return (await scope.getByTestId(testId).allInnerTexts()).map(percentShown);
}

/** True when nothing of the element is cut off horizontally: its content fits its box, and the box the window. */
async function fitsHorizontally(locator: Locator): Promise<boolean> {
  return locator.evaluate((element) => {
    const box = element.getBoundingClientRect();
    const scroller = element.closest('.mantine-ScrollArea-viewport');
    const scrolls = scroller !== null && scroller.scrollWidth > scroller.clientWidth + 1;
    return !scrolls && box.right <= window.innerWidth + 1 && element.scrollWidth <= element.clientWidth + 1;
  });
}

describe('predicted targets of a structure row', () => {
  it('lists a quinazoline’s targets as calibrated probabilities, most probable first, with each target’s evidence and data', async () => {
    const answer = await predict(QUINAZOLINE);
    expect(answer.domain.inDomain).toBe(true);
    expect(answer.abstention).toBeNull();
    expect(answer.targets.length).toBeGreaterThan(0);
    // The series' targets are predicted with confidence; the list is the API's, most probable first.
    expect(answer.targets.map((t) => t.name).join(' | ')).toMatch(QZN_TARGETS);
    for (const target of answer.targets) expect(target.probability).toBeGreaterThanOrEqual(answer.calibration.threshold);
    const best = answer.targets.find((t) => t.evidence.length > 0)!;

    const drawer = await predictFromSearchRow(QUINAZOLINE);
    expect(await drawer.getByTestId('prediction-disclaimer').innerText()).toContain(PREDICTION_DISCLAIMER);
    expect(await drawer.getByTestId('prediction-domain-warning').count()).toBe(0);
    expect(await drawer.getByTestId('prediction-abstention').count()).toBe(0);
    expect(await drawer.getByTestId('prediction-calibration').innerText()).toMatch(
      /Probability that the compound is active on the target \(at or below the family’s threshold\), calibrated on/,
    );

    // Each row shows its probability as a whole percent, highest first, in the API's order.
    const rows = drawer.getByTestId('prediction-target');
    expect(await rows.count()).toBe(answer.targets.length);
    const percents = await shownPercents(drawer.getByTestId('prediction-table'), 'prediction-probability');
    expect(percents).toEqual(answer.targets.map((t) => expectedPercent(t.probability)));
    expect(percents).toEqual([...percents].sort((a, b) => b - a));
    expect(await rows.evaluateAll((trs) => trs.map((tr) => Number(tr.getAttribute('data-target-id'))))).toEqual(
      answer.targets.map((t) => t.targetId),
    );
    // The probability column is not clipped at 1,280 px: the table fits the drawer.
    expect(await fitsHorizontally(drawer.getByTestId('prediction-table'))).toBe(true);

    // A target resting on one paper or fewer than five actives carries the caution; the others do not.
    const thin = (t: PredictTargetsResponse['targets'][number]) => t.domain.documents <= 1 || t.domain.actives < 5;
    expect(await drawer.getByTestId('prediction-thin-data-badge').count()).toBe(answer.targets.filter(thin).length);
    for (const target of answer.targets.filter(thin)) {
      const badge = drawer
        .locator(`[data-testid="prediction-target"][data-target-id="${target.targetId}"]`)
        .getByTestId('prediction-thin-data-badge');
      expect(await badge.innerText()).toMatch(/^rests on /);
    }

    // Fewer candidates than all: how many weaker ones the threshold left out, with the way to them.
    const belowLine = drawer.getByTestId('prediction-below-threshold');
    if (answer.belowThreshold > 0) expect(await belowLine.getAttribute('data-count')).toBe(String(answer.belowThreshold));
    else expect(await belowLine.count()).toBe(0);

    // The best target with measured evidence opens with it: each card a drawing (an RDKit SVG) and a leaflet link.
    const detail = drawer.getByTestId('prediction-target-detail');
    expect(await detail.count()).toBe(1);
    const cards = drawer.getByTestId('prediction-evidence');
    expect(await cards.count()).toBe(best.evidence.length);
    expect(await cards.count()).toBeGreaterThanOrEqual(3);
    const images = cards.getByTestId('structure-image');
    await expect.poll(() => images.count(), { timeout: 30_000 }).toBe(await cards.count());
    const svg = await images.first().evaluate(async (img) => (await fetch((img as HTMLImageElement).src)).text());
    expect(svg).toMatch(/<svg/);
    const first = best.evidence[0]!;
    expect(await cards.first().getByTestId('prediction-evidence-leaflet').getAttribute('href')).toBe(`/leaflet/structure/${first.strId}`);
    expect(await cards.first().innerText()).toMatch(/(IC50|Ki|Kd|EC50|XC50|AC50|Potency) [<≤]? ?[\d.,]+ [nµm]M · p\w+ \d+\.\d\d/);

    // Its detail: the ensemble's E-value with how to read it, the model's raw output and lift, the target's own data.
    const ensemble = await detail.getByTestId('prediction-detail-ensemble').innerText();
    expect(ensemble).toContain('below 0.01 is strong, above 1 means no better than chance');
    expect(ensemble).toMatch(/Its own probability\s+\d+\s%/);
    const own = await detail.getByTestId('prediction-detail-domain').innerText();
    expect(own).toContain(`${best.domain.actives.toLocaleString('en-US')} active`);
    expect(own).toContain(`from ${best.domain.documents.toLocaleString('en-US')} paper`);
    expect(await detail.getByTestId('prediction-thin-data').count()).toBe(best.domain.documents <= 1 || best.domain.actives < 5 ? 1 : 0);
    const model = await detail.getByTestId('prediction-detail-model').innerText();
    if (best.multitask) {
      expect(model).toContain('Raw outputs do not compare across targets');
      expect(await detail.getByTestId('prediction-detail-raw').innerText()).toMatch(/^(\d\.\d\d|< 0\.01)$/);
    } else expect(model).toMatch(/Not one of the model’s targets|No model installed/);
    await shot('panel');

    // Sorting by the similarity ensemble puts its best rank first; Probability sorts highest first again.
    await drawer.getByRole('button', { name: 'Sort by Similarity ensemble' }).click();
    const bySimilarity = answer.targets
      .filter((t) => t.ranks.similarity !== null)
      .sort((a, b) => a.ranks.similarity! - b.ranks.similarity!)[0];
    if (bySimilarity) expect(await rows.first().getAttribute('data-target-id')).toBe(String(bySimilarity.targetId));
    await drawer.getByRole('button', { name: 'Sort by Probability' }).click();
    expect(await shownPercents(drawer.getByTestId('prediction-table'), 'prediction-probability')).toEqual(percents);

    // Another row opens its evidence by keyboard.
    const closed = answer.targets.findIndex((t) => t !== best);
    if (closed >= 0) {
      const toggle = rows.nth(closed).getByTestId('prediction-expand');
      expect(await toggle.getAttribute('aria-expanded')).toBe('false');
      await toggle.focus();
      await page.keyboard.press('Enter');
      expect(await toggle.getAttribute('aria-expanded')).toBe('true');
      await toggle.click();
    }
  });

  it('answers “no target predicted with confidence” for structures unlike the measured data, with their nearest measured compounds', async () => {
    // What the server listed although nothing measured is like the structure: asserted last, once the panel is checked.
    const listedOutOfDomain: string[] = [];
    for (const smiles of [PERFLUORO, WATER]) {
      const answer = await predict(smiles);
      expect(answer.domain.inDomain, smiles).toBe(false);
      listedOutOfDomain.push(...answer.targets.map((t) => `${smiles} → ${t.name}: ${t.probability.toFixed(3)}`));

      const drawer = await predictFromSearchRow(smiles);
      const warning = drawer.getByTestId('prediction-domain-warning');
      expect(await warning.getAttribute('role')).toBe('alert');
      expect(await warning.innerText()).toContain(answer.domain.message ?? '');
      expect(await drawer.getByTestId('prediction-disclaimer').isVisible()).toBe(true);
      const state = drawer.getByTestId('prediction-abstention');
      if (!answer.abstention) {
        // The panel shows what the server answered: its list, and no abstention.
        expect(await state.count()).toBe(0);
        expect(await drawer.getByTestId('prediction-target').count()).toBe(answer.targets.length);
        continue;
      }
      // No ranked list: the state says so, with the server's reason and the nearest measured compounds.
      expect(await state.getByRole('heading').innerText()).toBe('No target predicted with confidence');
      // The server's reason, read once under the title (the title is not repeated).
      const reason = await state.getByTestId('prediction-abstention-message').innerText();
      expect(reason.length).toBeGreaterThan(10);
      expect(answer.abstention.message.toLowerCase()).toContain(reason.toLowerCase());
      expect(await drawer.getByTestId('prediction-table').count()).toBe(0);
      const nearest = state.getByTestId('prediction-nearest');
      expect(await nearest.count()).toBe(answer.abstention.nearest.length);
      for (const [index, compound] of answer.abstention.nearest.entries()) {
        const card = nearest.nth(index);
        expect(await card.getByTestId('prediction-nearest-leaflet').getAttribute('href')).toBe(`/leaflet/structure/${compound.strId}`);
        for (const active of compound.activeOn) expect(await card.innerText()).toContain(active.name);
      }
      if (answer.abstention.nearest.length > 0)
        await expect.poll(() => nearest.getByTestId('structure-image').count(), { timeout: 30_000 }).toBe(answer.abstention.nearest.length);
      // The weaker candidates are offered only when there are some.
      expect(await state.getByTestId('prediction-show-weaker').count()).toBe(answer.belowThreshold > 0 ? 1 : 0);
      await shot(smiles === PERFLUORO ? 'abstention' : 'abstention-water', state, 80);
    }
    // Nothing measured is like them: no target may reach the confidence threshold (docs/prediction.md "Honest abstention").
    expect(listedOutOfDomain, 'targets listed with confidence for structures unlike every measured active').toEqual([]);
  });

  it('shows the weaker hypotheses on request, under a banner that says they are hypotheses only', async () => {
    // A structure with weaker candidates, preferably one the product abstains on ("Show weaker
    // hypotheses"); else one with a list ("… not shown — Show" under it).
    const candidates = [PERFLUORO, WATER, 'c1ccccc1O', 'O=C(O)c1ccccc1O', QUINAZOLINE, DRUGS.propranolol];
    const answers = await Promise.all(candidates.map(async (smiles) => ({ smiles, answer: await predict(smiles) })));
    const found =
      answers.find(({ answer }) => answer.abstention !== null && answer.belowThreshold > 0) ??
      answers.find(({ answer }) => answer.belowThreshold > 0);
    expect(found, `weaker candidates for one of ${candidates.join(', ')}`).toBeDefined();
    const { smiles, answer } = found!;
    const all = await predict(smiles, 0);
    expect(all.targets.length).toBeGreaterThan(0);

    const drawer = await predictFromSearchRow(smiles);
    if (answer.abstention) await drawer.getByTestId('prediction-abstention').getByTestId('prediction-show-weaker').click();
    else {
      const line = drawer.getByTestId('prediction-below-threshold');
      expect(await line.innerText()).toMatch(new RegExp(`^${answer.belowThreshold} weaker candidates? below 20\\s% not shown — Show$`));
      await line.getByRole('button', { name: 'Show' }).click();
    }
    await drawer.locator('[data-testid="prediction-answer"][data-hypotheses="true"]').waitFor({ timeout: 30_000 });
    const banner = drawer.getByTestId('prediction-hypotheses-banner');
    expect(await banner.innerText()).toContain('Below the confidence threshold: hypotheses only');
    // The banner takes the focus from the button that asked for it (gone with the answer it belonged to).
    expect(await banner.evaluate((element) => element === document.activeElement)).toBe(true);
    expect(await drawer.getByTestId('prediction-abstention').count()).toBe(0);
    const percents = await shownPercents(drawer.getByTestId('prediction-table'), 'prediction-probability');
    expect(percents).toEqual(all.targets.map((t) => expectedPercent(t.probability)));
    expect(percents).toEqual([...percents].sort((a, b) => b - a));
    // The list holds the weaker ones now, each marked a hypothesis; the confident ones are those of the first answer.
    const weaker = all.targets.filter((t) => t.probability < answer.calibration.threshold);
    expect(weaker.length).toBeGreaterThan(0);
    expect(await drawer.getByTestId('prediction-table').getByText('hypothesis', { exact: true }).count()).toBe(weaker.length);
    expect(all.targets.filter((t) => t.probability >= answer.calibration.threshold).map((t) => t.targetId)).toEqual(
      answer.targets.map((t) => t.targetId),
    );
    await shot('hypotheses', banner, 80);

    // Back to the confident answer.
    await banner.getByTestId('prediction-confident-only').click();
    await drawer.locator('[data-testid="prediction-answer"][data-hypotheses="false"]').waitFor();
    expect(await drawer.getByTestId('prediction-abstention').count()).toBe(answer.abstention ? 1 : 0);
  });

  it('lists a drug’s model-only targets, with the knowledge base’s related targets, when the model is installed', async () => {
    if (!MODEL_INSTALLED) {
      const drawer = await predictFromSearchRow(DRUGS.erlotinib);
      expect(await drawer.getByTestId('prediction-model-only').count()).toBe(0);
      return;
    }
    // The drug whose model-only targets have related knowledge-base targets, else the first with any.
    const answers = await Promise.all(Object.values(DRUGS).map(async (smiles) => ({ smiles, answer: await predict(smiles) })));
    for (const { answer } of answers) expect(answer.model.state).toBe('installed');
    const found =
      answers.find(({ answer }) => answer.modelOnly.some((t) => t.related.length > 0)) ??
      answers.find(({ answer }) => answer.modelOnly.length > 0);
    expect(found, 'a model-only target for erlotinib or propranolol').toBeDefined();
    const { smiles, answer } = found!;

    const drawer = await predictFromSearchRow(smiles);
    const section = drawer.getByTestId('prediction-model-only');
    expect(await section.getByRole('heading').innerText()).toBe('Model only: no measurements in this knowledge base');
    const rows = section.getByTestId('prediction-model-only-target');
    expect(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-chembl-id')))).toEqual(
      answer.modelOnly.map((t) => t.chemblId),
    );
    expect(await shownPercents(section, 'prediction-model-only-probability')).toEqual(
      answer.modelOnly.map((t) => expectedPercent(t.probability)),
    );
    for (const [index, target] of answer.modelOnly.entries()) {
      const row = rows.nth(index);
      const chembl = row.getByRole('link', { name: target.chemblId });
      expect(await chembl.getAttribute('href')).toMatch(new RegExp(`^https://www\\.ebi\\.ac\\.uk/chembl/.*${target.chemblId}\\b`));
      expect(await chembl.getAttribute('target')).toBe('_blank');
      if (target.name) expect(await row.innerText()).toContain(target.name);
      // Each related knowledge-base target: its relation (orthologues marked as such) and its actives.
      const related = row.getByTestId('prediction-related');
      expect(await related.count()).toBe(target.related.length);
      for (const [r, relation] of target.related.entries()) {
        const chip = related.nth(r);
        expect(await chip.getAttribute('data-relation')).toBe(relation.relation);
        const text = await chip.innerText();
        expect(text).toContain(relation.relation);
        expect(text).toContain(relation.name);
        expect(text).toContain(`${relation.actives.toLocaleString('en-US')} active`);
      }
    }
    expect(await fitsHorizontally(section.getByTestId('prediction-model-only-table'))).toBe(true);
    // The list's opened evidence closed: the section in view with the list above it.
    const opened = drawer.locator('[data-testid="prediction-expand"][aria-expanded="true"]');
    while ((await opened.count()) > 0) await opened.first().click();
    await shot('model-only', section, 80);

    // A related target's link is a new search of that target: its measurements, or its actives when listed above.
    const withRelated = answer.modelOnly.findIndex((t) => t.related.length > 0);
    if (withRelated >= 0) {
      const relation = answer.modelOnly[withRelated]!.related[0]!;
      await rows.nth(withRelated).getByTestId('prediction-related-search').first().click();
      await searchRunFor(relation.name);
    }
  });
});

describe('predicted targets on a leaflet and for a selection', () => {
  it('opens a compound leaflet’s Predicted targets on request and marks the targets it was measured on', async () => {
    const query = await predict(QUINAZOLINE);
    const strId = query.targets.find((t) => t.evidence.length > 0)!.evidence[0]!.strId;
    const leaflet = new LeafletPage(page);
    await leaflet.openCompound('structure', strId);
    await leaflet.compoundLoaded();
    const section = leaflet.section('prediction');
    // Closed until asked for: the leaflet does not predict on opening.
    expect(await section.getByTestId('predicted-targets').count()).toBe(0);
    await section.getByTestId('leaflet-predict-targets').click();
    await section.getByTestId('prediction-answer').waitFor({ timeout: 30_000 });
    expect(await section.getByTestId('prediction-disclaimer').isVisible()).toBe(true);
    // A stored active of the series is predicted with confidence, probabilities highest first.
    const percents = await shownPercents(section, 'prediction-probability');
    expect(percents.length).toBeGreaterThan(0);
    expect(percents).toEqual([...percents].sort((a, b) => b - a));
    expect(await fitsHorizontally(section.getByTestId('prediction-table'))).toBe(true);
    // An evidence active is in the knowledge base: its targets measured for it carry the measured value.
    const measured = section.getByTestId('prediction-measured');
    expect(await measured.count()).toBeGreaterThan(0);
    expect(await measured.first().innerText()).toMatch(/^measured: p\w+ \d+\.\d\d \((active|inactive)\)$/);
    await expect
      .poll(() => section.getByTestId('prediction-evidence').getByTestId('structure-image').count(), { timeout: 30_000 })
      .toBeGreaterThan(0);
    await windowShot(page, 'prediction-leaflet-section', section, 80);
  });

  it('predicts the ticked rows of a Structures tab in batches and sums their probabilities per target', async () => {
    const criteria: SearchCriteria = {
      rows: [
        {
          selectedOption: 'structure',
          operator: null,
          structure: { inputType: 'smiles', value: 'c1ncnc2ccccc12', category: 'substructure', feature: 'desalted' },
        },
      ],
    };
    await openResultsOf(api, page, criteria, 'structuretab');
    const results = new ResultsPage(page);
    expect(await page.getByTestId('predict-selection').isDisabled()).toBe(true);
    const ticked = [await results.selectRow(0), await results.selectRow(1), await results.selectRow(2)];
    expect(ticked).toHaveLength(3);
    const batch = await api.call(predictionEndpoints.predictBatch, {
      body: { strIds: ticked, limit: 10, minProbability: PREDICTION_CONFIDENT_PROBABILITY },
    });
    const aggregated = aggregatePredictions(batch.predictions);

    await page.getByTestId('predict-selection').click();
    const drawer = page.getByTestId('selection-prediction');
    const progress = drawer.getByTestId('selection-prediction-progress');
    await expect.poll(() => progress.getAttribute('data-status'), { timeout: 30_000 }).toBe('done');
    expect(await progress.getAttribute('data-done')).toBe('3');
    expect(await drawer.getByTestId('prediction-disclaimer').isVisible()).toBe(true);
    // How many compounds have no confident target, as the API answers them.
    const abstained = batch.predictions.filter((p) => p.error === null && p.abstained).length;
    const summary = drawer.getByTestId('selection-prediction-abstained');
    expect(await summary.getAttribute('data-abstained')).toBe(String(abstained));
    expect(await summary.innerText()).toMatch(
      abstained === 0
        ? /^All 3 compounds have a target predicted with confidence$/
        : new RegExp(`^${abstained} of 3 compounds: no target predicted with confidence`),
    );

    const targets = drawer.getByTestId('selection-prediction-target');
    expect(await targets.count()).toBe(aggregated.length);
    expect(aggregated.length).toBeGreaterThan(0);
    expect(await drawer.getByTestId('selection-prediction-table').innerText()).toMatch(QZN_TARGETS);
    // Mean and best probability per target as percentages, as the API's answers sum them.
    expect(await shownPercents(drawer, 'selection-prediction-best')).toEqual(aggregated.map((t) => expectedPercent(t.bestProbability)));
    expect(await shownPercents(drawer, 'selection-prediction-mean')).toEqual(aggregated.map((t) => expectedPercent(t.meanProbability)));
    for (const t of aggregated) expect(t.bestProbability).toBeGreaterThanOrEqual(PREDICTION_CONFIDENT_PROBABILITY);
    await drawer.getByRole('button', { name: 'Sort by Best probability' }).click();
    const best = await shownPercents(drawer, 'selection-prediction-best');
    expect(best).toEqual([...best].sort((a, b) => b - a));
    expect(await fitsHorizontally(drawer.getByTestId('selection-prediction-table'))).toBe(true);
    await shot('selection');

    // A target's "Actives" is a new search: that target AND a potency at or below its family's threshold.
    // When the builder holds rows typed above and never searched, it asks before replacing them.
    const egfr = targets.filter({ hasText: 'Epidermal growth factor receptor' });
    await egfr
      .first()
      .getByRole('button', { name: /Search the measured actives of/ })
      .click();
    // The header shows the search's saved summary, or (when the results page read the session before
    // the summary was saved: it is saved beside the run) the criteria themselves: either names both.
    const header = await searchRunFor('Epidermal growth factor receptor');
    expect(header).toMatch(/(≤|<=) 30 nM/);
    expect(uncaughtErrors(context)).toEqual([]);
  });
});

describe('the target-prediction model on the superadmin Releases tab', () => {
  it('shows the model’s status, checks the files in the browser and says why the server refused a model', async () => {
    const admin = await newAppContext(browser(), server().baseUrl);
    try {
      const adminPage = await admin.newPage();
      await adminPage.setViewportSize({ width: 1280, height: 900 });
      await new LoginPage(adminPage).logInAs('SUPER_ADMIN');
      await adminPage.goto(new URL('/superadmin?tab=releases', server().baseUrl).href);
      const card = adminPage.getByTestId('prediction-model-admin');
      const status = card.getByTestId('prediction-model-status');
      await status.waitFor({ timeout: 20_000 });
      expect(await status.getAttribute('data-state')).toBe(MODEL_INSTALLED ? 'installed' : 'not-installed');
      // Without a model, the status says where to get one.
      if (!MODEL_INSTALLED)
        expect(await card.getByTestId('prediction-model-message').innerText()).toMatch(/chembl_multitask_model|ChEMBL/i);

      // Reading the folder again answers the same model.
      await card.getByTestId('prediction-model-reload').click();
      await expect.poll(() => card.getByTestId('prediction-model-reload').getAttribute('data-loading')).toBeNull();
      expect(await status.getAttribute('data-state')).toBe(MODEL_INSTALLED ? 'installed' : 'not-installed');

      // A target list that is not ChEMBL ids is refused before anything is sent.
      const files = card.locator('input[type="file"]');
      await files
        .nth(1)
        .setInputFiles({ name: 'targets.json', mimeType: 'application/json', buffer: Buffer.from('["CHEMBL203", "EGFR"]') });
      expect(await card.getByTestId('prediction-model-file-problem').innerText()).toMatch(
        /Entry 2 of “targets.json” \("EGFR"\) is not a ChEMBL target id/,
      );
      expect(await card.getByTestId('prediction-model-install').isDisabled()).toBe(true);

      // A model file that is not a model: the server's reason is shown, and the status stays.
      await files
        .nth(1)
        .setInputFiles({ name: 'targets.json', mimeType: 'application/json', buffer: Buffer.from('["CHEMBL203", "CHEMBL204"]') });
      await files
        .nth(0)
        .setInputFiles({ name: 'broken.onnx', mimeType: 'application/octet-stream', buffer: Buffer.from('not an onnx model') });
      await card.getByTestId('prediction-model-install').click();
      const error = card.getByTestId('prediction-model-error');
      await error.waitFor({ timeout: 20_000 });
      expect((await error.innerText()).length).toBeGreaterThan(30);
      expect(await status.getAttribute('data-state')).toBe(MODEL_INSTALLED ? 'installed' : 'not-installed');
      await windowShot(adminPage, 'prediction-superadmin-model', card, 80);
    } finally {
      await admin.close();
    }
  });
});
