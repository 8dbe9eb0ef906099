import { Alert, Group, Loader, Stack, Text } from '@mantine/core';
import { IconAlertCircle, IconClockHour4 } from '@tabler/icons-react';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ExportDataCount } from '@kb/contracts/exports';
import { CREDIT_RULE_TEXT } from '@kb/contracts/exports';
import { errorMessage } from '../../app/api-client.ts';
import { formatCount } from '../../app/format/count-format.ts';
import { countNoun } from '../../app/format/plural.ts';

/**
 * What the export would hold and cost (spec §7 exportdatacount), asked again whenever the scope
 * changes: "N records · N credits · your balance M", and why it cannot run when it cannot.
 */
export function ExportCost({ query }: { query: UseQueryResult<ExportDataCount> }) {
  const cost = query.data;
  return (
    <Stack gap={6}>
      {query.isError && !cost ? (
        <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
          Could not work out the cost of this export: {errorMessage(query.error)}
        </Alert>
      ) : !cost ? (
        <Group gap="xs" role="status">
          <Loader size="xs" />
          <Text size="sm" c="dimmed">
            Counting the records…
          </Text>
        </Group>
      ) : (
        <Group gap="xs" wrap="wrap" aria-live="polite" opacity={query.isFetching ? 0.6 : 1}>
          <Text fw={600} data-testid="export-cost" data-rows={cost.rows} data-credits={cost.credits}>
            {countNoun(cost.rows, 'record')} · {countNoun(cost.credits, 'credit')}
          </Text>
          <Text c="dimmed">·</Text>
          <Text data-testid="export-balance" data-value={cost.creditBalance} c={cost.creditBalance < cost.credits ? 'red' : undefined}>
            your balance {formatCount(cost.creditBalance)}
          </Text>
          {query.isFetching && <Loader size="xs" aria-label="Updating the cost" />}
        </Group>
      )}
      <Text size="xs" c="dimmed">
        {CREDIT_RULE_TEXT}
      </Text>
      {cost && !cost.allowed && cost.message && (
        <Alert color="orange" variant="light" icon={<IconAlertCircle size={18} />} data-testid="export-not-allowed" role="alert">
          {cost.message}
        </Alert>
      )}
      {cost?.allowed && cost.background && (
        <Group gap={6} c="dimmed">
          <IconClockHour4 size={14} />
          <Text size="xs">
            {formatCount(cost.backgroundFromRows)} records or more run in the background: a progress bar shows how far it got, and the file
            waits under Downloads.
          </Text>
        </Group>
      )}
    </Stack>
  );
}
