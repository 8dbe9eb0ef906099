import { Alert, Badge, Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import type { ResultsSession } from '@kb/contracts/results';
import type { ResultsScope } from './results-store.ts';
import { formatDateTime } from '../../app/format/display-format.ts';
import { COUNT_ITEMS, searchFigures } from '../search/counts/count-figures.ts';
import { formatCount } from '../../app/format/count-format.ts';
import { describeSearch } from '../search/saved/search-summary.ts';
import { useRerunSearch } from './use-rerun-search.ts';

/** The search a session ran, in words: its saved summary, else one built from its criteria. */
function summaryOf(session: ResultsSession): string {
  if (session.summary) return session.summary;
  return session.searchcriteria ? describeSearch(session.searchcriteria) : 'Search';
}

/** Spec §4 results header: what was searched, when, and the six counts of the search. */
export function ResultsHeader({ scope, session }: { scope: ResultsScope; session: ResultsSession }) {
  const figures = session.counts ? searchFigures(session.counts) : null;
  return (
    <Stack gap={6} data-testid="results-header">
      <Group gap="xs" align="center">
        <Title order={2}>{scope === 'search' ? 'Results' : 'New search results'}</Title>
        {session.kind === 'selection' && (
          <Badge variant="light" tt="none">
            Search by selection
          </Badge>
        )}
      </Group>
      <Text size="sm" c="dimmed" lineClamp={2} title={summaryOf(session)} data-testid="results-summary">
        {formatDateTime(session.createdAt)} · {summaryOf(session)}
      </Text>
      {figures && (
        <Group gap="xs" data-testid="results-counts">
          {COUNT_ITEMS.map((item) => (
            <Badge key={item.key} variant="outline" color="gray" tt="none" data-count={item.key} data-value={figures[item.key]}>
              {formatCount(figures[item.key])} {item.label.toLowerCase()}
            </Badge>
          ))}
        </Group>
      )}
    </Stack>
  );
}

/** Spec `strIdNewlyAddedStatus`: the knowledge base grew since the search ran. */
export function NewStructuresBanner({ scope, session }: { scope: ResultsScope; session: ResultsSession }) {
  const { rerun, running } = useRerunSearch(scope, session.searchcriteria, session.summary);
  return (
    <Alert color="blue" variant="light" icon={<IconInfoCircle size={18} />} data-testid="new-structures-banner">
      <Group justify="space-between" gap="sm" wrap="wrap">
        <Text size="sm">New structures were added since this search ran — run it again to include them.</Text>
        <Button size="xs" variant="light" onClick={() => void rerun()} loading={running}>
          Run the search again
        </Button>
      </Group>
    </Alert>
  );
}
