/*
 * The pathological structure corpus (docs/security.md "Chemistry engine"): generated, named inputs
 * of every family of the issue. Shared by abuse.api.test.ts (preview, depiction, search count) and
 * abuse-entry-points.api.test.ts (every other call that takes a structure or a core).
 */
export type Kind = 'smiles' | 'smarts' | 'molfile';
export interface Abuse {
  name: string;
  kind: Kind;
  text: string;
  /** Bigger than the 1 MiB request body: 413 is the answer there. */
  oversize?: boolean;
}

const ATOM_LINE = (i: number) => `${(i * 1.5).toFixed(4).padStart(10)}    0.0000    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0\n`;
const BOND_LINE = (a: number, b: number) => `${String(a).padStart(3)}${String(b).padStart(3)}  1  0\n`;
function v2000(atoms: number, declared = atoms, bonds = true): string {
  const lines = Array.from({ length: atoms }, (_, i) => ATOM_LINE(i)).join('');
  const bondLines = bonds ? Array.from({ length: Math.max(0, atoms - 1) }, (_, i) => BOND_LINE(i + 1, i + 2)).join('') : '';
  const nb = bonds ? Math.max(0, atoms - 1) : 0;
  return `\n  abuse\n\n${String(declared).padStart(3)}${String(nb).padStart(3)}  0  0  0  0  0  0  0  0999 V2000\n${lines}${bondLines}M  END\n`;
}
export const recursive = (depth: number) => `${'[$('.repeat(depth)}C${')]'.repeat(depth)}`;

/** The corpus: generated, named, every family of the issue. */
export function corpus(): Abuse[] {
  const list: Abuse[] = [];
  const add = (name: string, kind: Kind, text: string, extra: Partial<Abuse> = {}) => list.push({ name, kind, text, ...extra });
  for (const d of [1, 2, 3, 4, 5, 6, 8, 10, 20, 50, 80, 100, 150, 200, 300])
    add(`recursive SMARTS nested ${d} deep`, 'smarts', recursive(d));
  for (const n of [8, 32, 33, 64, 200])
    add(`${n} recursive SMARTS side by side`, 'smarts', `[${Array.from({ length: n }, (_, i) => `$(C${'C'.repeat(i % 4)}O)`).join(',')}]`);
  for (const n of [300, 400, 500, 550, 600, 650, 700, 800, 1000, 1500, 2000, 3000, 5000]) add(`chain C x ${n}`, 'smiles', 'C'.repeat(n));
  for (const n of [100, 250, 251, 400, 600, 1000]) add(`ring of ${n} atoms`, 'smiles', `C1${'C'.repeat(n - 2)}C1`);
  for (const n of [20, 50, 100]) add(`polyphenylene macrocycle of ${n} rings`, 'smiles', `c1ccc(cc1)${'c2ccc(cc2)'.repeat(n - 2)}C1`);
  for (const n of [8, 20, 30, 60]) add(`cyclic peptide of ${n} residues`, 'smiles', `N1${'[C@@H](Cc2ccccc2)C(=O)N'.repeat(n)}CC1=O`);
  for (const n of [16, 64, 65, 100, 200]) add(`${n} stereo centres`, 'smiles', `C${'[C@H](O)'.repeat(n)}C`);
  for (const n of [8, 32, 33, 64, 128, 500]) add(`branches nested ${n} deep`, 'smiles', `${'C('.repeat(n)}C${')'.repeat(n)}`);
  for (const n of [10, 50, 89])
    add(`${n} ring closures on one atom`, 'smiles', `C${Array.from({ length: n }, (_, i) => `%${10 + i}`).join('')}`);
  for (const n of [50, 100, 200])
    add(`%nn ring-closure spam x ${n}`, 'smiles', Array.from({ length: n }, (_, i) => `C%${10 + (i % 89)}CC%${10 + (i % 89)}`).join(''));
  add('%(nnn) ring closures', 'smiles', Array.from({ length: 60 }, (_, i) => `C%(${100 + i})CC%(${100 + i})`).join(''));
  add('unclosed %nn ring closures', 'smiles', Array.from({ length: 80 }, (_, i) => `C%${10 + i}`).join('C'));
  for (const n of [16, 32, 64, 250, 300])
    add(`generic SMARTS path of ${n} atoms`, 'smarts', Array.from({ length: n }, () => '*').join('~'));
  add('any-atom SMARTS', 'smarts', '*');
  add('SMARTS with 300 ring-bond primitives', 'smarts', Array.from({ length: 300 }, () => 'C').join('@'));
  add('unterminated recursive SMARTS x 100', 'smarts', '[$('.repeat(100));
  add('unbalanced brackets x 500', 'smarts', '['.repeat(500));
  add('unbalanced parentheses x 500', 'smiles', `C${'('.repeat(500)}`);
  add('closing parentheses x 500', 'smiles', `C${')'.repeat(500)}`);
  add('1,000 fragments', 'smiles', Array.from({ length: 1000 }, () => 'C').join('.'));
  add('200 salts', 'smiles', `c1ccccc1${'.[Na+]'.repeat(200)}`);
  add('cumulene of 300 atoms', 'smiles', Array.from({ length: 300 }, () => 'C').join('='));
  add('polyyne of 200 atoms', 'smiles', Array.from({ length: 200 }, () => 'C').join('#'));
  add('aromatic chain that cannot be kekulized', 'smiles', 'c'.repeat(600));
  add('400 explicit hydrogens', 'smiles', '[H]'.repeat(400));
  add('huge isotope and charge', 'smiles', '[999999C+99999]');
  add('bracket atom of 3,000 characters', 'smiles', `[${'C'.repeat(3000)}]`);
  add('unknown element', 'smiles', '[Xx]CC');
  add('SMILES of 100,000 characters', 'smiles', 'C'.repeat(100_000));
  add('SMILES over the body schema (100,001 characters)', 'smiles', 'C'.repeat(100_001));
  add(
    'fullerene-like cage',
    'smiles',
    'c12c3c4c5c1c6c7c8c2c9c%10c3c%11c%12c4c%13c%14c5c%15c6c%16c7c%17c%18c8c9c%19c%20c%10c%11c%21c%22c%12c%13c%23c%24c%14c%15c%25c%16c%26c%17c%27c%18c%19c%28c%20c%21c%29c%22c%23c%30c%24c%25c%26c%31c%27c%28c%29c%30c%31',
  );
  // Molfiles.
  add('V2000 counts line claiming 999 atoms', 'molfile', v2000(3, 999));
  add('V2000 counts line claiming 0 atoms with atom lines', 'molfile', v2000(5, 0));
  add('V2000 chain of 300 atoms', 'molfile', v2000(300));
  add('V2000 chain of 240 atoms', 'molfile', v2000(240));
  add('V2000 with bond to atom 999', 'molfile', v2000(3).replace('M  END', `${BOND_LINE(1, 999)}M  END`));
  const full = v2000(20);
  for (const cut of [0.3, 0.5, 0.8])
    add(`truncated V2000 (${cut * 100} %)`, 'molfile', `${full.slice(0, Math.floor(full.length * cut))}\nM  END\n`);
  add('V2000 without counts line', 'molfile', '\n\n\nM  END\n');
  add('V2000 with non-numeric coordinates', 'molfile', v2000(4).replace(/0\.0000/g, 'NaN!!!'));
  add(
    'V3000 garbage',
    'molfile',
    '\n  abuse\n\n  0  0  0     0  0            999 V3000\nM  V30 BEGIN CTAB\nM  V30 COUNTS 5 0 0 0 0\nM  V30 garbage garbage\nM  V30 END CTAB\nM  END\n',
  );
  add(
    'V3000 COUNTS of 5,000 atoms',
    'molfile',
    '\n  abuse\n\n  0  0  0     0  0            999 V3000\nM  V30 BEGIN CTAB\nM  V30 COUNTS 5000 0 0 0 0\nM  V30 BEGIN ATOM\nM  V30 1 C 0 0 0 0\nM  V30 END ATOM\nM  V30 END CTAB\nM  END\n',
  );
  add(
    'V3000 without END CTAB',
    'molfile',
    '\n\n\n  0  0  0     0  0            999 V3000\nM  V30 BEGIN CTAB\nM  V30 COUNTS 2 1 0 0 0\nM  V30 BEGIN ATOM\nM  V30 1 C 0 0 0 0\nM  END\n',
  );
  add(
    'molfile of 2 MB',
    'molfile',
    `${v2000(3).replace('M  END', '')}${'M  ZZZ padding padding padding padding\n'.repeat(52_000)}M  END\n`,
    { oversize: true },
  );
  add(
    'molfile of 200 KB',
    'molfile',
    `${v2000(3).replace('M  END', '')}${'M  ZZZ padding padding padding padding\n'.repeat(5_200)}M  END\n`,
  );
  add('molfile with 10,000 blank lines', 'molfile', `${'\n'.repeat(10_000)}M  END\n`);
  // Odd Unicode (NUL is refused by the contract's text checks elsewhere).
  const unicode: [string, string][] = [
    ['RTL mark', '\u200fCCO'],
    ['RTL override', '\u202eCCO'],
    ['zero-width space', 'C\u200bC'],
    ['zero-width joiner', 'c1ccccc1\u200dN'],
    ['byte-order mark', '\ufeffCCO'],
    ['emoji', '😀'],
    ['emoji between atoms', 'C😀C'],
    ['combining acute accent', 'C\u0301C'],
    ['combining marks x 500', `C${'\u0301'.repeat(500)}`],
    ['lone high surrogate', 'C\ud800C'],
    ['lone low surrogate', '\udc00CC'],
    ['fullwidth letters', 'ＣＣＯ'],
    ['Arabic-Indic ring digits', 'C١CCCCC١'],
    ['Greek capital', 'ΑΒΓ'],
    ['non-breaking spaces', 'C\u00a0C\u00a0O'],
  ];
  for (const [name, text] of unicode) {
    add(`${name} (SMILES)`, 'smiles', text);
    add(`${name} (SMARTS)`, 'smarts', text);
  }
  add('RTL override in a molfile', 'molfile', v2000(3).replace('abuse', '\u202eabuse'));
  return list;
}

/** Percent-encodes UTF-8 as a browser would (a lone surrogate becomes U+FFFD). */
export const encode = (text: string) => Array.from(Buffer.from(text, 'utf8'), (b) => `%${b.toString(16).padStart(2, '0')}`).join('');
