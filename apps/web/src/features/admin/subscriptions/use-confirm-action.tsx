import { Button, Group, Text } from '@mantine/core';
import { NestedModal } from './nested-dialogs.tsx';
import { usePendingConfirmation } from '../../../app/ui/confirm-dialog.tsx';
import type { ReactNode } from 'react';

export interface ConfirmOptions {
  title: string;
  /** What will happen, in the administrator's terms. */
  detail: ReactNode;
  confirmLabel: string;
  /** Red for what takes something away (end, deactivate, remove credits). */
  danger?: boolean;
}

/**
 * A confirmation before an account change: `confirm()` resolves true on the confirm button, false
 * on Cancel, Escape or closing. The confirm button has the focus, so Enter confirms. It opens above
 * the account's own dialog (NestedModal).
 */
export function useConfirmAction(): [(options: ConfirmOptions) => Promise<boolean>, ReactNode] {
  const { pending, confirm, close } = usePendingConfirmation<ConfirmOptions>();
  const dialog = (
    <NestedModal opened={pending !== null} onClose={() => close(false)} title={pending?.title} centered zIndex={400}>
      <Text size="sm">{pending?.detail}</Text>
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={() => close(false)}>
          Cancel
        </Button>
        <Button color={pending?.danger ? 'red' : undefined} onClick={() => close(true)} data-autofocus data-testid="confirm-action">
          {pending?.confirmLabel}
        </Button>
      </Group>
    </NestedModal>
  );
  return [confirm, dialog];
}
