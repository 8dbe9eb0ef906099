// Types of fingerprint.mjs (the worker threads need it as plain JavaScript).
export declare const FP_BITS: 2048;
export declare const FP_BYTES: number;
export declare const MORGAN_SETTINGS: string;
export declare const PATTERN_SETTINGS: string;
