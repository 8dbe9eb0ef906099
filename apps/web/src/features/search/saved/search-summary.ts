import type { SearchCriteria, SearchRow } from '@kb/contracts/search';
import type { RowDraft } from '../builder/row-drafts.ts';
import { OPTION_LABELS, TREE_LABELS, selectionCountText } from '../builder/row-drafts.ts';
import { countNoun } from '../../../app/format/plural.ts';
import { formatCount } from '../../../app/format/count-format.ts';

/**
 * The readable summary of a search (spec `bu/sessionsummary/save`, shown under "recent searches"):
 * one clause per row, joined by the rows' operators. Labels come from the drafts when they are at
 * hand (autocomplete picks carry names the criteria do not).
 */

const MAX_LISTED = 5;

function list(values: readonly (string | number)[], joiner = ', '): string {
  const shown = values.slice(0, MAX_LISTED).map(String);
  const more = values.length > MAX_LISTED ? ` and ${values.length - MAX_LISTED} more` : '';
  return shown.join(joiner) + more;
}

function range(min: number | null | undefined, max: number | null | undefined): string {
  if (min != null && max != null) return `${min}–${max}`;
  if (min != null) return `≥ ${min}`;
  return `≤ ${max}`;
}

function describeStructure(row: Extract<SearchRow, { selectedOption: 'structure' }>): string {
  const parts: string[] = [];
  const query = row.structure;
  if (query) {
    const bounds =
      query.category === 'similarity' && (query.similarityMin != null || query.similarityMax != null)
        ? ` ${range(query.similarityMin, query.similarityMax)}`
        : '';
    const similarity =
      query.category === 'similarity' && query.similarityNearest ? `${bounds}, nearest ${formatCount(query.similarityNearest)}` : bounds;
    parts.push(
      `${query.inputType === 'inchikey' ? 'InChIKey' : query.inputType === 'name' ? 'name' : query.inputType.toUpperCase()} “${query.value.length > 60 ? `${query.value.slice(0, 57)}…` : query.value}” (${query.category}${similarity})`,
    );
  }
  if (row.properties) {
    const props = Object.entries(row.properties).filter(([, value]) => value != null);
    if (props.length > 0) parts.push(`properties ${props.map(([key, value]) => `${key} ${value}`).join(', ')}`);
  }
  if (row.strIds?.length) parts.push(countNoun(row.strIds.length, 'structure id'));
  if (row.casNumbers?.length) parts.push(`CAS ${list(row.casNumbers)}`);
  return parts.join('; ');
}

function describeBibliography(row: Extract<SearchRow, { selectedOption: 'bibliography' }>, draft: RowDraft | undefined): string {
  const parts: string[] = [];
  const documents =
    draft?.selectedOption === 'bibliography' ? draft.documents.map((item) => item.label) : (row.refIds ?? []).map((id) => `#${id}`);
  if (documents.length) parts.push(`documents ${list(documents)}`);
  if (row.pubmedIds?.length) parts.push(`PubMed ${list(row.pubmedIds)}`);
  if (row.dois?.length) parts.push(`DOI ${list(row.dois)}`);
  if (row.patents?.length)
    parts.push(`patents ${list(row.patents.map((p) => [p.countryCode, p.patentNo, p.year].filter(Boolean).join(' ')))}`);
  if (row.journals?.length)
    parts.push(
      `journals ${list(row.journals.map((j) => [j.journalName, j.year, j.volume && `vol. ${j.volume}`, j.issue && `issue ${j.issue}`, j.pageNo && `p. ${j.pageNo}`].filter(Boolean).join(' ')))}`,
    );
  if (row.authors?.length) parts.push(`authors ${list(row.authors)}`);
  if (row.yearRange) parts.push(`years ${range(row.yearRange.fromYear, row.yearRange.toYear)}`);
  if (row.companies?.length) parts.push(`companies ${list(row.companies)}`);
  if (row.sources?.length) parts.push(`sources ${row.sources.join('/')}`);
  return parts.join('; ');
}

/** Labels of picked items when the draft has them, else ids. */
function picked(draft: RowDraft | undefined, ids: readonly number[] | undefined, names: readonly string[] | undefined): string[] {
  if (draft?.selectedOption === 'company') return draft.companies.map((item) => item.label);
  if (draft?.selectedOption === 'indication') return draft.indications.map((item) => item.label);
  if (draft?.selectedOption === 'source') return draft.taxonomy.map((item) => item.label);
  return [...(ids ?? []).map((id) => `#${id}`), ...(names ?? [])];
}

/** `In collection "Kinase hits"`: the name the row was made with (the draft's when at hand), else the id. */
function collectionClause(row: { collectionId: number; label?: string | undefined }, draft?: RowDraft): string {
  const name = (draft?.selectedOption === 'collection' && draft.label) || row.label;
  return `${OPTION_LABELS.collection} ${name ? `"${name}"` : `#${row.collectionId}`}`;
}

/** One clause: "Target/Enzyme/Protein: EGFR | ERBB2"; a selection says what was selected ("Selected 12 activities"). */
function describeRow(row: SearchRow, draft?: RowDraft): string {
  if (row.selectedOption === 'selection') return row.label || `Selected ${selectionCountText(row.entity, row.ids.length)}`;
  if (row.selectedOption === 'collection') return collectionClause(row, draft);
  const label = row.selectedOption === 'treeview' ? `${TREE_LABELS[row.tree]} tree` : OPTION_LABELS[row.selectedOption];
  const detail = (() => {
    switch (row.selectedOption) {
      case 'structure':
        return describeStructure(row);
      case 'target':
        return list(
          row.targets.map((t) => t.displayValue ?? t.label),
          ' | ',
        );
      case 'bibliography':
        return describeBibliography(row, draft);
      case 'company':
        return list(picked(draft, row.companyIds, row.companyNames));
      case 'degrader':
        return [row.degraderTypes.join(' or '), row.ligases?.length ? `ligases ${list(row.ligases)}` : ''].filter(Boolean).join('; ');
      case 'clinicalphase':
        return list(row.phases);
      case 'source': {
        const strains = (row.strains ?? []).map((s) => [s.genus, s.species, s.strainType].filter(Boolean).join(' '));
        return list([...picked(draft, row.taxonomyIds, undefined), ...strains]);
      }
      case 'indication':
        return list(picked(draft, row.indicationIds, row.indicationNames));
      case 'activitytypes':
        return list(
          row.activities.map((a) => {
            const value = a.prefix === 'R' ? ` ${a.minValue}–${a.maxValue}` : a.prefix ? ` ${a.prefix} ${a.minValue}` : '';
            return `${a.activityType}${value}${a.activityUom ? ` ${a.activityUom}` : ''}`;
          }),
        );
      case 'assay':
        return [row.assayTypes?.join(', '), row.methodNames?.length ? `methods ${list(row.methodNames)}` : ''].filter(Boolean).join('; ');
      case 'activitymechanism':
        return list(row.mechanisms);
      case 'compoundcategories':
        return list(row.categories);
      case 'treeview':
        return list(row.labels?.length ? row.labels : row.nodeIds);
    }
  })();
  return detail ? `${label}: ${detail}` : label;
}

/** The whole search: clauses joined by the operators between them. */
export function describeSearch(criteria: SearchCriteria, drafts: readonly RowDraft[] = []): string {
  return criteria.rows
    .map((row, index) => {
      const clause = describeRow(row, drafts[index]);
      const operator = index < criteria.rows.length - 1 ? ` ${row.operator ?? 'AND'}` : '';
      return `${clause}${operator}`;
    })
    .join(' ');
}
