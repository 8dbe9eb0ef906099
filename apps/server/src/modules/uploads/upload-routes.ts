import type { FastifyInstance } from 'fastify';
import { uploadEndpoints } from '@kb/contracts/api';
import { registerEndpoint, requireAuth } from '../../http/endpoint-route.ts';
import { forbidden } from '../../http/errors.ts';
import { unidentifiedTermsText } from './upload-service.ts';
import type { UploadService } from './upload-service.ts';
import { attachmentHeader } from '../../http/attachment.ts';

/** Registers the uploads endpoints of the contract (packages/contracts/src/uploads.ts). */
export function registerUploadRoutes(app: FastifyInstance, uploads: UploadService): void {
  registerEndpoint(app, uploadEndpoints.validate, async ({ body }) => uploads.validate(body));

  // A file answer (responseType): sent as it is, not through the JSON serialiser.
  registerEndpoint(app, uploadEndpoints.unreportedTermsDownload, async ({ body, reply }) => {
    reply
      .type('text/plain; charset=utf-8')
      .header('content-disposition', attachmentHeader(`unidentified-${body.listType}.txt`))
      .header('cache-control', 'no-store');
    return unidentifiedTermsText(body.terms);
  });

  registerEndpoint(app, uploadEndpoints.reportTermsSave, async ({ body, auth }) => {
    const caller = requireAuth(auth);
    // Spec §3: the payload names the user; it must be the caller, or anyone could report as anyone.
    if (body.user_id !== caller.userId) throw forbidden('You may only report terms as yourself.');
    return uploads.reportTerms(caller.userId, body);
  });
}
