/**
 * A target as a chemist names it in a crowded place (a grid cell, a chart axis): its gene symbol
 * ("JAK2"), else its name cut to a few words; the full name goes in the tooltip. Four
 * "Tyrosine-protein kinase …" targets cut to the same width read alike; their symbols do not.
 */

/** Longest short name before it is cut (characters). */
const SHORT_TARGET_LENGTH = 22;

/** A name cut at a word to at most `max` characters, with an ellipsis; the end of a name tells targets apart, so a long first part goes. */
export function shortName(name: string, max = SHORT_TARGET_LENGTH): string {
  const text = name.trim();
  if (text.length <= max) return text;
  // "Tyrosine-protein kinase JAK2" → "…kinase JAK2": the distinguishing words come last.
  const words = text.split(/\s+/);
  let tail = '';
  for (let i = words.length - 1; i >= 0; i--) {
    const next = tail ? `${words[i]} ${tail}` : words[i]!;
    if (next.length + 1 > max) break;
    tail = next;
  }
  return tail ? `…${tail}` : `${text.slice(0, max - 1)}…`;
}

/** The label of a target: its gene symbol when it has one, else its short name. */
export function targetLabel(name: string | null | undefined, geneSymbol?: string | null): string {
  const symbol = geneSymbol?.trim();
  if (symbol) return symbol;
  return name ? shortName(name) : '';
}
