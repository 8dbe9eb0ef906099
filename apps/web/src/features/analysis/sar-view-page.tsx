import { Alert, Button, Card, Group, Skeleton, Stack, Text } from '@mantine/core';
import { IconChartDots, IconTable } from '@tabler/icons-react';
import { Link, useParams, useSearchParams } from 'react-router';
import { resultTabLabel } from '@kb/contracts/result-tabs';
import { SarSourceTabSchema } from '@kb/contracts/sar';
import type { SarSourceTab } from '@kb/contracts/sar';
import { countNoun } from '../../app/format/plural.ts';
import { ACTIVITY } from '../../app/format/nouns.ts';
import { PageHeader } from '../../app/ui/page-header.tsx';
import { QueryErrorAlert } from '../../app/ui/query-view.tsx';
import { useMayOpen } from '../../app/use-route-access.ts';
import { exportSourceOf } from '../export/export-scope.ts';
import { RESULTS_BASE } from '../results/selection/use-selection-actions.ts';
import { useScopeSessionId } from '../results/use-results-session.ts';
import { SarHome } from './sar/sar-home.tsx';
import { isNotFound, useSarData } from './sar/sar-queries.ts';
import { SarWorkspace } from './sar/sar-workspace.tsx';

/** No SAR data for this session yet: the SAR view opens from a results tab. */
function OpenFromResults({ resultsTo }: { resultsTo: string }) {
  return (
    <Card withBorder radius="md" padding="xl" data-testid="sar-empty">
      <Stack align="center" gap="sm">
        <Text fw={600}>Open the SAR view from a results tab</Text>
        <Text size="sm" c="dimmed" ta="center" maw={520}>
          In the Structures or Activities tab of your results, tick the rows to study (or none for all of them) and choose “SAR view”.
        </Text>
        <Button component={Link} to={resultsTo} leftSection={<IconTable size={16} />}>
          Go to the results
        </Button>
      </Stack>
    </Card>
  );
}

function SarSession({ sessionId, resultsTo }: { sessionId: string; resultsTo: string }) {
  const data = useSarData(sessionId);
  if (data.isPending) {
    return (
      <Stack gap="sm" aria-busy="true" aria-label="Opening the SAR view">
        <Skeleton h={60} />
        <Skeleton h={160} />
      </Stack>
    );
  }
  if (data.isError)
    return isNotFound(data.error) ? (
      <OpenFromResults resultsTo={resultsTo} />
    ) : (
      <QueryErrorAlert title="The SAR view could not be opened" error={data.error} onRetry={() => void data.refetch()} />
    );
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed" data-testid="sar-source">
        {countNoun(data.data.compounds, 'compound')} and {countNoun(data.data.activities, ACTIVITY)} from the{' '}
        {resultTabLabel(data.data.tab) ?? data.data.tab} tab
      </Text>
      <SarWorkspace key={`${sessionId}/${data.data.createdAt}`} sessionId={sessionId} data={data.data} />
    </Stack>
  );
}

function SarTabPage({ tab }: { tab: SarSourceTab }) {
  const [params] = useSearchParams();
  const source = exportSourceOf(params.get('from'));
  const sessionId = useScopeSessionId(source);
  const mayOpen = useMayOpen();
  const resultsTo = `${RESULTS_BASE[source]}/${tab}`;
  return (
    <>
      <PageHeader
        title="SAR view"
        description="Structure–activity relationships of your result rows: R-groups around a core, activity cliffs and matched pairs."
        actions={
          <Group gap="xs">
            {sessionId && (
              <Button component={Link} to={resultsTo} variant="default" leftSection={<IconTable size={16} />}>
                Back to the results
              </Button>
            )}
            {mayOpen('/analyzers/:tabid') && (
              <Button
                component={Link}
                to={`/analyzers/${tab}${source === 'selection' ? '?from=selection' : ''}`}
                variant="default"
                leftSection={<IconChartDots size={16} />}
              >
                Analyzers
              </Button>
            )}
          </Group>
        }
      />
      {sessionId === null ? (
        <OpenFromResults resultsTo="/search" />
      ) : (
        <SarSession key={sessionId} sessionId={sessionId} resultsTo={resultsTo} />
      )}
    </>
  );
}

/** Spec §2 /sarview (home, EXPORT_ROLES) and /sarview/{tabid} (the tab the rows came from). */
export function SarViewPage() {
  const { tabid } = useParams();
  if (tabid === undefined) return <SarHome />;
  const tab = SarSourceTabSchema.safeParse(tabid);
  if (!tab.success) {
    return (
      <>
        <PageHeader title="SAR view" />
        <Alert color="orange" variant="light" role="alert">
          The SAR view opens from the Structures or Activities tab; “{tabid}” is not one of them.{' '}
          <Link to="/sarview">About the SAR view</Link>
        </Alert>
      </>
    );
  }
  return <SarTabPage tab={tab.data} />;
}
