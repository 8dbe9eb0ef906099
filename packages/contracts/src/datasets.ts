import { z } from 'zod';
import { defineEndpoint } from './endpoint.ts';
import { DASHBOARD_ROLES, FLAT_FILE_CAPABLE_ROLES } from './roles.ts';
import type { Role } from './roles.ts';

/**
 * Flat-file datasets and requests for data (spec §2 dashboard sections, §3 "Dashboard tables", §6
 * flat-file access, §7 `security/flatfile/...`). FLAT_FILE_ADMIN uploads whole-database files for
 * subscription roles; users whose subscription includes flat files list and download the ones of
 * their roles, and ask for data they need. docs/exports.md has the rules.
 */

export const DATASET_TYPES = [
  'Full knowledge base',
  'Structures',
  'Activities',
  'Assays',
  'Targets',
  'References',
  'Clinical compounds',
] as const;
export const DatasetTypeSchema = z.enum(DATASET_TYPES);
export type DatasetType = z.infer<typeof DatasetTypeSchema>;

/** Roles a dataset can be meant for: those whose subscription may carry flat-file access (spec §6). */
export const DATASET_ROLES: readonly Role[] = FLAT_FILE_CAPABLE_ROLES;
const DatasetRoleSchema = z.enum(FLAT_FILE_CAPABLE_ROLES as unknown as [Role, ...Role[]]);

/** Largest flat file an administrator may upload. */
export const FLAT_FILE_MAX_BYTES = 256 * 1024 * 1024;
/** File kinds a dataset may be: text tables, structure files, spreadsheets and compressed archives. */
export const FLAT_FILE_EXTENSIONS = ['csv', 'tsv', 'txt', 'sdf', 'xlsx', 'zip', 'gz'] as const;

/** Spec §3 "Datasets": datasetType, flatfileName, flatfileSize, uploadedDate. */
export const DatasetSchema = z.object({
  id: z.number().int(),
  datasetType: DatasetTypeSchema,
  flatfileName: z.string(),
  /** Bytes. */
  flatfileSize: z.number().int(),
  uploadedDate: z.string(),
  description: z.string(),
  /** The subscription roles it is meant for. */
  roles: z.array(DatasetRoleSchema),
  /** The stored file (download with `api/dashboard/downloadfile`). */
  fileId: z.number().int(),
});
export type Dataset = z.infer<typeof DatasetSchema>;

export const DatasetListQuerySchema = z.object({ userName: z.string().trim().max(320).optional() });
export const DatasetListSchema = z.object({
  /** False when no active subscription of the caller includes flat files: the list is empty and says why. */
  havingFlatFileAccess: z.boolean(),
  rows: z.array(DatasetSchema),
});
export type DatasetList = z.infer<typeof DatasetListSchema>;

/** Longest dataset file name, in characters. */
export const DATASET_FILE_NAME_MAX = 200;

/**
 * Names Windows reserves for devices, in any case, with or without an extension ("CON.csv" opens the
 * console) and with spaces before it ("NUL .txt" is the device too).
 */
const RESERVED_DEVICE_NAME = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]) *(\.|$)/i;
/** Characters no file name needs: path separators, markup and shell or Windows specials. */
const FORBIDDEN_NAME_CHARACTERS = /[/\\<>:"|?*]/;
/**
 * Control characters (C0, DEL, C1), line and paragraph separators, and the invisible format
 * characters — direction overrides ("invoice\u202Egpj.exe" reads "invoiceexe.jpg"), zero-width
 * spaces, the byte-order mark — except the two joiners that words of some scripts need.
 */
const INVISIBLE_CHARACTERS = /[\p{Cc}\p{Zl}\p{Zp}]|(?![\u200c\u200d])\p{Cf}/u;

/**
 * Why a dataset file name cannot be shown to subscribers and used as their download's name, or null
 * when it can: a plain name — no folder (so no `..` segment either), no markup, control or invisible
 * characters, no device name Windows reserves, no leading or trailing dot or space, at most
 * `DATASET_FILE_NAME_MAX` characters. The upload form and the server use this one rule and its words.
 */
export function datasetFileNameProblem(name: string): string | null {
  if (name.length === 0) return 'Give the file a name.';
  if ([...name].length > DATASET_FILE_NAME_MAX) return `A file name may have at most ${DATASET_FILE_NAME_MAX} characters.`;
  if (name.includes('/') || name.includes('\\')) return 'The file name is a path: give the name alone, without folders (no / or \\).';
  if (INVISIBLE_CHARACTERS.test(name))
    return 'A file name may not contain control characters or invisible formatting (tabs, line breaks, direction marks…).';
  if (FORBIDDEN_NAME_CHARACTERS.test(name)) return 'A file name may not contain any of < > : " | ? * (rename the file).';
  if (/^[.\s]|[.\s]$/.test(name)) return 'A file name may not start or end with a dot or a space (rename the file).';
  if (RESERVED_DEVICE_NAME.test(name))
    return 'The file name is one Windows reserves for a device (CON, PRN, AUX, NUL, COM1–9, LPT1–9): rename the file.';
  return null;
}

/**
 * A dataset file name as `datasetFileNameProblem` allows it (the 400 names what is wrong). Not
 * trimmed: a leading or trailing space is refused, as the upload form refuses it, not silently cut.
 */
export const DatasetFileNameSchema = z.string().superRefine((name, context) => {
  const problem = datasetFileNameProblem(name);
  if (problem) context.addIssue({ code: 'custom', message: problem });
});

/** Query of the upload (the body is the file's bytes, `application/octet-stream`). */
export const DatasetUploadQuerySchema = z.object({
  datasetType: DatasetTypeSchema,
  fileName: DatasetFileNameSchema,
  /** The roles it is meant for: repeated `roles=` keys, or one comma-separated value. */
  roles: z.preprocess(
    (value) =>
      typeof value === 'string'
        ? value
            .split(',')
            .map((role) => role.trim())
            .filter(Boolean)
        : value,
    z.array(DatasetRoleSchema).min(1, 'Choose at least one role the dataset is for.'),
  ),
  description: z.string().trim().max(1000).default(''),
});
export type DatasetUploadQuery = z.infer<typeof DatasetUploadQuerySchema>;

export const REQUEST_STATUSES = ['pending', 'in_progress', 'fulfilled', 'rejected', 'cancelled'] as const;
export type DataRequestStatus = (typeof REQUEST_STATUSES)[number];
export const REQUEST_STATUS_LABELS: Record<DataRequestStatus, string> = {
  pending: 'Pending',
  in_progress: 'In progress',
  fulfilled: 'Fulfilled',
  rejected: 'Rejected',
  cancelled: 'Cancelled',
};
/** Requests that may still be cancelled. */
export const OPEN_REQUEST_STATUSES: readonly DataRequestStatus[] = ['pending', 'in_progress'];

/** Spec §3 "Data requests": datasetType, description, requestedBy, requestedOn, cancelled_by, status. */
export const DataRequestSchema = z.object({
  id: z.number().int(),
  datasetType: DatasetTypeSchema,
  description: z.string(),
  requestedBy: z.string(),
  requestedOn: z.string(),
  cancelled_by: z.string().nullable(),
  status: z.enum(REQUEST_STATUSES),
  updatedOn: z.string(),
});
export type DataRequest = z.infer<typeof DataRequestSchema>;

/** `flatFileReqType=user`: the caller's requests; `all`: everyone's (FLAT_FILE_ADMIN only). */
export const DataRequestListQuerySchema = z.object({ flatFileReqType: z.enum(['user', 'all']).default('user') });
export const DataRequestListSchema = z.object({ rows: z.array(DataRequestSchema) });

export const DataRequestCreateSchema = z.object({
  datasetType: DatasetTypeSchema,
  description: z.string().trim().min(10, 'Describe the data you need in a sentence or two (10 characters or more).').max(2000),
});
export const DataRequestIdSchema = z.object({ id: z.number().int().positive() });
export const DataRequestStatusUpdateSchema = z.object({
  id: z.number().int().positive(),
  status: z.enum(['in_progress', 'fulfilled', 'rejected']),
});

export const datasetEndpoints = {
  list: defineEndpoint({
    method: 'GET',
    path: '/api/security/flatfile/userdownload/fetch',
    access: DASHBOARD_ROLES,
    summary: 'Flat-file datasets the caller may download (all of them for FLAT_FILE_ADMIN); `userName`, when given, must be the caller.',
    query: DatasetListQuerySchema,
    response: DatasetListSchema,
  }),
  upload: defineEndpoint({
    method: 'PUT',
    path: '/api/security/flatfile/upload',
    access: ['FLAT_FILE_ADMIN'],
    summary:
      'Uploads a flat-file dataset: the body is the file (application/octet-stream, at most 256 MiB), checked against its extension.',
    query: DatasetUploadQuerySchema,
    response: DatasetSchema,
    bodyLimit: FLAT_FILE_MAX_BYTES,
  }),
  requests: defineEndpoint({
    method: 'GET',
    path: '/api/security/flatfile/request/fetch',
    access: DASHBOARD_ROLES,
    summary: 'Requests for data: the caller’s (`flatFileReqType=user`) or everyone’s (`all`, FLAT_FILE_ADMIN).',
    query: DataRequestListQuerySchema,
    response: DataRequestListSchema,
  }),
  createRequest: defineEndpoint({
    method: 'POST',
    path: '/api/security/flatfile/request/create',
    access: DASHBOARD_ROLES,
    summary: 'Asks for data: a dataset type and what is needed.',
    body: DataRequestCreateSchema,
    response: DataRequestSchema,
  }),
  cancelRequest: defineEndpoint({
    method: 'POST',
    path: '/api/security/flatfile/request/cancel',
    access: DASHBOARD_ROLES,
    summary: 'Cancels an open request (its requester or FLAT_FILE_ADMIN); records who cancelled it.',
    body: DataRequestIdSchema,
    response: DataRequestSchema,
  }),
  updateRequest: defineEndpoint({
    method: 'POST',
    path: '/api/security/flatfile/request/status',
    access: ['FLAT_FILE_ADMIN'],
    summary: 'Moves an open request on: in progress, fulfilled or rejected.',
    body: DataRequestStatusUpdateSchema,
    response: DataRequestSchema,
  }),
} as const;
