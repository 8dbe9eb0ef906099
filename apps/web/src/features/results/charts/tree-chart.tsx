import { ActionIcon, Box, Checkbox, Group, Text } from '@mantine/core';
import { IconChevronDown, IconChevronRight } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import type { ChartItem } from '@kb/contracts/charts';
import { formatCount } from '../../../app/format/count-format.ts';
import type { ChartValue } from './chart-filters.ts';
import type { ChartTreeNode } from './chart-tree.ts';
import { buildChartTree, pathsToPicked, toggleTreeNode, treeCheckState } from './chart-tree.ts';

interface TreeChartProps {
  items: ChartItem[];
  picked: ChartValue[];
  onChange: (picked: ChartValue[]) => void;
}

const INDENT_PX = 16;

interface NodeProps {
  node: ChartTreeNode;
  level: number;
  ancestorPicked: boolean;
  picked: ChartValue[];
  expanded: ReadonlySet<string>;
  onExpand: (id: string) => void;
  onToggle: (node: ChartTreeNode) => void;
}

function TreeChartNode({ node, level, ancestorPicked, picked, expanded, onExpand, onToggle }: NodeProps) {
  const id = String(node.item.id);
  const open = expanded.has(id);
  const state = treeCheckState(node, picked, ancestorPicked);
  const hasChildren = node.children.length > 0;
  return (
    <li role="treeitem" aria-expanded={hasChildren ? open : undefined} aria-selected={state === 'checked'} data-value={id}>
      <Group gap={4} wrap="nowrap" pl={level * INDENT_PX}>
        {hasChildren ? (
          <ActionIcon
            size="xs"
            variant="subtle"
            color="gray"
            onClick={() => onExpand(id)}
            aria-label={`${open ? 'Close' : 'Open'} ${node.item.label}`}
          >
            {open ? <IconChevronDown size={12} /> : <IconChevronRight size={12} />}
          </ActionIcon>
        ) : (
          <Box w={18} />
        )}
        <Checkbox
          size="xs"
          checked={state === 'checked' || state === 'covered'}
          indeterminate={state === 'partial'}
          // A node under a picked class is in the filter already; it is picked through its ancestor.
          disabled={state === 'covered'}
          onChange={() => onToggle(node)}
          aria-label={node.item.label}
          label={
            <Text size="xs" span title={node.item.label} lineClamp={1}>
              {node.item.label}
            </Text>
          }
          styles={{ body: { alignItems: 'center' }, labelWrapper: { minWidth: 0 } }}
          style={{ flex: 1, minWidth: 0 }}
        />
        <Text size="xs" c="dimmed">
          {formatCount(node.item.count)}
        </Text>
      </Group>
      {hasChildren && open && (
        <ul role="group" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {node.children.map((child) => (
            <TreeChartNode
              key={String(child.item.id)}
              node={child}
              level={level + 1}
              ancestorPicked={ancestorPicked || state === 'checked'}
              picked={picked}
              expanded={expanded}
              onExpand={onExpand}
              onToggle={onToggle}
            />
          ))}
        </ul>
      )}
    </li>
  );
}

/**
 * A Tree chart: classes with their counts, opened level by level; checking a class picks it with
 * everything under it (its `ids`). The path to each applied node starts open.
 */
export function TreeChart({ items, picked, onChange }: TreeChartProps) {
  const roots = useMemo(() => buildChartTree(items), [items]);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => pathsToPicked(roots, picked));
  const toggleExpanded = (id: string) =>
    setExpanded((previous) => {
      const next = new Set(previous);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  return (
    <ul role="tree" aria-multiselectable="true" style={{ listStyle: 'none', margin: 0, padding: 0, maxHeight: 320, overflowY: 'auto' }}>
      {roots.map((root) => (
        <TreeChartNode
          key={String(root.item.id)}
          node={root}
          level={0}
          ancestorPicked={false}
          picked={picked}
          expanded={expanded}
          onExpand={toggleExpanded}
          onToggle={(node) => onChange(toggleTreeNode(picked, node))}
        />
      ))}
    </ul>
  );
}
