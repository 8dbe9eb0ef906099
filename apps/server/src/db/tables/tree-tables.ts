import type { ColumnType, Generated } from 'kysely';

/** Kysely types of the tables the trees module's migration (0005_trees.sql) adds; `Database` (db/schema.ts) extends this. */

/** Curated pathway vocabulary: categories (parent_id NULL) > pathways. */
interface PathwaysTable {
  pathway_id: Generated<number>;
  parent_id: number | null;
  name: string;
  /** KEGG human map id where the pathway follows KEGG. */
  source_id: string | null;
  description: string | null;
}

/** Members of a pathway by official (HGNC, upper-case) gene symbol. */
interface PathwayGenesTable {
  pathway_id: number;
  gene_symbol: string;
}

/** The materialised nodes of every tree with their structure counts (rebuilt by refreshTreeCounts). */
interface TreeNodesTable {
  tree: string;
  node_id: string;
  parent_id: string | null;
  label: string;
  codes: ColumnType<string[], string[] | undefined, string[]>;
  structure_count: ColumnType<number, number | undefined, number>;
}

interface TreeRefreshStateTable {
  singleton: ColumnType<boolean, boolean | undefined, boolean>;
  fingerprint: string;
  refreshed_at: ColumnType<Date, Date | string | undefined, Date | string>;
  duration_ms: number;
}

export interface TreeTables {
  pathways: PathwaysTable;
  pathway_genes: PathwayGenesTable;
  tree_nodes: TreeNodesTable;
  tree_refresh_state: TreeRefreshStateTable;
}
