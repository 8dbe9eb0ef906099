import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { newAppContext, screenshot, useBrowser } from './support/browser.ts';
import { LoginPage } from './support/pages/login-page.ts';
import { SearchPage } from './support/pages/search-page.ts';
import { StructureEditorModal } from './support/pages/structure-editor-modal.ts';

/*
 * The Ketcher structure editor of a Structure row. Ketcher and Indigo run entirely in the browser
 * and these tests do not search, so they use the run's shared server: no knowledge base to seed.
 */
const browser = useBrowser();

let context: BrowserContext;
let page: Page;
let search: SearchPage;
let editor: StructureEditorModal;

beforeAll(async () => {
  // One login for the file; every test opens its own tab, which starts with an empty builder.
  context = await newAppContext(browser());
  // Ctrl+V pastes what the test put on the system clipboard.
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const first = await context.newPage();
  await new LoginPage(first).logInAs('FULL_USER');
  await first.close();
}, 60_000);

afterAll(async () => {
  await context?.close();
});

beforeEach(async () => {
  page = await context.newPage();
  search = new SearchPage(page);
  editor = new StructureEditorModal(page);
  await search.openSearch();
});

afterEach(async () => {
  await page.close();
});

/** The row's input type and category, as its two segmented controls show them. */
async function rowChoices(row: Locator): Promise<{ input: string | null; category: string | null }> {
  const checked = (group: string) =>
    row.getByRole('radiogroup', { name: group }).locator('input[type="radio"]:checked').getAttribute('value');
  return { input: await checked('Structure input'), category: await checked('Search as') };
}

async function chooseInput(row: Locator, label: 'SMILES' | 'SMARTS' | 'Molfile'): Promise<void> {
  await row.getByRole('radiogroup', { name: 'Structure input' }).getByText(label, { exact: true }).click();
}

/**
 * Whether a SMILES is benzene, whichever form Ketcher writes: six ring carbons, one ring, and either
 * aromatic atoms or three double bonds (c1ccccc1, C1=CC=CC=C1, C1C=CC=CC=1). Cyclohexane or
 * anything with a branch, a hetero atom or a second ring fails.
 */
function isBenzene(smiles: string): boolean {
  if (/[^Cc0-9=]/.test(smiles)) return false;
  const ringLabels = smiles.match(/[0-9]/g) ?? [];
  if (ringLabels.length !== 2 || ringLabels[0] !== ringLabels[1]) return false;
  const atoms = smiles.replace(/[0-9=]/g, '');
  const doubleBonds = (smiles.match(/=/g) ?? []).length;
  return (atoms === 'cccccc' && doubleBonds === 0) || (atoms === 'CCCCCC' && doubleBonds === 3);
}

/** Pyridine, in whichever form Ketcher writes it: five carbons and one nitrogen in one ring. */
function isPyridine(smiles: string): boolean {
  const ringLabels = smiles.match(/[0-9]/g) ?? [];
  return ringLabels.length === 2 && [...smiles.replace(/[0-9=]/g, '').toUpperCase()].sort().join('') === 'CCCCCN';
}

/** Ethanol as a V2000 molfile whose name line is blank, as many tools write it. */
const ETHANOL_MOLFILE = [
  '',
  '  manual',
  '',
  '  3  2  0  0  0  0  0  0  0  0999 V2000',
  '    0.0000    0.0000    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0',
  '    1.2990    0.7500    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0',
  '    2.5981    0.0000    0.0000 O   0  0  0  0  0  0  0  0  0  0  0  0',
  '  1  2  1  0',
  '  2  3  1  0',
  'M  END',
].join('\n');

describe('the structure editor of a Structure row', () => {
  it('downloads Ketcher only when opened, and returns a drawn benzene ring to a new row, which starts on SMILES', async () => {
    const fetched: string[] = [];
    page.on('request', (request) => fetched.push(new URL(request.url()).pathname));
    const row = await search.addRow('Add Structure row');
    // A new Structure row starts on SMILES, with SMILES's own default category (Name is one click away).
    expect(await rowChoices(row)).toEqual({ input: 'smiles', category: 'substructure' });
    const isKetcher = (path: string) => /ketcher|indigo|\.wasm$/i.test(path);
    expect(fetched.filter(isKetcher), 'nothing of Ketcher before the editor is opened').toEqual([]);

    await editor.openFrom(row);
    await editor.drawBenzene();
    await screenshot(page, 'structure-editor-benzene');
    await editor.useStructure();

    expect(await rowChoices(row)).toEqual({ input: 'smiles', category: 'substructure' });
    const smiles = await row.getByRole('textbox', { name: 'SMILES' }).inputValue();
    expect(isBenzene(smiles), `the row's SMILES "${smiles}" is benzene`).toBe(true);
    expect(
      fetched.some((path) => path.endsWith('.wasm')),
      'Indigo WASM fetched once the editor opened',
    ).toBe(true);
  });

  it('opens on the row’s SMILES and returns the same molecule, keeping the row’s category', async () => {
    const row = await search.addRow('Add Structure row');
    await chooseInput(row, 'SMILES');
    await row.getByRole('textbox', { name: 'SMILES' }).fill('OCC');
    await row.getByRole('radiogroup', { name: 'Search as' }).getByText('Similarity', { exact: true }).click();

    await editor.openFrom(row);
    await editor.useStructure();

    // Ketcher writes its own SMILES of ethanol: the same molecule, not necessarily the same text.
    expect(['CCO', 'OCC']).toContain(await row.getByRole('textbox', { name: 'SMILES' }).inputValue());
    expect(await rowChoices(row)).toEqual({ input: 'smiles', category: 'similarity' });
  });

  it('leaves the row unchanged on Cancel and on Escape, whatever was drawn meanwhile', async () => {
    const row = await search.addRow('Add Structure row');
    await chooseInput(row, 'SMILES');
    const field = row.getByRole('textbox', { name: 'SMILES' });
    await field.fill('CCO');

    await editor.openFrom(row);
    await editor.drawBenzene({ x: 0.25, y: 0.3 });
    await editor.cancel();
    expect(await field.inputValue()).toBe('CCO');

    await editor.openFrom(row);
    await editor.clearCanvas();
    await editor.pressEscape();
    expect(await field.inputValue()).toBe('CCO');
    expect(await rowChoices(row)).toEqual({ input: 'smiles', category: 'substructure' });
  });

  it('takes SMILES pasted into Ketcher’s Open dialog, where Escape closes only that dialog', async () => {
    const row = await search.addRow('Add Structure row');
    await editor.openFrom(row);

    // Escape belongs to Ketcher's dialog first: the editor, and what is drawn in it, stay.
    await editor.openPasteDialog();
    await page.keyboard.press('Escape');
    await editor.ketcherDialog().waitFor({ state: 'detached' });
    expect(await editor.dialog().isVisible()).toBe(true);

    await editor.pasteStructure('c1ccncc1');
    await editor.useStructure();
    const smiles = await row.getByRole('textbox', { name: 'SMILES' }).inputValue();
    // Pyridine, in whichever form Ketcher writes it: five carbons and one nitrogen in one ring.
    expect([...smiles.replace(/[0-9=]/g, '').toUpperCase()].sort().join(''), smiles).toBe('CCCCCN');
  });

  it('refuses an empty drawing with a message and stays open', async () => {
    const row = await search.addRow('Add Structure row');
    await editor.openFrom(row);
    await editor.clickUseStructure();
    await expect.poll(() => editor.messages()).toEqual([expect.stringContaining('The drawing is empty')]);
    expect(await editor.dialog().isVisible()).toBe(true);
    await editor.cancel();
    expect(await rowChoices(row)).toEqual({ input: 'smiles', category: 'substructure' });
  });

  it('turns a name row into a SMILES row when a drawing is used', async () => {
    const row = await search.addRow('Add Structure row');
    await row.getByRole('radiogroup', { name: 'Structure input' }).getByText('Name', { exact: true }).click();
    expect(await rowChoices(row)).toEqual({ input: 'name', category: 'exact' });
    await editor.openFrom(row);
    await editor.drawBenzene();
    await editor.useStructure();
    expect(await rowChoices(row)).toEqual({ input: 'smiles', category: 'substructure' });
    expect(isBenzene(await row.getByRole('textbox', { name: 'SMILES' }).inputValue())).toBe(true);
  });

  it('places SMILES pasted onto the canvas with Ctrl+V, uses it, and the search runs with it', async () => {
    const row = await search.addRow('Add Structure row');
    await editor.openFrom(row);
    await editor.pasteWithKeyboard('c1ccncc1', 'canvas');
    // Straight to "Use structure", as the chemist did: the pointer leaves the canvas, and the paste
    // must not float away with it ("The drawing is empty").
    await editor.clickUseStructure();
    // Whichever comes first: the editor closes with the structure, or it stays with a message.
    await Promise.race([
      editor
        .dialog()
        .waitFor({ state: 'detached', timeout: 60_000 })
        .catch(() => undefined),
      editor
        .dialog()
        .getByRole('alert')
        .first()
        .waitFor({ timeout: 60_000 })
        .catch(() => undefined),
    ]);
    expect((await editor.dialog().count()) === 0 ? [] : await editor.messages(), 'no message: the editor closed with the paste').toEqual(
      [],
    );
    await editor.dialog().waitFor({ state: 'detached', timeout: 60_000 });
    const smiles = await row.getByRole('textbox', { name: 'SMILES' }).inputValue();
    expect(isPyridine(smiles), smiles).toBe(true);

    const { criteria } = await search.search();
    await search.searchCounts();
    const sent = criteria.rows[0];
    expect(sent?.selectedOption).toBe('structure');
    expect((sent as { structure?: unknown } | undefined)?.structure).toMatchObject({
      inputType: 'smiles',
      value: smiles,
      category: 'substructure',
    });
  });

  it('places SMILES pasted into the “Paste SMILES / molfile” field, in place of the drawing, and uses it', async () => {
    const row = await search.addRow('Add Structure row');
    await editor.openFrom(row);
    await editor.drawBenzene();
    await editor.pasteWithKeyboard('c1ccncc1', 'field');
    await expect.poll(() => editor.pasteStatus().innerText(), { timeout: 60_000 }).toMatch(/Placed on the canvas/);
    expect(await editor.pasteField().inputValue()).toBe('c1ccncc1');
    await screenshot(page, 'structure-editor-paste-1280x800');
    await page.setViewportSize({ width: 1440, height: 900 });
    await screenshot(page, 'structure-editor-paste-1440x900');
    await page.setViewportSize({ width: 1280, height: 800 });
    await editor.useStructure();
    // The pasted pyridine replaced the benzene ring: the row holds pyridine alone.
    const smiles = await row.getByRole('textbox', { name: 'SMILES' }).inputValue();
    expect(isPyridine(smiles), smiles).toBe(true);

    const { criteria } = await search.search();
    const sent = criteria.rows[0];
    expect((sent as { structure?: unknown } | undefined)?.structure).toMatchObject({ inputType: 'smiles', value: smiles });
  });

  it('uses a molfile typed into the paste field and never placed, rather than calling the canvas empty', async () => {
    const row = await search.addRow('Add Structure row');
    await editor.openFrom(row);
    await editor.pasteField().fill(ETHANOL_MOLFILE);
    await editor.useStructure();
    expect(['CCO', 'OCC']).toContain(await row.getByRole('textbox', { name: 'SMILES' }).inputValue());
  });

  it('returns a molfile to a Molfile row and a SMARTS query to a SMARTS row', async () => {
    const row = await search.addRow('Add Structure row');
    await chooseInput(row, 'Molfile');
    await editor.openFrom(row);
    await editor.drawBenzene();
    await editor.useStructure();
    const molfile = await row.getByRole('textbox', { name: 'Molfile' }).inputValue();
    // Six carbons and six bonds in the counts line of a V2000 molfile.
    expect(molfile).toMatch(/^\s*6\s+6\s.*V2000$/m);
    expect(molfile.match(/^\s+-?\d+\.\d+\s+-?\d+\.\d+\s+-?\d+\.\d+ C\s/gm)).toHaveLength(6);

    await chooseInput(row, 'SMARTS');
    const smarts = row.getByRole('textbox', { name: 'SMARTS' });
    await smarts.fill('[N,O]C=O');
    await editor.openFrom(row);
    await editor.useStructure();
    // The atom list survives the round trip: only SMARTS can hold it, SMILES cannot.
    expect(await smarts.inputValue()).toMatch(/^\[#7,#8(;A)?\]-?C=O$/);
  });
});
