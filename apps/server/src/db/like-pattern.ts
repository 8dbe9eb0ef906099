/*
 * LIKE / ILIKE patterns built from what a user typed. In PostgreSQL's LIKE, `%` and `_` are
 * wildcards and `\` is the default escape character; a filter such as "50%_off" must match those
 * characters literally, never act as a wildcard (nor let a trailing `\` break the pattern).
 */

/** The text with LIKE's metacharacters (`\`, `%`, `_`) escaped, to be matched literally. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** `%text%`: rows whose value contains `text` literally (case as the caller decides: ILIKE, or lower() on both sides). */
export function containsPattern(text: string): string {
  return `%${escapeLike(text)}%`;
}
