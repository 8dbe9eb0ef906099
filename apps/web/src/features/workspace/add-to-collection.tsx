import { Alert, Button, Group, Modal, SegmentedControl, Select, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import type { CompoundSource } from '@kb/contracts/workspace';
import { formatCount } from '../../app/format/count-format.ts';
import { countNoun } from '../../app/format/plural.ts';
import { nameError } from './name-dialog.tsx';
import { ToastLink, workspaceLink } from './permanent-link.tsx';
import { useAddItems, useCollections, useCreateCollection } from './workspace-queries.ts';

export interface AddToCollectionProps {
  /** The compounds to add; null: the dialog is closed. */
  source: CompoundSource | null;
  /** What is added, in words ("the 20 ticked rows", "all 1,204 rows of this tab"). */
  what: string;
  onClose: () => void;
}

function announce(name: string, id: number, added: number, already: number, total: number) {
  notifications.show({
    color: 'teal',
    title: `Added to “${name}”`,
    message: (
      <Text size="sm">
        {countNoun(added, 'compound')} added{already > 0 ? `, ${formatCount(already)} already in it` : ''}; it holds {formatCount(total)}.{' '}
        <ToastLink to={workspaceLink('collection', id)} testId="added-collection-link">
          Open the collection
        </ToastLink>
      </Text>
    ),
  });
}

/** "Add to collection": into one the user may change, or into a new one made of these compounds. */
export function AddToCollectionDialog({ source, what, onClose }: AddToCollectionProps) {
  return (
    <Modal opened={source !== null} onClose={onClose} title="Add to collection" centered>
      {source && <AddForm source={source} what={what} onClose={onClose} />}
    </Modal>
  );
}

function AddForm({ source, what, onClose }: { source: CompoundSource; what: string; onClose: () => void }) {
  const collections = useCollections();
  const editable = (collections.data?.rows ?? []).filter((row) => row.canEdit);
  const [mode, setMode] = useState<'existing' | 'new'>('new');
  const [chosen, setChosen] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [tried, setTried] = useState(false);
  const add = useAddItems();
  const create = useCreateCollection();
  const useExisting = mode === 'existing' && editable.length > 0;
  const error = !tried ? null : useExisting ? (chosen ? null : 'Choose a collection') : nameError(name);

  const submit = () => {
    setTried(true);
    if (useExisting) {
      const target = editable.find((row) => String(row.id) === chosen);
      if (!target) return;
      add.mutate(
        { id: target.id, source },
        {
          onSuccess: (answer) => {
            announce(target.name, target.id, answer.changed, answer.unchanged, answer.compounds);
            onClose();
          },
        },
      );
      return;
    }
    if (nameError(name)) return;
    create.mutate(
      { name: name.trim(), source },
      {
        onSuccess: (created) => {
          announce(created.name, created.id, created.compounds, 0, created.compounds);
          onClose();
        },
      },
    );
  };

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <Stack gap="sm" data-testid="add-to-collection">
        <Text size="sm">Adds the compounds of {what}.</Text>
        <SegmentedControl
          value={mode}
          onChange={(value) => setMode(value as 'existing' | 'new')}
          data={[
            { value: 'new', label: 'New collection' },
            { value: 'existing', label: 'Existing collection', disabled: editable.length === 0 },
          ]}
          data-testid="add-mode"
        />
        {useExisting ? (
          <Select
            label="Collection"
            placeholder="Choose one"
            searchable
            data={editable.map((row) => ({ value: String(row.id), label: `${row.name} (${formatCount(row.compounds)})` }))}
            value={chosen}
            onChange={setChosen}
            error={error}
            data-testid="add-existing"
          />
        ) : (
          <TextInput
            label="Name of the new collection"
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
            error={error}
            data-autofocus
            data-testid="name-input"
          />
        )}
        {collections.isError && (
          <Alert color="yellow" variant="light">
            Your collections could not load; you can still make a new one.
          </Alert>
        )}
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={add.isPending || create.isPending} data-testid="add-submit">
            Add
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
