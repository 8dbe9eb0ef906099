/**
 * The canonical SMILES already taken, as 52-bit hashes in one typed array (open addressing): 2.4 M
 * structures cost 32 MB instead of the ~300 MB a Set of strings would. A hash collision can only
 * make us drop a structure that was in fact new (never keep a duplicate), and at 2.4 M entries in
 * 2^52 that happens with probability ~1e-3 per full-size file.
 */
export declare class SmilesHashSet {
    private slots;
    private used;
    constructor(expected: number);
    get size(): number;
    /** Adds the SMILES; false when it was there already. */
    add(smiles: string): boolean;
    private insert;
    private grow;
}
