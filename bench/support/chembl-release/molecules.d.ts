import type { ReleasePlan } from './release-plan.ts';
import type { StructureStream } from './structures.ts';
import type { Subset } from './subset.ts';
import type { ReleaseWriter } from './writer.ts';
/** Whether molecule `index` has no structure at all (peptide, mixture, missing SMILES): the subset's share. */
export declare function withoutStructure(subset: Subset, plan: ReleasePlan, index: number): boolean;
export interface MoleculeCounts {
    molecules: number;
    withStructure: number;
    retired: number;
}
/**
 * molecule_dictionary (every molecule), compound_structures (those with a structure) and
 * molecule_hierarchy (each molecule its own parent, as ChEMBL lists parents). Molecules are taken
 * in key order and structures in sequence order, retired ones included, so molecule N has the same
 * structure in every release.
 */
export declare function writeMolecules(subset: Subset, plan: ReleasePlan, stream: StructureStream, writer: ReleaseWriter, log: (message: string) => void): Promise<MoleculeCounts>;
