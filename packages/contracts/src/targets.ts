import { z } from 'zod';
import { TargetTermSchema } from './search.ts';

/**
 * What the terms of a Target row stand for (docs/search-semantics.md "Target text and families"):
 * the same resolver the search compiler uses, so what the row says is what the search uses.
 */

/**
 * The synonym type of a target's ChEMBL id when the target is not a ChEMBL import's (the demo
 * catalog's real targets): the `chembl_id` column is the import's key and stays free for it.
 */
export const CHEMBL_ID_SYNONYM = 'ChEMBL id';

/** As many terms as one Target row may hold. */
export const TARGET_RESOLVE_MAX_TERMS = 10_000;
/** At most this many targets are listed (the count is always exact). */
export const TARGET_RESOLVE_MAX_LISTED = 500;

export const TargetResolveRequestSchema = z.object({
  targets: z
    .array(TargetTermSchema)
    .min(1, 'Give at least one target term')
    .max(TARGET_RESOLVE_MAX_TERMS, `A Target row holds at most ${TARGET_RESOLVE_MAX_TERMS.toLocaleString('en-US')} terms`),
  /** How many of the targets to list (by name); 0 answers the counts alone. */
  limit: z.number().int().min(0).max(TARGET_RESOLVE_MAX_LISTED).default(100),
});
export type TargetResolveRequest = z.input<typeof TargetResolveRequestSchema>;

/**
 * How a term was resolved: `picked` targets (ids), a picked `family` (classIds), an `identifier`
 * (exact gene symbol, UniProt accession, ChEMBL id, Entrez or PDB id), `text` (prefix, whole word,
 * family names; or exact names when shorter than the fuzzy minimum), a `pattern` with wildcards.
 */
export const TARGET_MATCH_KINDS = ['picked', 'family', 'identifier', 'text', 'pattern'] as const;
export type TargetMatchKind = (typeof TARGET_MATCH_KINDS)[number];

export const ResolvedTargetSchema = z.object({
  target_id: z.number().int(),
  name: z.string(),
  gene_symbol: z.string().nullable(),
  uniprot_id: z.string().nullable(),
  chembl_id: z.string().nullable(),
  organism: z.string().nullable(),
});
export type ResolvedTarget = z.infer<typeof ResolvedTargetSchema>;

export const TargetResolveResponseSchema = z.object({
  /** Distinct targets the row's terms stand for together: the targets its search uses. */
  count: z.number().int(),
  /** The first `limit` of them by name. */
  targets: z.array(ResolvedTargetSchema),
  /** Per term, in the order given: how it matched and how many targets it stands for. */
  terms: z.array(z.object({ label: z.string(), match: z.enum(TARGET_MATCH_KINDS), count: z.number().int() })),
});
export type TargetResolveResponse = z.infer<typeof TargetResolveResponseSchema>;
