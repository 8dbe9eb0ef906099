import type { ChartItem } from '@kb/contracts/charts';
import type { ChartValue } from './chart-filters.ts';
import { hasValue, sameValue } from './chart-filters.ts';

/** A Tree chart node with its children (spec §3: children are built from parentid). */
export interface ChartTreeNode {
  item: ChartItem;
  children: ChartTreeNode[];
}

/**
 * Builds the forest of a Tree chart from its flat items. Siblings keep the server's order (the
 * chart's sort); a node whose parent is not among the items becomes a root rather than vanish,
 * and a parent cycle cannot hang the page (the node that would close it becomes a root).
 */
export function buildChartTree(items: readonly ChartItem[]): ChartTreeNode[] {
  const nodes = new Map<string, ChartTreeNode>();
  for (const item of items) if (!nodes.has(String(item.id))) nodes.set(String(item.id), { item, children: [] });
  const attachedTo = new Map<ChartTreeNode, ChartTreeNode>();
  const closesCycle = (node: ChartTreeNode, parent: ChartTreeNode) => {
    for (let up: ChartTreeNode | undefined = parent; up; up = attachedTo.get(up)) if (up === node) return true;
    return false;
  };
  const roots: ChartTreeNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.item.parentId == null ? undefined : nodes.get(String(node.item.parentId));
    if (parent && !closesCycle(node, parent)) {
      parent.children.push(node);
      attachedTo.set(node, parent);
    } else roots.push(node);
  }
  return roots;
}

/** The ids of every node below `node`. */
export function descendantIds(node: ChartTreeNode): ChartValue[] {
  return node.children.flatMap((child) => [child.item.id, ...descendantIds(child)]);
}

export type TreeCheckState = 'checked' | 'covered' | 'partial' | 'unchecked';

/**
 * How a node's checkbox shows: picked itself; covered by a picked ancestor (a class includes its
 * sub-classes, so the node is in the filter already); partly picked below; or not at all.
 */
export function treeCheckState(node: ChartTreeNode, picked: readonly ChartValue[], ancestorPicked: boolean): TreeCheckState {
  if (ancestorPicked) return 'covered';
  if (hasValue(picked, node.item.id)) return 'checked';
  return descendantIds(node).some((id) => hasValue(picked, id)) ? 'partial' : 'unchecked';
}

/**
 * Picks or unpicks one node. Picking a node drops its picked descendants: the node already stands
 * for them (its `ids`), and the filter stays as short as the user's intent.
 */
export function toggleTreeNode(picked: readonly ChartValue[], node: ChartTreeNode): ChartValue[] {
  if (hasValue(picked, node.item.id)) return picked.filter((value) => !sameValue(value, node.item.id));
  const below = descendantIds(node);
  return [...picked.filter((value) => !hasValue(below, value)), node.item.id];
}

/** Ids of the nodes on the way to every picked node, to open them when the chart shows an applied filter. */
export function pathsToPicked(roots: readonly ChartTreeNode[], picked: readonly ChartValue[]): Set<string> {
  const open = new Set<string>();
  const visit = (node: ChartTreeNode, trail: string[]): boolean => {
    let found = false;
    for (const child of node.children) if (visit(child, [...trail, String(node.item.id)])) found = true;
    if (hasValue(picked, node.item.id)) found = true;
    if (found) for (const id of trail) open.add(id);
    return found;
  };
  for (const root of roots) visit(root, []);
  return open;
}
