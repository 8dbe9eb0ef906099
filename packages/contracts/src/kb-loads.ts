import { z } from 'zod';
import { defineEndpoint } from './endpoint.ts';
import { SEARCH_ROLES } from './roles.ts';

/**
 * Loads of the knowledge base (issue 17): each demo seed, ChEMBL import and release update is one
 * load with a report — what changed per entity (added, updated, retired) and a data-quality
 * summary. /home shows what is new in the latest load, /superadmin the reports, and saved-search
 * alerts count the rows added since the load a user last saw. docs/data-model.md "Loads".
 */

export const KB_LOAD_KINDS = ['seed', 'import', 'update'] as const;
export const KbLoadKindSchema = z.enum(KB_LOAD_KINDS);
export type KbLoadKind = z.infer<typeof KbLoadKindSchema>;

export const KB_LOAD_STATUSES = ['running', 'complete', 'partial', 'failed'] as const;
export const KbLoadStatusSchema = z.enum(KB_LOAD_STATUSES);
export type KbLoadStatus = z.infer<typeof KbLoadStatusSchema>;

const Count = z.number().int().nonnegative();

/** What one load did to one entity (structures, compounds, activities, assays, documents, targets, clinical compounds ...). */
export const EntityChangeSchema = z.object({
  entity: z.string(),
  added: Count,
  /** Rows of an earlier load whose values changed (same source key). */
  updated: Count,
  /** Rows of an earlier load that the new release no longer has: kept aside, out of searches. */
  retired: Count,
  /** Live rows after the load. */
  total: Count,
});
export type EntityChange = z.infer<typeof EntityChangeSchema>;

export const SkippedRowsSchema = z.object({ step: z.string(), reason: z.string(), rows: Count });
export type SkippedRows = z.infer<typeof SkippedRowsSchema>;

/** The data-quality report of a load, as read from the knowledge base after it. */
export const DataQualitySchema = z.object({
  rowsPerEntity: z.array(z.object({ entity: z.string(), rows: Count })),
  activities: z.object({
    total: Count,
    /** Activities whose compound has a structure (the others are found by target, assay, document, type ...). */
    withStructure: Count,
    /** Activities with the source's standardised type, relation, value and units (else the published ones are used). */
    standardised: Count,
    /** Activities whose value was converted to µM from another unit. */
    unitConversions: Count,
  }),
  compounds: z.object({ total: Count, withStructure: Count }),
  /** Rows of the source not loaded, per step and reason. */
  skipped: z.array(SkippedRowsSchema),
});
export type DataQuality = z.infer<typeof DataQualitySchema>;

export const KbLoadReportSchema = z.object({
  changes: z.array(EntityChangeSchema),
  quality: DataQualitySchema.nullable(),
  /** Warnings and facts worth knowing (tables missing from the file, unreadable parts ...). */
  notes: z.array(z.string()),
});
export type KbLoadReport = z.infer<typeof KbLoadReportSchema>;

export const KbLoadSchema = z.object({
  loadId: z.number().int(),
  kind: KbLoadKindSchema,
  /** Dataset label or release name (demo-S, chembl_35 ...). */
  label: z.string(),
  sourceFile: z.string().nullable(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  status: KbLoadStatusSchema,
  report: KbLoadReportSchema.nullable(),
});
export type KbLoad = z.infer<typeof KbLoadSchema>;

/* ---------- release files and imports from the super-admin page (issue 17) ---------- */

/** A release file name: letters, digits, dot, dash, underscore, ending in .db — never a path. */
export const ReleaseFileNameSchema = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*\.db$/, { message: 'Choose one of the listed .db files (a file name, not a path).' });

export const ReleaseFileSchema = z.object({ name: z.string(), sizeBytes: z.number().int(), modifiedAt: z.string() });
export type ReleaseFile = z.infer<typeof ReleaseFileSchema>;
export const ReleaseFilesSchema = z.object({ folder: z.string(), files: z.array(ReleaseFileSchema) });
export type ReleaseFiles = z.infer<typeof ReleaseFilesSchema>;

export const ReleaseImportRequestSchema = z.object({
  file: ReleaseFileNameSchema,
  /** Import even when the knowledge base holds the synthetic demo data (the two would mix in every search). */
  allowMixed: z.boolean().default(false),
});
export type ReleaseImportRequest = z.infer<typeof ReleaseImportRequestSchema>;

/** The import of this server process: running (with progress), or the last one's result. */
export const ReleaseImportJobSchema = z.object({
  state: z.enum(['idle', 'running', 'done', 'failed']),
  file: z.string().nullable(),
  startedBy: z.string().nullable(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  /** "import" steps, then "derived data". */
  step: z.string().nullable(),
  rowsRead: z.number().int(),
  rowsTotal: z.number().int(),
  percent: z.number().min(0).max(100),
  /** The load it wrote (set once the import has opened it). */
  loadId: z.number().int().nullable(),
  error: z.string().nullable(),
});
export type ReleaseImportJob = z.infer<typeof ReleaseImportJobSchema>;

export const KbLoadsSchema = z.object({ loads: z.array(KbLoadSchema) });

/** `/home` "What's new": the latest finished load, or null before the first. */
export const WhatsNewSchema = z.object({ load: KbLoadSchema.nullable() });
export type WhatsNew = z.infer<typeof WhatsNewSchema>;

const SUPER = ['SUPER_ADMIN'] as const;

export const kbReleaseEndpoints = {
  releaseFiles: defineEndpoint({
    method: 'GET',
    path: '/api/superadmin/kb/files',
    access: SUPER,
    summary: 'The ChEMBL release files (.db) in the server’s import folder (KB_IMPORT_DIR): name, size, modified.',
    response: ReleaseFilesSchema,
  }),
  startImport: defineEndpoint({
    method: 'POST',
    path: '/api/superadmin/kb/import',
    access: SUPER,
    summary:
      'Imports one listed release file into the knowledge base in the server process (adds, updates, retires), then refreshes the derived data; 400 for a name not listed, 409 while an import runs or when demo data is loaded and allowMixed is not set.',
    body: ReleaseImportRequestSchema,
    response: ReleaseImportJobSchema,
  }),
  importStatus: defineEndpoint({
    method: 'GET',
    path: '/api/superadmin/kb/import',
    access: SUPER,
    summary: 'Progress of the running import (step, rows, percent) or the last one’s result.',
    response: ReleaseImportJobSchema,
    touchesSession: false,
  }),
  loads: defineEndpoint({
    method: 'GET',
    path: '/api/superadmin/kb/loads',
    access: SUPER,
    summary:
      'The loads of the knowledge base (seed, import, update), newest first, each with its report: changes per entity and data quality.',
    response: KbLoadsSchema,
  }),
  whatsNew: defineEndpoint({
    method: 'GET',
    path: '/api/kb/whatsnew',
    access: SEARCH_ROLES,
    summary: 'What is new in the knowledge base: the latest finished load’s label, date and changes per entity (null before the first).',
    response: WhatsNewSchema,
  }),
} as const;

/** How the pages name the entities of a load report. */
export const KB_ENTITY_LABELS: Record<string, string> = {
  structures: 'Structures',
  compounds: 'Compounds',
  activities: 'Activities',
  assays: 'Assays',
  documents: 'References',
  targets: 'Targets',
  clinical_compounds: 'Clinical compounds',
};
export const entityLabel = (entity: string): string => KB_ENTITY_LABELS[entity] ?? entity;
