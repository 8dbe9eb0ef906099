import { z } from 'zod';
import { defineEndpoint } from './endpoint.ts';
import { DASHBOARD_ROLES, EXPORT_ROLES } from './roles.ts';
import { SessionIdSchema } from './search.ts';
import { ResultTabKeySchema } from './result-tabs.ts';
import { SIMILARITY_COLUMN, SelectionSchema } from './results.ts';

/**
 * Exports and downloads (spec §2 /export and /downloads, §3 creditbalance, §7 exportdatacount,
 * exportlogs/export, dashboard downloadfile / deletefile). An export takes rows of one results tab
 * — the selected ones or the whole tab as filtered — with the chosen columns, as CSV, XLSX or SDF.
 * docs/exports.md has the rules.
 */

export const EXPORT_FORMATS = ['csv', 'xlsx', 'sdf'] as const;
export const ExportFormatSchema = z.enum(EXPORT_FORMATS);
export type ExportFormat = z.infer<typeof ExportFormatSchema>;

export const EXPORT_FORMAT_LABELS: Record<ExportFormat, string> = {
  csv: 'CSV (comma-separated text)',
  xlsx: 'Excel workbook (XLSX)',
  sdf: 'SDF (structures with their data)',
};

/**
 * The credit rule: one download credit per exported record (a row of the tab; in an SDF, one
 * molecule record per row). Columns and format do not change the price; downloading a file again
 * from the download history is free.
 */
export const CREDITS_PER_RECORD = 1;
export function exportCredits(records: number): number {
  return records * CREDITS_PER_RECORD;
}
export const CREDIT_RULE_TEXT =
  'Each exported record (one row of the tab) uses one download credit. Downloading the file again later is free.';

/**
 * Columns an export can hold: all of a tab's but the similarity score (it exists only during a
 * similarity sort) and the inner grids (a row's details panel: the related rows themselves are
 * exported from their own tab).
 */
export function isExportableColumn(column: { key: string; type: string }): boolean {
  return column.key !== SIMILARITY_COLUMN && column.type !== 'json';
}

/** Exports of this many rows or more run as background jobs with a progress bar (the server may lower it for tests). */
export const BACKGROUND_EXPORT_ROWS = 100_000;
/** The most rows one export may hold (the spec's activity cap). */
export const MAX_EXPORT_ROWS = 750_000;
/** Days an export file stays downloadable from the history. */
export const EXPORT_FILE_DAYS = 30;

const Ids = z.array(z.number().int().positive()).max(100_000);

/** What to export: a tab of a search, the selected rows (or the whole tab when `selection` is null), some columns. */
export const ExportScopeSchema = z.object({
  sessionid: SessionIdSchema,
  tab: ResultTabKeySchema,
  /** Null: every row of the tab as filtered. Otherwise the rows ticked, or "select all" minus the unticked. */
  selection: SelectionSchema.nullable(),
  /** A "go to" narrowing the tab to some structures (spec §4 strIdList), as the grid shows it. */
  strIdList: Ids.optional(),
  /** A similarity window narrowing "select all", as the grid shows it (as for new search by selection). */
  sortSmiles: z.string().trim().max(10_000).nullable().optional(),
  minValue: z.number().min(0).max(1).nullable().optional(),
  maxValue: z.number().min(0).max(1).nullable().optional(),
});
export type ExportScope = z.infer<typeof ExportScopeSchema>;

export const ExportRequestSchema = ExportScopeSchema.extend({
  format: ExportFormatSchema,
  /** Column keys of the tab, in the order wanted (the structure columns are always written to an SDF). */
  columns: z.array(z.string().min(1).max(100)).min(1, 'Choose at least one column to export.').max(200),
  /** The credits the user was shown (exportdatacount); when the rows changed since, the start answers 409 instead of charging another price. */
  expectedCredits: z.number().int().nonnegative().optional(),
});
export type ExportRequest = z.infer<typeof ExportRequestSchema>;

/** Spec `api/guidedsearch/exportdatacount`: what an export would contain and cost, before any work. */
export const ExportDataCountSchema = z.object({
  tab: ResultTabKeySchema,
  rows: z.number().int(),
  credits: z.number().int(),
  creditBalance: z.number().int(),
  /** True when the balance covers the credits and the rows are within MAX_EXPORT_ROWS. */
  allowed: z.boolean(),
  /** Runs as a background job (rows at or above the server's threshold). */
  background: z.boolean(),
  backgroundFromRows: z.number().int(),
  /** Why it is not allowed, in words for the user; null when allowed. */
  message: z.string().nullable(),
});
export type ExportDataCount = z.infer<typeof ExportDataCountSchema>;

export const EXPORT_STATUSES = ['queued', 'running', 'done', 'failed'] as const;
/**
 * What an export holds: rows of a results tab, a SAR table (`api/sar/export`; its `tab` is the
 * structures it lists), a dynamic query's rows (`api/dynamicquery/export`) or a measurement list
 * (`api/security/leafletview/measurements/export`; its `tab` is the activities it lists).
 */
export const EXPORT_SOURCES = ['results', 'sar', 'dynamicquery', 'measurements', 'sheet'] as const;
export type ExportSource = (typeof EXPORT_SOURCES)[number];
export type ExportStatus = (typeof EXPORT_STATUSES)[number];

/** One export: a job (queued / running with progress) and, when done, its file. */
export const ExportJobSchema = z.object({
  id: z.number().int(),
  source: z.enum(EXPORT_SOURCES),
  tab: ResultTabKeySchema,
  format: ExportFormatSchema,
  columns: z.array(z.string()),
  rows: z.number().int(),
  credits: z.number().int(),
  status: z.enum(EXPORT_STATUSES),
  rowsWritten: z.number().int(),
  /** 0–100. */
  progress: z.number(),
  fileName: z.string(),
  /** The stored file, once done (download with `api/dashboard/downloadfile`); null before, and after it was deleted or expired. */
  fileId: z.number().int().nullable(),
  fileSize: z.number().int().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  /** Why it failed; its credits were returned (`refunded`). */
  error: z.string().nullable(),
  refunded: z.boolean(),
  /** The caller's balance after this export was charged (or refunded). */
  creditBalance: z.number().int(),
});
export type ExportJob = z.infer<typeof ExportJobSchema>;

export const ExportJobParamsSchema = z.object({ id: z.coerce.number().int().positive() });

export const DOWNLOAD_KINDS = ['export', 'dataset'] as const;
export type DownloadKind = (typeof DOWNLOAD_KINDS)[number];

/** Spec dashboard "download history" (`exportlogs/export`): every export and flat-file download of the caller. */
export const DownloadHistoryRowSchema = z.object({
  id: z.number().int(),
  kind: z.enum(DOWNLOAD_KINDS),
  /** The export's tab label and format, or the dataset's type. */
  description: z.string(),
  fileName: z.string(),
  fileSize: z.number().int().nullable(),
  rows: z.number().int().nullable(),
  credits: z.number().int(),
  status: z.string(),
  downloadedOn: z.string(),
  /** A file still downloadable from the history (free), or null. */
  fileId: z.number().int().nullable(),
  exportId: z.number().int().nullable(),
});
export type DownloadHistoryRow = z.infer<typeof DownloadHistoryRowSchema>;
export const DownloadHistorySchema = z.object({ rows: z.array(DownloadHistoryRowSchema), creditBalance: z.number().int() });

export const FileRequestSchema = z.object({ fileId: z.number().int().positive() });
export const DeleteFileResponseSchema = z.object({ deleted: z.boolean() });

export const exportEndpoints = {
  exportDataCount: defineEndpoint({
    method: 'POST',
    path: '/api/guidedsearch/exportdatacount',
    access: EXPORT_ROLES,
    summary: 'How many records an export would hold and the credits it would use, against the caller’s balance.',
    body: ExportScopeSchema,
    response: ExportDataCountSchema,
  }),
  start: defineEndpoint({
    method: 'POST',
    path: '/api/export/start',
    access: EXPORT_ROLES,
    summary:
      'Starts an export: charges its credits atomically (402 when the balance is short, before any work); small exports answer done, large ones queued as a background job.',
    body: ExportRequestSchema,
    response: ExportJobSchema,
  }),
  job: defineEndpoint({
    method: 'GET',
    path: '/api/export/jobs/:id',
    access: DASHBOARD_ROLES,
    summary: 'One of the caller’s exports: status, progress and, when done, its file.',
    params: ExportJobParamsSchema,
    response: ExportJobSchema,
  }),
  jobs: defineEndpoint({
    method: 'GET',
    path: '/api/export/jobs',
    access: DASHBOARD_ROLES,
    summary: 'The caller’s exports, newest first (the downloads page).',
    response: z.object({ jobs: z.array(ExportJobSchema), creditBalance: z.number().int() }),
  }),
  downloadHistory: defineEndpoint({
    method: 'GET',
    path: '/api/exportlogs/export',
    access: DASHBOARD_ROLES,
    summary: 'The caller’s download history: exports and flat-file downloads, newest first.',
    response: DownloadHistorySchema,
  }),
  downloadFile: defineEndpoint({
    method: 'POST',
    path: '/api/dashboard/downloadfile',
    access: DASHBOARD_ROLES,
    summary: 'A file of the caller’s (an export) or a flat-file dataset the caller’s subscription includes; 403 for anyone else’s.',
    body: FileRequestSchema,
    response: z.string(),
    responseType: 'application/octet-stream',
  }),
  deleteFile: defineEndpoint({
    method: 'POST',
    path: '/api/dashboard/deletefile',
    access: DASHBOARD_ROLES,
    summary: 'Deletes one of the caller’s export files (its history row stays); FLAT_FILE_ADMIN deletes datasets.',
    body: FileRequestSchema,
    response: DeleteFileResponseSchema,
  }),
} as const;
