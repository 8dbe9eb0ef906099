import {
  Alert,
  Button,
  Card,
  FileInput,
  Group,
  MultiSelect,
  Progress,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { IconUpload } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import type { DatasetType } from '@kb/contracts/datasets';
import { DATASET_ROLES, DATASET_TYPES, FLAT_FILE_MAX_BYTES, datasetEndpoints } from '@kb/contracts/datasets';
import type { Role } from '@kb/contracts/roles';
import { errorMessage, uploadApi } from '../../app/api-client.ts';
import { endpointKey } from '../../app/query.ts';
import { ROLE_LABELS } from '../../app/role-labels.ts';
import { FLAT_FILE_ACCEPT, uploadProblem, uploadQueryOf } from './dataset-upload.ts';
import { formatBytes } from '../../app/format/display-format.ts';

interface UploadValues {
  file: File | null;
  datasetType: DatasetType | null;
  roles: Role[];
  description: string;
}

/** FLAT_FILE_ADMIN: a dataset file for some subscription roles, sent with a progress bar and checked before it goes. */
export function DatasetUploadForm() {
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState(0);
  const abort = useRef<AbortController | null>(null);
  const form = useForm<UploadValues>({
    initialValues: { file: null, datasetType: null, roles: ['FULL_USER'], description: '' },
    validate: {
      file: (file) => (file ? uploadProblem(file) : 'Choose the file to upload.'),
      datasetType: (type) => (type ? null : 'Choose what the dataset holds.'),
      roles: (roles) => (roles.length > 0 ? null : 'Choose at least one role the dataset is for.'),
      description: (text) => (text.trim().length > 1000 ? 'Keep the description under 1,000 characters.' : null),
    },
  });

  const upload = useMutation({
    mutationFn: ({ file, datasetType, roles, description }: UploadValues) => {
      if (!file || !datasetType) throw new Error('Choose the file and its dataset type.');
      abort.current = new AbortController();
      setProgress(0);
      return uploadApi(datasetEndpoints.upload, { query: uploadQueryOf(file.name, { datasetType, roles, description }) }, file, {
        signal: abort.current.signal,
        onProgress: (fraction) => setProgress(Math.round(fraction * 100)),
      });
    },
    onSuccess: (dataset) => {
      notifications.show({ color: 'green', message: `Uploaded “${dataset.flatfileName}” (${formatBytes(dataset.flatfileSize)}).` });
      form.reset();
      void queryClient.invalidateQueries({ queryKey: endpointKey(datasetEndpoints.list) });
    },
    onSettled: () => {
      abort.current = null;
    },
  });

  return (
    <Card withBorder radius="md" padding="md" data-testid="dataset-upload">
      <form onSubmit={form.onSubmit((values) => upload.mutate(values))}>
        <Stack gap="sm">
          <Title order={5}>Upload a dataset</Title>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <FileInput
              label="File"
              description={`${FLAT_FILE_ACCEPT.replaceAll(',', ', ')}; at most ${formatBytes(FLAT_FILE_MAX_BYTES)}`}
              placeholder="Choose a file"
              accept={FLAT_FILE_ACCEPT}
              clearable
              withAsterisk
              data-testid="dataset-upload-file"
              key={form.key('file')}
              {...form.getInputProps('file')}
            />
            <Select
              label="Dataset type"
              data={DATASET_TYPES}
              withAsterisk
              data-testid="dataset-upload-type"
              key={form.key('datasetType')}
              {...form.getInputProps('datasetType')}
            />
            <MultiSelect
              label="For subscriptions of"
              data={DATASET_ROLES.map((role) => ({ value: role, label: ROLE_LABELS[role] }))}
              withAsterisk
              data-testid="dataset-upload-roles"
              key={form.key('roles')}
              {...form.getInputProps('roles')}
            />
            <Textarea
              label="Description"
              autosize
              minRows={1}
              maxRows={4}
              key={form.key('description')}
              {...form.getInputProps('description')}
            />
          </SimpleGrid>
          {upload.isPending && (
            <Stack gap={4} role="status" aria-live="polite">
              <Progress value={progress} animated aria-label={`Upload progress ${progress}%`} data-testid="dataset-upload-progress" />
              <Text size="xs" c="dimmed">
                {progress < 100 ? `Sending… ${progress}%` : 'Sent; the server is storing the file…'}
              </Text>
            </Stack>
          )}
          {upload.isError && (
            <Alert color="red" variant="light" role="alert" data-testid="dataset-upload-error">
              {errorMessage(upload.error)}
            </Alert>
          )}
          <Group gap="xs">
            <Button type="submit" leftSection={<IconUpload size={16} />} loading={upload.isPending} data-testid="dataset-upload-submit">
              Upload
            </Button>
            {upload.isPending && (
              <Button variant="default" onClick={() => abort.current?.abort()}>
                Cancel upload
              </Button>
            )}
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
