import { Alert, Anchor, Button, Group, Skeleton, Stack, Text } from '@mantine/core';
import { IconSearch, IconTable } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Fragment, useState } from 'react';
import { Link, Navigate, useLocation, useParams, useSearchParams } from 'react-router';
import type { AnalyzerChartConfig, AnalyzerTab, StoredAnalysis } from '@kb/contracts/analyzers';
import { ANALYZER_TABS, AnalyzerTabSchema } from '@kb/contracts/analyzers';
import { PageHeader } from '../../app/ui/page-header.tsx';
import { QueryErrorAlert } from '../../app/ui/query-view.tsx';
import { useMayOpen } from '../../app/use-route-access.ts';
import { exportSourceOf } from '../export/export-scope.ts';
import { resultTabLabel } from '../results/result-tabs.ts';
import type { ResultsScope } from '../results/results-store.ts';
import { sessionProblem, sessionQuery } from '../results/results-queries.ts';
import { RESULTS_BASE } from '../results/selection/use-selection-actions.ts';
import { useScopeSessionId } from '../results/use-results-session.ts';
import { AnalyzerBoard } from './analyzers/analyzer-board.tsx';
import { useSavedAnalysis } from './analyzers/analyzer-queries.ts';
import { defaultCharts } from './analyzers/default-charts.ts';
import { SaveAnalysis } from './analyzers/save-analysis.tsx';
import { analyzerTabOf } from './analyzer-aliases.ts';
import { AnalyzersHome } from './analyzers-home.tsx';

/** Why the board cannot be drawn, with the way forward. */
function Problem({ title, children, search = true }: { title: string; children: React.ReactNode; search?: boolean }) {
  return (
    <Alert color="orange" variant="light" title={title} data-testid="analyzer-problem">
      <Stack gap="xs">
        <Text size="sm">{children}</Text>
        {search && (
          <Group>
            <Button component={Link} to="/search" size="xs" variant="default" leftSection={<IconSearch size={14} />}>
              Go to the search
            </Button>
          </Group>
        )}
      </Stack>
    </Alert>
  );
}

/** The session is checked once for the whole board: an expired search is one message, not five. */
function SessionBoard({
  scope,
  sessionId,
  tab,
  analysis,
}: {
  scope: ResultsScope;
  sessionId: string;
  tab: AnalyzerTab;
  analysis: StoredAnalysis | null;
}) {
  const session = useQuery({ ...sessionQuery(sessionId), retry: false });
  const [charts, setCharts] = useState<AnalyzerChartConfig[]>(analysis?.config.charts ?? defaultCharts(tab));
  if (session.isPending) return <Skeleton height={360} radius="md" aria-label="Loading the search" />;
  if (session.isError) {
    const problem = sessionProblem(session.error);
    if (problem === 'expired' && analysis) {
      return (
        <Problem title="The search of this analysis has expired">
          Search results are kept for 24 hours after their last use. Run the search again{analysis.summary ? ` (${analysis.summary})` : ''},
          open Analyzers from its results and save the analysis again; its charts were:{' '}
          {analysis.config.charts.map((c) => c.chart).join(', ')}.
        </Problem>
      );
    }
    if (problem === 'expired') return <Problem title="This search has expired">{session.error.message}</Problem>;
    return <QueryErrorAlert error={session.error} onRetry={() => void session.refetch()} />;
  }
  const summary = session.data.summary ?? 'Analysis';
  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap">
        <Text size="sm" c="dimmed" data-testid="analyzer-summary">
          {analysis ? `“${analysis.name}” — ` : ''}
          {session.data.summary ?? 'Your search'}
        </Text>
        <SaveAnalysis sessionId={sessionId} tab={tab} charts={charts} initialName={analysis?.name ?? summary.slice(0, 120)} />
      </Group>
      <AnalyzerBoard scope={scope} sessionId={sessionId} tab={tab} charts={charts} onChange={setCharts} />
    </Stack>
  );
}

/** /analyzers/:tabid?analysis=<id>: a saved analysis, its session and charts. */
function SavedBoard({ id, tab }: { id: number; tab: AnalyzerTab }) {
  const query = useSavedAnalysis(id);
  if (query.isPending) return <Skeleton height={360} radius="md" aria-label="Loading the analysis" />;
  if (query.isError)
    return <QueryErrorAlert error={query.error} onRetry={() => void query.refetch()} title="Could not open the analysis" />;
  const analysis = query.data.analyses[0]!;
  return (
    <SessionBoard key={analysis.id} scope="search" sessionId={analysis.sessionid} tab={analysis.config.tab ?? tab} analysis={analysis} />
  );
}

/** Spec §2 /analyzers/{tabid}: charts over the rows of a results tab, as filtered in the grid. */
function AnalyzerTabPage({ tabid }: { tabid: string }) {
  const [params] = useSearchParams();
  const { search } = useLocation();
  const scope = exportSourceOf(params.get('from'));
  const scopeSessionId = useScopeSessionId(scope);
  const parsed = AnalyzerTabSchema.safeParse(tabid);
  const analysisId = Number.parseInt(params.get('analysis') ?? '', 10);
  const tab = parsed.success ? parsed.data : null;
  const mayOpen = useMayOpen();
  return (
    <>
      <PageHeader
        title={`Analyzers — ${resultTabLabel(tab ?? '') ?? tabid}`}
        description="Charts over the rows of the tab as filtered in the results. Drag a rectangle on the scatter to select rows."
        actions={
          <Group gap="xs">
            <Button
              component={Link}
              to={`${RESULTS_BASE[scope]}/${tab ?? 'structuretab'}`}
              variant="default"
              leftSection={<IconTable size={16} />}
            >
              Back to the results
            </Button>
            {/* The saved analyses are an export role's page (EVALUATE_USER would land on a refusal). */}
            {mayOpen('/analyzers') && (
              <Button component={Link} to="/analyzers" variant="subtle" data-testid="saved-analyses-link">
                Saved analyses
              </Button>
            )}
          </Group>
        }
      />
      {!tab ? (
        <Problem title={`There is no analyzer “${tabid}”`} search={false}>
          The analyzers chart the Structures and Activities tabs:{' '}
          {ANALYZER_TABS.map((real, index) => (
            <Fragment key={real}>
              {index > 0 && ' and '}
              <Anchor component={Link} to={`/analyzers/${real}${search}`} data-testid="analyzer-real-link">
                {resultTabLabel(real)} ({`/analyzers/${real}`})
              </Anchor>
            </Fragment>
          ))}
          .
        </Problem>
      ) : Number.isFinite(analysisId) && analysisId > 0 ? (
        <SavedBoard id={analysisId} tab={tab} />
      ) : scopeSessionId ? (
        <SessionBoard key={`${scopeSessionId}:${tab}`} scope={scope} sessionId={scopeSessionId} tab={tab} analysis={null} />
      ) : (
        <Problem title="No search results to chart">
          The analyzers chart the results of a search. Run a search, then open Analyzers from its results.
        </Problem>
      )}
    </>
  );
}

export function AnalyzersPage() {
  const { tabid } = useParams();
  const { search } = useLocation();
  if (tabid === undefined) return <AnalyzersHome />;
  // An old or misspelt address (`activitytab`, `structures`) goes to the analyzer it means.
  const meant = analyzerTabOf(tabid);
  if (meant !== null && meant !== tabid) return <Navigate to={`/analyzers/${meant}${search}`} replace />;
  return <AnalyzerTabPage tabid={tabid} />;
}
