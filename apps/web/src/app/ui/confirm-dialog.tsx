import { Button, Group, Modal, Text } from '@mantine/core';
import { useCallback, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import { CONFIRMATION_TEXT } from '@kb/contracts/search';

export interface ConfirmOptions {
  title: string;
  detail?: ReactNode;
  confirmLabel?: string;
}

/**
 * The promise behind a confirmation dialog, whatever it looks like: `confirm(options)` opens it and
 * resolves true when `close(true)` is called, false on `close(false)` (cancel, Escape, closing) or
 * when another confirmation replaces it. `pending` is what the open dialog shows (null: closed).
 */
export function usePendingConfirmation<O>(): {
  pending: O | null;
  confirm: (options: O) => Promise<boolean>;
  close: (ok: boolean) => void;
} {
  const [pending, setPending] = useState<O | null>(null);
  const resolveRef = useRef<((ok: boolean) => void) | null>(null);
  const confirm = useCallback(
    (options: O) =>
      new Promise<boolean>((resolve) => {
        resolveRef.current?.(false);
        resolveRef.current = resolve;
        setPending(options);
      }),
    [],
  );
  const close = useCallback((ok: boolean) => {
    resolveRef.current?.(ok);
    resolveRef.current = null;
    setPending(null);
  }, []);
  return { pending, confirm, close };
}

/**
 * Spec §5 default confirmation ("Are you sure to proceed with current input?") as a dialog:
 * `confirm()` resolves true on the confirm button, false on cancel, Escape or closing.
 */
export function useConfirm(): [(options: ConfirmOptions) => Promise<boolean>, ReactNode] {
  const { pending, confirm, close } = usePendingConfirmation<ConfirmOptions>();

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
          {pending?.confirmLabel ?? 'Proceed'}
        </Button>
      </Group>
    </Modal>
  );
  return [confirm, dialog];
}
