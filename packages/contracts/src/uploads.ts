import { z } from 'zod';
import { defineEndpoint } from './endpoint.ts';
import { SEARCH_ROLES } from './roles.ts';
import { MessageResponseSchema } from './auth.ts';

/**
 * Uploading files of search terms (spec §2, §5). The browser sends the file's bytes (base64) with
 * the list type; the server parses txt / csv / xlsx, applies the §5 rules and says which terms are
 * valid (with what they matched), invalid (wrong form) or unidentified (well-formed, not in the
 * knowledge base).
 */
export const UPLOAD_LIST_TYPES = [
  'strid',
  'cas',
  'compoundname',
  'inchikey',
  'target',
  'uniprot',
  'gene',
  'entrez',
  'pdb',
  'pubmed',
  'refid',
  'doi',
  'patent',
  'year',
  'author',
  'company',
  'indication',
  'mesh',
  'activitytype',
  'mechanism',
  'category',
  'source',
] as const;
export type UploadListType = (typeof UPLOAD_LIST_TYPES)[number];

/** Spec §5: these lists keep only entries that are all digits. */
export const DIGITS_ONLY_LIST_TYPES: readonly UploadListType[] = ['pubmed', 'refid', 'year', 'strid', 'entrez'];

/** Limits of one uploaded list (docs/security.md "Uploads and input bounds"). */
export const UPLOAD_MAX_BYTES = 2 * 1024 * 1024;
/**
 * Filled lines of a .txt / .csv, filled rows of a sheet, and different terms of a list: a list of
 * 100,000 structure ids is checked in about a second, far beyond what a chemist pastes by hand.
 */
export const UPLOAD_MAX_TERMS = 100_000;
/** Longer terms are reported invalid (no name or id in the knowledge base comes near it). */
export const UPLOAD_MAX_TERM_LENGTH = 1_000;
export const UPLOAD_EXTENSIONS = ['txt', 'csv', 'xlsx'] as const;

export const UploadValidateRequestSchema = z.object({
  listType: z.enum(UPLOAD_LIST_TYPES),
  fileName: z.string().trim().min(1).max(300),
  /** The file's bytes, base64-encoded (at most UPLOAD_MAX_BYTES before encoding). */
  contentBase64: z
    .string()
    .max(
      Math.ceil((UPLOAD_MAX_BYTES * 4) / 3) + 8,
      `A file of search terms may be at most ${UPLOAD_MAX_BYTES / 1024 / 1024} MB. Split the list into smaller files.`,
    ),
});
export type UploadValidateRequest = z.infer<typeof UploadValidateRequestSchema>;

export const UploadValidTermSchema = z.object({
  term: z.string(),
  /** Ids the term resolved to (structure, target, document ... ids); text lists carry the canonical text. */
  ids: z.array(z.union([z.number().int(), z.string()])),
  label: z.string().nullable(),
});
export const UploadValidateResponseSchema = z.object({
  listType: z.enum(UPLOAD_LIST_TYPES),
  fileName: z.string(),
  total: z.number().int(),
  valid: z.array(UploadValidTermSchema),
  invalid: z.array(z.object({ term: z.string(), reason: z.string() })),
  unidentified: z.array(z.string()),
  /** Set when the file was a structure-id list that also held CAS numbers (spec §5: kept apart). */
  casNumbers: z.array(z.string()).optional(),
});
export type UploadValidateResponse = z.infer<typeof UploadValidateResponseSchema>;

export const UnreportedTermsRequestSchema = z.object({
  listType: z.enum(UPLOAD_LIST_TYPES),
  fileName: z.string().max(300).optional(),
  terms: z.array(z.string().max(UPLOAD_MAX_TERM_LENGTH)).min(1).max(UPLOAD_MAX_TERMS),
});

/** Spec §3 "Report terms payload carries user_id": unidentified terms sent to the curators. */
export const ReportTermsRequestSchema = z.object({
  user_id: z.number().int(),
  listType: z.enum(UPLOAD_LIST_TYPES),
  fileName: z.string().max(300).optional(),
  terms: z.array(z.string().max(UPLOAD_MAX_TERM_LENGTH)).min(1).max(10_000),
  comment: z.string().max(2000).optional(),
});

export const uploadEndpoints = {
  validate: defineEndpoint({
    method: 'POST',
    path: '/api/guidedsearch/uploadvia/validate/data',
    access: SEARCH_ROLES,
    summary: 'Parses an uploaded txt / csv / xlsx list of search terms and reports valid, invalid and unidentified terms.',
    body: UploadValidateRequestSchema,
    response: UploadValidateResponseSchema,
    bodyLimit: 4 * 1024 * 1024,
  }),
  unreportedTermsDownload: defineEndpoint({
    method: 'POST',
    path: '/api/security/allmapping/search/unreportedterms/download',
    access: SEARCH_ROLES,
    summary: 'The unidentified terms of an upload as a text file (one per line).',
    body: UnreportedTermsRequestSchema,
    response: z.string(),
    responseType: 'text/plain',
    bodyLimit: 4 * 1024 * 1024,
  }),
  reportTermsSave: defineEndpoint({
    method: 'POST',
    path: '/api/user/tracker/reportterms/save',
    access: SEARCH_ROLES,
    summary: 'Sends unidentified terms to the curation team (kept with the user id; visible in trackers).',
    body: ReportTermsRequestSchema,
    response: MessageResponseSchema,
  }),
} as const;
