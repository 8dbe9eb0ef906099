import { z } from 'zod';
import { defineEndpoint } from './endpoint.ts';
import type { UploadListType } from './uploads.ts';

/**
 * Trackers (issue 16, `/admin/trackers`, GOSTAR_ADMIN and FLAT_FILE_ADMIN): who logged in, searched,
 * exported and downloaded, and the curation of terms users reported as unidentified. Every list is
 * filtered, sorted and paged on the server; "Export CSV" answers the filtered rows (at most
 * TRACKER_CSV_MAX_ROWS). Dates travel as ISO strings; the date filters are whole UTC days.
 */

/** Both administrator roles read every tracker and curate reported terms (docs/administration.md). */
export const TRACKER_ROLES = ['GOSTAR_ADMIN', 'FLAT_FILE_ADMIN'] as const;

export const TRACKER_MAX_PAGE_SIZE = 200;
/** The most rows one CSV export holds; a wider filter is cut there (the file says so). */
export const TRACKER_CSV_MAX_ROWS = 100_000;
/** A search summary is cut to this length when it is written. */
export const SEARCH_SUMMARY_MAX_LENGTH = 500;

export const TRACKERS = ['logins', 'searches', 'exports', 'datasets', 'terms'] as const;
export type Tracker = (typeof TRACKERS)[number];

/** Sortable columns of each tracker (the first is the default, newest first). */
export const TRACKER_SORTS = {
  logins: ['date', 'user', 'ip'],
  searches: ['date', 'user', 'duration'],
  exports: ['date', 'user', 'records', 'credits', 'status'],
  datasets: ['date', 'user', 'datasetType', 'size'],
  terms: ['date', 'user', 'term', 'listType', 'status'],
} as const satisfies Record<Tracker, readonly string[]>;

export const TERM_STATUSES = ['open', 'resolved', 'rejected'] as const;
export type TermStatus = (typeof TERM_STATUSES)[number];

const Day = z.iso.date('Dates are written YYYY-MM-DD.');

/** The filters every tracker shares; `from`/`to` are inclusive days (UTC). */
const filterShape = {
  user: z.string().trim().max(254, 'The user filter is at most 254 characters.').optional(),
  organisationId: z.coerce.number().int().positive().optional(),
  from: Day.optional(),
  to: Day.optional(),
};
const datesInOrder = (q: { from?: string | undefined; to?: string | undefined }) => !q.from || !q.to || q.from <= q.to;
const DATE_ORDER = { message: 'The from-date is after the to-date.', path: ['from'] };

function listQuery<S extends readonly [string, ...string[]], E extends z.ZodRawShape = Record<never, never>>(sorts: S, extra?: E) {
  return z
    .object({
      ...filterShape,
      ...(extra as E),
      page: z.coerce.number().int().min(1).max(100_000).default(1),
      pageSize: z.coerce.number().int().min(1).max(TRACKER_MAX_PAGE_SIZE).default(50),
      sort: z.enum(sorts).default(sorts[0]),
      dir: z.enum(['asc', 'desc']).default('desc'),
    })
    .refine((q) => datesInOrder(q as { from?: string; to?: string }), DATE_ORDER);
}

const termStatusFilter = { status: z.enum(TERM_STATUSES).optional() };
export const LOGIN_OUTCOMES = ['failed', 'successful'] as const;
const loginOutcomeFilter = { outcome: z.enum(LOGIN_OUTCOMES).optional() };

export const LoginTrackerQuerySchema = listQuery(TRACKER_SORTS.logins, loginOutcomeFilter);
export const SearchTrackerQuerySchema = listQuery(TRACKER_SORTS.searches);
export const ExportTrackerQuerySchema = listQuery(TRACKER_SORTS.exports);
export const DatasetTrackerQuerySchema = listQuery(TRACKER_SORTS.datasets);
export const TermTrackerQuerySchema = listQuery(TRACKER_SORTS.terms, termStatusFilter);
export type LoginTrackerQuery = z.infer<typeof LoginTrackerQuerySchema>;
export type SearchTrackerQuery = z.infer<typeof SearchTrackerQuerySchema>;
export type ExportTrackerQuery = z.infer<typeof ExportTrackerQuerySchema>;
export type DatasetTrackerQuery = z.infer<typeof DatasetTrackerQuerySchema>;
export type TermTrackerQuery = z.infer<typeof TermTrackerQuerySchema>;

/** The CSV export: the filters of a tracker (sort included), no paging. */
export const TrackerCsvQuerySchema = z
  .object({
    ...filterShape,
    ...termStatusFilter,
    ...loginOutcomeFilter,
    sort: z.string().max(30).optional(),
    dir: z.enum(['asc', 'desc']).default('desc'),
  })
  .refine(datesInOrder, DATE_ORDER);
export type TrackerCsvQuery = z.infer<typeof TrackerCsvQuerySchema>;
export const TrackerParamsSchema = z.object({ tracker: z.enum(TRACKERS) });

const UserColumns = {
  userEmail: z.string().nullable(),
  organisation: z.string().nullable(),
};

export const LoginTrackerRowSchema = z.object({
  id: z.number().int(),
  ...UserColumns,
  loginDate: z.string(),
  logoutDate: z.string().nullable(),
  failed: z.boolean(),
  failureReason: z.string().nullable(),
  ipAddress: z.string().nullable(),
});
export const SearchTrackerRowSchema = z.object({
  id: z.number().int(),
  ...UserColumns,
  createdAt: z.string(),
  summary: z.string(),
  /** The tab counts of the run (null for a failed run). */
  counts: z.record(z.string(), z.number()).nullable(),
  durationMs: z.number().int(),
  failed: z.boolean(),
});
export const ExportTrackerRowSchema = z.object({
  id: z.number().int(),
  ...UserColumns,
  createdAt: z.string(),
  tab: z.string(),
  format: z.string(),
  records: z.number().int(),
  credits: z.number().int(),
  status: z.string(),
  fileName: z.string(),
  downloads: z.number().int(),
  lastDownloadAt: z.string().nullable(),
});
export const DatasetTrackerRowSchema = z.object({
  id: z.number().int(),
  ...UserColumns,
  createdAt: z.string(),
  datasetType: z.string().nullable(),
  description: z.string(),
  fileName: z.string(),
  fileSize: z.number().int().nullable(),
});
export const TermTrackerRowSchema = z.object({
  id: z.number().int(),
  ...UserColumns,
  createdAt: z.string(),
  term: z.string(),
  listType: z.string(),
  fileName: z.string().nullable(),
  comment: z.string().nullable(),
  status: z.enum(TERM_STATUSES),
  /** What the term was resolved to (its label), with the id a search row takes. */
  resolvedTo: z.object({ id: z.union([z.number(), z.string()]), label: z.string().nullable() }).nullable(),
  note: z.string().nullable(),
  curatedBy: z.string().nullable(),
  curatedAt: z.string().nullable(),
});
export type LoginTrackerRow = z.infer<typeof LoginTrackerRowSchema>;
export type SearchTrackerRow = z.infer<typeof SearchTrackerRowSchema>;
export type ExportTrackerRow = z.infer<typeof ExportTrackerRowSchema>;
export type DatasetTrackerRow = z.infer<typeof DatasetTrackerRowSchema>;
export type TermTrackerRow = z.infer<typeof TermTrackerRowSchema>;

const page = <T extends z.ZodType>(row: T) =>
  z.object({ rows: z.array(row), total: z.number().int(), page: z.number().int(), pageSize: z.number().int() });
export const LoginTrackerPageSchema = page(LoginTrackerRowSchema);
export const SearchTrackerPageSchema = page(SearchTrackerRowSchema);
export const ExportTrackerPageSchema = page(ExportTrackerRowSchema);
export const DatasetTrackerPageSchema = page(DatasetTrackerRowSchema);
export const TermTrackerPageSchema = page(TermTrackerRowSchema);

export const TrackerOrganisationsSchema = z.object({ rows: z.array(z.object({ id: z.number().int(), name: z.string() })) });

/* ---------- term curation ---------- */

/**
 * What a reported term may be resolved to, by list type: the record a search row of that list
 * takes (structure, target, document id …) or, for lists searched by text, the canonical text.
 */
export const CURATION_ENTITIES = [
  'structure',
  'target',
  'document',
  'year',
  'author',
  'company',
  'indication',
  'activitytype',
  'mechanism',
  'category',
  'taxonomy',
] as const;
export type CurationEntity = (typeof CURATION_ENTITIES)[number];
export const CURATION_ENTITY_OF: Record<UploadListType, CurationEntity> = {
  strid: 'structure',
  cas: 'structure',
  compoundname: 'structure',
  inchikey: 'structure',
  target: 'target',
  uniprot: 'target',
  gene: 'target',
  entrez: 'target',
  pdb: 'target',
  pubmed: 'document',
  refid: 'document',
  doi: 'document',
  patent: 'document',
  year: 'year',
  author: 'author',
  company: 'company',
  indication: 'indication',
  mesh: 'indication',
  activitytype: 'activitytype',
  mechanism: 'mechanism',
  category: 'category',
  source: 'taxonomy',
};
/** How the trackers name each list type. */
export const UPLOAD_LIST_LABELS: Record<UploadListType, string> = {
  strid: 'Structure id',
  cas: 'CAS number',
  compoundname: 'Compound name',
  inchikey: 'InChIKey',
  target: 'Target name',
  uniprot: 'UniProt accession',
  gene: 'Gene symbol',
  entrez: 'Entrez gene id',
  pdb: 'PDB id',
  pubmed: 'PubMed id',
  refid: 'Reference id',
  doi: 'DOI',
  patent: 'Patent number',
  year: 'Publication year',
  author: 'Author',
  company: 'Company',
  indication: 'Indication',
  mesh: 'MeSH id',
  activitytype: 'Activity type',
  mechanism: 'Mechanism',
  category: 'Compound category',
  source: 'Source organism',
};
/** Entities picked by their text rather than a numeric id. */
export const TEXT_CURATION_ENTITIES: readonly CurationEntity[] = ['author', 'activitytype', 'mechanism', 'category'];
export const CURATION_ENTITY_LABELS: Record<CurationEntity, string> = {
  structure: 'structure (compound)',
  target: 'target',
  document: 'document',
  year: 'publication year',
  author: 'author',
  company: 'company',
  indication: 'indication',
  activitytype: 'activity type',
  mechanism: 'mechanism',
  category: 'compound category',
  taxonomy: 'source organism',
};

export const TermIdParams = z.object({ termId: z.coerce.number().int().positive() });
export const TermCandidatesQuerySchema = z.object({ q: z.string().trim().min(1, 'Type part of a name or an id.').max(200) });
export const TermCandidateSchema = z.object({ id: z.union([z.number(), z.string()]), label: z.string() });
export const TermCandidatesResponseSchema = z.object({ entity: z.enum(CURATION_ENTITIES), rows: z.array(TermCandidateSchema) });
export type TermCandidate = z.infer<typeof TermCandidateSchema>;

const Note = z.string().trim().max(1000, 'A note is at most 1,000 characters.');
export const ResolveTermRequestSchema = z.object({
  /** The id (or, for text lists, the text) of what the term means; required. */
  targetId: z.union([z.number().int().positive(), z.string().trim().min(1).max(300)], { error: 'Pick what the term means.' }),
  note: Note.optional(),
});
export const RejectTermRequestSchema = z.object({ note: Note.optional() });
export type ResolveTermRequest = z.infer<typeof ResolveTermRequestSchema>;
export type RejectTermRequest = z.infer<typeof RejectTermRequestSchema>;
export const CurationResponseSchema = z.object({
  message: z.string(),
  row: TermTrackerRowSchema,
  /** Other open reports of the same term (same list type and key) closed with it. */
  alsoClosed: z.number().int(),
});
export type CurationResponse = z.infer<typeof CurationResponseSchema>;

const get = <Q extends z.ZodType, R extends z.ZodType>(path: string, summary: string, query: Q, response: R) =>
  defineEndpoint({ method: 'GET', path, access: TRACKER_ROLES, summary, query, response });

export const trackerEndpoints = {
  logins: get(
    '/api/admin/trackers/logins',
    'Login attempts of all users, filtered, sorted and paged.',
    LoginTrackerQuerySchema,
    LoginTrackerPageSchema,
  ),
  searches: get(
    '/api/admin/trackers/searches',
    'Search runs: who, when, the criteria, counts and duration.',
    SearchTrackerQuerySchema,
    SearchTrackerPageSchema,
  ),
  exports: get(
    '/api/admin/trackers/exports',
    'Export jobs with their records, credits, format, status, file and downloads.',
    ExportTrackerQuerySchema,
    ExportTrackerPageSchema,
  ),
  datasets: get(
    '/api/admin/trackers/datasets',
    'Flat-file (dataset) downloads with the dataset type.',
    DatasetTrackerQuerySchema,
    DatasetTrackerPageSchema,
  ),
  terms: get(
    '/api/admin/trackers/terms',
    'Reported unidentified terms with their curation state.',
    TermTrackerQuerySchema,
    TermTrackerPageSchema,
  ),
  organisations: defineEndpoint({
    method: 'GET',
    path: '/api/admin/trackers/organisations',
    access: TRACKER_ROLES,
    summary: 'Organisations to filter the trackers by (id and name).',
    response: TrackerOrganisationsSchema,
  }),
  csv: defineEndpoint({
    method: 'GET',
    path: '/api/admin/trackers/csv/:tracker',
    access: TRACKER_ROLES,
    summary: 'The filtered rows of one tracker as CSV (at most 100,000 rows).',
    params: TrackerParamsSchema,
    query: TrackerCsvQuerySchema,
    response: z.string(),
    responseType: 'text/csv',
  }),
  termCandidates: defineEndpoint({
    method: 'GET',
    path: '/api/admin/trackers/terms/:termId/candidates',
    access: TRACKER_ROLES,
    summary: 'What a reported term could mean: records of its list type whose name contains, or id equals, `q`.',
    params: TermIdParams,
    query: TermCandidatesQuerySchema,
    response: TermCandidatesResponseSchema,
  }),
  resolveTerm: defineEndpoint({
    method: 'POST',
    path: '/api/admin/trackers/terms/:termId/resolve',
    access: TRACKER_ROLES,
    summary: 'Resolves a reported term: it becomes a synonym of the record picked, so the next upload of its list identifies it.',
    params: TermIdParams,
    body: ResolveTermRequestSchema,
    response: CurationResponseSchema,
  }),
  rejectTerm: defineEndpoint({
    method: 'POST',
    path: '/api/admin/trackers/terms/:termId/reject',
    access: TRACKER_ROLES,
    summary: 'Rejects a reported term (it stays unidentified), with a note.',
    params: TermIdParams,
    body: RejectTermRequestSchema,
    response: CurationResponseSchema,
  }),
} as const;
