import { UPLOAD_EXTENSIONS, UPLOAD_MAX_BYTES } from '@kb/contracts/uploads';
import type { UploadListType, UploadValidateResponse } from '@kb/contracts/uploads';
import type { TargetTerm } from '@kb/contracts/search';
import type { PickedItem, RowDraft, TargetField } from '../builder/row-drafts.ts';
import { emptyActivityTerm } from '../builder/row-drafts.ts';

/** A kind of list a row accepts from a file. */
export interface UploadKind {
  listType: UploadListType;
  label: string;
}

const TARGET_LIST: Record<TargetField, UploadListType> = {
  any: 'target',
  name: 'target',
  uniprot: 'uniprot',
  gene: 'gene',
  entrez: 'entrez',
  pdb: 'pdb',
};
const TARGET_CATEGORY = { target: 'name', uniprot: 'uniprot', gene: 'gene', entrez: 'entrez', pdb: 'pdb' } as const;

/** The lists a row can take from a file (spec §2: files of search terms). */
export function uploadKindsFor(draft: RowDraft): UploadKind[] {
  switch (draft.selectedOption) {
    case 'structure':
      return [
        { listType: 'strid', label: 'Structure ids' },
        { listType: 'cas', label: 'CAS numbers' },
      ];
    case 'target':
      return [
        {
          listType: TARGET_LIST[draft.field],
          label:
            draft.field === 'any' || draft.field === 'name'
              ? 'Target names'
              : `${draft.field === 'gene' ? 'Gene symbols' : draft.field === 'pdb' ? 'PDB ids' : draft.field === 'entrez' ? 'Entrez gene ids' : 'UniProt accessions'}`,
        },
      ];
    case 'bibliography':
      return [
        { listType: 'pubmed', label: 'PubMed ids' },
        { listType: 'doi', label: 'DOIs' },
        { listType: 'patent', label: 'Patent numbers' },
        { listType: 'author', label: 'Authors' },
        { listType: 'company', label: 'Companies' },
      ];
    case 'company':
      return [{ listType: 'company', label: 'Companies' }];
    case 'indication':
      return [
        { listType: 'indication', label: 'Indications' },
        { listType: 'mesh', label: 'MeSH ids' },
      ];
    case 'activitytypes':
      return [{ listType: 'activitytype', label: 'Activity types' }];
    case 'activitymechanism':
      return [{ listType: 'mechanism', label: 'Mechanisms' }];
    case 'compoundcategories':
      return [{ listType: 'category', label: 'Compound categories' }];
    case 'source':
      return [{ listType: 'source', label: 'Sources' }];
    default:
      return [];
  }
}

/** Why a picked file cannot be sent, or null when it can (the server checks again). */
export function checkUploadFile(file: { name: string; size: number }): string | null {
  const extension = file.name.split('.').pop()?.toLowerCase() ?? '';
  if (!file.name.includes('.') || !(UPLOAD_EXTENSIONS as readonly string[]).includes(extension)) {
    return `“${file.name}” is not a .txt, .csv or .xlsx file.`;
  }
  if (file.size === 0) return `“${file.name}” is empty.`;
  if (file.size > UPLOAD_MAX_BYTES) {
    return `“${file.name}” is ${(file.size / 1024 / 1024).toFixed(1)} MB; files of search terms may be at most ${UPLOAD_MAX_BYTES / 1024 / 1024} MB.`;
  }
  return null;
}

/** Base64 of a file's bytes, in slices (String.fromCharCode on megabytes at once overflows the stack). */
export function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  const slice = 0x8000;
  for (let offset = 0; offset < bytes.length; offset += slice) {
    binary += String.fromCharCode(...bytes.subarray(offset, offset + slice));
  }
  return btoa(binary);
}

type ValidTerm = UploadValidateResponse['valid'][number];

const addTexts = (current: readonly string[], extra: readonly string[]): string[] => [
  ...new Set([...current, ...extra.map((t) => t.trim()).filter(Boolean)]),
];

function addPicked(current: readonly PickedItem[], extra: readonly PickedItem[]): PickedItem[] {
  const seen = new Set(current.map((item) => String(item.id)));
  const out = [...current];
  for (const item of extra) {
    if (seen.has(String(item.id))) continue;
    seen.add(String(item.id));
    out.push(item);
  }
  return out;
}

/** A valid term as picked items: one per id it resolved to, or the text itself. */
function termItems(term: ValidTerm): PickedItem[] {
  const label = term.label ?? term.term;
  if (term.ids.length === 0) return [{ id: label, label }];
  return term.ids.map((id) => ({ id: typeof id === 'string' && /^\d+$/.test(id) ? Number(id) : id, label }));
}

const termText = (term: ValidTerm): string => term.label ?? term.term;
const numericIds = (term: ValidTerm): number[] =>
  term.ids.flatMap((id) => (typeof id === 'number' ? [id] : /^\d+$/.test(id) ? [Number(id)] : []));

/**
 * Adds the valid terms of an upload to the row they were uploaded for. Invalid and unidentified
 * terms never enter the row; the page lists them.
 */
export function applyUpload(draft: RowDraft, result: UploadValidateResponse): RowDraft {
  const valid = result.valid;
  const withFile = { ...draft, fileName: result.fileName };
  switch (withFile.selectedOption) {
    case 'structure':
      if (result.listType === 'cas')
        return {
          ...withFile,
          casNumbers: addTexts(
            withFile.casNumbers,
            valid.map((t) => t.term),
          ),
        };
      return {
        ...withFile,
        strIds: addTexts(
          withFile.strIds,
          valid.map((t) => t.term),
        ),
        casNumbers: addTexts(withFile.casNumbers, result.casNumbers ?? []),
      };
    case 'target': {
      const category = TARGET_CATEGORY[result.listType as keyof typeof TARGET_CATEGORY] ?? 'name';
      return { ...withFile, targets: mergeTargetTerms(withFile.targets, valid, category).terms };
    }
    case 'bibliography':
      switch (result.listType) {
        case 'pubmed':
          return {
            ...withFile,
            pubmedIds: addTexts(
              withFile.pubmedIds,
              valid.map((t) => t.term),
            ),
          };
        case 'doi':
          return { ...withFile, dois: addTexts(withFile.dois, valid.map(termText)) };
        case 'author':
          return { ...withFile, authors: addTexts(withFile.authors, valid.map(termText)) };
        case 'company':
          return { ...withFile, companies: addTexts(withFile.companies, valid.map(termText)) };
        default:
          // Patent numbers and document ids resolve to documents.
          return {
            ...withFile,
            documents: addPicked(
              withFile.documents,
              valid.flatMap((t) => numericIds(t).map((id) => ({ id, label: termText(t) }))),
            ),
          };
      }
    case 'company':
      return { ...withFile, companies: addPicked(withFile.companies, valid.flatMap(termItems)) };
    case 'indication':
      return { ...withFile, indications: addPicked(withFile.indications, valid.flatMap(termItems)) };
    case 'source':
      return { ...withFile, taxonomy: addPicked(withFile.taxonomy, valid.flatMap(termItems)) };
    case 'activitytypes': {
      const filled = withFile.activities.filter(
        (a) => a.activityType.trim() || a.prefix || a.minValue !== null || a.maxValue !== null || a.activityUom.trim(),
      );
      const have = new Set(filled.map((a) => a.activityType));
      const added = [...new Set(valid.map(termText))]
        .filter((type) => !have.has(type))
        .map((activityType) => ({ ...emptyActivityTerm(), activityType }));
      return { ...withFile, activities: [...filled, ...added] };
    }
    case 'activitymechanism':
      return { ...withFile, mechanisms: addTexts(withFile.mechanisms, valid.map(termText)) };
    case 'compoundcategories':
      return { ...withFile, categories: addTexts(withFile.categories, valid.map(termText)) };
    default:
      return draft;
  }
}

/** The targets a term stands for, as one key: terms with the same key are one chip. */
const targetKey = (ids: readonly number[]): string => [...ids].sort((a, b) => a - b).join(',');

/** An uploaded term that resolved to the same targets as an earlier term (or chip), and that term. */
export interface MergedTargetTerm {
  term: string;
  into: string;
}

/**
 * Adds uploaded target terms to a row's terms: terms that resolve to the same target(s) (EGFR and
 * P00533) become one chip, which keeps the first label and mentions the terms merged into it.
 * Terms without ids (the server resolved nothing) are added once per text.
 */
function mergeTargetTerms(
  current: readonly TargetTerm[],
  valid: readonly ValidTerm[],
  category: TargetTerm['targetCategories'][number],
): { terms: TargetTerm[]; merged: MergedTargetTerm[] } {
  const terms = [...current];
  const byKey = new Map<string, number>();
  const texts = new Set(current.map((t) => `${t.label}\u0000${t.targetCategories.join(',')}`));
  terms.forEach((term, index) => {
    if (term.ids?.length && !term.classIds?.length) byKey.set(targetKey(term.ids), index);
  });
  const merged: MergedTargetTerm[] = [];
  for (const term of valid) {
    const ids = numericIds(term);
    const text = `${term.term}\u0000${category}`;
    if (texts.has(text)) continue;
    texts.add(text);
    const key = ids.length > 0 ? targetKey(ids) : null;
    const same = key === null ? undefined : byKey.get(key);
    if (same !== undefined) {
      const into = terms[same]!;
      merged.push({ term: term.term, into: into.label });
      const shown = into.displayValue ?? into.label;
      const also = shown.includes(' · also ') ? `${shown}, ${term.term}` : `${shown} · also ${term.term}`;
      terms[same] = { ...into, displayValue: also };
      continue;
    }
    if (key !== null) byKey.set(key, terms.length);
    terms.push({
      label: term.term,
      targetCategories: [category],
      operator: '|',
      displayValue: termText(term),
      ...(ids.length > 0 ? { ids } : {}),
    });
  }
  return { terms, merged };
}

/** Terms of a target-list upload that became one chip with an earlier term of the same upload. */
export function mergedInUpload(result: UploadValidateResponse): MergedTargetTerm[] {
  if (!(result.listType in TARGET_CATEGORY)) return [];
  const category = TARGET_CATEGORY[result.listType as keyof typeof TARGET_CATEGORY];
  return mergeTargetTerms([], result.valid, category).merged;
}

/** How many terms of an upload entered the row (for the confirmation line). */
export function validTermCount(result: UploadValidateResponse): number {
  return result.valid.length + (result.listType === 'strid' ? (result.casNumbers?.length ?? 0) : 0);
}
