import { Alert, Button, Card, Group, Loader, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconSearch } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { ResultsScope } from './results-store.ts';
import type { SessionView } from './use-results-session.ts';
import { useRerunSearch } from './use-rerun-search.ts';

/** No session in this browser: nothing to show until a search runs. */
export function NoSessionState({ scope }: { scope: ResultsScope }) {
  return (
    <Card withBorder radius="md" padding="xl" data-testid="results-empty">
      <Stack align="center" gap="sm">
        <Text fw={600}>{scope === 'search' ? 'No search results yet' : 'No new search by selection yet'}</Text>
        <Text size="sm" c="dimmed" ta="center" maw={520}>
          {scope === 'search'
            ? 'Run a search to see its structures, activities, assays, development compounds and documents here.'
            : 'Select rows in the results of a search and start a new search by selection; its results open here.'}
        </Text>
        <Button component={Link} to={scope === 'search' ? '/search' : '/results'} leftSection={<IconSearch size={16} />}>
          {scope === 'search' ? 'Go to the search' : 'Back to the results'}
        </Button>
      </Stack>
    </Card>
  );
}

export function SessionLoadingState({ running }: { running: boolean }) {
  return (
    <Group gap="sm" py="xl" justify="center" role="status" aria-live="polite">
      <Loader size="sm" />
      <Text size="sm" c="dimmed">
        {running ? 'The search is still running…' : 'Opening the results…'}
      </Text>
    </Group>
  );
}

const PROBLEM_TEXT = {
  expired: {
    title: 'These results have expired',
    detail: 'Results are kept for a while after a search; run the search again to see them.',
  },
  forbidden: { title: 'These results belong to another user', detail: 'Run the search again to get results of your own.' },
  missing: { title: 'These results were not found', detail: 'The search may never have finished. Run it again.' },
  unfinished: { title: 'This search has no results to show', detail: 'It is still running, failed or was cancelled. Run it again.' },
  failed: { title: 'The results could not be opened', detail: 'Try again in a moment, or run the search again.' },
} as const;

/** A session that cannot be shown (410 expired, 403 another user's, …) and the way out. */
export function SessionProblemAlert({ scope, view }: { scope: ResultsScope; view: Extract<SessionView, { kind: 'problem' }> }) {
  const { rerun, running } = useRerunSearch(scope, view.session?.searchcriteria, view.session?.summary);
  const text = PROBLEM_TEXT[view.problem];
  return (
    <Alert
      color="orange"
      variant="light"
      icon={<IconAlertTriangle size={18} />}
      title={text.title}
      role="alert"
      data-testid="session-problem"
      data-problem={view.problem}
    >
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{(view.problem === 'failed' || view.problem === 'unfinished') && view.message ? view.message : text.detail}</Text>
        <Group gap="xs">
          <Button size="xs" onClick={() => void rerun()} loading={running}>
            Run the search again
          </Button>
          <Button size="xs" variant="subtle" component={Link} to="/search">
            Go to the search
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}
