import type { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { datasetEndpoints } from '@kb/contracts/datasets';
import { FLAT_FILE_MAX_BYTES } from '@kb/contracts/datasets';
import { ERROR_CODES } from '@kb/contracts/errors';
import { registerEndpoint, requireAuth } from '../../http/endpoint-route.ts';
import { HttpError, badRequest } from '../../http/errors.ts';
import type { DatasetService } from './dataset-service.ts';

/** Registers the dataset and request endpoints of the contract (packages/contracts/src/datasets.ts). */
export function registerDatasetRoutes(app: FastifyInstance, datasets: DatasetService, maxUploadBytes = FLAT_FILE_MAX_BYTES): void {
  // An upload's body is the file itself: handed on as a stream and stored chunk by chunk, never
  // buffered whole (the service counts its bytes against the limit as they arrive).
  app.addContentTypeParser('application/octet-stream', (_request, payload, done) => done(null, payload));

  registerEndpoint(app, datasetEndpoints.list, async ({ query, auth }) => datasets.list(requireAuth(auth), query.userName));

  registerEndpoint(app, datasetEndpoints.upload, async ({ query, auth, request }) => {
    const caller = requireAuth(auth);
    const declared = Number(request.headers['content-length'] ?? 0);
    if (declared > maxUploadBytes) {
      throw new HttpError(413, {
        message: `A dataset can be at most ${Math.round(maxUploadBytes / 1024 / 1024)} MiB; this file is larger.`,
        code: ERROR_CODES.validation,
      });
    }
    const body = request.body as Readable | undefined;
    if (!body || typeof (body as Readable).on !== 'function')
      throw badRequest('Send the file itself as the body, with Content-Type application/octet-stream.', { field: 'file' });
    return datasets.upload(
      caller,
      { datasetType: query.datasetType, fileName: query.fileName, roles: query.roles, description: query.description },
      body,
      maxUploadBytes,
    );
  });

  registerEndpoint(app, datasetEndpoints.requests, async ({ query, auth }) => datasets.requests(requireAuth(auth), query.flatFileReqType));
  registerEndpoint(app, datasetEndpoints.createRequest, async ({ body, auth }) => datasets.createRequest(requireAuth(auth), body));
  registerEndpoint(app, datasetEndpoints.cancelRequest, async ({ body, auth }) => datasets.cancelRequest(requireAuth(auth), body.id));
  registerEndpoint(app, datasetEndpoints.updateRequest, async ({ body, auth }) =>
    datasets.updateRequest(requireAuth(auth), body.id, body.status),
  );
}
