import { Button, Group, Popover, Stack, Text } from '@mantine/core';
import type { ButtonProps } from '@mantine/core';
import { useState } from 'react';
import type { ReactNode } from 'react';

/**
 * A button whose action asks first, in a popover beside it (focus moves into it and back on
 * close, Escape cancels). Used for actions that cannot be undone: deleting a file, cancelling a
 * request.
 */
export function ConfirmButton({
  question,
  confirmLabel,
  onConfirm,
  loading,
  disabled,
  children,
  testId,
  ...buttonProps
}: Omit<ButtonProps, 'children'> & {
  question: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  disabled?: boolean;
  children: ReactNode;
  testId?: string;
}) {
  const [opened, setOpened] = useState(false);
  return (
    <Popover opened={opened} onChange={setOpened} trapFocus returnFocus withArrow position="bottom-end" shadow="md">
      <Popover.Target>
        <Button {...buttonProps} loading={loading} disabled={disabled} onClick={() => setOpened((open) => !open)} data-testid={testId}>
          {children}
        </Button>
      </Popover.Target>
      <Popover.Dropdown maw={300}>
        <Stack gap="xs">
          <Text size="sm">{question}</Text>
          <Group justify="flex-end" gap="xs">
            <Button size="xs" variant="default" onClick={() => setOpened(false)}>
              Keep
            </Button>
            <Button
              size="xs"
              color="red"
              data-testid={testId ? `${testId}-confirm` : undefined}
              onClick={() => {
                setOpened(false);
                onConfirm();
              }}
            >
              {confirmLabel}
            </Button>
          </Group>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
