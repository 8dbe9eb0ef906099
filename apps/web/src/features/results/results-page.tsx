import { Alert, Tabs } from '@mantine/core';
import { useNavigate, useParams } from 'react-router';
import { PlannedPage } from '../../app/ui/planned-page.tsx';
import { RESULT_TABS, resultTabLabel } from './result-tabs.ts';

function ResultsView({ base, title }: { base: '/results' | '/new-search-results'; title: string }) {
  const { tabid } = useParams();
  const navigate = useNavigate();
  const label = resultTabLabel(tabid);
  return (
    <PlannedPage
      title={title}
      description={
        base === '/results'
          ? 'The records matching your search, one tab per kind of record, with charts that act as filters.'
          : 'The results of a new search built from rows you selected in an earlier result.'
      }
      params={tabid === undefined ? undefined : { tab: label ?? tabid }}
      tasks={[
        'Page, sort and choose columns of structures, activities, assays, development compounds and documents.',
        'Filter with the charts and left-hand filters; every tab of the same search stays consistent.',
        'Select rows and start a new search by selection, open the SAR view or export.',
      ]}
    >
      {tabid !== undefined && label === null && (
        <Alert color="yellow" role="status">
          “{tabid}” is not a results tab. Choose one of the tabs above.
        </Alert>
      )}
      <Tabs value={label ? tabid : null} onChange={(value) => value && void navigate(`${base}/${value}`)}>
        <Tabs.List>
          {RESULT_TABS.map((tab) => (
            <Tabs.Tab key={tab.key} value={tab.key}>
              {tab.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
    </PlannedPage>
  );
}

export function ResultsPage() {
  return <ResultsView base="/results" title="Results" />;
}

export function NewSearchResultsPage() {
  return <ResultsView base="/new-search-results" title="New search results" />;
}
