/**
 * What the generator grows a release from: the real rows of the ChEMBL subset
 * (../shared/data/chembl-subset, CC BY-SA 3.0). Only read here; nothing of it is copied into the
 * repository. Everything is held in memory: the subset is small (49k activities, 74k structures).
 */
export type Row = Record<string, unknown>;
export interface Column {
    name: string;
    type: string;
}
/** The ChEMBL tables a generated release holds (the others the importer reads are listed in generate.ts). */
export declare const GENERATED_TABLES: readonly ["source", "activity_stds_lookup", "bioassay_ontology", "target_dictionary", "target_components", "component_sequences", "docs", "assays", "molecule_dictionary", "compound_structures", "molecule_hierarchy", "activities", "ligand_eff"];
export type GeneratedTable = (typeof GENERATED_TABLES)[number];
/** A table's definition in the subset: its columns (official ChEMBL names and types), key and unique columns. */
export interface TableShape {
    columns: Column[];
    primaryKey: string | null;
    unique: string[];
}
export interface ActivityTemplate {
    row: Row;
    /** The template's molecule has a structure in the subset (else: peptide, mixture, missing SMILES). */
    hasStructure: boolean;
    ligandEff: Row | null;
}
export interface Subset {
    file: string;
    shapes: Map<GeneratedTable, TableShape>;
    /** Copied as they are. */
    vocabulary: Record<'source' | 'activity_stds_lookup' | 'bioassay_ontology', Row[]>;
    /** Real targets: those with activities in the subset first (most activities first), then the rest in seeded order. */
    targets: Row[];
    componentsByTid: Map<number, Row[]>;
    componentSequences: Map<number, Row>;
    docs: Row[];
    assays: Row[];
    assaysByTid: Map<number, Row[]>;
    activities: ActivityTemplate[];
    moleculesWithStructure: Row[];
    moleculesWithoutStructure: Row[];
    /** Distinct real SMILES, in seeded order: the parents analogues are enumerated from. */
    parents: string[];
    /** Share of molecules without any structure (own or parent's), as in the subset. */
    noStructureShare: number;
}
export declare function readSubset(file: string, seed: number): Subset;
