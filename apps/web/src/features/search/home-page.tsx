import { Alert, Anchor, Badge, Button, Card, Group, Paper, SimpleGrid, Stack, Table, Text, Title, UnstyledButton } from '@mantine/core';
import { IconPlayerPlay, IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { searchEndpoints } from '@kb/contracts/search-api';
import type { HomeOverview } from '@kb/contracts/search';
import { endpointQuery } from '../../app/query.ts';
import { useSearchBuilderStore } from './builder/search-builder-store.ts';
import { PageHeader } from '../../app/ui/page-header.tsx';
import { EmptyState, QueryView } from '../../app/ui/query-view.tsx';
import { formatDateTime } from '../../app/format/display-format.ts';
import { rowHasValue } from './builder/row-criteria.ts';
import { criteriaToDrafts } from './builder/row-restore.ts';
import { COUNT_ITEMS, defaultFigures, searchFigures } from './counts/count-figures.ts';
import { formatCount } from '../../app/format/count-format.ts';
import { runSearch } from './run/use-search-runner.ts';
import { useConfirm } from '../../app/ui/confirm-dialog.tsx';
import { countNoun } from '../../app/format/plural.ts';
import { ACTIVITY } from '../../app/format/nouns.ts';
import { AlertToggle } from '../alerts/alert-toggle.tsx';
import { WhatsNewCard } from './whats-new-card.tsx';

type RecentSearch = HomeOverview['recentSearches'][number];

function KnowledgeBaseStats({ counts }: { counts: HomeOverview['counts'] }) {
  const figures = defaultFigures(counts);
  return (
    <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }} data-testid="home-kb-counts">
      {COUNT_ITEMS.map((item) => (
        <Paper key={item.key} withBorder radius="md" p="md">
          <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
            {item.label}
          </Text>
          <Text size="xl" fw={700} style={{ fontVariantNumeric: 'tabular-nums' }} data-value={figures[item.key]}>
            {formatCount(figures[item.key])}
          </Text>
        </Paper>
      ))}
    </SimpleGrid>
  );
}

/** "1,234 structures · 56,789 activities" for a recent search. */
function countLine(search: RecentSearch): string {
  if (!search.counts) return 'No counts kept';
  const figures = searchFigures(search.counts);
  return `${countNoun(figures.structures, 'structure')} · ${countNoun(figures.activities, ACTIVITY)} · ${countNoun(figures.references, 'reference')}`;
}

function RecentSearches({ searches }: { searches: RecentSearch[] }) {
  const navigate = useNavigate();
  const replaceRows = useSearchBuilderStore((state) => state.replaceRows);
  const [running, setRunning] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [confirm, confirmDialog] = useConfirm();

  // Re-running puts the rows back into the builder first, so a failure leaves them ready to edit there.
  const rerun = async (search: RecentSearch) => {
    if (!search.searchcriteria) return;
    const { rows, dirty } = useSearchBuilderStore.getState();
    if (dirty && rows.some(rowHasValue)) {
      const ok = await confirm({
        title: 'Run this search again?',
        detail: 'The rows in your search builder have not been searched or saved and will be replaced.',
        confirmLabel: 'Replace and run',
      });
      if (!ok) return;
    }
    setFailure(null);
    setRunning(search.sessionid);
    replaceRows(criteriaToDrafts(search.searchcriteria));
    const outcome = await runSearch(search.searchcriteria, search.summary ?? 'Recent search');
    setRunning(null);
    if (outcome.kind === 'counts' || outcome.kind === 'no-data') navigate('/results/structuretab');
    else if (outcome.kind === 'failed') setFailure(outcome.message);
  };

  if (searches.length === 0)
    return <EmptyState>No searches yet. Your searches will be listed here to run again with one click.</EmptyState>;
  return (
    <Stack gap="xs">
      {confirmDialog}
      {failure && (
        <Alert color="red" variant="light" role="alert" title="The search could not run" withCloseButton onClose={() => setFailure(null)}>
          <Text size="sm" mb="xs">
            {failure}
          </Text>
          <Button size="xs" variant="light" component={Link} to="/search">
            Open it in the search builder
          </Button>
        </Alert>
      )}
      <Stack gap={4} data-testid="recent-searches">
        {searches.map((search) => (
          <UnstyledButton
            key={search.sessionid}
            disabled={!search.searchcriteria || running !== null}
            onClick={() => void rerun(search)}
            aria-label={`Run again: ${search.summary ?? 'search'}`}
            style={{ borderRadius: 8 }}
          >
            <Paper withBorder p="sm" radius="md" style={{ opacity: search.searchcriteria ? 1 : 0.6 }}>
              <Group justify="space-between" wrap="nowrap" align="flex-start">
                <Stack gap={2} style={{ minWidth: 0 }}>
                  <Text size="sm" fw={500} lineClamp={2}>
                    {search.summary ?? 'Search without a summary'}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {formatDateTime(search.createdAt)} · {countLine(search)}
                  </Text>
                </Stack>
                {search.searchcriteria ? (
                  <Badge variant="light" leftSection={<IconPlayerPlay size={10} />} style={{ flexShrink: 0 }}>
                    {running === search.sessionid ? 'Running…' : 'Run again'}
                  </Badge>
                ) : (
                  <Badge variant="outline" color="gray">
                    Rows not kept
                  </Badge>
                )}
              </Group>
            </Paper>
          </UnstyledButton>
        ))}
      </Stack>
    </Stack>
  );
}

function SavedQueries({ queries }: { queries: HomeOverview['savedQueries'] }) {
  if (queries.length === 0) return <EmptyState>No saved searches. Use “Save as…” in the search page to keep one.</EmptyState>;
  return (
    <Stack gap={4} data-testid="home-saved-queries">
      {queries.map((query) => (
        <Group key={query.criteria_id} justify="space-between" wrap="nowrap">
          <Anchor component={Link} to={`/search?criteria=${query.criteria_id}`} size="sm">
            {query.criteria_name}
          </Anchor>
          <Group gap={6} wrap="nowrap">
            <AlertToggle criteriaId={query.criteria_id} name={query.criteria_name} />
            {query.is_active && (
              <Badge size="xs" variant="light">
                default
              </Badge>
            )}
            <Text size="xs" c="dimmed">
              {formatDateTime(query.created_at)}
            </Text>
          </Group>
        </Group>
      ))}
    </Stack>
  );
}

function RecentDocuments({ documents }: { documents: HomeOverview['recentDocuments'] }) {
  if (documents.length === 0) return <EmptyState>No documents in the knowledge base yet.</EmptyState>;
  return (
    <Table.ScrollContainer minWidth={520}>
      <Table highlightOnHover data-testid="recent-documents">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Document</Table.Th>
            <Table.Th>Type</Table.Th>
            <Table.Th>Year</Table.Th>
            <Table.Th ta="right">Activities</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {documents.map((document) => (
            <Table.Tr key={document.ref_id}>
              <Table.Td>
                <Anchor component={Link} to={`/leafletreference/0/${document.ref_id}`} size="sm" lineClamp={2}>
                  {document.title ?? document.reference ?? `Document ${document.ref_id}`}
                </Anchor>
                {document.title && document.reference && (
                  <Text size="xs" c="dimmed" lineClamp={1}>
                    {document.reference}
                  </Text>
                )}
              </Table.Td>
              <Table.Td>
                <Text size="sm">{document.ref_type}</Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm">{document.year ?? '—'}</Text>
              </Table.Td>
              <Table.Td ta="right" style={{ fontVariantNumeric: 'tabular-nums' }}>
                <Text size="sm">{formatCount(document.activities)}</Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-label={title}>
      <Title order={2} size="h4" mb="sm">
        {title}
      </Title>
      {children}
    </Card>
  );
}

/** `/home` (the search roles): the knowledge base at a glance, recent and saved searches, new documents. */
export function HomePage() {
  const query = useQuery(endpointQuery(searchEndpoints.home, {}));
  return (
    <Stack gap="md">
      <PageHeader
        title="Home"
        description="The knowledge base at a glance, your recent and saved searches, and the documents added last."
        actions={
          <Group gap="xs">
            {/* A plain link: the workspace sits above search, which cannot import it. */}
            <Button component={Link} to="/workspace" variant="default" data-testid="home-workspace">
              Workspace: collections, saved sets, history
            </Button>
            <Button component={Link} to="/search" leftSection={<IconSearch size={16} />}>
              New search
            </Button>
          </Group>
        }
      />
      <QueryView query={query} skeletonRows={6}>
        {(overview) => (
          <Stack gap="md">
            <KnowledgeBaseStats counts={overview.counts} />
            <WhatsNewCard />
            <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
              <Section title="Recent searches">
                <RecentSearches searches={overview.recentSearches} />
              </Section>
              <Section title="Saved searches">
                <SavedQueries queries={overview.savedQueries} />
              </Section>
            </SimpleGrid>
            <Section title="Recently added documents">
              <RecentDocuments documents={overview.recentDocuments} />
            </Section>
          </Stack>
        )}
      </QueryView>
    </Stack>
  );
}
