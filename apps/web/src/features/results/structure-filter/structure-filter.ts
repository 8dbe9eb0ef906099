import type { SearchCriteria, SearchRow } from '@kb/contracts/search';

/** Include: structures that match stay (AND). Exclude: structures that match go (NOT). */
export type StructureFilterMode = 'include' | 'exclude';

export type StructureFilterRow = Extract<SearchRow, { selectedOption: 'structure' }>;

export interface SplitCriteria {
  /** The search without its results filter. */
  base: SearchCriteria;
  /** The structure filter applied in the results, if any, and how it joins. */
  filter: { row: StructureFilterRow; mode: StructureFilterMode } | null;
}

/**
 * A results filter is the search's last row, marked `resultFilter`, joined by the row before's
 * operator: AND (include) or NOT (exclude) — docs/results.md "Structure filter".
 */
export function splitStructureFilter(criteria: SearchCriteria): SplitCriteria {
  const rows = criteria.rows;
  const last = rows.at(-1);
  if (rows.length < 2 || last?.selectedOption !== 'structure' || !last.resultFilter) return { base: criteria, filter: null };
  const joining = rows[rows.length - 2]!.operator;
  const base = rows.slice(0, -1).map((row, index, kept) => (index === kept.length - 1 ? { ...row, operator: null } : row));
  return { base: { ...criteria, rows: base }, filter: { row: last, mode: joining === 'NOT' ? 'exclude' : 'include' } };
}

/** The search with `row` as its results filter (replacing one it had). */
export function withStructureFilter(criteria: SearchCriteria, row: StructureFilterRow, mode: StructureFilterMode): SearchCriteria {
  const { base } = splitStructureFilter(criteria);
  const joined = base.rows.map((r, index) =>
    index === base.rows.length - 1 ? { ...r, operator: mode === 'exclude' ? ('NOT' as const) : ('AND' as const) } : r,
  );
  return { ...base, rows: [...joined, { ...row, operator: null, resultFilter: true }] };
}

/** The filter in words, for its chip: "Contains c1ccncc1", "Not similar (0.7–1) to …", with property ranges. */
export function describeStructureFilter(row: StructureFilterRow, mode: StructureFilterMode): string {
  const query = row.structure;
  const parts: string[] = [];
  if (query) {
    const text = query.value.length > 60 ? `${query.value.slice(0, 59)}…` : query.value;
    const shown = query.inputType === 'molfile' ? 'the drawn structure' : text;
    if (query.category === 'similarity') parts.push(`similar (${query.similarityMin ?? 0.7}–${query.similarityMax ?? 1}) to ${shown}`);
    else if (query.category === 'exact') parts.push(`exactly ${shown}`);
    else parts.push(`${query.inputType === 'smarts' ? 'matching' : 'containing'} ${shown}`);
  }
  const ranges = Object.keys(row.properties ?? {}).length;
  if (ranges) parts.push(`${ranges === 1 ? 'a property range' : `${ranges} property bounds`}`);
  const what = parts.join(' with ') || 'any structure';
  return mode === 'exclude' ? `Leaving out structures ${what}` : `Structures ${what}`;
}
