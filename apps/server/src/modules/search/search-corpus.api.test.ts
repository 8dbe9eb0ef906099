import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { SearchCounts, SearchCriteriaInput, SearchRowInput } from '@kb/contracts/search';
import { SearchCriteriaSchema } from '@kb/contracts/search';
import { demoEmailForRole } from '@kb/contracts/roles';
import type { LoginResult } from '@kb/contracts/auth';
import { DATABASES, authHeaders, startTestApp } from '../../../test/harness.ts';
import { callerOf } from '../../../test/search-services.ts';
import type { TestApp } from '../../../test/harness.ts';

/**
 * The guided-search corpus: every row type and every operator, each case with its expected
 * structures and activities written here as plain SQL straight from docs/search-semantics.md
 * (not through the search compiler). The derived sets (compound records, assays, references,
 * clinical compounds) follow the generic rules of that document, also computed here in SQL.
 */

interface Case {
  name: string;
  rows: SearchRowInput[];
  /** SQL selecting str_id of the expected structures. */
  structures: string;
  /** WHERE clause over `a` (activities) and `ay` (its assay) of the expected activities. */
  activities: string;
  /** WHERE over `cc` of the expected clinical compounds, when the search has clinical rows (default: those of the structures). */
  clinical?: string;
  /** False for searches without activity rows: every compound record of a matched structure counts. */
  activityRows?: boolean;
}

const ACT = 'activities a LEFT JOIN assays ay ON ay.assay_id = a.assay_id';
/** Structures of the activities matching `where`. */
const strOf = (where: string) => `SELECT a.str_id FROM ${ACT} WHERE ${where}`;

interface Fixture {
  kinaseClass: number;
  nuclearReceptorClass: number;
  egfr: number;
  brd4: number;
  kinaseClassTargets: number[];
  companyId: number;
  companyName: string;
  pubmedIds: number[];
  journal: { name: string; year: number };
  author: string;
  taxonomyId: number;
  indicationRoot: number;
  indicationLeafName: string;
  strIds: number[];
  /** Rows picked in result tabs (new search by selection). */
  selected: { activity: number[]; assay: number[]; reference: number[] };
  structure: { str_id: number; smiles: string; inchikey: string; name: string };
  refIdWithPatentCountry: string;
  ruleOfFive: string;
}

async function loadFixture(t: TestApp): Promise<Fixture> {
  const db = t.database.db;
  const q = async <T>(text: string) => (await sql.raw<T>(text).execute(db)).rows;
  const target = async (gene: string) =>
    (await q<{ target_id: number }>(`SELECT target_id FROM targets WHERE gene_symbol = '${gene}'`))[0]!.target_id;
  const company = (
    await q<{ company_id: number; name: string }>(
      `SELECT co.company_id, co.name FROM companies co JOIN document_companies dc USING (company_id) GROUP BY 1, 2 ORDER BY count(*) DESC, 1 LIMIT 1`,
    )
  )[0]!;
  const pubmed = await q<{ pubmed_id: number }>(`SELECT pubmed_id FROM documents WHERE pubmed_id IS NOT NULL ORDER BY ref_id LIMIT 3`);
  const journal = (
    await q<{ name: string; year: number }>(
      `SELECT journal_patent_name AS name, year FROM documents WHERE ref_type = 'journal' ORDER BY ref_id LIMIT 1`,
    )
  )[0]!;
  const author = (await q<{ name: string }>(`SELECT name FROM document_authors ORDER BY ref_id, position LIMIT 1`))[0]!.name;
  const taxon = (
    await q<{ taxonomy_id: number }>(
      `SELECT t.taxonomy_id FROM taxonomy t WHERE t.rank = 'species' AND EXISTS (SELECT 1 FROM taxonomy c WHERE c.parent_id = t.taxonomy_id) ORDER BY 1 LIMIT 1`,
    )
  )[0]!;
  const indication = (
    await q<{ indication_id: number }>(`SELECT indication_id FROM indications WHERE parent_id IS NULL ORDER BY 1 LIMIT 1`)
  )[0]!;
  const leaf = (
    await q<{ name: string }>(
      `SELECT i.name FROM indications i JOIN clinical_compound_indications cci USING (indication_id) ORDER BY i.indication_id DESC LIMIT 1`,
    )
  )[0]!;
  const strs = await q<{ str_id: number }>(`SELECT str_id FROM structures ORDER BY str_id LIMIT 25`);
  const pickIds = async (column: string) =>
    (
      await q<{ id: number }>(`SELECT DISTINCT ${column} AS id FROM activities WHERE ${column} IS NOT NULL ORDER BY 1 LIMIT 30 OFFSET 40`)
    ).map((r) => Number(r.id));
  const named = (
    await q<{ str_id: number; smiles: string; inchikey: string; name: string }>(
      `SELECT s.str_id, s.smiles, s.inchikey, c.name FROM structures s JOIN compounds c USING (str_id) WHERE c.name IS NOT NULL ORDER BY s.str_id LIMIT 1`,
    )
  )[0]!;
  const kinase = await q<{ target_id: number }>(
    `SELECT target_id FROM targets WHERE gene_symbol IN ('EGFR', 'ABL1', 'SRC', 'CDK2') ORDER BY 1`,
  );
  const kinaseClass = (
    await q<{ class_id: number }>(
      `SELECT parent_id AS class_id FROM target_classes WHERE class_id = (SELECT class_id FROM targets WHERE gene_symbol = 'EGFR')`,
    )
  )[0]!.class_id;
  const country = (
    await q<{ country_code: string }>(
      `SELECT country_code FROM documents WHERE ref_type = 'patent' GROUP BY 1 ORDER BY count(*) DESC LIMIT 1`,
    )
  )[0]!.country_code;
  const nuclear = (await q<{ class_id: number }>(`SELECT class_id FROM target_classes WHERE name = 'Nuclear receptor'`))[0]!.class_id;
  return {
    kinaseClass,
    nuclearReceptorClass: nuclear,
    egfr: await target('EGFR'),
    brd4: await target('BRD4'),
    kinaseClassTargets: kinase.map((k) => k.target_id),
    companyId: company.company_id,
    companyName: company.name,
    pubmedIds: pubmed.map((p) => Number(p.pubmed_id)),
    journal,
    author,
    taxonomyId: taxon.taxonomy_id,
    indicationRoot: indication.indication_id,
    indicationLeafName: leaf.name,
    strIds: strs.map((s) => s.str_id),
    selected: { activity: await pickIds('act_id'), assay: await pickIds('assay_id'), reference: await pickIds('ref_id') },
    structure: named,
    refIdWithPatentCountry: country,
    ruleOfFive:
      's.mol_weight BETWEEN 0 AND 500 AND s.hb_donors BETWEEN 0 AND 5 AND s.hb_acceptor BETWEEN 0 AND 10 AND s.logp_calc BETWEEN 0 AND 5',
  };
}

/** The demo catalogue's kinases (family Kinase) and the targets named "... receptor ..." or in a receptor family. */
const KINASES = ['EGFR', 'ERBB2', 'ABL1', 'JAK2', 'JAK3', 'KDR', 'MET', 'BTK', 'SRC', 'BRAF', 'CDK2', 'MAPK14', 'PIK3CA'];
const RECEPTORS = ['EGFR', 'ERBB2', 'KDR', 'MET', 'DRD2', 'HTR2A', 'ADRB2', 'ESR1', 'AR', 'PPARG'];

const indicationSubtree = (root: string) =>
  `WITH RECURSIVE sel(id) AS (${root} UNION SELECT i.indication_id FROM indications i JOIN sel ON i.parent_id = sel.id) SELECT id FROM sel`;
const drugsWithIndication = (root: string) =>
  `SELECT cci.clinical_compound_id FROM clinical_compound_indications cci WHERE cci.indication_id IN (${indicationSubtree(root)})`;
const phases123 = `(cc.highest_phase_id IN (SELECT phase_id FROM clinical_phases WHERE name IN ('Launched', 'Phase III', 'Phase II'))
  OR cc.status_id IN (SELECT status_id FROM clinical_statuses WHERE name IN ('Launched', 'Phase III', 'Phase II')))`;
const classSubtree = (root: number) =>
  `WITH RECURSIVE sel(id) AS (SELECT ${root} UNION SELECT c.class_id FROM target_classes c JOIN sel ON c.parent_id = sel.id) SELECT id FROM sel`;
const launched = `(cc.highest_phase_id IN (SELECT phase_id FROM clinical_phases WHERE name = 'Launched')
  OR cc.status_id IN (SELECT status_id FROM clinical_statuses WHERE name = 'Launched'))`;
const phase2orWithdrawn = `(cc.highest_phase_id IN (SELECT phase_id FROM clinical_phases WHERE name IN ('Phase II', 'Withdrawn'))
  OR cc.status_id IN (SELECT status_id FROM clinical_statuses WHERE name IN ('Phase II', 'Withdrawn')))`;

function cases(f: Fixture): Case[] {
  const egfr = `a.target_id = ${f.egfr}`;
  const brd4 = `a.target_id = ${f.brd4}`;
  const drugTargets = (ids: number[]) =>
    `SELECT cc.str_id FROM clinical_compounds cc JOIN clinical_compound_targets cct USING (clinical_compound_id) WHERE cct.target_id IN (${ids.join(',')}) AND cc.str_id IS NOT NULL`;
  const target = (ids: number[], extra: Partial<SearchRowInput> = {}): SearchRowInput =>
    ({ selectedOption: 'target', targets: ids.map((id) => ({ label: `target ${id}`, ids: [id] })), ...extra }) as SearchRowInput;
  // A term as typed in the "Any field" box, and targets named by gene symbol for the expected SQL.
  const text = (label: string): SearchRowInput => ({
    selectedOption: 'target',
    targets: [{ label, targetCategories: ['name', 'uniprot', 'gene', 'entrez', 'pdb'] }],
  });
  const genes = (symbols: string[]) => `SELECT target_id FROM targets WHERE gene_symbol IN (${symbols.map((g) => `'${g}'`).join(', ')})`;
  const byGenes = (symbols: string[]) => `a.target_id IN (${genes(symbols)})`;
  const drugGenes = (symbols: string[]) =>
    `SELECT cc.str_id FROM clinical_compounds cc JOIN clinical_compound_targets cct USING (clinical_compound_id) WHERE cct.target_id IN (${genes(symbols)}) AND cc.str_id IS NOT NULL`;
  const ic50Below1uM = `lower(a.std_activity_type) = 'ic50' AND a.micro_molarvalue IS NOT NULL AND a.micro_molarvalue < 1 AND coalesce(a.std_act_prefix, '=') NOT IN ('>', '>=')`;
  const binding = `ay.assay_type = 'binding'`;
  const bivalent = `a.degrader = 'bivalent'`;
  const inhibitor = `lower(a.activity_mechanism) = 'inhibitor'`;
  // Development compounds whose mechanism of action (drug_mechanism) is an inhibition count too.
  const inhibitorDrugs = `SELECT cc.str_id FROM clinical_compounds cc JOIN clinical_compound_targets cct USING (clinical_compound_id) WHERE lower(cct.action_type) = 'inhibitor' AND cc.str_id IS NOT NULL`;
  const companyRefs = `a.ref_id IN (SELECT ref_id FROM document_companies WHERE company_id = ${f.companyId})`;
  const companyDrugs = `SELECT cc.str_id FROM clinical_compounds cc JOIN clinical_compound_companies ccc USING (clinical_compound_id) WHERE ccc.company_id = ${f.companyId} AND cc.str_id IS NOT NULL`;
  const firstStrs = f.strIds.slice(0, 10);
  const inList = (ids: number[]) => `(${ids.join(',')})`;
  const launchedStrs = `SELECT cc.str_id FROM clinical_compounds cc WHERE ${launched} AND cc.str_id IS NOT NULL`;
  const bivalentCategoryStrs = `SELECT str_id FROM compounds WHERE compound_category = 'bivalent degrader'`;
  const taxa = `WITH RECURSIVE sel(id) AS (SELECT ${f.taxonomyId} UNION SELECT t.taxonomy_id FROM taxonomy t JOIN sel ON t.parent_id = sel.id) SELECT id FROM sel`;
  const indicationRootSql = `SELECT ${f.indicationRoot}`;
  const leafRootSql = `SELECT indication_id FROM indications WHERE lower(name) = lower('${f.indicationLeafName.replace(/'/g, "''")}')`;
  const single = (name: string, row: SearchRowInput, where: string, extraStructures?: string): Case => ({
    name,
    rows: [row],
    activities: where,
    structures: extraStructures ? `${strOf(where)} UNION ${extraStructures}` : strOf(where),
  });

  return [
    // ---------------------------------------------------------------- single rows
    single('target by id', target([f.egfr]), egfr, drugTargets([f.egfr])),
    single(
      'target by gene symbol label',
      { selectedOption: 'target', targets: [{ label: 'egfr', targetCategories: ['gene'] }] },
      egfr,
      drugTargets([f.egfr]),
    ),
    single(
      'target by UniProt label',
      { selectedOption: 'target', targets: [{ label: 'P00533', targetCategories: ['uniprot'] }] },
      egfr,
      drugTargets([f.egfr]),
    ),
    single(
      'target by name label',
      { selectedOption: 'target', targets: [{ label: 'Epidermal growth factor receptor', targetCategories: ['name'] }] },
      egfr,
      drugTargets([f.egfr]),
    ),
    single('two target terms with |', target([f.egfr, f.brd4]), `(${egfr} OR ${brd4})`, drugTargets([f.egfr, f.brd4])),
    // Target text and families (docs/search-semantics.md): the expected targets are listed by hand from the demo catalogue.
    single(
      'target text "JAK" as typed: gene symbols starting with it',
      text('JAK'),
      byGenes(['JAK2', 'JAK3']),
      drugGenes(['JAK2', 'JAK3']),
    ),
    single('target pattern "cdk?" (one character)', text('cdk?'), byGenes(['CDK2']), drugGenes(['CDK2'])),
    single('target pattern "JAK*" in gene symbols and name words', text('JAK*'), byGenes(['JAK2', 'JAK3']), drugGenes(['JAK2', 'JAK3'])),
    single('target text "Kinase": the Kinase family and everything under it', text('Kinase'), byGenes(KINASES), drugGenes(KINASES)),
    single(
      'target text "receptor": names with the whole word, and receptor families',
      text('receptor'),
      byGenes(RECEPTORS),
      drugGenes(RECEPTORS),
    ),
    single(
      'target family picked by class id (Nuclear receptor)',
      { selectedOption: 'target', targets: [{ label: 'Nuclear receptor', classIds: [f.nuclearReceptorClass] }] },
      byGenes(['ESR1', 'AR', 'PPARG']),
      drugGenes(['ESR1', 'AR', 'PPARG']),
    ),
    single('target identifier "AR" means the gene AR only', text('AR'), byGenes(['AR']), drugGenes(['AR'])),
    single(
      'target UniProt pattern "P005*"',
      { selectedOption: 'target', targets: [{ label: 'P005*', targetCategories: ['uniprot'] }] },
      byGenes(['EGFR', 'ABL1']),
      drugGenes(['EGFR', 'ABL1']),
    ),
    single(
      'activity type only',
      { selectedOption: 'activitytypes', activities: [{ activityType: 'Ki' }] },
      `lower(a.std_activity_type) = 'ki'`,
    ),
    single(
      'IC50 < 1 uM',
      { selectedOption: 'activitytypes', activities: [{ activityType: 'IC50', activityUom: 'uM', prefix: '<', minValue: 1 }] },
      ic50Below1uM,
    ),
    single(
      'IC50 range 10-100 nM',
      {
        selectedOption: 'activitytypes',
        activities: [{ activityType: 'IC50', activityUom: 'nM', prefix: 'R', minValue: 10, maxValue: 100 }],
      },
      `lower(a.std_activity_type) = 'ic50' AND a.micro_molarvalue IS NOT NULL AND a.micro_molarvalue BETWEEN 0.01 AND 0.1 AND coalesce(a.std_act_prefix, '=') = '='`,
    ),
    single(
      'Ki >= 1000 nM',
      { selectedOption: 'activitytypes', activities: [{ activityType: 'Ki', activityUom: 'nM', prefix: '>=', minValue: 1000 }] },
      `lower(a.std_activity_type) = 'ki' AND a.micro_molarvalue IS NOT NULL AND a.micro_molarvalue >= 1 AND coalesce(a.std_act_prefix, '=') NOT IN ('<', '<=')`,
    ),
    single(
      'non-concentration unit: Inhibition > 50 %',
      { selectedOption: 'activitytypes', activities: [{ activityType: 'Inhibition', activityUom: '%', prefix: '>', minValue: 50 }] },
      `lower(a.std_activity_type) = 'inhibition' AND a.standard_uom = '%' AND a.activity_value > 50 AND coalesce(a.std_act_prefix, '=') NOT IN ('<', '<=')`,
    ),
    single(
      'two activity terms are alternatives',
      {
        selectedOption: 'activitytypes',
        activities: [{ activityType: 'Kd' }, { activityType: 'EC50', activityUom: 'nM', prefix: '<=', minValue: 100 }],
      },
      `(lower(a.std_activity_type) = 'kd' OR (lower(a.std_activity_type) = 'ec50' AND a.micro_molarvalue IS NOT NULL AND a.micro_molarvalue <= 0.1 AND coalesce(a.std_act_prefix, '=') NOT IN ('>', '>=')))`,
    ),
    single('assay type binding', { selectedOption: 'assay', assayTypes: ['binding'] }, binding),
    single(
      'assay type and method',
      { selectedOption: 'assay', assayTypes: ['toxicity'], methodNames: ['CellTiter-Glo'] },
      `ay.assay_type = 'toxicity' AND lower(ay.assay_method_name) = 'celltiter-glo'`,
    ),
    single('degrader bivalent', { selectedOption: 'degrader', degraderTypes: ['bivalent'] }, bivalent),
    single(
      'degrader monovalent with CRBN',
      { selectedOption: 'degrader', degraderTypes: ['monovalent'], ligases: ['CRBN'] },
      `a.degrader = 'monovalent' AND a.ligase_name = 'CRBN'`,
    ),
    single('activity mechanism', { selectedOption: 'activitymechanism', mechanisms: ['Inhibitor'] }, inhibitor, inhibitorDrugs),
    single('company', { selectedOption: 'company', companyIds: [f.companyId] }, companyRefs, companyDrugs),
    single('company by name', { selectedOption: 'company', companyNames: [f.companyName.toUpperCase()] }, companyRefs, companyDrugs),
    single(
      'PubMed ids',
      { selectedOption: 'bibliography', pubmedIds: f.pubmedIds },
      `a.ref_id IN (SELECT ref_id FROM documents WHERE pubmed_id IN ${inList(f.pubmedIds)})`,
      `SELECT str_id FROM compounds WHERE ref_id IN (SELECT ref_id FROM documents WHERE pubmed_id IN ${inList(f.pubmedIds)}) AND str_id IS NOT NULL`,
    ),
    single(
      'year range',
      { selectedOption: 'bibliography', yearRange: { fromYear: 2015, toYear: 2018 } },
      `a.ref_id IN (SELECT ref_id FROM documents WHERE year BETWEEN 2015 AND 2018)`,
      `SELECT str_id FROM compounds WHERE ref_id IN (SELECT ref_id FROM documents WHERE year BETWEEN 2015 AND 2018) AND str_id IS NOT NULL`,
    ),
    single(
      'patents of one country',
      { selectedOption: 'bibliography', patents: [{ countryCode: f.refIdWithPatentCountry }] },
      `a.ref_id IN (SELECT ref_id FROM documents WHERE ref_type = 'patent' AND country_code = '${f.refIdWithPatentCountry}')`,
      `SELECT str_id FROM compounds WHERE ref_id IN (SELECT ref_id FROM documents WHERE ref_type = 'patent' AND country_code = '${f.refIdWithPatentCountry}') AND str_id IS NOT NULL`,
    ),
    single(
      'journal and year',
      { selectedOption: 'bibliography', journals: [{ journalName: f.journal.name, year: f.journal.year }] },
      `a.ref_id IN (SELECT ref_id FROM documents WHERE ref_type <> 'patent' AND journal_patent_name = '${f.journal.name}' AND year = ${f.journal.year})`,
      `SELECT str_id FROM compounds WHERE ref_id IN (SELECT ref_id FROM documents WHERE ref_type <> 'patent' AND journal_patent_name = '${f.journal.name}' AND year = ${f.journal.year}) AND str_id IS NOT NULL`,
    ),
    single(
      'author',
      { selectedOption: 'bibliography', authors: [f.author] },
      `a.ref_id IN (SELECT ref_id FROM document_authors WHERE name = '${f.author.replace(/'/g, "''")}')`,
      `SELECT str_id FROM compounds WHERE ref_id IN (SELECT ref_id FROM document_authors WHERE name = '${f.author.replace(/'/g, "''")}') AND str_id IS NOT NULL`,
    ),
    single(
      'patents only (source P)',
      { selectedOption: 'bibliography', sources: ['P'] },
      `a.ref_id IN (SELECT ref_id FROM documents WHERE ref_type = 'patent')`,
      `SELECT str_id FROM compounds WHERE ref_id IN (SELECT ref_id FROM documents WHERE ref_type = 'patent') AND str_id IS NOT NULL`,
    ),
    single('source with its strains', { selectedOption: 'source', taxonomyIds: [f.taxonomyId] }, `ay.taxonomy_id IN (${taxa})`),
    single(
      'selected activities',
      { selectedOption: 'selection', entity: 'activity', ids: f.selected.activity },
      `a.act_id IN ${inList(f.selected.activity)}`,
    ),
    single(
      'selected assays',
      { selectedOption: 'selection', entity: 'assay', ids: f.selected.assay },
      `a.assay_id IN ${inList(f.selected.assay)}`,
    ),
    single(
      'selected references',
      { selectedOption: 'selection', entity: 'reference', ids: f.selected.reference },
      `a.ref_id IN ${inList(f.selected.reference)}`,
      `SELECT str_id FROM compounds WHERE ref_id IN ${inList(f.selected.reference)} AND str_id IS NOT NULL`,
    ),
    // ---------------------------------------------------------------- structure-level rows
    {
      name: 'structure ids',
      rows: [{ selectedOption: 'structure', strIds: firstStrs }],
      structures: `SELECT str_id FROM structures WHERE str_id IN ${inList(firstStrs)}`,
      activities: `a.str_id IN ${inList(firstStrs)}`,
      activityRows: false,
    },
    {
      name: 'Rule of 5 properties',
      rows: [
        {
          selectedOption: 'structure',
          properties: { molmin: 0, molmax: 500, hbdmin: 0, hbdmax: 5, hbamin: 0, hbamax: 10, logpmin: 0, logpmax: 5 },
        },
      ],
      structures: `SELECT s.str_id FROM structures s WHERE ${f.ruleOfFive}`,
      activities: `a.str_id IN (SELECT s.str_id FROM structures s WHERE ${f.ruleOfFive})`,
      activityRows: false,
    },
    {
      name: 'properties within structure ids, fractional bounds on counts (PSA, donors 0.5 to 3.5)',
      rows: [{ selectedOption: 'structure', strIds: firstStrs, properties: { psamin: 20.5, hbdmin: 0.5, hbdmax: 3.5 } }],
      structures: `SELECT s.str_id FROM structures s WHERE s.str_id IN ${inList(firstStrs)} AND s.psa >= 20.5 AND s.hb_donors BETWEEN 1 AND 3`,
      activities: `a.str_id IN (SELECT s.str_id FROM structures s WHERE s.str_id IN ${inList(firstStrs)} AND s.psa >= 20.5 AND s.hb_donors BETWEEN 1 AND 3)`,
      activityRows: false,
    },
    {
      name: 'a bound no count can meet (donors above 40,000) matches nothing',
      rows: [{ selectedOption: 'structure', properties: { molmin: 100, hbdmin: 40_000 } }],
      structures: `SELECT str_id FROM structures WHERE FALSE`,
      activities: `FALSE`,
      activityRows: false,
    },
    {
      name: 'structure by name (exact)',
      rows: [{ selectedOption: 'structure', structure: { inputType: 'name', value: f.structure.name.toLowerCase(), category: 'exact' } }],
      structures: `SELECT str_id FROM compounds WHERE lower(name) = lower('${f.structure.name}') UNION SELECT c.str_id FROM compound_synonyms cs JOIN compounds c USING (gvk_id) WHERE lower(cs.synonym) = lower('${f.structure.name}')`,
      activities: `a.str_id IN (SELECT str_id FROM compounds WHERE lower(name) = lower('${f.structure.name}') UNION SELECT c.str_id FROM compound_synonyms cs JOIN compounds c USING (gvk_id) WHERE lower(cs.synonym) = lower('${f.structure.name}'))`,
      activityRows: false,
    },
    {
      name: 'structure by InChIKey',
      rows: [{ selectedOption: 'structure', structure: { inputType: 'inchikey', value: f.structure.inchikey, category: 'exact' } }],
      structures: `SELECT str_id FROM structures WHERE inchikey = '${f.structure.inchikey}'`,
      activities: `a.str_id IN (SELECT str_id FROM structures WHERE inchikey = '${f.structure.inchikey}')`,
      activityRows: false,
    },
    {
      name: 'structure by InChIKey skeleton (first block)',
      rows: [
        { selectedOption: 'structure', structure: { inputType: 'inchikey', value: f.structure.inchikey.slice(0, 14), category: 'exact' } },
      ],
      structures: `SELECT str_id FROM structures WHERE inchikey LIKE '${f.structure.inchikey.slice(0, 14)}-%'`,
      activities: `a.str_id IN (SELECT str_id FROM structures WHERE inchikey LIKE '${f.structure.inchikey.slice(0, 14)}-%')`,
      activityRows: false,
    },
    {
      name: 'structure by InChIKey, substructure (the default): same skeleton',
      rows: [{ selectedOption: 'structure', structure: { inputType: 'inchikey', value: f.structure.inchikey, category: 'substructure' } }],
      structures: `SELECT str_id FROM structures WHERE inchikey LIKE '${f.structure.inchikey.slice(0, 14)}-%'`,
      activities: `a.str_id IN (SELECT str_id FROM structures WHERE inchikey LIKE '${f.structure.inchikey.slice(0, 14)}-%')`,
      activityRows: false,
    },
    {
      name: 'structure by exact SMILES (RDKit canonical) with a salt removed',
      rows: [
        {
          selectedOption: 'structure',
          structure: { inputType: 'smiles', value: `${f.structure.smiles}.Cl`, category: 'exact', feature: 'desalted' },
        },
      ],
      structures: `SELECT ${f.structure.str_id} AS str_id`,
      activities: `a.str_id = ${f.structure.str_id}`,
      activityRows: false,
    },
    {
      name: 'compound category',
      rows: [{ selectedOption: 'compoundcategories', categories: ['Bivalent degrader'] }],
      structures: bivalentCategoryStrs,
      activities: `a.str_id IN (${bivalentCategoryStrs})`,
      activityRows: false,
    },
    {
      name: 'clinical phase Launched',
      rows: [{ selectedOption: 'clinicalphase', phases: ['Launched'] }],
      structures: launchedStrs,
      activities: `a.str_id IN (${launchedStrs})`,
      clinical: launched,
      activityRows: false,
    },
    {
      name: 'clinical phase II or Withdrawn',
      rows: [{ selectedOption: 'clinicalphase', phases: ['Phase II', 'Withdrawn'] }],
      structures: `SELECT cc.str_id FROM clinical_compounds cc WHERE ${phase2orWithdrawn}`,
      activities: `a.str_id IN (SELECT cc.str_id FROM clinical_compounds cc WHERE ${phase2orWithdrawn})`,
      clinical: phase2orWithdrawn,
      activityRows: false,
    },
    {
      name: 'indication with its subtree',
      rows: [{ selectedOption: 'indication', indicationIds: [f.indicationRoot] }],
      structures: `SELECT cc.str_id FROM clinical_compounds cc WHERE cc.clinical_compound_id IN (${drugsWithIndication(indicationRootSql)})`,
      activities: `a.str_id IN (SELECT cc.str_id FROM clinical_compounds cc WHERE cc.clinical_compound_id IN (${drugsWithIndication(indicationRootSql)}))`,
      clinical: `cc.clinical_compound_id IN (${drugsWithIndication(indicationRootSql)})`,
      activityRows: false,
    },
    {
      name: 'indication by name',
      rows: [{ selectedOption: 'indication', indicationNames: [f.indicationLeafName] }],
      structures: `SELECT cc.str_id FROM clinical_compounds cc WHERE cc.clinical_compound_id IN (${drugsWithIndication(leafRootSql)})`,
      activities: `a.str_id IN (SELECT cc.str_id FROM clinical_compounds cc WHERE cc.clinical_compound_id IN (${drugsWithIndication(leafRootSql)}))`,
      clinical: `cc.clinical_compound_id IN (${drugsWithIndication(leafRootSql)})`,
      activityRows: false,
    },
    // ---------------------------------------------------------------- operators
    {
      name: 'target AND activity value: the same activity',
      rows: [
        target([f.egfr]),
        { selectedOption: 'activitytypes', activities: [{ activityType: 'IC50', activityUom: 'uM', prefix: '<', minValue: 1 }] },
      ],
      structures: strOf(`${egfr} AND ${ic50Below1uM}`),
      activities: `${egfr} AND ${ic50Below1uM}`,
    },
    {
      name: 'target OR target (two rows)',
      rows: [target([f.egfr], { operator: 'OR' }), target([f.brd4])],
      structures: `${strOf(`${egfr} OR ${brd4}`)} UNION ${drugTargets([f.egfr])} UNION ${drugTargets([f.brd4])}`,
      activities: `${egfr} OR ${brd4}`,
    },
    {
      name: 'target NOT mechanism: structures never reported as inhibitors',
      rows: [target([f.egfr], { operator: 'NOT' }), { selectedOption: 'activitymechanism', mechanisms: ['INHIBITOR'] }],
      structures: `SELECT s.str_id FROM structures s WHERE s.str_id IN (${strOf(egfr)} UNION ${drugTargets([f.egfr])})
        AND s.str_id NOT IN (${strOf(inhibitor)} UNION ${inhibitorDrugs})
        AND (s.str_id IN (${strOf(`${egfr} AND NOT coalesce(${inhibitor}, false)`)}) OR s.str_id IN (${drugTargets([f.egfr])}))`,
      activities: `${egfr} AND NOT coalesce(${inhibitor}, false)`,
    },
    {
      name: 'target NOT properties: BRD4 structures outside a weight and cLogP range',
      rows: [target([f.brd4], { operator: 'NOT' }), { selectedOption: 'structure', properties: { molmin: 300, logpmax: 3 } }],
      structures: `SELECT s.str_id FROM structures s WHERE s.str_id IN (${strOf(brd4)} UNION ${drugTargets([f.brd4])})
        AND NOT coalesce(s.mol_weight >= 300 AND s.logp_calc <= 3, false)`,
      activities: `${brd4} AND a.str_id NOT IN (SELECT str_id FROM structures WHERE mol_weight >= 300 AND logp_calc <= 3)`,
    },
    {
      name: 'properties AND target',
      rows: [{ selectedOption: 'structure', properties: { molmin: 300, molmax: 450 } }, target([f.brd4])],
      // Development compounds acting on BRD4 in the weight range count without an activity.
      structures:
        strOf(`${brd4} AND a.str_id IN (SELECT str_id FROM structures WHERE mol_weight BETWEEN 300 AND 450)`) +
        ` UNION SELECT s.str_id FROM structures s WHERE s.mol_weight BETWEEN 300 AND 450 AND s.str_id IN (${drugTargets([f.brd4])})`,
      activities: `${brd4} AND a.str_id IN (SELECT str_id FROM structures WHERE mol_weight BETWEEN 300 AND 450)`,
    },
    {
      name: 'structure ids NOT target',
      rows: [{ selectedOption: 'structure', strIds: f.strIds, operator: 'NOT' }, target(f.kinaseClassTargets)],
      structures: `SELECT str_id FROM structures WHERE str_id IN ${inList(f.strIds)}
        AND str_id NOT IN (${strOf(`a.target_id IN ${inList(f.kinaseClassTargets)}`)} UNION ${drugTargets(f.kinaseClassTargets)})`,
      activities: `a.str_id IN ${inList(f.strIds)} AND NOT coalesce(a.target_id IN ${inList(f.kinaseClassTargets)}, false)`,
    },
    {
      name: 'clinical phase AND target',
      rows: [{ selectedOption: 'clinicalphase', phases: ['Launched', 'Phase III', 'Phase II'] }, target(f.kinaseClassTargets)],
      structures: `${strOf(`a.target_id IN ${inList(f.kinaseClassTargets)} AND a.str_id IN (SELECT cc.str_id FROM clinical_compounds cc WHERE ${phases123})`)}
        UNION (SELECT cc.str_id FROM clinical_compounds cc WHERE ${phases123} INTERSECT ${drugTargets(f.kinaseClassTargets)})`,
      activities: `a.target_id IN ${inList(f.kinaseClassTargets)} AND a.str_id IN (SELECT cc.str_id FROM clinical_compounds cc WHERE ${phases123})`,
      clinical: `${phases123} AND cc.str_id IN (${strOf(`a.target_id IN ${inList(f.kinaseClassTargets)}`)} UNION ${drugTargets(f.kinaseClassTargets)})`,
    },
    {
      name: 'category OR clinical phase',
      rows: [
        { selectedOption: 'compoundcategories', categories: ['bivalent degrader'], operator: 'OR' },
        { selectedOption: 'clinicalphase', phases: ['Launched'] },
      ],
      structures: `${bivalentCategoryStrs} UNION ${launchedStrs}`,
      activities: `a.str_id IN (${bivalentCategoryStrs} UNION ${launchedStrs})`,
      clinical: `(cc.str_id IN (${bivalentCategoryStrs}) OR ${launched})`,
      activityRows: false,
    },
    {
      name: 'left to right: (target AND binding) OR bivalent',
      rows: [
        target([f.egfr]),
        { selectedOption: 'assay', assayTypes: ['binding'], operator: 'OR' },
        { selectedOption: 'degrader', degraderTypes: ['bivalent'] },
      ],
      structures: `${strOf(`(${egfr} AND ${binding}) OR ${bivalent}`)}`,
      activities: `(${egfr} AND ${binding}) OR ${bivalent}`,
    },
    {
      name: 'bibliography AND activity type',
      rows: [
        { selectedOption: 'bibliography', sources: ['J'] },
        { selectedOption: 'activitytypes', activities: [{ activityType: 'Kd' }] },
      ],
      structures: strOf(`a.ref_id IN (SELECT ref_id FROM documents WHERE ref_type = 'journal') AND lower(a.std_activity_type) = 'kd'`),
      activities: `a.ref_id IN (SELECT ref_id FROM documents WHERE ref_type = 'journal') AND lower(a.std_activity_type) = 'kd'`,
    },
    {
      name: 'company AND target',
      rows: [{ selectedOption: 'company', companyIds: [f.companyId] }, target([f.egfr, f.brd4])],
      structures: `${strOf(`${companyRefs} AND a.target_id IN (${f.egfr}, ${f.brd4})`)} UNION (${companyDrugs} INTERSECT ${drugTargets([f.egfr, f.brd4])})`,
      activities: `${companyRefs} AND a.target_id IN (${f.egfr}, ${f.brd4})`,
    },
    {
      name: 'indication NOT clinical phase',
      rows: [
        { selectedOption: 'indication', indicationIds: [f.indicationRoot], operator: 'NOT' },
        { selectedOption: 'clinicalphase', phases: ['Launched'] },
      ],
      structures: `SELECT cc.str_id FROM clinical_compounds cc WHERE cc.clinical_compound_id IN (${drugsWithIndication(indicationRootSql)})
        AND cc.str_id NOT IN (${launchedStrs})`,
      activities: `a.str_id IN (SELECT cc.str_id FROM clinical_compounds cc WHERE cc.clinical_compound_id IN (${drugsWithIndication(indicationRootSql)}) AND cc.str_id NOT IN (${launchedStrs}))`,
      clinical: `cc.clinical_compound_id IN (${drugsWithIndication(indicationRootSql)}) AND NOT coalesce((${launched}), false)`,
      activityRows: false,
    },
    {
      name: 'target tree node (class and its subtree) AND activity type',
      rows: [
        { selectedOption: 'treeview', tree: 'Target', nodeIds: [`c${f.kinaseClass}`] },
        { selectedOption: 'activitytypes', activities: [{ activityType: 'IC50' }] },
      ],
      structures: strOf(
        `a.target_id IN (SELECT target_id FROM targets WHERE class_id IN (${classSubtree(f.kinaseClass)})) AND lower(a.std_activity_type) = 'ic50'`,
      ),
      activities: `a.target_id IN (SELECT target_id FROM targets WHERE class_id IN (${classSubtree(f.kinaseClass)})) AND lower(a.std_activity_type) = 'ic50'`,
    },
    {
      name: 'indication tree node OR degrader',
      rows: [
        { selectedOption: 'treeview', tree: 'Indication', nodeIds: [`i${f.indicationRoot}`], operator: 'OR' },
        { selectedOption: 'degrader', degraderTypes: ['monovalent'] },
      ],
      structures: `SELECT cc.str_id FROM clinical_compounds cc WHERE cc.clinical_compound_id IN (${drugsWithIndication(indicationRootSql)}) UNION ${strOf(`a.degrader = 'monovalent'`)}`,
      activities: `a.str_id IN (SELECT cc.str_id FROM clinical_compounds cc WHERE cc.clinical_compound_id IN (${drugsWithIndication(indicationRootSql)})) OR a.degrader = 'monovalent'`,
      clinical: `cc.clinical_compound_id IN (${drugsWithIndication(indicationRootSql)}) OR cc.str_id IN (${strOf(`a.degrader = 'monovalent'`)})`,
    },
    {
      name: 'degrader NOT degrader: bivalent structures never tested as monovalent',
      rows: [
        { selectedOption: 'degrader', degraderTypes: ['bivalent'], operator: 'NOT' },
        { selectedOption: 'degrader', degraderTypes: ['monovalent'] },
      ],
      structures: `${strOf(bivalent)} EXCEPT ${strOf(`a.degrader = 'monovalent'`)}`,
      activities: `${bivalent} AND a.str_id NOT IN (${strOf(`a.degrader = 'monovalent'`)})`,
    },
  ];
}

/** The expected sets of a case, as CTEs over plain SQL: strs, acts, gvks, refs, ccs. */
function expectedSets(c: Case): string {
  const activityRows = c.activityRows ?? true;
  const clinical = c.clinical ?? 'TRUE';
  return `
    WITH strs AS (SELECT DISTINCT str_id FROM (${c.structures}) x WHERE str_id IS NOT NULL),
    acts AS (SELECT a.act_id, a.str_id, a.gvk_id, a.assay_id, a.ref_id, a.target_id FROM ${ACT} WHERE (${c.activities}) AND a.str_id IN (SELECT str_id FROM strs)),
    gvks AS (
      SELECT gvk_id FROM acts WHERE gvk_id IS NOT NULL AND ${activityRows}
      UNION SELECT c.gvk_id FROM compounds c JOIN strs USING (str_id)
      WHERE NOT ${activityRows} OR c.str_id NOT IN (SELECT str_id FROM acts)),
    refs AS (SELECT ref_id FROM acts WHERE ref_id IS NOT NULL UNION SELECT c.ref_id FROM compounds c JOIN gvks USING (gvk_id) WHERE c.ref_id IS NOT NULL),
    ccs AS (SELECT cc.clinical_compound_id FROM clinical_compounds cc WHERE cc.str_id IN (SELECT str_id FROM strs) AND (${clinical}))`;
}

async function expectedCounts(t: TestApp, c: Case): Promise<SearchCounts> {
  const text = `${expectedSets(c)}
    SELECT (SELECT count(*)::int FROM strs) AS stridscount,
      (SELECT count(*)::int FROM acts) AS actidscount,
      (SELECT count(*)::int FROM gvks) AS gvkidscount,
      (SELECT count(DISTINCT assay_id)::int FROM acts) AS assayidscount,
      (SELECT count(*)::int FROM refs) AS refidscount,
      (SELECT count(*)::int FROM ccs) AS clinicalcompoundidscount`;
  return (await sql.raw<SearchCounts>(text).execute(t.database.db)).rows[0]!;
}

/**
 * Rows that differ between the expected sets and those written for `setId`, per set (0 = the same
 * rows): an activity's links, and each assay's and reference's number of the search's activities.
 */
async function setDifferences(t: TestApp, c: Case, setId: number): Promise<Record<string, number>> {
  const written = (columns: string, table: string) => `SELECT ${columns} FROM ${table} WHERE set_id = ${setId}`;
  const differ = (expected: string, actual: string) =>
    `(SELECT count(*)::int FROM ((${expected} EXCEPT ${actual}) UNION ALL (${actual} EXCEPT ${expected})) d)`;
  const links = 'act_id::bigint, str_id::bigint, gvk_id::bigint, assay_id::bigint, ref_id::bigint, target_id::bigint';
  const text = `${expectedSets(c)}
    SELECT ${differ(`SELECT ${links} FROM acts`, written(links, 'search_activities'))} AS activities,
      ${differ('SELECT str_id::bigint FROM strs', written('str_id', 'search_structures'))} AS structures,
      ${differ('SELECT gvk_id::bigint FROM gvks', written('gvk_id', 'search_compounds'))} AS compounds,
      ${differ('SELECT assay_id::bigint, count(*)::int FROM acts WHERE assay_id IS NOT NULL GROUP BY 1', written('assay_id, activities', 'search_assays'))} AS assays,
      ${differ(
        'SELECT ref_id::bigint, sum(n)::int FROM (SELECT ref_id, count(*) AS n FROM acts WHERE ref_id IS NOT NULL GROUP BY 1 UNION ALL SELECT ref_id, 0 FROM refs) x GROUP BY 1',
        written('ref_id, activities', 'search_references'),
      )} AS refs,
      ${differ('SELECT clinical_compound_id::bigint FROM ccs', written('clinical_compound_id', 'search_clinical_compounds'))} AS clinical`;
  return (await sql.raw<Record<string, number>>(text).execute(t.database.db)).rows[0]!;
}

/**
 * The corpus three times: as a search session's counts with the sets written in SQL
 * (SEARCH_BITMAPS=0), as the count-only call with the bitmap engine (issue 18), which writes
 * nothing, and as the search page's run with the bitmap engine (counts answered from memory, the
 * sets held in memory and written from the same bitmaps when a filter first joins them); all must
 * agree exactly, and so must the written sets.
 */
const PATHS = [
  { path: 'search sets', env: { SEARCH_BITMAPS: '0' } },
  // The count call's answer has five counts; the service's has all six.
  { path: 'bitmap counts', env: { SEARCH_BITMAPS: '1' } },
  { path: 'search page on bitmaps', env: { SEARCH_BITMAPS: '1' } },
] as const;
const VARIANTS = DATABASES.flatMap((kind) => PATHS.map((p) => [kind, p.path, p] as const));

describe.each(VARIANTS)('guided search corpus on %s, %s', (kind, _path, variant) => {
  let t: TestApp;
  let login: LoginResult;
  let fixture: Fixture;
  beforeAll(async () => {
    t = await startTestApp(kind, variant.env, { demoChunks: 2 });
    login = await t.login(demoEmailForRole('FULL_USER'));
    fixture = await loadFixture(t);
  }, 120_000);
  afterAll(() => t.close());

  /** The case's counts, and the set id its session wrote (null for the count-only call). */
  const count = async (rows: SearchRowInput[]): Promise<{ counts: SearchCounts; setId: number | null }> => {
    const criteria: SearchCriteriaInput = { rows };
    if (variant.path === 'bitmap counts') {
      // Columns read first: without them the count would be answered on the SQL path (checked below).
      await t.app.services.search.bitmapsReady();
      return { counts: await t.app.services.search.countOnly(SearchCriteriaSchema.parse(criteria)), setId: null };
    }
    if (variant.path === 'search page on bitmaps') await t.app.services.search.bitmapsReady();
    const res = await t.call({
      method: 'POST',
      url: '/api/guidedsearch/allresultscount',
      headers: authHeaders(login),
      payload: { searchcriteria: criteria, sessionid: crypto.randomUUID() },
      // The early answer as the web gets it: the results call below has to wait for the sets.
      settleSearches: false,
    });
    if (res.statusCode !== 200) throw new Error(`${res.statusCode} ${res.body}`);
    const counts = (res.data.rows as SearchCounts[])[0]!;
    const sessionid = (res.data as { sessionid: string }).sessionid;
    if (variant.path === 'search page on bitmaps') {
      // Answered before the sets were written: the results wait for them and hold the same rows.
      const page = await t.call({
        method: 'POST',
        url: '/api/results/activitiestab',
        headers: authHeaders(login),
        payload: { sessionid, pageNumber: 0, pageSize: 10 },
      });
      // 204: a tab without rows (spec §4).
      if (page.statusCode !== 200 && !(page.statusCode === 204 && counts.actidscount === 0))
        throw new Error(`results: ${page.statusCode} ${page.body}`);
      expect(page.statusCode === 204 ? 0 : (page.data as { rowCount: number }).rowCount).toBe(counts.actidscount);
      // The page came from the sets held in memory (SEARCH_SETS=memory); the checks below read the
      // set tables, so they are written now, from the same bitmaps, as a reader needing them would.
      await t.app.services.results.session(callerOf(login), sessionid);
    }
    await t.app.services.search.settled(sessionid);
    const session = await t.database.db
      .selectFrom('search_sessions')
      .select('set_id')
      .where('id', '=', sessionid)
      .executeTakeFirstOrThrow();
    return { counts, setId: Number(session.set_id) };
  };

  it('has at least 40 cases covering every row type and every operator', () => {
    const all = cases(fixture);
    expect(all.length).toBeGreaterThanOrEqual(40);
    const options = new Set(all.flatMap((c) => c.rows.map((r) => r.selectedOption)));
    for (const option of [
      'treeview',
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
      'selection',
    ]) {
      expect(options, option).toContain(option);
    }
    const operators = new Set(all.flatMap((c) => c.rows.slice(0, -1).map((r) => r.operator ?? 'AND')));
    expect([...operators].sort()).toEqual(['AND', 'NOT', 'OR']);
  });

  it('answers each case with the counts plain SQL gives, writes the sets it gives, and most cases match something', async () => {
    let nonEmpty = 0;
    const same = { activities: 0, structures: 0, compounds: 0, assays: 0, refs: 0, clinical: 0 };
    for (const c of cases(fixture)) {
      const [{ counts: actual, setId }, expected] = await Promise.all([
        count(c.rows),
        expectedCounts(t, c).catch((error: unknown) => {
          throw new Error(`expected SQL of "${c.name}" failed: ${String(error)}`);
        }),
      ]);
      expect.soft(actual, c.name).toEqual(expected);
      if (setId !== null) expect.soft(await setDifferences(t, c, setId), c.name).toEqual(same);
      if (actual.stridscount > 0) nonEmpty++;
    }
    // A corpus of empty answers would prove nothing.
    expect(nonEmpty).toBeGreaterThanOrEqual(38);
    // Every bitmap-path case was counted by the bitmap engine, none fell back to SQL.
    if (variant.path === 'bitmap counts')
      expect(t.app.services.search.countPaths).toEqual({ bitmaps: cases(fixture).length, sql: 0, early: 0 });
    // The search page's runs answered their counts from the bitmaps before writing the sets.
    // (and wrote their sets from them); with SEARCH_BITMAPS=0 every set was written in SQL.
    if (variant.path === 'search page on bitmaps') expect(t.app.services.search.countPaths.early).toBe(cases(fixture).length);
    if (variant.path === 'search sets') expect(t.app.services.search.countPaths.early).toBe(0);
  }, 300_000);
});
