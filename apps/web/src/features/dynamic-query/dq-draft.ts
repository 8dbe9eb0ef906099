import type { DqColumnInfo, DqEntityInfo, DqFilter, DqFilterValue, DqOperator, DqQuery } from '@kb/contracts/dynamic-query';
import { DQ_LIMITS, operatorArity } from '@kb/contracts/dynamic-query';

/**
 * The query as the user edits it: filter values are the text typed in the inputs, turned into
 * typed values (numbers, dates, lists) only when the query is run, saved or exported.
 */
export interface FilterDraft {
  /** Stable key for React lists. */
  id: number;
  column: string;
  operator: DqOperator;
  value: string;
  value2: string;
  /** "is one of": values separated by commas or new lines. */
  values: string;
}

export interface QueryDraft {
  entity: string;
  columns: string[];
  filters: FilterDraft[];
  sort: { column: string; direction: 'asc' | 'desc' } | null;
}

let nextFilterId = 1;

export function newFilter(column: DqColumnInfo): FilterDraft {
  return { id: nextFilterId++, column: column.key, operator: column.operators[0]!, value: '', value2: '', values: '' };
}

export function draftForEntity(entity: DqEntityInfo): QueryDraft {
  return { entity: entity.key, columns: [...entity.defaultColumns], filters: [], sort: null };
}

/** A saved query back into a draft (its values as text again). */
export function draftFromQuery(query: DqQuery): QueryDraft {
  return {
    entity: query.entity,
    columns: [...query.columns],
    sort: query.sort ?? null,
    filters: query.filters.map((filter) => ({
      id: nextFilterId++,
      column: filter.column,
      operator: filter.operator,
      value: filter.value == null ? '' : String(filter.value),
      value2: filter.value2 == null ? '' : String(filter.value2),
      values: (filter.values ?? []).map(String).join(', '),
    })),
  };
}

/** Text typed for a column of a type → the value the API takes (a number stays text when it is not one, so the server names the problem). */
export function typedValue(type: DqColumnInfo['type'], text: string): DqFilterValue {
  const trimmed = text.trim();
  if ((type === 'number' || type === 'integer') && trimmed !== '' && Number.isFinite(Number(trimmed))) return Number(trimmed);
  return type === 'text' ? text : trimmed;
}

export function splitList(text: string): string[] {
  return text
    .split(/[,\n]/)
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .slice(0, DQ_LIMITS.maxListValues);
}

function toFilter(draft: FilterDraft, column: DqColumnInfo | undefined): DqFilter {
  const type = column?.type ?? 'text';
  switch (operatorArity(draft.operator)) {
    case 'none':
      return { column: draft.column, operator: draft.operator };
    case 'one':
      return { column: draft.column, operator: draft.operator, value: typedValue(type, draft.value) };
    case 'two':
      return {
        column: draft.column,
        operator: draft.operator,
        value: typedValue(type, draft.value),
        value2: typedValue(type, draft.value2),
      };
    case 'list':
      return { column: draft.column, operator: draft.operator, values: splitList(draft.values).map((value) => typedValue(type, value)) };
  }
}

/** The draft as the API's query. */
export function toQuery(draft: QueryDraft, entity: DqEntityInfo): DqQuery {
  const byKey = new Map(entity.columns.map((column) => [column.key, column]));
  // The grid shows columns in the entity's order, whatever order they were ticked in.
  const columns = entity.columns.filter((column) => draft.columns.includes(column.key)).map((column) => column.key);
  return {
    entity: draft.entity,
    columns,
    filters: draft.filters.map((filter) => toFilter(filter, byKey.get(filter.column))),
    sort: draft.sort,
  };
}
