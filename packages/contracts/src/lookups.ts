import { z } from 'zod';
import { defineEndpoint } from './endpoint.ts';
import { SEARCH_ROLES } from './roles.ts';

/**
 * Autocomplete look-ups of the search builder (spec §7 "Autocomplete"). Every look-up answers
 * items best first: exact match, then prefix matches, then word (token) matches, each ordered by
 * how much data they lead to, then alphabetically.
 */
export const LookupQuerySchema = z.object({
  term: z.string().trim().min(1, 'Type at least one character').max(200),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
export type LookupQuery = z.infer<typeof LookupQuerySchema>;

export const LookupResultSchema = z.object({
  /** What the row sends back: a numeric id, or the text itself for vocabularies without ids. */
  id: z.union([z.number().int(), z.string()]),
  label: z.string(),
  /** Secondary text shown under the label (e.g. gene symbol · UniProt · organism). */
  detail: z.string().nullable().optional(),
  /** Which field matched (name, synonym, uniprot, gene, entrez, pdb, cas, inchikey ...). */
  matchedOn: z.string().optional(),
  /** How many activities (or records) the item leads to, when cheap to know. */
  count: z.number().int().nullable().optional(),
});
export type LookupResult = z.infer<typeof LookupResultSchema>;
export const LookupResponseSchema = z.object({ items: z.array(LookupResultSchema) });
export type LookupResponse = z.infer<typeof LookupResponseSchema>;

export const ActivityUomLookupSchema = LookupQuerySchema.extend({
  /** The activity type whose units to list; the term may then be empty to list them all. */
  activityType: z.string().trim().min(1).max(200),
  term: z.string().trim().max(200).default(''),
});

const get = (path: string, summary: string) =>
  defineEndpoint({ method: 'GET', path, access: SEARCH_ROLES, summary, query: LookupQuerySchema, response: LookupResponseSchema });
const post = (path: string, summary: string) =>
  defineEndpoint({ method: 'POST', path, access: SEARCH_ROLES, summary, body: LookupQuerySchema, response: LookupResponseSchema });

export const lookupEndpoints = {
  target: get('/api/guidedsearch/target', 'Targets by name, synonym, gene symbol, UniProt accession, Entrez id or PDB id.'),
  structure: get('/api/guidedsearch/structure', 'Compounds by name or synonym, CAS number, InChIKey or structure id.'),
  bibliography: get('/api/guidedsearch/bibliography', 'Documents by title words, citation, PubMed id, DOI or patent number.'),
  activityType: get('/api/guidedsearch/activitytype', 'Activity types (IC50, Ki, ...).'),
  indication: get('/api/guidedsearch/indication', 'Indications by name or MeSH id.'),
  source: get('/api/guidedsearch/source', 'Sources / taxonomy nodes (organisms, strains, cell lines).'),
  strainGenus: get('/api/guidedsearch/strain/genus', 'Genus names of sources.'),
  strainSpecies: get('/api/guidedsearch/strain/species', 'Species names of sources.'),
  strainStrain: get('/api/guidedsearch/strain/strain', 'Strain names of sources.'),
  clinicalPhase: get(
    '/api/guidedsearch/clinicalphase',
    'Clinical phases and statuses (without Pre-registration, Clinical Phase Unknown and Phase IV, spec §5).',
  ),
  moleculeCategory: get('/api/guidedsearch/moleculecategory', 'Compound (molecule) categories.'),
  activityMechanism: get('/api/guidedsearch/activitymechanism', 'Activity mechanisms (inhibitor, agonist, ...).'),
  targetByName: post('/api/guidedsearch/target/by/name', 'Targets by name or synonym.'),
  targetByPdbId: post('/api/guidedsearch/target/by/pdbid', 'Targets by PDB id.'),
  targetByOfficialGeneName: post('/api/guidedsearch/target/by/officialgenename', 'Targets by official gene symbol.'),
  targetByEntrezGeneId: post('/api/guidedsearch/target/by/entrezgeneid', 'Targets by Entrez gene id.'),
  targetByUniprotId: post('/api/guidedsearch/target/by/uniprotid', 'Targets by UniProt accession.'),
  doiCustomSearch: post('/api/guidedsearch/doi/customsearch', 'Documents by DOI.'),
  journalCustomSearch: post('/api/guidedsearch/journal/customsearch', 'Journal names.'),
  patentCustomSearch: post('/api/guidedsearch/patent/customsearch', 'Patents by number (with or without country code).'),
  companyByName: post('/api/guidedsearch/company/by/name', 'Companies by name.'),
  activityUom: defineEndpoint({
    method: 'POST',
    path: '/api/guidedsearch/activityendpoints/by/activityuom',
    access: SEARCH_ROLES,
    summary: 'Units used with one activity type, most used first.',
    body: ActivityUomLookupSchema,
    response: LookupResponseSchema,
  }),
} as const;
