/**
 * The chemical environment of a matched-pair cut (docs/sar.md "Matched molecular pairs"), as mmpdb
 * groups transformations: the constant part's atoms within `radius` bonds of the attachment point
 * `[*:1]` (radius 1: the atom bonded to it; radius 2: that atom and its neighbours), written as a
 * canonical rooted tree from the attachment point. The same from → to in two environments are two
 * rows. Radius 0 is no environment ('').
 *
 * Read from the constant part's canonical SMILES (RDKit's, as the worker's cuts give it) by a small
 * parser here: the environment is needed only for constant parts shared by two compounds or more,
 * and needs no RDKit call.
 *
 * Each atom is written `[symbol;Dn;R]`: the symbol (aromatic lower case) with its charge, `Dn` its
 * number of heavy neighbours in the constant part (the attachment point counted), `R` / `!R` in a
 * ring or not; bonds `-` `=` `#` `:`. Neighbours are written in sorted order, so the text is the
 * same however the SMILES was written.
 */

interface Atom {
  symbol: string;
  aromatic: boolean;
  charge: number;
  dummy: boolean;
}
interface Graph {
  atoms: Atom[];
  /** Per atom: [neighbour, bond symbol]. */
  neighbours: [number, string][][];
}

const ORGANIC = /^(Cl|Br|B|C|N|O|P|S|F|I|b|c|n|o|p|s)/;

/** A SMILES as a graph (atoms, bonds, aromaticity as written); null when it is not one this parser reads. */
export function parseSmiles(smiles: string): Graph | null {
  const atoms: Atom[] = [];
  const neighbours: [number, string][][] = [];
  const stack: number[] = [];
  const rings = new Map<number, [number, string | null]>();
  let previous = -1;
  let bond: string | null = null;
  const connect = (a: number, b: number, symbol: string | null) => {
    const written = symbol ?? (atoms[a]!.aromatic && atoms[b]!.aromatic ? ':' : '-');
    const kind = written === '/' || written === '\\' ? '-' : written;
    neighbours[a]!.push([b, kind]);
    neighbours[b]!.push([a, kind]);
  };
  const add = (atom: Atom) => {
    atoms.push(atom);
    neighbours.push([]);
    const at = atoms.length - 1;
    if (previous >= 0) connect(previous, at, bond);
    bond = null;
    previous = at;
  };
  let i = 0;
  while (i < smiles.length) {
    const ch = smiles[i]!;
    if (ch === '[') {
      const end = smiles.indexOf(']', i);
      if (end < 0) return null;
      const body = smiles.slice(i + 1, end);
      const match = /^(\d*)(\*|[A-Z][a-z]?|[a-z][a-z]?)(@*)(H\d*)?([+-]+\d*)?(?::\d+)?$/.exec(body);
      if (!match) return null;
      const symbol = match[2]!;
      const chargeText = match[5] ?? '';
      const charge =
        chargeText === ''
          ? 0
          : (chargeText[0] === '+' ? 1 : -1) * (/\d/.test(chargeText) ? Number(chargeText.slice(1)) : chargeText.length);
      add({
        symbol: symbol === '*' ? '*' : symbol[0]!.toUpperCase() + symbol.slice(1),
        aromatic: symbol !== '*' && symbol[0] === symbol[0]!.toLowerCase(),
        charge,
        dummy: symbol === '*',
      });
      i = end + 1;
    } else if (ORGANIC.test(smiles.slice(i))) {
      const symbol = ORGANIC.exec(smiles.slice(i))![1]!;
      add({
        symbol: symbol[0]!.toUpperCase() + symbol.slice(1),
        aromatic: symbol[0] === symbol[0]!.toLowerCase(),
        charge: 0,
        dummy: false,
      });
      i += symbol.length;
    } else if (ch === '*') {
      add({ symbol: '*', aromatic: false, charge: 0, dummy: true });
      i += 1;
    } else if (ch === '(') {
      stack.push(previous);
      i += 1;
    } else if (ch === ')') {
      previous = stack.pop() ?? -1;
      i += 1;
    } else if ('-=#:/\\'.includes(ch)) {
      bond = ch;
      i += 1;
    } else if (ch === '.') {
      previous = -1;
      i += 1;
    } else if (/[0-9%]/.test(ch)) {
      const label = ch === '%' ? Number(smiles.slice(i + 1, i + 3)) : Number(ch);
      i += ch === '%' ? 3 : 1;
      const open = rings.get(label);
      if (open) {
        connect(open[0], previous, bond ?? open[1]);
        rings.delete(label);
      } else rings.set(label, [previous, bond]);
      bond = null;
    } else return null;
  }
  return rings.size === 0 ? { atoms, neighbours } : null;
}

/** Atoms on a ring: a bond is in a ring when its atoms stay connected without it. */
function ringAtoms(graph: Graph): boolean[] {
  const inRing = graph.atoms.map(() => false);
  graph.neighbours.forEach((list, a) => {
    for (const [b] of list) {
      if (b < a || (inRing[a] && inRing[b])) continue;
      const seen = new Set([a]);
      const queue = [a];
      let found = false;
      while (queue.length && !found) {
        const x = queue.pop()!;
        for (const [y] of graph.neighbours[x]!) {
          if ((x === a && y === b) || seen.has(y)) continue;
          if (y === b) {
            found = true;
            break;
          }
          seen.add(y);
          queue.push(y);
        }
      }
      if (found) inRing[a] = inRing[b] = true;
    }
  });
  return inRing;
}

/**
 * The environment of the constant part's attachment point at `radius` (0: ''); null when the SMILES
 * cannot be read or has no single attachment point (the transformation is then kept without one).
 */
export function cutEnvironment(constant: string, radius: number): string | null {
  if (radius <= 0) return '';
  const graph = parseSmiles(constant);
  if (!graph) return null;
  const dummies = graph.atoms.flatMap((atom, at) => (atom.dummy ? [at] : []));
  if (dummies.length !== 1) return null;
  const inRing = ringAtoms(graph);
  const label = (at: number) => {
    const atom = graph.atoms[at]!;
    const symbol = atom.aromatic ? atom.symbol.toLowerCase() : atom.symbol;
    const charge =
      atom.charge === 0 ? '' : atom.charge > 0 ? `+${atom.charge > 1 ? atom.charge : ''}` : `-${atom.charge < -1 ? -atom.charge : ''}`;
    return `[${symbol}${charge};D${graph.neighbours[at]!.length};${inRing[at] ? 'R' : '!R'}]`;
  };
  const tree = (at: number, parent: number, depth: number): string => {
    if (depth >= radius) return label(at);
    const branches = graph.neighbours[at]!.filter(([next]) => next !== parent)
      .map(([next, bond]) => bond + tree(next, at, depth + 1))
      .sort();
    return label(at) + branches.map((branch, i) => (i < branches.length - 1 ? `(${branch})` : branch)).join('');
  };
  const root = dummies[0]!;
  if (graph.neighbours[root]!.length !== 1) return null;
  const [first, bond] = graph.neighbours[root]![0]!;
  return `[*:1]${bond}${tree(first, root, 1)}`;
}

/** Environments per constant part and radius, remembered (a constant part comes back in every pair it makes). */
export class EnvironmentCache {
  private readonly known = new Map<string, string | null>();

  of(constant: string, radius: number): string | null {
    if (radius <= 0) return '';
    const key = `${radius}|${constant}`;
    let found = this.known.get(key);
    if (found === undefined) {
      found = cutEnvironment(constant, radius);
      if (this.known.size > 200_000) this.known.clear();
      this.known.set(key, found);
    }
    return found;
  }
}
