import { useQuery } from '@tanstack/react-query';
import { adminEndpoints } from '@kb/contracts/api';
import { endpointQuery } from '../../app/query.ts';
import { PageHeader } from '../../app/ui/page-header.tsx';
import { QueryView } from '../../app/ui/query-view.tsx';
import { TrackersTable } from './trackers-table.tsx';

export function TrackersPage() {
  const query = useQuery(endpointQuery(adminEndpoints.trackers, {}));
  return (
    <>
      <PageHeader title="Trackers" description="Recent login activity of all users, newest first: who logged in, when, for how long and from where." />
      <QueryView query={query} isEmpty={(data) => data.rows.length === 0} empty="No login activity recorded yet.">
        {(data) => <TrackersTable rows={data.rows} testId="trackers-table" />}
      </QueryView>
    </>
  );
}
