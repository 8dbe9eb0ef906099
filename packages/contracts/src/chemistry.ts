import { z } from 'zod';
import { defineEndpoint } from './endpoint.ts';
import { SEARCH_ROLES } from './roles.ts';
import {
  MAX_SIMILARITY_NEAREST,
  PROPERTY_FIELDS,
  SIMILARITY_NEAREST_MESSAGE,
  STRUCTURE_CATEGORIES,
  STRUCTURE_FEATURES,
  StructurePropertiesSchema,
} from './search.ts';

/**
 * The chemistry engine's calls (spec §7 structure look-ups, physicochemical counts and property
 * ranges) plus depictions and the engine status. Searching by structure inside a guided search
 * goes through the structure row (search.ts); these calls preview and look up.
 */

/** A whole InChIKey (skeleton-stereo-protonation blocks), and its first block alone (the skeleton). */
export const INCHIKEY_PATTERN = /^[A-Z]{14}-[A-Z]{10}-[A-Z]$/;
export const INCHIKEY_SKELETON_PATTERN = /^[A-Z]{14}$/;
/** Either form, as a look-up accepts it. */
export function isInchikeyOrSkeleton(value: string): boolean {
  return INCHIKEY_PATTERN.test(value) || INCHIKEY_SKELETON_PATTERN.test(value);
}
export const NOT_AN_INCHIKEY_MESSAGE =
  'This is not an InChIKey: expected 14 letters, a dash, 10 letters, a dash and one letter (or just the first 14 letters).';

/** Spec §5 similarity defaults when a row leaves them empty. */
export const DEFAULT_SIMILARITY_MIN = 0.7;
export const DEFAULT_SIMILARITY_MAX = 1;
/** Hits a preview may ask for. */
export const PREVIEW_LIMIT_MAX = 100;

export const StructureHitSchema = z.object({
  strId: z.number().int(),
  smiles: z.string(),
  /** Preferred compound name, when the structure has one. */
  name: z.string().nullable(),
  /** Tanimoto to the query (similarity searches only). */
  similarity: z.number().nullable(),
});
export type StructureHit = z.infer<typeof StructureHitSchema>;

export const InchikeyLookupRequestSchema = z.object({
  inchikey: z
    .string()
    .trim()
    .max(64, NOT_AN_INCHIKEY_MESSAGE)
    .transform((v) => v.toUpperCase())
    .refine(isInchikeyOrSkeleton, NOT_AN_INCHIKEY_MESSAGE),
});
export const InchikeyLookupResponseSchema = z.object({
  /** exact: the whole key matched; skeleton: only its first block (other stereo / isotope / protonation forms). */
  match: z.enum(['exact', 'skeleton', 'none']),
  structures: z.array(StructureHitSchema),
  /** More structures match than are listed. */
  more: z.boolean(),
});

export const StructurePreviewRequestSchema = z
  .object({
    inputType: z.enum(['smiles', 'smarts', 'molfile']),
    // Not trimmed: a molfile's first lines may be blank.
    value: z
      .string()
      .max(100_000)
      .refine((v) => v.trim().length > 0, 'Enter a structure: draw it, or type SMILES, SMARTS or a molfile'),
    category: z.enum(STRUCTURE_CATEGORIES),
    similarityMin: z.number().min(0).max(1).nullable().optional(),
    similarityMax: z.number().min(0).max(1).nullable().optional(),
    /** As the structure row's (search.ts): only the N nearest in the range; the preview shows the first of them. */
    similarityNearest: z
      .number()
      .int(SIMILARITY_NEAREST_MESSAGE)
      .min(1, SIMILARITY_NEAREST_MESSAGE)
      .max(MAX_SIMILARITY_NEAREST, SIMILARITY_NEAREST_MESSAGE)
      .nullable()
      .optional(),
    feature: z.enum(STRUCTURE_FEATURES).default('desalted'),
    limit: z.number().int().min(1).max(PREVIEW_LIMIT_MAX).default(12),
  })
  .refine((q) => q.similarityMin == null || q.similarityMax == null || q.similarityMin <= q.similarityMax, {
    message: 'Minimum similarity is above the maximum',
    path: ['similarityMin'],
  });
export type StructurePreviewRequest = z.output<typeof StructurePreviewRequestSchema>;

export const StructurePreviewResponseSchema = z.object({
  /** What RDKit made of the query: canonical SMILES (molecules) or SMARTS (patterns). */
  query: z.object({ smiles: z.string().nullable(), smarts: z.string().nullable() }),
  hits: z.array(StructureHitSchema),
  /** True when every structure was searched, so `total` is exact. */
  complete: z.boolean(),
  /** Exact number of hits when `complete`, else null (the first page came back before the end). */
  total: z.number().int().nullable(),
  searched: z.number().int(),
  indexSize: z.number().int(),
  elapsedMs: z.number(),
});
export type StructurePreviewResponse = z.infer<typeof StructurePreviewResponseSchema>;

export const PhysicochemicalRequestSchema = z.object({ properties: StructurePropertiesSchema });
export const PhysicochemicalResponseSchema = z.object({ count: z.number().int(), total: z.number().int() });

export const PropertyRangeSchema = z.object({
  column: z.enum(Object.keys(PROPERTY_FIELDS) as [keyof typeof PROPERTY_FIELDS, ...(keyof typeof PROPERTY_FIELDS)[]]),
  min: z.number().nullable(),
  max: z.number().nullable(),
  /** Structures with a value (pKa, logD and solubility are known for few). */
  known: z.number().int(),
});
export const PropertyRangesSchema = z.object({ structures: z.number().int(), properties: z.array(PropertyRangeSchema) });
export type PropertyRanges = z.infer<typeof PropertyRangesSchema>;

const Dimension = z.coerce.number().int().min(40).max(1200);
/** Longest substructure a depiction highlights: it travels in the picture's URL. */
export const HIGHLIGHT_MAX_CHARS = 4_000;
export const DepictionQuerySchema = z
  .object({
    /** One of: a stored structure, or a SMILES / SMARTS / molfile given here. */
    strId: z.coerce.number().int().positive().optional(),
    smiles: z.string().max(4_000).optional(),
    smarts: z.string().max(4_000).optional(),
    /** In a URL: a few kilobytes at most (a molfile of ~100 atoms); bigger drawings use SMILES. */
    molfile: z.string().max(12_000).optional(),
    /** Substructure to highlight (SMILES or SMARTS, see highlightKind). */
    highlight: z.string().max(HIGHLIGHT_MAX_CHARS).optional(),
    highlightKind: z.enum(['smiles', 'smarts']).default('smarts'),
    /** match: the highlight query's atoms and bonds are coloured; rest: everything outside its matches (what differs from it). */
    highlightMode: z.enum(['match', 'rest']).default('match'),
    /**
     * A core or query (SMILES or SMARTS, as highlightKind says of the highlight) to lay the drawing out
     * like: its matched atoms are placed as the template is drawn, so a series reads in one orientation.
     * A structure it does not match is drawn as usual.
     */
    align: z.string().max(HIGHLIGHT_MAX_CHARS).optional(),
    alignKind: z.enum(['smiles', 'smarts']).default('smarts'),
    w: Dimension.default(240),
    h: Dimension.default(180),
  })
  .refine((q) => [q.strId, q.smiles, q.smarts, q.molfile].filter((v) => v !== undefined && v !== '').length === 1, {
    message: 'Give exactly one of strId, smiles, smarts or molfile',
  });
export type DepictionQuery = z.input<typeof DepictionQuerySchema>;
export type DepictionParams = z.output<typeof DepictionQuerySchema>;

export const EngineStatusSchema = z.object({
  /** recovering: a chemistry worker is being replaced (RDKit trapped or ran past its time) and its part of the index reloaded; structure searches wait for it. */
  state: z.enum(['idle', 'loading', 'ready', 'recovering', 'failed']),
  loaded: z.number().int(),
  total: z.number().int(),
  shards: z.number().int(),
  workers: z.number().int(),
  loadMs: z.number().nullable(),
  /** The frequent fragments' exact answers (benzene, pyridine, amide, carboxylic acid) are computed for the whole index (in the background after a load). */
  fragmentsReady: z.boolean(),
  error: z.string().nullable(),
});

export const chemistryEndpoints = {
  structuresByInchikey: defineEndpoint({
    method: 'POST',
    path: '/api/guidedsearch/structures/by/inchikey',
    access: SEARCH_ROLES,
    summary:
      'Structures with an InChIKey (whole key, else the same skeleton = first block); fills the read-only marker of a structure row.',
    body: InchikeyLookupRequestSchema,
    response: InchikeyLookupResponseSchema,
  }),
  structuresBySmilesSmarts: defineEndpoint({
    method: 'POST',
    path: '/api/guidedsearch/structures/by/smilessmarts',
    access: SEARCH_ROLES,
    summary:
      'Checks a SMILES / SMARTS / molfile query and answers its first hits (exact, substructure or similarity) with the count when the search completed.',
    body: StructurePreviewRequestSchema,
    response: StructurePreviewResponseSchema,
  }),
  physicochemicalStructural: defineEndpoint({
    method: 'POST',
    path: '/api/guidedsearch/structure/physicochemical/structural',
    access: SEARCH_ROLES,
    summary: 'Number of structures within structural and physicochemical property ranges.',
    body: PhysicochemicalRequestSchema,
    response: PhysicochemicalResponseSchema,
  }),
  propertiesMinMax: defineEndpoint({
    method: 'GET',
    path: '/api/security/bibliography/structural/properties/minmax',
    access: SEARCH_ROLES,
    summary: 'Smallest and largest value of every structural and physicochemical property in the knowledge base.',
    response: PropertyRangesSchema,
  }),
  depiction: defineEndpoint({
    method: 'GET',
    path: '/api/chemistry/depiction',
    // The roles that see structures (search, results, leaflets); drawing costs RDKit time.
    access: SEARCH_ROLES,
    summary:
      'SVG depiction of a stored structure or of a SMILES / SMARTS / molfile, optionally with a substructure highlighted (ETag, 304).',
    query: DepictionQuerySchema,
    response: z.string(),
    responseType: 'image/svg+xml',
    touchesSession: false,
  }),
  engineStatus: defineEndpoint({
    method: 'GET',
    path: '/api/chemistry/status',
    access: 'authenticated',
    summary: 'State of the structure index (loading progress, size, workers).',
    response: EngineStatusSchema,
    touchesSession: false,
  }),
};
