/** The SMARTS to match with: ring perception made visible to RDKit's SubstructLibrary (smarts-rings.mjs). */
export function withRingPerception(smarts: string): string;
