import { Button, Group, Modal, Text } from '@mantine/core';
import { useCallback, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import { CONFIRMATION_TEXT } from '@kb/contracts/search';

interface Pending {
  title: string;
  detail?: ReactNode;
  confirmLabel: string;
  resolve: (ok: boolean) => void;
}

/**
 * Spec §5 default confirmation ("Are you sure to proceed with current input?") as a dialog:
 * `confirm()` resolves true on the confirm button, false on cancel, Escape or closing.
 */
export function useConfirm(): [(options: { title: string; detail?: ReactNode; confirmLabel?: string }) => Promise<boolean>, ReactNode] {
  const [pending, setPending] = useState<Pending | null>(null);
  const pendingRef = useRef<Pending | null>(null);

  const confirm = useCallback(
    (options: { title: string; detail?: ReactNode; confirmLabel?: string }) =>
      new Promise<boolean>((resolve) => {
        pendingRef.current?.resolve(false);
        const next = { title: options.title, detail: options.detail, confirmLabel: options.confirmLabel ?? 'Proceed', resolve };
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
    <Modal opened={pending !== null} onClose={() => close(false)} title={pending?.title} centered>
      <Text size="sm" mb="xs">
        {CONFIRMATION_TEXT}
      </Text>
      {pending?.detail && (
        <Text size="sm" c="dimmed" mb="md">
          {pending.detail}
        </Text>
      )}
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={() => close(false)}>
          Cancel
        </Button>
        <Button onClick={() => close(true)} data-autofocus>
          {pending?.confirmLabel}
        </Button>
      </Group>
    </Modal>
  );
  return [confirm, dialog];
}
