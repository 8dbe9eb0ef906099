import { describe, expect, it } from 'vitest';
import { ChemInputError } from './chem-engine.ts';
import {
  QUERY_LIMITS,
  STORED_LIMITS,
  checkQueryLimits,
  limitViolation,
  measureLineNotation,
  molfileAtoms,
  withLimits,
} from './query-limits.ts';

const v2000 = (atoms: number, lines = atoms) =>
  `\n  test\n\n${String(atoms).padStart(3)}  0  0  0  0  0  0  0  0  0999 V2000\n${'    0.0000    0.0000    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0\n'.repeat(lines)}M  END\n`;

describe('measureLineNotation', () => {
  it('counts organic-subset, aromatic, two-letter and bracket atoms, not bonds, digits or charges', () => {
    expect(measureLineNotation('CC(=O)Oc1ccccc1C(=O)O').atoms).toBe(13);
    expect(measureLineNotation('ClC(Br)(F)I').atoms).toBe(5);
    expect(measureLineNotation('[13CH3][NH3+].[Na+]').atoms).toBe(3);
    expect(measureLineNotation('C%12CC%12').atoms).toBe(3);
  });

  it('measures branch depth, ring-closure labels and stereo marks', () => {
    expect(measureLineNotation('C(C(C(C)C)C)C').branchDepth).toBe(3);
    const rings = measureLineNotation('C1CC2CC1CC2C%10CC%10C%(123)CC%(123)');
    expect(rings.ringClosures).toBe(8);
    expect(rings.atoms).toBe(13);
    const stereo = measureLineNotation('C[C@H](O)[C@@H](N)[C@TH1H](F)Cl');
    expect(stereo.stereoCentres).toBe(3);
  });

  it('measures recursive SMARTS: nesting depth, how many, and the atoms inside them', () => {
    const nested = measureLineNotation('[$([$([$(CO)])])]');
    expect(nested).toMatchObject({ recursionDepth: 3, recursiveSmarts: 3, atoms: 5 });
    const wide = measureLineNotation('[$(C=O),$(C#N);!$(C(F)(F)F)]-c1ccccc1');
    expect(wide).toMatchObject({ recursionDepth: 1, recursiveSmarts: 3, branchDepth: 1 });
    // Branches inside a recursive SMARTS count toward the branch depth too.
    expect(measureLineNotation('[$(C(C(C)))]').branchDepth).toBe(2);
  });

  it('does not throw on unbalanced or odd text (RDKit reports those with their position)', () => {
    for (const text of [')))((', '[[[', ']]]C', '$(', '%', '%(', '\u202eCC\u200b😀\ud800'])
      expect(() => measureLineNotation(text)).not.toThrow();
  });
});

describe('molfileAtoms', () => {
  it('reads the V2000 counts line, the V3000 COUNTS line, else counts atom lines', () => {
    expect(molfileAtoms(v2000(3))).toBe(3);
    expect(molfileAtoms(v2000(999, 2))).toBe(999);
    expect(molfileAtoms('\n\n\n  0  0  0     0  0            999 V3000\nM  V30 BEGIN CTAB\nM  V30 COUNTS 1200 0 0 0 0\nM  END\n')).toBe(
      1200,
    );
    expect(molfileAtoms(`\n\n\nno counts line\n${'    0.0000    0.0000    0.0000 C   0  0\n'.repeat(7)}M  END`)).toBe(7);
  });
});

describe('limitViolation', () => {
  it('passes realistic queries: drugs, a cyclic peptide, recursive SMARTS', () => {
    const queries: ['smiles' | 'smarts' | 'molfile', string][] = [
      ['smiles', 'CC(=O)Oc1ccccc1C(=O)O'],
      ['smiles', 'CC[C@H](C)[C@H]1NC(=O)[C@H](Cc2ccccc2)NC(=O)[C@H](CCC(N)=O)NC(=O)[C@@H](CC(C)C)NC1=O'],
      ['smarts', '[$([NX3;H2,H1;!$(NC=O)])]'],
      ['smarts', '[$([CX3](=O)[OX2H1]),$([CX3](=O)[OX1-])]'],
      ['molfile', v2000(40)],
    ];
    for (const [kind, text] of queries) expect(limitViolation(kind, text)).toBeNull();
  });

  it('names the limit and its value for each kind of excess', () => {
    expect(limitViolation('smiles', 'C'.repeat(1000))).toBe('The query has 1,000 atoms; a structure query may have at most 250.');
    expect(limitViolation('smiles', 'C'.repeat(3000))).toBe('The SMILES has 3,000 characters; a structure query may have at most 2,000.');
    expect(limitViolation('smarts', `${'[$('.repeat(5)}C${')]'.repeat(5)}`)).toBe(
      'The SMARTS nests recursive SMARTS $(…) 5 deep; a structure query may nest them at most 4 deep.',
    );
    expect(limitViolation('smarts', `[${Array.from({ length: 40 }, () => '$(CO)').join(',')}]`)).toMatch(
      /has 40 recursive SMARTS \$\(…\); a structure query may have at most 32/,
    );
    expect(limitViolation('smiles', `${'C('.repeat(40)}C${')'.repeat(40)}`)).toMatch(/nests branches 40 deep; .* at most 32 deep/);
    expect(limitViolation('smiles', Array.from({ length: 60 }, () => 'C1CC1').join(''))).toMatch(
      /has 120 ring-closure labels; .* at most 100/,
    );
    expect(limitViolation('smiles', `C${'[C@H](F)'.repeat(70)}`)).toMatch(/has 70 stereo marks \(@\); .* at most 64/);
    expect(limitViolation('molfile', v2000(999, 1))).toBe('The query has 999 atoms; a structure query may have at most 250.');
    expect(limitViolation('molfile', `${v2000(3)}${' '.repeat(200_000)}`)).toMatch(
      /^The molfile has 200,\d{3} bytes; a structure query may have at most 131,072\.$/,
    );
  });

  it('measures a molfile in UTF-8 bytes, not characters', () => {
    const limits = withLimits(QUERY_LIMITS, { molfileBytes: 100 });
    expect(limitViolation('molfile', 'é'.repeat(60), limits)).toMatch(/has 120 bytes/);
  });

  it('has looser but bounded limits for stored structures', () => {
    const big = 'C'.repeat(300);
    expect(limitViolation('smiles', big)).not.toBeNull();
    expect(limitViolation('smiles', big, STORED_LIMITS, 'drawn structure')).toBeNull();
    expect(limitViolation('smiles', 'C'.repeat(500), STORED_LIMITS, 'drawn structure')).toBe(
      'The query has 500 atoms; a drawn structure may have at most 400.',
    );
  });

  it('stays below where RDKit traps: C x 580 parses, C x 600 overflows its stack (README "Query limits")', () => {
    expect(STORED_LIMITS.atoms).toBeLessThan(580);
    expect(QUERY_LIMITS.atoms * 2).toBeLessThan(580);
    // Depth 80 parses; depth 100 hangs RDKit.
    expect(QUERY_LIMITS.recursionDepth).toBeLessThan(80);
  });
});

describe('checkQueryLimits', () => {
  it('throws a ChemInputError (answered 400) with the message', () => {
    expect(() => checkQueryLimits('smiles', 'C'.repeat(251))).toThrow(ChemInputError);
    expect(() => checkQueryLimits('smiles', 'C'.repeat(251))).toThrow('The query has 251 atoms; a structure query may have at most 250.');
    expect(() => checkQueryLimits('smiles', 'C'.repeat(250))).not.toThrow();
  });
});
