import type { TARGET_CATEGORIES, TargetTerm } from '@kb/contracts/search';
import { escapeLike } from '../../db/like-pattern.ts';

/**
 * How the text of a Target term is read (docs/search-semantics.md "Target text and families"):
 * pure functions, no database. target-resolver.ts turns a read term into SQL.
 */

/** Letters and digits a text needs before prefixes, whole words and family names apply ("JAK" yes, "AR" no). */
const FUZZY_MIN_LETTERS = 3;
/** Wildcards one term may hold: each `*` is a `.*` in the whole-word expression run on every name and synonym. */
const MAX_WILDCARDS_PER_TERM = 4;

export type TargetCategory = (typeof TARGET_CATEGORIES)[number];

/** A term's text as the resolver uses it. */
export interface TargetText {
  /** Trimmed, runs of white space as one space, lower case. */
  text: string;
  /** The same in upper case (accessions, ChEMBL and PDB ids are stored that way). */
  upper: string;
  /** Holds `*` or `?`. */
  pattern: boolean;
  /** Prefixes, whole words, family names (and patterns) apply: at least FUZZY_MIN_LETTERS letters or digits. */
  fuzzy: boolean;
  /** LIKE pattern over a whole lower-case value: the text as a prefix (`parp%`), or the pattern (`jak%`, `cdk_`). */
  like: string;
  /** The same over upper-case values (accessions). */
  likeUpper: string;
  /**
   * Regular expression (PostgreSQL ARE, on a lower-case value) for the text or the pattern as
   * whole words: it starts where the value starts or after a character that is neither a letter
   * nor a digit, and ends where the value ends or before such a character.
   */
  words: string;
  /** Categories searched (name = the text as typed in "Any field" or "Name"). */
  categories: ReadonlySet<TargetCategory>;
}

/** A term the rules refuse (a wildcard with too little text around it); the message says why. */
export class TargetTextError extends Error {
  /** `message` names the term; `reason` does not (an upload report shows it beside the term). */
  constructor(
    message: string,
    readonly reason: string = message,
  ) {
    super(message);
  }
}

const letterCount = (text: string) => [...text.matchAll(/[\p{L}\p{N}]/gu)].length;
const escapeRegex = (text: string) => text.replace(/[\\^$.|?*+()[\]{}]/g, (c) => `\\${c}`);
/** Word boundaries that work whatever the first and last characters are (`\m` / `\M` need a word character). */
const BEFORE = '(^|[^[:alnum:]])';
const AFTER = '($|[^[:alnum:]])';

/** `*` any run of characters (or none), `?` exactly one; everything else literal. */
function patternParts(text: string, wildcard: { any: string; one: string }, literal: (s: string) => string): string {
  return [...text].map((c) => (c === '*' ? wildcard.any : c === '?' ? wildcard.one : literal(c))).join('');
}

/** Reads a term's text; throws TargetTextError for a wildcard pattern with fewer than FUZZY_MIN_LETTERS letters or digits. */
export function readTargetText(term: Pick<TargetTerm, 'label' | 'targetCategories'>): TargetText {
  const text = term.label.trim().replace(/\s+/g, ' ').toLowerCase();
  const pattern = /[*?]/.test(text);
  const letters = letterCount(text);
  if (pattern && letters < FUZZY_MIN_LETTERS) {
    throw new TargetTextError(
      `“${term.label.trim()}” is too short for a wildcard: give at least ${FUZZY_MIN_LETTERS} letters or digits besides * and ? (e.g. JAK*).`,
      `a wildcard needs at least ${FUZZY_MIN_LETTERS} letters or digits besides * and ?`,
    );
  }
  const wildcards = [...text.replace(/\*+/g, '*')].filter((c) => c === '*' || c === '?').length;
  if (wildcards > MAX_WILDCARDS_PER_TERM) {
    throw new TargetTextError(
      `“${term.label.trim()}” has ${wildcards} wildcards: at most ${MAX_WILDCARDS_PER_TERM} in one term.`,
      `at most ${MAX_WILDCARDS_PER_TERM} wildcards in one term`,
    );
  }
  const categories = new Set<TargetCategory>(term.targetCategories?.length ? term.targetCategories : ['name']);
  if (!pattern) {
    return {
      text,
      upper: text.toUpperCase(),
      pattern,
      fuzzy: letters >= FUZZY_MIN_LETTERS,
      like: `${escapeLike(text)}%`,
      likeUpper: `${escapeLike(text.toUpperCase())}%`,
      words: `${BEFORE}${escapeRegex(text)}${AFTER}`,
      categories,
    };
  }
  // Runs of `*` are one `*`: "JAK**" and "JAK*" are the same pattern.
  const squeezed = text.replace(/\*+/g, '*');
  return {
    text: squeezed,
    upper: squeezed.toUpperCase(),
    pattern,
    fuzzy: true,
    like: patternParts(squeezed, { any: '%', one: '_' }, escapeLike),
    likeUpper: patternParts(squeezed.toUpperCase(), { any: '%', one: '_' }, escapeLike),
    words: `${BEFORE}${patternParts(squeezed, { any: '.*', one: '.' }, escapeRegex)}${AFTER}`,
    categories,
  };
}

/** A term is text (resolved by the rules) when it names neither targets nor families. */
export function isTextTerm(term: Pick<TargetTerm, 'ids' | 'classIds'>): boolean {
  return !term.ids?.length && !term.classIds?.length;
}
