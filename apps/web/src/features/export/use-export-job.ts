import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { ExportJob } from '@kb/contracts/exports';
import { exportEndpoints } from '@kb/contracts/exports';
import { endpointQuery } from '../../app/query.ts';
import { invalidateCredits } from './export-files.ts';
import { isActiveJob } from './export-scope.ts';

/** How often a queued or running export is asked for its progress. */
export const JOB_POLL_MS = 1000;

/**
 * One export as it moves on: the job the start call answered, then polled every second while
 * queued or running. When it ends, the balance and the lists are refreshed (a failed job's
 * credits came back).
 */
export function useExportJob(started: ExportJob): ExportJob {
  const query = useQuery({
    ...endpointQuery(exportEndpoints.job, { params: { id: started.id } }),
    initialData: started,
    // The start answer is the freshest there is; only an active job needs asking again.
    staleTime: isActiveJob(started) ? 0 : Infinity,
    refetchInterval: (current) => (current.state.data && isActiveJob(current.state.data) ? JOB_POLL_MS : false),
  });
  const job = query.data;
  const wasActive = useRef(isActiveJob(started));
  useEffect(() => {
    if (wasActive.current && !isActiveJob(job)) void invalidateCredits();
    wasActive.current = isActiveJob(job);
  }, [job]);
  return job;
}
