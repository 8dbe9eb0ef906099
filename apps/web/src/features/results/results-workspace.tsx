import { Alert, Stack, Tabs, Title, Tooltip } from '@mantine/core';
import { IconFilter } from '@tabler/icons-react';
import { useCallback } from 'react';
import { useNavigate, useParams } from 'react-router';
import type { ResultTabKey } from '@kb/contracts/result-tabs';
import { RESULT_TABS, START_PAGE, tabInfo } from '@kb/contracts/result-tabs';
import type { ResultsSession } from '@kb/contracts/results';
import type { ResultsScope } from './results-store.ts';
import { useResultsStore } from './results-store.ts';
import { formatCount } from '../../app/format/count-format.ts';
import { countNoun } from '../../app/format/plural.ts';
import { ChartsPanel } from './charts/charts-panel.tsx';
import { NewStructuresBanner, ResultsHeader } from './results-header.tsx';
import classes from './results-layout.module.css';
import { invalidateResults } from './results-queries.ts';
import { ResultsTabPanel } from './results-tab-panel.tsx';
import { RESULTS_BASE } from './selection/use-selection-actions.ts';
import { NoSessionState, SessionLoadingState, SessionProblemAlert } from './session-states.tsx';
import { useResultsSession } from './use-results-session.ts';
import { NewRowsBanner } from '../alerts/new-rows-banner.tsx';
import { StructureFilterPanel } from './structure-filter/structure-filter-panel.tsx';

/** Spec §2: structuretab opens when the route names no tab. */
const DEFAULT_TAB: ResultTabKey = 'structuretab';

/** The tab of the route: the default without one, null for a name that is no tab. */
function routeTab(tabid: string | undefined): ResultTabKey | null {
  if (tabid === undefined) return DEFAULT_TAB;
  return tabInfo(tabid)?.key ?? null;
}

/** The five tabs (spec §2), each labelled with its rows after filters. */
function TabsBar({ scope, session, tab }: { scope: ResultsScope; session: ResultsSession; tab: ResultTabKey | null }) {
  const navigate = useNavigate();
  // A tab narrowed to related rows ("go to") says how many of its rows it shows.
  const held = useResultsStore((store) => store.scopes[scope]);
  const shownOf = (key: ResultTabKey) => (held.sessionId === session.sessionid ? held.tabs[key]?.goto?.rowCount : undefined);
  return (
    <Tabs value={tab} onChange={(value) => value && navigate(`${RESULTS_BASE[scope]}/${value}`)} keepMounted={false}>
      <Tabs.List>
        {RESULT_TABS.map((entry) => {
          const rows = session.tabCounts[entry.key];
          const shown = shownOf(entry.key);
          const filters = session.filters[entry.key]?.length ?? 0;
          return (
            <Tabs.Tab
              key={entry.key}
              value={entry.key}
              data-testid={`tab-${entry.key}`}
              data-count={rows ?? ''}
              data-shown={shown ?? ''}
              data-filters={filters}
              // Filters narrow one tab each: the funnel says which tabs they narrow.
              rightSection={
                filters > 0 ? (
                  <Tooltip label={`${countNoun(filters, 'filter')} on this tab`}>
                    <IconFilter size={14} aria-label={`${countNoun(filters, 'filter')} on this tab`} data-testid="tab-filtered" />
                  </Tooltip>
                ) : undefined
              }
            >
              {entry.label}
              {rows !== undefined && (shown !== undefined ? ` (${formatCount(shown)} of ${formatCount(rows)})` : ` (${formatCount(rows)})`)}
            </Tabs.Tab>
          );
        })}
      </Tabs.List>
    </Tabs>
  );
}

/** A ready session: header, banners, the filters on the left and the tab on the right. */
function ReadyWorkspace({
  scope,
  sessionId,
  session,
  tab,
  tabid,
}: {
  scope: ResultsScope;
  sessionId: string;
  session: ResultsSession;
  tab: ResultTabKey | null;
  tabid: string | undefined;
}) {
  // New filters change every tab's rows and counts; the tab starts again from its first page.
  const filtersChanged = useCallback(() => {
    if (tab) useResultsStore.getState().updateTab(scope, sessionId, tab, (current) => ({ ...current, pageNumber: START_PAGE }));
    void invalidateResults(sessionId);
  }, [scope, sessionId, tab]);

  return (
    <Stack gap="md" data-testid="results-workspace" data-scope={scope} data-session={sessionId}>
      <ResultsHeader scope={scope} session={session} />
      {scope === 'search' && <NewRowsBanner sessionId={sessionId} />}
      {session.strIdNewlyAddedStatus && <NewStructuresBanner scope={scope} session={session} />}
      <div className={classes.layout}>
        <aside className={classes.filters} aria-label="Charts and filters">
          {tab && (
            <Stack gap="sm">
              <StructureFilterPanel scope={scope} session={session} tab={tab} />
              <ChartsPanel sessionId={sessionId} tab={tab} onFiltersChanged={filtersChanged} />
            </Stack>
          )}
        </aside>
        <section className={classes.main} aria-label="Result tabs">
          <Stack gap="sm">
            <TabsBar scope={scope} session={session} tab={tab} />
            {tab === null ? (
              <Alert color="yellow" role="status">
                “{tabid}” is not a results tab. Choose one of the tabs above.
              </Alert>
            ) : (
              <ResultsTabPanel
                key={`${sessionId}:${tab}`}
                scope={scope}
                sessionId={sessionId}
                tab={tab}
                structureQuery={session.structureQuery}
              />
            )}
          </Stack>
        </section>
      </div>
    </Stack>
  );
}

/**
 * The results workspace (spec §2 results routes, §4 results tab state): the session of the scope
 * (the search's at /results, the selection's at /new-search-results), or why there is none to show.
 */
export function ResultsWorkspace({ scope }: { scope: ResultsScope }) {
  const { tabid } = useParams();
  const view = useResultsSession(scope);
  const title = scope === 'search' ? 'Results' : 'New search results';

  if (view.kind === 'ready')
    return <ReadyWorkspace scope={scope} sessionId={view.sessionId} session={view.session} tab={routeTab(tabid)} tabid={tabid} />;
  return (
    <Stack gap="md" data-testid="results-workspace" data-scope={scope}>
      <Title order={2}>{title}</Title>
      {view.kind === 'none' && <NoSessionState scope={scope} />}
      {(view.kind === 'loading' || view.kind === 'running') && <SessionLoadingState running={view.kind === 'running'} />}
      {view.kind === 'problem' && <SessionProblemAlert scope={scope} view={view} />}
    </Stack>
  );
}
