import { ChemQueryRefused } from './chem-engine.ts';

/**
 * Limits a structure query is checked against before RDKit sees it (docs/security.md "Chemistry
 * engine"). RDKit MinimalLib runs in WebAssembly with a small native stack and no way to stop a
 * call from outside the thread: a long chain overflows that stack (a trap that corrupts the
 * module), a deeply nested recursive SMARTS runs for minutes. So the text is measured first —
 * cheaply, without parsing — and refused with a message naming the limit; the exact atom count is
 * checked again once RDKit has parsed the query. The values and the measurements behind them are
 * in README.md "Query limits".
 */
export interface QueryLimits {
  /** Characters of a SMILES. */
  smilesLength: number;
  /** Characters of a SMARTS. */
  smartsLength: number;
  /** Bytes (UTF-8) of a molfile. */
  molfileBytes: number;
  /** Atoms: estimated from the text (atom tokens, molfile counts line), then exact after parsing. */
  atoms: number;
  /** Nesting of recursive SMARTS `$(`…`)`. */
  recursionDepth: number;
  /** Recursive SMARTS `$(` in one pattern. */
  recursiveSmarts: number;
  /** Nesting of branches `(`. */
  branchDepth: number;
  /** Ring-closure labels (digits and %nn; an opening and its closing count as two). */
  ringClosures: number;
  /** Stereo marks `@` / `@@` (tetrahedral centres written in the text). */
  stereoCentres: number;
}

/** Queries typed or drawn by a chemist (previews, structure rows, highlights, similarity sort). */
export const QUERY_LIMITS: Readonly<QueryLimits> = Object.freeze({
  smilesLength: 2_000,
  smartsLength: 2_000,
  molfileBytes: 128 * 1024,
  atoms: 250,
  recursionDepth: 4,
  recursiveSmarts: 32,
  branchDepth: 32,
  ringClosures: 100,
  stereoCentres: 64,
});

/**
 * Stored structures (canonical SMILES read from the database) drawn as depictions or written as
 * molblocks: trusted text, so looser, but still below where RDKit's stack runs out.
 */
export const STORED_LIMITS: Readonly<QueryLimits> = Object.freeze({
  smilesLength: 6_000,
  smartsLength: 2_000,
  molfileBytes: 128 * 1024,
  atoms: 400,
  recursionDepth: 4,
  recursiveSmarts: 32,
  branchDepth: 64,
  ringClosures: 200,
  stereoCentres: 128,
});

export type QueryKind = 'smiles' | 'smarts' | 'molfile';

/** What the text of a query shows before parsing. */
export interface QueryMeasure {
  length: number;
  atoms: number;
  recursionDepth: number;
  recursiveSmarts: number;
  branchDepth: number;
  ringClosures: number;
  stereoCentres: number;
}

const count = (n: number) => n.toLocaleString('en-US');
const KIND_NAME: Record<QueryKind, string> = { smiles: 'SMILES', smarts: 'SMARTS', molfile: 'molfile' };

/** Two-letter element symbols written outside brackets (the SMILES organic subset). */
const TWO_LETTER = new Set(['Cl', 'Br']);
/** One-letter atoms outside brackets: organic subset, aromatic forms, SMARTS wildcards. */
const ONE_LETTER = new Set(['B', 'C', 'N', 'O', 'P', 'S', 'F', 'I', 'b', 'c', 'n', 'o', 'p', 's', '*', 'A', 'a']);

/**
 * Measures a SMILES or SMARTS in one pass: atom tokens (bracket atoms and organic-subset symbols,
 * inside recursive SMARTS too), branch and `$(` nesting, ring-closure labels and `@` marks.
 * Unbalanced brackets are not an error here: RDKit reports them with their position.
 */
export function measureLineNotation(text: string): QueryMeasure {
  const m: QueryMeasure = {
    length: text.length,
    atoms: 0,
    recursionDepth: 0,
    recursiveSmarts: 0,
    branchDepth: 0,
    ringClosures: 0,
    stereoCentres: 0,
  };
  // Open contexts: '[' a bracket atom, '(' a branch, '$' a recursive SMARTS.
  const stack: string[] = [];
  let branches = 0;
  let recursions = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    const top = stack[stack.length - 1];
    if (top === '[') {
      if (c === ']') stack.pop();
      else if (c === '@') {
        // '@@' is one mark; '@TH1', '@SP2'... are one mark too.
        m.stereoCentres += 1;
        if (text[i + 1] === '@') i++;
      } else if (c === '$' && text[i + 1] === '(') {
        stack.push('$');
        i++;
        recursions++;
        m.recursiveSmarts++;
        m.recursionDepth = Math.max(m.recursionDepth, recursions);
      }
      continue;
    }
    if (c === '[') {
      stack.push('[');
      m.atoms++;
    } else if (c === '(') {
      stack.push('(');
      branches++;
      m.branchDepth = Math.max(m.branchDepth, branches);
    } else if (c === ')') {
      const closed = stack.pop();
      if (closed === '(') branches--;
      else if (closed === '$') recursions--;
    } else if (c >= '0' && c <= '9') {
      m.ringClosures++;
    } else if (c === '%') {
      m.ringClosures++;
      // %nn, or RDKit's %(nnn).
      if (text[i + 1] === '(') {
        const end = text.indexOf(')', i);
        i = end < 0 ? text.length : end;
      } else i += 2;
    } else if (TWO_LETTER.has(text.slice(i, i + 2))) {
      m.atoms++;
      i++;
    } else if (ONE_LETTER.has(c)) {
      m.atoms++;
    }
  }
  return m;
}

/**
 * Atoms a molfile says it has: the V2000 counts line (line 4, columns 1–3) or the V3000
 * `M  V30 COUNTS` line; the number of atom lines when the counts line is unreadable.
 */
export function molfileAtoms(text: string): number {
  const lines = text.split(/\r?\n/, 10_000);
  const v3000 = text.match(/^M {2}V30 COUNTS +(\d+)/m);
  if (v3000) return Number(v3000[1]);
  const countsLine = lines[3] ?? '';
  const declared = Number.parseInt(countsLine.slice(0, 3), 10);
  if (Number.isFinite(declared) && /V2000/.test(countsLine)) return declared;
  // No readable counts line: lines that look like V2000 atom lines.
  return lines.filter((l) => /^\s+-?\d+\.\d+\s+-?\d+\.\d+\s+-?\d+\.\d+\s+[A-Za-z*]/.test(l)).length;
}

/** Measures a query's text; a molfile only by its size and declared atoms. */
function measureQuery(kind: QueryKind, text: string): QueryMeasure {
  if (kind !== 'molfile') return measureLineNotation(text);
  return {
    length: Buffer.byteLength(text, 'utf8'),
    atoms: molfileAtoms(text),
    recursionDepth: 0,
    recursiveSmarts: 0,
    branchDepth: 0,
    ringClosures: 0,
    stereoCentres: 0,
  };
}

/** "a core", "an R-group": the article a limit's message needs before what it names. */
function withArticle(what: string): string {
  return `${/^(?:[aeiou]|R-)/i.test(what) ? 'an' : 'a'} ${what}`;
}

/** The message for a query over a limit, or null when it is within every limit. */
export function limitViolation(
  kind: QueryKind,
  text: string,
  limits: Readonly<QueryLimits> = QUERY_LIMITS,
  what = 'structure query',
): string | null {
  const name = KIND_NAME[kind];
  const maxLength = kind === 'smiles' ? limits.smilesLength : kind === 'smarts' ? limits.smartsLength : limits.molfileBytes;
  // The length first: everything else scans the text.
  const length = kind === 'molfile' ? Buffer.byteLength(text, 'utf8') : text.length;
  if (length > maxLength) {
    const unit = kind === 'molfile' ? 'bytes' : 'characters';
    return `The ${name} has ${count(length)} ${unit}; ${withArticle(what)} may have at most ${count(maxLength)}.`;
  }
  const m = measureQuery(kind, text);
  if (m.atoms > limits.atoms) return atomsMessage(m.atoms, limits.atoms, what);
  if (m.recursionDepth > limits.recursionDepth) {
    return `The SMARTS nests recursive SMARTS $(…) ${count(m.recursionDepth)} deep; ${withArticle(what)} may nest them at most ${count(limits.recursionDepth)} deep.`;
  }
  if (m.recursiveSmarts > limits.recursiveSmarts) {
    return `The SMARTS has ${count(m.recursiveSmarts)} recursive SMARTS $(…); ${withArticle(what)} may have at most ${count(limits.recursiveSmarts)}.`;
  }
  if (m.branchDepth > limits.branchDepth) {
    return `The ${name} nests branches ${count(m.branchDepth)} deep; ${withArticle(what)} may nest them at most ${count(limits.branchDepth)} deep.`;
  }
  if (m.ringClosures > limits.ringClosures) {
    return `The ${name} has ${count(m.ringClosures)} ring-closure labels; ${withArticle(what)} may have at most ${count(limits.ringClosures)}.`;
  }
  if (m.stereoCentres > limits.stereoCentres) {
    return `The ${name} has ${count(m.stereoCentres)} stereo marks (@); ${withArticle(what)} may have at most ${count(limits.stereoCentres)}.`;
  }
  return null;
}

export function atomsMessage(atoms: number, max: number, what = 'structure query'): string {
  return `The query has ${count(atoms)} atoms; ${withArticle(what)} may have at most ${count(max)}.`;
}

/**
 * A virtual compound (a core with its R-groups joined on, RDKit molzip): each piece is within the
 * query limits, yet together they may make a path RDKit cannot take (a 200-atom core between two
 * 240-atom R-groups ran into the watchdog's 10 s). The compound is bounded as a stored structure
 * is: the atoms of every piece, less the attachment points `[*:n]` the join removes.
 */
export function joinedViolation(pieces: readonly string[], limits: Readonly<QueryLimits> = STORED_LIMITS): string | null {
  let atoms = 0;
  for (const piece of pieces) atoms += measureLineNotation(piece).atoms - (piece.match(/\[\*:\d+\]/g)?.length ?? 0);
  if (atoms <= limits.atoms) return null;
  return `The virtual compound (the core with these R-groups joined on) would have ${count(atoms)} atoms; a virtual compound may have at most ${count(limits.atoms)}.`;
}

/** Throws ChemQueryRefused (a ChemInputError: 400) when a query is over a limit. */
export function checkQueryLimits(kind: QueryKind, text: string, limits: Readonly<QueryLimits> = QUERY_LIMITS, what?: string): void {
  const violation = limitViolation(kind, text, limits, what);
  if (violation) throw new ChemQueryRefused(violation);
}

/** Limits with some values replaced (engine options, tests). */
export function withLimits(base: Readonly<QueryLimits>, overrides: Partial<QueryLimits> | undefined): Readonly<QueryLimits> {
  return overrides ? Object.freeze({ ...base, ...overrides }) : base;
}
