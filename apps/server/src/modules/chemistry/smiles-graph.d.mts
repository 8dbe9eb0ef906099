/** RDKit bond types (Bond::BondType values) read from a SMILES. */
export declare const BOND: Readonly<{ single: 1; double: 2; triple: 3; quadruple: 4; aromatic: 12; dative: 17 }>;

/** A molecule graph read from a SMILES as RDKit's substructure library reads a stored one (smiles-graph.mjs). */
export declare class SmilesGraph {
  constructor(maxAtoms?: number, maxBonds?: number);
  atoms: number;
  bonds: number;
  z: Uint8Array;
  charge: Int8Array;
  isotope: Uint16Array;
  aromatic: Uint8Array;
  start: Int32Array;
  nbr: Int32Array;
  nbrBond: Uint8Array;
  /** True when read; false when RDKit must read it. */
  read(bytes: Uint8Array, from?: number, to?: number): boolean;
}
