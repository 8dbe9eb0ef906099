import type { SmilesGraph } from './smiles-graph.mjs';

/** A query compiled for matching (substructure-match.mjs): exact (a molecule) or loose (a SMARTS outline). */
export declare class CompiledQuery {
  readonly atoms: number;
  readonly exact: boolean;
}

/** The query when these rules match it exactly as RDKit; null when RDKit must. */
export declare function moleculeQueryOf(canonicalSmiles: string, rdkitJson: string, graph: SmilesGraph): CompiledQuery | null;

/** Matching scratch space; `matches` answers as RDKit (exact queries) or rules a structure out (loose ones). */
export declare class Matcher {
  constructor(maxAtoms?: number);
  /** RDKit's answer when decided here (exact queries; loose ones matched with certain tables), null when only RDKit can tell. */
  decide(query: CompiledQuery, target: SmilesGraph): boolean | null;
}
