import {
  ActionIcon,
  Anchor,
  Box,
  Button,
  Checkbox,
  Group,
  Loader,
  Paper,
  ScrollArea,
  Stack,
  Text,
  TextInput,
  UnstyledButton,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconChevronDown, IconChevronRight, IconSearch, IconX } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { createContext, useContext, useEffect, useRef, useState } from 'react';
import type { KeyboardEvent } from 'react';
import type { TreeNode } from '@kb/contracts/trees';
import type { TreeView } from '@kb/contracts/search';
import { errorMessage } from '../../../app/api-client.ts';
import type { TreePick } from '../builder/row-drafts.ts';
import { TREE_LABELS } from '../builder/row-drafts.ts';
import { formatCount } from '../../../app/format/count-format.ts';
import type { TreeSearchHit } from './tree-api.ts';
import { TREE_ROOT, ancestorsOf, fetchTreeChildren, pathLabel, searchTree } from './tree-api.ts';
import { countNoun } from '../../../app/format/plural.ts';
import classes from './tree-panel.module.css';

/** What every node of one panel shares: expansion, focus, selection. */
interface TreeContextValue {
  view: TreeView;
  expanded: ReadonlySet<string>;
  toggleExpanded: (id: string, open?: boolean) => void;
  focusedId: string | null;
  setFocusedId: (id: string) => void;
  selected: ReadonlySet<string>;
  toggleSelected: (node: TreeNode) => void;
  /** Nodes seen so far, for the keyboard handler (Space selects the focused node). */
  nodes: Map<string, TreeNode>;
  revealId: string | null;
  revealed: () => void;
}

const TreeContext = createContext<TreeContextValue | null>(null);

function useTreeContext(): TreeContextValue {
  const value = useContext(TreeContext);
  if (!value) throw new Error('Tree nodes render inside a TreePanel');
  return value;
}

/**
 * A node with no data under it (count 0) cannot be picked: the search would match nothing. One
 * picked before (a saved search from when it had data) can still be unpicked.
 */
export function isSelectable(node: Pick<TreeNode, 'count'>, selected: boolean): boolean {
  return node.count > 0 || selected;
}

const NO_DATA_TITLE = 'No structures have data under this entry, so it cannot be selected';

export function toPick(node: TreeNode): TreePick {
  return { id: node.id, label: node.label, ids: node.ids.length > 0 ? node.ids : [node.id], count: node.count };
}

/** Children of one node, loaded when the node is first opened (and kept by the query cache). */
function TreeLevel({ parentId, level }: { parentId: string; level: number }) {
  const { view } = useTreeContext();
  const query = useQuery({
    queryKey: ['tree', view, parentId],
    queryFn: ({ signal }) => fetchTreeChildren(view, parentId, signal),
    staleTime: 10 * 60_000,
  });
  if (query.isPending) {
    return (
      <li role="none" className={classes.status} style={{ paddingInlineStart: level * 18 }}>
        <Group gap={6}>
          <Loader size={12} />
          <Text size="xs" c="dimmed">
            Loading…
          </Text>
        </Group>
      </li>
    );
  }
  if (query.isError) {
    return (
      <li role="none" className={classes.status} style={{ paddingInlineStart: level * 18 }}>
        <Text size="xs" c="red" span role="alert">
          Could not load: {errorMessage(query.error)}{' '}
        </Text>
        <Anchor component="button" type="button" size="xs" onClick={() => void query.refetch()}>
          Try again
        </Anchor>
      </li>
    );
  }
  if (query.data.nodes.length === 0) {
    return (
      <li role="none" className={classes.status} style={{ paddingInlineStart: level * 18 }}>
        <Text size="xs" c="dimmed">
          {parentId === TREE_ROOT ? 'This tree has no entries yet.' : 'No entries below this one.'}
        </Text>
      </li>
    );
  }
  return (
    <>
      {query.data.nodes.map((node) => (
        <TreeItem key={node.id} node={node} level={level} />
      ))}
    </>
  );
}

function TreeItem({ node, level }: { node: TreeNode; level: number }) {
  const tree = useTreeContext();
  const ref = useRef<HTMLLIElement>(null);
  const open = tree.expanded.has(node.id);
  const selected = tree.selected.has(node.id);
  const selectable = isSelectable(node, selected);
  tree.nodes.set(node.id, node);

  useEffect(() => {
    if (tree.revealId !== node.id || !ref.current) return;
    ref.current.scrollIntoView({ block: 'nearest' });
    ref.current.focus();
    tree.setFocusedId(node.id);
    tree.revealed();
  }, [tree, node.id]);

  return (
    <li
      ref={ref}
      role="treeitem"
      aria-level={level}
      aria-expanded={node.hasChildren ? open : undefined}
      aria-selected={selected}
      aria-disabled={selectable ? undefined : true}
      aria-label={`${node.label}, ${countNoun(node.count, 'structure')}${selectable ? '' : ', no data: cannot be selected'}`}
      data-node-id={node.id}
      data-has-children={node.hasChildren || undefined}
      tabIndex={tree.focusedId === node.id ? 0 : -1}
      className={classes.item}
      onFocus={(event) => {
        if (event.target === event.currentTarget) tree.setFocusedId(node.id);
      }}
    >
      <div
        className={classes.row}
        style={{ paddingInlineStart: (level - 1) * 18 }}
        data-selected={selected || undefined}
        data-disabled={selectable ? undefined : true}
        title={selectable ? undefined : NO_DATA_TITLE}
      >
        {node.hasChildren ? (
          <ActionIcon size="sm" variant="subtle" color="gray" tabIndex={-1} aria-hidden onClick={() => tree.toggleExpanded(node.id)}>
            {open ? <IconChevronDown size={14} /> : <IconChevronRight size={14} />}
          </ActionIcon>
        ) : (
          <span className={classes.spacer} />
        )}
        <Checkbox
          size="xs"
          tabIndex={-1}
          aria-hidden
          checked={selected}
          disabled={!selectable}
          onChange={() => tree.toggleSelected(node)}
        />
        <UnstyledButton tabIndex={-1} className={classes.label} disabled={!selectable} onClick={() => tree.toggleSelected(node)}>
          <Text size="sm" span>
            {node.label}
          </Text>
        </UnstyledButton>
        <Text size="xs" c="dimmed" className={classes.count} title="Structures with data under this entry">
          {formatCount(node.count)}
        </Text>
      </div>
      {open && node.hasChildren && (
        <ul role="group" className={classes.group}>
          <TreeLevel parentId={node.id} level={level + 1} />
        </ul>
      )}
    </li>
  );
}

/** WAI-ARIA tree keys: arrows move and open/close, Home/End jump, Space selects, Enter opens. */
function useTreeKeys(context: TreeContextValue) {
  return (event: KeyboardEvent<HTMLUListElement>) => {
    const current = (event.target as HTMLElement).closest<HTMLElement>('[role="treeitem"]');
    if (!current) return;
    const items = Array.from(event.currentTarget.querySelectorAll<HTMLElement>('[role="treeitem"]'));
    const index = items.indexOf(current);
    const id = current.dataset.nodeId ?? '';
    const focus = (element: HTMLElement | undefined | null) => {
      if (!element) return;
      element.focus();
      context.setFocusedId(element.dataset.nodeId ?? '');
    };
    const hasChildren = current.dataset.hasChildren !== undefined;
    const open = current.getAttribute('aria-expanded') === 'true';
    switch (event.key) {
      case 'ArrowDown':
        focus(items[index + 1]);
        break;
      case 'ArrowUp':
        focus(items[index - 1]);
        break;
      case 'Home':
        focus(items[0]);
        break;
      case 'End':
        focus(items[items.length - 1]);
        break;
      case 'ArrowRight':
        if (hasChildren && !open) context.toggleExpanded(id, true);
        else if (open) focus(current.querySelector<HTMLElement>('[role="treeitem"]'));
        break;
      case 'ArrowLeft':
        if (open) context.toggleExpanded(id, false);
        else focus(current.parentElement?.closest<HTMLElement>('[role="treeitem"]'));
        break;
      case 'Enter':
        if (hasChildren) context.toggleExpanded(id);
        break;
      case ' ': {
        const node = context.nodes.get(id);
        if (node) context.toggleSelected(node);
        break;
      }
      default:
        return;
    }
    event.preventDefault();
    event.stopPropagation();
  };
}

function SearchHits({ hits, onReveal }: { hits: TreeSearchHit[]; onReveal: (hit: TreeSearchHit) => void }) {
  const tree = useTreeContext();
  if (hits.length === 0) return null;
  return (
    <Stack gap={2} role="list" aria-label="Matching entries">
      {hits.map((hit) => (
        <Group key={hit.node.id} gap="xs" wrap="nowrap" role="listitem" className={classes.hit}>
          <Checkbox
            size="xs"
            checked={tree.selected.has(hit.node.id)}
            disabled={!isSelectable(hit.node, tree.selected.has(hit.node.id))}
            title={isSelectable(hit.node, tree.selected.has(hit.node.id)) ? undefined : NO_DATA_TITLE}
            onChange={() => tree.toggleSelected(hit.node)}
            label={
              <span>
                {hit.node.label}
                {pathLabel(hit) && (
                  <Text span size="xs" c="dimmed">
                    {' '}
                    — {pathLabel(hit)}
                  </Text>
                )}
              </span>
            }
          />
          <Text size="xs" c="dimmed" ml="auto">
            {formatCount(hit.node.count)}
          </Text>
          <Button size="compact-xs" variant="subtle" onClick={() => onReveal(hit)}>
            Show in tree
          </Button>
        </Group>
      ))}
    </Stack>
  );
}

/**
 * One tree view (spec §2 "Tree views", §3 "Tree nodes"): children load when a node is opened,
 * each node shows how many structures have data under it, a search finds entries anywhere in the
 * tree, and any number of entries can be selected (a selected entry includes everything below it).
 */
export function TreePanel({
  view,
  selected,
  onToggle,
}: {
  view: TreeView;
  selected: readonly TreePick[];
  onToggle: (pick: TreePick) => void;
}) {
  const [expanded, setExpanded] = useState<Set<string>>(() => new Set());
  const [focusedId, setFocusedId] = useState<string | null>(null);
  const [revealId, setRevealId] = useState<string | null>(null);
  const [term, setTerm] = useState('');
  const [debounced] = useDebouncedValue(term.trim(), 250);
  const nodes = useRef(new Map<string, TreeNode>()).current;
  const selectedIds = new Set(selected.map((pick) => pick.id));

  const search = useQuery({
    queryKey: ['tree-search', view, debounced],
    queryFn: ({ signal }) => searchTree(view, debounced, signal),
    enabled: debounced.length > 0,
    staleTime: 5 * 60_000,
  });

  const context: TreeContextValue = {
    view,
    expanded,
    toggleExpanded: (id, open) =>
      setExpanded((current) => {
        const next = new Set(current);
        if (open ?? !next.has(id)) next.add(id);
        else next.delete(id);
        return next;
      }),
    focusedId,
    setFocusedId,
    selected: selectedIds,
    // The one gate for clicks, Space and search hits alike.
    toggleSelected: (node) => {
      if (isSelectable(node, selectedIds.has(node.id))) onToggle(toPick(node));
    },
    nodes,
    revealId,
    revealed: () => setRevealId(null),
  };
  const onKeyDown = useTreeKeys(context);

  // The first node takes the tab stop until the user moves it.
  const rootData = useQuery({
    queryKey: ['tree', view, TREE_ROOT],
    queryFn: ({ signal }) => fetchTreeChildren(view, TREE_ROOT, signal),
    staleTime: 10 * 60_000,
  });
  useEffect(() => {
    if (focusedId === null && rootData.data?.nodes[0]) setFocusedId(rootData.data.nodes[0].id);
  }, [focusedId, rootData.data]);

  const reveal = (hit: TreeSearchHit) => {
    setExpanded((current) => new Set([...current, ...ancestorsOf(hit)]));
    setRevealId(hit.node.id);
  };

  const label = `${TREE_LABELS[view]} tree`;
  return (
    <TreeContext.Provider value={context}>
      <Stack gap="xs" data-testid={`tree-panel-${view}`}>
        <TextInput
          aria-label={`Search the ${label}`}
          placeholder={`Search the ${label.toLowerCase()}`}
          leftSection={<IconSearch size={14} />}
          rightSection={
            search.isFetching ? (
              <Loader size={14} />
            ) : term ? (
              <ActionIcon variant="subtle" color="gray" aria-label="Clear the tree search" onClick={() => setTerm('')}>
                <IconX size={14} />
              </ActionIcon>
            ) : null
          }
          value={term}
          onChange={(event) => setTerm(event.currentTarget.value)}
        />
        {debounced && (
          <Paper withBorder p="xs" radius="sm">
            {search.isError ? (
              <Text size="xs" c="red" role="alert">
                The tree search failed: {errorMessage(search.error)}
              </Text>
            ) : search.data && search.data.length === 0 ? (
              <Text size="xs" c="dimmed">
                No entries match “{debounced}”.
              </Text>
            ) : (
              <ScrollArea.Autosize mah={180}>
                <SearchHits hits={search.data ?? []} onReveal={reveal} />
              </ScrollArea.Autosize>
            )}
          </Paper>
        )}
        <ScrollArea.Autosize mah={360} type="auto" className={classes.scroller}>
          <Box component="ul" role="tree" aria-label={label} aria-multiselectable className={classes.tree} onKeyDown={onKeyDown}>
            <TreeLevel parentId={TREE_ROOT} level={1} />
          </Box>
        </ScrollArea.Autosize>
      </Stack>
    </TreeContext.Provider>
  );
}
