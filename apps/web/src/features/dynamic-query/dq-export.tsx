import { Button, Group, Stack, Text } from '@mantine/core';
import { IconFileSpreadsheet, IconFileText, IconFileTypeTxt } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { authEndpoints } from '@kb/contracts/api';
import type { DqQuery } from '@kb/contracts/dynamic-query';
import { DQ_LIMITS, dynamicQueryEndpoints } from '@kb/contracts/dynamic-query';
import type { ExportFormat } from '@kb/contracts/exports';
import { CREDIT_RULE_TEXT, exportCredits } from '@kb/contracts/exports';
import { callApi } from '../../app/api-client.ts';
import { formatCount } from '../../app/format/count-format.ts';
import { countNoun } from '../../app/format/plural.ts';
import { endpointQuery } from '../../app/query.ts';
import { ExportStartOutcome } from '../export/export-job-card.tsx';
import { invalidateCredits, saveStoredFile } from '../export/export-files.ts';

const FORMATS: { format: ExportFormat; label: string; icon: typeof IconFileText }[] = [
  { format: 'csv', label: 'CSV', icon: IconFileText },
  { format: 'xlsx', label: 'Excel (XLSX)', icon: IconFileSpreadsheet },
  { format: 'sdf', label: 'SDF', icon: IconFileTypeTxt },
];

/**
 * Export of every row of the query that ran, through the export jobs and credits (one credit per
 * row, the price shown first and sent as `expectedCredits`): the job card then shows the file, as
 * the export page and the SAR view do.
 */
export function DqExport({ query, rows, capped, hasStructure }: { query: DqQuery; rows: number; capped: boolean; hasStructure: boolean }) {
  const balance = useQuery(endpointQuery(authEndpoints.subscriptionSummary, {}));
  const credits = exportCredits(rows);
  const start = useMutation({
    mutationFn: (format: ExportFormat) => callApi(dynamicQueryEndpoints.export, { body: { ...query, format, expectedCredits: credits } }),
    onError: () => void invalidateCredits(),
    onSuccess: async (job) => {
      void invalidateCredits();
      // A small export is written while the request waits: its file is saved at once.
      if (job.status === 'done' && job.fileId !== null) await saveStoredFile(job.fileId, job.fileName).catch(() => undefined);
    },
  });
  const tooMany = capped || rows > DQ_LIMITS.maxExportRows;
  const short = balance.data !== undefined && balance.data.downloadBalance < credits;
  const blocked = start.isPending || tooMany || short || rows === 0;
  return (
    <Stack gap="xs" data-testid="dq-export">
      <Group gap="xs" wrap="wrap">
        <Text size="sm" fw={600} data-testid="dq-export-cost" data-credits={credits}>
          Export: {tooMany ? `more than ${formatCount(DQ_LIMITS.maxExportRows)} rows` : `${countNoun(rows, 'record')} · ${countNoun(credits, 'credit')}`}
        </Text>
        {balance.data && (
          <Text size="sm" c={short ? 'red' : 'dimmed'} data-testid="dq-export-balance">
            · your balance {formatCount(balance.data.downloadBalance)}
          </Text>
        )}
        {FORMATS.filter((f) => f.format !== 'sdf' || hasStructure).map(({ format, label, icon: Icon }) => (
          <Button
            key={format}
            size="xs"
            variant="default"
            leftSection={<Icon size={14} />}
            loading={start.isPending && start.variables === format}
            disabled={blocked}
            onClick={() => start.mutate(format)}
            data-testid={`dq-export-${format}`}
          >
            {label}
          </Button>
        ))}
      </Group>
      <Text size="xs" c="dimmed">
        {tooMany ? `One dynamic-query export holds at most ${formatCount(DQ_LIMITS.maxExportRows)} rows: add a filter to export. ` : ''}
        {CREDIT_RULE_TEXT}
      </Text>
      <ExportStartOutcome error={start.error} job={start.data} />
    </Stack>
  );
}
