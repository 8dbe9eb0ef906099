// Depictions (SVG, with highlights) and molblocks for SDF export.
import { LOG, RD, captured } from './runtime.mjs';
import { isPlainSmarts, moleculeOfSmarts } from './scaffolds.mjs';

/**
 * Atoms and bonds to colour. mode 'match': those of every match of the highlight query; 'rest':
 * the complement (atoms in no match; bonds in no match, which includes every bond with an atom
 * outside) — the part of the molecule that differs from the query, e.g. from a pair's MCS.
 */
function highlightOf(mol, highlight) {
  if (!highlight) return null;
  const q = highlight.kind === 'smarts' ? RD.get_qmol(highlight.text) : RD.get_mol(highlight.text);
  if (!q) return null;
  try {
    const matches = JSON.parse(mol.get_substruct_matches(q));
    const atoms = new Set();
    const bonds = new Set();
    for (const match of Array.isArray(matches) ? matches : [matches]) {
      for (const a of match.atoms ?? []) atoms.add(a);
      for (const b of match.bonds ?? []) bonds.add(b);
    }
    // No match: nothing is coloured in either mode (colouring all of it would claim it all differs).
    if (!atoms.size) return null;
    if (highlight.mode !== 'rest') return { atoms: [...atoms], bonds: [...bonds] };
    const rest = { atoms: [], bonds: [] };
    for (let i = 0; i < mol.get_num_atoms(); i += 1) if (!atoms.has(i)) rest.atoms.push(i);
    for (let i = 0; i < mol.get_num_bonds(); i += 1) if (!bonds.has(i)) rest.bonds.push(i);
    return rest.atoms.length || rest.bonds.length ? rest : null;
  } finally {
    q.delete();
  }
}

/**
 * Lays the molecule out like the template (a core or the search's query): the matched atoms take
 * the template's 2D positions, the rest is placed around them (RDKit's generate_aligned_coords).
 * A template that does not read or match leaves RDKit's own layout.
 */
function alignTo(mol, align) {
  if (!align) return;
  const template = align.kind === 'smarts' ? RD.get_qmol(align.text) : RD.get_mol(align.text);
  if (!template) return;
  try {
    // Laying out against a template it does not contain would still move the drawing: leave it.
    if (mol.get_substruct_match(template) === '{}') return;
    template.set_new_coords();
    mol.generate_aligned_coords(template, JSON.stringify({ acceptFailure: true, allowRGroups: true }));
  } catch {
    // A template RDKit cannot lay out: the molecule keeps its own layout.
  } finally {
    template.delete();
  }
}

/** The highlight orange of drawings large enough to carry it (leaflets, previews, hovers). */
const HIGHLIGHT = [1, 0.55, 0.1];
/**
 * A drawing a row of a grid holds (under 80 px high) is read for its atoms: a light highlight, thin
 * and close to the bonds, colours the match without hiding them, and atom labels keep a readable
 * size (RDKit shrinks them with the drawing, to 6 px by default).
 */
const SMALL_DRAWING_HEIGHT = 80;
const SMALL = {
  highlightColour: [1, 0.82, 0.6],
  highlightRadius: 0.25,
  highlightBondWidthMultiplier: 5,
};
const SMALL_TEXT = { minFontSize: 9, bondLineWidth: 1, padding: 0.03 };

export function depict(message) {
  LOG.clear_buffer();
  // An MCS (elements and bond orders only) is drawn as the molecule it describes, not as a query of grey atoms.
  const plain = message.kind === 'smarts' && isPlainSmarts(message.text) ? moleculeOfSmarts(message.text) : null;
  const mol = plain ? RD.get_mol(plain) : message.kind === 'smarts' ? RD.get_qmol(message.text) : RD.get_mol(message.text);
  if (!mol || !mol.is_valid()) {
    mol?.delete();
    return { ok: false, error: captured() || 'RDKit could not read it' };
  }
  if (message.maxAtoms > 0 && mol.get_num_atoms() > message.maxAtoms) {
    const atoms = mol.get_num_atoms();
    mol.delete();
    return { ok: false, error: 'too many atoms', tooManyAtoms: atoms };
  }
  try {
    alignTo(mol, message.align);
    const small = message.height < SMALL_DRAWING_HEIGHT;
    const details = { width: message.width, height: message.height, clearBackground: false, addStereoAnnotation: !small };
    if (small) Object.assign(details, SMALL_TEXT);
    const marks = highlightOf(mol, message.highlight);
    if (marks) Object.assign(details, marks, small ? SMALL : { highlightColour: HIGHLIGHT });
    return { ok: true, svg: mol.get_svg_with_highlights(JSON.stringify(details)) };
  } finally {
    mol.delete();
  }
}

/** V2000 molblocks; MinimalLib lays out 2D coordinates when the molecule has none. */
export function molblocks(message) {
  LOG.clear_buffer();
  const blocks = message.smiles.map((smiles) => {
    const mol = smiles ? RD.get_mol(smiles) : null;
    if (!mol) return null;
    try {
      return mol.is_valid() ? mol.get_molblock() : null;
    } finally {
      mol.delete();
    }
  });
  return { ok: true, blocks };
}
