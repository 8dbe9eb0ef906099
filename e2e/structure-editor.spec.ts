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

describe('the structure editor of a Structure row', () => {
  it('downloads Ketcher only when opened, and returns a drawn benzene ring to a name row as SMILES', async () => {
    const fetched: string[] = [];
    page.on('request', (request) => fetched.push(new URL(request.url()).pathname));
    const row = await search.addRow('Add Structure row');
    expect(await rowChoices(row)).toEqual({ input: 'name', category: 'exact' });
    const isKetcher = (path: string) => /ketcher|indigo|\.wasm$/i.test(path);
    expect(fetched.filter(isKetcher), 'nothing of Ketcher before the editor is opened').toEqual([]);

    await editor.openFrom(row);
    await editor.drawBenzene();
    await screenshot(page, 'structure-editor-benzene');
    await editor.useStructure();

    // A name row becomes a SMILES row with SMILES's own default category.
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
    expect(await rowChoices(row)).toEqual({ input: 'name', category: 'exact' });
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
