/**
 * Distinct, valid structures enumerated from the subset's real SMILES: each parent (in seeded order)
 * gives its own canonical SMILES, then up to `analoguesPerParent` analogues with one or two C-H
 * replaced by a substituent. RDKit (MinimalLib, the product's engine) checks and canonicalises every
 * candidate in worker threads; the main thread keeps the first occurrence of each canonical SMILES.
 * The sequence depends only on the seed and the subset: a smaller file's structures are the start
 * of a bigger one's, and release 2's new molecules continue it.
 */
/** Attachment atom first, every other atom in a branch: valid wherever the `[H]` stood. */
export declare const SUBSTITUENTS: string[];
/** One structure of the sequence: RDKit canonical SMILES, and its standard InChI when asked for. */
export interface Structure {
    smiles: string;
    inchi: string | null;
    inchikey: string | null;
}
export interface EnumerationStats {
    /** Parents whose analogues were consumed (those of an earlier file included): where the sequence stands. */
    parentsRead: number;
    candidatesTried: number;
    accepted: number;
    duplicates: number;
    /** CPU time the workers spent enumerating (RDKit), summed over workers. */
    workerCpuSeconds: number;
    /** Structures read from an earlier file instead of enumerated (`continueFrom`). */
    reused: number;
}
/** Where an earlier file of the same sequence stopped: its structures, and its stream's position. */
export interface EarlierStructures {
    /** Its structures in the order they were taken (compound_structures by molregno, for release 1). */
    rows: Iterator<Structure>;
    count: number;
    /** Its stream's `parentsRead` and `accepted` when it finished (bench/results/chembl-release-*.json). */
    parentsRead: number;
    accepted: number;
}
export declare class StructureStream {
    private readonly parents;
    private readonly analoguesPerParent;
    private readonly seed;
    /** Also compute standard InChIs (about 1 ms of RDKit CPU per structure). */
    private readonly inchi;
    readonly stats: EnumerationStats;
    private readonly workers;
    private readonly idle;
    private readonly seen;
    private readonly inFlight;
    private ready;
    private nextParent;
    private round;
    private closed;
    private nextId;
    private earlier;
    /** The chunk the earlier file's run consumed last, sent again first: its leftovers start what follows. */
    private replay;
    /** New structures the replayed chunk must give (the earlier run's leftovers): proves the file continues this sequence. */
    private replayExpects;
    constructor(parents: string[], analoguesPerParent: number, seed: number, workers: number, expected: number, 
    /** Also compute standard InChIs (about 1 ms of RDKit CPU per structure). */
    inchi?: boolean);
    /**
     * Serve the first `earlier.count` structures from an earlier file of the same seed and subset
     * (release 2 from release 1: RDKit runs only for the structures after them, minutes instead of
     * most of an hour at full size). The result is the same sequence as enumerating from the start.
     */
    continueFrom(earlier: EarlierStructures): void;
    /** The next `n` structures of the sequence. Throws when the subset cannot give that many. */
    take(n: number): Promise<Structure[]>;
    private takeEarlier;
    /**
     * Moves the parent cursor past `count` parents, as the earlier run's requests did, and returns
     * the last chunk: its reply was consumed last, so its structures not taken yet come next.
     */
    private skipParents;
    private enumerate;
    close(): Promise<void>;
    /**
     * Keeps every worker busy with the next chunk of parents, also while the main thread writes rows
     * (a worker that finishes asks for the next chunk itself), up to two unconsumed replies per
     * worker: memory stays bounded. Replies are consumed in request order, so the sequence does not
     * depend on which worker is faster.
     */
    private dispatch;
    /**
     * The next parents. After the last parent a new round starts that asks each parent for more
     * analogues (the ones it gave already are dropped as duplicates): only needed if the first round
     * falls short, which the per-parent quota is sized to avoid.
     */
    private nextChunk;
    private accept;
}
