import { sql } from 'kysely';
import type { RawBuilder } from 'kysely';
import type { DqColumn, DqEntity, DqFilter, DqFilterValue, DqJoin, DqQuery } from '@kb/contracts/dynamic-query';
import { dqColumn } from '@kb/contracts/dynamic-query';
import { containsPattern, escapeLike } from '../../db/like-pattern.ts';

/**
 * SQL of a dynamic query (docs/dynamic-query.md). Every identifier comes from the contract's
 * whitelist (DQ_ENTITIES) — the request only chooses among them by key, after dqQueryProblem has
 * checked every key — and every value is a bound parameter. Nothing of the request is ever
 * spliced into SQL text.
 */

type Sql = RawBuilder<unknown>;

/** The base table's alias. */
const BASE = 'e';

/**
 * The many-to-one joins, on the base row's foreign key: LEFT JOINs, so the row count is the base
 * table's whatever is joined. The foreign key column is the same name on every entity that has it.
 */
const JOINS: Record<DqJoin, { table: string; key: string; foreignKey: string }> = {
  structure: { table: 'structures', key: 'str_id', foreignKey: 'str_id' },
  compound: { table: 'compounds', key: 'gvk_id', foreignKey: 'gvk_id' },
  target: { table: 'targets', key: 'target_id', foreignKey: 'target_id' },
  assay: { table: 'assays', key: 'assay_id', foreignKey: 'assay_id' },
  document: { table: 'documents', key: 'ref_id', foreignKey: 'ref_id' },
  phase: { table: 'clinical_phases', key: 'phase_id', foreignKey: 'highest_phase_id' },
  status: { table: 'clinical_statuses', key: 'status_id', foreignKey: 'status_id' },
};

const joinAlias = (join: DqJoin) => `j_${join}`;

/** The column's value expression (a date as YYYY-MM-DD text when selected). */
function columnExpr(column: DqColumn): Sql {
  return sql.ref(`${column.via ? joinAlias(column.via) : BASE}.${column.field}`) as Sql;
}

function selectExpr(column: DqColumn): Sql {
  const expr = columnExpr(column);
  return column.type === 'date' ? sql`to_char(${expr}, 'YYYY-MM-DD')` : expr;
}

/** `FROM table e LEFT JOIN …` with only the joins the given columns read. */
export function fromClause(entity: DqEntity, columns: readonly DqColumn[]): Sql {
  const joins = [...new Set(columns.flatMap((column) => (column.via ? [column.via] : [])))].sort();
  const parts = joins.map((join) => {
    const def = JOINS[join];
    const alias = joinAlias(join);
    return sql`LEFT JOIN ${sql.table(def.table)} AS ${sql.id(alias)} ON ${sql.ref(`${alias}.${def.key}`)} = ${sql.ref(`${BASE}.${def.foreignKey}`)}`;
  });
  return sql`FROM ${sql.table(entity.table)} AS ${sql.id(BASE)} ${sql.join(parts, sql` `)}`;
}

/** A bound parameter typed for its column, so PostgreSQL compares like with like. */
function param(column: DqColumn, value: DqFilterValue): Sql {
  switch (column.type) {
    case 'integer':
      return sql`${value}::bigint`;
    case 'number':
      return sql`${value}::double precision`;
    case 'date':
      return sql`${value}::date`;
    default:
      return sql`${String(value)}::text`;
  }
}

function listParam(column: DqColumn, values: readonly DqFilterValue[]): Sql {
  switch (column.type) {
    case 'integer':
      return sql`${values.map(Number)}::bigint[]`;
    default:
      return sql`${values.map(String)}::text[]`;
  }
}

/** One filter as a condition; the query was checked (operator fits type, values fit) before. */
function filterCondition(column: DqColumn, filter: DqFilter): Sql {
  const expr = columnExpr(column);
  const value = () => param(column, filter.value!);
  switch (filter.operator) {
    case 'eq':
      return sql`${expr} = ${value()}`;
    case 'neq':
      // "Does not equal X" keeps the rows with no value: they do not equal X either.
      return sql`${expr} IS DISTINCT FROM ${value()}`;
    case 'contains':
      return sql`${expr} ILIKE ${containsPattern(String(filter.value))}`;
    case 'startsWith':
      return sql`${expr} ILIKE ${`${escapeLike(String(filter.value))}%`}`;
    case 'in':
      return sql`${expr} = ANY(${listParam(column, filter.values ?? [])})`;
    case 'lt':
      return sql`${expr} < ${value()}`;
    case 'lte':
      return sql`${expr} <= ${value()}`;
    case 'gt':
      return sql`${expr} > ${value()}`;
    case 'gte':
      return sql`${expr} >= ${value()}`;
    case 'between':
      // Inclusive, in either order of the bounds.
      return sql`${expr} BETWEEN SYMMETRIC ${value()} AND ${param(column, filter.value2!)}`;
    case 'isTrue':
      return sql`${expr} IS TRUE`;
    case 'isFalse':
      return sql`${expr} IS FALSE`;
    case 'empty':
      return column.type === 'text' ? sql`(${expr} IS NULL OR ${expr} = '')` : sql`${expr} IS NULL`;
    case 'notEmpty':
      return column.type === 'text' ? sql`(${expr} IS NOT NULL AND ${expr} <> '')` : sql`${expr} IS NOT NULL`;
  }
}

export interface QueryParts {
  selected: DqColumn[];
  filtered: { column: DqColumn; filter: DqFilter }[];
  sort: { column: DqColumn | null; direction: 'asc' | 'desc' };
}

/** The whitelist entries a (checked) query names. */
export function resolveQuery(entity: DqEntity, query: DqQuery): QueryParts {
  const selected = [...new Set(query.columns)].map((key) => dqColumn(entity, key)!);
  const filtered = query.filters.map((filter) => ({ column: dqColumn(entity, filter.column)!, filter }));
  const sort = query.sort
    ? { column: dqColumn(entity, query.sort.column)!, direction: query.sort.direction }
    : { column: null, direction: 'asc' as const };
  return { selected, filtered, sort };
}

export function whereClause(parts: QueryParts): Sql {
  if (!parts.filtered.length) return sql`TRUE`;
  return sql.join(
    parts.filtered.map(({ column, filter }) => filterCondition(column, filter)),
    sql` AND `,
  );
}

/** The chosen sort, then the primary key (paging must be stable: equal sort values in a fixed order). */
export function orderClause(entity: DqEntity, parts: QueryParts): Sql {
  const pk = sql.ref(`${BASE}.${entity.primaryKey}`);
  const dir = parts.sort.direction === 'desc' ? sql`DESC` : sql`ASC`;
  if (!parts.sort.column) return sql`ORDER BY ${pk} ${dir}`;
  return sql`ORDER BY ${columnExpr(parts.sort.column)} ${dir} NULLS LAST, ${pk} ${dir}`;
}

/** The SELECT list: each chosen column under its key, plus extra expressions (the export's title and structure). */
export function selectList(parts: QueryParts, extra: readonly Sql[] = []): Sql {
  return sql.join([...parts.selected.map((column) => sql`${selectExpr(column)} AS ${sql.id(column.key)}`), ...extra]);
}

/** The primary key of the base row. */
export function primaryKeyExpr(entity: DqEntity): Sql {
  return sql.ref(`${BASE}.${entity.primaryKey}`) as Sql;
}

/** The structure's SMILES of a row (for an SDF), and the join it needs. */
export function structureSmiles(entity: DqEntity): { expr: Sql; needs: DqColumn[] } | null {
  if (!entity.structureVia) return null;
  if (entity.structureVia === 'self') return { expr: sql.ref(`${BASE}.canonical_smiles`) as Sql, needs: [] };
  const probe: DqColumn = { key: '__smiles', label: 'SMILES', type: 'text', field: 'canonical_smiles', via: entity.structureVia };
  return { expr: columnExpr(probe), needs: [probe] };
}
