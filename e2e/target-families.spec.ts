import crypto from 'node:crypto';
import type { Page } from 'playwright-core';
import { searchEndpoints } from '@kb/contracts/search-api';
import { lookupEndpoints } from '@kb/contracts/lookups';
import type { SearchCriteria } from '@kb/contracts/search';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ApiSession } from './support/api-session.ts';
import { useBrowser } from './support/browser.ts';
import { useLoggedInUser, useSearchPageEachTest } from './support/logged-in.ts';
import type { SearchPage } from './support/pages/search-page.ts';
import { useSeededServer } from './support/seeded-server.ts';

/*
 * Target families and text as typed (docs/search-semantics.md "Target text and families") in the
 * browser, against a server with two demo chunks: "PARP" as typed, a family picked from the
 * autocomplete and from the Target tree, the row's "stands for N targets" and its list, and an autocomplete that never says
 * "no matches" while its answer is on the way.
 */
const server = useSeededServer({ chunks: 2 });
const browser = useBrowser();

const user = useLoggedInUser(server, browser, 'FULL_USER', {
  firstPage: 'close',
  // The target lookup's family counts are built on first use after a seed: not inside a test's timeout.
  prepare: (session) => session.call(lookupEndpoints.target, { query: { term: 'a', limit: 1 } }, 120_000),
});
const searchTab = useSearchPageEachTest(user);

let api: ApiSession;
let page: Page;
let search: SearchPage;

/** Activities the API counts for criteria, in a session of its own. */
async function apiActivities(criteria: SearchCriteria): Promise<number> {
  const answer = await api.call(searchEndpoints.allResultsCount, { body: { searchcriteria: criteria, sessionid: crypto.randomUUID() } });
  return answer.rows[0]!.actidscount;
}

beforeEach(() => {
  api = user().api;
  search = searchTab();
  page = search.page;
});

describe('target families and text as typed', () => {
  it('"PARP" as typed finds the activities of the PARP targets, as many as the API counts', async () => {
    const row = await search.addRow('Add Target/Enzyme/Protein row');
    await row.getByRole('textbox', { name: 'Targets' }).fill('PARP');
    // The as-typed choice says what the text stands for before it is taken.
    const asTyped = page.getByRole('option', { name: /Use “PARP” as typed — stands for 1 target/ });
    await asTyped.waitFor({ timeout: 20_000 });
    await asTyped.click();
    await expect.poll(() => row.locator('.mantine-Pill-root').allInnerTexts()).toEqual(['PARP']);
    await expect.poll(() => row.getByTestId('target-row-count').innerText()).toBe('Stands for 1 target');

    const { criteria } = await search.search();
    expect(criteria.rows[0]).toMatchObject({ selectedOption: 'target', targets: [{ label: 'PARP' }] });
    expect(criteria.rows[0]!.selectedOption === 'target' && criteria.rows[0]!.targets[0]!.ids).toBeFalsy();
    const shown = await search.searchCounts();
    expect(shown.activities).toBeGreaterThan(0);
    expect(shown.activities).toBe(await apiActivities(criteria));
  });

  it('a family picked from the autocomplete finds its activities; the row says how many targets it stands for and lists them', async () => {
    const row = await search.addRow('Add Target/Enzyme/Protein row');
    await search.pick(row, 'Targets', 'Kinase', /^Kinase\s+Family · 13 targets/);
    await expect.poll(() => row.locator('.mantine-Pill-root').allInnerTexts()).toEqual(['Kinase (family)']);
    const count = row.getByTestId('target-row-count-open');
    await count.waitFor({ timeout: 20_000 });
    expect(await count.innerText()).toBe('13 targets');

    await count.click();
    const list = page.getByTestId('target-row-list');
    await list.waitFor();
    const names = await list.locator('tbody tr td:first-child').allInnerTexts();
    expect(names).toHaveLength(13);
    expect(names).toContain('Epidermal growth factor receptor');
    expect(await list.locator('tbody tr').filter({ hasText: 'Epidermal growth factor receptor' }).innerText()).toContain('P00533');
    await page.keyboard.press('Escape');
    await list.waitFor({ state: 'hidden' });

    const { criteria } = await search.search();
    const term = criteria.rows[0]!.selectedOption === 'target' ? criteria.rows[0]!.targets[0]! : null;
    expect(term?.classIds).toHaveLength(1);
    const shown = await search.searchCounts();
    expect(shown.activities).toBeGreaterThan(0);
    expect(shown.activities).toBe(await apiActivities(criteria));
  });

  it('a family row from the Target tree (Enzyme › Kinase) finds the activities of the Kinase family picked by name', async () => {
    const treeRow = await search.addRow('Add Target tree row');
    const tree = treeRow.getByRole('tree');
    const enzyme = tree.getByRole('treeitem', { name: /^Enzyme,/ });
    await enzyme.waitFor();
    await enzyme.focus();
    await page.keyboard.press('ArrowRight');
    const kinase = enzyme.getByRole('group').getByRole('treeitem', { name: /^Kinase,/ });
    await kinase.waitFor();
    await kinase.focus();
    await page.keyboard.press('Space');
    await expect.poll(() => kinase.getAttribute('aria-selected')).toBe('true');
    await expect.poll(() => treeRow.getByTestId('tree-selection').innerText()).toContain('Kinase');

    const { criteria } = await search.search();
    expect(criteria.rows[0]).toMatchObject({ selectedOption: 'treeview', tree: 'Target', labels: ['Kinase'] });
    const shown = await search.searchCounts();
    // The same family as a Target row term, by its class id from the autocomplete's family suggestion.
    const suggestions = await api.call(lookupEndpoints.target, { query: { term: 'Kinase', limit: 20 } });
    const family = suggestions.items.find((item) => String(item.id).startsWith('family:') && item.label === 'Kinase');
    expect(family, 'the autocomplete suggests the Kinase family').toBeDefined();
    const familyRow: SearchCriteria = {
      rows: [
        {
          selectedOption: 'target',
          operator: null,
          targets: [
            { label: 'Kinase', targetCategories: ['name'], operator: '|', classIds: [Number(String(family!.id).slice('family:'.length))] },
          ],
        },
      ],
    } as SearchCriteria;
    expect(shown.activities).toBeGreaterThan(0);
    expect(shown.activities).toBe(await apiActivities(criteria));
    expect(shown.activities).toBe(await apiActivities(familyRow));
  });

  it('shows a loader, never "No matches", while the suggestions for the current text are on the way', async () => {
    const row = await search.addRow('Add Target/Enzyme/Protein row');
    // Every text the dropdown showed, recorded as it changed.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { dropdownTexts: string[] }).dropdownTexts = seen;
      new MutationObserver(() => {
        for (const list of document.querySelectorAll('[aria-label="Suggestions"]')) seen.push(list.textContent ?? '');
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await row.getByRole('textbox', { name: 'Targets' }).pressSequentially('BRAF', { delay: 30 });
    await page.getByRole('option', { name: /B-raf/ }).first().waitFor({ timeout: 20_000 });
    const texts = await page.evaluate(() => (window as unknown as { dropdownTexts: string[] }).dropdownTexts);
    expect(texts.some((text) => text.includes('Searching'))).toBe(true);
    expect(texts.filter((text) => text.includes('No matches'))).toEqual([]);
    // A text without matches says so once its answer came.
    await row.getByRole('textbox', { name: 'Targets' }).fill('zzqqxx');
    await page.getByText('No matches for “zzqqxx”.').waitFor({ timeout: 20_000 });
  });
});
