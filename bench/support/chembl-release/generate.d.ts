import type { ActivityCounts } from './activities.ts';
import type { MoleculeCounts } from './molecules.ts';
import type { Counts } from './proportions.ts';
import type { EnumerationStats } from './structures.ts';
import type { GeneratedTable } from './subset.ts';
/**
 * A ChEMBL-shaped SQLite release at any size, grown from the real ChEMBL subset: a TEST INSTRUMENT
 * for import and search timings at ChEMBL scale (docs/data-model.md "A ChEMBL-shaped release at any
 * size"). Not real data, not for scientific use.
 */
export interface GenerateOptions {
    /** The ChEMBL subset file (chembl_subset.db) to grow the release from. */
    source: string;
    out: string;
    /** Fraction of ChEMBL 35's size (1 = ~2.4 M molecules, 20 M activities). */
    scale: number;
    seed?: number;
    /** 1 = the first release; N = release 1 plus N - 1 rounds of changes (added, changed, retired rows). */
    release?: number;
    /** RDKit worker threads (default 2). */
    workers?: number;
    /**
     * Write standard InChIs and InChIKeys, as a real release has them (the subset has none). Costs
     * ~1 ms of RDKit CPU per structure here (measured at 1/100) and saves the importer computing them.
     */
    inchi?: boolean;
    /**
     * Release 1 of the same seed, scale and subset, written earlier by this generator, and where its
     * structure sequence stopped (its result's `structures.parentsRead` and `.accepted`): its
     * structures are read instead of enumerated again, so that a release N > 1 costs RDKit time only
     * for its new molecules. The file written is the same as without it.
     */
    continueFrom?: {
        file: string;
        parentsRead: number;
        accepted: number;
    };
    onProgress?: (message: string) => void;
}
/** ChEMBL tables the importer reads that a generated release leaves out, and why (tests assert the list). */
export declare const NOT_GENERATED: Record<string, string>;
export interface GenerateResult {
    file: string;
    scale: number;
    seed: number;
    release: number;
    inchi: boolean;
    /** Rows per entity the plan asked for (before retirements). */
    planned: Counts;
    /** Rows per table, counted in the written file. */
    tables: Record<GeneratedTable, number>;
    /** What an import of this file into an empty knowledge base must report (kb-counts). */
    expectedImport: {
        compounds: number;
        structures: number;
        activities: number;
        assays: number;
        documents: number;
        targets: number;
    };
    molecules: MoleculeCounts;
    activities: ActivityCounts;
    assays: {
        retired: number;
    };
    structures: EnumerationStats & {
        analoguesPerParent: number;
        parents: number;
    };
    seconds: Record<'subset' | 'entities' | 'molecules' | 'activities' | 'indexes' | 'total', number>;
    /** CPU seconds after reading the subset: main thread (rows, SQLite) and RDKit workers (enumeration). */
    cpuSeconds: {
        main: number;
        workers: number;
    };
    fileBytes: number;
}
export declare function generateRelease(options: GenerateOptions): Promise<GenerateResult>;
