import { QueryErrorAlert } from '../../../app/ui/query-view.tsx';
import { Alert, Anchor, Button, Card, Group, Loader, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconHistory } from '@tabler/icons-react';
import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { searchEndpoints } from '@kb/contracts/search-api';
import { ACTIVITY_CAP_MESSAGE } from '@kb/contracts/search';
import { endpointQuery } from '../../../app/query.ts';
import { useSearchBuilderStore } from '../builder/search-builder-store.ts';
import { formatDateTime } from '../../../app/format/display-format.ts';
import type { CountFigures } from './count-figures.ts';
import { COUNT_ITEMS, defaultFigures } from './count-figures.ts';
import { formatCount } from '../../../app/format/count-format.ts';
import { SearchProgress } from '../run/search-progress.tsx';
import type { CountsFreshness } from './counts-freshness.ts';
import { countsFreshness } from './counts-freshness.ts';

/** Six figures; for a search each is a link to the results tab listing it (when there is anything to list). */
function CountsTable({ figures, linked, testId }: { figures: CountFigures; linked: boolean; testId: string }) {
  return (
    <Table verticalSpacing={6} data-testid={testId}>
      <Table.Tbody>
        {COUNT_ITEMS.map((item) => {
          const value = figures[item.key];
          return (
            <Table.Tr key={item.key} data-count={item.key}>
              <Table.Td>
                <Text size="sm">{item.label}</Text>
              </Table.Td>
              <Table.Td ta="right" style={{ fontVariantNumeric: 'tabular-nums' }}>
                {linked && value > 0 ? (
                  <Anchor
                    component={Link}
                    to={`/results/${item.tab}`}
                    fw={600}
                    size="sm"
                    aria-label={`${formatCount(value)} ${item.label.toLowerCase()}: open the results`}
                    data-value={value}
                  >
                    {formatCount(value)}
                  </Anchor>
                ) : (
                  <Text size="sm" fw={600} data-value={value}>
                    {formatCount(value)}
                  </Text>
                )}
              </Table.Td>
            </Table.Tr>
          );
        })}
      </Table.Tbody>
    </Table>
  );
}

/** Spec §3 default criteria counts: the whole knowledge base, before any search. */
function KnowledgeBaseCounts() {
  const query = useQuery({ ...endpointQuery(searchEndpoints.defaultCount, {}), staleTime: 5 * 60_000 });
  if (query.isPending) {
    return (
      <Stack gap={6} aria-busy="true" aria-label="Loading the knowledge-base counts">
        {COUNT_ITEMS.map((item) => (
          <Skeleton key={item.key} height={22} />
        ))}
      </Stack>
    );
  }
  if (query.isError) {
    return <QueryErrorAlert title="Counts could not load" error={query.error} onRetry={() => void query.refetch()} />;
  }
  return <CountsTable figures={defaultFigures(query.data)} linked={false} testId="kb-counts" />;
}

/** Why counts on show are not the rows' own: said above them, so nobody reads them as the new rows' counts. */
const STALE_NOTES: Record<Exclude<CountsFreshness, 'current'>, string> = {
  cleared: 'You cleared the rows. These counts belong to the last search run, shown above; add rows and search to count again.',
  changed: 'The rows changed since this search ran. These counts belong to that run; search again to count the rows as they are now.',
};

/**
 * The counts panel: the knowledge base before a search, the search's counts after (spec §3, §4, §8).
 * Once the rows are cleared or changed, the counts stay (spec §4 keeps counts until a new search
 * answers) but are labelled as the last run's.
 */
export function CountsPanel({ onCancel }: { onCancel: () => void }) {
  const counts = useSearchBuilderStore((state) => state.counts);
  const lastRun = useSearchBuilderStore((state) => state.lastRun);
  const status = useSearchBuilderStore((state) => state.status);
  const error = useSearchBuilderStore((state) => state.error);
  const running = status === 'running';
  const rows = useSearchBuilderStore((state) => state.rows);
  const freshness = useMemo(() => (lastRun ? countsFreshness(rows, lastRun.criteria) : 'current'), [rows, lastRun]);
  const stale = counts !== null && freshness !== 'current' && !running;

  return (
    <Card
      withBorder
      radius="md"
      padding="md"
      data-testid="counts-panel"
      data-counts={counts === null ? 'knowledge-base' : stale ? 'last-run' : 'this-search'}
      aria-busy={running}
    >
      <Group justify="space-between" mb={4}>
        <Title order={2} size="h5">
          {counts === null ? 'Knowledge base' : stale ? 'Last search run' : 'This search'}
        </Title>
        {running && (
          <Group gap={6} role="status">
            <Loader size={14} />
            <Text size="xs" c="dimmed">
              Searching…
            </Text>
            <Button size="compact-xs" variant="subtle" color="gray" onClick={onCancel}>
              Cancel
            </Button>
          </Group>
        )}
      </Group>
      {running && <SearchProgress />}
      {counts === null ? (
        <Text size="xs" c="dimmed" mb="xs">
          Everything you can search. Run a search to count what matches.
        </Text>
      ) : (
        lastRun &&
        status !== 'failed' && (
          <Text size="xs" c="dimmed" mb="xs" lineClamp={3} title={lastRun.summary}>
            {formatDateTime(lastRun.ranAt)} · {lastRun.summary}
          </Text>
        )
      )}
      {stale && status !== 'failed' && (
        <Alert color="gray" variant="light" icon={<IconHistory size={18} />} mb="xs" p="xs" data-testid="stale-counts">
          <Text size="xs">{STALE_NOTES[freshness]}</Text>
        </Alert>
      )}
      {status === 'failed' && error && (
        <Alert
          color={error === ACTIVITY_CAP_MESSAGE ? 'orange' : 'red'}
          variant="light"
          icon={<IconAlertTriangle size={18} />}
          role="alert"
          mb="xs"
          data-testid="search-error"
        >
          {error}
        </Alert>
      )}
      <div style={{ opacity: running ? 0.5 : stale ? 0.75 : 1, transition: 'opacity 150ms' }}>
        {counts === null ? (
          <KnowledgeBaseCounts />
        ) : (
          <CountsTable figures={counts} linked={status !== 'failed' && !running} testId="search-counts" />
        )}
      </div>
      {counts !== null &&
        status !== 'failed' &&
        !running &&
        lastRun &&
        (Object.values(counts).some((value) => value > 0) ? (
          <Button component={Link} to="/results/structuretab" fullWidth mt="sm" variant="light">
            {stale ? 'View the last run’s results' : 'View results'}
          </Button>
        ) : (
          <Text size="sm" c="dimmed" mt="xs" data-testid="no-matches">
            {stale
              ? 'Nothing matched the last search run.'
              : 'Nothing matches this search. Try OR instead of AND, fewer rows, or wider ranges.'}
          </Text>
        ))}
    </Card>
  );
}
