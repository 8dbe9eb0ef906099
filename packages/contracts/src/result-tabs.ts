import { z } from 'zod';

/**
 * Spec §2 "Results tabs": keys and labels, each enabled by default. `path` is the segment of the
 * spec's §7 results calls (`/api/results/{path}`; the development compounds call is
 * `developmentcompounds`), `entity` the record kind a row of the tab is.
 */
export const RESULT_TABS = [
  { key: 'structuretab', label: 'Structures', path: 'structuretab', entity: 'structure', idColumn: 'str_id' },
  { key: 'activitiestab', label: 'Activities', path: 'activitiestab', entity: 'activity', idColumn: 'act_id' },
  { key: 'assaytab', label: 'Assay', path: 'assaytab', entity: 'assay', idColumn: 'assay_id' },
  {
    key: 'developmentcompoundstab',
    label: 'Development Compounds',
    path: 'developmentcompounds',
    entity: 'clinicalcompound',
    idColumn: 'clinical_compound_id',
  },
  { key: 'documentstab', label: 'Documents', path: 'documentstab', entity: 'reference', idColumn: 'ref_id' },
] as const;

export type ResultTabInfo = (typeof RESULT_TABS)[number];
export type ResultTabKey = ResultTabInfo['key'];
export type ResultTabPath = ResultTabInfo['path'];
export type ResultEntity = ResultTabInfo['entity'];

export const RESULT_TAB_KEYS = RESULT_TABS.map((tab) => tab.key) as [ResultTabKey, ...ResultTabKey[]];
export const RESULT_TAB_PATHS = RESULT_TABS.map((tab) => tab.path) as [ResultTabPath, ...ResultTabPath[]];
export const RESULT_ENTITIES = RESULT_TABS.map((tab) => tab.entity) as [ResultEntity, ...ResultEntity[]];

export const ResultTabKeySchema = z.enum(RESULT_TAB_KEYS);
/** A tab in a call path: the spec's path segment; the tab key is accepted as well. */
export const ResultTabPathSchema = z
  .enum([...new Set([...RESULT_TAB_PATHS, ...RESULT_TAB_KEYS])] as [string, ...string[]], {
    message: `Unknown results tab; use one of ${RESULT_TAB_PATHS.join(', ')}`,
  })
  .transform((value) => tabInfo(value)!.key);

/** The tab of a key or path segment, or null. */
export function tabInfo(keyOrPath: string | undefined): ResultTabInfo | null {
  return RESULT_TABS.find((tab) => tab.key === keyOrPath || tab.path === keyOrPath) ?? null;
}

/** The label of a tab key, or null for an unknown key. */
export function resultTabLabel(key: string | undefined): string | null {
  return tabInfo(key)?.label ?? null;
}

/** Spec §9: default page size and start page of every tab. */
export const DEFAULT_PAGE_SIZE = 10;
export const START_PAGE = 0;
export const PAGE_SIZES = [10, 25, 50, 100] as const;
export const MAX_PAGE_SIZE = 500;
