import { describe, expect, it } from 'vitest';
import type { ChartItem } from '@kb/contracts/charts';
import { buildChartTree, descendantIds, pathsToPicked, toggleTreeNode, treeCheckState } from './chart-tree.ts';

const item = (id: number, parentId: number | null, label = `node ${id}`): ChartItem => ({ id, label, count: id, parentId });
const items = [
  item(1, null, 'Enzymes'),
  item(2, 1, 'Kinases'),
  item(3, 2, 'EGFR'),
  item(4, 2, 'ABL1'),
  item(5, null, 'Receptors'),
  item(6, 1, 'Proteases'),
];

describe('building a tree chart from parentId', () => {
  it('nests nodes under their parents and keeps the server order among siblings', () => {
    const roots = buildChartTree(items);
    expect(roots.map((root) => root.item.label)).toEqual(['Enzymes', 'Receptors']);
    expect(roots[0]!.children.map((child) => child.item.label)).toEqual(['Kinases', 'Proteases']);
    expect(roots[0]!.children[0]!.children.map((child) => child.item.label)).toEqual(['EGFR', 'ABL1']);
  });

  it('finds a parent listed after its child', () => {
    const roots = buildChartTree([item(3, 2), item(2, null)]);
    expect(roots.map((root) => root.item.id)).toEqual([2]);
    expect(roots[0]!.children.map((child) => child.item.id)).toEqual([3]);
  });

  it('shows a node whose parent is missing as a root, and breaks a parent cycle', () => {
    expect(buildChartTree([item(7, 99)]).map((root) => root.item.id)).toEqual([7]);
    const cycle = buildChartTree([item(1, 2), item(2, 1)]);
    expect(cycle.map((root) => root.item.id)).toEqual([2]);
    expect(cycle[0]!.children.map((child) => child.item.id)).toEqual([1]);
  });

  it('matches parent ids given as text to numeric ids', () => {
    const roots = buildChartTree([
      { id: 1, label: 'a', count: 1, parentId: null },
      { id: 2, label: 'b', count: 1, parentId: '1' },
    ]);
    expect(roots[0]!.children.map((child) => child.item.id)).toEqual([2]);
  });
});

describe('picking tree nodes', () => {
  const roots = buildChartTree(items);
  const enzymes = roots[0]!;
  const kinases = enzymes.children[0]!;

  it('collects every descendant of a node', () => {
    expect(descendantIds(enzymes)).toEqual([2, 3, 4, 6]);
  });

  it('drops picked descendants when their ancestor is picked, and unpicks a picked node', () => {
    expect(toggleTreeNode([3, 5], kinases)).toEqual([5, 2]);
    expect(toggleTreeNode([5, 2], kinases)).toEqual([5]);
  });

  it('shows picked, covered by an ancestor, partly picked below, or not picked', () => {
    expect(treeCheckState(kinases, [2], false)).toBe('checked');
    expect(treeCheckState(kinases.children[0]!, [2], true)).toBe('covered');
    expect(treeCheckState(enzymes, [3], false)).toBe('partial');
    expect(treeCheckState(roots[1]!, [3], false)).toBe('unchecked');
  });

  it('opens the path to every picked node', () => {
    expect([...pathsToPicked(roots, [3])].sort()).toEqual(['1', '2']);
    expect([...pathsToPicked(roots, [5])]).toEqual([]);
  });
});
