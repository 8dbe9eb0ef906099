import { Button, Group, Popover, Stack, Text, Textarea } from '@mantine/core';
import { IconListSearch } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import type { TreeView } from '@kb/contracts/search';
import { errorMessage } from '../../../app/api-client.ts';
import type { TreePick } from '../builder/row-drafts.ts';
import { cleanTexts } from '../builder/row-criteria.ts';
import { findTreeNodesByName } from './tree-api.ts';
import { isSelectable, toPick } from './tree-panel.tsx';
import { formatCount } from '../../../app/format/count-format.ts';

/** Selects tree entries from a pasted list of names (spec §7 treeview …/bynamelist); names not found are listed. */
export function NamesSelector({ view, onFound }: { view: TreeView; onFound: (picks: TreePick[]) => void }) {
  const [opened, setOpened] = useState(false);
  const [text, setText] = useState('');
  const find = useMutation({
    mutationFn: (names: string[]) => findTreeNodesByName(view, names),
    onSuccess: (answer) => {
      // Entries without data are not selectable in the tree either: they would match nothing.
      onFound(answer.found.filter((hit) => isSelectable(hit.node, false)).map((hit) => toPick(hit.node)));
      if (answer.notFound.length === 0) {
        setOpened(false);
        setText('');
      }
    },
  });
  const names = cleanTexts(text.split(/[\n\r\t;,]+/));
  return (
    <Popover opened={opened} onChange={setOpened} position="bottom-start" width={360} trapFocus withinPortal>
      <Popover.Target>
        <Button size="compact-xs" variant="subtle" leftSection={<IconListSearch size={14} />} onClick={() => setOpened((value) => !value)}>
          Select by names
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap="xs">
          <Textarea
            label="Names, one per line"
            autosize
            minRows={4}
            maxRows={10}
            value={text}
            onChange={(event) => setText(event.currentTarget.value)}
            data-autofocus
          />
          {find.isError && (
            <Text size="xs" c="red" role="alert">
              {errorMessage(find.error)}
            </Text>
          )}
          {find.data && (
            <Text size="xs" role="status">
              {formatCount(find.data.found.filter((hit) => isSelectable(hit.node, false)).length)} selected.
              {find.data.found.some((hit) => !isSelectable(hit.node, false)) &&
                ` Without data, not selected: ${find.data.found
                  .filter((hit) => !isSelectable(hit.node, false))
                  .slice(0, 20)
                  .map((hit) => hit.node.label)
                  .join(', ')}.`}
              {find.data.notFound.length > 0 &&
                ` Not found: ${find.data.notFound.slice(0, 20).join(', ')}${find.data.notFound.length > 20 ? ` and ${find.data.notFound.length - 20} more` : ''}.`}
            </Text>
          )}
          <Group justify="flex-end">
            <Button size="xs" loading={find.isPending} disabled={names.length === 0} onClick={() => find.mutate(names.slice(0, 10_000))}>
              Find and select
            </Button>
          </Group>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
