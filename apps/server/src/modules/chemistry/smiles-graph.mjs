// A molecule graph read from a SMILES exactly as RDKit's substructure library reads a stored one
// (CachedTrustedSmilesMolHolder: SmilesToMol without sanitising, hydrogens kept), keeping only
// what RDKit's molecule-as-query substructure match compares (Atom::Match, Bond::Match):
// atomic number, formal charge, isotope, and bond type. Aromatic flags decide the type of a bond
// written without a symbol (both ends aromatic: aromatic, else single), as RDKit's parser does.
// Plain JavaScript on purpose: the chemistry workers load it without tsx (smiles-graph.d.mts).
//
// Anything this reader does not know (a symbol, a bond, a malformed text) makes it answer false:
// the caller then leaves that structure to RDKit, so a gap here costs time, never a wrong hit.

const ELEMENTS = (
  'H He Li Be B C N O F Ne Na Mg Al Si P S Cl Ar K Ca Sc Ti V Cr Mn Fe Co Ni Cu Zn Ga Ge As Se Br Kr ' +
  'Rb Sr Y Zr Nb Mo Tc Ru Rh Pd Ag Cd In Sn Sb Te I Xe Cs Ba La Ce Pr Nd Pm Sm Eu Gd Tb Dy Ho Er Tm Yb ' +
  'Lu Hf Ta W Re Os Ir Pt Au Hg Tl Pb Bi Po At Rn Fr Ra Ac Th Pa U Np Pu Am Cm Bk Cf Es Fm Md No Lr Rf ' +
  'Db Sg Bh Hs Mt Ds Rg Cn Nh Fl Mc Lv Ts Og'
).split(' ');
/** Element symbol → atomic number (also read by smarts-outline.mjs). */
export const ATOMIC_NUMBER = new Map(ELEMENTS.map((symbol, i) => [symbol, i + 1]));
/** Symbols RDKit's SMILES lexer reads as aromatic atoms inside brackets (smiles.ll). */
const AROMATIC_BRACKET = new Set(['b', 'c', 'n', 'o', 'p', 's', 'se', 'te', 'as', 'si']);

/** RDKit bond types (Bond::BondType values), the only bond property a molecule query compares. */
export const BOND = Object.freeze({ single: 1, double: 2, triple: 3, quadruple: 4, aromatic: 12, dative: 17 });
/**
 * A bond written '/' or '\\': RDKit reads it with its order unspecified, so it takes the type of a
 * bond written without a symbol (aromatic between aromatic atoms: `s/c(=N…)` in a thiazoline).
 */
const DIRECTIONAL = 255;

const CH = (c) => c.charCodeAt(0);
const [LPAREN, RPAREN, LBRACKET, RBRACKET, PERCENT, DOT, STAR] = ['(', ')', '[', ']', '%', '.', '*'].map(CH);
/** Character code → the bond it writes (0: none); '-' may start '->', a dative bond. */
const BOND_OF = new Uint8Array(256);
BOND_OF[CH('-')] = BOND.single;
BOND_OF[CH('=')] = BOND.double;
BOND_OF[CH('#')] = BOND.triple;
BOND_OF[CH('$')] = BOND.quadruple;
BOND_OF[CH(':')] = BOND.aromatic;
BOND_OF[CH('/')] = DIRECTIONAL;
BOND_OF[CH('\\')] = DIRECTIONAL;
/** Organic-subset symbol (first letter) → atomic number (DUMMY for '*', 0: not one), and aromatic flag. */
const DUMMY = 255;
const ORGANIC_Z = new Uint8Array(256);
const ORGANIC_AROMATIC = new Uint8Array(256);
for (const [symbol, z] of [
  ['B', 5],
  ['C', 6],
  ['N', 7],
  ['O', 8],
  ['P', 15],
  ['S', 16],
  ['F', 9],
  ['I', 53],
  ['*', DUMMY],
])
  ORGANIC_Z[CH(symbol)] = z;
for (const [symbol, z] of [
  ['b', 5],
  ['c', 6],
  ['n', 7],
  ['o', 8],
  ['p', 15],
  ['s', 16],
]) {
  ORGANIC_Z[CH(symbol)] = z;
  ORGANIC_AROMATIC[CH(symbol)] = 1;
}
const [UPPER_B, UPPER_C, LOWER_L, LOWER_R] = ['B', 'C', 'l', 'r'].map(CH);
const isDigit = (c) => c >= 48 && c <= 57;
const isUpper = (c) => c >= 65 && c <= 90;
const isLower = (c) => c >= 97 && c <= 122;

/**
 * A reusable graph: typed arrays sized for `maxAtoms` atoms and `maxBonds` bonds, refilled by
 * each `read`. Neighbours are in compressed rows (`start`, `nbr`, `nbrBond`) after `read`.
 */
export class SmilesGraph {
  constructor(maxAtoms = 512, maxBonds = 1024) {
    this.maxAtoms = maxAtoms;
    this.maxBonds = maxBonds;
    this.atoms = 0;
    this.bonds = 0;
    this.z = new Uint8Array(maxAtoms);
    this.charge = new Int8Array(maxAtoms);
    this.isotope = new Uint16Array(maxAtoms);
    this.aromatic = new Uint8Array(maxAtoms);
    this.bondA = new Int32Array(maxBonds);
    this.bondB = new Int32Array(maxBonds);
    this.bondType = new Uint8Array(maxBonds);
    this.start = new Int32Array(maxAtoms + 1);
    this.nbr = new Int32Array(2 * maxBonds);
    this.nbrBond = new Uint8Array(2 * maxBonds);
    /** Ring-closure label → [atom, bond type or 0] while open. */
    /** Per neighbour entry: 1 when its bond is in a ring (after `findRings`). */
    this.nbrRing = new Uint8Array(2 * maxBonds);
    /** Per atom: its ring bonds (after `findRings`). */
    this.ringBonds = new Uint8Array(maxAtoms);
    this.dfsOrder = new Int32Array(maxAtoms);
    this.dfsLow = new Int32Array(maxAtoms);
    this.dfsEntry = new Int32Array(maxAtoms);
    this.dfsCursor = new Int32Array(maxAtoms);
    this.dfsStack = new Int32Array(maxAtoms);
    this.openRing = new Int32Array(1000).fill(-1);
    this.openRingBond = new Uint8Array(1000);
    this.branch = new Int32Array(256);
  }

  /**
   * Reads the SMILES in `bytes` (UTF-8, from `from` to `to`). True when read; false when
   * the text holds anything this reader does not handle exactly as RDKit (the caller asks RDKit).
   */
  read(bytes, from = 0, to = bytes.length) {
    // A text that failed part-way may have left ring closures open.
    if (this.dirty) this.openRing.fill(-1);
    this.dirty = true;
    const b = bytes;
    this.atoms = 0;
    this.bonds = 0;
    let prev = -1;
    let pendingBond = 0;
    let depth = 0;
    let openRings = 0;
    let i = from;
    while (i < to) {
      const c = b[i];
      if (c === LPAREN) {
        // RDKit refuses a branch that opens with a ring closure or is empty: "C(1…", "C()".
        if (prev < 0 || depth >= this.branch.length || i + 1 >= to || isDigit(b[i + 1]) || b[i + 1] === PERCENT || b[i + 1] === RPAREN)
          return false;
        this.branch[depth++] = prev;
        i++;
      } else if (c === RPAREN) {
        if (depth === 0 || pendingBond) return false;
        prev = this.branch[--depth];
        i++;
      } else if (c === DOT) {
        if (pendingBond) return false;
        prev = -1;
        i++;
      } else if (BOND_OF[c] !== 0) {
        if (pendingBond || prev < 0) return false;
        pendingBond = BOND_OF[c];
        i++;
        // '->' is a dative bond; '<-' (written before its atom) is not read here.
        if (c === CH('-') && i < to && b[i] === CH('>')) {
          pendingBond = BOND.dative;
          i++;
        }
      } else if (isDigit(c) || c === PERCENT) {
        if (prev < 0) return false;
        let label;
        if (c === PERCENT) {
          // Two digits, the first not zero, as RDKit's lexer.
          if (i + 2 >= to || !isDigit(b[i + 1]) || !isDigit(b[i + 2]) || b[i + 1] === 48) return false;
          label = (b[i + 1] - 48) * 10 + (b[i + 2] - 48);
          i += 3;
        } else {
          label = c - 48;
          i++;
        }
        const other = this.openRing[label];
        if (other < 0) {
          this.openRing[label] = prev;
          this.openRingBond[label] = pendingBond;
          openRings++;
        } else {
          const first = this.openRingBond[label];
          if (first && pendingBond && first !== pendingBond) return false;
          if (other === prev || !this.addBond(other, prev, pendingBond || first)) return false;
          this.openRing[label] = -1;
          openRings--;
        }
        pendingBond = 0;
      } else {
        const atom = this.atoms;
        const next = c === LBRACKET ? this.readBracket(b, i, to) : this.readOrganic(b, i, to);
        if (next < 0) return false;
        i = next;
        if (prev >= 0 && !this.addBond(prev, atom, pendingBond)) return false;
        pendingBond = 0;
        prev = atom;
      }
    }
    if (depth !== 0 || pendingBond || openRings !== 0) return false;
    this.dirty = false;
    this.index();
    return true;
  }

  /** An atom of the organic subset (B C N O P S F Cl Br I, b c n o p s, *); the index after it, or -1. */
  readOrganic(b, i, to) {
    const c = b[i];
    let z = ORGANIC_Z[c];
    let next = i + 1;
    if (z === 0) return -1;
    // "Cl" and "Br": the longest symbol.
    if (z === 6 && next < to && b[next] === LOWER_L && c === UPPER_C) {
      z = 17;
      next++;
    } else if (z === 5 && next < to && b[next] === LOWER_R && c === UPPER_B) {
      z = 35;
      next++;
    }
    return this.addAtom(z === DUMMY ? 0 : z, ORGANIC_AROMATIC[c], 0, 0) ? next : -1;
  }

  /** A bracket atom `[isotope symbol chirality hydrogens charge :class]`; the index after it, or -1. */
  readBracket(b, i, to) {
    let at = i + 1;
    let isotope = 0;
    while (at < to && isDigit(b[at])) isotope = isotope * 10 + b[at++] - 48;
    if (at >= to) return -1;
    let z;
    let aromatic = 0;
    const c = b[at];
    if (c === STAR) {
      z = 0;
      at++;
    } else if (isUpper(c)) {
      // The longest symbol that is an element: "Cl" before "C" ("Cn" is copernicium, "Co" cobalt).
      const two = at + 1 < to && isLower(b[at + 1]) ? String.fromCharCode(c, b[at + 1]) : null;
      if (two && ATOMIC_NUMBER.has(two)) {
        z = ATOMIC_NUMBER.get(two);
        at += 2;
      } else {
        z = ATOMIC_NUMBER.get(String.fromCharCode(c));
        at++;
      }
      if (!z) return -1;
    } else if (isLower(c)) {
      const two = at + 1 < to && isLower(b[at + 1]) ? String.fromCharCode(c, b[at + 1]) : null;
      const symbol = two && AROMATIC_BRACKET.has(two) ? two : String.fromCharCode(c);
      if (!AROMATIC_BRACKET.has(symbol)) return -1;
      z = ATOMIC_NUMBER.get(symbol[0].toUpperCase() + symbol.slice(1));
      aromatic = 1;
      at += symbol.length;
    } else return -1;
    // Chirality (@, @@, @TH1, @AL2, @SP3, @TB10, @OH25): not compared without chirality.
    if (at < to && b[at] === CH('@')) {
      at++;
      if (at < to && b[at] === CH('@')) at++;
      else if (at + 1 < to && isUpper(b[at]) && b[at] !== CH('H') && isUpper(b[at + 1])) {
        at += 2;
        while (at < to && isDigit(b[at])) at++;
      }
    }
    // Hydrogen count: not compared by a molecule query.
    if (at < to && b[at] === CH('H')) {
      at++;
      while (at < to && isDigit(b[at])) at++;
    }
    let charge = 0;
    if (at < to && (b[at] === CH('+') || b[at] === CH('-'))) {
      const sign = b[at] === CH('+') ? 1 : -1;
      at++;
      if (at < to && isDigit(b[at])) {
        let n = 0;
        while (at < to && isDigit(b[at])) n = n * 10 + b[at++] - 48;
        charge = sign * n;
      } else {
        // '+' or '++' (RDKit's lexer reads no longer runs).
        charge = sign;
        if (at < to && b[at] === (sign > 0 ? CH('+') : CH('-'))) {
          charge += sign;
          at++;
        }
      }
    }
    if (at < to && b[at] === CH(':')) {
      at++;
      while (at < to && isDigit(b[at])) at++;
    }
    if (at >= to || b[at] !== RBRACKET) return -1;
    if (charge < -127 || charge > 127 || isotope > 65535) return -1;
    return this.addAtom(z, aromatic, charge, isotope) ? at + 1 : -1;
  }

  addAtom(z, aromatic, charge, isotope) {
    const a = this.atoms;
    if (a >= this.maxAtoms) return false;
    this.z[a] = z;
    this.aromatic[a] = aromatic;
    this.charge[a] = charge;
    this.isotope[a] = isotope;
    this.atoms = a + 1;
    return true;
  }

  /** A bond; written without a symbol (or '/', '\\') it is aromatic between two aromatic atoms, else single. */
  addBond(a, b, type) {
    const k = this.bonds;
    if (k >= this.maxBonds) return false;
    this.bondA[k] = a;
    this.bondB[k] = b;
    this.bondType[k] = type && type !== DIRECTIONAL ? type : this.aromatic[a] && this.aromatic[b] ? BOND.aromatic : BOND.single;
    this.bonds = k + 1;
    return true;
  }

  /**
   * Marks ring bonds: a bond is in a ring exactly when it is no bridge (every cycle bond lies in
   * some ring of RDKit's SSSR), found by one depth-first search with low links. Dative bonds are
   * left out, as RDKit's ring finding does. Fills `nbrRing`
   * and `ringBonds`; only SMARTS with ring primitives ask for it.
   */
  findRings() {
    const {
      atoms,
      start,
      nbr,
      nbrBond,
      nbrRing,
      ringBonds,
      dfsOrder: order,
      dfsLow: low,
      dfsEntry: entry,
      dfsCursor: cursor,
      dfsStack: stack,
    } = this;
    order.fill(-1, 0, atoms);
    ringBonds.fill(0, 0, atoms);
    nbrRing.fill(0, 0, start[atoms]);
    let counter = 0;
    for (let root = 0; root < atoms; root++) {
      if (order[root] >= 0) continue;
      let depth = 0;
      stack[0] = root;
      order[root] = low[root] = counter++;
      entry[root] = -1;
      cursor[root] = start[root];
      while (depth >= 0) {
        const a = stack[depth];
        if (cursor[a] < start[a + 1]) {
          const k = cursor[a]++;
          const b = nbr[k];
          // RDKit's ring finding leaves dative bonds out: a chelate is no ring.
          if (k === entry[a] || nbrBond[k] === BOND.dative) continue;
          if (order[b] < 0) {
            order[b] = low[b] = counter++;
            entry[b] = this.reverseEntry(b, a, k);
            cursor[b] = start[b];
            stack[++depth] = b;
          } else if (order[b] < low[a]) low[a] = order[b];
        } else {
          depth--;
          if (depth >= 0) {
            const parent = stack[depth];
            if (low[a] < low[parent]) low[parent] = low[a];
            // The tree bond parent–a is a bridge unless a's subtree reaches above it.
            if (low[a] <= order[parent]) this.markRing(a, entry[a]);
          }
        }
      }
    }
    // Bonds that close a cycle (not tree bonds) are ring bonds too.
    for (let a = 0; a < atoms; a++) {
      for (let k = start[a]; k < start[a + 1]; k++) {
        const b = nbr[k];
        if (nbrBond[k] !== BOND.dative && k !== entry[a] && this.reverseEntry(b, a) !== entry[b] && !nbrRing[k]) this.markRing(a, k);
      }
    }
  }

  /** The neighbour entry of b that is the bond b–a written at a's entry k (parallel bonds never occur). */
  reverseEntry(b, a) {
    for (let j = this.start[b]; j < this.start[b + 1]; j++) if (this.nbr[j] === a) return j;
    return -1;
  }

  /** Marks the bond at neighbour entry k of atom a (both its entries) as a ring bond. */
  markRing(a, k) {
    const b = this.nbr[k];
    const back = this.reverseEntry(b, a);
    if (this.nbrRing[k]) return;
    this.nbrRing[k] = 1;
    this.nbrRing[back] = 1;
    this.ringBonds[a]++;
    this.ringBonds[b]++;
  }

  /** Neighbour lists in compressed rows. */
  index() {
    const fill = this.fillAt ?? (this.fillAt = new Int32Array(this.maxAtoms));
    neighbourRows(this.atoms, this.bonds, this.bondA, this.bondB, this.bondType, this.start, this.nbr, this.nbrBond, fill);
  }
}

/**
 * Neighbour lists in compressed rows from a bond list: atom a's neighbours are nbr[start[a] ..
 * start[a + 1]), each with its bond's label (`bondLabel[k]`: a type here, an index for a query).
 * `fill` is scratch of at least `atoms` entries.
 */
export function neighbourRows(atoms, bonds, bondA, bondB, bondLabel, start, nbr, nbrLabel, fill) {
  start.fill(0, 0, atoms + 1);
  for (let k = 0; k < bonds; k++) {
    start[bondA[k] + 1]++;
    start[bondB[k] + 1]++;
  }
  // A plain loop, not fill.set(start.subarray(…)): a view allocated per structure read.
  for (let a = 0; a < atoms; a++) {
    start[a + 1] += start[a];
    fill[a] = start[a];
  }
  for (let k = 0; k < bonds; k++) {
    const a = bondA[k];
    const b = bondB[k];
    nbr[fill[a]] = b;
    nbrLabel[fill[a]++] = bondLabel[k];
    nbr[fill[b]] = a;
    nbrLabel[fill[b]++] = bondLabel[k];
  }
}
