import type { CompiledQuery } from './substructure-match.mjs';

/** The outline of a SMARTS (a loose CompiledQuery: a no rules a structure out), or null when it cannot be read (smarts-outline.mjs). */
export declare function smartsOutlineOf(smarts: string, certain?: boolean): CompiledQuery | null;
