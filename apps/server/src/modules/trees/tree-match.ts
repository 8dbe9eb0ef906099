import { sql } from 'kysely';
import type { RawBuilder } from 'kysely';
import type { TreeKey } from '@kb/contracts/trees';
import { badRequest } from '../../http/errors.ts';
import { TREE_NAMES, parseNodeId } from './tree-ids.ts';
import type { ParsedNode } from './tree-ids.ts';
import { ENDPOINT_TREE, HIERARCHIES, activityEndpointIn, anyOf, docName, docSource, docYear, subtree } from './tree-sql.ts';

/**
 * What a tree-row selection matches, for the search compiler (modules/search). Node ids are the
 * tree module's own encoding, so only it can turn them into SQL.
 */
export interface TreeMatch {
  /** SQL boolean over activity alias `a` and its assay alias `ay` (LEFT JOIN assays ay ON ay.assay_id = a.assay_id). */
  activity?: RawBuilder<boolean>;
  /** A query selecting column `str_id`: structures matched without going through activities (indication, clinical phase). */
  structures?: RawBuilder<unknown>;
  /** SQL boolean over clinical-compound alias `cc` (indication, clinical phase). */
  clinical?: RawBuilder<boolean>;
}

type Kind = ParsedNode['kind'];
type NodeOf<K extends Kind> = Extract<ParsedNode, { kind: K }>;

function pick<K extends Kind>(nodes: ParsedNode[], kind: K): NodeOf<K>[] {
  return nodes.filter((n): n is NodeOf<K> => n.kind === kind);
}

/** Adds `part` when the selection has nodes of that kind. */
function when<T>(items: T[], part: (items: T[]) => RawBuilder<boolean>): RawBuilder<boolean>[] {
  return items.length > 0 ? [part(items)] : [];
}

function targetMatch(nodes: ParsedNode[]): TreeMatch {
  const unclassified = pick(nodes, 'unclassified');
  const allUnclassified = unclassified.some((n) => n.targetType === null);
  const types = allUnclassified ? [] : unclassified.map((n) => n.targetType as string);
  const parts = [
    ...when(
      pick(nodes, 'class').map((n) => n.id),
      (ids) =>
        sql<boolean>`a.target_id in (select t.target_id from targets t where t.class_id in ${subtree(HIERARCHIES.targetClasses, ids)})`,
    ),
    ...when(
      pick(nodes, 'target').map((n) => n.id),
      (ids) => sql<boolean>`a.target_id = any(${ids}::bigint[])`,
    ),
    ...(allUnclassified ? [sql<boolean>`a.target_id in (select t.target_id from targets t where t.class_id is null)`] : []),
    ...when(
      types,
      (list) =>
        sql<boolean>`a.target_id in (select t.target_id from targets t where t.class_id is null and t.target_type = any(${list}::text[]))`,
    ),
  ];
  return { activity: anyOf(parts) };
}

function pathwayMatch(nodes: ParsedNode[]): TreeMatch {
  const pathways = pick(nodes, 'pathway').map((n) => n.id);
  // A gene leaf selects the gene wherever it sits; symbols compare upper-case (HGNC style), so
  // orthologues written "Egfr" (mouse, rat) share their human gene's pathways.
  const genes = pick(nodes, 'gene').map((n) => n.gene.toUpperCase());
  const geneSets = [
    ...(pathways.length > 0
      ? [sql`select pg.gene_symbol from pathway_genes pg where pg.pathway_id in ${subtree(HIERARCHIES.pathways, pathways)}`]
      : []),
    ...(genes.length > 0 ? [sql`select unnest(${genes}::text[])`] : []),
  ];
  return {
    activity: anyOf([
      sql<boolean>`a.target_id in (select t.target_id from targets t where upper(t.gene_symbol) in (${sql.join(geneSets, sql` union `)}))`,
    ]),
  };
}

function clinicalPhaseMatch(nodes: ParsedNode[]): TreeMatch {
  const statusNodes = pick(nodes, 'phaseStatus');
  const clinical = anyOf([
    ...when(
      pick(nodes, 'phase').map((n) => n.phase),
      (phases) => sql<boolean>`coalesce(cc.highest_phase_id, 0) = any(${phases}::int[])`,
    ),
    ...when(
      statusNodes,
      (list) => sql<boolean>`(coalesce(cc.highest_phase_id, 0), coalesce(cc.status_id, 0))
      in (select * from unnest(${list.map((n) => n.phase)}::int[], ${list.map((n) => n.status)}::int[]))`,
    ),
  ]);
  return { clinical, structures: sql`select cc.str_id from clinical_compounds cc where cc.str_id is not null and ${clinical}` };
}

function indicationMatch(nodes: ParsedNode[]): TreeMatch {
  const ids = pick(nodes, 'indication').map((n) => n.id);
  const clinical = anyOf([
    sql<boolean>`cc.clinical_compound_id in (select cci.clinical_compound_id
    from clinical_compound_indications cci where cci.indication_id in ${subtree(HIERARCHIES.indications, ids)})`,
  ]);
  return { clinical, structures: sql`select cc.str_id from clinical_compounds cc where cc.str_id is not null and ${clinical}` };
}

function assayMethodMatch(nodes: ParsedNode[]): TreeMatch {
  const methods = pick(nodes, 'assayMethod');
  return {
    activity: anyOf([
      ...when(
        pick(nodes, 'assayType').map((n) => n.assayType),
        (types) => sql<boolean>`ay.assay_type = any(${types}::text[])`,
      ),
      ...when(
        methods,
        (list) => sql<boolean>`(ay.assay_type, coalesce(ay.assay_method_name, ''))
        in (select * from unnest(${list.map((n) => n.assayType)}::text[], ${list.map((n) => n.method)}::text[]))`,
      ),
    ]),
  };
}

function bibliographyMatch(nodes: ParsedNode[]): TreeMatch {
  const names = pick(nodes, 'sourceName');
  const years = pick(nodes, 'sourceYear');
  const documentParts = [
    ...when(
      pick(nodes, 'source').map((n) => n.source),
      (sources) => sql<boolean>`${docSource} = any(${sources}::text[])`,
    ),
    ...when(
      names,
      (list) => sql<boolean>`(${docSource}, ${docName})
      in (select * from unnest(${list.map((n) => n.source)}::text[], ${list.map((n) => n.name)}::text[]))`,
    ),
    ...when(
      years,
      (list) => sql<boolean>`(${docSource}, ${docName}, ${docYear})
      in (select * from unnest(${list.map((n) => n.source)}::text[], ${list.map((n) => n.name)}::text[], ${list.map((n) => (n.year === null ? '' : String(n.year)))}::text[]))`,
    ),
  ];
  return { activity: anyOf([sql<boolean>`a.ref_id in (select d.ref_id from documents d where ${anyOf(documentParts)})`]) };
}

/**
 * Turns a selection of tree nodes into SQL for the search compiler. A node stands for itself and
 * all its descendants; several nodes are alternatives (OR). The predicates match exactly what the
 * node counts count (tree-refresh.ts), and they read the knowledge-base tables directly, so they
 * hold even before the node table is refreshed. Throws HttpError 400 on an empty or malformed selection.
 */
export function treeSelectionMatch(tree: TreeKey, nodeIds: readonly string[]): TreeMatch {
  if (nodeIds.length === 0) throw badRequest(`Choose at least one node of the ${TREE_NAMES[tree]} tree.`);
  const nodes = [...new Set(nodeIds)].map((id) => parseNodeId(tree, id));
  switch (tree) {
    case 'target':
      return targetMatch(nodes);
    case 'indication':
      return indicationMatch(nodes);
    case 'sourceontology':
      return {
        activity: anyOf([
          sql<boolean>`ay.taxonomy_id in ${subtree(
            HIERARCHIES.taxonomy,
            pick(nodes, 'taxon').map((n) => n.id),
          )}`,
        ]),
      };
    case 'activityendpoint':
    case 'adme':
    case 'toxicity': {
      const ids = pick(nodes, 'endpoint').map((n) => n.id);
      // Only endpoints of this tree: an id of another endpoint tree selects nothing here.
      return {
        activity: anyOf([activityEndpointIn(() => subtree(HIERARCHIES.endpoints, ids, sql<boolean>`tree = ${ENDPOINT_TREE[tree]}`))]),
      };
    }
    case 'pathways':
      return pathwayMatch(nodes);
    case 'clinicalphase':
      return clinicalPhaseMatch(nodes);
    case 'assaymethodname':
      return assayMethodMatch(nodes);
    case 'bibliography':
      return bibliographyMatch(nodes);
  }
}
