// The outline of a SMARTS: its atoms and bonds reduced to what a stored structure's element,
// aromaticity and bond types decide, so that substructure-match.mjs can rule out the structures
// RDKit could not match and leave RDKit only the others. Each primitive is true, false or
// "unknown" (hydrogen counts, degrees, rings, charges, recursion…), combined with Kleene's logic: an
// atom or bond is ruled out only where its expression is certainly false, so the outline never
// rules out a structure RDKit would match (substructure-match.test.ts checks this against RDKit).
// Anything this reader does not know, or reads two ways, gives no outline (null): RDKit then
// matches every candidate, as before.
// Plain JavaScript on purpose: the chemistry workers load it without tsx.
import { ATOMIC_NUMBER } from './smiles-graph.mjs';
import { ATOM_COLUMNS, BOND_COLUMNS, BOND_TYPES, CompiledQuery, RING_BOND_COUNTS } from './substructure-match.mjs';

const AROMATIC_SYMBOLS = new Map([
  ['c', 6],
  ['n', 7],
  ['o', 8],
  ['s', 16],
  ['p', 15],
  ['b', 5],
  ['se', 34],
  ['te', 52],
  ['as', 33],
  ['si', 14],
]);
/** The two-letter elements of RDKit's SMARTS lexer (smarts.ll), read before any shorter token. */
const SMARTS_ELEMENTS = new Set(
  (
    'He Li Be Ne Na Mg Al Si Ar Ca Sc Ti Cr Mn Co Fe Ni Cu Zn Ga Ge As Se Kr Rb Sr Zr Nb Mo Tc Ru Rh Pd Ag Cd In Sn Sb Te ' +
    'Xe Cs Ba La Ce Pr Nd Pm Sm Eu Gd Tb Dy Ho Er Tm Yb Lu Hf Ta Re Os Ir Pt Au Hg Tl Pb Bi Po At Rn Fr Ra Ac Th Pa Np Pu ' +
    'Am Cm Bk Cf Es Fm Md No Lr Rf Db Sg Bh Hs Mt Ds Rg Cn Fl Lv'
  ).split(' '),
);
const ORGANIC = new Map([
  ['B', 5],
  ['C', 6],
  ['N', 7],
  ['O', 8],
  ['P', 15],
  ['S', 16],
  ['F', 9],
  ['I', 53],
  ['Cl', 17],
  ['Br', 35],
]);

const aliphaticElement = (z) => (az, aromatic) => (az === z && !aromatic ? T : F);

const T = 1;
const F = 0;
const U = 2;
const not = (v) => (v === U ? U : 1 - v);
const and = (a, b) => (a === F || b === F ? F : a === T && b === T ? T : U);
const or = (a, b) => (a === T || b === T ? T : a === F && b === F ? F : U);

class Unreadable extends Error {}

/**
 * The outline of a SMARTS (a loose CompiledQuery), or null when the text holds anything this reader
 * does not handle. `certain`: whether a match with its certain tables may stand as RDKit's answer —
 * true for a SMARTS RDKit matches as written; false for the SMARTS RDKit writes of a molecule query,
 * which leaves out what a molecule query also compares (a radical, say): then the outline only rules
 * structures out.
 */
export function smartsOutlineOf(smarts, certain = true) {
  try {
    return new OutlineReader(smarts, certain).read();
  } catch (error) {
    if (error instanceof Unreadable) return null;
    throw error;
  }
}

class OutlineReader {
  constructor(text, certain) {
    this.text = text;
    this.certain = certain;
    this.at = 0;
    this.atomTests = [];
    this.bondA = [];
    this.bondB = [];
    this.bondTests = [];
    this.needsRings = false;
  }

  fail() {
    throw new Unreadable();
  }

  peek(offset = 0) {
    return this.text[this.at + offset];
  }

  read() {
    this.readGraph();
    return this.compile();
  }

  /** Atoms and bonds with their tests, without compiling them. */
  readGraph() {
    const open = new Map();
    const branches = [];
    let prev = -1;
    let bond = null;
    while (this.at < this.text.length) {
      const c = this.peek();
      if (c === '(') {
        if (prev < 0) this.fail(); // component grouping: not read
        branches.push(prev);
        this.at++;
      } else if (c === ')') {
        if (branches.length === 0 || bond) this.fail();
        prev = branches.pop();
        this.at++;
      } else if (c === '.') {
        if (bond) this.fail();
        prev = -1;
        this.at++;
      } else if (/[0-9%]/.test(c)) {
        if (prev < 0) this.fail();
        const label = this.ringLabel();
        if (open.has(label)) {
          const [other, first] = open.get(label);
          open.delete(label);
          // Both ends written: RDKit keeps the first; not read here.
          if (other === prev || (bond && first)) this.fail();
          this.addBond(other, prev, bond ?? first);
        } else open.set(label, [prev, bond]);
        bond = null;
      } else if (/[-=#:~@/\\!&,;$<>]/.test(c)) {
        if (prev < 0 || bond) this.fail();
        bond = this.bondExpression();
      } else {
        const atom = this.atom();
        if (prev >= 0) this.addBond(prev, atom, bond);
        bond = null;
        prev = atom;
      }
    }
    if (branches.length > 0 || open.size > 0 || bond || this.atomTests.length === 0) this.fail();
  }

  ringLabel() {
    if (this.peek() !== '%') return Number(this.text[this.at++]);
    if (this.peek(1) === '(') {
      const end = this.text.indexOf(')', this.at);
      if (end < 0) this.fail();
      const label = this.text.slice(this.at + 2, end);
      if (!/^\d+$/.test(label)) this.fail();
      this.at = end + 1;
      // The same label as written any other way: %(1) closes 1.
      return Number(label);
    }
    const digits = this.text.slice(this.at + 1, this.at + 3);
    if (!/^[1-9]\d$/.test(digits)) this.fail();
    this.at += 3;
    return Number(digits);
  }

  addBond(a, b, test) {
    this.bondA.push(a);
    this.bondB.push(b);
    // Written without a symbol: single or aromatic (RDKit's SingleOrAromaticBond).
    this.bondTests.push(test ?? ((type) => (type === 'single' || type === 'aromatic' ? T : type === 'other' ? U : F)));
  }

  /** An atom outside brackets (organic subset, aromatic, *, A, a) or a bracket atom; its index. */
  atom() {
    let test;
    const c = this.peek();
    const two = this.text.slice(this.at, this.at + 2);
    if (c === '[') test = this.bracket();
    else if (two === 'Cl' || two === 'Br') {
      const z = ORGANIC.get(two);
      test = (az, aromatic) => (az === z && !aromatic ? T : F);
      this.at += 2;
    } else if (ORGANIC.has(c)) {
      const z = ORGANIC.get(c);
      test = (az, aromatic) => (az === z && !aromatic ? T : F);
      this.at++;
    } else if (AROMATIC_SYMBOLS.has(c) && c.length === 1) {
      const z = AROMATIC_SYMBOLS.get(c);
      test = (az, aromatic) => (az === z && aromatic ? T : F);
      this.at++;
    } else if (c === '*') {
      test = () => T;
      this.at++;
    } else if (c === 'A' || c === 'a') {
      const want = c === 'a' ? 1 : 0;
      test = (az, aromatic) => (aromatic === want ? T : F);
      this.at++;
    } else this.fail();
    this.atomTests.push(test);
    return this.atomTests.length - 1;
  }

  /** `[ … ]`: an expression of primitives with ! & , ; (in RDKit's precedence). */
  bracket() {
    const end = this.closing(this.at, '[', ']');
    const inner = this.text.slice(this.at + 1, end);
    this.at = end + 1;
    // A hydrogen atom ([H], [2H], [H+]) rather than a hydrogen count: not read.
    if (/^\d*H[+-]?\d*(:\d+)?$/.test(inner)) this.fail();
    return new ExpressionReader(inner, 'atom', this).read();
  }

  closing(from, open, close) {
    let depth = 0;
    for (let i = from; i < this.text.length; i++) {
      if (this.text[i] === open) depth++;
      else if (this.text[i] === close && --depth === 0) return i;
    }
    return this.fail();
  }

  bondExpression() {
    let end = this.at;
    while (end < this.text.length && /[-=#:~@/\\!&,;$<>]/.test(this.text[end])) end++;
    const text = this.text.slice(this.at, end);
    this.at = end;
    return new ExpressionReader(text, 'bond', this).read();
  }

  compile() {
    const atoms = this.atomTests.length;
    const bonds = this.bondTests.length;
    const maybe = { atoms: new Uint8Array(atoms * ATOM_COLUMNS), bonds: new Uint8Array(bonds * BOND_COLUMNS) };
    const sure = { atoms: new Uint8Array(atoms * ATOM_COLUMNS), bonds: new Uint8Array(bonds * BOND_COLUMNS) };
    this.atomTests.forEach((test, a) => {
      for (let rings = 0; rings < RING_BOND_COUNTS; rings++) {
        for (let z = 0; z < 128; z++) {
          for (const aromatic of [0, 1]) {
            const value = test(z, aromatic, rings);
            const at = a * ATOM_COLUMNS + rings * 256 + z * 2 + aromatic;
            if (value !== F) maybe.atoms[at] = 1;
            if (value === T) sure.atoms[at] = 1;
          }
        }
      }
    });
    const types = ['single', 'double', 'triple', 'aromatic', 'quadruple', 'dative', 'other'];
    this.bondTests.forEach((test, k) => {
      for (const ring of [0, 1]) {
        types.forEach((type, column) => {
          const value = test(type, ring);
          const at = k * BOND_COLUMNS + ring * BOND_TYPES + column;
          if (value !== F) maybe.bonds[at] = 1;
          // RDKit also compares a dative bond's direction, which these tables do not hold.
          if (value === T && type !== 'dative') sure.bonds[at] = 1;
        });
      }
    });
    const shape = { atoms, bonds, bondA: Int32Array.from(this.bondA), bondB: Int32Array.from(this.bondB) };
    const certainTables = this.certain ? { atomTable: sure.atoms, bondTable: sure.bonds } : {};
    return new CompiledQuery(shape, maybe.atoms, maybe.bonds, null, { ...certainTables, needsRings: this.needsRings });
  }
}

/**
 * A bracket atom's or a bond's expression, read into a test of (atomic number, aromatic) or of a
 * bond type: low-precedence and ';' over or ',' over and '&' (or two primitives side by side) over
 * not '!'.
 */
class ExpressionReader {
  constructor(text, kind, outline) {
    this.text = text;
    this.kind = kind;
    this.outline = outline;
    this.at = 0;
  }

  /** A test that reads ring membership: the structure's rings will be found before matching. */
  ringTest(test) {
    this.outline.needsRings = true;
    return test;
  }

  fail() {
    throw new Unreadable();
  }

  read() {
    if (this.text.length === 0) this.fail();
    const test = this.lowAnd();
    if (this.at !== this.text.length) this.fail();
    return test;
  }

  lowAnd() {
    let test = this.or();
    while (this.text[this.at] === ';') {
      this.at++;
      const left = test;
      const right = this.or();
      test = (...x) => and(left(...x), right(...x));
    }
    return test;
  }

  or() {
    let test = this.highAnd();
    while (this.text[this.at] === ',') {
      this.at++;
      const left = test;
      const right = this.highAnd();
      test = (...x) => or(left(...x), right(...x));
    }
    return test;
  }

  highAnd() {
    let test = this.negation();
    for (;;) {
      const c = this.text[this.at];
      if (c === '&') this.at++;
      else if (c === undefined || c === ';' || c === ',') break;
      const left = test;
      const right = this.negation();
      test = (...x) => and(left(...x), right(...x));
    }
    return test;
  }

  negation() {
    if (this.text[this.at] === '!') {
      this.at++;
      const inner = this.negation();
      return (...x) => not(inner(...x));
    }
    return this.kind === 'atom' ? this.atomPrimitive() : this.bondPrimitive();
  }

  /**
   * A recursive SMARTS `$(X)` holds at an atom only where X's first atom sits on it: X's first atom
   * test, and for the rest of X "unknown" (a one-atom X is that atom's test). X unreadable: unknown.
   */
  recursive(inner) {
    const reader = new OutlineReader(inner, false);
    let first;
    try {
      reader.readGraph();
      first = reader.atomTests[0];
    } catch (error) {
      if (error instanceof Unreadable) return () => U;
      throw error;
    }
    if (reader.needsRings) this.outline.needsRings = true;
    if (reader.atomTests.length === 1) return first;
    return (...x) => and(first(...x), U);
  }

  /**
   * R, r, x with their number: what ring membership decides. R and r alone, and x alone, are "in a
   * ring"; R0 "in none"; x<n> "n ring bonds"; R<n> (n SSSR rings) and r<n> (smallest ring size)
   * need rings to be counted, which is not done here, but an atom in no ring has neither.
   */
  ringPrimitive(rest) {
    const match = /^([Rrx])(\d+|\{[\d-]*\})?/.exec(rest);
    this.at += match[0].length;
    const [, letter, number] = match;
    const inRing = (z, aromatic, rings) => (rings > 0 ? T : F);
    if (number === undefined) return this.ringTest(inRing);
    if (number.startsWith('{')) return () => U;
    const n = Number(number);
    if (letter === 'x') {
      const top = RING_BOND_COUNTS - 1;
      return this.ringTest((z, aromatic, rings) => (rings < top ? (rings === n ? T : F) : n < top ? F : U));
    }
    if (n === 0) return letter === 'R' ? this.ringTest((z, aromatic, rings) => (rings === 0 ? T : F)) : () => U;
    return this.ringTest((z, aromatic, rings) => (rings > 0 ? U : F));
  }

  bondPrimitive() {
    const c = this.text[this.at++];
    const is = (wanted) => (type) => (type === wanted ? T : type === 'other' ? U : F);
    // Bond tests read (type, in a ring).
    if (c === '-') return is('single');
    if (c === '=') return is('double');
    if (c === '#') return is('triple');
    if (c === ':') return is('aromatic');
    if (c === '~') return () => T;
    // In a ring: a bond that is no bridge (findRings in smiles-graph.mjs), as RDKit's ring bonds.
    if (c === '@') return this.ringTest((type, ring) => (ring ? T : F));
    // Directional single bonds: not decided here.
    if (c === '/' || c === '\\') return () => U;
    return this.fail();
  }

  atomPrimitive() {
    const rest = this.text.slice(this.at);
    const c = rest[0];
    let match;
    if ((match = /^\$\(/.exec(rest))) {
      let depth = 0;
      for (let i = this.at + 1; i < this.text.length; i++) {
        if (this.text[i] === '(') depth++;
        else if (this.text[i] === ')' && --depth === 0) {
          const inner = this.text.slice(this.at + 2, i);
          this.at = i + 1;
          return this.recursive(inner);
        }
      }
      return this.fail();
    }
    if ((match = /^#(\d+)/.exec(rest))) {
      this.at += match[0].length;
      const z = Number(match[1]);
      return (az) => (az === z ? T : F);
    }
    if (c === '*') {
      this.at++;
      return () => T;
    }
    if (/^\d/.test(c)) {
      // Isotope.
      this.at += /^\d+/.exec(rest)[0].length;
      return () => U;
    }
    if (c === ':') {
      // An atom map number: no condition on the match.
      this.at += /^:\d*/.exec(rest)[0].length;
      return () => T;
    }
    if (c === '+' || c === '-' || c === '@' || c === '^') {
      // Charge, chirality, hybridisation: not decided here.
      this.at += /^(\+\d*|-\d*|@+(?:TH|AL|SP|TB|OH)?\d*|\^\d*)/.exec(rest)?.[0].length || 1;
      return () => U;
    }
    if (/^[a-z]/.test(c)) {
      const two = rest.slice(0, 2);
      if (two.length === 2 && AROMATIC_SYMBOLS.has(two)) {
        // "se", "te", "as", "si": aromatic elements (never a pair of primitives in practice).
        this.at += 2;
        const z = AROMATIC_SYMBOLS.get(two);
        return (az, aromatic) => (az === z && aromatic ? T : F);
      }
      if (c === 'a') {
        this.at++;
        return (az, aromatic) => (aromatic ? T : F);
      }
      if (AROMATIC_SYMBOLS.has(c)) {
        this.at++;
        const z = AROMATIC_SYMBOLS.get(c);
        return (az, aromatic) => (az === z && aromatic ? T : F);
      }
      if (/^[rx]/.test(c)) return this.ringPrimitive(rest);
      // d, h, k, v, z with their numbers or ranges: not decided here.
      if (/^[dhkvz]/.test(c)) {
        this.at += /^[dhkvz](\d+|\{[\d-]*\})?/.exec(rest)[0].length;
        return () => U;
      }
      return this.fail();
    }
    if (/^[A-Z]/.test(c)) {
      const two = rest.slice(0, 2);
      if (two === 'Cl' || two === 'Br') {
        this.at += 2;
        return aliphaticElement(ORGANIC.get(two));
      }
      // RDKit's lexer reads the longest symbol ("[Sc]" is scandium): a two-letter element, or one
      // of K, V, Y, W, U, is its atomic number alone, aromatic or not.
      if (SMARTS_ELEMENTS.has(two) || 'KVYWU'.includes(c)) {
        const symbol = SMARTS_ELEMENTS.has(two) ? two : c;
        this.at += symbol.length;
        const z = ATOMIC_NUMBER.get(symbol);
        return (az) => (az === z ? T : F);
      }
      // The organic subset in capitals is aliphatic.
      if (ORGANIC.has(c)) {
        this.at++;
        return aliphaticElement(ORGANIC.get(c));
      }
      if (c === 'A') {
        this.at++;
        return (az, aromatic) => (aromatic ? F : T);
      }
      if (c === 'R') return this.ringPrimitive(rest);
      if (/^[DHXZ]/.test(c)) {
        this.at += /^[DHXZ](\d+|\{[\d-]*\})?/.exec(rest)[0].length;
        return () => U;
      }
    }
    return this.fail();
  }
}
