import { Group, SegmentedControl, Stack, Text } from '@mantine/core';
import { IconFileExport } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { authEndpoints } from '@kb/contracts/api';
import type { ExportFormat, ExportJob } from '@kb/contracts/exports';
import { exportCredits } from '@kb/contracts/exports';
import { formatCount } from '../../app/format/count-format.ts';
import { countNoun } from '../../app/format/plural.ts';
import { endpointQuery } from '../../app/query.ts';
import { CreditQuestion } from './credit-question.tsx';
import { ExportStartOutcome } from './export-job-card.tsx';
import { invalidateCredits, saveStoredFile } from './export-files.ts';

const FORMAT_LABELS: Readonly<Record<ExportFormat, string>> = { csv: 'CSV', xlsx: 'Excel (XLSX)', sdf: 'SDF' };

export interface CreditExportProps<F extends ExportFormat> {
  /** The formats offered, the first chosen at first. */
  formats: readonly F[];
  /** Records the file would hold (one credit each). */
  rows: number;
  /** What a record is here, for the question ("compound", "measurement", "record"). */
  noun: string;
  /** Starts the export job; `expectedCredits` is the price the user confirmed (409 if it changed meanwhile). */
  start: (format: F, expectedCredits: number) => Promise<ExportJob>;
  /** Why the export cannot run although the balance would do (too many rows): said beside the button. */
  refusal?: string | null;
  /** Said under the question (how values are written). */
  note?: string;
  testId: string;
}

/**
 * The exports outside the export page that spend download credits (dynamic query, SAR table,
 * measurement list, sheet): the price and the balance beside the button, the one credit question
 * (`CreditQuestion`, also the export page's) with the format, then the job's card. A small file is written while
 * the request waits and saved at once; a larger one is saved when its job is done.
 */
export function CreditExport<F extends ExportFormat>({ formats, rows, noun, start, refusal, note, testId }: CreditExportProps<F>) {
  const [picked, setFormat] = useState<F>(formats[0]!);
  // The formats can change under the choice (a dynamic query without structures offers no SDF).
  const format = formats.includes(picked) ? picked : formats[0]!;
  const balance = useQuery(endpointQuery(authEndpoints.subscriptionSummary, {}));
  const credits = exportCredits(rows);
  const run = useMutation({
    mutationFn: (chosen: F) => start(chosen, credits),
    onError: () => void invalidateCredits(),
    onSuccess: async (job) => {
      void invalidateCredits();
      if (job.status === 'done' && job.fileId !== null) await saveStoredFile(job.fileId, job.fileName).catch(() => undefined);
    },
  });
  const short = balance.data !== undefined && balance.data.downloadBalance < credits;
  const why =
    refusal ??
    (short
      ? `This export needs ${countNoun(credits, 'download credit')} and your balance is ${formatCount(balance.data?.downloadBalance ?? 0)}.`
      : null);
  return (
    <Stack gap={6} data-testid={testId}>
      <Group gap="xs" wrap="wrap">
        <CreditQuestion
          label="Export…"
          size="xs"
          variant="default"
          leftSection={<IconFileExport size={14} />}
          loading={run.isPending}
          disabled={rows === 0 || why !== null}
          rows={rows}
          noun={noun}
          formatLabel={FORMAT_LABELS[format]}
          credits={credits}
          balance={balance.data?.downloadBalance}
          note={note}
          onConfirm={() => run.mutate(format)}
          testId={testId}
          choices={
            formats.length > 1 && (
              <SegmentedControl
                size="xs"
                aria-label="File format"
                value={format}
                onChange={(value) => setFormat(value as F)}
                data={formats.map((value) => ({ value, label: FORMAT_LABELS[value] }))}
                data-testid={`${testId}-format`}
              />
            )
          }
        />
        <Text size="xs" c={why ? 'orange' : 'dimmed'} data-testid={`${testId}-cost`} data-credits={credits}>
          {why ?? `${countNoun(rows, 'record')} · ${countNoun(credits, 'credit')}`}
          {!why && balance.data ? ` · your balance ${formatCount(balance.data.downloadBalance)}` : ''}
        </Text>
      </Group>
      <ExportStartOutcome error={run.error} job={run.data} saveWhenDone />
    </Stack>
  );
}
