import { treeViewForSource } from '@kb/contracts/search';
import type { SelectedOption, TreeView } from '@kb/contracts/search';

/** Spec §2 "Search builder": the three groupings and their options, in the spec's order. */
export interface SearchOption {
  key: string;
  label: string;
  hint: string;
  /** Tree views: the tree's source name (spec §4: Taxonomy is sent as SourceOntologyTreeView). */
  treeSource?: string;
}

export interface SearchGroup {
  key: 'input' | 'selection' | 'treeview';
  label: string;
  options: readonly SearchOption[];
}

export const SEARCH_GROUPS: readonly SearchGroup[] = [
  {
    key: 'input',
    label: 'Input',
    options: [
      { key: 'structure', label: 'Structure', hint: 'Name, SMILES, SMARTS, InChIKey, drawn structure or structural properties' },
      { key: 'target', label: 'Target/Enzyme/Protein', hint: 'Name, UniProt ID, Gene ID, PDB id, official gene name or Entrez gene id' },
      { key: 'bibliography', label: 'Bibliography', hint: 'Patent, PubMed ID, DOI, journal, author, year range or company' },
      { key: 'company', label: 'Company', hint: 'Companies named in references and development records' },
      { key: 'collection', label: 'In collection', hint: 'The compounds of one of your collections, or of one shared with you' },
    ],
  },
  {
    key: 'selection',
    label: 'Selection',
    options: [
      { key: 'degrader', label: 'Degrader Type', hint: 'Monovalent or bivalent degraders' },
      { key: 'clinicalphase', label: 'Clinical Phase or Status', hint: 'Highest clinical phase or development status' },
      { key: 'source', label: 'Source', hint: 'Organism source, genus, species and strain' },
      { key: 'indication', label: 'Indication', hint: 'Therapeutic indications' },
      { key: 'activitytypes', label: 'Activity Types', hint: 'Activity type, unit, prefix and value range' },
      { key: 'assay', label: 'Assay', hint: 'Assay types and method names' },
      { key: 'activitymechanism', label: 'Activity Mechanism', hint: 'Mechanism of action of the activity' },
      { key: 'compoundcategories', label: 'Compound Categories', hint: 'Molecule categories' },
    ],
  },
  {
    key: 'treeview',
    label: 'Tree View',
    options: [
      { key: 'target', label: 'Target', hint: 'Target classification tree', treeSource: 'Target' },
      { key: 'indication', label: 'Indication', hint: 'Indication tree', treeSource: 'Indication' },
      { key: 'pharmacokinetics', label: 'Pharmacokinetics', hint: 'ADME tree', treeSource: 'Pharmacokinetics' },
      { key: 'toxicity', label: 'Toxicity', hint: 'Toxicity tree', treeSource: 'Toxicity' },
      { key: 'taxonomy', label: 'Taxonomy', hint: 'Taxonomy / source ontology tree', treeSource: 'Taxonomy' },
      { key: 'pathways', label: 'Pathways', hint: 'Pathway tree', treeSource: 'Pathways' },
      { key: 'clinicalphase', label: 'Clinical Phase', hint: 'Clinical phase tree', treeSource: 'ClinicalPhase' },
      { key: 'assaymethodname', label: 'Assay Method Name', hint: 'Assay method tree', treeSource: 'AssayMethodName' },
      { key: 'bibliography', label: 'Bibliography', hint: 'Bibliography tree', treeSource: 'Bibliography' },
      { key: 'endpoint', label: 'Endpoint', hint: 'Activity endpoint tree', treeSource: 'Endpoint' },
    ],
  },
];

/** Finds an option by its group and key (as used in `/search?group=…&option=…`). */
export function findSearchOption(group: string | null, option: string | null): { group: SearchGroup; option: SearchOption } | null {
  const found = SEARCH_GROUPS.find((candidate) => candidate.key === group);
  const match = found?.options.find((candidate) => candidate.key === option);
  return found && match ? { group: found, option: match } : null;
}

/** The row an option of the builder adds: an option of its own, or a tree-view row of one tree. */
export function rowKindOf(
  group: SearchGroup,
  option: SearchOption,
): { selectedOption: Exclude<SelectedOption, 'treeview'> } | { selectedOption: 'treeview'; tree: TreeView } | null {
  if (group.key === 'treeview') {
    const tree = option.treeSource ? treeViewForSource(option.treeSource) : null;
    return tree ? { selectedOption: 'treeview', tree } : null;
  }
  return ROW_OPTIONS.includes(option.key as Exclude<SelectedOption, 'treeview'>)
    ? { selectedOption: option.key as Exclude<SelectedOption, 'treeview'> }
    : null;
}

const ROW_OPTIONS: readonly Exclude<SelectedOption, 'treeview'>[] = [
  'structure',
  'target',
  'bibliography',
  'company',
  'degrader',
  'clinicalphase',
  'source',
  'indication',
  'activitytypes',
  'assay',
  'activitymechanism',
  'compoundcategories',
  'collection',
];
