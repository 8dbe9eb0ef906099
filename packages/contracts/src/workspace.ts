import { z } from 'zod';
import { defineEndpoint } from './endpoint.ts';
import { SEARCH_ROLES } from './roles.ts';
import { AppliedFilterSchema, SearchCriteriaSchema, SessionIdSchema, SixCountsSchema } from './search.ts';
import { SelectionSchema } from './results.ts';
import { ResultTabKeySchema } from './result-tabs.ts';
import { MessageResponseSchema } from './auth.ts';

/**
 * A chemist's workspace (issue 59; docs/workspace.md): what lasts beyond one search and one login.
 * - **Collections**: named lists of compounds (structures), made from a selection, a sheet, an
 *   upload or by hand; opened as a sheet, in the SAR view or as a search row.
 * - **Saved result sets**: a whole results page (the search, its chart filters, columns, sort,
 *   selection and open tab) kept by name and restored by a permanent link.
 * - **History**: the user's last searches with their counts and filters, restorable in one click.
 * - **Sharing** inside the organisation: private, named colleagues, or the whole organisation;
 *   read-only or editable. Anyone else gets 404 (docs/access-control.md "Workspace").
 */

const PositiveId = z.coerce
  .number({ message: 'The id must be a whole number' })
  .int('The id must be a whole number')
  .positive('The id must be above zero');
const StrIds = z.array(z.number().int().positive()).max(100_000, 'At most 100,000 compounds at once');

/** Most compounds one collection holds. */
export const COLLECTION_MAX_COMPOUNDS = 100_000;
/** Most collections and saved result sets one user owns (each kind). */
export const WORKSPACE_MAX_OWNED = 500;
/** Searches the history keeps per user (the newest first). */
export const HISTORY_LIMIT = 100;
/** Largest upload of compounds into a collection (text of SMILES, SDF or ids). */
export const COLLECTION_UPLOAD_MAX_BYTES = 5 * 1024 * 1024;
/** Most lines (or SDF records) one upload reads; a larger file is refused before any is matched. */
export const COLLECTION_UPLOAD_MAX_ENTRIES = 20_000;
/** Unmatched lines an upload answer lists (the count says how many in all). */
export const COLLECTION_UPLOAD_MAX_REPORTED = 500;
/** Largest saved results-page state (JSON), so one saved set cannot fill the database. */
export const RESULT_SET_STATE_MAX_BYTES = 256 * 1024;

const Name = z.string().trim().min(1, 'Give it a name').max(200, 'A name is at most 200 characters');
const Description = z.string().trim().max(2000, 'A description is at most 2,000 characters');

// ---------------------------------------------------------------- sharing

/**
 * Who sees a collection or saved result set besides its owner: nobody (`private`), the colleagues
 * named in `people`, or everyone of the owner's organisation. Colleagues must be in the owner's
 * organisation when they open it: leaving the organisation ends their access at once.
 */
export const VISIBILITIES = ['private', 'people', 'organisation'] as const;
export const VisibilitySchema = z.enum(VISIBILITIES);
export type Visibility = z.infer<typeof VisibilitySchema>;
/** What a colleague may do: read (open, copy, use in a search) or edit (also add, remove, rename, update). */
export const SHARE_ACCESS = ['read', 'edit'] as const;
export const ShareAccessSchema = z.enum(SHARE_ACCESS);
export type ShareAccess = z.infer<typeof ShareAccessSchema>;

export const SharePersonSchema = z.object({ userId: z.number().int().positive(), access: ShareAccessSchema });
export const SharingRequestSchema = z.object({
  visibility: VisibilitySchema,
  /** With `organisation`: what every colleague may do. */
  organisationAccess: ShareAccessSchema.default('read'),
  /** With `people` (kept, but unused, with the other visibilities). */
  people: z.array(SharePersonSchema).max(200, 'Share with at most 200 colleagues by name').default([]),
});
export type SharingRequest = z.infer<typeof SharingRequestSchema>;

export const PersonSchema = z.object({ userId: z.number().int(), name: z.string(), email: z.string() });
export type Person = z.infer<typeof PersonSchema>;

/** The sharing of an object, as its owner sees it (colleagues see `visibility` and their own access only). */
export const SharingSchema = z.object({
  visibility: VisibilitySchema,
  organisationAccess: ShareAccessSchema,
  people: z.array(PersonSchema.extend({ access: ShareAccessSchema })),
});
export type Sharing = z.infer<typeof SharingSchema>;

/** What every listed workspace object says about ownership and the caller's rights. */
const OwnedShape = {
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  owner: PersonSchema,
  /** The caller owns it (may share and delete it). */
  mine: z.boolean(),
  /** The caller may change it (owner, or a colleague with edit access). */
  canEdit: z.boolean(),
  visibility: VisibilitySchema,
  /** For the owner: how many colleagues are named on it (the list says "Shared with 3"); null for a colleague. */
  sharedWith: z.number().int().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
};

/** Colleagues of the caller's organisation (the sharing dialog's picker), matching `q` in name or e-mail. */
export const ColleaguesQuerySchema = z.object({ q: z.string().trim().max(200).default('') });
export const ColleaguesResponseSchema = z.object({
  /** The caller's organisation (null: the caller belongs to none, so can share with nobody). */
  organisation: z.string().nullable(),
  rows: z.array(PersonSchema),
});

// ---------------------------------------------------------------- collections

export const CollectionSummarySchema = z.object({ ...OwnedShape, compounds: z.number().int() });
export type CollectionSummary = z.infer<typeof CollectionSummarySchema>;
export const CollectionDetailSchema = CollectionSummarySchema.extend({
  /** Only for the owner; null for a colleague. */
  sharing: SharingSchema.nullable(),
});
export type CollectionDetail = z.infer<typeof CollectionDetailSchema>;
export const CollectionListSchema = z.object({ rows: z.array(CollectionSummarySchema) });

/**
 * Compounds to add to a collection: structure ids (ticked in a grid, typed, or a sheet's rows), or
 * the rows of a results tab (ticked or all as filtered, as the SAR view takes them).
 */
export const CompoundSourceSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('ids'), strIds: StrIds.min(1, 'Choose at least one compound') }),
  z.object({
    kind: z.literal('session'),
    sessionid: SessionIdSchema,
    tab: ResultTabKeySchema,
    /** The ticked rows (or all minus the unticked); absent: every row of the tab as filtered. */
    selection: SelectionSchema.nullable().optional(),
    strIdList: StrIds.optional(),
  }),
  z.object({ kind: z.literal('collection'), collectionId: z.number().int().positive() }),
]);
export type CompoundSource = z.infer<typeof CompoundSourceSchema>;

export const CreateCollectionRequestSchema = z.object({
  name: Name,
  description: Description.default(''),
  /** Absent: an empty collection (compounds are added later). */
  source: CompoundSourceSchema.optional(),
});
export type CreateCollectionRequest = z.infer<typeof CreateCollectionRequestSchema>;
export const UpdateCollectionRequestSchema = z.object({ name: Name.optional(), description: Description.optional() });
export const CollectionParamsSchema = z.object({ id: PositiveId });

export const CollectionItemsQuerySchema = z.object({
  page: z.coerce.number().int().min(0).max(100_000).default(0),
  pageSize: z.coerce.number().int().min(1).max(500).default(50),
});
export const CollectionItemSchema = z.object({
  strId: z.number().int(),
  smiles: z.string(),
  /** A name of the compound in the knowledge base, when it has one. */
  name: z.string().nullable(),
  addedAt: z.string(),
});
export const CollectionItemsSchema = z.object({ rowCount: z.number().int(), rows: z.array(CollectionItemSchema) });

export const AddItemsRequestSchema = z.object({ source: CompoundSourceSchema });
export const RemoveItemsRequestSchema = z.object({ strIds: StrIds.min(1, 'Choose at least one compound to remove') });
export const ItemsChangedSchema = z.object({
  /** Compounds now added (or removed). */
  changed: z.number().int(),
  /** Compounds that were already in (adding) or not in (removing) the collection. */
  unchanged: z.number().int(),
  compounds: z.number().int(),
});
export type ItemsChanged = z.infer<typeof ItemsChangedSchema>;

/** What an upload's lines are: SMILES (one a line, a name may follow), an SDF, or structure ids. */
export const COLLECTION_UPLOAD_FORMATS = ['smiles', 'sdf', 'ids'] as const;
export const CollectionUploadRequestSchema = z.object({
  format: z.enum(COLLECTION_UPLOAD_FORMATS),
  text: z.string().max(COLLECTION_UPLOAD_MAX_BYTES, 'The file is larger than 5 MB'),
  fileName: z.string().max(300).optional(),
});
export const UnmatchedLineSchema = z.object({
  /** Line number (SDF: record number), from 1. */
  line: z.number().int(),
  text: z.string(),
  /** Why: not readable (with RDKit's reason), or not in the knowledge base. */
  reason: z.string(),
});
export const CollectionUploadResultSchema = ItemsChangedSchema.extend({
  /** Entries read. */
  entries: z.number().int(),
  /** Entries that named a compound of the knowledge base. */
  matched: z.number().int(),
  /** How many entries matched nothing (the first COLLECTION_UPLOAD_MAX_REPORTED are listed). */
  unmatchedCount: z.number().int(),
  unmatched: z.array(UnmatchedLineSchema),
});
export type CollectionUploadResult = z.infer<typeof CollectionUploadResultSchema>;

// ---------------------------------------------------------------- saved result sets

/**
 * A results page as the user left it. `criteria` and `filters` are what the server re-runs;
 * `view` is the grid's state per tab (columns, sort, selection, density), kept as the browser
 * wrote it and bounded in size.
 */
export const ResultSetStateSchema = z.object({
  scope: z.enum(['search', 'selection']).default('search'),
  tab: ResultTabKeySchema,
  criteria: SearchCriteriaSchema,
  summary: z.string().max(2000).nullable().optional(),
  filters: z.array(AppliedFilterSchema).max(100).default([]),
  /** Counts of the search when saved (restoring compares them with the counts found now). */
  counts: SixCountsSchema.nullable().optional(),
  /** Rows of each tab after its filters when saved, by tab key. */
  filteredCounts: z.record(z.string(), z.number().int()).optional(),
  view: z.record(z.string(), z.unknown()).default({}),
});
export type ResultSetState = z.infer<typeof ResultSetStateSchema>;

export const ResultSetSummarySchema = z.object({
  ...OwnedShape,
  tab: ResultTabKeySchema,
  summary: z.string().nullable(),
  counts: SixCountsSchema.nullable(),
  /** The knowledge base's version when saved (the latest finished load), to say when it has changed since. */
  kbVersion: z.string().nullable(),
});
export type ResultSetSummary = z.infer<typeof ResultSetSummarySchema>;
export const ResultSetDetailSchema = ResultSetSummarySchema.extend({
  state: ResultSetStateSchema,
  sharing: SharingSchema.nullable(),
  /** The knowledge base's version now; differs from `kbVersion` when data was loaded since. */
  currentKbVersion: z.string().nullable(),
});
export type ResultSetDetail = z.infer<typeof ResultSetDetailSchema>;
export const ResultSetListSchema = z.object({ rows: z.array(ResultSetSummarySchema) });
export const SaveResultSetRequestSchema = z.object({ name: Name, description: Description.default(''), state: ResultSetStateSchema });
export const UpdateResultSetRequestSchema = z.object({
  name: Name.optional(),
  description: Description.optional(),
  state: ResultSetStateSchema.optional(),
});

// ---------------------------------------------------------------- history

export const HistoryEntrySchema = z.object({
  sessionid: z.string(),
  kind: z.enum(['search', 'selection']),
  summary: z.string().nullable(),
  createdAt: z.string(),
  counts: SixCountsSchema.nullable(),
  criteria: SearchCriteriaSchema.nullable(),
  /** The chart filters the user had applied to its tabs (each with its tab). */
  filters: z.array(AppliedFilterSchema),
});
export type HistoryEntry = z.infer<typeof HistoryEntrySchema>;
export const HistoryResponseSchema = z.object({ rows: z.array(HistoryEntrySchema) });

// ---------------------------------------------------------------- endpoints

const CollectionParams = CollectionParamsSchema;

export const workspaceEndpoints = {
  colleagues: defineEndpoint({
    method: 'GET',
    path: '/api/workspace/colleagues',
    access: SEARCH_ROLES,
    summary: 'Colleagues of the caller’s organisation a collection or saved result set can be shared with.',
    query: ColleaguesQuerySchema,
    response: ColleaguesResponseSchema,
  }),
  collections: defineEndpoint({
    method: 'GET',
    path: '/api/workspace/collections',
    access: SEARCH_ROLES,
    summary: 'The caller’s collections and those shared with them, newest change first.',
    response: CollectionListSchema,
  }),
  createCollection: defineEndpoint({
    method: 'POST',
    path: '/api/workspace/collections',
    access: SEARCH_ROLES,
    summary: `Creates a collection, empty or from compounds (ids, a results tab’s rows or another collection; at most ${COLLECTION_MAX_COMPOUNDS.toLocaleString('en-US')}).`,
    body: CreateCollectionRequestSchema,
    response: CollectionDetailSchema,
  }),
  collection: defineEndpoint({
    method: 'GET',
    path: '/api/workspace/collections/:id',
    access: SEARCH_ROLES,
    summary: 'One collection the caller may see (404 otherwise).',
    params: CollectionParams,
    response: CollectionDetailSchema,
  }),
  updateCollection: defineEndpoint({
    method: 'PUT',
    path: '/api/workspace/collections/:id',
    access: SEARCH_ROLES,
    summary: 'Renames a collection or changes its description (owner or editor).',
    params: CollectionParams,
    body: UpdateCollectionRequestSchema,
    response: CollectionDetailSchema,
  }),
  deleteCollection: defineEndpoint({
    method: 'DELETE',
    path: '/api/workspace/collections/:id',
    access: SEARCH_ROLES,
    summary: 'Deletes a collection (owner only).',
    params: CollectionParams,
    response: MessageResponseSchema,
  }),
  collectionItems: defineEndpoint({
    method: 'GET',
    path: '/api/workspace/collections/:id/items',
    access: SEARCH_ROLES,
    summary: 'A page of a collection’s compounds, most recently added first.',
    params: CollectionParams,
    query: CollectionItemsQuerySchema,
    response: CollectionItemsSchema,
  }),
  addItems: defineEndpoint({
    method: 'POST',
    path: '/api/workspace/collections/:id/items',
    access: SEARCH_ROLES,
    summary: 'Adds compounds to a collection (owner or editor).',
    params: CollectionParams,
    body: AddItemsRequestSchema,
    response: ItemsChangedSchema,
  }),
  removeItems: defineEndpoint({
    method: 'POST',
    path: '/api/workspace/collections/:id/items/remove',
    access: SEARCH_ROLES,
    summary: 'Removes compounds from a collection (owner or editor).',
    params: CollectionParams,
    body: RemoveItemsRequestSchema,
    response: ItemsChangedSchema,
  }),
  uploadItems: defineEndpoint({
    method: 'POST',
    path: '/api/workspace/collections/:id/upload',
    access: SEARCH_ROLES,
    summary: 'Adds the compounds of a file of SMILES, an SDF or structure ids; lines that match nothing are reported.',
    params: CollectionParams,
    body: CollectionUploadRequestSchema,
    response: CollectionUploadResultSchema,
    bodyLimit: COLLECTION_UPLOAD_MAX_BYTES * 2,
  }),
  shareCollection: defineEndpoint({
    method: 'PUT',
    path: '/api/workspace/collections/:id/sharing',
    access: SEARCH_ROLES,
    summary: 'Shares a collection inside the organisation (owner only; audited).',
    params: CollectionParams,
    body: SharingRequestSchema,
    response: CollectionDetailSchema,
  }),
  resultSets: defineEndpoint({
    method: 'GET',
    path: '/api/workspace/result-sets',
    access: SEARCH_ROLES,
    summary: 'The caller’s saved result sets and those shared with them, newest change first.',
    response: ResultSetListSchema,
  }),
  saveResultSet: defineEndpoint({
    method: 'POST',
    path: '/api/workspace/result-sets',
    access: SEARCH_ROLES,
    summary: 'Saves a results page (search, filters, columns, sort, selection, open tab) by name.',
    body: SaveResultSetRequestSchema,
    response: ResultSetDetailSchema,
  }),
  resultSet: defineEndpoint({
    method: 'GET',
    path: '/api/workspace/result-sets/:id',
    access: SEARCH_ROLES,
    summary: 'One saved result set the caller may see, with its state (404 otherwise).',
    params: CollectionParams,
    response: ResultSetDetailSchema,
  }),
  updateResultSet: defineEndpoint({
    method: 'PUT',
    path: '/api/workspace/result-sets/:id',
    access: SEARCH_ROLES,
    summary: 'Renames a saved result set or replaces its state (owner or editor).',
    params: CollectionParams,
    body: UpdateResultSetRequestSchema,
    response: ResultSetDetailSchema,
  }),
  deleteResultSet: defineEndpoint({
    method: 'DELETE',
    path: '/api/workspace/result-sets/:id',
    access: SEARCH_ROLES,
    summary: 'Deletes a saved result set (owner only).',
    params: CollectionParams,
    response: MessageResponseSchema,
  }),
  shareResultSet: defineEndpoint({
    method: 'PUT',
    path: '/api/workspace/result-sets/:id/sharing',
    access: SEARCH_ROLES,
    summary: 'Shares a saved result set inside the organisation (owner only; audited).',
    params: CollectionParams,
    body: SharingRequestSchema,
    response: ResultSetDetailSchema,
  }),
  history: defineEndpoint({
    method: 'GET',
    path: '/api/workspace/history',
    access: SEARCH_ROLES,
    summary: `The caller’s last ${HISTORY_LIMIT} searches with their counts and the filters applied to them.`,
    response: HistoryResponseSchema,
  }),
} as const;
