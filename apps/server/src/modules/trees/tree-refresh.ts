import { sql } from 'kysely';
import type { Kysely, RawBuilder } from 'kysely';
import type { TreeKey } from '@kb/contracts/trees';
import type { Database } from '../../db/schema.ts';
import { ASSAY_TYPES, HIERARCHIES, closureCte, docName, docSource, docYear } from './tree-sql.ts';

/**
 * Rebuilds `tree_nodes`: every node of the ten trees with the number of distinct structures with
 * data under it (descendants included: a distinct count over the subtree, never a sum of the
 * children). Set-based SQL, one statement per tree: leaf facts (node, str_id) are made distinct,
 * rolled up through the hierarchy's closure, made distinct again and counted. The mapping from
 * data to nodes mirrors tree-match.ts through the shared definitions of tree-sql.ts.
 */

const insertInto = sql`insert into tree_nodes (tree, node_id, parent_id, label, codes, structure_count)`;

/**
 * Tree counts are structure counts: activities without a structure (str_id NULL) are left out.
 *
 * Distinct (target, structure) pairs, read by the target and pathway trees: computed once per
 * refresh into a temporary table that disappears at commit.
 */
const targetPairs = sql`create temporary table tree_target_str on commit drop as
  select distinct target_id, str_id from activities where target_id is not null and str_id is not null`;

/**
 * Target classes (ids `c…`) with targets as leaves (`t…`); targets without a class under `u` > `u:<type>`.
 * Leaves are counted straight from the (target, structure) pairs; classes first collapse them to
 * distinct (class, structure) and only then roll up the closure, on integer keys (the costly part).
 */
const targetTree = sql`with recursive ${closureCte(HIERARCHIES.targetClasses)},
  pairs as (select target_id, str_id from tree_target_str),
  target_counts as (select target_id, count(*)::int as n from pairs group by target_id),
  class_str as (
    select distinct t.class_id, p.str_id from pairs p join targets t on t.target_id = p.target_id where t.class_id is not null
  ),
  class_counts as (
    select ancestor, count(*)::int as n
    from (select distinct c.ancestor, cs.str_id from class_str cs join closure c on c.node = cs.class_id) x group by ancestor
  ),
  unclassified_str as (
    select distinct t.target_type, p.str_id from pairs p join targets t on t.target_id = p.target_id where t.class_id is null
  ),
  type_counts as (select target_type, count(*)::int as n from unclassified_str group by target_type),
  nodes(node_id, parent_id, label, codes, n) as (
    select 'c' || tc.class_id, 'c' || tc.parent_id, tc.name, '{}'::text[], cc.n
    from target_classes tc left join class_counts cc on cc.ancestor = tc.class_id
    union all
    select 't' || t.target_id, case when t.class_id is null then 'u:' || t.target_type else 'c' || t.class_id end,
      case when t.gene_symbol is null then t.name else t.name || ' (' || t.gene_symbol || ')' end,
      array_remove(array[t.name, t.gene_symbol, t.uniprot_id, t.chembl_id], null), tn.n
    from targets t left join target_counts tn on tn.target_id = t.target_id
    union all
    select 'u', null, 'Unclassified targets', '{}'::text[], (select count(distinct str_id)::int from unclassified_str)
    where exists (select 1 from targets where class_id is null)
    union all
    select 'u:' || ty.target_type, 'u', ty.target_type, '{}'::text[], tyc.n
    from (select distinct target_type from targets where class_id is null) ty left join type_counts tyc on tyc.target_type = ty.target_type
  )
  ${insertInto}
  select 'target', node_id, parent_id, label, codes, coalesce(n, 0) from nodes`;

/** Indications (`i…`): structures of clinical compounds with the indication or one under it. */
const indicationTree = sql`with recursive ${closureCte(HIERARCHIES.indications)},
  pairs as (
    select distinct cci.indication_id, cc.str_id
    from clinical_compound_indications cci join clinical_compounds cc on cc.clinical_compound_id = cci.clinical_compound_id
    where cc.str_id is not null
  ),
  counts as (
    select ancestor, count(*)::int as n
    from (select distinct c.ancestor, p.str_id from pairs p join closure c on c.node = p.indication_id) x group by ancestor
  )
  ${insertInto}
  select 'indication', 'i' || i.indication_id, 'i' || i.parent_id, i.name, array_remove(array[i.mesh_id, i.efo_id], null), coalesce(c.n, 0)
  from indications i left join counts c on c.ancestor = i.indication_id`;

/** Taxonomy (`s…`): structures with activities in assays of the organism / strain / cell line or below. */
const taxonomyTree = sql`with recursive ${closureCte(HIERARCHIES.taxonomy)},
  pairs as (
    select distinct ay.taxonomy_id, a.str_id from activities a join assays ay on ay.assay_id = a.assay_id where ay.taxonomy_id is not null and a.str_id is not null
  ),
  counts as (
    select ancestor, count(*)::int as n
    from (select distinct c.ancestor, p.str_id from pairs p join closure c on c.node = p.taxonomy_id) x group by ancestor
  )
  ${insertInto}
  select 'sourceontology', 's' || t.taxonomy_id, 's' || t.parent_id, t.name,
    -- The NCBI id names the node that introduces it (a species), not the strains that repeat it.
    case when t.ncbi_tax_id is not null and t.ncbi_tax_id is distinct from p.ncbi_tax_id then array[t.ncbi_tax_id::text] else '{}'::text[] end,
    coalesce(c.n, 0)
  from taxonomy t left join taxonomy p on p.taxonomy_id = t.parent_id left join counts c on c.ancestor = t.taxonomy_id`;

/** The three endpoint trees (`e…`) in one pass: see activityEndpointIn (tree-sql.ts) for the mapping. */
const endpointTrees = sql`with recursive ${closureCte(HIERARCHIES.endpoints)},
  pairs as (
    select distinct x.endpoint_id, a.str_id
    from activities a
    left join assays ay on ay.assay_id = a.assay_id
    left join activity_types at on a.endpoint_id is null and at.name = a.std_activity_type
    cross join lateral (values (coalesce(a.endpoint_id, at.endpoint_id)), (ay.pk_endpoint_id), (ay.tox_endpoint_id)) as x(endpoint_id)
    where x.endpoint_id is not null
  ),
  counts as (
    select ancestor, count(*)::int as n
    from (select distinct c.ancestor, p.str_id from pairs p join closure c on c.node = p.endpoint_id) x group by ancestor
  )
  ${insertInto}
  select case e.tree when 'activity' then 'activityendpoint' when 'pk' then 'adme' else 'toxicity' end,
    'e' || e.endpoint_id, 'e' || e.parent_id, e.name,
    -- The activity types reported under the endpoint, so a by-name list of types finds it.
    coalesce((select array_agg(at.name order by at.name) from activity_types at where at.endpoint_id = e.endpoint_id), '{}'::text[]),
    coalesce(c.n, 0)
  from endpoints e left join counts c on c.ancestor = e.endpoint_id`;

/**
 * Pathways: categories > pathways (`p…`) > genes that have targets in the knowledge base
 * (`p<pathway>:<GENE>`). Gene symbols compare upper-case, as in tree-match.ts. Gene leaves are
 * counted per gene; pathways collapse to distinct (pathway, structure) before the roll-up.
 */
const pathwayTree = sql`with recursive ${closureCte(HIERARCHIES.pathways)},
  gene_names as (
    select distinct on (upper(gene_symbol)) upper(gene_symbol) as gene, name
    from targets where gene_symbol is not null
    order by upper(gene_symbol), coalesce(organism = 'Homo sapiens', false) desc, target_id
  ),
  gene_str as (
    select distinct upper(t.gene_symbol) as gene, p.str_id
    from tree_target_str p join targets t on t.target_id = p.target_id
    where upper(t.gene_symbol) in (select gene_symbol from pathway_genes)
  ),
  gene_counts as (select gene, count(*)::int as n from gene_str group by gene),
  pathway_str as (select distinct pg.pathway_id, g.str_id from gene_str g join pathway_genes pg on pg.gene_symbol = g.gene),
  pathway_counts as (
    select ancestor, count(*)::int as n
    from (select distinct c.ancestor, ps.str_id from pathway_str ps join closure c on c.node = ps.pathway_id) x group by ancestor
  ),
  nodes(node_id, parent_id, label, codes, n) as (
    select 'p' || p.pathway_id, 'p' || p.parent_id, p.name, array_remove(array[p.source_id], null), pc.n
    from pathways p left join pathway_counts pc on pc.ancestor = p.pathway_id
    union all
    select 'p' || pg.pathway_id || ':' || pg.gene_symbol, 'p' || pg.pathway_id, pg.gene_symbol || ' (' || gn.name || ')', array[pg.gene_symbol], gc.n
    from pathway_genes pg join gene_names gn on gn.gene = pg.gene_symbol left join gene_counts gc on gc.gene = pg.gene_symbol
  )
  ${insertInto}
  select 'pathways', node_id, parent_id, label, codes, coalesce(n, 0) from nodes`;

/** Highest phase (`ph<id>`, 0 = not reported) > status (`ph<id>:st<id>`): structures of clinical compounds. */
const clinicalPhaseTree = sql`with cc as (
    select coalesce(highest_phase_id, 0) as phase, coalesce(status_id, 0) as status, str_id from clinical_compounds
  ),
  counts as (
    select 'ph' || phase as node_id, count(distinct str_id)::int as n from cc group by phase
    union all
    select 'ph' || phase || ':st' || status, count(distinct str_id)::int from cc group by phase, status
  ),
  nodes(node_id, parent_id, label) as (
    select 'ph' || phase_id, null::text, name from clinical_phases
    union all
    select 'ph0', null, 'Phase not reported'
    where exists (select 1 from clinical_compounds where highest_phase_id is null)
      and not exists (select 1 from clinical_phases where phase_id = 0)
    union all
    select distinct 'ph' || cc.phase || ':st' || cc.status, 'ph' || cc.phase, coalesce(s.name, 'Status not reported')
    from cc left join clinical_statuses s on s.status_id = cc.status
  )
  ${insertInto}
  select 'clinicalphase', n.node_id, n.parent_id, n.label, '{}'::text[], coalesce(c.n, 0) from nodes n left join counts c on c.node_id = n.node_id`;

/** Assay type (`t:<type>`) > assay method name (`m:<type>:<method>`, '' = not reported). */
const assayMethodTree = sql`with pairs as (
    select distinct ay.assay_type, coalesce(ay.assay_method_name, '') as method, a.str_id
    from activities a join assays ay on ay.assay_id = a.assay_id
  ),
  counts as (
    select 't:' || assay_type as node_id, count(distinct str_id)::int as n from pairs group by assay_type
    union all
    select 'm:' || assay_type || ':' || method, count(*)::int from pairs group by assay_type, method
  ),
  types as (select unnest(${[...ASSAY_TYPES]}::text[]) as assay_type union select distinct assay_type from assays),
  nodes(node_id, parent_id, label, codes) as (
    select 't:' || assay_type, null::text, case assay_type when 'adme' then 'ADME' else initcap(assay_type) end, array[assay_type] from types
    union all
    select distinct 'm:' || assay_type || ':' || coalesce(assay_method_name, ''), 't:' || assay_type,
      coalesce(nullif(assay_method_name, ''), 'Method not reported'), '{}'::text[]
    from assays
  )
  ${insertInto}
  select 'assaymethodname', n.node_id, n.parent_id, n.label, n.codes, coalesce(c.n, 0) from nodes n left join counts c on c.node_id = n.node_id`;

/** Data source J/P/O > journal or patent country (`Jn:<name>`) > year (`Jy:<year>:<name>`). */
const bibliographyTree = sql`with docs as (
    select d.ref_id, ${docSource} as source, ${docName} as name, ${docYear} as year, d.journal_patent_name, d.issn_no from documents d
  ),
  pairs as (select distinct ref_id, str_id from activities where ref_id is not null and str_id is not null),
  membership(node_id, ref_id) as (
    select source, ref_id from docs
    union all select source || 'n:' || name, ref_id from docs
    union all select source || 'y:' || year || ':' || name, ref_id from docs
  ),
  counts as (
    select node_id, count(*)::int as n
    from (select distinct m.node_id, p.str_id from pairs p join membership m on m.ref_id = p.ref_id) x group by node_id
  ),
  nodes(node_id, parent_id, label, codes) as (
    select v.source, null::text, v.label, array[v.source] from (values ('J', 'Journal articles'), ('P', 'Patents'), ('O', 'Other sources')) as v(source, label)
    union all
    select source || 'n:' || name, source,
      case
        when name = '' then (case source when 'J' then 'Journal not reported' when 'P' then 'Country not reported' else 'Source not reported' end)
        when source = 'P' then coalesce(min(journal_patent_name) || ' (' || name || ')', name)
        else name
      end,
      array_remove(array[case when source = 'P' then nullif(name, '') end, min(issn_no)], null)
    from docs group by source, name
    union all
    select distinct source || 'y:' || year || ':' || name, source || 'n:' || name, coalesce(nullif(year, ''), 'Year not reported'), '{}'::text[]
    from docs
  )
  ${insertInto}
  select 'bibliography', n.node_id, n.parent_id, n.label, n.codes, coalesce(c.n, 0) from nodes n left join counts c on c.node_id = n.node_id`;

interface RefreshStep {
  trees: TreeKey[];
  statement: RawBuilder<unknown>;
}

const STEPS: RefreshStep[] = [
  { trees: ['target'], statement: targetTree },
  { trees: ['indication'], statement: indicationTree },
  { trees: ['sourceontology'], statement: taxonomyTree },
  { trees: ['activityendpoint', 'adme', 'toxicity'], statement: endpointTrees },
  { trees: ['pathways'], statement: pathwayTree },
  { trees: ['clinicalphase'], statement: clinicalPhaseTree },
  { trees: ['assaymethodname'], statement: assayMethodTree },
  { trees: ['bibliography'], statement: bibliographyTree },
];

export interface TreeRefreshProgress {
  /** Trees just rebuilt. */
  trees: TreeKey[];
  step: number;
  steps: number;
  /** Seconds that step took. */
  seconds: number;
}

export interface TreeRefreshSummary {
  nodes: number;
  seconds: number;
  fingerprint: string;
}

/**
 * What the knowledge base looks like, cheaply: highest ids of the big tables (index look-ups) and
 * the sizes of the small ones the trees are built from. A different value means the counts are
 * stale. (Deletions that keep every maximum are not seen; loaders only add.)
 */
export async function knowledgeBaseFingerprint(db: Kysely<Database>): Promise<string> {
  const parts = [
    sql`(select max(act_id) from activities)`,
    sql`(select max(str_id) from structures)`,
    sql`(select max(assay_id) from assays)`,
    sql`(select max(ref_id) from documents)`,
    sql`(select max(target_id) from targets)`,
    sql`(select max(clinical_compound_id) from clinical_compounds)`,
    sql`(select count(*) from clinical_compound_indications)`,
    sql`(select count(*) from target_classes)`,
    sql`(select count(*) from indications)`,
    sql`(select count(*) from taxonomy)`,
    sql`(select count(*) from endpoints)`,
    sql`(select count(*) from activity_types)`,
    sql`(select count(*) from clinical_phases)`,
    sql`(select count(*) from pathway_genes)`,
  ];
  const { rows } = await sql<{ fingerprint: string }>`select concat_ws('/', ${sql.join(
    parts.map((p) => sql`coalesce(${p}::text, '-')`),
  )}) as fingerprint`.execute(db);
  return rows[0]?.fingerprint ?? '';
}

/**
 * Recomputes every tree's nodes and counts in one transaction (readers keep the previous counts
 * until it commits; a concurrent refresh waits for the lock). Idempotent. Call it after seeding or
 * importing; the tree routes also run it on first use and when the knowledge base has changed.
 */
export async function refreshTreeCounts(
  db: Kysely<Database>,
  onProgress?: (progress: TreeRefreshProgress) => void,
): Promise<TreeRefreshSummary> {
  const started = performance.now();
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => {
      // First statement, before the snapshot is taken: a refresh that waited sees the one before it.
      await sql`lock table tree_nodes in share row exclusive mode`.execute(trx);
      // The distinct counts sort or hash tens of millions of (node, structure) pairs at ChEMBL scale.
      await sql`set local work_mem = '128MB'`.execute(trx);
      const fingerprint = await knowledgeBaseFingerprint(trx);
      await sql`delete from tree_nodes`.execute(trx);
      await targetPairs.execute(trx);
      for (const [i, step] of STEPS.entries()) {
        const stepStarted = performance.now();
        await step.statement.execute(trx);
        onProgress?.({ trees: step.trees, step: i + 1, steps: STEPS.length, seconds: (performance.now() - stepStarted) / 1000 });
      }
      const durationMs = Math.round(performance.now() - started);
      await sql`insert into tree_refresh_state (singleton, fingerprint, refreshed_at, duration_ms) values (true, ${fingerprint}, now(), ${durationMs})
      on conflict (singleton) do update set fingerprint = excluded.fingerprint, refreshed_at = excluded.refreshed_at, duration_ms = excluded.duration_ms`.execute(
        trx,
      );
      const nodes = await trx
        .selectFrom('tree_nodes')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return { nodes: Number(nodes.n), seconds: durationMs / 1000, fingerprint };
    });
}
