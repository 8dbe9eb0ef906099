// Where a SMILES written with explicit hydrogens (RDKit's `[H]` atoms) has a hydrogen on carbon,
// and how to write an analogue with some of them replaced. Plain JavaScript: the RDKit worker
// thread loads it without tsx (see structure-worker.mjs).

const BRACKET = /^\[[^\]]*\]/;
const ORGANIC = /^(Cl|Br|[BCNOPSFI]|[bcnops]|\*)/;
const RING = /^(%\d\d|\d)/;
const BONDS = '-=#$:/\\';

/** The element of an atom token (`c`, `C`, `[C@@]`, `[13CH3]`, `[nH+]` ...), upper case ("C", "N", "Cl"). */
function elementOf(token) {
  const body = token.startsWith('[') ? token.slice(1, -1).replace(/^\d+/, '') : token;
  const match = /^(Cl|Br|[A-Z][a-z]?|[a-z])/.exec(body);
  const symbol = match ? match[1] : '';
  return symbol.length === 1 ? symbol.toUpperCase() : symbol;
}

/**
 * The text to delete to drop the `[H]` at `offset` (with its branch parentheses or bond sign), or
 * null when it must stay: a hydrogen on a bracket atom (`[C@@]([H])`) is part of how the bracket
 * atom is written (without it the carbon would be a radical), so only RDKit removes it.
 */
function removableSpan(smiles, offset, onOrganicCarbon) {
  if (!onOrganicCarbon) return null;
  const end = offset + 3;
  if (offset === 0) return [0, BONDS.includes(smiles[end] ?? '') ? end + 1 : end];
  let start = offset;
  if (BONDS.includes(smiles[start - 1] ?? '')) start--;
  if (smiles[start - 1] === '(' && smiles[end] === ')') return [start - 1, end + 1];
  return [start, end];
}

/**
 * Splits a SMILES into atom tokens and finds, for every `[H]` atom, the heavy atom it is bonded to:
 * the atom before it at the same branch depth, or the atom after it when the SMILES starts with it.
 * Returns the `[H]` atoms bonded to carbon: `offset` of the token and the `span` that drops it.
 * Only what RDKit writes after adding hydrogens is handled (hydrogens bonded to one atom).
 */
export function carbonHydrogenSites(smiles) {
  const sites = [];
  const stack = [];
  let current = null; // { element, organic, isH }
  let leading = null;
  let i = 0;
  while (i < smiles.length) {
    const rest = smiles.slice(i);
    const ch = smiles[i];
    if (ch === '(') {
      stack.push(current);
      i++;
      continue;
    }
    if (ch === ')') {
      current = stack.pop() ?? null;
      i++;
      continue;
    }
    if (ch === '.') {
      current = null;
      i++;
      continue;
    }
    if (BONDS.includes(ch)) {
      i++;
      continue;
    }
    const ring = RING.exec(rest);
    if (ring) {
      i += ring[0].length;
      continue;
    }
    const token = (BRACKET.exec(rest) ?? ORGANIC.exec(rest))?.[0];
    if (!token) throw new Error(`cannot read SMILES ${smiles} at ${i}`);
    const atom = { element: elementOf(token), organic: !token.startsWith('['), offset: i, isH: token === '[H]' };
    if (atom.isH && current) {
      if (current.element === 'C') sites.push({ offset: i, span: removableSpan(smiles, i, current.organic) });
    } else if (atom.isH) {
      leading = atom;
    } else if (leading && current === leading) {
      if (atom.element === 'C') sites.push({ offset: leading.offset, span: removableSpan(smiles, leading.offset, atom.organic) });
      leading = null;
    }
    current = atom;
    i += token.length;
  }
  return sites;
}

/**
 * The analogue: the `[H]` of each edited site replaced by its substituent, every other carbon
 * hydrogen that can go dropped (RDKit then reads a SMILES of about half the atoms: the parse and
 * canonicalisation that dominate the generator's time halve too). `sites` in offset order.
 */
export function substitute(smiles, sites, edits) {
  const groups = new Map(edits.map((e) => [e.offset, e.group]));
  let out = '';
  let from = 0;
  for (const site of sites) {
    const group = groups.get(site.offset);
    if (group !== undefined) {
      out += smiles.slice(from, site.offset) + group;
      from = site.offset + 3;
    } else if (site.span) {
      out += smiles.slice(from, site.span[0]);
      from = site.span[1];
    }
  }
  return out + smiles.slice(from);
}
