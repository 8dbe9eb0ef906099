import type { StructureHighlight } from '@kb/contracts/results';

/**
 * A substructure to highlight, carried from the results grid to the compound leaflet in the link
 * (`?highlight=…&highlightKind=smiles|smarts`), so the leaflet draws the match of the search the
 * user came from, and a shared or reloaded link draws it again. Pure: the link and the page agree.
 */

/** The depiction endpoint takes highlights up to this length (contracts/chemistry.ts). */
const MAX_HIGHLIGHT = 4_000;

export function highlightSearch(highlight: StructureHighlight | null): string {
  if (!highlight || highlight.text.length > MAX_HIGHLIGHT) return '';
  return `?${new URLSearchParams({ highlight: highlight.text, highlightKind: highlight.kind }).toString()}`;
}

/** The compound leaflet of a structure, with the highlight of the search when there is one. */
export function structureLeafletHref(strId: number, highlight: StructureHighlight | null): string {
  return `/leaflet/structure/${strId}${highlightSearch(highlight)}`;
}

/** The highlight a leaflet link carries; a missing, empty, too long or unknown one is none. */
export function parseHighlight(params: URLSearchParams): StructureHighlight | null {
  const text = params.get('highlight')?.trim() ?? '';
  const kind = params.get('highlightKind') ?? 'smiles';
  if (!text || text.length > MAX_HIGHLIGHT || (kind !== 'smiles' && kind !== 'smarts')) return null;
  return { kind, text };
}
