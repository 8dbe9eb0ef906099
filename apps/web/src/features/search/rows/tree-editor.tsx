import { Button, Group, Pill, Stack, Text } from '@mantine/core';
import type { TreePick } from '../builder/row-drafts.ts';
import { formatCount } from '../../../app/format/count-format.ts';
import { NamesSelector } from '../trees/names-selector.tsx';
import { TreePanel } from '../trees/tree-panel.tsx';
import type { EditorProps } from './editor-props.ts';

function toggle(nodes: readonly TreePick[], pick: TreePick): TreePick[] {
  return nodes.some((node) => node.id === pick.id) ? nodes.filter((node) => node.id !== pick.id) : [...nodes, pick];
}

/** A tree-view row: the selection made in the tree becomes the row (spec §2 tree views). */
export function TreeEditor({ draft, errors, update }: EditorProps<'treeview'>) {
  return (
    <Stack gap="xs">
      <TreePanel view={draft.tree} selected={draft.nodes} onToggle={(pick) => update((d) => ({ ...d, nodes: toggle(d.nodes, pick) }))} />
      <NamesSelector
        view={draft.tree}
        onFound={(picks) =>
          update((d) => ({ ...d, nodes: [...d.nodes, ...picks.filter((pick) => !d.nodes.some((node) => node.id === pick.id))] }))
        }
      />
      <Group gap={6} aria-live="polite" data-testid="tree-selection">
        {draft.nodes.length === 0 ? (
          <Text size="xs" c="dimmed">
            Nothing selected yet: tick entries in the tree (Space selects the focused entry). An entry includes everything below it.
          </Text>
        ) : (
          <>
            <Text size="xs" fw={600}>
              Selected:
            </Text>
            {draft.nodes.map((node) => (
              <Pill
                key={node.id}
                withRemoveButton
                onRemove={() => update((d) => ({ ...d, nodes: d.nodes.filter((n) => n.id !== node.id) }))}
                removeButtonProps={{ 'aria-label': `Remove ${node.label}` }}
              >
                {node.label}
                {node.count !== undefined ? ` (${formatCount(node.count)})` : ''}
              </Pill>
            ))}
            <Button size="compact-xs" variant="subtle" color="gray" onClick={() => update((d) => ({ ...d, nodes: [] }))}>
              Clear
            </Button>
          </>
        )}
      </Group>
      {errors.nodeIds && (
        <Text size="xs" c="red" role="alert">
          {errors.nodeIds}
        </Text>
      )}
    </Stack>
  );
}
