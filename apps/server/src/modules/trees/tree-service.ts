import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { TreeChildrenResponse, TreeKey, TreeNode } from '@kb/contracts/trees';
import type { Database } from '../../db/schema.ts';
import { notFound } from '../../http/errors.ts';
import { TREE_NAMES, parseNodeId } from './tree-ids.ts';
import { knowledgeBaseFingerprint, refreshTreeCounts } from './tree-refresh.ts';
import type { TreeRefreshSummary } from './tree-refresh.ts';
import { containsPattern } from '../../db/like-pattern.ts';

/** The id a client sends for the top level of a tree. */
const ROOT_ID = 'root';

interface NodeRow {
  node_id: string;
  parent_id: string | null;
  label: string;
  structure_count: number;
  has_children: boolean;
}

export interface TreeSearchItem {
  node: TreeNode;
  path: { id: string; label: string }[];
}

export interface TreeServiceOptions {
  /** How often (ms) a request may compare the knowledge base with the last refresh. */
  staleCheckMs?: number;
  /** Told about a failed background refresh (the answers keep the previous counts). */
  onRefreshError?: (error: unknown) => void;
}

function toNode(row: NodeRow): TreeNode {
  return {
    id: row.node_id,
    parentid: row.parent_id,
    label: row.label,
    ids: [row.node_id],
    count: Number(row.structure_count),
    hasChildren: Boolean(row.has_children),
  };
}

/** Columns of a node answer, `n` being tree_nodes. */
const nodeColumns = sql`n.node_id, n.parent_id, n.label, n.structure_count,
  exists (select 1 from tree_nodes c where c.tree = n.tree and c.parent_id = n.node_id) as has_children`;

/**
 * Reads the trees from the materialised node table (tree-refresh.ts). The table is built on first
 * use; afterwards, when the knowledge base has changed and then stayed unchanged between two checks
 * (a load has finished), it is rebuilt in the background while answers keep the previous counts.
 */
export class TreeService {
  private refreshing: Promise<TreeRefreshSummary> | null = null;
  private initialised = false;
  private lastCheck = 0;
  private lastSeenFingerprint: string | null = null;
  private readonly staleCheckMs: number;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly options: TreeServiceOptions = {},
  ) {
    this.staleCheckMs = options.staleCheckMs ?? 60_000;
  }

  /** Rebuilds the node table now (one at a time per process). */
  refresh(): Promise<TreeRefreshSummary> {
    this.refreshing ??= refreshTreeCounts(this.db).finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  /** Waits for a running refresh (server shutdown). */
  async idle(): Promise<void> {
    await this.refreshing?.catch(() => undefined);
  }

  private async ready(): Promise<void> {
    if (!this.initialised) {
      const state = await this.db.selectFrom('tree_refresh_state').select('fingerprint').executeTakeFirst();
      if (!state) await this.refresh();
      this.initialised = true;
      this.lastCheck = Date.now();
      return;
    }
    if (this.refreshing || Date.now() - this.lastCheck < this.staleCheckMs) return;
    this.lastCheck = Date.now();
    const [state, current] = await Promise.all([
      this.db.selectFrom('tree_refresh_state').select('fingerprint').executeTakeFirst(),
      knowledgeBaseFingerprint(this.db),
    ]);
    const settled = current === this.lastSeenFingerprint;
    this.lastSeenFingerprint = current;
    if (state?.fingerprint !== current && settled) {
      this.refresh().catch((error: unknown) => this.options.onRefreshError?.(error));
    }
  }

  private async node(tree: TreeKey, id: string): Promise<NodeRow | undefined> {
    const { rows } = await sql<NodeRow>`select ${nodeColumns} from tree_nodes n where n.tree = ${tree} and n.node_id = ${id}`.execute(
      this.db,
    );
    return rows[0];
  }

  /** Children of a node (`root`: the top level), sorted by label. 400 for a malformed id, 404 for an unknown one. */
  async children(tree: TreeKey, parentId: string): Promise<TreeChildrenResponse> {
    const parent = parentId === ROOT_ID ? null : parentId;
    if (parent !== null) parseNodeId(tree, parent);
    await this.ready();
    if (parent !== null && !(await this.node(tree, parent))) {
      throw notFound(`The ${TREE_NAMES[tree]} tree has no node "${parent}". Reload the tree: the knowledge base may have changed.`);
    }
    const { rows } = await sql<NodeRow>`select ${nodeColumns} from tree_nodes n
      where n.tree = ${tree} and ${parent === null ? sql`n.parent_id is null` : sql`n.parent_id = ${parent}`}
      order by lower(n.label) collate "C", n.label collate "C", n.node_id collate "C"`.execute(this.db);
    return { tree, parentid: parent, nodes: rows.map(toNode) };
  }

  /**
   * Nodes whose label contains the term (case-insensitive), best first: exact, then prefix, then
   * by count. Each comes with its ancestors from the root down (the node itself not included).
   */
  async search(tree: TreeKey, term: string, limit: number): Promise<TreeSearchItem[]> {
    await this.ready();
    const pattern = containsPattern(term);
    const { rows: hits } = await sql<NodeRow>`select ${nodeColumns} from tree_nodes n
      where n.tree = ${tree} and lower(n.label) like lower(${pattern}) escape '\\'
      order by lower(n.label) = lower(${term}) desc, lower(n.label) like lower(${pattern.slice(1)}) escape '\\' desc,
        n.structure_count desc, lower(n.label) collate "C", n.node_id collate "C"
      limit ${limit}`.execute(this.db);
    const ancestors = await this.ancestors(
      tree,
      hits.flatMap((h) => (h.parent_id ? [h.parent_id] : [])),
    );
    return hits.map((hit) => {
      const path: { id: string; label: string }[] = [];
      const seen = new Set<string>();
      for (let id = hit.parent_id; id !== null && !seen.has(id); ) {
        seen.add(id);
        const up = ancestors.get(id);
        if (!up) break;
        path.unshift({ id, label: up.label });
        id = up.parent_id;
      }
      return { node: toNode(hit), path };
    });
  }

  /** The given nodes and all their ancestors, by id. */
  private async ancestors(tree: TreeKey, ids: string[]): Promise<Map<string, { label: string; parent_id: string | null }>> {
    if (ids.length === 0) return new Map();
    const { rows } = await sql<{ node_id: string; parent_id: string | null; label: string }>`with recursive up as (
        select node_id, parent_id, label from tree_nodes where tree = ${tree} and node_id = any(${[...new Set(ids)]}::text[])
        union
        select p.node_id, p.parent_id, p.label from up join tree_nodes p on p.tree = ${tree} and p.node_id = up.parent_id
      ) select node_id, parent_id, label from up`.execute(this.db);
    return new Map(rows.map((r) => [r.node_id, { label: r.label, parent_id: r.parent_id }]));
  }

  /**
   * Finds nodes by a list of names: exact, case-insensitive match of the label or of a code (gene
   * symbol, UniProt accession, MeSH id, NCBI taxonomy id, KEGG id, ISSN, country code, activity type).
   * A name may find several nodes (a gene in several pathways). Names are answered in input order.
   */
  async byNameList(tree: TreeKey, names: string[]): Promise<{ found: { name: string; node: TreeNode }[]; notFound: string[] }> {
    await this.ready();
    const unique = [...new Set(names)];
    const { rows } = await sql<NodeRow & { name: string }>`with wanted as (
        select q.name, q.ord, lower(q.name) as key from unnest(${unique}::text[]) with ordinality as q(name, ord)
      ),
      keys as (
        select distinct n.node_id, lower(k.key) as key
        from tree_nodes n cross join lateral unnest(array_append(n.codes, n.label)) as k(key)
        where n.tree = ${tree}
      )
      select w.name, ${nodeColumns}
      from wanted w join keys on keys.key = w.key join tree_nodes n on n.tree = ${tree} and n.node_id = keys.node_id
      order by w.ord, lower(n.label) collate "C", n.node_id collate "C"`.execute(this.db);
    const foundNames = new Set(rows.map((r) => r.name));
    return {
      found: rows.map((r) => ({ name: r.name, node: toNode(r) })),
      notFound: unique.filter((name) => !foundNames.has(name)),
    };
  }
}
