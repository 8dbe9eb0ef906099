// RDKit's SubstructLibrary perceives the rings of each stored molecule (parsed from trusted SMILES,
// so without ring information) only when it sees that the query needs them, and it looks for ring
// primitives only at an atom's top level or in a recursive SMARTS that is the atom's whole query.
// A ring primitive inside a recursive SMARTS under an AND or an OR — `[$(N!@N),$([N;R0]=[N;R0])]`
// — is missed, and every match then stops with "RingInfo not initialized" (natively as in
// WebAssembly; SubstructLibrary.cpp, query_needs_rings). `withRingPerception` adds `R,!R;` (in a
// ring or not: always true) at the front of one bracket atom of such a query, which RDKit sees, so
// it perceives the rings and the query keeps its meaning.
// Plain JavaScript on purpose: the search workers load it without tsx.

/**
 * A ring primitive somewhere in the text: `@` (ring bond; chirality too, which only costs the ring
 * perception), `R` (not Ra, Rb, Re, Rf, Rg, Rh, Rn, Ru), `r` (not Ar, Br, Cr, Er, Fr, Ir, Pr, Sr, Zr), `x`.
 */
const RING_PRIMITIVE = /@|R(?![abefghnu])|(?<![ABCEFIPSZ])r|x/;

/** Start of the first top-level bracket atom holding a recursive SMARTS whose text can take a prefix, or -1. */
function recursiveAtomStart(smarts) {
  for (let at = 0; at < smarts.length; at++) {
    if (smarts[at] !== '[') continue;
    const end = closingBracket(smarts, at);
    if (end < 0) return -1;
    const body = smarts.slice(at + 1, end);
    // A leading isotope (`[13C]`) must stay first.
    if (body.includes('$(') && !/^\d/.test(body)) return at;
    // Brackets inside this atom are not top level.
    at = end;
  }
  return -1;
}

/** The `]` closing the bracket atom opened at `open` (recursive SMARTS nest brackets inside), or -1. */
function closingBracket(smarts, open) {
  let depth = 0;
  for (let at = open; at < smarts.length; at++) {
    if (smarts[at] === '[') depth++;
    else if (smarts[at] === ']' && --depth === 0) return at;
  }
  return -1;
}

/** The SMARTS to match with: unchanged unless it has both a recursive SMARTS and a ring primitive. */
export function withRingPerception(smarts) {
  if (!smarts.includes('$(') || !RING_PRIMITIVE.test(smarts)) return smarts;
  const at = recursiveAtomStart(smarts);
  if (at < 0) return smarts;
  return `${smarts.slice(0, at + 1)}R,!R;${smarts.slice(at + 1)}`;
}
