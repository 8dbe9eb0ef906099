import type { ColumnType, Generated } from 'kysely';

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
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type DateColumn = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

interface DataSourcesTable {
  data_source_id: Generated<number>;
  name: string;
  short_name: Opt<Nullable<string>>;
  description: Opt<Nullable<string>>;
  url: Opt<Nullable<string>>;
  is_demo: Generated<boolean>;
  chembl_src_id: Opt<Nullable<number>>;
}

interface CompaniesTable {
  company_id: Generated<number>;
  name: string;
  address: Opt<Nullable<string>>;
  country: Opt<Nullable<string>>;
}

interface TaxonomyTable {
  taxonomy_id: Generated<number>;
  parent_id: Opt<Nullable<number>>;
  rank: string;
  name: string;
  genus: Opt<Nullable<string>>;
  species: Opt<Nullable<string>>;
  strain: Opt<Nullable<string>>;
  ncbi_tax_id: Opt<Nullable<number>>;
}

interface TargetClassesTable {
  class_id: Generated<number>;
  parent_id: Opt<Nullable<number>>;
  name: string;
  level: number;
  chembl_class_id: Opt<Nullable<number>>;
}

interface TargetsTable {
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

interface TargetSynonymsTable {
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
  /** The kb_loads row that first brought it in (migration 0022). */
  load_id: Opt<Nullable<number>>;
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

interface CompoundSynonymsTable {
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

interface DocumentAuthorsTable {
  ref_id: number;
  position: number;
  name: string;
}

interface DocumentCompaniesTable {
  ref_id: number;
  company_id: number;
}

type EndpointTree = 'activity' | 'pk' | 'toxicity';

interface EndpointsTable {
  endpoint_id: Generated<number>;
  parent_id: Opt<Nullable<number>>;
  tree: EndpointTree;
  name: string;
}

interface UnitsTable {
  unit: string;
  kind: string;
  to_micromolar: Opt<Nullable<number>>;
}

interface ActivityTypesTable {
  name: string;
  description: Opt<Nullable<string>>;
  standard_unit: Opt<Nullable<string>>;
  endpoint_id: Opt<Nullable<number>>;
}

interface ActionTypesTable {
  name: string;
  description: Opt<Nullable<string>>;
  parent_type: Opt<Nullable<string>>;
}

interface IndicationsTable {
  indication_id: Generated<number>;
  parent_id: Opt<Nullable<number>>;
  name: string;
  mesh_id: Opt<Nullable<string>>;
  efo_id: Opt<Nullable<string>>;
}

interface ClinicalPhasesTable {
  phase_id: number;
  name: string;
  sort_order: number;
}

interface ClinicalStatusesTable {
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
  /** ChEMBL cell_dictionary / tissue_dictionary rows behind cells_cellline_organ / tissue (migration 0024). */
  cell_line_id: Opt<Nullable<number>>;
  tissue_id: Opt<Nullable<number>>;
}

export interface ActivitiesTable {
  act_id: Generated<number>;
  /** NULL: the compound has no structure (peptide, antibody, mixture; migration 0023). */
  str_id: Opt<Nullable<number>>;
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
  /** The kb_loads row that first brought it in (migration 0022); an update keeps it. */
  load_id: Opt<Nullable<number>>;
  /** FALSE: ChEMBL could not standardise it; std_* hold the published type/relation/value/units (migration 0023). */
  standardised: Generated<boolean>;
  /** Ligand efficiency (ChEMBL ligand_eff): BEI, SEI, LE, LLE (migration 0023). */
  bei: Opt<Nullable<number>>;
  sei: Opt<Nullable<number>>;
  le: Opt<Nullable<number>>;
  lle: Opt<Nullable<number>>;
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

interface ClinicalCompoundTargetsTable {
  clinical_compound_id: number;
  target_id: number;
  action_type: Opt<Nullable<string>>;
  mechanism: Opt<Nullable<string>>;
  /** drug_mechanism details (migration 0024). */
  chembl_mec_id: Opt<Nullable<number>>;
  direct_interaction: Opt<Nullable<boolean>>;
  molecular_mechanism: Opt<Nullable<boolean>>;
  disease_efficacy: Opt<Nullable<boolean>>;
  mechanism_comment: Opt<Nullable<string>>;
  selectivity_comment: Opt<Nullable<string>>;
  binding_site_comment: Opt<Nullable<string>>;
}

/** ChEMBL assay_parameters (migration 0024). */
interface AssayParametersTable {
  assay_param_id: Generated<number>;
  assay_id: number;
  param_type: string;
  relation: Opt<Nullable<string>>;
  value: Opt<Nullable<number>>;
  units: Opt<Nullable<string>>;
  text_value: Opt<Nullable<string>>;
  standard_type: Opt<Nullable<string>>;
  standard_relation: Opt<Nullable<string>>;
  standard_value: Opt<Nullable<number>>;
  standard_units: Opt<Nullable<string>>;
  standard_text_value: Opt<Nullable<string>>;
  comments: Opt<Nullable<string>>;
  chembl_assay_param_id: Opt<Nullable<number>>;
}

/** WHO ATC classification tree, levels 1-5 (migration 0024). */
interface AtcClassesTable {
  code: string;
  parent_code: Opt<Nullable<string>>;
  level: number;
  name: string;
}

interface CompoundAtcTable {
  gvk_id: number;
  atc_code: string;
  chembl_mol_atc_id: Opt<Nullable<number>>;
}

/** ChEMBL cell_dictionary (migration 0024). */
interface CellLinesTable {
  cell_line_id: Generated<number>;
  name: string;
  description: Opt<Nullable<string>>;
  source_tissue: Opt<Nullable<string>>;
  source_organism: Opt<Nullable<string>>;
  source_tax_id: Opt<Nullable<number>>;
  clo_id: Opt<Nullable<string>>;
  efo_id: Opt<Nullable<string>>;
  cellosaurus_id: Opt<Nullable<string>>;
  cl_lincs_id: Opt<Nullable<string>>;
  cell_ontology_id: Opt<Nullable<string>>;
  chembl_id: Opt<Nullable<string>>;
  chembl_cell_id: Opt<Nullable<number>>;
}

/** ChEMBL tissue_dictionary (migration 0024). */
interface TissuesTable {
  tissue_id: Generated<number>;
  name: string;
  uberon_id: Opt<Nullable<string>>;
  efo_id: Opt<Nullable<string>>;
  bto_id: Opt<Nullable<string>>;
  caloha_id: Opt<Nullable<string>>;
  chembl_id: Opt<Nullable<string>>;
  chembl_tissue_id: Opt<Nullable<number>>;
}

interface ClinicalCompoundIndicationsTable {
  clinical_compound_id: number;
  indication_id: number;
  phase_id: Opt<Nullable<number>>;
  chembl_drugind_id: Opt<Nullable<number>>;
}

interface ClinicalCompoundCompaniesTable {
  clinical_compound_id: number;
  company_id: number;
}

interface KbLoadCheckpointsTable {
  job: string;
  part: string;
  last_key: Opt<Nullable<number>>;
  done: Generated<boolean>;
  updated_at: Timestamp;
}

/** One seed, import or release update of the knowledge base (migration 0022). */
interface KbLoadsTable {
  load_id: Generated<number>;
  kind: 'seed' | 'import' | 'update';
  label: string;
  source_file: Opt<Nullable<string>>;
  started_at: Timestamp;
  finished_at: NullableTimestamp;
  status: Generated<'running' | 'complete' | 'partial' | 'failed'>;
  /** KbLoadReport of @kb/contracts/kb-loads, as JSON. */
  report: Opt<Nullable<unknown>>;
  alerts_checked_at: NullableTimestamp;
}

/** A row retired by a release update, kept whole (migration 0025). */
interface KbRetiredRowsTable {
  table_name: string;
  source_key: string;
  row: unknown;
  retired_in_load: Nullable<number>;
  retired_at: Generated<Date>;
}

/** Source keys met by an import job (migration 0025): what retiring compares against. */
interface KbImportSeenTable {
  job: string;
  entity: string;
  key: number;
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
  kb_loads: KbLoadsTable;
  assay_parameters: AssayParametersTable;
  atc_classes: AtcClassesTable;
  compound_atc: CompoundAtcTable;
  cell_lines: CellLinesTable;
  tissues: TissuesTable;
  kb_retired_rows: KbRetiredRowsTable;
  kb_import_seen: KbImportSeenTable;
}
