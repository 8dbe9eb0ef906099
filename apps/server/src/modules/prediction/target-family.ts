import type { TargetFamily } from '@kb/contracts/prediction';

/**
 * A target's family, which sets its potency threshold for "active" (ACTIVE_THRESHOLD_NM; the
 * ChEMBL multitask model's training rules). Read from the target's classification path (ChEMBL's
 * protein classification, e.g. Enzyme › Kinase › Protein Kinase); a knowledge base without one
 * (the ChEMBL subset has no protein_classification rows) falls back to the target's name, which
 * only recognises the plain cases and otherwise answers `other` (the 1 µM threshold).
 */
export function targetFamily(classPath: readonly string[], name: string): TargetFamily {
  const fromPath = familyFromPath(classPath);
  return fromPath ?? familyFromName(name);
}

function familyFromPath(classPath: readonly string[]): TargetFamily | null {
  if (classPath.length === 0) return null;
  const names = classPath.map((part) => part.toLowerCase());
  if (names.some((part) => part === 'kinase' || part.endsWith(' kinase'))) return 'kinase';
  if (names.some((part) => part.includes('g protein-coupled receptor') || part === 'gpcr' || part.includes('7tm'))) return 'gpcr';
  if (names.some((part) => part.includes('nuclear receptor'))) return 'nuclear receptor';
  if (names.some((part) => part.includes('ion channel'))) return 'ion channel';
  return 'other';
}

const NAME_RULES: ReadonlyArray<readonly [RegExp, TargetFamily]> = [
  // "Kinase" but not a kinase's regulator or an inhibitor protein.
  [/\bkinase\b(?!.*\b(inhibitor|regulator|activator|anchor)\b)/i, 'kinase'],
  // Receptor tyrosine kinases and fusions named without the word (MET, EGFR, TIE-2, KIT, CSF1R, Bcr/Abl).
  [
    /\b(epidermal|hepatocyte|vascular endothelial|platelet-derived|fibroblast|insulin-like|mast\/stem cell) growth factor receptor\b|\bangiopoietin-1 receptor\b|\bbcr\/abl\b|\bephrin type-[ab] receptor\b|\binsulin receptor\b|\bmacrophage colony-stimulating factor 1 receptor\b/i,
    'kinase',
  ],
  [
    /\b(g[- ]protein[- ]coupled receptor|adrenergic receptor|dopamine d\d|5-hydroxytryptamine receptor|serotonin receptor|muscarinic acetylcholine receptor|histamine h\d|opioid receptor|cannabinoid receptor|adenosine receptor a|chemokine receptor|c-c chemokine|melanocortin receptor|neuropeptide y receptor|orexin receptor|angiotensin ii receptor|endothelin receptor|metabotropic glutamate)\b/i,
    'gpcr',
  ],
  [
    /\b(nuclear receptor|estrogen receptor|androgen receptor|glucocorticoid receptor|mineralocorticoid receptor|progesterone receptor|peroxisome proliferator-activated receptor|retinoic acid receptor|retinoid x receptor|thyroid hormone receptor|vitamin d3? receptor|farnesoid x receptor|liver x receptor|pregnane x receptor)\b/i,
    'nuclear receptor',
  ],
  [
    /\b(ion channel|channel|gaba-a receptor|glycine receptor|nicotinic acetylcholine receptor|glutamate receptor ionotropic|p2x purinoceptor|transient receptor potential)\b/i,
    'ion channel',
  ],
];

function familyFromName(name: string): TargetFamily {
  for (const [pattern, family] of NAME_RULES) if (pattern.test(name)) return family;
  return 'other';
}
