import { Button, Group, Popover, SegmentedControl, Stack, Text } from '@mantine/core';
import { IconFileExport } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { authEndpoints } from '@kb/contracts/api';
import { CREDIT_RULE_TEXT, exportCredits } from '@kb/contracts/exports';
import { MEASUREMENT_LIMITS, leafletEndpoints } from '@kb/contracts/leaflets';
import { callApi } from '../../app/api-client.ts';
import { formatCount } from '../../app/format/count-format.ts';
import { countNoun } from '../../app/format/plural.ts';
import { endpointQuery } from '../../app/query.ts';
import { ExportStartOutcome } from '../export/export-job-card.tsx';
import { invalidateCredits, saveStoredFile } from '../export/export-files.ts';
import type { MeasurementSubject, MeasurementView } from './use-measurements.ts';
import { measurementSelection } from './use-measurements.ts';

type Format = 'csv' | 'xlsx';
const FORMAT_LABELS: Record<Format, string> = { csv: 'CSV', xlsx: 'Excel (XLSX)' };

/**
 * Export of the list as shown (its type and sort, every page) through the export jobs and credits:
 * the price and balance first, a confirmation, then the job card with the file, as the other
 * exports do. The price confirmed is sent as `expectedCredits` (409 if the list changed meanwhile).
 */
export function MeasurementExport({ subject, view, rows }: { subject: MeasurementSubject; view: Pick<MeasurementView, 'type' | 'sort' | 'direction'>; rows: number }) {
  const [opened, setOpened] = useState(false);
  const [format, setFormat] = useState<Format>('csv');
  const balance = useQuery(endpointQuery(authEndpoints.subscriptionSummary, {}));
  const credits = exportCredits(rows);
  const start = useMutation({
    mutationFn: (chosen: Format) => callApi(leafletEndpoints.measurementsExport, { body: { ...measurementSelection(subject, view), format: chosen, expectedCredits: credits } }),
    onError: () => void invalidateCredits(),
    onSuccess: async (job) => {
      void invalidateCredits();
      // A small export is written while the request waits: its file is saved at once.
      if (job.status === 'done' && job.fileId !== null) await saveStoredFile(job.fileId, job.fileName).catch(() => undefined);
    },
  });
  const tooMany = rows > MEASUREMENT_LIMITS.maxExportRows;
  const short = balance.data !== undefined && balance.data.downloadBalance < credits;
  const why = tooMany
    ? `One export holds at most ${formatCount(MEASUREMENT_LIMITS.maxExportRows)} measurements: choose one activity type to export fewer.`
    : short
      ? `This export needs ${countNoun(credits, 'download credit')} and your balance is ${formatCount(balance.data?.downloadBalance ?? 0)}.`
      : null;
  return (
    <Stack gap={6} data-testid="measurement-export">
      <Group gap="xs" wrap="wrap">
        <Popover opened={opened} onChange={setOpened} trapFocus returnFocus withArrow position="bottom-end" shadow="md">
          <Popover.Target>
            <Button
              size="xs"
              variant="default"
              leftSection={<IconFileExport size={14} />}
              loading={start.isPending}
              disabled={rows === 0 || tooMany || short}
              onClick={() => setOpened((open) => !open)}
              data-testid="measurement-export-open"
            >
              Export…
            </Button>
          </Popover.Target>
          <Popover.Dropdown maw={340}>
            <Stack gap="xs">
              <SegmentedControl size="xs" value={format} onChange={(value) => setFormat(value as Format)} data={(['csv', 'xlsx'] as const).map((value) => ({ value, label: FORMAT_LABELS[value] }))} />
              <Text size="sm" data-testid="measurement-export-question">
                Export {countNoun(rows, 'measurement')} as {FORMAT_LABELS[format]} for <strong>{countNoun(credits, 'download credit')}</strong>?
                {balance.data ? ` Your balance is ${formatCount(balance.data.downloadBalance)}.` : ''}
              </Text>
              <Text size="xs" c="dimmed">
                {CREDIT_RULE_TEXT} Values and units are written as the knowledge base stores them.
              </Text>
              <Group justify="flex-end" gap="xs">
                <Button size="xs" variant="default" onClick={() => setOpened(false)}>
                  Cancel
                </Button>
                <Button
                  size="xs"
                  data-testid="measurement-export-confirm"
                  onClick={() => {
                    setOpened(false);
                    start.mutate(format);
                  }}
                >
                  Export
                </Button>
              </Group>
            </Stack>
          </Popover.Dropdown>
        </Popover>
        <Text size="xs" c={why ? 'orange' : 'dimmed'}>
          {why ?? `${countNoun(rows, 'record')} · ${countNoun(credits, 'credit')}`}
        </Text>
      </Group>
      <ExportStartOutcome error={start.error} job={start.data} />
    </Stack>
  );
}
