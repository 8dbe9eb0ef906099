import type { Locator, Page } from 'playwright-core';
import { AppPage } from './app-page.ts';

/**
 * The compound leaflet (`/leaflet/{idType}/{id}`, `data-testid="compound-leaflet"`) and the
 * reference leaflet (`/leafletreference/{sid}/{rid}`, `data-testid="reference-leaflet"`): sections
 * by `data-testid="leaflet-section-<id>"`, rows and tiles carrying their ids as data attributes.
 */
export class LeafletPage extends AppPage {
  constructor(page: Page) {
    super(page);
  }

  async openCompound(idType: string, id: number | string): Promise<void> {
    await this.open(`/leaflet/${idType}/${id}`);
  }

  async openReference(sid: string, rid: number | string, query = ''): Promise<void> {
    await this.open(`/leafletreference/${sid}/${rid}${query}`);
  }

  /** Waits for a compound leaflet to finish loading. */
  async compoundLoaded(timeout = 30_000): Promise<Locator> {
    const leaflet = this.page.getByTestId('compound-leaflet');
    await leaflet.waitFor({ timeout });
    return leaflet;
  }

  async referenceLoaded(timeout = 30_000): Promise<Locator> {
    const leaflet = this.page.getByTestId('reference-leaflet');
    await leaflet.waitFor({ timeout });
    return leaflet;
  }

  title(): Locator {
    return this.page.getByRole('heading', { level: 2 }).first();
  }

  section(id: string): Locator {
    return this.page.getByTestId(`leaflet-section-${id}`);
  }

  /** The text of one identifier row (`inchikey`, `canonical_smiles` ...). */
  async identifier(key: string): Promise<string> {
    return this.page.getByTestId('leaflet-identifiers').locator(`[data-identifier="${key}"] [data-value]`).innerText();
  }

  /** Clicks the copy button of an identifier row. */
  async copyIdentifier(key: string): Promise<void> {
    await this.page
      .getByTestId('leaflet-identifiers')
      .locator(`[data-identifier="${key}"]`)
      .getByRole('button', { name: /^Copy / })
      .click();
  }

  /** The target ids of the activities-by-target table, in the order shown ('' for the no-target group). */
  async targetRowIds(): Promise<string[]> {
    return this.page
      .getByTestId('leaflet-target-groups')
      .locator('tbody tr')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-target-id') ?? ''));
  }

  async targetActivityCounts(): Promise<number[]> {
    return this.page
      .getByTestId('leaflet-target-groups')
      .locator('[data-activity-count]')
      .evaluateAll((cells) => cells.map((c) => Number(c.getAttribute('data-activity-count'))));
  }

  async sortTargetsBy(label: string): Promise<void> {
    await this.page
      .getByTestId('leaflet-target-groups')
      .getByRole('button', { name: `Sort by ${label}` })
      .click();
  }

  async referenceIds(): Promise<number[]> {
    return this.page.getByTestId('leaflet-reference').evaluateAll((items) => items.map((i) => Number(i.getAttribute('data-ref-id'))));
  }

  /** The compound tiles of a reference leaflet: str_id and in-search mark ('true' / 'false' / 'null'). */
  async compoundTiles(): Promise<Array<{ strId: number; inSearch: string }>> {
    return this.page
      .getByTestId('reference-compound')
      .evaluateAll((tiles) =>
        tiles.map((t) => ({ strId: Number(t.getAttribute('data-str-id')), inSearch: t.getAttribute('data-in-search') ?? '' })),
      );
  }

  async activityRows(): Promise<Array<{ actId: number; inSearch: string }>> {
    return this.page
      .getByTestId('reference-activity')
      .evaluateAll((rows) =>
        rows.map((r) => ({ actId: Number(r.getAttribute('data-act-id')), inSearch: r.getAttribute('data-in-search') ?? '' })),
      );
  }

  inSearchSwitch(): Locator {
    return this.page.getByTestId('in-search-switch');
  }

  /** The alert of a leaflet that could not be shown (404, 403, a bad link). */
  async errorText(timeout = 20_000): Promise<string> {
    const alert = this.page.getByTestId('leaflet-error');
    await alert.waitFor({ timeout });
    return alert.innerText();
  }
}
