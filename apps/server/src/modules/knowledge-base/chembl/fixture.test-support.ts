import fs from 'node:fs';
import Database from 'better-sqlite3';

/**
 * Builds small SQLite files with the official ChEMBL table and column names (the columns the
 * importer maps, plus a few it ignores), for tests. Values are modelled on real ChEMBL rows.
 */

import { CHEMBL_COLUMNS, PRIMARY_KEYS } from './fixture-schema.test-support.ts';

type Row = Record<string, string | number | null>;

const ETHANOL_MOLFILE = [
  '',
  '  RDKit          2D',
  '',
  '  3  2  0  0  0  0  0  0  0  0999 V2000',
  '    0.0000    0.0000    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0',
  '    1.2990    0.7500    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0',
  '    2.5981   -0.0000    0.0000 O   0  0  0  0  0  0  0  0  0  0  0  0',
  '  1  2  1  0',
  '  2  3  1  0',
  'M  END',
].join('\n');

export const ASPIRIN_INCHI = 'InChI=1S/C9H8O4/c1-6(10)13-8-5-3-2-4-7(8)9(11)12/h2-5H,1H3,(H,11,12)';

/**
 * The default fixture: each row exercises one mapping rule or one skip reason (see the tests).
 * molregno 1280 aspirin (drug), 2000 gefitinib (no dictionary row), 2001 aspirin written another way,
 * 2002 unparsable SMILES, 2003 salt with only its parent's structure, 2004 protein without structure,
 * 2005 molfile only (ethanol).
 */
export function defaultFixtureRows(): Record<string, Row[]> {
  return {
    source: [
      { src_id: 1, src_description: 'Scientific Literature', src_short_name: 'LITERATURE', src_url: 'https://www.ebi.ac.uk/chembl' },
      { src_id: 7, src_description: 'PubChem BioAssays', src_short_name: 'PUBCHEM_BIOASSAY' },
    ],
    activity_stds_lookup: [
      { std_act_id: 1, standard_type: 'IC50', definition: 'Concentration required for 50% inhibition', standard_units: 'nM' },
      { std_act_id: 2, standard_type: 'FOO50', definition: 'A test-only activity type', standard_units: 'ug.mL-1' },
    ],
    action_type: [
      {
        action_type: 'INHIBITOR',
        description: 'Negatively effects the normal functioning of the protein',
        parent_type: 'NEGATIVE MODULATOR',
      },
      { action_type: 'OPENER', description: 'Opens an ion channel', parent_type: 'POSITIVE MODULATOR' },
    ],
    bioassay_ontology: [
      { bao_id: 'BAO_0000357', label: 'single protein format' },
      { bao_id: 'BAO_0000219', label: 'cell-based format' },
    ],
    docs: [
      {
        doc_id: 100,
        journal: 'J Med Chem',
        year: 2004,
        volume: '47',
        issue: '3',
        first_page: '663',
        last_page: '672',
        pubmed_id: 14736245,
        doi: '10.1021/jm030460n',
        chembl_id: 'CHEMBL1148382',
        title: 'Discovery of kinase inhibitors',
        doc_type: 'PUBLICATION',
        authors: 'Smith J, Doe AB, Uckun FM.',
        abstract: 'An abstract.',
        src_id: 1,
      },
      {
        doc_id: 101,
        chembl_id: 'CHEMBL3639173',
        title: 'Quinazoline kinase inhibitors',
        doc_type: 'PATENT',
        patent_id: 'US-8513270-B2',
        year: 2013,
        src_id: 1,
      },
    ],
    protein_classification: [
      { protein_class_id: 0, parent_id: null, pref_name: 'Protein class', short_name: 'Protein class', class_level: 0 },
      { protein_class_id: 1, parent_id: 0, pref_name: 'Enzyme', short_name: 'Enzyme', class_level: 1 },
      { protein_class_id: 2, parent_id: 1, pref_name: 'Kinase', short_name: 'Kinase', class_level: 2 },
      { protein_class_id: 3, parent_id: 2, pref_name: 'Protein Kinase', short_name: 'Protein Kinase', class_level: 3 },
    ],
    target_dictionary: [
      {
        tid: 9,
        target_type: 'SINGLE PROTEIN',
        pref_name: 'Epidermal growth factor receptor erbB1',
        tax_id: 9606,
        organism: 'Homo sapiens',
        chembl_id: 'CHEMBL203',
        species_group_flag: 0,
      },
      {
        tid: 100,
        target_type: 'PROTEIN COMPLEX',
        pref_name: 'Cyclin-dependent kinase 2/cyclin A',
        tax_id: 9606,
        organism: 'Homo sapiens',
        chembl_id: 'CHEMBL2094128',
      },
      {
        tid: 50425,
        target_type: 'ORGANISM',
        pref_name: 'Plasmodium falciparum',
        tax_id: 5833,
        organism: 'Plasmodium falciparum',
        chembl_id: 'CHEMBL364',
      },
    ],
    component_sequences: [
      { component_id: 1, component_type: 'PROTEIN', accession: 'P00533', organism: 'Homo sapiens', tax_id: 9606 },
      { component_id: 2, component_type: 'PROTEIN', accession: 'P24941', organism: 'Homo sapiens', tax_id: 9606 },
      { component_id: 3, component_type: 'PROTEIN', accession: 'P20248', organism: 'Homo sapiens', tax_id: 9606 },
    ],
    target_components: [
      { tid: 9, component_id: 1, targcomp_id: 1, homologue: 0 },
      { tid: 100, component_id: 2, targcomp_id: 2, homologue: 0 },
      { tid: 100, component_id: 3, targcomp_id: 3, homologue: 0 },
    ],
    component_synonyms: [
      { compsyn_id: 1, component_id: 1, component_synonym: 'EGFR', syn_type: 'GENE_SYMBOL' },
      { compsyn_id: 2, component_id: 1, component_synonym: 'ERBB1', syn_type: 'GENE_SYMBOL_OTHER' },
      { compsyn_id: 3, component_id: 1, component_synonym: '2.7.10.1', syn_type: 'EC_NUMBER' },
      { compsyn_id: 4, component_id: 2, component_synonym: 'CDK2', syn_type: 'GENE_SYMBOL' },
    ],
    component_class: [
      { component_id: 1, protein_class_id: 2, comp_class_id: 1 },
      { component_id: 1, protein_class_id: 3, comp_class_id: 2 },
      { component_id: 2, protein_class_id: 3, comp_class_id: 3 },
    ],
    assays: [
      {
        assay_id: 1000,
        doc_id: 100,
        description: 'Inhibition of EGFR',
        assay_type: 'B',
        assay_organism: 'Homo sapiens',
        assay_tax_id: 9606,
        tid: 9,
        confidence_score: 9,
        src_id: 1,
        chembl_id: 'CHEMBL674637',
        bao_format: 'BAO_0000357',
      },
      {
        assay_id: 1001,
        doc_id: 100,
        description: 'Antiproliferative activity against A431 cells',
        assay_type: 'F',
        assay_test_type: 'In vitro',
        assay_cell_type: 'A431',
        tid: 9,
        confidence_score: 8,
        src_id: 1,
        chembl_id: 'CHEMBL674638',
        bao_format: 'BAO_0000219',
      },
      {
        assay_id: 1002,
        doc_id: 999,
        description: 'Aqueous solubility',
        assay_type: 'P',
        tid: null,
        src_id: 7,
        chembl_id: 'CHEMBL674639',
        bao_format: 'BAO_0000100',
      },
    ],
    molecule_dictionary: [
      {
        molregno: 1280,
        pref_name: 'ASPIRIN',
        chembl_id: 'CHEMBL25',
        max_phase: 4,
        molecule_type: 'Small molecule',
        first_approval: 1950,
        withdrawn_flag: 0,
        natural_product: 0,
      },
      { molregno: 2001, pref_name: null, chembl_id: 'CHEMBL9001', molecule_type: 'Small molecule' },
      { molregno: 2002, pref_name: 'BROKEN', chembl_id: 'CHEMBL9002' },
      { molregno: 2003, pref_name: 'ASPIRIN SODIUM', chembl_id: 'CHEMBL9003', molecule_type: 'Small molecule' },
      {
        molregno: 2004,
        pref_name: 'SOME PROTEIN',
        chembl_id: 'CHEMBL9004',
        max_phase: 2,
        molecule_type: 'Protein',
        withdrawn_flag: 1,
        withdrawn_reason: 'Hepatotoxicity',
        withdrawn_class: 'Toxicity',
      },
      { molregno: 2005, pref_name: 'ETHANOL', chembl_id: 'CHEMBL545', molecule_type: 'Small molecule', natural_product: 1 },
    ],
    compound_structures: [
      {
        molregno: 1280,
        canonical_smiles: 'CC(=O)Oc1ccccc1C(=O)O',
        standard_inchi: ASPIRIN_INCHI,
        standard_inchi_key: 'BSYNRYMUTXBXSQ-UHFFFAOYSA-N',
      },
      { molregno: 2000, canonical_smiles: 'COc1cc2ncnc(Nc3ccc(F)c(Cl)c3)c2cc1OCCCN1CCOCC1' },
      { molregno: 2001, canonical_smiles: 'OC(=O)c1ccccc1OC(C)=O' },
      { molregno: 2002, canonical_smiles: 'C1CC(' },
      { molregno: 2005, canonical_smiles: null, molfile: ETHANOL_MOLFILE },
    ],
    compound_properties: [{ molregno: 1280, mw_freebase: 180.16, alogp: 1.31, full_mwt: 180.16 }],
    molecule_hierarchy: [
      { molregno: 1280, parent_molregno: 1280, active_molregno: 1280 },
      { molregno: 2003, parent_molregno: 1280, active_molregno: 1280 },
    ],
    molecule_synonyms: [
      { molregno: 1280, syn_type: 'TRADE_NAME', molsyn_id: 1, synonyms: 'Disprin' },
      { molregno: 1280, syn_type: 'INN', molsyn_id: 2, synonyms: 'aspirin' },
      { molregno: 9999, syn_type: 'OTHER', molsyn_id: 3, synonyms: 'ghost' },
    ],
    activities: [
      {
        activity_id: 31863,
        assay_id: 1000,
        doc_id: 100,
        record_id: 500,
        molregno: 2000,
        standard_relation: '=',
        standard_value: 41,
        standard_units: 'nM',
        standard_type: 'IC50',
        pchembl_value: 7.39,
        src_id: 1,
        type: 'IC50',
        relation: '=',
        value: 0.041,
        units: 'uM',
        action_type: 'INHIBITOR',
      },
      {
        activity_id: 31864,
        assay_id: 1001,
        doc_id: 100,
        molregno: 1280,
        standard_relation: '>',
        standard_value: 10,
        standard_units: 'uM',
        standard_type: 'GI50',
        src_id: 1,
        type: 'GI50',
        relation: '>',
        value: 10,
        units: 'uM',
      },
      {
        activity_id: 31865,
        assay_id: 1000,
        doc_id: 100,
        molregno: 2002,
        standard_relation: '=',
        standard_value: 5,
        standard_units: 'nM',
        standard_type: 'IC50',
      },
      {
        activity_id: 31866,
        assay_id: 1000,
        doc_id: 100,
        molregno: 2004,
        standard_relation: '=',
        standard_value: 7,
        standard_units: 'nM',
        standard_type: 'IC50',
      },
      {
        activity_id: 31867,
        assay_id: 1000,
        doc_id: 100,
        molregno: 2003,
        standard_relation: '=',
        standard_value: 85,
        standard_units: '%',
        standard_type: 'Inhibition',
        activity_comment: 'Active',
      },
      {
        activity_id: 31868,
        assay_id: 1000,
        doc_id: 100,
        molregno: 777777,
        standard_relation: '=',
        standard_value: 1,
        standard_units: 'nM',
        standard_type: 'IC50',
      },
      {
        activity_id: 31869,
        assay_id: 1002,
        doc_id: 999,
        molregno: 2005,
        standard_relation: '=',
        standard_value: 3,
        standard_units: 'ug.mL-1',
        standard_type: 'FOO50',
        data_validity_comment: 'Outside typical range',
        text_value: null,
        src_id: 7,
      },
      {
        activity_id: 31870,
        assay_id: 5555,
        doc_id: 100,
        molregno: 1280,
        standard_relation: '<',
        standard_value: 0.5,
        standard_units: 'mM',
        standard_type: 'IC50',
      },
      // Not standardised by ChEMBL: only the published type, relation, value and units (found as IC50, µM from nM).
      {
        activity_id: 31871,
        assay_id: 1000,
        doc_id: 100,
        record_id: 501,
        molregno: 2001,
        type: 'IC50',
        relation: '<',
        value: 30,
        units: 'nM',
      },
      // Standard type and value but no standard relation (as ChEMBL 27 EGFR rows): the published relation fills it.
      {
        activity_id: 31872,
        assay_id: 1000,
        doc_id: 100,
        molregno: 2000,
        standard_type: 'Ki',
        standard_value: 2,
        standard_units: 'uM',
        type: 'Ki',
        relation: '>',
        value: 2,
        units: 'uM',
      },
      // The protein without structure again, in the cell assay: kept, found by target and type.
      {
        activity_id: 31873,
        assay_id: 1001,
        doc_id: 100,
        record_id: 502,
        molregno: 2004,
        standard_relation: '=',
        standard_value: 3,
        standard_units: 'nM',
        standard_type: 'EC50',
        pchembl_value: 8.52,
      },
    ],
    ligand_eff: [
      { activity_id: 31863, bei: 16.71, sei: 10.09, le: 0.31, lle: 3.02 },
      { activity_id: 99999, bei: 1, sei: 1, le: 1, lle: 1 },
    ],
    compound_records: [
      { record_id: 500, molregno: 2000, doc_id: 100, compound_key: '4', compound_name: 'gefitinib (compound 4)', src_id: 1 },
      { record_id: 501, molregno: 2001, doc_id: 100, compound_key: '12b', compound_name: null, src_id: 1 },
      { record_id: 502, molregno: 2004, doc_id: 100, compound_key: 'P1', compound_name: 'Peptide P1', src_id: 1 },
    ],
    drug_indication: [
      {
        drugind_id: 1,
        record_id: 1,
        molregno: 1280,
        max_phase_for_ind: 4,
        mesh_id: 'D010146',
        mesh_heading: 'Pain',
        efo_id: 'EFO:0003843',
        efo_term: 'pain',
      },
      {
        drugind_id: 2,
        record_id: 1,
        molregno: 1280,
        max_phase_for_ind: 3,
        mesh_id: 'D020521',
        mesh_heading: 'Stroke',
        efo_id: 'EFO:0000712',
        efo_term: 'stroke',
      },
      {
        drugind_id: 3,
        record_id: 1,
        molregno: 1280,
        max_phase_for_ind: 4,
        mesh_id: 'D010146',
        mesh_heading: 'Pain',
        efo_id: 'EFO:0000001',
        efo_term: 'chronic pain',
      },
      {
        drugind_id: 4,
        record_id: 2,
        molregno: 2004,
        max_phase_for_ind: 2,
        mesh_id: 'D009369',
        mesh_heading: 'Neoplasms',
        efo_id: 'EFO:0000616',
        efo_term: 'neoplasm',
      },
    ],
    drug_mechanism: [
      { mec_id: 1, record_id: 1, molregno: 1280, mechanism_of_action: 'Cyclooxygenase inhibitor', tid: 9, action_type: 'INHIBITOR' },
      { mec_id: 2, record_id: 2, molregno: 2004, mechanism_of_action: 'Unknown', tid: null, action_type: null },
      { mec_id: 3, record_id: 2, molregno: 2004, mechanism_of_action: 'CDK2 opener', tid: 100, action_type: 'OPENER' },
    ],
    products: [
      {
        product_id: 'PRODUCT_1',
        trade_name: 'ASPIRIN 325',
        applicant_full_name: 'BAYER HEALTHCARE',
        approval_date: '1982-01-01 00:00:00',
        route: 'ORAL',
      },
    ],
    formulations: [{ product_id: 'PRODUCT_1', ingredient: 'ASPIRIN', strength: '325MG', record_id: 1, molregno: 1280, formulation_id: 1 }],
  };
}

export interface FixtureOptions {
  rows?: Record<string, Row[]>;
  omitTables?: string[];
  /** Leave these columns out of the table definitions (an older or partial release). */
  omitColumns?: Record<string, string[]>;
}

/** Writes the fixture file (replacing an existing one). */
export function buildChemblFixture(file: string, options: FixtureOptions = {}): void {
  fs.rmSync(file, { force: true });
  const rows = options.rows ?? defaultFixtureRows();
  const db = new Database(file);
  try {
    // Schema first, then rows (as the official dump does): data pages follow all schema pages.
    const tables = Object.entries(CHEMBL_COLUMNS)
      .filter(([table]) => !options.omitTables?.includes(table))
      .map(([table, columns]) => {
        const omitted = new Set(options.omitColumns?.[table] ?? []);
        const kept = Object.entries(columns).filter(([name]) => !omitted.has(name));
        const key = PRIMARY_KEYS[table];
        db.exec(
          `CREATE TABLE ${table} (${kept.map(([name, type]) => `${name} ${type}${name === key ? ' NOT NULL PRIMARY KEY' : ''}`).join(', ')})`,
        );
        return { table, names: kept.map(([name]) => name) };
      });
    for (const { table, names } of tables) {
      const insert = db.prepare(`INSERT INTO ${table} (${names.join(', ')}) VALUES (${names.map((n) => `@${n}`).join(', ')})`);
      db.transaction((list: Row[]) => {
        for (const row of list) insert.run(Object.fromEntries(names.map((n) => [n, row[n] ?? null])));
      })(rows[table] ?? []);
    }
  } finally {
    db.close();
  }
}

/**
 * The default fixture plus rows for the tables mapped in issue 17 (component_xref, cell and tissue
 * dictionaries, assay_parameters, ATC): each row exercises one rule or one skip reason.
 */
export function mappingFixtureRows(): Record<string, Row[]> {
  const rows = defaultFixtureRows();
  rows.assays = (rows.assays ?? []).map((a) =>
    a.assay_id === 1001
      ? { ...a, cell_id: 1, tissue_id: null }
      : a.assay_id === 1000
        ? { ...a, cell_id: 2, tissue_id: 5 }
        : a.assay_id === 1002
          ? { ...a, cell_id: 99 }
          : a,
  );
  rows.drug_mechanism = (rows.drug_mechanism ?? []).map((m) =>
    m.mec_id === 1
      ? {
          ...m,
          direct_interaction: 1,
          molecular_mechanism: 1,
          disease_efficacy: 0,
          selectivity_comment: 'Non-selective',
          mechanism_comment: 'Irreversible',
        }
      : m,
  );
  return {
    ...rows,
    component_xref: [
      { compxref_id: 1, component_id: 1, xref_src_db: 'PDBe', xref_id: '1m17', xref_name: 'EGFR kinase with erlotinib' },
      { compxref_id: 2, component_id: 1, xref_src_db: 'PDBe', xref_id: '4HJO' },
      { compxref_id: 3, component_id: 1, xref_src_db: 'EnsemblGene', xref_id: 'ENSG00000146648' },
      { compxref_id: 4, component_id: 2, xref_src_db: 'PDBe', xref_id: '1HCK' },
      { compxref_id: 5, component_id: 3, xref_src_db: 'PDBe', xref_id: '1HCK' },
      { compxref_id: 6, component_id: 1, xref_src_db: 'EntrezGene', xref_id: '1956' },
      { compxref_id: 7, component_id: 77, xref_src_db: 'PDBe', xref_id: '9XYZ' },
    ],
    cell_dictionary: [
      {
        cell_id: 1,
        cell_name: 'A-431',
        cell_description: 'Epidermoid carcinoma cells',
        cell_source_tissue: 'Skin',
        cell_source_organism: 'Homo sapiens',
        cell_source_tax_id: 9606,
        clo_id: 'CLO_0001504',
        efo_id: 'EFO_0002066',
        cellosaurus_id: 'CVCL_0037',
        chembl_id: 'CHEMBL3307651',
      },
      {
        cell_id: 2,
        cell_name: 'HeLa',
        cell_source_organism: 'Homo sapiens',
        cell_source_tax_id: 9606,
        cellosaurus_id: 'CVCL_0030',
        chembl_id: 'CHEMBL3308376',
      },
    ],
    tissue_dictionary: [
      {
        tissue_id: 5,
        uberon_id: 'UBERON:0002107',
        pref_name: 'Liver',
        efo_id: 'UBERON_0002107',
        chembl_id: 'CHEMBL3559721',
        bto_id: 'BTO_0000759',
        caloha_id: 'TS-0564',
      },
    ],
    assay_parameters: [
      {
        assay_param_id: 1,
        assay_id: 1000,
        type: 'DOSE',
        relation: '=',
        value: 10,
        units: 'mg.kg-1',
        standard_type: 'DOSE',
        standard_relation: '=',
        standard_value: 10,
        standard_units: 'mg.kg-1',
      },
      { assay_param_id: 2, assay_id: 1000, type: 'TIME', relation: '=', value: 24, units: 'hr', comments: 'after dosing' },
      { assay_param_id: 3, assay_id: 4242, type: 'DOSE', value: 1 },
    ],
    atc_classification: [
      {
        who_name: 'acetylsalicylic acid',
        level1: 'N',
        level2: 'N02',
        level3: 'N02B',
        level4: 'N02BA',
        level5: 'N02BA01',
        level1_description: 'NERVOUS SYSTEM',
        level2_description: 'ANALGESICS',
        level3_description: 'OTHER ANALGESICS AND ANTIPYRETICS',
        level4_description: 'Salicylic acid and derivatives',
      },
      {
        who_name: 'acetylsalicylic acid',
        level1: 'B',
        level2: 'B01',
        level3: 'B01A',
        level4: 'B01AC',
        level5: 'B01AC06',
        level1_description: 'BLOOD AND BLOOD FORMING ORGANS',
        level2_description: 'ANTITHROMBOTIC AGENTS',
        level3_description: 'ANTITHROMBOTIC AGENTS',
        level4_description: 'Platelet aggregation inhibitors excl. heparin',
      },
      {
        who_name: 'salicylamide',
        level1: 'N',
        level2: 'N02',
        level3: 'N02B',
        level4: 'N02BA',
        level5: 'N02BA05',
        level1_description: 'NERVOUS SYSTEM',
        level2_description: 'ANALGESICS',
        level3_description: 'OTHER ANALGESICS AND ANTIPYRETICS',
        level4_description: 'Salicylic acid and derivatives',
      },
    ],
    molecule_atc_classification: [
      { mol_atc_id: 1, level5: 'N02BA01', molregno: 1280 },
      { mol_atc_id: 2, level5: 'B01AC06', molregno: 1280 },
      { mol_atc_id: 3, level5: 'N02BA01', molregno: 31337 },
      { mol_atc_id: 4, level5: 'Z99ZZ99', molregno: 2001 },
    ],
  };
}
