import type { SmilesGraph } from './smiles-graph.mjs';

/** A molecule query compiled for matching (substructure-match.mjs). */
export declare class MoleculeQuery {
  constructor(graph: SmilesGraph);
  readonly atoms: number;
}

/** The query when these rules match it exactly as RDKit; null when RDKit must. */
export declare function moleculeQueryOf(canonicalSmiles: string, rdkitJson: string, graph: SmilesGraph): MoleculeQuery | null;

/** Matching scratch space; `matches` answers as RDKit's molecule-as-query substructure match. */
export declare class Matcher {
  constructor(maxAtoms?: number);
  matches(query: MoleculeQuery, target: SmilesGraph): boolean;
}
