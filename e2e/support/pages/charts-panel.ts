import type { Locator, Page, Response } from 'playwright-core';
import { resultsEndpoints } from '@kb/contracts/results';
import type { AppliedFilter } from '@kb/contracts/search';

/** Fill colours of the List chart's bars (apps/web/src/features/results/charts/bar-options.ts). */
const BAR_FILLS = ['#4dabf7', '#1864ab', '#e03131', '#c5e3fb'];

/** What the panel showed for one applied filter. */
export interface ShownChip {
  chartKey: string;
  text: string;
}

/**
 * The chart panel on the left of the results (`data-testid="charts-panel"`): one card per enabled
 * chart (`chart-card`, `data-chart` = chart key, `aria-busy` while it loads), the applied filters
 * as chips (`applied-filter`) and Reset all. List bars are SVG paths drawn by ECharts, in the
 * chart's order from the top.
 */
export class ChartsPanel {
  constructor(readonly page: Page) {}

  panel(): Locator {
    return this.page.getByTestId('charts-panel');
  }

  chart(chartKey: string): Locator {
    return this.panel().locator(`[data-testid="chart-card"][data-chart="${chartKey}"]`);
  }

  /** Waits until the chart has its data and no request is in flight. */
  async waitForChart(chartKey: string, timeout = 30_000): Promise<Locator> {
    const card = this.chart(chartKey);
    await card.waitFor({ timeout });
    await this.page.waitForFunction(
      (key) => {
        const element = document.querySelector(`[data-testid="chart-card"][data-chart="${key}"]`);
        if (!element || element.getAttribute('aria-busy') !== 'false') return false;
        return !!element.querySelector(
          '[data-testid="bar-chart"] path, [data-testid="histogram"] path, [data-testid="chart-empty"], [role="tree"], [aria-pressed]',
        );
      },
      chartKey,
      { timeout },
    );
    return card;
  }

  /** Waits until no chart of the panel is loading. */
  async waitForCharts(timeout = 30_000): Promise<void> {
    await this.panel().waitFor({ timeout });
    await this.page.waitForFunction(
      () => {
        const cards = [...document.querySelectorAll('[data-testid="chart-card"]')];
        return cards.length > 0 && cards.every((card) => card.getAttribute('aria-busy') === 'false');
      },
      undefined,
      { timeout },
    );
  }

  bars(chartKey: string): Locator {
    return this.chart(chartKey).locator(BAR_FILLS.map((fill) => `[data-testid="bar-chart"] path[fill="${fill}"]`).join(', '));
  }

  /** Clicks the bar at `index` (0 = top) of a List chart. */
  async clickBar(chartKey: string, index: number): Promise<void> {
    await this.bars(chartKey).nth(index).click();
  }

  /** Values picked on a chart, as their ids (`data-value`), and the mode. */
  async picked(chartKey: string): Promise<{ mode: string | null; values: string[] }> {
    const picked = this.chart(chartKey).getByTestId('picked-values');
    if ((await picked.count()) === 0) return { mode: null, values: [] };
    const values = await picked.locator('[data-value]').evaluateAll((pills) => pills.map((pill) => pill.getAttribute('data-value') ?? ''));
    return { mode: await picked.getAttribute('data-mode'), values };
  }

  async setRange(chartKey: string, label: string, min: number | null, max: number | null): Promise<void> {
    const card = this.chart(chartKey);
    await card.getByLabel(`${label} minimum value`).fill(min === null ? '' : String(min));
    await card.getByLabel(`${label} maximum value`).fill(max === null ? '' : String(max));
  }

  /** Presses a card's button and answers the applyfilters call it made, with the filters it sent. */
  private async sendFilters(trigger: Promise<void>): Promise<{ response: Response; sent: AppliedFilter[] }> {
    const [response] = await Promise.all([
      this.page.waitForResponse((r) => isApplyFilters(r.url()) && r.request().method() === 'POST', { timeout: 30_000 }),
      trigger,
    ]);
    const sent = (response.request().postDataJSON() as { filters: AppliedFilter[] }).filters;
    return { response, sent };
  }

  apply(chartKey: string) {
    return this.sendFilters(this.chart(chartKey).getByRole('button', { name: 'Apply', exact: true }).click());
  }

  clear(chartKey: string) {
    return this.sendFilters(this.chart(chartKey).getByRole('button', { name: 'Clear', exact: true }).click());
  }

  async resetAll(): Promise<void> {
    await Promise.all([
      this.page.waitForResponse((r) => new URL(r.url()).pathname === resultsEndpoints.resetAllFilters.path, { timeout: 30_000 }),
      this.panel().getByRole('button', { name: 'Reset all' }).click(),
    ]);
  }

  async chips(): Promise<ShownChip[]> {
    return this.panel()
      .getByTestId('applied-filter')
      .evaluateAll((chips) =>
        chips.map((chip) => ({ chartKey: chip.getAttribute('data-chart') ?? '', text: (chip as HTMLElement).innerText.trim() })),
      );
  }
}

function isApplyFilters(url: string): boolean {
  const path = new URL(url).pathname;
  return path.startsWith('/api/results/applyfilters/') && path !== resultsEndpoints.resetAllFilters.path;
}
