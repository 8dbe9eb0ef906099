import { Button, Group, Text } from '@mantine/core';
import { NestedModal } from './nested-dialogs.tsx';
import { useCallback, useRef, useState } from 'react';
import type { ReactNode } from 'react';

export interface ConfirmOptions {
  title: string;
  /** What will happen, in the administrator's terms. */
  detail: ReactNode;
  confirmLabel: string;
  /** Red for what takes something away (end, deactivate, remove credits). */
  danger?: boolean;
}

interface Pending extends ConfirmOptions {
  resolve: (ok: boolean) => void;
}

/**
 * A confirmation before an account change: `confirm()` resolves true on the confirm button, false
 * on Cancel, Escape or closing. The confirm button has the focus, so Enter confirms.
 */
export function useConfirmAction(): [(options: ConfirmOptions) => Promise<boolean>, ReactNode] {
  const [pending, setPending] = useState<Pending | null>(null);
  const pendingRef = useRef<Pending | null>(null);
  const confirm = useCallback(
    (options: ConfirmOptions) =>
      new Promise<boolean>((resolve) => {
        pendingRef.current?.resolve(false);
        const next = { ...options, resolve };
        pendingRef.current = next;
        setPending(next);
      }),
    [],
  );
  const close = (ok: boolean) => {
    pendingRef.current?.resolve(ok);
    pendingRef.current = null;
    setPending(null);
  };
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
