import { Button, Card, Group, Stack, Text, Title, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPlus } from '@tabler/icons-react';
import { Fragment, useEffect, useState } from 'react';
import type { SelectedOption, TreeView } from '@kb/contracts/search';
import { useSearchBuilderStore } from './search-builder-store.ts';
import { SEARCH_GROUPS, rowKindOf } from '../search-options.ts';
import type { BuiltSearch } from './row-criteria.ts';
import { rowHasValue } from './row-criteria.ts';
import { rowTitle } from './row-drafts.ts';
import { OperatorControl, RowCard } from './row-card.tsx';
import classes from './search-builder.module.css';

/** Focuses the first field of a row (after it was added) and brings it into view. */
export function focusRow(key: string): void {
  requestAnimationFrame(() => {
    const row = document.getElementById(`row-${key}`);
    if (!row) return;
    row.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
    row
      .querySelector<HTMLElement>(
        'input:not([type="hidden"]):not([disabled]):not([tabindex="-1"]), textarea, [role="treeitem"][tabindex="0"]',
      )
      ?.focus({ preventScroll: true });
  });
}

/** Spec §2 "Search builder": the three groupings, each option adding a row. */
function AddRowPanel({ onAdd, compact }: { onAdd: (option: SelectedOption, tree?: TreeView) => void; compact: boolean }) {
  return (
    <Card withBorder radius="md" padding={compact ? 'sm' : 'lg'} data-testid="add-row-panel">
      <Title order={2} size="h5" mb="xs">
        {compact ? 'Add a row' : 'Start with a row'}
      </Title>
      {!compact && (
        <Text size="sm" c="dimmed" mb="sm">
          Pick what to search by. Rows join with AND, OR or NOT; a row without a value is left out.
        </Text>
      )}
      <Stack gap="xs">
        {SEARCH_GROUPS.map((group) => (
          <div key={group.key} className={classes.group} role="group" aria-label={`${group.label} options`}>
            <Text size="xs" fw={700} tt="uppercase" c="dimmed" className={classes.groupLabel}>
              {group.label}
            </Text>
            <Group gap={6}>
              {group.options.map((option) => {
                const kind = rowKindOf(group, option);
                if (!kind) return null;
                return (
                  <Tooltip key={option.key} label={option.hint} openDelay={400}>
                    <Button
                      size="compact-sm"
                      variant="light"
                      leftSection={<IconPlus size={12} />}
                      onClick={() => (kind.selectedOption === 'treeview' ? onAdd('treeview', kind.tree) : onAdd(kind.selectedOption))}
                      aria-label={`Add ${group.key === 'treeview' ? `${option.label} tree` : option.label} row`}
                    >
                      {option.label}
                    </Button>
                  </Tooltip>
                );
              })}
            </Group>
          </div>
        ))}
      </Stack>
    </Card>
  );
}

/**
 * The rows of the search with the operators between them, and the panel that adds rows. Field
 * errors show once the user tried to search (`built` then carries them) and follow every edit.
 */
export function SearchBuilder({ built, showErrors }: { built: BuiltSearch; showErrors: boolean }) {
  const rows = useSearchBuilderStore((state) => state.rows);
  const addRow = useSearchBuilderStore((state) => state.addRow);
  const updateRow = useSearchBuilderStore((state) => state.updateRow);
  const setOperator = useSearchBuilderStore((state) => state.setOperator);
  const moveRow = useSearchBuilderStore((state) => state.moveRow);
  const removeRow = useSearchBuilderStore((state) => state.removeRow);
  const restoreRow = useSearchBuilderStore((state) => state.restoreRow);
  const [moved, setMoved] = useState<string | null>(null);

  // Keep the focus on the moved row's controls after it changed place.
  useEffect(() => {
    if (!moved) return;
    document.getElementById(`row-${moved}`)?.scrollIntoView({ block: 'nearest' });
    setMoved(null);
  }, [moved, rows]);

  const add = (option: SelectedOption, tree?: TreeView) => focusRow(addRow(option, tree));

  const remove = (key: string) => {
    const removed = removeRow(key);
    if (!removed) return;
    const id = `row-removed-${key}`;
    // Nothing is lost by a slip of the mouse: the row can come back from the notification.
    notifications.show({
      id,
      color: 'gray',
      message: (
        <Group justify="space-between" gap="xs" wrap="nowrap">
          <Text size="sm">Removed the {rowTitle(removed.draft)} row.</Text>
          <Button
            size="compact-xs"
            variant="light"
            onClick={() => {
              restoreRow(removed.draft, removed.index);
              notifications.hide(id);
            }}
          >
            Undo
          </Button>
        </Group>
      ),
    });
  };

  return (
    <Stack gap="sm" data-testid="search-builder">
      {rows.map((draft, index) => (
        <Fragment key={draft.key}>
          <RowCard
            draft={draft}
            index={index}
            count={rows.length}
            errors={showErrors ? (built.rowErrors[draft.key] ?? {}) : {}}
            empty={!rowHasValue(draft)}
            update={(change) => updateRow(draft.key, change)}
            onMove={(delta) => {
              moveRow(draft.key, delta);
              setMoved(draft.key);
            }}
            onRemove={() => remove(draft.key)}
          />
          {index < rows.length - 1 && (
            <OperatorControl
              value={draft.operator}
              onChange={(operator) => setOperator(draft.key, operator)}
              between={[index + 1, index + 2]}
            />
          )}
        </Fragment>
      ))}
      <AddRowPanel onAdd={add} compact={rows.length > 0} />
    </Stack>
  );
}
