import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { ExportJob } from '@kb/contracts/exports';
import { exportEndpoints } from '@kb/contracts/exports';
import { endpointQuery } from '../../app/query.ts';
import { invalidateCredits } from './export-files.ts';
import { isActiveJob, jobPollInterval } from './export-scope.ts';

/**
 * One export as it moves on: the job the start call answered, then polled every second while
 * queued or running. When it ends, the balance and the lists are refreshed (a failed job's
 * credits came back). A failed poll stops the polling: `error` says why and `retry` asks again
 * (and polls on when the answer is still an active job).
 */
export function useExportJob(started: ExportJob): { job: ExportJob; error: Error | null; retry: () => void } {
  const query = useQuery({
    ...endpointQuery(exportEndpoints.job, { params: { id: started.id } }),
    initialData: started,
    // The start answer is the freshest there is; only an active job needs asking again.
    staleTime: isActiveJob(started) ? 0 : Infinity,
    refetchInterval: (current) => jobPollInterval(current.state, isActiveJob),
  });
  const job = query.data;
  const wasActive = useRef(isActiveJob(started));
  useEffect(() => {
    if (wasActive.current && !isActiveJob(job)) void invalidateCredits();
    wasActive.current = isActiveJob(job);
  }, [job]);
  return { job, error: query.isError ? query.error : null, retry: () => void query.refetch() };
}
