import type { FastifyInstance, FastifyReply } from 'fastify';
import { exportEndpoints } from '@kb/contracts/exports';
import type { AuthContext } from '../../http/auth-hook.ts';
import { registerEndpoint, registerFileEndpoint, requireAuth } from '../../http/endpoint-route.ts';
import { attachmentHeader } from '../../http/attachment.ts';
import { forbidden, notFound } from '../../http/errors.ts';
import type { DatasetService } from '../datasets/dataset-service.ts';
import type { FileStore, StoredFile } from '../../db/file-store.ts';
import type { ExportJobRunner } from './export-jobs.ts';
import type { ExportService } from './export-service.ts';

/** A file the caller may have: their own export, or a dataset of their subscription (403 otherwise). */
async function fileForCaller(auth: AuthContext, fileId: number, files: FileStore, datasets: DatasetService): Promise<StoredFile> {
  const file = await files.get(fileId);
  // An expired file is gone for the user even before the hourly sweep removes it.
  if (!file || !file.complete || (file.expiresAt && file.expiresAt.getTime() < Date.now()))
    throw notFound(`There is no file ${fileId} (it may have expired or been deleted).`);
  if (file.purpose === 'export') {
    if (file.ownerId !== auth.userId) throw forbidden('This file belongs to another user.');
    return file;
  }
  // A dataset: allowed by the caller's flat-file roles (403 otherwise), and logged in their history.
  await datasets.logDownload(auth, await datasets.datasetForDownload(auth, fileId));
  return file;
}

function sendFile(reply: FastifyReply, file: StoredFile, files: FileStore) {
  reply
    .type(file.contentType)
    .header('content-disposition', attachmentHeader(file.fileName))
    .header('content-length', String(file.byteSize))
    .header('cache-control', 'no-store');
  return files.stream(file.id);
}

export interface ExportModule {
  exports: ExportService;
  runner: ExportJobRunner;
  files: FileStore;
  datasets: DatasetService;
}

/** Registers the export and download endpoints of the contract (packages/contracts/src/exports.ts). */
export function registerExportRoutes(app: FastifyInstance, { exports, runner, files, datasets }: ExportModule): void {
  registerEndpoint(app, exportEndpoints.exportDataCount, async ({ body, auth }) => exports.count(requireAuth(auth), body));

  registerEndpoint(app, exportEndpoints.start, async ({ body, auth }) => {
    const caller = requireAuth(auth);
    const { jobId, background } = await exports.create(caller, body);
    // Small exports are written while the request waits; large ones go to the background loop.
    if (background) runner.wake();
    else await runner.runNow(jobId);
    return exports.job(caller, jobId);
  });

  registerEndpoint(app, exportEndpoints.job, async ({ params, auth }) => exports.job(requireAuth(auth), params.id));
  registerEndpoint(app, exportEndpoints.jobs, async ({ auth }) => exports.jobs(requireAuth(auth)));
  registerEndpoint(app, exportEndpoints.downloadHistory, async ({ auth }) => exports.history(requireAuth(auth)));

  registerFileEndpoint(app, exportEndpoints.downloadFile, async ({ body, auth, reply }) => {
    const file = await fileForCaller(requireAuth(auth), body.fileId, files, datasets);
    return sendFile(reply, file, files);
  });

  registerEndpoint(app, exportEndpoints.deleteFile, async ({ body, auth }) => {
    const caller = requireAuth(auth);
    const file = await files.get(body.fileId);
    if (!file) throw notFound(`There is no file ${body.fileId}.`);
    const mayDelete = file.purpose === 'export' ? file.ownerId === caller.userId : caller.roles.includes('FLAT_FILE_ADMIN');
    if (!mayDelete)
      throw forbidden(file.purpose === 'export' ? 'This file belongs to another user.' : 'Only flat-file administrators delete datasets.');
    return { deleted: await files.delete(file.id) };
  });
}
