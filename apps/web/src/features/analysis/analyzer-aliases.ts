import type { AnalyzerTab } from '@kb/contracts/analyzers';
import { ANALYZER_TABS } from '@kb/contracts/analyzers';

/**
 * Addresses of the analyzers people type, keep in bookmarks or copy from older links, and the tab
 * each means: singular and plural, with and without "tab", the grid's labels and the old product's
 * names. Keys are written as `analyzerTabOf` normalises (lower case, no spaces, hyphens or
 * underscores).
 */
const ALIASES: Readonly<Record<string, AnalyzerTab>> = {
  activity: 'activitiestab',
  activities: 'activitiestab',
  activitytab: 'activitiestab',
  activitytabs: 'activitiestab',
  activitiestabs: 'activitiestab',
  activitiestab: 'activitiestab',
  act: 'activitiestab',
  acttab: 'activitiestab',
  bioactivity: 'activitiestab',
  bioactivities: 'activitiestab',
  structure: 'structuretab',
  structures: 'structuretab',
  structuretab: 'structuretab',
  structurestab: 'structuretab',
  structuretabs: 'structuretab',
  str: 'structuretab',
  strtab: 'structuretab',
  compound: 'structuretab',
  compounds: 'structuretab',
  compoundtab: 'structuretab',
  compoundstab: 'structuretab',
};

/**
 * The analyzer an address names: its exact tab, or the tab an old or misspelt name stands for
 * (`activitytab` → `activitiestab`, `Structures` → `structuretab`). Null: there is no such analyzer.
 */
export function analyzerTabOf(tabid: string): AnalyzerTab | null {
  if ((ANALYZER_TABS as readonly string[]).includes(tabid)) return tabid as AnalyzerTab;
  const key = tabid.toLowerCase().replace(/[\s_-]+/g, '');
  return Object.hasOwn(ALIASES, key) ? ALIASES[key]! : null;
}
