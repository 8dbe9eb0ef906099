import { ActionIcon, Menu } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDots, IconPencil, IconShare, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useConfirm } from '../../../app/ui/confirm-dialog.tsx';
import { NameDialog } from '../name-dialog.tsx';
import { SharingDialog } from '../sharing/sharing-dialog.tsx';
import type { WorkspaceKind } from '../workspace-queries.ts';
import { useDelete, useRename } from '../workspace-queries.ts';

export interface OwnedObject {
  id: number;
  name: string;
  mine: boolean;
  canEdit: boolean;
}

const NOUN: Record<WorkspaceKind, string> = { collection: 'collection', resultSet: 'saved result set' };

/**
 * Share, rename and delete for one collection or saved result set, each offered only to who may do
 * it: the owner shares and deletes, an editor renames. A colleague who may only read sees no menu.
 */
export function OwnedMenu({ kind, item, onDeleted }: { kind: WorkspaceKind; item: OwnedObject; onDeleted?: () => void }) {
  const [sharing, setSharing] = useState(false);
  const [renaming, setRenaming] = useState(false);
  const rename = useRename(kind);
  const remove = useDelete(kind);
  const [confirm, confirmDialog] = useConfirm();
  if (!item.mine && !item.canEdit) return null;

  const askDelete = async () => {
    const ok = await confirm({
      title: `Delete “${item.name}”?`,
      detail: `The ${NOUN[kind]} is deleted for you and everyone it is shared with; this cannot be undone.`,
      confirmLabel: 'Delete',
    });
    if (!ok) return;
    remove.mutate(item.id, {
      onSuccess: () => {
        notifications.show({ color: 'teal', title: 'Deleted', message: `“${item.name}” is deleted.` });
        onDeleted?.();
      },
    });
  };

  return (
    <>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <ActionIcon
            variant="subtle"
            color="gray"
            aria-label={`More actions for ${item.name}`}
            data-testid="owned-menu"
            loading={remove.isPending}
          >
            <IconDots size={16} />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          {item.mine && (
            <Menu.Item leftSection={<IconShare size={14} />} onClick={() => setSharing(true)} data-testid="action-share">
              Share…
            </Menu.Item>
          )}
          <Menu.Item leftSection={<IconPencil size={14} />} onClick={() => setRenaming(true)} data-testid="action-rename">
            Rename…
          </Menu.Item>
          {item.mine && (
            <Menu.Item color="red" leftSection={<IconTrash size={14} />} onClick={() => void askDelete()} data-testid="action-delete">
              Delete…
            </Menu.Item>
          )}
        </Menu.Dropdown>
      </Menu>
      <SharingDialog target={sharing ? { kind, id: item.id, name: item.name } : null} onClose={() => setSharing(false)} />
      <NameDialog
        opened={renaming}
        title={`Rename “${item.name}”`}
        initial={item.name}
        submitLabel="Rename"
        busy={rename.isPending}
        onClose={() => setRenaming(false)}
        onSubmit={(name) => rename.mutate({ id: item.id, name }, { onSuccess: () => setRenaming(false) })}
      />
      {confirmDialog}
    </>
  );
}
