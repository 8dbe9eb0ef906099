import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import type { ExportJob, ExportRequest } from '@kb/contracts/exports';
import { exportEndpoints } from '@kb/contracts/exports';
import { callApi, errorMessage } from '../../app/api-client.ts';
import { invalidateCredits, saveStoredFile } from './export-files.ts';

/**
 * Starts an export. A small one answers done with its file, which is saved at once; a large one
 * answers queued and is followed by its job card. Either way the credits moved, so the balance
 * and the lists are refreshed. A refusal (402 when the balance is short, 409 when the rows changed
 * since the user saw the price sent as `expectedCredits`) stays on the mutation for the page to
 * show; the price is counted again and the user's choices are untouched, so exporting again works.
 */
export function useStartExport() {
  const [job, setJob] = useState<ExportJob | null>(null);
  const mutation = useMutation({
    mutationFn: (request: ExportRequest) => callApi(exportEndpoints.start, { body: request }),
    // A refusal may mean the balance moved elsewhere (another tab, another export): show the fresh one.
    // It also counts the price again (exportdatacount): after a 409 the rows changed, and the new
    // credits are what the next start carries as `expectedCredits`.
    onError: () => void invalidateCredits(),
    onSuccess: async (started) => {
      setJob(started);
      void invalidateCredits();
      if (started.status !== 'done' || started.fileId === null) return;
      try {
        await saveStoredFile(started.fileId, started.fileName);
      } catch (error) {
        // The export is paid for and stored: the job card's Download button tries again for free.
        notifications.show({
          color: 'red',
          title: 'The file could not be downloaded',
          message: `${errorMessage(error)} Use Download to try again.`,
        });
      }
    },
  });
  return { job, start: mutation.mutate, starting: mutation.isPending, error: mutation.error, reset: mutation.reset };
}
