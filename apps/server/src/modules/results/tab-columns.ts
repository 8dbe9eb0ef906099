import { sql } from 'kysely';
import type { ColumnType, ResultColumn } from '@kb/contracts/results';
import { SIMILARITY_COLUMN } from '@kb/contracts/results';
import type { ResultTabKey } from '@kb/contracts/result-tabs';
import type { Sql } from './tab-model.ts';

/**
 * The columns of each tab (spec §3 "Result columns"), in order: key, label, type, whether hidden by
 * default, and the SQL that reads it (aliases of tab-model.ts; `X` is the session's set id for the
 * few columns that count within the search). Columns computed per row (lists, counts) are not
 * sortable: sorting a 750,000-row set by them would mean computing them all.
 */
export interface ColumnDef extends Omit<ResultColumn, 'order'> {
  value: (setId: number) => Sql;
}

type Options = { hidden?: boolean; sortable?: boolean };
const col = (key: string, label: string, type: ColumnType, value: Sql | ((setId: number) => Sql), options: Options = {}): ColumnDef => ({
  key,
  label,
  type,
  hidden: options.hidden ?? false,
  sortable: options.sortable ?? true,
  value: typeof value === 'function' ? value : () => value,
});
const hidden = { hidden: true };
const perRow = { sortable: false };
const set = (setId: number) => sql`${setId}::bigint`;

/** A condition / amount triple of an assay (in presence of, radioligand …): value, concentration, unit, prefix. */
function conditionColumns(name: string, label: string): ColumnDef[] {
  return [
    col(name, label, 'text', sql.ref(`ay.${name}`)),
    col(`${name}_conc`, `${label} conc.`, 'number', sql.ref(`ay.${name}_conc`), hidden),
    col(`${name}_uom`, `${label} unit`, 'text', sql.ref(`ay.${name}_uom`), hidden),
    col(`${name}_prefix`, `${label} prefix`, 'text', sql.ref(`ay.${name}_prefix`), hidden),
  ];
}

/**
 * The score a similarity row of the search gave the row's structure (null in searches without one):
 * every tab keeps it in its own set (search-run.ts `copySimilarities`, or the held sets' scores).
 */
const similarity = (value: Sql | ((setId: number) => Sql)) => col(SIMILARITY_COLUMN, 'Similarity', 'number', value, hidden);
const firstName = (strId: Sql) =>
  sql`(SELECT c.name FROM compounds c WHERE c.str_id = ${strId} AND c.name IS NOT NULL ORDER BY c.gvk_id LIMIT 1)`;

const STRUCTURE_COLUMNS: ColumnDef[] = [
  col('str_id', 'Str ID', 'integer', sql`ss.str_id`),
  col('smiles', 'Structure', 'structure', sql`s.canonical_smiles`, perRow),
  col('compound_name', 'Name', 'text', firstName(sql`ss.str_id`), perRow),
  col(
    'activities',
    'Activities (this search)',
    'integer',
    (x) => sql`(SELECT count(*)::int FROM search_activities sa2 WHERE sa2.set_id = ${set(x)} AND sa2.str_id = ss.str_id)`,
    perRow,
  ),
  col('mol_weight', 'Mol. weight', 'number', sql`s.mol_weight`),
  col('mol_formula', 'Formula', 'text', sql`s.mol_formula`),
  col('logp_calc', 'cLogP', 'number', sql`s.logp_calc`),
  col('logd_calc', 'LogD', 'number', sql`s.logd_calc`, hidden),
  col('psa', 'PSA', 'number', sql`s.psa`),
  col('hb_donors', 'HB donors', 'integer', sql`s.hb_donors`),
  col('hb_acceptor', 'HB acceptors', 'integer', sql`s.hb_acceptor`),
  col('rot_bonds', 'Rot. bonds', 'integer', sql`s.rot_bonds`),
  col('pka_value', 'pKa', 'number', sql`s.pka_value`, hidden),
  col('solubility', 'Solubility (log mol/L)', 'number', sql`s.solubility`, hidden),
  col('inchikey', 'InChIKey', 'text', sql`s.inchikey`, hidden),
  similarity(sql`ss.similarity`),
];

const ACTIVITY_COLUMNS: ColumnDef[] = [
  // Read by its compound, target and potency (issue: the target was the 12th column, off screen at
  // 1,280 px): structure, target, then type, relation, value, unit and pChEMBL, then the assay and
  // the reference; the activity's own id comes after them (docs/results.md "Reading the grid").
  col('str_id', 'Str ID', 'integer', sql`sa.str_id`),
  col('smiles', 'Structure', 'structure', sql`s.canonical_smiles`, perRow),
  // The grid shows the gene symbol (or a short name) and the full name on hover; exports keep the name.
  col('protein', 'Target', 'text', sql`t.name`),
  col('std_activity_type', 'Type', 'text', sql`a.std_activity_type`),
  col('std_act_prefix', 'Relation', 'text', sql`a.std_act_prefix`),
  col('activity_value', 'Value', 'number', sql`a.activity_value`),
  col('standard_uom', 'Unit', 'text', sql`a.standard_uom`),
  col('pchembl_value', 'pChEMBL', 'number', sql`a.pchembl_value`),
  col('assay_type', 'Assay type', 'text', sql`ay.assay_type`),
  col('enzyme_cell_assay', 'Enzyme / cell', 'text', sql`ay.enzyme_cell_assay`),
  col('reference', 'Reference', 'text', sql`d.reference`),
  col('act_id', 'Act ID', 'integer', sql`sa.act_id`),
  // The molar value in the unit a chemist reads it in (nM below 1 µM); sorted by the µM value.
  col('micro_molarvalue', 'Molar value', 'number', sql`a.micro_molarvalue`),
  // "no": ChEMBL could not standardise the activity; type, prefix, value and unit are the published ones.
  col('standardised', 'Standardised', 'text', sql`CASE WHEN a.standardised THEN 'yes' ELSE 'no' END`),
  col('activity_mechanism', 'Mechanism', 'text', sql`a.activity_mechanism`),
  col('source', 'Source organism', 'text', sql`ay.organism`),
  col('gene_symbol', 'Target gene symbol', 'text', sql`t.gene_symbol`, hidden),
  col('assay_method_name', 'Assay method', 'text', sql`ay.assay_method_name`, hidden),
  col('cells_cellline_organ', 'Cells / organ', 'text', sql`ay.cells_cellline_organ`, hidden),
  col('ligase_name', 'E3 ligase', 'text', sql`a.ligase_name`, hidden),
  col('degrader', 'Degrader', 'text', sql`a.degrader`, hidden),
  col('ref_id', 'Ref ID', 'integer', sql`a.ref_id`, hidden),
  col('assay_id', 'Assay ID', 'integer', sql`a.assay_id`, hidden),
  col('activity_remarks', 'Remarks', 'text', sql`a.activity_remarks`, hidden),
  col('parameter', 'Parameter', 'text', sql`a.parameter`, hidden),
  col('activity_type', 'Published type', 'text', sql`a.activity_type`, hidden),
  col('activity_prefix', 'Published prefix', 'text', sql`a.activity_prefix`, hidden),
  col('activity', 'Published value', 'number', sql`a.activity`, hidden),
  col('activity_uom', 'Published unit', 'text', sql`a.activity_uom`, hidden),
  col('measured', 'Measured', 'text', sql`a.measured`, hidden),
  col('sd', 'SD', 'number', sql`a.sd`, hidden),
  col('roa', 'Route', 'text', sql`a.roa`, hidden),
  col('dose', 'Dose', 'number', sql`a.dose`, hidden),
  col('dose_prefix', 'Dose prefix', 'text', sql`a.dose_prefix`, hidden),
  col('dose_uom', 'Dose unit', 'text', sql`a.dose_uom`, hidden),
  col('compound_name_reference', 'Compound label in reference', 'text', sql`a.compound_name_reference`, hidden),
  // Ligand efficiency as ChEMBL computes it (ligand_eff): BEI, SEI, LE (kcal/mol per heavy atom), LLE.
  col('bei', 'BEI', 'number', sql`a.bei`, hidden),
  col('sei', 'SEI', 'number', sql`a.sei`, hidden),
  col('le', 'Ligand efficiency (LE)', 'number', sql`a.le`, hidden),
  col('lle', 'LLE', 'number', sql`a.lle`, hidden),
  col('innerGrids', 'Details', 'json', sql`NULL::text`, perRow),
  similarity(sql`sa.similarity`),
];

const ASSAY_COLUMNS: ColumnDef[] = [
  col('assay_id', 'Assay ID', 'integer', sql`sy.assay_id`),
  col('description', 'Description', 'text', sql`ay.description`),
  col('common_name', 'Target / common name', 'text', sql`coalesce(ay.common_name, t.name)`),
  col('activities', 'Activities (this search)', 'integer', sql`sy.activities`),
  col('assay_type', 'Assay type', 'text', sql`ay.assay_type`),
  col('enzyme_cell_assay', 'Enzyme / cell', 'text', sql`ay.enzyme_cell_assay`),
  col('assay_method_name', 'Method', 'text', sql`ay.assay_method_name`),
  col('organism', 'Organism', 'text', sql`ay.organism`, hidden),
  ...conditionColumns('in_presence_of', 'In presence of'),
  ...conditionColumns('radio_ligand', 'Radioligand'),
  ...conditionColumns('co_administered', 'Co-administered'),
  ...conditionColumns('buffer', 'Buffer'),
  col('ph', 'pH', 'number', sql`ay.ph`, hidden),
  ...conditionColumns('substrate', 'Substrate'),
  col('incubation_time', 'Incubation time', 'number', sql`ay.incubation_time`, hidden),
  col('incubation_time_uom', 'Incubation unit', 'text', sql`ay.incubation_time_uom`, hidden),
  col('incubation_time_prefix', 'Incubation prefix', 'text', sql`ay.incubation_time_prefix`, hidden),
  col('temperature', 'Temperature', 'number', sql`ay.temperature`, hidden),
  col('temperature_uom', 'Temperature unit', 'text', sql`ay.temperature_uom`, hidden),
  col('temperature_prefix', 'Temperature prefix', 'text', sql`ay.temperature_prefix`, hidden),
  col('operation', 'Operation', 'text', sql`ay.operation`, hidden),
  col('mutant', 'Mutant', 'text', sql`ay.mutant`, hidden),
  col('wild_type', 'Wild type', 'text', sql`CASE WHEN ay.wild_type IS NULL THEN NULL WHEN ay.wild_type THEN 'yes' ELSE 'no' END`, hidden),
  col('residue_name', 'Residue', 'text', sql`ay.residue_name`, hidden),
  col('residue_position', 'Residue position', 'integer', sql`ay.residue_position`, hidden),
  col('residue_change', 'Residue change', 'text', sql`ay.residue_change`, hidden),
  col('assay_position', 'Assay position', 'text', sql`ay.assay_position`, hidden),
  col('target_profile', 'Target profile', 'text', sql`ay.target_profile`, hidden),
  // ChEMBL cell_dictionary / tissue_dictionary names and assay_parameters (migration 0024).
  col('cells_cellline_organ', 'Cells / organ', 'text', sql`ay.cells_cellline_organ`, hidden),
  col('tissue', 'Tissue', 'text', sql`ay.tissue`, hidden),
  col(
    'assay_parameters',
    'Assay parameters',
    'text',
    sql`(SELECT string_agg(concat_ws(' ', p.param_type, p.relation, p.value::text, p.units, p.text_value), '; '
    ORDER BY p.param_type, p.assay_param_id) FROM assay_parameters p WHERE p.assay_id = sy.assay_id)`,
    { hidden: true, sortable: false },
  ),
  col('innerGrids', 'Activities', 'json', sql`NULL::text`, perRow),
  similarity(sql`sy.similarity`),
];

const agg = (query: Sql) => sql`(SELECT string_agg(x, '; ') FROM (${query}) q(x))`;

const DOCUMENT_COLUMNS: ColumnDef[] = [
  col('ref_id', 'Ref ID', 'integer', sql`sr.ref_id`),
  col('reference', 'Reference', 'text', sql`d.reference`),
  col('year', 'Year', 'integer', sql`d.year`),
  col('title', 'Title', 'text', sql`d.title`),
  col('activities', 'Activities (this search)', 'integer', sql`sr.activities`),
  col('ref_type', 'Type', 'text', sql`d.ref_type`),
  col('journal_patent_name', 'Journal / patent office', 'text', sql`d.journal_patent_name`),
  col(
    'authors',
    'Authors',
    'text',
    agg(sql`SELECT da.name FROM document_authors da WHERE da.ref_id = sr.ref_id ORDER BY da.position`),
    perRow,
  ),
  col(
    'company_names',
    'Companies',
    'text',
    agg(
      sql`SELECT co.name FROM document_companies dc JOIN companies co ON co.company_id = dc.company_id WHERE dc.ref_id = sr.ref_id ORDER BY co.name`,
    ),
    perRow,
  ),
  col(
    'company_addresses',
    'Company addresses',
    'text',
    agg(
      sql`SELECT co.address FROM document_companies dc JOIN companies co ON co.company_id = dc.company_id WHERE dc.ref_id = sr.ref_id AND co.address IS NOT NULL ORDER BY co.name`,
    ),
    { ...perRow, ...hidden },
  ),
  col('pubmed_id', 'PubMed ID', 'integer', sql`d.pubmed_id`),
  col('doi', 'DOI', 'text', sql`d.doi`),
  col('volume', 'Volume', 'text', sql`d.volume`, hidden),
  col('issue', 'Issue', 'text', sql`d.issue`, hidden),
  col('start_page', 'First page', 'text', sql`d.start_page`, hidden),
  col('end_page', 'Last page', 'text', sql`d.end_page`, hidden),
  col('issn_no', 'ISSN', 'text', sql`d.issn_no`, hidden),
  col('patent_no', 'Patent no.', 'text', sql`d.patent_no`),
  col('application_type', 'Application type', 'text', sql`d.application_type`, hidden),
  similarity(sql`sr.similarity`),
];

const DEVELOPMENT_COLUMNS: ColumnDef[] = [
  col('clinical_compound_id', 'Dev. compound ID', 'integer', sql`scc.clinical_compound_id`, hidden),
  col('str_id', 'Str ID', 'integer', sql`cc.str_id`),
  col('smiles', 'Structure', 'structure', sql`s.canonical_smiles`, perRow),
  col('drug_name', 'Drug name', 'text', sql`cc.drug_name`),
  col('highest_phase', 'Highest phase', 'text', sql`p.name`),
  col(
    'targets',
    'Targets',
    'text',
    agg(
      sql`SELECT t2.name FROM clinical_compound_targets cct JOIN targets t2 ON t2.target_id = cct.target_id WHERE cct.clinical_compound_id = scc.clinical_compound_id ORDER BY t2.name`,
    ),
    perRow,
  ),
  col('approval_year', 'Approval year', 'integer', sql`cc.approval_year`),
  col('mode_of_action', 'Mode of action', 'text', sql`cc.mode_of_action`),
  col(
    'indications',
    'Indications',
    'text',
    agg(
      sql`SELECT i.name FROM clinical_compound_indications cci JOIN indications i ON i.indication_id = cci.indication_id WHERE cci.clinical_compound_id = scc.clinical_compound_id ORDER BY i.name`,
    ),
    perRow,
  ),
  col('drug_dose', 'Dose', 'text', sql`cc.drug_dose`, hidden),
  col('status', 'Status', 'text', sql`st.name`),
  col('remarks', 'Remarks', 'text', sql`cc.remarks`, hidden),
  col('last_significant_update', 'Last significant update', 'date', sql`to_char(cc.last_significant_update, 'YYYY-MM-DD')`),
  col('reason_with_drawn', 'Reason withdrawn', 'text', sql`cc.reason_with_drawn`, hidden),
  col('reason_with_drawn_category', 'Withdrawal category', 'text', sql`cc.reason_with_drawn_category`, hidden),
  similarity(sql`scc.similarity`),
];

export const TAB_COLUMNS: Record<ResultTabKey, readonly ColumnDef[]> = {
  structuretab: STRUCTURE_COLUMNS,
  activitiestab: ACTIVITY_COLUMNS,
  assaytab: ASSAY_COLUMNS,
  developmentcompoundstab: DEVELOPMENT_COLUMNS,
  documentstab: DOCUMENT_COLUMNS,
};

/** The columns as the metadata call serves them (order = position). */
export function columnMetadata(tab: ResultTabKey): ResultColumn[] {
  return TAB_COLUMNS[tab].map(({ value: _value, ...column }, order) => ({ ...column, order }));
}

export function columnDef(tab: ResultTabKey, key: string): ColumnDef | null {
  return TAB_COLUMNS[tab].find((column) => column.key === key) ?? null;
}
