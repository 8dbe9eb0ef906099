import { Alert, Button, Card, Group, Stack, Text, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDownload } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import type { ExportJob } from '@kb/contracts/exports';
import { errorMessage } from '../../app/api-client.ts';
import { QueryErrorAlert } from '../../app/ui/query-view.tsx';
import { formatBytes } from '../../app/format/display-format.ts';
import { saveStoredFile } from './export-files.ts';
import { isActiveJob, jobStatusText } from './export-scope.ts';
import { JobFailure, JobProgress, JobStatusBadge } from './job-status.tsx';
import { useExportJob } from './use-export-job.ts';
import { countNoun } from '../../app/format/plural.ts';
import { formatCount } from '../../app/format/count-format.ts';

/** Saves a finished export's file; errors are notified with the server's message. */
export function useSaveFile() {
  return useMutation({
    mutationFn: ({ fileId, fileName }: { fileId: number; fileName: string }) => saveStoredFile(fileId, fileName),
    onError: (error) => notifications.show({ color: 'red', title: 'The file could not be downloaded', message: errorMessage(error) }),
  });
}

/**
 * The export just started: its progress while it runs, then its file or why it failed. Only the
 * status ("Running", "Ready", "Failed: …") is a live region; the moving percentage is not announced.
 */
export function ExportJobCard({ started, saveWhenDone = false }: { started: ExportJob; saveWhenDone?: boolean }) {
  const { job, error, retry } = useExportJob(started);
  const save = useSaveFile();
  // A job that was still running when it started is saved once it is done (the user asked for the file, and paid for it).
  const saved = useRef(started.status === 'done');
  useEffect(() => {
    if (!saveWhenDone || saved.current || job.status !== 'done' || job.fileId === null) return;
    saved.current = true;
    save.mutate({ fileId: job.fileId, fileName: job.fileName });
  }, [saveWhenDone, job.status, job.fileId, job.fileName, save]);
  return (
    <Card withBorder radius="md" padding="md" data-testid="export-job" data-status={job.status}>
      <VisuallyHidden role="status" aria-live="polite" aria-atomic="true" data-testid="export-job-status">
        {`${job.fileName}: ${jobStatusText(job)}`}
      </VisuallyHidden>
      <Stack gap="sm">
        <Group justify="space-between" gap="xs">
          <Text fw={600} size="sm">
            {job.fileName}
          </Text>
          <JobStatusBadge status={job.status} />
        </Group>
        {isActiveJob(job) && (
          <>
            <JobProgress job={job} testId="export-job-progress" />
            <Text size="xs" c="dimmed">
              Large exports run in the background. You can leave this page; the file will be listed under{' '}
              <Link to={`/downloads/${job.tab}`}>Downloads</Link>.
            </Text>
          </>
        )}
        {job.status === 'done' &&
          (job.fileId === null ? (
            <Alert color="yellow" variant="light">
              The file is no longer stored.
            </Alert>
          ) : (
            <Group gap="sm">
              <Button
                leftSection={<IconDownload size={16} />}
                loading={save.isPending}
                onClick={() => job.fileId !== null && save.mutate({ fileId: job.fileId, fileName: job.fileName })}
                data-testid="export-download"
              >
                Download
              </Button>
              <Text size="xs" c="dimmed">
                {countNoun(job.rows, 'record')} · {countNoun(job.credits, 'credit')} used
                {job.fileSize === null ? '' : ` · ${formatBytes(job.fileSize)}`} · your balance is now {formatCount(job.creditBalance)}.
                Downloading it again is free.
              </Text>
            </Group>
          ))}
        {job.status === 'failed' && <JobFailure job={job} />}
        {error && <QueryErrorAlert title="Could not get the progress of this export" error={error} onRetry={retry} />}
      </Stack>
    </Card>
  );
}

/** What a start-export call came to: why it could not start, or the card of the job it started. */
export function ExportStartOutcome({
  error,
  job,
  saveWhenDone = false,
}: {
  error: unknown;
  job: ExportJob | undefined;
  saveWhenDone?: boolean;
}) {
  return (
    <>
      {error != null && (
        <Alert color="red" variant="light" role="alert">
          The export could not start: {errorMessage(error)}
        </Alert>
      )}
      {job && <ExportJobCard key={job.id} started={job} saveWhenDone={saveWhenDone} />}
    </>
  );
}
