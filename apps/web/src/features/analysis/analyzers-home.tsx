import { Anchor, Button, Card, Group, Stack, Text } from '@mantine/core';
import { IconChartDots, IconSearch } from '@tabler/icons-react';
import { Link } from 'react-router';
import { PageHeader } from '../../app/ui/page-header.tsx';
import { DataTable } from '../../app/ui/data-table.tsx';
import { QueryView } from '../../app/ui/query-view.tsx';
import { resultTabLabel } from '../results/result-tabs.ts';
import { useScopeSessionId } from '../results/use-results-session.ts';
import { useSavedAnalyses } from './analyzers/analyzer-queries.ts';

const dateFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

/** /analyzers: the user's saved analyses, and a start from the search in the results. */
export function AnalyzersHome() {
  const sessionId = useScopeSessionId('search');
  const saved = useSavedAnalyses();
  return (
    <>
      <PageHeader
        title="Analyzers"
        description="Charts over the rows of a results tab: a scatter of two properties, activity distributions, a target × compound heatmap, compounds per target class and scaffold frequency. Brush points to select their rows."
      />
      <Stack gap="lg">
        <Card withBorder radius="md" padding="md" data-testid="analyzers-start">
          {sessionId ? (
            <Group justify="space-between" wrap="wrap">
              <Text>Chart the results of your current search.</Text>
              <Group gap="xs">
                <Button component={Link} to="/analyzers/activitiestab" leftSection={<IconChartDots size={16} />}>
                  Start from the current search (activities)
                </Button>
                <Button component={Link} to="/analyzers/structuretab" variant="default">
                  Structures
                </Button>
              </Group>
            </Group>
          ) : (
            <Group justify="space-between" wrap="wrap">
              <Text c="dimmed">No search in this browser yet: run one, then open Analyzers from its results.</Text>
              <Button component={Link} to="/search" variant="default" leftSection={<IconSearch size={16} />}>
                Go to the search
              </Button>
            </Group>
          )}
        </Card>
        <Stack gap="xs">
          <Text fw={600}>Your saved analyses</Text>
          <QueryView
            query={saved}
            isEmpty={(data) => data.analyses.length === 0}
            empty="No saved analysis yet. Save one from the analyzer board with “Save analysis”."
          >
            {(data) => (
              <DataTable
                testId="saved-analyses"
                minWidth={640}
                rows={data.analyses}
                rowKey={(analysis) => analysis.id}
                columns={[
                  {
                    key: 'name',
                    header: 'Name',
                    cell: (analysis) => (
                      <Anchor component={Link} to={`/analyzers/${analysis.config.tab}?analysis=${analysis.id}`}>
                        {analysis.name}
                      </Anchor>
                    ),
                  },
                  {
                    key: 'summary',
                    header: 'Search',
                    cell: (analysis) => (
                      <Text size="sm" lineClamp={2}>
                        {analysis.summary ?? '—'}
                      </Text>
                    ),
                  },
                  { key: 'tab', header: 'Tab', cell: (analysis) => resultTabLabel(analysis.config.tab) ?? analysis.config.tab },
                  {
                    key: 'saved',
                    header: 'Saved',
                    cell: (analysis) => dateFormat.format(new Date(analysis.createdAt)),
                    cellProps: { style: { whiteSpace: 'nowrap' } },
                  },
                ]}
              />
            )}
          </QueryView>
        </Stack>
      </Stack>
    </>
  );
}
