import { sql } from 'kysely';
import type { RawBuilder } from 'kysely';

/**
 * SQL definitions shared by the count refresh (tree-refresh.ts) and the search predicates
 * (tree-match.ts). A node's count must equal what selecting it finds, so both read the same
 * definitions from here.
 */

/** Vocabulary trees stored as parent_id hierarchies. */
export const HIERARCHIES = {
  targetClasses: { table: 'target_classes', id: 'class_id' },
  indications: { table: 'indications', id: 'indication_id' },
  taxonomy: { table: 'taxonomy', id: 'taxonomy_id' },
  endpoints: { table: 'endpoints', id: 'endpoint_id' },
  pathways: { table: 'pathways', id: 'pathway_id' },
} as const;
export type Hierarchy = (typeof HIERARCHIES)[keyof typeof HIERARCHIES];

/**
 * A parenthesised subquery selecting the given nodes and all their descendants (one column).
 * UNION rather than UNION ALL, so a cycle in imported data ends the recursion instead of looping.
 */
export function subtree(h: Hierarchy, roots: readonly number[], rootFilter?: RawBuilder<boolean>): RawBuilder<unknown> {
  const id = sql.ref(h.id);
  return sql`(with recursive sub(id) as (
      select ${id} from ${sql.table(h.table)} where ${id} = any(${roots}::bigint[])${rootFilter ? sql` and ${rootFilter}` : sql``}
      union
      select c.${id} from ${sql.table(h.table)} c join sub on c.parent_id = sub.id
    ) select id from sub)`;
}

/**
 * Closure of a hierarchy as a CTE body: (ancestor, node) for every node and each of its ancestors,
 * itself included. Used by the refresh to roll leaf facts up to every ancestor.
 */
export function closureCte(h: Hierarchy): RawBuilder<unknown> {
  const id = sql.ref(h.id);
  return sql`closure(ancestor, node) as (
      select ${id}, ${id} from ${sql.table(h.table)}
      union
      select closure.ancestor, c.${id} from closure join ${sql.table(h.table)} c on c.parent_id = closure.node
    )`;
}

/** The assay types of the Assay method name tree's top level, always listed (others appear when present). */
export const ASSAY_TYPES = ['binding', 'functional', 'adme', 'toxicity', 'physicochemical', 'unassigned'] as const;

/** Endpoint table's `tree` value per endpoint tree view. */
export const ENDPOINT_TREE = { activityendpoint: 'activity', adme: 'pk', toxicity: 'toxicity' } as const;

/**
 * Bibliography keys of a document (alias `d`): data source J (journal article), P (patent) or
 * O (anything else: book, dataset ...); the name under it (journal, or the patent's country code);
 * the year. Missing values are '' so they form a node of their own ("not reported").
 */
export const docSource = sql<string>`(case d.ref_type when 'journal' then 'J' when 'patent' then 'P' else 'O' end)`;
export const docName = sql<string>`(case when d.ref_type = 'patent' then coalesce(d.country_code, '') else coalesce(d.journal_patent_name, '') end)`;
export const docYear = sql<string>`coalesce(d.year::text, '')`;

/**
 * The endpoints of an activity (alias `a`, assay alias `ay`): its own endpoint or, when it has
 * none, that of its activity type; the assay's PK endpoint; the assay's toxicity endpoint. An
 * endpoint node counts the activities with any of them in its subtree. `epSet` is a subquery.
 */
export function activityEndpointIn(epSet: () => RawBuilder<unknown>): RawBuilder<boolean> {
  return sql<boolean>`(a.endpoint_id in ${epSet()}
    or (a.endpoint_id is null and a.std_activity_type in (select at.name from activity_types at where at.endpoint_id in ${epSet()}))
    or ay.pk_endpoint_id in ${epSet()}
    or ay.tox_endpoint_id in ${epSet()})`;
}

/** `coalesce((p1 or p2 ...), false)`: a two-valued predicate, safe under NOT in the search compiler. */
export function anyOf(parts: RawBuilder<boolean>[]): RawBuilder<boolean> {
  if (parts.length === 0) return sql<boolean>`false`;
  return sql<boolean>`coalesce((${sql.join(parts, sql` or `)}), false)`;
}
