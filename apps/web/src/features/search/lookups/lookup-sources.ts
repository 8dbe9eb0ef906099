import { lookupEndpoints } from '@kb/contracts/lookups';
import type { LookupResult } from '@kb/contracts/lookups';
import { callApi } from '../../../app/api-client.ts';
import type { TargetField } from '../builder/row-drafts.ts';

/** One autocomplete: a stable key (query cache) and how to ask the server. */
export interface LookupSource {
  key: string;
  fetch: (term: string, signal: AbortSignal) => Promise<LookupResult[]>;
}

/** Suggestions asked for per keystroke (the server caps at 100). */
const LOOKUP_LIMIT = 20;

type GetLookup = (typeof lookupEndpoints)['target'];
type PostLookup = (typeof lookupEndpoints)['targetByName'];

function getSource(endpoint: GetLookup): LookupSource {
  return {
    key: endpoint.path,
    fetch: async (term, signal) => (await callApi(endpoint, { query: { term, limit: LOOKUP_LIMIT } }, { signal })).items,
  };
}

function postSource(endpoint: PostLookup): LookupSource {
  return {
    key: endpoint.path,
    fetch: async (term, signal) => (await callApi(endpoint, { body: { term, limit: LOOKUP_LIMIT } }, { signal })).items,
  };
}

/** Every look-up of the builder (spec §7 "Autocomplete"). */
export const LOOKUPS = {
  target: getSource(lookupEndpoints.target),
  structure: getSource(lookupEndpoints.structure),
  bibliography: getSource(lookupEndpoints.bibliography),
  activityType: getSource(lookupEndpoints.activityType),
  indication: getSource(lookupEndpoints.indication),
  source: getSource(lookupEndpoints.source),
  strainGenus: getSource(lookupEndpoints.strainGenus),
  strainSpecies: getSource(lookupEndpoints.strainSpecies),
  strainStrain: getSource(lookupEndpoints.strainStrain),
  clinicalPhase: getSource(lookupEndpoints.clinicalPhase),
  moleculeCategory: getSource(lookupEndpoints.moleculeCategory),
  activityMechanism: getSource(lookupEndpoints.activityMechanism),
  targetByName: postSource(lookupEndpoints.targetByName),
  targetByPdbId: postSource(lookupEndpoints.targetByPdbId),
  targetByOfficialGeneName: postSource(lookupEndpoints.targetByOfficialGeneName),
  targetByEntrezGeneId: postSource(lookupEndpoints.targetByEntrezGeneId),
  targetByUniprotId: postSource(lookupEndpoints.targetByUniprotId),
  doi: postSource(lookupEndpoints.doiCustomSearch),
  journal: postSource(lookupEndpoints.journalCustomSearch),
  patent: postSource(lookupEndpoints.patentCustomSearch),
  company: postSource(lookupEndpoints.companyByName),
} satisfies Record<string, LookupSource>;

/** The look-up behind each target field of the field selector. */
export const TARGET_LOOKUP: Record<TargetField, LookupSource> = {
  any: LOOKUPS.target,
  name: LOOKUPS.targetByName,
  uniprot: LOOKUPS.targetByUniprotId,
  gene: LOOKUPS.targetByOfficialGeneName,
  entrez: LOOKUPS.targetByEntrezGeneId,
  pdb: LOOKUPS.targetByPdbId,
};

/** Units used with one activity type (spec §7 activityendpoints/by/activityuom); the term may be empty. */
export function activityUomSource(activityType: string): LookupSource {
  return {
    key: `${lookupEndpoints.activityUom.path}?type=${activityType}`,
    fetch: async (term, signal) =>
      (await callApi(lookupEndpoints.activityUom, { body: { activityType, term, limit: LOOKUP_LIMIT } }, { signal })).items,
  };
}
