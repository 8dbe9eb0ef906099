/** Spec §2 "Search builder": the three groupings and their options, in the spec's order. */
export interface SearchOption {
  key: string;
  label: string;
  hint: string;
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
      { key: 'target', label: 'Target', hint: 'Target classification tree' },
      { key: 'indication', label: 'Indication', hint: 'Indication tree' },
      { key: 'pharmacokinetics', label: 'Pharmacokinetics', hint: 'ADME tree' },
      { key: 'toxicity', label: 'Toxicity', hint: 'Toxicity tree' },
      { key: 'taxonomy', label: 'Taxonomy', hint: 'Taxonomy / source ontology tree' },
      { key: 'pathways', label: 'Pathways', hint: 'Pathway tree' },
      { key: 'clinicalphase', label: 'Clinical Phase', hint: 'Clinical phase tree' },
      { key: 'assaymethodname', label: 'Assay Method Name', hint: 'Assay method tree' },
      { key: 'bibliography', label: 'Bibliography', hint: 'Bibliography tree' },
      { key: 'endpoint', label: 'Endpoint', hint: 'Activity endpoint tree' },
    ],
  },
];

/** Finds an option by its group and key (as used in `/search?group=…&option=…`). */
export function findSearchOption(group: string | null, option: string | null): { group: SearchGroup; option: SearchOption } | null {
  const found = SEARCH_GROUPS.find((candidate) => candidate.key === group);
  const match = found?.options.find((candidate) => candidate.key === option);
  return found && match ? { group: found, option: match } : null;
}
