import type { FastifyInstance } from 'fastify';
import { sheetEndpoints } from '@kb/contracts/sheet';
import { registerEndpoint, requireAuth } from '../../http/endpoint-route.ts';
import type { ExportService } from '../export/export-service.ts';
import type { ExportJobRunner } from '../export/export-jobs.ts';
import type { SheetService } from './sheet-service.ts';

export interface SheetModule {
  sheet: SheetService;
  /** A sheet's export goes through the export jobs and credits. */
  exports: ExportService;
  runner: ExportJobRunner;
}

/** Registers the sheet's endpoints of the contract (packages/contracts/src/sheet.ts; docs/workspace.md "The sheet"). */
export function registerSheetRoutes(app: FastifyInstance, { sheet, exports, runner }: SheetModule): void {
  registerEndpoint(app, sheetEndpoints.sheetSuggest, async ({ body, auth }) => sheet.suggest(requireAuth(auth), body.source));
  registerEndpoint(app, sheetEndpoints.sheetPage, async ({ body, auth }) => sheet.page(requireAuth(auth), body));
  registerEndpoint(app, sheetEndpoints.sheetExport, async ({ body, auth }) => {
    const caller = requireAuth(auth);
    const { jobId, background } = await sheet.export(caller, body);
    // As the results' exports: a small file is written while the request waits.
    if (background) runner.wake();
    else await runner.runNow(jobId);
    return exports.job(caller, jobId);
  });
}
