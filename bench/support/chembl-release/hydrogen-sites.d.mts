export interface HydrogenSite {
  /** Offset of the `[H]` token in the explicit-hydrogen SMILES. */
  offset: number;
  /** The text that drops this hydrogen, or null when it must stay (hydrogen of a bracket atom). */
  span: [number, number] | null;
}
export function carbonHydrogenSites(smiles: string): HydrogenSite[];
export function substitute(smiles: string, sites: HydrogenSite[], edits: { offset: number; group: string }[]): string;
