import crypto from 'node:crypto';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dashboardEndpoints } from '@kb/contracts/api';
import { leafletEndpoints } from '@kb/contracts/leaflets';
import type { CompoundLeaflet } from '@kb/contracts/leaflets';
import { searchEndpoints } from '@kb/contracts/search-api';
import { ApiSession } from './support/api-session.ts';
import { newAppContext, screenshot, useBrowser } from './support/browser.ts';
import { LeafletPage } from './support/pages/leaflet-page.ts';
import { LoginPage } from './support/pages/login-page.ts';
import { useSeededServer } from './support/seeded-server.ts';

/*
 * Compound and reference leaflets in the browser against one demo chunk (1,000 structures, 40
 * references, a development compound for about one series in five). What the page shows is
 * compared with what the API answers for the same ids; the search marks with a search the same
 * user ran through the API; the measurement list behind a potency; a reference link from one
 * user's results opened by another.
 */
const server = useSeededServer({ chunks: 1 });
const browser = useBrowser();

let api: ApiSession;
let otherUser: ApiSession;
let context: BrowserContext;
let page: Page;
let leaflets: LeafletPage;
let drug: CompoundLeaflet;

/** The first development compound with a structure (ids are the demo series' reference ids). */
async function firstDevelopmentCompound(): Promise<CompoundLeaflet> {
  for (let id = 1; id <= 40; id++) {
    const answer = await api.call(leafletEndpoints.compoundLeaflet, { params: { id }, query: { idType: 'dcm' } }).catch(() => null);
    if (answer?.structure) return answer;
  }
  throw new Error('The demo chunk has no development compound with a structure');
}

beforeAll(async () => {
  api = await ApiSession.logIn(server().baseUrl, 'FULL_USER');
  otherUser = await ApiSession.logIn(server().baseUrl, 'EVALUATE_USER');
  drug = await firstDevelopmentCompound();
  context = await newAppContext(browser(), server().baseUrl);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server().baseUrl });
  page = await context.newPage();
  leaflets = new LeafletPage(page);
  await new LoginPage(page).logInAs('FULL_USER');
}, 180_000);
afterAll(async () => {
  await context?.close();
});

describe('compound and reference leaflets in the browser', () => {
  it('opens a compound leaflet: depiction, identifiers, activities by target (sortable), development status and references', async () => {
    const strId = drug.structure!.str_id;
    await leaflets.openCompound('structure', strId);
    await leaflets.compoundLoaded();
    expect(await leaflets.title().innerText()).toBe(drug.development[0]!.drug_name);

    // The RDKit drawing of the stored structure, from a blob URL.
    const image = page.getByTestId('leaflet-structure').getByTestId('structure-image');
    await expect.poll(() => image.getAttribute('src'), { timeout: 30_000 }).toMatch(/^blob:/);
    expect(await leaflets.identifier('inchikey')).toBe(drug.structure!.inchikey);
    expect(await leaflets.identifier('canonical_smiles')).toBe(drug.structure!.canonical_smiles);
    await leaflets.copyIdentifier('inchikey');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(drug.structure!.inchikey);

    // Most measured target first, as the API orders them; a click on the header reverses it.
    const groups = drug.activities.groups;
    expect(await leaflets.targetActivityCounts()).toEqual(groups.map((g) => g.activity_count));
    await leaflets.sortTargetsBy('Activities');
    const ascending = await leaflets.targetActivityCounts();
    expect(ascending).toEqual([...ascending].sort((a, b) => a - b));
    expect(ascending).toHaveLength(groups.length);

    const development = page.getByTestId('development-compound');
    expect(await development.count()).toBe(drug.development.length);
    expect(await development.first().getByTestId('development-phase').innerText()).toBe(drug.development[0]!.highest_phase);
    expect(await leaflets.referenceIds()).toEqual(drug.references.rows.map((r) => r.ref_id));
    await screenshot(page, 'compound-leaflet');
  }, 120_000);

  it('goes from the compound leaflet to a reference leaflet: citation, authors, compounds and activities, and back', async () => {
    const ref = drug.references.rows[0]!;
    const expected = await api.call(leafletEndpoints.referenceLeaflet, { params: { rid: ref.ref_id }, query: { inSearchOnly: false } });
    await page.getByTestId('leaflet-reference').first().getByRole('link').first().click();
    await leaflets.referenceLoaded();
    // The permanent link: no session in it.
    expect(new URL(page.url()).pathname).toBe(`/leaflet/reference/${ref.ref_id}`);

    expect(await leaflets.title().innerText()).toBe(expected.document.title);
    expect(await page.getByTestId('reference-authors').innerText()).toBe(expected.authors.join('\n'));
    const doi = page.getByTestId('reference-bibliography').getByRole('link', { name: expected.document.doi ?? 'no DOI' });
    if (expected.document.doi) expect(await doi.getAttribute('href')).toBe(`https://doi.org/${expected.document.doi}`);
    expect(await page.getByTestId('reference-abstract').count()).toBe(expected.document.abstract ? 1 : 0);

    // The first page of drawings and of activities, in the API's order; no search, so no marks.
    const tiles = await leaflets.compoundTiles();
    expect(tiles.map((t) => t.strId)).toEqual(expected.compounds.rows.slice(0, 24).map((c) => c.str_id));
    expect(tiles.every((t) => t.inSearch === 'null')).toBe(true);
    const rows = await leaflets.activityRows();
    expect(rows.map((r) => r.actId)).toEqual(expected.activities.rows.slice(0, 25).map((a) => a.act_id));
    expect(await page.getByTestId('search-banner').count()).toBe(0);
    await screenshot(page, 'reference-leaflet');

    // A compound tile opens that compound's leaflet.
    const first = expected.compounds.rows[0]!;
    await page.getByTestId('reference-compound').first().getByRole('link').last().click();
    await leaflets.compoundLoaded();
    expect(new URL(page.url()).pathname).toBe(`/leaflet/structure/${first.str_id}`);
    expect(await leaflets.identifier('str_id')).toBe(String(first.str_id));
  }, 120_000);

  it('marks what the user’s search holds and keeps only that with the switch', async () => {
    const ref = drug.references.rows[0]!;
    const all = await api.call(leafletEndpoints.referenceLeaflet, { params: { rid: ref.ref_id }, query: { inSearchOnly: false } });
    // A molecular-weight cut through the middle of the reference's compounds.
    const weights = await Promise.all(
      all.compounds.rows.map(
        async (c) =>
          (await api.call(leafletEndpoints.compoundLeaflet, { params: { id: c.str_id }, query: { idType: 'structure' } })).properties!
            .mol_weight!,
      ),
    );
    const sorted = [...new Set(weights)].sort((a, b) => a - b);
    const cut = (sorted[Math.floor(sorted.length / 2) - 1]! + sorted[Math.floor(sorted.length / 2)]!) / 2;
    const sessionid = crypto.randomUUID();
    await api.call(searchEndpoints.allResultsCount, {
      body: { searchcriteria: { rows: [{ selectedOption: 'structure', properties: { molmax: cut }, operator: 'AND' }] }, sessionid },
    });
    const marked = await api.call(leafletEndpoints.referenceLeaflet, {
      params: { rid: ref.ref_id },
      query: { sessionid, inSearchOnly: false },
    });

    await leaflets.openReference(sessionid, ref.ref_id);
    await leaflets.referenceLoaded();
    const banner = page.getByTestId('search-banner');
    expect(await banner.innerText()).toContain(`${marked.compounds.inSearch} of ${marked.compounds.total}`);
    const tiles = await leaflets.compoundTiles();
    expect(tiles).toEqual(marked.compounds.rows.slice(0, 24).map((c) => ({ strId: c.str_id, inSearch: String(c.in_search) })));
    expect(tiles.some((t) => t.inSearch === 'true') && tiles.some((t) => t.inSearch === 'false')).toBe(true);

    await page.getByRole('switch', { name: 'Only in this search' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('only')).toBe('search');
    await expect.poll(async () => (await leaflets.compoundTiles()).every((t) => t.inSearch === 'true'), { timeout: 20_000 }).toBe(true);
    const onlyTiles = await leaflets.compoundTiles();
    expect(onlyTiles.map((t) => t.strId)).toEqual(
      marked.compounds.rows
        .filter((c) => c.in_search)
        .slice(0, 24)
        .map((c) => c.str_id),
    );
    expect((await leaflets.activityRows()).every((r) => r.inSearch === 'true')).toBe(true);
    await screenshot(page, 'reference-leaflet-in-search');

    // Once the search's results are dropped, the same link explains itself and offers the whole reference.
    await api.call(dashboardEndpoints.dropUnloggedTables, { body: { sessionid } });
    await leaflets.openReference(sessionid, ref.ref_id, '?only=search');
    expect(await leaflets.errorText()).toMatch(/results are kept; this one is dropped/);
    await page.getByRole('button', { name: 'Show the whole reference' }).click();
    await leaflets.referenceLoaded();
    expect(await page.getByTestId('search-banner').innerText()).toMatch(/no longer kept/);
    expect((await leaflets.compoundTiles()).every((t) => t.inSearch === 'null')).toBe(true);
  }, 120_000);

  it('lists every measurement behind a potency of the leaflet, from a row of its activities by target', async () => {
    const strId = drug.structure!.str_id;
    await leaflets.openCompound('structure', strId);
    await leaflets.compoundLoaded();
    const group = drug.activities.groups.find((g) => g.target_id !== null)!;
    const expected = await api.call(leafletEndpoints.measurements, {
      query: { idType: 'structure', id: strId, targetId: group.target_id!, sort: 'value', direction: 'asc', page: 0, pageSize: 50 },
    });
    expect(expected.total).toBe(group.activity_count);

    await page.locator(`[data-testid="leaflet-target-group"][data-target-id="${group.target_id}"]`).click();
    const list = page.getByTestId('measurement-list');
    await list.waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('measurement-title').innerText()).toContain(group.target_name!);
    expect(Number(await list.getAttribute('data-total'))).toBe(expected.total);
    const rows = () => page.getByTestId('measurement-row').evaluateAll((trs) => trs.map((tr) => Number(tr.getAttribute('data-act-id'))));
    expect(await rows()).toEqual(expected.rows.map((r) => r.act_id));
    // Units as a chemist writes them; the reference opens by its permanent link.
    expect(await page.getByTestId('measurement-value').allInnerTexts()).not.toContainEqual(expect.stringMatching(/\buM\b/));
    expect(await page.getByTestId('measurement-reference').first().getAttribute('href')).toBe(expected.rows[0]!.reference_link);
    await screenshot(page, 'measurement-list');

    // The no-target group opens from the keyboard.
    await page.keyboard.press('Escape');
    await list.waitFor({ state: 'detached' });
    const none = drug.activities.groups.find((g) => g.target_id === null);
    if (none) {
      await page.locator('[data-testid="leaflet-target-group"][data-target-id=""]').focus();
      await page.keyboard.press('Enter');
      await list.waitFor({ timeout: 20_000 });
      expect(Number(await list.getAttribute('data-total'))).toBe(none.activity_count);
      expect(await page.getByTestId('measurement-title').innerText()).toMatch(/without a target/);
      await page.keyboard.press('Escape');
    }
  }, 120_000);

  it('opens a reference link from one user’s results for another user: the reference, without the first user’s search', async () => {
    // User A's search and the Documents tab of its results.
    const sessionid = crypto.randomUUID();
    await api.call(searchEndpoints.allResultsCount, {
      body: {
        searchcriteria: { rows: [{ selectedOption: 'activitytypes', activities: [{ activityType: 'Ki' }], operator: 'AND' }] },
        sessionid,
      },
    });
    await page.evaluate(
      (id) =>
        window.sessionStorage.setItem(
          'kb-search-session',
          JSON.stringify({ state: { searchSessionId: id, selectionSessionId: null }, version: 0 }),
        ),
      sessionid,
    );
    await leaflets.open('/results/documentstab');
    await page.locator('[data-testid="results-grid"][aria-busy="false"] .ag-row[row-id]').first().waitFor({ timeout: 30_000 });
    const href = (await page.getByTestId('reference-link').first().getAttribute('href'))!;
    expect(href).toMatch(new RegExp(`^/leaflet/reference/\\d+\\?sid=${sessionid}$`));
    const refId = Number(/reference\/(\d+)/.exec(href)![1]);

    // A colleague (another role, another login) opens the same link.
    const colleague = await newAppContext(browser(), server().baseUrl);
    try {
      const theirs = await colleague.newPage();
      await new LoginPage(theirs).logInAs('EVALUATE_USER');
      const theirLeaflets = new LeafletPage(theirs);
      await theirLeaflets.open(href);
      await theirLeaflets.referenceLoaded();
      const expected = await otherUser.call(leafletEndpoints.referenceLeaflet, { params: { rid: refId }, query: { inSearchOnly: false } });
      expect(await theirLeaflets.title().innerText()).toBe(expected.document.title);
      expect(await theirs.getByTestId('search-note').innerText()).toMatch(/Opened without your search/);
      expect(await theirs.getByTestId('search-banner').count()).toBe(0);
      expect((await theirLeaflets.compoundTiles()).every((t) => t.inSearch === 'null')).toBe(true);
      await screenshot(theirs, 'reference-leaflet-colleague');

      // An old session-bound link, and one whose search part is not a search id, open it too.
      await theirLeaflets.openReference(sessionid, refId);
      await theirLeaflets.referenceLoaded();
      expect(await theirs.getByTestId('search-note').innerText()).toMatch(/Opened without your search/);
      await theirLeaflets.openReference('x', refId);
      await theirLeaflets.referenceLoaded();
      expect(await theirs.getByTestId('search-note').innerText()).toMatch(/“x”\) is not a search id/);
    } finally {
      await colleague.close();
    }
    // The owner still sees the search's marks from the same link.
    await leaflets.open(href);
    await leaflets.referenceLoaded();
    await page.getByTestId('search-banner').waitFor();
  }, 120_000);

  it('shows clear alerts for an unknown compound or reference and a bad link', async () => {
    await leaflets.openCompound('structure', 987654321);
    expect(await leaflets.errorText()).toMatch(/Not in the knowledge base[\s\S]*No structure with id 987654321/);

    await leaflets.open('/leaflet/reference/987654321');
    expect(await leaflets.errorText()).toMatch(/Not in the knowledge base[\s\S]*No reference with id 987654321/);

    await leaflets.openCompound('gene', 12);
    expect(await leaflets.errorText()).toMatch(/not a kind of leaflet/);
  }, 120_000);
});
