import type { SearchCriteria, SearchRow } from '@kb/contracts/search';
import type { PickedItem, PropertyField, RowDraft } from './row-drafts.ts';
import { newRowKey } from './row-drafts.ts';

/**
 * Turns a saved row (a saved-query file, saved criteria, a recent search) back into a draft the
 * builder can edit. Id lists travel without their labels, so restored picks read "#id".
 */

const idItems = (ids: readonly (number | string)[] | undefined, what: string): PickedItem[] =>
  (ids ?? []).map((id) => ({ id, label: `${what} #${id}` }));
const nameItems = (names: readonly string[] | undefined): PickedItem[] => (names ?? []).map((name) => ({ id: name, label: name }));

export function rowToDraft(row: SearchRow): RowDraft {
  const base = { key: newRowKey(), operator: row.operator, fileName: row.fileName ?? null };
  switch (row.selectedOption) {
    case 'structure': {
      const query = row.structure ?? null;
      const properties: Partial<Record<PropertyField, number | null>> = {};
      for (const [field, value] of Object.entries(row.properties ?? {})) {
        if (typeof value === 'number') properties[field as PropertyField] = value;
      }
      return {
        ...base,
        selectedOption: 'structure',
        inputType: query?.inputType ?? 'name',
        value: query?.value ?? '',
        category: query?.category ?? 'exact',
        feature: query?.feature ?? 'desalted',
        similarityMin: query?.similarityMin ?? null,
        similarityMax: query?.similarityMax ?? null,
        similarityNearest: query?.similarityNearest ?? null,
        readOnly: query?.readOnly ?? false,
        properties,
        strIds: (row.strIds ?? []).map(String),
        casNumbers: [...(row.casNumbers ?? [])],
        ...(row.resultFilter ? { resultFilter: true } : {}),
      };
    }
    case 'target':
      return { ...base, selectedOption: 'target', field: 'any', targets: row.targets };
    case 'bibliography':
      return {
        ...base,
        selectedOption: 'bibliography',
        documents: idItems(row.refIds, 'Document'),
        pubmedIds: (row.pubmedIds ?? []).map(String),
        dois: [...(row.dois ?? [])],
        patents: (row.patents ?? []).map((p) => ({ countryCode: p.countryCode ?? '', year: p.year ?? null, patentNo: p.patentNo ?? '' })),
        journals: (row.journals ?? []).map((j) => ({
          journalName: j.journalName ?? '',
          year: j.year ?? null,
          volume: j.volume ?? '',
          issue: j.issue ?? '',
          pageNo: j.pageNo ?? '',
        })),
        authors: [...(row.authors ?? [])],
        fromYear: row.yearRange?.fromYear ?? null,
        toYear: row.yearRange?.toYear ?? null,
        companies: [...(row.companies ?? [])],
        sources: [...(row.sources ?? [])],
      };
    case 'company':
      return { ...base, selectedOption: 'company', companies: [...idItems(row.companyIds, 'Company'), ...nameItems(row.companyNames)] };
    case 'degrader':
      return { ...base, selectedOption: 'degrader', degraderTypes: [...row.degraderTypes], ligases: [...(row.ligases ?? [])] };
    case 'clinicalphase':
      return { ...base, selectedOption: 'clinicalphase', phases: [...row.phases] };
    case 'source':
      return {
        ...base,
        selectedOption: 'source',
        taxonomy: idItems(row.taxonomyIds, 'Source'),
        strains: (row.strains ?? []).map((s) => ({ genus: s.genus ?? '', species: s.species ?? '', strainType: s.strainType ?? '' })),
      };
    case 'indication':
      return {
        ...base,
        selectedOption: 'indication',
        indications: [...idItems(row.indicationIds, 'Indication'), ...nameItems(row.indicationNames)],
      };
    case 'activitytypes':
      return {
        ...base,
        selectedOption: 'activitytypes',
        activities: row.activities.map((a) => ({
          activityType: a.activityType,
          activityUom: a.activityUom ?? '',
          prefix: a.prefix ?? null,
          minValue: a.minValue ?? null,
          maxValue: a.maxValue ?? null,
        })),
      };
    case 'assay':
      return { ...base, selectedOption: 'assay', assayTypes: [...(row.assayTypes ?? [])], methodNames: [...(row.methodNames ?? [])] };
    case 'activitymechanism':
      return { ...base, selectedOption: 'activitymechanism', mechanisms: [...row.mechanisms] };
    case 'compoundcategories':
      return { ...base, selectedOption: 'compoundcategories', categories: [...row.categories] };
    case 'treeview': {
      // Labels travel beside the node ids when the row was built here; pair them back when they match.
      const labels = row.labels && row.labels.length === row.nodeIds.length ? row.labels : null;
      return {
        ...base,
        selectedOption: 'treeview',
        tree: row.tree,
        nodes: row.nodeIds.map((id, index) => ({ id: String(id), label: labels?.[index] ?? `Node ${id}`, ids: [String(id)] })),
      };
    }
    case 'selection':
      return { ...base, selectedOption: 'selection', entity: row.entity, ids: [...row.ids], label: row.label ?? '' };
    case 'collection':
      return { ...base, selectedOption: 'collection', collectionId: row.collectionId, label: row.label ?? '' };
  }
}

/** Every row of saved criteria as drafts; the last row shows no operator (spec §4). */
export function criteriaToDrafts(criteria: SearchCriteria): RowDraft[] {
  return criteria.rows.map((row, index, rows) => ({
    ...rowToDraft(row),
    operator: index === rows.length - 1 ? null : (row.operator ?? 'AND'),
  }));
}
