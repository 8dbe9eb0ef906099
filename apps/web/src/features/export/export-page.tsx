import { Alert, Button, Card, Group, Loader, Stack, Text } from '@mantine/core';
import { IconDownload, IconSearch, IconTable } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams, useSearchParams } from 'react-router';
import { errorMessage } from '../../app/api-client.ts';
import type { ResultsScope } from '../results/results-store.ts';
import { PageHeader } from '../../app/ui/page-header.tsx';
import { sessionQuery } from '../results/results-queries.ts';
import { RESULTS_BASE } from '../results/selection/use-selection-actions.ts';
import { useScopeSessionId } from '../results/use-results-session.ts';
import { ExportForm } from './export-form.tsx';
import { exportSourceOf, exportTabOf } from './export-scope.ts';

/** No search in this browser: there is nothing to export until one runs. */
function NoSearchState() {
  return (
    <Card withBorder radius="md" padding="xl" data-testid="export-no-session">
      <Stack align="center" gap="sm">
        <Text fw={600}>No search results to export</Text>
        <Text size="sm" c="dimmed" ta="center" maw={520}>
          Exports are made from the results of a search. Run a search, then choose the tab, rows and columns to export.
        </Text>
        <Button component={Link} to="/search" leftSection={<IconSearch size={16} />}>
          Go to the search
        </Button>
      </Stack>
    </Card>
  );
}

/** The results session the export reads; its per-tab counts label the tab picker. */
function ExportSession({ source, sessionId, tabid }: { source: ResultsScope; sessionId: string; tabid: string | undefined }) {
  const query = useQuery({ ...sessionQuery(sessionId), retry: false });
  if (query.isPending) {
    return (
      <Group gap="sm" py="xl" justify="center" role="status">
        <Loader size="sm" />
        <Text size="sm" c="dimmed">
          Opening your results…
        </Text>
      </Group>
    );
  }
  if (query.isError) {
    return (
      <Alert color="orange" variant="light" title="These results cannot be exported" role="alert">
        <Stack gap="xs">
          <Text size="sm">{errorMessage(query.error)}</Text>
          <Group gap="xs">
            <Button size="xs" variant="light" onClick={() => void query.refetch()}>
              Try again
            </Button>
            <Button size="xs" variant="default" component={Link} to="/search">
              Go to the search
            </Button>
          </Group>
        </Stack>
      </Alert>
    );
  }
  return <ExportForm source={source} sessionId={sessionId} session={query.data} tab={exportTabOf(tabid)} />;
}

/**
 * Spec §2 /export and /export/{tabid}: exports rows of a results tab as CSV, XLSX or SDF. It reads
 * the results the user came from (`?from=selection` for a new search by selection) with the same
 * selection and "go to" the grid shows.
 */
export function ExportPage() {
  const { tabid } = useParams();
  const [params] = useSearchParams();
  const source = exportSourceOf(params.get('from'));
  const sessionId = useScopeSessionId(source);
  const tab = exportTabOf(tabid);
  return (
    <>
      <PageHeader
        title="Export"
        description="Export rows of your results as CSV, Excel (XLSX) or SDF. You see how many records and credits the export uses before it starts."
        actions={
          <Group gap="xs">
            {sessionId && (
              <Button component={Link} to={`${RESULTS_BASE[source]}/${tab}`} variant="default" leftSection={<IconTable size={16} />}>
                Back to the results
              </Button>
            )}
            <Button component={Link} to="/downloads" variant="default" leftSection={<IconDownload size={16} />}>
              Your downloads
            </Button>
          </Group>
        }
      />
      {sessionId === null ? <NoSearchState /> : <ExportSession key={sessionId} source={source} sessionId={sessionId} tabid={tabid} />}
    </>
  );
}
