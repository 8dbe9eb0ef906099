import type { Locator, Page } from 'playwright-core';

/** Ketcher downloads its chunk and compiles Indigo's WASM on first open: slower than a page. */
const EDITOR_READY_MS = 45_000;

/**
 * The structure editor of a Structure row: a dialog named "Structure editor" holding Ketcher.
 * Ketcher's own controls are found by the `data-testid` and `title` attributes it ships with
 * (`template-0` is titled "Benzene (T)", `clear-canvas`, `ketcher-canvas`, `open-structure-textarea`).
 */
export class StructureEditorModal {
  constructor(readonly page: Page) {}

  dialog(): Locator {
    return this.page.getByRole('dialog', { name: 'Structure editor' });
  }

  /** Clicks the row's Draw button and waits until Ketcher is up with the row's value loaded. */
  async openFrom(row: Locator): Promise<void> {
    await row.getByTestId('draw-structure').click();
    await this.dialog().waitFor();
    await this.waitUntilReady();
  }

  /** "Use structure" is enabled once Ketcher is initialised and the initial value is on the canvas. */
  async waitUntilReady(): Promise<void> {
    await this.dialog().getByTestId('use-structure').and(this.page.locator(':enabled')).waitFor({ timeout: EDITOR_READY_MS });
  }

  /** The molecules canvas; Ketcher also renders a hidden one for its macromolecules mode. */
  canvas(): Locator {
    return this.dialog().getByTestId('ketcher-canvas').filter({ visible: true });
  }

  /** Picks the benzene template from Ketcher's bottom toolbar and drops one ring at the canvas point. */
  async drawBenzene(at: { x: number; y: number } = { x: 0.5, y: 0.5 }): Promise<void> {
    await this.dialog()
      .getByTitle(/^Benzene\b/)
      .filter({ visible: true })
      .click();
    const canvas = this.canvas();
    const box = await canvas.boundingBox();
    if (!box) throw new Error('The Ketcher canvas has no size');
    await canvas.click({ position: { x: box.width * at.x, y: box.height * at.y } });
  }

  /** Ketcher's "Clear Canvas" button in its top toolbar. */
  async clearCanvas(): Promise<void> {
    await this.dialog().getByTestId('clear-canvas').filter({ visible: true }).click();
  }

  /** Ketcher's own "Open structure" dialog (top toolbar "Open…"), on its "Paste from clipboard" page. */
  async openPasteDialog(): Promise<Locator> {
    await this.dialog().getByTestId('open-file-button').filter({ visible: true }).click();
    await this.dialog().getByTestId('paste-from-clipboard-button').click();
    const ketcherDialog = this.ketcherDialog();
    await ketcherDialog.getByTestId('open-structure-textarea').waitFor();
    return ketcherDialog;
  }

  /** A dialog of Ketcher's inside the editor (Open…, atom properties): Ketcher gives them role="dialog". */
  ketcherDialog(): Locator {
    return this.dialog().getByRole('dialog');
  }

  /** Types SMILES or a molfile into Ketcher's paste dialog and opens it in place of the drawing. */
  async pasteStructure(text: string): Promise<void> {
    const ketcherDialog = await this.openPasteDialog();
    await ketcherDialog.getByTestId('open-structure-textarea').fill(text);
    await ketcherDialog.getByRole('button', { name: 'Open as New Project' }).click();
    await ketcherDialog.waitFor({ state: 'detached' });
  }

  /** The "Paste SMILES / molfile" field beside the canvas. */
  pasteField(): Locator {
    return this.dialog().getByRole('textbox', { name: 'Paste SMILES / molfile' });
  }

  /** What the field beside the canvas says about the last paste ("Placed on the canvas: ready to use."). */
  pasteStatus(): Locator {
    return this.dialog().getByTestId('structure-paste-status');
  }

  /**
   * Puts `text` on the system clipboard and presses Ctrl+V with the focus in `where`: the canvas
   * (clicked first, as a user does) or the paste field. The context needs clipboard permissions.
   */
  async pasteWithKeyboard(text: string, where: 'canvas' | 'field'): Promise<void> {
    await this.page.evaluate((value) => navigator.clipboard.writeText(value), text);
    if (where === 'canvas') {
      const canvas = this.canvas();
      const box = await canvas.boundingBox();
      if (!box) throw new Error('The Ketcher canvas has no size');
      await canvas.click({ position: { x: box.width * 0.8, y: box.height * 0.8 } });
    } else {
      await this.pasteField().click();
    }
    await this.page.keyboard.press('Control+V');
  }

  /** Clicks "Use structure" without waiting: the dialog may stay open with a message. */
  async clickUseStructure(): Promise<void> {
    await this.dialog().getByTestId('use-structure').click();
  }

  /** "Use structure" and waits until the dialog closed (the row then holds the drawing). */
  async useStructure(): Promise<void> {
    await this.clickUseStructure();
    await this.dialog().waitFor({ state: 'detached', timeout: 20_000 });
  }

  async cancel(): Promise<void> {
    await this.dialog().getByRole('button', { name: 'Cancel', exact: true }).click();
    await this.dialog().waitFor({ state: 'detached' });
  }

  async pressEscape(): Promise<void> {
    await this.page.keyboard.press('Escape');
    await this.dialog().waitFor({ state: 'detached' });
  }

  /** Texts of the messages the dialog shows (empty drawing, conversion errors). */
  async messages(): Promise<string[]> {
    return this.dialog().getByRole('alert').allInnerTexts();
  }
}
