import { Alert, Button, Group, Modal, Select, Stack, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { DatasetType } from '@kb/contracts/datasets';
import { DATASET_TYPES, DataRequestCreateSchema, datasetEndpoints } from '@kb/contracts/datasets';
import { callApi, errorMessage } from '../../app/api-client.ts';

interface RequestValues {
  datasetType: DatasetType | null;
  description: string;
}

/** The contract's own rule and message for a description, so the form and the server agree. */
function descriptionProblem(text: string): string | null {
  const parsed = DataRequestCreateSchema.shape.description.safeParse(text);
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? 'Describe the data you need.');
}

/** A new request for data: what kind of dataset and what is needed. */
export function RequestFormModal({ opened, onClose, onCreated }: { opened: boolean; onClose: () => void; onCreated: () => void }) {
  const form = useForm<RequestValues>({
    initialValues: { datasetType: null, description: '' },
    validate: {
      datasetType: (type) => (type ? null : 'Choose the kind of data you need.'),
      description: descriptionProblem,
    },
  });
  const create = useMutation({
    mutationFn: ({ datasetType, description }: RequestValues) =>
      callApi(datasetEndpoints.createRequest, { body: { datasetType: datasetType!, description: description.trim() } }),
    onSuccess: () => {
      notifications.show({ color: 'green', message: 'Your request was sent. Its status will change here as it is handled.' });
      form.reset();
      onCreated();
      onClose();
    },
  });
  // A reopened form starts clean: the previous attempt's error belongs to that attempt.
  const { reset } = create;
  useEffect(() => {
    if (opened) reset();
  }, [opened, reset]);
  return (
    <Modal opened={opened} onClose={onClose} title="New request for data" centered>
      <form onSubmit={form.onSubmit((values) => create.mutate(values))}>
        <Stack gap="sm">
          <Select
            label="Dataset type"
            data={DATASET_TYPES}
            withAsterisk
            data-autofocus
            data-testid="request-type"
            key={form.key('datasetType')}
            {...form.getInputProps('datasetType')}
          />
          <Textarea
            label="What do you need?"
            description="The records, fields, filters or time span you need, in a sentence or two."
            withAsterisk
            autosize
            minRows={3}
            maxLength={2000}
            data-testid="request-description"
            key={form.key('description')}
            {...form.getInputProps('description')}
          />
          {create.isError && (
            <Alert color="red" variant="light" role="alert">
              {errorMessage(create.error)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Close
            </Button>
            <Button type="submit" loading={create.isPending} data-testid="request-submit">
              Send request
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
