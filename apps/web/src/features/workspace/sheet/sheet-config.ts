import type {
  SheetAggregate,
  SheetEndpoint,
  SheetEndpointOption,
  SheetFilter,
  SheetProperty,
  SheetRequest,
  SheetSource,
} from '@kb/contracts/sheet';
import { SHEET_MAX_DIFFERENCES, SHEET_MAX_ENDPOINTS, SHEET_PAGE_SIZE } from '@kb/contracts/sheet';

/**
 * What the user chose for a sheet, as plain data: the endpoint columns (with their labels, to show
 * them before the first page answers), the aggregate, the property columns, the differences, the
 * sort, the range filters and the page. Every change that reorders or narrows the rows goes back
 * to the first page.
 */
export interface SheetConfig {
  endpoints: SheetEndpointOption[];
  aggregate: SheetAggregate;
  properties: SheetProperty[];
  differences: { a: number; b: number }[];
  sort: { column: string; direction: 'asc' | 'desc' } | null;
  filters: SheetFilter[];
  page: number;
  pageSize: number;
}

export const INITIAL_SHEET_CONFIG: SheetConfig = {
  endpoints: [],
  aggregate: 'median',
  properties: ['mw', 'clogp'],
  differences: [],
  sort: null,
  filters: [],
  page: 0,
  pageSize: SHEET_PAGE_SIZE.default,
};

/** Endpoints the sheet opens with when none are chosen: the most covered. */
const DEFAULT_ENDPOINT_COUNT = 3;

/** One key per endpoint (target or assay × activity type): the picker's value. */
export function endpointKey(endpoint: SheetEndpoint): string {
  return endpoint.kind === 'target' ? `t:${endpoint.targetId}:${endpoint.activityType}` : `a:${endpoint.assayId}:${endpoint.activityType}`;
}

/** The first endpoints by coverage (the suggestions come most covered first), targets before assays. */
export function defaultEndpoints(targets: readonly SheetEndpointOption[], assays: readonly SheetEndpointOption[]): SheetEndpointOption[] {
  return [...targets, ...assays].slice(0, DEFAULT_ENDPOINT_COUNT);
}

/**
 * New endpoint columns. A difference, sort or filter names columns by position (`e1`, `d0`), so
 * the ones that pointed at a removed endpoint go, and the others are renumbered.
 */
export function withEndpoints(config: SheetConfig, next: readonly SheetEndpointOption[]): SheetConfig {
  const chosen = next.slice(0, SHEET_MAX_ENDPOINTS);
  const oldKeys = config.endpoints.map((option) => endpointKey(option.endpoint));
  const newIndex = new Map(chosen.map((option, index) => [endpointKey(option.endpoint), index]));
  const moved = (index: number) => newIndex.get(oldKeys[index] ?? '');
  const differences = config.differences
    .map((difference) => ({ a: moved(difference.a), b: moved(difference.b) }))
    .filter((difference): difference is { a: number; b: number } => difference.a !== undefined && difference.b !== undefined);
  const column = (name: string): string | null => {
    const endpoint = /^e(\d+)$/.exec(name);
    if (endpoint) {
      const index = moved(Number(endpoint[1]));
      return index === undefined ? null : `e${index}`;
    }
    // Differences are renumbered only when they all survive; otherwise their sort and filters go.
    if (/^d\d+$/.test(name)) return differences.length === config.differences.length ? name : null;
    return name;
  };
  const sortColumn = config.sort ? column(config.sort.column) : null;
  return {
    ...config,
    endpoints: chosen,
    differences,
    sort: config.sort && sortColumn ? { ...config.sort, column: sortColumn } : null,
    filters: config.filters.flatMap((filter) => {
      const name = column(filter.column);
      return name ? [{ ...filter, column: name }] : [];
    }),
    page: 0,
  };
}

/** A difference A − B of two endpoint columns (both molar), once, up to the contract's limit. */
export function addDifference(config: SheetConfig, a: number, b: number): SheetConfig {
  if (a === b || config.differences.length >= SHEET_MAX_DIFFERENCES) return config;
  if (config.differences.some((difference) => difference.a === a && difference.b === b)) return config;
  return { ...config, differences: [...config.differences, { a, b }], page: 0 };
}

export function removeDifference(config: SheetConfig, index: number): SheetConfig {
  const column = `d${index}`;
  const renumber = (name: string) => {
    const match = /^d(\d+)$/.exec(name);
    return match && Number(match[1]) > index ? `d${Number(match[1]) - 1}` : name;
  };
  return {
    ...config,
    differences: config.differences.filter((_, position) => position !== index),
    sort: config.sort?.column === column ? null : config.sort && { ...config.sort, column: renumber(config.sort.column) },
    filters: config.filters.filter((filter) => filter.column !== column).map((filter) => ({ ...filter, column: renumber(filter.column) })),
    page: 0,
  };
}

/** A header click: ascending, then descending, then the server's order. */
export function nextSort(config: SheetConfig, column: string): SheetConfig {
  const current = config.sort?.column === column ? config.sort.direction : null;
  const sort = current === null ? { column, direction: 'asc' as const } : current === 'asc' ? { column, direction: 'desc' as const } : null;
  return { ...config, sort, page: 0 };
}

/** Sets (or, with both bounds empty, removes) a column's range filter. */
export function setRangeFilter(config: SheetConfig, column: string, min: number | null, max: number | null): SheetConfig {
  const others = config.filters.filter((filter) => filter.column !== column);
  const filters = min === null && max === null ? others : [...others, { column, min, max }];
  return { ...config, filters, page: 0 };
}

/** The body of a page call for the source and the choices. */
export function sheetRequest(source: SheetSource, config: SheetConfig): SheetRequest {
  return {
    source,
    endpoints: config.endpoints.map((option) => option.endpoint),
    differences: config.differences,
    aggregate: config.aggregate,
    properties: config.properties,
    sort: config.sort,
    filters: config.filters,
    page: config.page,
    pageSize: config.pageSize,
  };
}
