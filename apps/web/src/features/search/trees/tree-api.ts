import { TREE_KEY_BY_VIEW, treeEndpoints } from '@kb/contracts/trees';
import type { TreeChildrenResponse, TreeNode } from '@kb/contracts/trees';
import type { TreeView } from '@kb/contracts/search';
import { callApi } from '../../../app/api-client.ts';

/** The id of a tree's top level in the children call. */
export const TREE_ROOT = 'root';

/** Children of one node (spec §7 tree views); ADME and toxicity trees have their own paths. */
export function fetchTreeChildren(view: TreeView, id: string, signal: AbortSignal): Promise<TreeChildrenResponse> {
  const tree = TREE_KEY_BY_VIEW[view];
  if (tree === 'adme') return callApi(treeEndpoints.adme, { params: { id } }, { signal });
  if (tree === 'toxicity') return callApi(treeEndpoints.toxicity, { params: { id } }, { signal });
  return callApi(treeEndpoints.children, { params: { tree, id } }, { signal });
}

export interface TreeSearchHit {
  node: TreeNode;
  path: { id: string; label: string }[];
}

export async function searchTree(view: TreeView, term: string, signal: AbortSignal): Promise<TreeSearchHit[]> {
  const answer = await callApi(treeEndpoints.search, { params: { tree: TREE_KEY_BY_VIEW[view] }, query: { term, limit: 50 } }, { signal });
  return answer.items;
}

export async function findTreeNodesByName(view: TreeView, names: string[]) {
  return callApi(treeEndpoints.byNameList, { params: { tree: TREE_KEY_BY_VIEW[view] }, body: { names } });
}

/** Ancestors to expand so that a search hit shows in the tree (the path may or may not end with the node). */
export function ancestorsOf(hit: TreeSearchHit): string[] {
  return hit.path.map((step) => step.id).filter((id) => id !== hit.node.id);
}

/** "Kinases › Tyrosine kinases" from a hit's path, without the node itself. */
export function pathLabel(hit: TreeSearchHit): string {
  return hit.path
    .filter((step) => step.id !== hit.node.id)
    .map((step) => step.label)
    .join(' › ');
}
