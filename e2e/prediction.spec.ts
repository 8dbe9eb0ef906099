import fs from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { PREDICTION_DISCLAIMER, predictionEndpoints } from '@kb/contracts/prediction';
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
 * Target prediction (issue 38) at 1440 × 900 against a server with one demo chunk: a
 * 4-anilinoquinazoline typed into a structure row (the demo's QZN series, EGFR / ERBB2 inhibitors)
 * is predicted from its search row, with the evidence actives drawn; a perfluorinated sulfonic acid
 * is unlike anything measured and gets the domain warning; a compound's leaflet opens its
 * Predicted targets; a few rows of a Structures tab are predicted together. The multitask model
 * is used when ../shared/models holds it; the ensemble alone must pass too.
 */
const MODEL_DIR = path.resolve(REPO_ROOT, '../shared/models/chembl-multitask');
const server = useSeededServer({ chunks: 1, env: fs.existsSync(MODEL_DIR) ? { PREDICTION_MODEL_DIR: MODEL_DIR } : {} });
const browser = useBrowser();

/** Gefitinib's core with the demo's 3-chloro-4-fluoroanilino: an EGFR-family inhibitor of the QZN series. */
const QUINAZOLINE = 'COc1cc2ncnc(Nc3ccc(F)c(Cl)c3)c2cc1OC';
const QZN_TARGETS = /Epidermal growth factor receptor|erbB-2/;
/** Perfluorohexanesulfonic acid: nothing in the demo data looks like it. */
const PERFLUORO = 'FC(F)(F)C(F)(F)C(F)(F)C(F)(F)C(F)(F)C(F)(F)S(=O)(=O)O';

const user = useLoggedInUser(server, browser, 'FULL_USER');
let api: ApiSession;
let context: BrowserContext;
let page: Page;

const shot = (name: string) => windowShot(page, `prediction-${name}`, undefined, 0);

beforeAll(async () => {
  ({ api, context } = user());
  page = user().page!;
  await page.setViewportSize({ width: 1440, height: 900 });
});

/** Types SMILES into a new structure row of the search page and opens its predicted targets. */
async function predictFromSearchRow(smiles: string): Promise<void> {
  const search = new SearchPage(page);
  await search.openSearch();
  const row = await search.addRow('Add Structure row');
  await row.getByRole('radiogroup', { name: 'Structure input' }).getByText('SMILES', { exact: true }).click();
  await row.getByRole('textbox', { name: 'SMILES' }).fill(smiles);
  await row.getByTestId('predict-targets').click();
  await page.getByTestId('prediction-answer').waitFor({ timeout: 30_000 });
}

describe('predicted targets of a structure row', () => {
  it('lists the targets of a quinazoline with its nearest measured actives drawn, and says they are hypotheses', async () => {
    const answer = await api.call(predictionEndpoints.predictTargets, {
      body: { structure: { kind: 'smiles', text: QUINAZOLINE, desalt: true }, limit: 15 },
    });
    expect(answer.domain.inDomain).toBe(true);
    // The ensemble's best is the series' target; the model (when installed) may rank its own targets above it.
    expect(answer.targets.find((t) => t.ranks.similarity === 1)?.name).toMatch(QZN_TARGETS);
    const best = answer.targets.find((t) => t.evidence.length > 0)!;

    await predictFromSearchRow(QUINAZOLINE);
    const drawer = page.getByTestId('prediction-drawer');
    expect(await drawer.getByTestId('prediction-disclaimer').innerText()).toContain(PREDICTION_DISCLAIMER);
    expect(await drawer.getByTestId('prediction-domain-warning').count()).toBe(0);
    const rows = drawer.getByTestId('prediction-target');
    expect(await rows.count()).toBe(answer.targets.length);

    // The best target with measured evidence opens with it: each card a drawing (an RDKit SVG) and a leaflet link.
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

    // Sorting by the similarity ensemble puts its rank 1 first; another row opens its evidence by keyboard.
    await drawer.getByRole('button', { name: 'Sort by Similarity ensemble' }).click();
    const bySimilarity = answer.targets.find((t) => t.ranks.similarity === 1);
    if (bySimilarity) expect(await rows.first().getAttribute('data-rank')).toBe(String(bySimilarity.ranks.combined));
    await drawer.getByRole('button', { name: 'Sort by Combined' }).click();
    const closed = answer.targets.findIndex((t) => t !== best);
    if (closed >= 0) {
      const toggle = rows.nth(closed).getByTestId('prediction-expand');
      expect(await toggle.getAttribute('aria-expanded')).toBe('false');
      await toggle.focus();
      await page.keyboard.press('Enter');
      expect(await toggle.getAttribute('aria-expanded')).toBe('true');
      await toggle.click();
    }
    await shot('search-panel');
  });

  it('warns that a perfluorinated sulfonic acid is unlike the measured data', async () => {
    const answer = await api.call(predictionEndpoints.predictTargets, {
      body: { structure: { kind: 'smiles', text: PERFLUORO, desalt: true }, limit: 15 },
    });
    expect(answer.domain.inDomain).toBe(false);

    await page.keyboard.press('Escape');
    await predictFromSearchRow(PERFLUORO);
    const warning = page.getByTestId('prediction-drawer').getByTestId('prediction-domain-warning');
    await warning.waitFor();
    expect(await warning.getAttribute('role')).toBe('alert');
    expect(await warning.innerText()).toContain(answer.domain.message ?? '');
    expect(await page.getByTestId('prediction-drawer').getByTestId('prediction-disclaimer').isVisible()).toBe(true);
    await shot('domain-warning');
    await page.keyboard.press('Escape');
  });
});

describe('predicted targets on a leaflet and for a selection', () => {
  it('opens a compound leaflet’s Predicted targets on request and marks the targets it was measured on', async () => {
    const query = await api.call(predictionEndpoints.predictTargets, {
      body: { structure: { kind: 'smiles', text: QUINAZOLINE, desalt: true }, limit: 15 },
    });
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
    // An evidence active is in the knowledge base: its targets measured for it carry the measured value.
    const measured = section.getByTestId('prediction-measured');
    expect(await measured.count()).toBeGreaterThan(0);
    expect(await measured.first().innerText()).toMatch(/^measured: p\w+ \d+\.\d\d \((active|inactive)\)$/);
    await expect
      .poll(() => section.getByTestId('prediction-evidence').getByTestId('structure-image').count(), { timeout: 30_000 })
      .toBeGreaterThan(0);
    await windowShot(page, 'prediction-leaflet-section', section, 80);
  });

  it('predicts the ticked rows of a Structures tab in batches and sums them per target', async () => {
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
    await page.getByTestId('predict-selection').click();
    const drawer = page.getByTestId('selection-prediction');
    const progress = drawer.getByTestId('selection-prediction-progress');
    await expect.poll(() => progress.getAttribute('data-status'), { timeout: 30_000 }).toBe('done');
    expect(await progress.getAttribute('data-done')).toBe('3');
    expect(await drawer.getByTestId('prediction-disclaimer').isVisible()).toBe(true);
    const targets = drawer.getByTestId('selection-prediction-target');
    expect(await targets.count()).toBeGreaterThan(0);
    expect(await drawer.getByTestId('selection-prediction-table').innerText()).toMatch(QZN_TARGETS);
    await drawer.getByRole('button', { name: 'Sort by Unmeasured (hypotheses)' }).click();
    expect(await targets.count()).toBeGreaterThan(0);
    await shot('selection');

    // A target's "Actives" is a new search: that target AND a potency at or below its family's threshold.
    // The builder still holds the rows typed above (never searched), so it asks before replacing them.
    const egfr = targets.filter({ hasText: 'Epidermal growth factor receptor' });
    await egfr.getByRole('button', { name: /Search the measured actives of/ }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Replace and search' }).click();
    await page.waitForURL('**/results/structuretab', { timeout: 30_000 });
    await results.waitForRows();
    // The header shows the search's saved summary, or (when the results page read the session before
    // the summary was saved: it is saved beside the run) the criteria themselves: either names both.
    const header = await page.getByTestId('results-header').innerText();
    expect(header).toMatch(/Epidermal growth factor receptor/);
    expect(header).toMatch(/(≤|<=) 30 nM/);
    expect(uncaughtErrors(context)).toEqual([]);
  });
});

describe('the target-prediction model on the superadmin Releases tab', () => {
  it('shows the model’s status, checks the files in the browser and says why the server refused a model', async () => {
    const admin = await newAppContext(browser(), server().baseUrl);
    try {
      const adminPage = await admin.newPage();
      await adminPage.setViewportSize({ width: 1440, height: 900 });
      await new LoginPage(adminPage).logInAs('SUPER_ADMIN');
      await adminPage.goto(new URL('/superadmin?tab=releases', server().baseUrl).href);
      const card = adminPage.getByTestId('prediction-model-admin');
      const status = card.getByTestId('prediction-model-status');
      await status.waitFor({ timeout: 20_000 });
      expect(await status.getAttribute('data-state')).toBe(fs.existsSync(MODEL_DIR) ? 'installed' : 'not-installed');
      // Without a model, the status says where to get one.
      if (!fs.existsSync(MODEL_DIR))
        expect(await card.getByTestId('prediction-model-message').innerText()).toMatch(/chembl_multitask_model|ChEMBL/i);

      // Reading the folder again answers the same model.
      await card.getByTestId('prediction-model-reload').click();
      await expect.poll(() => card.getByTestId('prediction-model-reload').getAttribute('data-loading')).toBeNull();
      expect(await status.getAttribute('data-state')).toBe(fs.existsSync(MODEL_DIR) ? 'installed' : 'not-installed');

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
      expect(await status.getAttribute('data-state')).toBe(fs.existsSync(MODEL_DIR) ? 'installed' : 'not-installed');
      await windowShot(adminPage, 'prediction-superadmin-model', card, 80);
    } finally {
      await admin.close();
    }
  });
});
