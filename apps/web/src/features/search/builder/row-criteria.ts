import type { z } from 'zod';
import { SearchCriteriaSchema, SearchRowSchema } from '@kb/contracts/search';
import type { SearchCriteria, SearchOperator, SearchRow, SearchRowInput, StructureProperties } from '@kb/contracts/search';
import type {
  ActivityDraft,
  BibliographyDraft,
  CollectionDraft,
  CompanyDraft,
  DegraderDraft,
  IndicationDraft,
  PickedItem,
  PropertyField,
  RowDraft,
  SelectionDraft,
  SourceDraft,
  StructureDraft,
  TreeDraft,
} from './row-drafts.ts';

/** Messages per field path of a row (`structure.value`, `activities.0.minValue`, `properties.molmin`). */
export type FieldErrors = Record<string, string>;

export interface RowConversion {
  /** The contract row (defaults applied), or null when the row is empty or has errors. */
  row: SearchRow | null;
  errors: FieldErrors;
  /** Spec §5: a row without a value (or selection) stays out of the search. */
  empty: boolean;
}

/** Trimmed, non-empty, each once, in the order given. */
export function cleanTexts(values: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const value of values) {
    const text = value.trim();
    if (text && !seen.has(text)) {
      seen.add(text);
      out.push(text);
    }
  }
  return out;
}

/** Spec §5: id lists keep entries that are all digits; the others are reported. */
export function digitIds(values: readonly string[]): { ids: number[]; invalid: string[] } {
  const ids: number[] = [];
  const invalid: string[] = [];
  for (const text of cleanTexts(values)) {
    if (/^\d+$/.test(text) && Number(text) > 0 && Number.isSafeInteger(Number(text))) ids.push(Number(text));
    else invalid.push(text);
  }
  return { ids: [...new Set(ids)], invalid };
}

function invalidIdsMessage(what: string, invalid: readonly string[]): string {
  const shown = invalid
    .slice(0, 3)
    .map((text) => `“${text}”`)
    .join(', ');
  const more = invalid.length > 3 ? ` and ${invalid.length - 3} more` : '';
  return `${what} are whole numbers: remove ${shown}${more}`;
}

/** Numeric ids of picked items (look-ups answer numbers, or digit strings). */
function pickedIds(items: readonly PickedItem[]): number[] {
  const ids = items.flatMap((item) => (typeof item.id === 'number' ? [item.id] : /^\d+$/.test(item.id) ? [Number(item.id)] : []));
  return [...new Set(ids)];
}

/** Labels of picked items whose id is text: vocabularies without ids send the text itself. */
function pickedNames(items: readonly PickedItem[]): string[] {
  return cleanTexts(items.filter((item) => typeof item.id === 'string' && !/^\d+$/.test(item.id)).map((item) => item.label));
}

const nonEmpty = <T>(list: T[]): T[] | undefined => (list.length > 0 ? list : undefined);
const text = (value: string): string | undefined => value.trim() || undefined;

/** Keeps the sub-rows that hold anything, remembering where each came from (for error paths). */
function keepFilled<T>(items: readonly T[], filled: (item: T) => boolean): { kept: T[]; origin: number[] } {
  const kept: T[] = [];
  const origin: number[] = [];
  items.forEach((item, index) => {
    if (filled(item)) {
      kept.push(item);
      origin.push(index);
    }
  });
  return { kept, origin };
}

interface Candidate {
  row: SearchRowInput | null;
  errors: FieldErrors;
  /** Sub-row index maps: `activities` index in the row → index in the draft. */
  origins?: Record<string, number[]>;
}

function structureCandidate(draft: StructureDraft): Candidate {
  const errors: FieldErrors = {};
  const value = draft.value.trim();
  const similarity = draft.category === 'similarity';
  const structure = value
    ? {
        inputType: draft.inputType,
        value,
        category: draft.category,
        feature: draft.feature,
        similarityMin: similarity ? draft.similarityMin : null,
        similarityMax: similarity ? draft.similarityMax : null,
        // A results filter keeps structures of the results: "the N nearest of the knowledge base" is not offered there.
        similarityNearest: similarity && !draft.resultFilter ? draft.similarityNearest : null,
        ...(draft.readOnly ? { readOnly: true } : {}),
      }
    : null;
  const properties: StructureProperties = {};
  for (const [field, amount] of Object.entries(draft.properties) as [PropertyField, number | null | undefined][]) {
    if (amount !== null && amount !== undefined) properties[field] = amount;
  }
  const hasProperties = Object.keys(properties).length > 0;
  const strIds = digitIds(draft.strIds);
  if (strIds.invalid.length > 0) errors.strIds = invalidIdsMessage('Structure ids', strIds.invalid);
  const casNumbers = cleanTexts(draft.casNumbers);
  if (!structure && !hasProperties && strIds.ids.length === 0 && casNumbers.length === 0 && strIds.invalid.length === 0)
    return { row: null, errors };
  return {
    row: {
      selectedOption: 'structure',
      operator: draft.operator,
      fileName: draft.fileName ?? null,
      structure,
      properties: hasProperties ? properties : null,
      strIds: nonEmpty(strIds.ids),
      casNumbers: nonEmpty(casNumbers),
      ...(draft.resultFilter ? { resultFilter: true } : {}),
    },
    errors,
  };
}

function bibliographyCandidate(draft: BibliographyDraft): Candidate {
  const errors: FieldErrors = {};
  const pubmed = digitIds(draft.pubmedIds);
  if (pubmed.invalid.length > 0) errors.pubmedIds = invalidIdsMessage('PubMed ids', pubmed.invalid);
  const patents = keepFilled(draft.patents, (p) => Boolean(p.countryCode.trim() || p.patentNo.trim() || p.year !== null));
  const journals = keepFilled(draft.journals, (j) =>
    Boolean(j.journalName.trim() || j.volume.trim() || j.issue.trim() || j.pageNo.trim() || j.year !== null),
  );
  const refIds = pickedIds(draft.documents);
  const dois = cleanTexts(draft.dois);
  const authors = cleanTexts(draft.authors);
  const companies = cleanTexts(draft.companies);
  const hasYears = draft.fromYear !== null || draft.toYear !== null;
  const filled =
    refIds.length +
      pubmed.ids.length +
      pubmed.invalid.length +
      dois.length +
      patents.kept.length +
      journals.kept.length +
      authors.length +
      companies.length +
      draft.sources.length >
      0 || hasYears;
  if (!filled) return { row: null, errors };
  return {
    row: {
      selectedOption: 'bibliography',
      operator: draft.operator,
      fileName: draft.fileName ?? null,
      refIds: nonEmpty(refIds),
      pubmedIds: nonEmpty(pubmed.ids),
      dois: nonEmpty(dois),
      patents: nonEmpty(
        patents.kept.map((p) => ({ countryCode: text(p.countryCode)?.toUpperCase(), year: p.year, patentNo: text(p.patentNo) })),
      ),
      journals: nonEmpty(
        journals.kept.map((j) => ({
          journalName: text(j.journalName),
          year: j.year,
          volume: text(j.volume),
          issue: text(j.issue),
          pageNo: text(j.pageNo),
        })),
      ),
      authors: nonEmpty(authors),
      yearRange: hasYears ? { fromYear: draft.fromYear, toYear: draft.toYear } : null,
      companies: nonEmpty(companies),
      sources: nonEmpty([...draft.sources]),
    },
    errors,
    origins: { patents: patents.origin, journals: journals.origin },
  };
}

function companyCandidate(draft: CompanyDraft): Candidate {
  const ids = pickedIds(draft.companies);
  const names = pickedNames(draft.companies);
  if (ids.length + names.length === 0) return { row: null, errors: {} };
  return {
    row: {
      selectedOption: 'company',
      operator: draft.operator,
      fileName: draft.fileName ?? null,
      companyIds: nonEmpty(ids),
      companyNames: nonEmpty(names),
    },
    errors: {},
  };
}

function degraderCandidate(draft: DegraderDraft): Candidate {
  const ligases = cleanTexts(draft.ligases);
  if (draft.degraderTypes.length === 0 && ligases.length === 0) return { row: null, errors: {} };
  const errors: FieldErrors = draft.degraderTypes.length === 0 ? { degraderTypes: 'Choose monovalent, bivalent or both' } : {};
  return {
    row: {
      selectedOption: 'degrader',
      operator: draft.operator,
      fileName: draft.fileName ?? null,
      degraderTypes: [...draft.degraderTypes],
      ligases: nonEmpty(ligases),
    },
    errors,
  };
}

function sourceCandidate(draft: SourceDraft): Candidate {
  const taxonomyIds = pickedIds(draft.taxonomy);
  const strains = keepFilled(draft.strains, (s) => Boolean(s.genus.trim() || s.species.trim() || s.strainType.trim()));
  if (taxonomyIds.length === 0 && strains.kept.length === 0) return { row: null, errors: {} };
  return {
    row: {
      selectedOption: 'source',
      operator: draft.operator,
      fileName: draft.fileName ?? null,
      taxonomyIds: nonEmpty(taxonomyIds),
      strains: nonEmpty(strains.kept.map((s) => ({ genus: text(s.genus), species: text(s.species), strainType: text(s.strainType) }))),
    },
    errors: {},
    origins: { strains: strains.origin },
  };
}

function indicationCandidate(draft: IndicationDraft): Candidate {
  const ids = pickedIds(draft.indications);
  const names = pickedNames(draft.indications);
  if (ids.length + names.length === 0) return { row: null, errors: {} };
  return {
    row: {
      selectedOption: 'indication',
      operator: draft.operator,
      fileName: draft.fileName ?? null,
      indicationIds: nonEmpty(ids),
      indicationNames: nonEmpty(names),
    },
    errors: {},
  };
}

function activityCandidate(draft: ActivityDraft): Candidate {
  const errors: FieldErrors = {};
  const terms = keepFilled(draft.activities, (t) =>
    Boolean(t.activityType.trim() || t.activityUom.trim() || t.prefix || t.minValue !== null || t.maxValue !== null),
  );
  if (terms.kept.length === 0) return { row: null, errors };
  terms.kept.forEach((term, index) => {
    if (!term.activityType.trim()) errors[`activities.${terms.origin[index]}.activityType`] = 'Choose an activity type';
  });
  return {
    row: {
      selectedOption: 'activitytypes',
      operator: draft.operator,
      fileName: draft.fileName ?? null,
      activities: terms.kept.map((term) => ({
        // An empty type is reported above; a placeholder keeps the rest of the row checkable.
        activityType: term.activityType.trim() || '?',
        activityUom: text(term.activityUom) ?? null,
        prefix: term.prefix,
        // Without a prefix the values mean nothing; any prefix but R compares with the first value.
        minValue: term.prefix ? term.minValue : null,
        maxValue: term.prefix === 'R' ? term.maxValue : null,
      })),
    },
    errors,
    origins: { activities: terms.origin },
  };
}

function treeCandidate(draft: TreeDraft): Candidate {
  if (draft.nodes.length === 0) return { row: null, errors: {} };
  const nodeIds = [...new Set(draft.nodes.flatMap((node) => (node.ids.length > 0 ? node.ids : [node.id])))];
  return {
    row: {
      selectedOption: 'treeview',
      operator: draft.operator,
      fileName: draft.fileName ?? null,
      tree: draft.tree,
      nodeIds,
      labels: draft.nodes.map((node) => node.label),
    },
    errors: {},
  };
}

function textsCandidate(draft: RowDraft): Candidate {
  const base = { operator: draft.operator, fileName: draft.fileName ?? null };
  switch (draft.selectedOption) {
    case 'target':
      return { row: draft.targets.length > 0 ? { ...base, selectedOption: 'target', targets: draft.targets } : null, errors: {} };
    case 'clinicalphase': {
      const phases = cleanTexts(draft.phases);
      return { row: phases.length > 0 ? { ...base, selectedOption: 'clinicalphase', phases } : null, errors: {} };
    }
    case 'assay': {
      const methodNames = cleanTexts(draft.methodNames);
      const filled = draft.assayTypes.length > 0 || methodNames.length > 0;
      return {
        row: filled
          ? { ...base, selectedOption: 'assay', assayTypes: nonEmpty([...draft.assayTypes]), methodNames: nonEmpty(methodNames) }
          : null,
        errors: {},
      };
    }
    case 'activitymechanism': {
      const mechanisms = cleanTexts(draft.mechanisms);
      return { row: mechanisms.length > 0 ? { ...base, selectedOption: 'activitymechanism', mechanisms } : null, errors: {} };
    }
    case 'compoundcategories': {
      const categories = cleanTexts(draft.categories);
      return { row: categories.length > 0 ? { ...base, selectedOption: 'compoundcategories', categories } : null, errors: {} };
    }
    default:
      return { row: null, errors: {} };
  }
}

/** Rows picked in the results: read-only, kept as long as they name any ids. */
function selectionCandidate(draft: SelectionDraft): Candidate {
  if (!draft.ids.length) return { row: null, errors: {} };
  const row: SearchRowInput = {
    selectedOption: 'selection',
    operator: draft.operator,
    fileName: draft.fileName ?? null,
    entity: draft.entity,
    ids: [...draft.ids],
    ...(draft.label ? { label: draft.label } : {}),
  };
  return { row, errors: {} };
}

/** A collection row, once a collection is chosen; its name goes along for the summaries. */
function collectionCandidate(draft: CollectionDraft): Candidate {
  if (draft.collectionId === null) return { row: null, errors: {} };
  const row: SearchRowInput = {
    selectedOption: 'collection',
    operator: draft.operator,
    fileName: draft.fileName ?? null,
    collectionId: draft.collectionId,
    ...(draft.label ? { label: draft.label.slice(0, 500) } : {}),
  };
  return { row, errors: {} };
}

function candidate(draft: RowDraft): Candidate {
  switch (draft.selectedOption) {
    case 'structure':
      return structureCandidate(draft);
    case 'bibliography':
      return bibliographyCandidate(draft);
    case 'company':
      return companyCandidate(draft);
    case 'degrader':
      return degraderCandidate(draft);
    case 'source':
      return sourceCandidate(draft);
    case 'indication':
      return indicationCandidate(draft);
    case 'activitytypes':
      return activityCandidate(draft);
    case 'treeview':
      return treeCandidate(draft);
    case 'selection':
      return selectionCandidate(draft);
    case 'collection':
      return collectionCandidate(draft);
    default:
      return textsCandidate(draft);
  }
}

/** Contract messages made readable next to a field (the schema prefixes property messages with the column). */
function friendlyMessage(path: readonly PropertyKey[], message: string): string {
  if (path[0] === 'properties') return 'The minimum is above the maximum';
  return message;
}

/** `['activities', 2, 'minValue']` with row index 2 mapped back to the draft's index. */
function draftPath(path: readonly PropertyKey[], origins: Record<string, number[]> | undefined): string {
  const parts = path.map(String);
  const [head, index] = parts;
  const origin = head !== undefined && index !== undefined ? origins?.[head] : undefined;
  if (origin && /^\d+$/.test(index ?? '')) parts[1] = String(origin[Number(index)] ?? index);
  return parts.join('.');
}

function issuesToErrors(issues: readonly z.core.$ZodIssue[], origins: Record<string, number[]> | undefined): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const key = draftPath(issue.path, origins) || '_row';
    errors[key] ??= friendlyMessage(issue.path, issue.message);
  }
  return errors;
}

/**
 * Turns one draft into the contract's row, checked by the contract's own schema: the same rules
 * the server applies (min ≤ max, R needs both values, bounded lengths) are reported here first,
 * with the path of the field to mark.
 */
export function toCriteriaRow(draft: RowDraft): RowConversion {
  const { row, errors, origins } = candidate(draft);
  if (!row) return { row: null, errors, empty: Object.keys(errors).length === 0 };
  const parsed = SearchRowSchema.safeParse(row);
  const schemaErrors = parsed.success ? {} : issuesToErrors(parsed.error.issues, origins);
  const all = { ...schemaErrors, ...errors };
  if (Object.keys(all).length > 0 || !parsed.success) return { row: null, errors: all, empty: false };
  return { row: parsed.data, errors: {}, empty: false };
}

/** Spec §5: whether a row has a value (or a selection) and so enters the search. */
export function rowHasValue(draft: RowDraft): boolean {
  return !toCriteriaRow(draft).empty;
}

/**
 * Spec §4: each row's operator joins it to the next; the last row's operator is cleared. A row
 * that was last before another was added has no operator yet: it joins with the default AND.
 */
export function clearLastOperator<R extends { operator: SearchOperator | null }>(rows: readonly R[]): R[] {
  return rows.map((row, index) => (index === rows.length - 1 ? { ...row, operator: null } : { ...row, operator: row.operator ?? 'AND' }));
}

export interface BuiltSearch {
  /** Ready to send, or null when something must be corrected first. */
  criteria: SearchCriteria | null;
  /** Field errors per row key. */
  rowErrors: Record<string, FieldErrors>;
  /** Keys of the rows that enter the search, in order. */
  included: string[];
  /** Keys of the rows left out because they are empty. */
  skipped: string[];
  /** A message for the whole search (nothing to search, too many rows). */
  formError: string | null;
}

/** Builds the search criteria from the builder's rows (spec §4 "Search builder", §5). */
export function buildCriteria(drafts: readonly RowDraft[]): BuiltSearch {
  const rowErrors: Record<string, FieldErrors> = {};
  const included: string[] = [];
  const skipped: string[] = [];
  const rows: SearchRow[] = [];
  for (const draft of drafts) {
    const conversion = toCriteriaRow(draft);
    if (Object.keys(conversion.errors).length > 0) rowErrors[draft.key] = conversion.errors;
    else if (conversion.empty || !conversion.row) skipped.push(draft.key);
    else {
      included.push(draft.key);
      rows.push(conversion.row);
    }
  }
  const errorCount = Object.keys(rowErrors).length;
  if (errorCount > 0) {
    const formError =
      errorCount === 1 ? 'Correct the marked field before searching.' : `Correct the marked fields in ${errorCount} rows before searching.`;
    return { criteria: null, rowErrors, included, skipped, formError };
  }
  if (rows.length === 0) {
    return {
      criteria: null,
      rowErrors,
      included,
      skipped,
      formError: drafts.length === 0 ? 'Add a search row first.' : 'Enter a value in at least one row.',
    };
  }
  const parsed = SearchCriteriaSchema.safeParse({ rows: clearLastOperator(rows) });
  if (!parsed.success)
    return { criteria: null, rowErrors, included, skipped, formError: parsed.error.issues[0]?.message ?? 'The search is not valid.' };
  return { criteria: parsed.data, rowErrors, included, skipped, formError: null };
}
