import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';

/**
 * Kysely table types of the knowledge base (migration 0002_knowledge_base.sql; docs/data-model.md).
 * Identity ids are `Generated`: loaders may set them (the demo generator does, for determinism) or
 * let the sequence choose (the ChEMBL importer). bigint columns come back as JS numbers (see
 * database.ts type parsers); they stay below 2^53 at any realistic scale.
 */

type Nullable<T> = T | null;
/** Columns with a SQL default or nullable: optional on insert. */
type Opt<T> = ColumnType<T, T | undefined, T>;
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type DateColumn = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

export interface DataSourcesTable {
  data_source_id: Generated<number>;
  name: string;
  short_name: Opt<Nullable<string>>;
  description: Opt<Nullable<string>>;
  url: Opt<Nullable<string>>;
  is_demo: Generated<boolean>;
  chembl_src_id: Opt<Nullable<number>>;
}

export interface CompaniesTable {
  company_id: Generated<number>;
  name: string;
  address: Opt<Nullable<string>>;
  country: Opt<Nullable<string>>;
}

export interface TaxonomyTable {
  taxonomy_id: Generated<number>;
  parent_id: Opt<Nullable<number>>;
  rank: string;
  name: string;
  genus: Opt<Nullable<string>>;
  species: Opt<Nullable<string>>;
  strain: Opt<Nullable<string>>;
  ncbi_tax_id: Opt<Nullable<number>>;
}

export interface TargetClassesTable {
  class_id: Generated<number>;
  parent_id: Opt<Nullable<number>>;
  name: string;
  level: number;
  chembl_class_id: Opt<Nullable<number>>;
}

export interface TargetsTable {
  target_id: Generated<number>;
  name: string;
  target_type: Generated<string>;
  gene_symbol: Opt<Nullable<string>>;
  uniprot_id: Opt<Nullable<string>>;
  entrez_gene_id: Opt<Nullable<number>>;
  pdb_ids: Generated<string[]>;
  organism: Opt<Nullable<string>>;
  tax_id: Opt<Nullable<number>>;
  class_id: Opt<Nullable<number>>;
  data_source_id: Opt<Nullable<number>>;
  chembl_id: Opt<Nullable<string>>;
  chembl_tid: Opt<Nullable<number>>;
}

export interface TargetSynonymsTable {
  target_id: number;
  synonym: string;
  syn_type: Generated<string>;
}

export interface StructuresTable {
  str_id: Generated<number>;
  smiles: string;
  canonical_smiles: string;
  inchi: Opt<Nullable<string>>;
  inchikey: Opt<Nullable<string>>;
  mol_formula: Opt<Nullable<string>>;
  mol_weight: Opt<Nullable<number>>;
  exact_mass: Opt<Nullable<number>>;
  logp_calc: Opt<Nullable<number>>;
  logd_calc: Opt<Nullable<number>>;
  psa: Opt<Nullable<number>>;
  hb_donors: Opt<Nullable<number>>;
  hb_acceptor: Opt<Nullable<number>>;
  rot_bonds: Opt<Nullable<number>>;
  heavy_atoms: Opt<Nullable<number>>;
  pka_value: Opt<Nullable<number>>;
  solubility: Opt<Nullable<number>>;
  pattern_fp: Opt<Nullable<Uint8Array>>;
  morgan_fp: Opt<Nullable<Uint8Array>>;
}

export interface CompoundsTable {
  gvk_id: Generated<number>;
  str_id: Opt<Nullable<number>>;
  name: Opt<Nullable<string>>;
  compound_category: Opt<Nullable<string>>;
  cas_number: Opt<Nullable<string>>;
  ref_id: Opt<Nullable<number>>;
  data_source_id: Opt<Nullable<number>>;
  chembl_id: Opt<Nullable<string>>;
  chembl_molregno: Opt<Nullable<number>>;
}

export interface CompoundSynonymsTable {
  gvk_id: number;
  synonym: string;
  syn_type: Generated<string>;
  chembl_molsyn_id: Opt<Nullable<number>>;
}

export interface DocumentsTable {
  ref_id: Generated<number>;
  ref_type: string;
  title: Opt<Nullable<string>>;
  reference: Opt<Nullable<string>>;
  journal_patent_name: Opt<Nullable<string>>;
  year: Opt<Nullable<number>>;
  volume: Opt<Nullable<string>>;
  issue: Opt<Nullable<string>>;
  start_page: Opt<Nullable<string>>;
  end_page: Opt<Nullable<string>>;
  issn_no: Opt<Nullable<string>>;
  pubmed_id: Opt<Nullable<number>>;
  doi: Opt<Nullable<string>>;
  patent_no: Opt<Nullable<string>>;
  country_code: Opt<Nullable<string>>;
  application_type: Opt<Nullable<string>>;
  abstract: Opt<Nullable<string>>;
  data_source_id: Opt<Nullable<number>>;
  chembl_id: Opt<Nullable<string>>;
  chembl_doc_id: Opt<Nullable<number>>;
}

export interface DocumentAuthorsTable {
  ref_id: number;
  position: number;
  name: string;
}

export interface DocumentCompaniesTable {
  ref_id: number;
  company_id: number;
}

export type EndpointTree = 'activity' | 'pk' | 'toxicity';

export interface EndpointsTable {
  endpoint_id: Generated<number>;
  parent_id: Opt<Nullable<number>>;
  tree: EndpointTree;
  name: string;
}

export interface UnitsTable {
  unit: string;
  kind: string;
  to_micromolar: Opt<Nullable<number>>;
}

export interface ActivityTypesTable {
  name: string;
  description: Opt<Nullable<string>>;
  standard_unit: Opt<Nullable<string>>;
  endpoint_id: Opt<Nullable<number>>;
}

export interface ActionTypesTable {
  name: string;
  description: Opt<Nullable<string>>;
  parent_type: Opt<Nullable<string>>;
}

export interface IndicationsTable {
  indication_id: Generated<number>;
  parent_id: Opt<Nullable<number>>;
  name: string;
  mesh_id: Opt<Nullable<string>>;
  efo_id: Opt<Nullable<string>>;
}

export interface ClinicalPhasesTable {
  phase_id: number;
  name: string;
  sort_order: number;
}

export interface ClinicalStatusesTable {
  status_id: number;
  name: string;
}

export type AssayType = 'binding' | 'functional' | 'adme' | 'toxicity' | 'physicochemical' | 'unassigned';

export interface AssaysTable {
  assay_id: Generated<number>;
  ref_id: Opt<Nullable<number>>;
  target_id: Opt<Nullable<number>>;
  taxonomy_id: Opt<Nullable<number>>;
  data_source_id: Opt<Nullable<number>>;
  description: Opt<Nullable<string>>;
  assay_type: AssayType;
  assay_method_name: Opt<Nullable<string>>;
  enzyme_cell_assay: Opt<Nullable<string>>;
  common_name: Opt<Nullable<string>>;
  cells_cellline_organ: Opt<Nullable<string>>;
  organism: Opt<Nullable<string>>;
  strain: Opt<Nullable<string>>;
  tissue: Opt<Nullable<string>>;
  pk_endpoint_id: Opt<Nullable<number>>;
  tox_endpoint_id: Opt<Nullable<number>>;
  in_presence_of: Opt<Nullable<string>>;
  in_presence_of_conc: Opt<Nullable<number>>;
  in_presence_of_uom: Opt<Nullable<string>>;
  in_presence_of_prefix: Opt<Nullable<string>>;
  radio_ligand: Opt<Nullable<string>>;
  radio_ligand_conc: Opt<Nullable<number>>;
  radio_ligand_uom: Opt<Nullable<string>>;
  radio_ligand_prefix: Opt<Nullable<string>>;
  co_administered: Opt<Nullable<string>>;
  co_administered_conc: Opt<Nullable<number>>;
  co_administered_uom: Opt<Nullable<string>>;
  co_administered_prefix: Opt<Nullable<string>>;
  buffer: Opt<Nullable<string>>;
  buffer_conc: Opt<Nullable<number>>;
  buffer_uom: Opt<Nullable<string>>;
  buffer_prefix: Opt<Nullable<string>>;
  substrate: Opt<Nullable<string>>;
  substrate_conc: Opt<Nullable<number>>;
  substrate_uom: Opt<Nullable<string>>;
  substrate_prefix: Opt<Nullable<string>>;
  incubation_time: Opt<Nullable<number>>;
  incubation_time_uom: Opt<Nullable<string>>;
  incubation_time_prefix: Opt<Nullable<string>>;
  temperature: Opt<Nullable<number>>;
  temperature_uom: Opt<Nullable<string>>;
  temperature_prefix: Opt<Nullable<string>>;
  ph: Opt<Nullable<number>>;
  operation: Opt<Nullable<string>>;
  mutant: Opt<Nullable<string>>;
  wild_type: Opt<Nullable<boolean>>;
  residue_name: Opt<Nullable<string>>;
  residue_position: Opt<Nullable<number>>;
  residue_change: Opt<Nullable<string>>;
  assay_position: Opt<Nullable<string>>;
  target_profile: Opt<Nullable<string>>;
  bao_format: Opt<Nullable<string>>;
  confidence_score: Opt<Nullable<number>>;
  chembl_id: Opt<Nullable<string>>;
  chembl_assay_id: Opt<Nullable<number>>;
}

export interface ActivitiesTable {
  act_id: Generated<number>;
  str_id: number;
  gvk_id: Opt<Nullable<number>>;
  assay_id: Opt<Nullable<number>>;
  ref_id: Opt<Nullable<number>>;
  target_id: Opt<Nullable<number>>;
  data_source_id: Opt<Nullable<number>>;
  ligase_name: Opt<Nullable<string>>;
  degrader: Opt<Nullable<string>>;
  std_activity_type: Opt<Nullable<string>>;
  std_act_prefix: Opt<Nullable<string>>;
  activity_value: Opt<Nullable<number>>;
  standard_uom: Opt<Nullable<string>>;
  micro_molarvalue: Opt<Nullable<number>>;
  pchembl_value: Opt<Nullable<number>>;
  activity_remarks: Opt<Nullable<string>>;
  activity_mechanism: Opt<Nullable<string>>;
  parameter: Opt<Nullable<string>>;
  activity_type: Opt<Nullable<string>>;
  activity_prefix: Opt<Nullable<string>>;
  activity: Opt<Nullable<number>>;
  activity_text: Opt<Nullable<string>>;
  activity_uom: Opt<Nullable<string>>;
  measured: Opt<Nullable<string>>;
  sd: Opt<Nullable<number>>;
  roa: Opt<Nullable<string>>;
  dose: Opt<Nullable<number>>;
  dose_prefix: Opt<Nullable<string>>;
  dose_uom: Opt<Nullable<string>>;
  compound_name_reference: Opt<Nullable<string>>;
  endpoint_id: Opt<Nullable<number>>;
  data_validity_comment: Opt<Nullable<string>>;
  chembl_activity_id: Opt<Nullable<number>>;
}

export interface ClinicalCompoundsTable {
  clinical_compound_id: Generated<number>;
  str_id: Opt<Nullable<number>>;
  gvk_id: Opt<Nullable<number>>;
  drug_name: string;
  highest_phase_id: Opt<Nullable<number>>;
  status_id: Opt<Nullable<number>>;
  approval_year: Opt<Nullable<number>>;
  mode_of_action: Opt<Nullable<string>>;
  drug_dose: Opt<Nullable<string>>;
  remarks: Opt<Nullable<string>>;
  last_significant_update: DateColumn;
  reason_with_drawn: Opt<Nullable<string>>;
  reason_with_drawn_category: Opt<Nullable<string>>;
  data_source_id: Opt<Nullable<number>>;
  chembl_molregno: Opt<Nullable<number>>;
}

export interface ClinicalCompoundTargetsTable {
  clinical_compound_id: number;
  target_id: number;
  action_type: Opt<Nullable<string>>;
  mechanism: Opt<Nullable<string>>;
}

export interface ClinicalCompoundIndicationsTable {
  clinical_compound_id: number;
  indication_id: number;
  phase_id: Opt<Nullable<number>>;
  chembl_drugind_id: Opt<Nullable<number>>;
}

export interface ClinicalCompoundCompaniesTable {
  clinical_compound_id: number;
  company_id: number;
}

export interface KbLoadCheckpointsTable {
  job: string;
  part: string;
  last_key: Opt<Nullable<number>>;
  done: Generated<boolean>;
  updated_at: Timestamp;
}

/** Every knowledge-base table; `Database` in schema.ts extends this. */
export interface KnowledgeBaseTables {
  data_sources: DataSourcesTable;
  companies: CompaniesTable;
  taxonomy: TaxonomyTable;
  target_classes: TargetClassesTable;
  targets: TargetsTable;
  target_synonyms: TargetSynonymsTable;
  structures: StructuresTable;
  compounds: CompoundsTable;
  compound_synonyms: CompoundSynonymsTable;
  documents: DocumentsTable;
  document_authors: DocumentAuthorsTable;
  document_companies: DocumentCompaniesTable;
  endpoints: EndpointsTable;
  units: UnitsTable;
  activity_types: ActivityTypesTable;
  action_types: ActionTypesTable;
  indications: IndicationsTable;
  clinical_phases: ClinicalPhasesTable;
  clinical_statuses: ClinicalStatusesTable;
  assays: AssaysTable;
  activities: ActivitiesTable;
  clinical_compounds: ClinicalCompoundsTable;
  clinical_compound_targets: ClinicalCompoundTargetsTable;
  clinical_compound_indications: ClinicalCompoundIndicationsTable;
  clinical_compound_companies: ClinicalCompoundCompaniesTable;
  kb_load_checkpoints: KbLoadCheckpointsTable;
}

export type Structure = Selectable<StructuresTable>;
export type NewStructure = Insertable<StructuresTable>;
export type NewActivity = Insertable<ActivitiesTable>;
export type NewAssay = Insertable<AssaysTable>;
export type NewDocument = Insertable<DocumentsTable>;
