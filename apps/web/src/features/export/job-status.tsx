import { Badge, Progress, Stack, Text } from '@mantine/core';
import type { ExportJob, ExportStatus } from '@kb/contracts/exports';
import { clampPercent, isActiveJob, jobProgressLabel } from './export-scope.ts';
import { countNoun, pluralNoun } from '../../app/format/plural.ts';

const STATUS_TEXT: Record<ExportStatus, { label: string; color: string }> = {
  queued: { label: 'Queued', color: 'gray' },
  running: { label: 'Running', color: 'blue' },
  done: { label: 'Ready', color: 'green' },
  failed: { label: 'Failed', color: 'red' },
};

export function JobStatusBadge({ status }: { status: ExportStatus }) {
  const text = STATUS_TEXT[status];
  return (
    <Badge color={text.color} variant="light" data-status={status}>
      {text.label}
    </Badge>
  );
}

/** A queued or running job's bar with rows written of rows. */
export function JobProgress({ job, testId }: { job: ExportJob; testId?: string }) {
  const percent = clampPercent(job.progress);
  return (
    <Stack gap={4} data-testid={testId} data-progress={Math.floor(percent)}>
      <Progress
        value={percent}
        animated={isActiveJob(job)}
        striped={isActiveJob(job)}
        aria-label={`Export progress ${Math.floor(percent)}%`}
      />
      <Text size="xs" c="dimmed">
        {jobProgressLabel(job)}
      </Text>
    </Stack>
  );
}

/** Why a job failed, and that its credits came back. */
export function JobFailure({ job }: { job: ExportJob }) {
  return (
    <Stack gap={2}>
      <Text size="sm" c="red">
        {job.error ?? 'The export failed.'}
      </Text>
      <Text size="xs" c="dimmed">
        {job.refunded
          ? `The ${countNoun(job.credits, 'credit')} it used ${pluralNoun(job.credits, { one: 'was', other: 'were' })} returned to your balance.`
          : 'Its credits are being returned to your balance.'}
      </Text>
    </Stack>
  );
}
