import type { DefaultCounts, SearchCounts } from '@kb/contracts/search';
import { toCount } from '../../../app/format/count-format.ts';

/** The six figures the page shows, whichever call they came from. */
export interface CountFigures {
  structures: number;
  compounds: number;
  activities: number;
  assays: number;
  references: number;
  clinicalCompounds: number;
}

export const ZERO_COUNTS: CountFigures = { structures: 0, compounds: 0, activities: 0, assays: 0, references: 0, clinicalCompounds: 0 };

/** Figures of a search (spec §7 allresultscount rows[0]). */
export function searchFigures(counts: SearchCounts): CountFigures {
  return {
    structures: toCount(counts.stridscount),
    compounds: toCount(counts.gvkidscount),
    activities: toCount(counts.actidscount),
    assays: toCount(counts.assayidscount),
    references: toCount(counts.refidscount),
    clinicalCompounds: toCount(counts.clinicalcompoundidscount),
  };
}

/** Figures of the whole knowledge base (spec §3 default criteria counts). */
export function defaultFigures(counts: DefaultCounts): CountFigures {
  return {
    structures: toCount(counts.strIdsCount),
    compounds: toCount(counts.gvkIdsCount),
    activities: toCount(counts.actIdsCount),
    assays: toCount(counts.assayIdsCount),
    references: toCount(counts.refIdsCount),
    clinicalCompounds: toCount(counts.clinicalCompoundIdsCount),
  };
}

/** Each figure, its label and the results tab that lists it (spec §2 results tabs). */
export const COUNT_ITEMS: readonly { key: keyof CountFigures; label: string; tab: string }[] = [
  { key: 'structures', label: 'Structures', tab: 'structuretab' },
  { key: 'compounds', label: 'Compounds', tab: 'structuretab' },
  { key: 'activities', label: 'Activities', tab: 'activitiestab' },
  { key: 'assays', label: 'Assays', tab: 'assaytab' },
  { key: 'references', label: 'References', tab: 'documentstab' },
  { key: 'clinicalCompounds', label: 'Clinical compounds', tab: 'developmentcompoundstab' },
];
