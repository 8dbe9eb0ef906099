import { DIGITS_ONLY_LIST_TYPES, UPLOAD_MAX_TERMS, UPLOAD_MAX_TERM_LENGTH } from '@kb/contracts/uploads';
import type { UploadListType } from '@kb/contracts/uploads';
import { MULTI_VALUE_OPERATOR } from '@kb/contracts/search';
import { TargetTextError, readTargetText } from '../targets/target-text.ts';

/**
 * The list rules of spec §5 applied to an upload's cells: which terms there are, which are
 * malformed for their list, and under which key each well-formed term is looked up.
 */

/** The download of unidentified terms takes at most this many; an upload may not give more. */
export const MAX_UPLOAD_TERMS = UPLOAD_MAX_TERMS;
const MAX_TERM_LENGTH = UPLOAD_MAX_TERM_LENGTH;
/** How much of an overlong term the answer repeats: enough to find it in the file. */
const OVERLONG_SHOWN = 200;

/** A CAS registry number: 2-7 digits, 2 digits, a check digit. */
const CAS_NUMBER = /^\d{2,7}-\d{2}-\d$/;
const INCHIKEY = /^[A-Z]{14}-[A-Z]{10}-[A-Z]$/;
const DIGITS = /^\d+$/;
/** Lists of targets: resolved as a Target row resolves its text (modules/targets). */
const TARGET_LISTS: ReadonlySet<UploadListType> = new Set(['target', 'uniprot', 'gene', 'entrez', 'pdb']);

/**
 * Terms of the cells in first-seen order: `|` separates values within a cell (spec §5's
 * multi-value operator), so do line breaks inside a cell (a term must fit on one line of the
 * unidentified-terms download). Values are trimmed; blanks and repeats are dropped.
 */
export function splitTerms(cells: Iterable<string>): string[] {
  const seen = new Set<string>();
  for (const cell of cells) {
    for (const part of cell.split(MULTI_VALUE_OPERATOR)) {
      for (const line of part.split(/\r\n|\r|\n/)) {
        const term = line.trim();
        if (term !== '') seen.add(term);
      }
    }
  }
  return [...seen];
}

/** What a term is looked up as: its own list, or CAS for a CAS number in a structure-id list. */
export type LookupKind = UploadListType;

export type TermCheck = { term: string; invalid: string } | { term: string; kind: LookupKind; key: string };

/** https://doi.org/…, http://dx.doi.org/… and "doi:" are ways of writing the same DOI. */
function doiKey(term: string): string {
  return term.replace(/^(https?:\/\/(dx\.)?doi\.org\/|doi:\s*)/i, '').toLowerCase();
}

/**
 * The key a well-formed term is looked up by, or why it is malformed. Keys are normalised the way
 * the resolver compares them: lower case for names, upper case for accession-style codes, digits
 * without leading zeros for ids.
 */
export function checkTerm(listType: UploadListType, term: string): TermCheck {
  if (term.length > MAX_TERM_LENGTH) {
    // Cut: a 2 MB line without separators would otherwise come back whole in the answer.
    return { term: `${term.slice(0, OVERLONG_SHOWN)}…`, invalid: `longer than ${MAX_TERM_LENGTH.toLocaleString('en-US')} characters` };
  }
  // Target lists follow the Target row's rules: a wildcard needs some text around it.
  if (TARGET_LISTS.has(listType)) {
    try {
      readTargetText({ label: term, targetCategories: ['name'] });
    } catch (error) {
      if (error instanceof TargetTextError) return { term, invalid: error.reason };
      throw error;
    }
  }
  // Spec §5: a structure-id list and a CAS list from one file are kept apart.
  if (listType === 'strid' && CAS_NUMBER.test(term)) return { term, kind: 'cas', key: term };
  if (DIGITS_ONLY_LIST_TYPES.includes(listType)) {
    if (!DIGITS.test(term)) return { term, invalid: 'not a number' };
    return { term, kind: listType, key: term.replace(/^0+(?=\d)/, '') };
  }
  switch (listType) {
    case 'inchikey': {
      const key = term.replace(/^InChIKey=/i, '').toUpperCase();
      return INCHIKEY.test(key)
        ? { term, kind: listType, key }
        : { term, invalid: 'not an InChIKey (14, 10 and 1 letters separated by hyphens)' };
    }
    case 'patent': {
      // "US 8,513,270 B2", "US-8513270-B2" and "US8513270B2" are one patent number.
      const key = term.toUpperCase().replace(/[^A-Z0-9]/g, '');
      return key ? { term, kind: listType, key } : { term, invalid: 'not a patent number' };
    }
    case 'doi':
      return { term, kind: listType, key: doiKey(term) };
    case 'uniprot':
    case 'pdb':
    case 'mesh':
    case 'cas':
      return { term, kind: listType, key: term.toUpperCase() };
    default:
      return { term, kind: listType, key: term.toLowerCase() };
  }
}
