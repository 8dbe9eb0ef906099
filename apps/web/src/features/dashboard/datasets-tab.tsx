import { Alert, Badge, Button, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDownload, IconLock, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Dataset } from '@kb/contracts/datasets';
import { datasetEndpoints } from '@kb/contracts/datasets';
import { exportEndpoints } from '@kb/contracts/exports';
import { callApi, errorMessage } from '../../app/api-client.ts';
import { endpointKey, endpointQuery } from '../../app/query.ts';
import { ROLE_LABELS } from '../../app/role-labels.ts';
import { useSessionStore } from '../../app/stores/session-store.ts';
import { DataTable } from '../../app/ui/data-table.tsx';
import type { DataColumn } from '../../app/ui/data-table.tsx';
import { EmptyState, QueryView } from '../../app/ui/query-view.tsx';
import { ConfirmButton } from '../export/confirm-button.tsx';
import { invalidateCredits, saveStoredFile } from '../export/export-files.ts';
import { DatasetUploadForm } from './dataset-upload-form.tsx';
import { formatBytes, formatDate } from '../../app/format/display-format.ts';
import { useHasRole } from './use-roles.ts';

function DownloadDatasetButton({ dataset }: { dataset: Dataset }) {
  const download = useMutation({
    mutationFn: () => saveStoredFile(dataset.fileId, dataset.flatfileName),
    // The download is recorded in the download history.
    onSuccess: () => void invalidateCredits(),
    onError: (error) => notifications.show({ color: 'red', title: 'The dataset could not be downloaded', message: errorMessage(error) }),
  });
  return (
    <Button
      size="compact-sm"
      variant="light"
      leftSection={<IconDownload size={14} />}
      loading={download.isPending}
      onClick={() => download.mutate()}
      data-testid="dataset-download"
    >
      Download
    </Button>
  );
}

function DeleteDatasetButton({ dataset }: { dataset: Dataset }) {
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: () => callApi(exportEndpoints.deleteFile, { body: { fileId: dataset.fileId } }),
    onSuccess: () => {
      notifications.show({ color: 'green', message: `Deleted “${dataset.flatfileName}”.` });
      void queryClient.invalidateQueries({ queryKey: endpointKey(datasetEndpoints.list) });
    },
    onError: (error) => notifications.show({ color: 'red', title: 'The dataset could not be deleted', message: errorMessage(error) }),
  });
  return (
    <ConfirmButton
      size="compact-sm"
      variant="subtle"
      color="red"
      leftSection={<IconTrash size={14} />}
      loading={remove.isPending}
      question={`Delete “${dataset.flatfileName}”? Subscribers will no longer be able to download it.`}
      confirmLabel="Delete dataset"
      onConfirm={() => remove.mutate()}
      testId="dataset-delete"
    >
      Delete
    </ConfirmButton>
  );
}

function datasetColumns(admin: boolean): DataColumn<Dataset>[] {
  return [
    { key: 'type', header: 'Dataset type', cell: (dataset) => dataset.datasetType },
    {
      key: 'file',
      header: 'File',
      cell: (dataset) => (
        <Stack gap={0}>
          <Text size="sm">{dataset.flatfileName}</Text>
          {dataset.description && (
            <Text size="xs" c="dimmed">
              {dataset.description}
            </Text>
          )}
        </Stack>
      ),
    },
    { key: 'size', header: 'Size', align: 'right', cell: (dataset) => formatBytes(dataset.flatfileSize) },
    { key: 'uploaded', header: 'Uploaded', cell: (dataset) => formatDate(dataset.uploadedDate) },
    {
      key: 'roles',
      header: 'For',
      cell: (dataset) => (
        <Group gap={4}>
          {dataset.roles.map((role) => (
            <Badge key={role} size="sm" variant="light" tt="none" style={{ flexShrink: 0 }}>
              {ROLE_LABELS[role]}
            </Badge>
          ))}
        </Group>
      ),
    },
    {
      key: 'actions',
      header: 'Actions',
      cell: (dataset) => (
        <Group gap={6} wrap="nowrap">
          <DownloadDatasetButton dataset={dataset} />
          {admin && <DeleteDatasetButton dataset={dataset} />}
        </Group>
      ),
    },
  ];
}

function DatasetsTable({ rows, admin }: { rows: readonly Dataset[]; admin: boolean }) {
  return (
    <DataTable
      columns={datasetColumns(admin)}
      rows={rows}
      rowKey={(dataset) => dataset.id}
      rowData={(dataset) => ({ 'data-testid': 'dataset-row', 'data-file': dataset.flatfileName })}
      minWidth={820}
      verticalSpacing="sm"
      testId="datasets-table"
    />
  );
}

/** Spec §3 "Datasets": the flat files of the user's subscription; FLAT_FILE_ADMIN also uploads and deletes them. */
export function DatasetsTab() {
  const username = useSessionStore((state) => state.username);
  const admin = useHasRole('FLAT_FILE_ADMIN');
  const query = useQuery({
    ...endpointQuery(datasetEndpoints.list, { query: { userName: username ?? undefined } }),
    enabled: username !== null,
  });
  return (
    <Stack gap="md">
      {admin && <DatasetUploadForm />}
      <QueryView query={query}>
        {(data) =>
          !data.havingFlatFileAccess && !admin ? (
            <Alert
              color="gray"
              variant="light"
              icon={<IconLock size={18} />}
              title="No flat files in your subscription"
              data-testid="datasets-no-access"
            >
              Your subscription does not include flat files. Contact your account manager to add them, or ask for specific data under
              Requests for data.
            </Alert>
          ) : data.rows.length === 0 ? (
            <EmptyState>No flat-file datasets yet. Datasets shared with your subscription will appear here.</EmptyState>
          ) : (
            <DatasetsTable rows={data.rows} admin={admin} />
          )
        }
      </QueryView>
    </Stack>
  );
}
