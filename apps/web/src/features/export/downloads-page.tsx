import { Button, Group, Text } from '@mantine/core';
import { IconDatabase, IconFileExport } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Link, useParams } from 'react-router';
import { EXPORT_FILE_DAYS, exportEndpoints } from '@kb/contracts/exports';
import { tabInfo } from '@kb/contracts/result-tabs';
import { endpointQuery } from '../../app/query.ts';
import { PageHeader } from '../../app/ui/page-header.tsx';
import { EmptyState, QueryView } from '../../app/ui/query-view.tsx';
import { formatCount } from '../../app/format/count-format.ts';
import { invalidateCredits } from './export-files.ts';
import { isActiveJob, jobPollInterval } from './export-scope.ts';
import { ExportsTable } from './exports-table.tsx';

/**
 * The user's exports, asked again every second while any is queued or running. A failed call stops
 * the polling (QueryView shows the error and a retry, which polls on if a job is still active).
 */
function useExportJobs() {
  const query = useQuery({
    ...endpointQuery(exportEndpoints.jobs, {}),
    refetchInterval: (current) => jobPollInterval(current.state, (data) => data.jobs.some(isActiveJob)),
  });
  // A job that ended may have returned its credits: the balance elsewhere is stale.
  const active = query.data?.jobs.filter(isActiveJob).length ?? 0;
  const previous = useRef(active);
  useEffect(() => {
    if (active < previous.current) void invalidateCredits();
    previous.current = active;
  }, [active]);
  return query;
}

/** Spec §2 /downloads and /downloads/{tabid}: the user's exports (of one tab when given), their progress and files. */
export function DownloadsPage() {
  const { tabid } = useParams();
  const tab = tabInfo(tabid);
  const query = useExportJobs();
  return (
    <>
      <PageHeader
        title="Downloads"
        description={`Your exports${tab ? ` of the ${tab.label} tab` : ''}: their progress and files. Files stay downloadable for ${EXPORT_FILE_DAYS} days; downloading one again is free.`}
        actions={
          <Group gap="xs">
            <Button component={Link} to={tab ? `/export/${tab.key}` : '/export'} leftSection={<IconFileExport size={16} />}>
              New export
            </Button>
            <Button component={Link} to="/dashboard?tab=datasets" variant="default" leftSection={<IconDatabase size={16} />}>
              Flat-file datasets
            </Button>
          </Group>
        }
      />
      <QueryView query={query}>
        {(data) => {
          const jobs = tab ? data.jobs.filter((job) => job.tab === tab.key) : data.jobs;
          return (
            <>
              <Group justify="space-between" mb="sm">
                <Text size="sm" data-testid="downloads-balance" data-value={data.creditBalance}>
                  Download balance: <b>{formatCount(data.creditBalance)}</b> credits
                </Text>
                {tab && (
                  <Button component={Link} to="/downloads" variant="subtle" size="compact-sm">
                    Show the exports of every tab
                  </Button>
                )}
              </Group>
              {jobs.length === 0 ? (
                <EmptyState>
                  {tab
                    ? `No exports of the ${tab.label} tab yet.`
                    : 'No exports yet. Export rows of your results and the files will be listed here.'}
                </EmptyState>
              ) : (
                <ExportsTable jobs={jobs} />
              )}
            </>
          );
        }}
      </QueryView>
    </>
  );
}
