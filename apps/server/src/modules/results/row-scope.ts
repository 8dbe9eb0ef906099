import { sql } from 'kysely';
import type { AppliedFilter } from '@kb/contracts/search';
import type { ResultTabKey } from '@kb/contracts/result-tabs';
import { TAB_MODELS, strIdRestriction } from './tab-model.ts';
import type { Sql } from './tab-model.ts';
import { filteredRestriction } from './tab-filters.ts';
import type { SimilaritySort } from './similarity-sort.ts';
import type { SetSource } from './set-source.ts';

/** Which rows of a tab a request reads: the tab's filters, a "go to" (strIdList), a similarity window. */
export interface RowScope {
  filters: readonly AppliedFilter[];
  strIdList?: readonly number[] | undefined;
  similarity?: { sort: SimilaritySort; min: number | null; max: number | null } | null;
}

const and = (parts: readonly Sql[]) => sql.join(parts, sql` AND `);

/** The WHERE of a tab's rows within a scope, and the join a similarity sort needs. */
export function rowScopeSql(tab: ResultTabKey, sets: SetSource, scope: RowScope): { where: Sql; join: Sql } {
  const model = TAB_MODELS[tab];
  const setId = sets.setId;
  const parts = [model.where(setId)];
  if (scope.filters.length) parts.push(filteredRestriction(tab, setId, model.entity));
  if (scope.strIdList?.length) parts.push(strIdRestriction(tab, sets, scope.strIdList));
  let join = sql``;
  if (scope.similarity) {
    const { sort, min, max } = scope.similarity;
    join = sql`LEFT JOIN result_similarity rs ON rs.set_id = ${setId}::bigint AND rs.query_key = ${sort.key} AND rs.id = ${sort.idOf}`;
    if (min != null) parts.push(sql`rs.similarity >= ${min}`);
    if (max != null) parts.push(sql`rs.similarity <= ${max}`);
  }
  return { where: and(parts), join };
}

/** What narrows the rows a "select all" stands for, besides the tab's filters. */
export interface Narrowing {
  strIdList?: readonly number[] | undefined;
  sortSmiles?: string | null | undefined;
  minValue?: number | null | undefined;
  maxValue?: number | null | undefined;
}
