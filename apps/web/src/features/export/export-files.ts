import { authEndpoints } from '@kb/contracts/api';
import { exportEndpoints } from '@kb/contracts/exports';
import { downloadApi } from '../../app/api-client.ts';
import { endpointKey, queryClient } from '../../app/query.ts';
import { saveBlob } from '../../app/ui/save-blob.ts';

/**
 * Files of exports and datasets: saving one, and what goes stale when credits move. Shared by the
 * export page, the downloads page and the dashboard's datasets and download history.
 */

/** Fetches a stored file (an export or a flat-file dataset) and hands it to the browser under `fileName`. */
export async function saveStoredFile(fileId: number, fileName: string): Promise<void> {
  const blob = await downloadApi(exportEndpoints.downloadFile, { body: { fileId } });
  saveBlob(blob, fileName);
}

/**
 * After an export was charged, refunded, downloaded or deleted: the balance (the §9 warning
 * banner, the profile card, the export's cost line), the jobs list and the download history are stale.
 */
export async function invalidateCredits(): Promise<void> {
  await Promise.all(
    [
      authEndpoints.subscriptionSummary,
      authEndpoints.subscriptionRequired,
      exportEndpoints.jobs,
      exportEndpoints.downloadHistory,
      exportEndpoints.exportDataCount,
    ].map((endpoint) => queryClient.invalidateQueries({ queryKey: endpointKey(endpoint) })),
  );
}
