/**
 * A structure's parent, for target prediction (docs/prediction.md "Parent structures"): the forms
 * of one compound — its salts and solvates, its charged forms, its stereoisomers — share one key,
 * read from the standard InChI every stored structure has (from the release, else RDKit's).
 *
 * The key is the InChI's first component (InChI lists the largest first, so a counter-ion or a
 * solvent is never it) with its formula, connections and hydrogens only: the charge and proton
 * layers (/q, /p), the stereo layers (/b, /t, /m, /s) and the isotope layer (/i) are left out,
 * and the mobile-hydrogen layer already makes tautomers one. ChEMBL's molecule_hierarchy says the
 * same for the salts it knows; the InChI also covers drawn queries and every other source.
 */

/** The parent's key text, or null when there is no InChI. */
export function parentKeyOfInchi(inchi: string | null | undefined): string | null {
  if (!inchi?.startsWith('InChI=')) return null;
  const layers = inchi.split('/');
  const formula = layers[1];
  if (!formula) return null;
  // A component repeated n times is written "nC2H4O2" in the formula and "n*…" in the other layers.
  const first = formula.split('.')[0]!.replace(/^\d+/, '');
  const layer = (prefix: string) => {
    const found = layers.slice(2).find((text) => text.startsWith(prefix));
    return found
      ? found
          .slice(1)
          .split(';')[0]!
          .replace(/^\d+\*/, '')
      : '';
  };
  return `${first}/c${layer('c')}/h${layer('h')}`;
}

/**
 * The key as a number (two 32-bit FNV-1a hashes in 53 bits), so that a million actives keep it in
 * one Float64Array; null without an InChI. Collisions are far rarer than one in a billion pairs.
 */
export function parentOfInchi(inchi: string | null | undefined): number | null {
  const key = parentKeyOfInchi(inchi);
  return key === null ? null : hash53(key);
}

function hash53(text: string): number {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let k = 0; k < text.length; k++) {
    const code = text.charCodeAt(k);
    a = Math.imul(a ^ code, 0x01000193);
    b = Math.imul(b ^ code, 0x01000193 + 2);
  }
  // Negative: never equal to a str_id, which stands for a structure's own parent when it has no InChI.
  return -((a >>> 0) * 0x200000 + ((b >>> 0) & 0x1fffff)) - 1;
}
