import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import type { ReactNode } from 'react';
import { useState } from 'react';

const NAME_MAX = 200;

/** Why a name cannot be saved, or null (the contract: 1–200 characters after trimming). */
export function nameError(name: string): string | null {
  const trimmed = name.trim();
  if (!trimmed) return 'Give it a name';
  if (trimmed.length > NAME_MAX) return `A name is at most ${NAME_MAX} characters`;
  return null;
}

export interface NameDialogProps {
  opened: boolean;
  title: string;
  label?: string;
  initial?: string;
  submitLabel: string;
  busy?: boolean;
  /** Shown under the name (what will be saved). */
  children?: ReactNode;
  onSubmit: (name: string) => void;
  onClose: () => void;
}

/** Asks for a name (new collection, rename, save result set); Enter submits. */
export function NameDialog({ opened, onClose, ...props }: NameDialogProps) {
  return (
    <Modal opened={opened} onClose={onClose} title={props.title} centered>
      {/* Mounted while open: each opening starts from `initial`. */}
      {opened && <NameForm {...props} onClose={onClose} />}
    </Modal>
  );
}

function NameForm({
  label = 'Name',
  initial = '',
  submitLabel,
  busy,
  children,
  onSubmit,
  onClose,
}: Omit<NameDialogProps, 'opened' | 'title'>) {
  const [name, setName] = useState(initial);
  const [touched, setTouched] = useState(false);
  const error = touched ? nameError(name) : null;
  const submit = () => {
    setTouched(true);
    if (nameError(name) === null) onSubmit(name.trim());
  };
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <Stack gap="sm">
        <TextInput
          label={label}
          value={name}
          onChange={(event) => setName(event.currentTarget.value)}
          error={error}
          maxLength={NAME_MAX + 20}
          data-autofocus
          data-testid="name-input"
        />
        {children}
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={busy} data-testid="name-submit">
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
