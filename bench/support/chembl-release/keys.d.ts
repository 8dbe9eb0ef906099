/**
 * Keys of generated rows. Real ChEMBL keys stay far below 100 M and the subset's own surrogate keys
 * start at 900,000,001, so generated keys start at 1,000,000,001: no generated row can be taken for
 * a real ChEMBL row or a subset row (all keys still fit a 32-bit signed integer at full size).
 * Targets are the subset's real rows and keep their real tid and ChEMBL id.
 */
export declare const KEY_BASE = 1000000000;
export declare const key: (index: number) => number;
export declare const indexOfKey: (value: number) => number;
/**
 * ChEMBL ids of generated rows: CHEMBL9 + kind digit + 7 digits (CHEMBL910000001 ...). Real ChEMBL
 * ids have at most 7 digits today, so these never name a real record.
 */
declare const KIND: {
    readonly molecule: 1;
    readonly assay: 2;
    readonly doc: 3;
};
export declare function chemblId(kind: keyof typeof KIND, index: number): string;
export {};
