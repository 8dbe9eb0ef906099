import { Alert, Button, Group, Modal, SegmentedControl, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import type { CollectionDetail } from '@kb/contracts/workspace';
import { errorMessage } from '../../../app/api-client.ts';
import { nameError } from '../name-dialog.tsx';
import { workspaceLink } from '../permanent-link.tsx';
import { useCreateCollection } from '../workspace-queries.ts';
import type { UploadFormat } from './upload-format.ts';
import { uploadTextError } from './upload-format.ts';
import { UploadInput, UploadReport, useUpload } from './upload-panel.tsx';

/**
 * "New collection": a name, and the compounds now or later (an empty one is filled from a results
 * tab, a sheet or an upload on its page). Pasted compounds are sent as an upload once it exists;
 * the report stays in the dialog so the unmatched lines can be read before going on.
 */
export function NewCollectionDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  return (
    <Modal opened={opened} onClose={onClose} title="New collection" size="lg" centered>
      {opened && <NewCollectionForm onClose={onClose} />}
    </Modal>
  );
}

function NewCollectionForm({ onClose }: { onClose: () => void }) {
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [fill, setFill] = useState<'empty' | 'paste'>('empty');
  const [text, setText] = useState('');
  const [fileName, setFileName] = useState<string | undefined>();
  const [format, setFormat] = useState<UploadFormat>('smiles');
  const [tried, setTried] = useState(false);
  const [created, setCreated] = useState<CollectionDetail | null>(null);
  const create = useCreateCollection();
  const upload = useUpload();
  const errors = { name: tried ? nameError(name) : null, text: tried && fill === 'paste' ? uploadTextError(text) : null };

  const submit = async () => {
    setTried(true);
    if (nameError(name) || (fill === 'paste' && uploadTextError(text))) return;
    const collection = created ?? (await create.mutateAsync({ name: name.trim() }).catch(() => null));
    if (!collection) return;
    setCreated(collection);
    if (fill === 'empty') {
      onClose();
      navigate(workspaceLink('collection', collection.id));
      return;
    }
    upload.mutate({ id: collection.id, text, format, fileName });
  };

  const open = () => {
    onClose();
    if (created) navigate(workspaceLink('collection', created.id));
  };

  return (
    <Stack gap="sm" data-testid="new-collection">
      <TextInput
        label="Name"
        value={name}
        onChange={(event) => setName(event.currentTarget.value)}
        error={errors.name}
        disabled={created !== null}
        data-autofocus
        data-testid="name-input"
      />
      <SegmentedControl
        value={fill}
        onChange={(value) => setFill(value as 'empty' | 'paste')}
        data={[
          { value: 'empty', label: 'Empty' },
          { value: 'paste', label: 'Paste or upload compounds' },
        ]}
        disabled={upload.isSuccess}
      />
      {fill === 'paste' && !upload.isSuccess && (
        <UploadInput
          text={text}
          format={format}
          onText={(next, file) => {
            setText(next);
            setFileName(file);
          }}
          onFormat={setFormat}
        />
      )}
      {errors.text && (
        <Alert color="red" variant="light" role="alert">
          {errors.text}
        </Alert>
      )}
      {upload.isError && (
        <Alert color="red" variant="light" role="alert" title={`“${created?.name}” was created, but the compounds were refused`}>
          {errorMessage(upload.error)}
        </Alert>
      )}
      {upload.data && <UploadReport result={upload.data} />}
      <Group justify="flex-end" gap="xs">
        {upload.isSuccess ? (
          <Button onClick={open} data-testid="open-new-collection">
            Open the collection
          </Button>
        ) : (
          <>
            <Button variant="default" onClick={created ? open : onClose}>
              {created ? 'Open it without these compounds' : 'Cancel'}
            </Button>
            <Button onClick={() => void submit()} loading={create.isPending || upload.isPending} data-testid="create-collection">
              {created ? 'Try the upload again' : 'Create'}
            </Button>
          </>
        )}
      </Group>
    </Stack>
  );
}
