import { Button, Group, Stack, Text, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDownload, IconTrash } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import type { ExportJob } from '@kb/contracts/exports';
import { exportEndpoints } from '@kb/contracts/exports';
import { resultTabLabel } from '@kb/contracts/result-tabs';
import { callApi, errorMessage } from '../../app/api-client.ts';
import { formatBytes, formatDateTime } from '../../app/format/display-format.ts';
import { formatCount } from '../../app/format/count-format.ts';
import { ConfirmButton } from './confirm-button.tsx';
import { useSaveFile } from './export-job-card.tsx';
import { invalidateCredits } from './export-files.ts';
import { isActiveJob } from './export-scope.ts';
import { JobFailure, JobProgress, JobStatusBadge } from './job-status.tsx';
import { DataTable } from '../../app/ui/data-table.tsx';
import type { DataColumn } from '../../app/ui/data-table.tsx';

function useDeleteFile() {
  return useMutation({
    mutationFn: (fileId: number) => callApi(exportEndpoints.deleteFile, { body: { fileId } }),
    onSuccess: () => {
      notifications.show({ color: 'green', message: 'The file was deleted. Its entry stays in your download history.' });
      void invalidateCredits();
    },
    onError: (error) => notifications.show({ color: 'red', title: 'The file could not be deleted', message: errorMessage(error) }),
  });
}

function JobActions({ job }: { job: ExportJob }) {
  const save = useSaveFile();
  const remove = useDeleteFile();
  if (job.fileId === null) {
    return job.status === 'done' ? (
      <Text size="xs" c="dimmed">
        File deleted or expired
      </Text>
    ) : null;
  }
  const fileId = job.fileId;
  return (
    <Group gap={6} wrap="nowrap">
      <Button
        size="compact-sm"
        variant="light"
        leftSection={<IconDownload size={14} />}
        loading={save.isPending}
        onClick={() => save.mutate({ fileId, fileName: job.fileName })}
        data-testid="downloads-download"
      >
        Download
      </Button>
      <ConfirmButton
        size="compact-sm"
        variant="subtle"
        color="red"
        leftSection={<IconTrash size={14} />}
        loading={remove.isPending}
        question={`Delete “${job.fileName}”? Downloading it again will no longer be possible; its credits are not returned.`}
        confirmLabel="Delete file"
        onConfirm={() => remove.mutate(fileId)}
        testId="downloads-delete"
      >
        Delete file
      </ConfirmButton>
    </Group>
  );
}

const COLUMNS: readonly DataColumn<ExportJob>[] = [
  {
    key: 'file',
    header: 'File',
    cellProps: { miw: 180 },
    cell: (job) => (
      <Stack gap={0}>
        <Text size="sm" style={{ wordBreak: 'break-all' }}>
          {job.fileName}
        </Text>
        {job.fileSize !== null && (
          <Text size="xs" c="dimmed">
            {formatBytes(job.fileSize)}
          </Text>
        )}
      </Stack>
    ),
  },
  { key: 'tab', header: 'Tab', cell: (job) => resultTabLabel(job.tab) ?? job.tab },
  { key: 'format', header: 'Format', cellProps: { tt: 'uppercase' }, cell: (job) => job.format },
  { key: 'rows', header: 'Rows', align: 'right', cell: (job) => formatCount(job.rows) },
  { key: 'credits', header: 'Credits', align: 'right', cell: (job) => formatCount(job.credits) },
  {
    key: 'status',
    header: 'Status',
    cellProps: { miw: 160 },
    cell: (job) => (
      <Stack gap={4}>
        <JobStatusBadge status={job.status} />
        {isActiveJob(job) && <JobProgress job={job} testId="downloads-progress" />}
        {job.status === 'failed' && <JobFailure job={job} />}
      </Stack>
    ),
  },
  {
    key: 'created',
    header: 'Created',
    cellProps: { style: { whiteSpace: 'nowrap' } },
    cell: (job) => (
      <Stack gap={0}>
        <Text size="sm">{formatDateTime(job.createdAt)}</Text>
        {job.finishedAt && (
          <Text size="xs" c="dimmed">
            finished {formatDateTime(job.finishedAt)}
          </Text>
        )}
      </Stack>
    ),
  },
  { key: 'actions', header: <VisuallyHidden>Actions</VisuallyHidden>, cell: (job) => <JobActions job={job} /> },
];

/** The user's exports: what each holds, how far it got, and its file. */
export function ExportsTable({ jobs }: { jobs: readonly ExportJob[] }) {
  return (
    <DataTable
      columns={COLUMNS}
      rows={jobs}
      rowKey={(job) => job.id}
      rowData={(job) => ({ 'data-testid': 'downloads-row', 'data-job': job.id, 'data-status': job.status })}
      minWidth={960}
      verticalSpacing="sm"
      testId="downloads-table"
    />
  );
}
