import { Button, Group, Stack, Text } from '@mantine/core';
import { IconFileSpreadsheet, IconFileTypeTxt } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { authEndpoints } from '@kb/contracts/api';
import type { SarCoreInput, SarEndpoint } from '@kb/contracts/sar';
import { sarEndpoints } from '@kb/contracts/sar';
import { callApi } from '../../../app/api-client.ts';
import { formatCount } from '../../../app/format/count-format.ts';
import { countNoun } from '../../../app/format/plural.ts';
import { endpointQuery } from '../../../app/query.ts';
import { ExportStartOutcome } from '../../export/export-job-card.tsx';
import { invalidateCredits } from '../../export/export-files.ts';

export interface SarExportProps {
  sessionId: string;
  endpoint: SarEndpoint;
  cores: SarCoreInput[];
  /** Compounds in the table: one credit each. */
  compounds: number;
}

/**
 * Export of the SAR table (XLSX with the R-groups as SMILES, SDF with R-group fields) through the
 * export jobs: the cost is shown first, then the job's progress and its file as on the export page.
 */
export function SarExport({ sessionId, endpoint, cores, compounds }: SarExportProps) {
  const balance = useQuery(endpointQuery(authEndpoints.subscriptionSummary, {}));
  const start = useMutation({
    mutationFn: (format: 'xlsx' | 'sdf') => callApi(sarEndpoints.sarExport, { body: { sessionid: sessionId, endpoint, cores, format, expectedCredits: compounds } }),
    onSuccess: () => void invalidateCredits(),
  });
  const short = balance.data !== undefined && balance.data.downloadBalance < compounds;
  return (
    <Stack gap="xs" data-testid="sar-export">
      <Group gap="xs" wrap="wrap">
        <Text size="sm" fw={600} data-testid="sar-export-cost" data-credits={compounds}>
          Export the table: {countNoun(compounds, 'compound')} · {countNoun(compounds, 'credit')}
        </Text>
        {balance.data && (
          <Text size="sm" c={short ? 'red' : 'dimmed'}>
            · your balance {formatCount(balance.data.downloadBalance)}
          </Text>
        )}
        <Button size="xs" variant="default" leftSection={<IconFileSpreadsheet size={14} />} loading={start.isPending && start.variables === 'xlsx'} disabled={start.isPending || short || compounds === 0} onClick={() => start.mutate('xlsx')} data-testid="sar-export-xlsx">
          Excel (XLSX)
        </Button>
        <Button size="xs" variant="default" leftSection={<IconFileTypeTxt size={14} />} loading={start.isPending && start.variables === 'sdf'} disabled={start.isPending || short || compounds === 0} onClick={() => start.mutate('sdf')} data-testid="sar-export-sdf">
          SDF
        </Button>
      </Group>
      <Text size="xs" c="dimmed">
        One credit per compound of the table; downloading the file again is free.
      </Text>
      <ExportStartOutcome error={start.error} job={start.data} />
    </Stack>
  );
}
