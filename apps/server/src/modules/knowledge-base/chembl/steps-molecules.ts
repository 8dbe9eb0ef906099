import type { ComputedStructure } from '../chem/chem-pool.ts';
import { insertBatched } from '../bulk.ts';
import { assaysByChemblId, compoundsByMolregno, documentsByChemblId, structuresByCanonical } from './lookups.ts';
import { compoundCategory, toMicromolar } from './mapping.ts';
import { hasColumn, hasTable, int, num, selectList, str } from './sqlite-source.ts';
import type { ChemblFile, SqlRow } from './sqlite-source.ts';
import { add, insertNew, keysOf, keysetStep, skip, tablesPresent } from './step.ts';
import type { Db, ImportContext, Loader, Step, StepReport } from './step.ts';

/** Where a molecule's structure comes from: its own row, or (salts, mixtures) its parent's. */
interface StructureInput {
  text: string;
  origin: 'own' | 'parent';
  inchi: string | null;
  inchikey: string | null;
}

/** A molfile keeps its leading blank lines: they are the header block (str() would trim them). */
function molfile(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

function structureInput(r: SqlRow): StructureInput | null {
  const own = str(r.canonical_smiles) ?? molfile(r.molfile);
  if (own) return { text: own, origin: 'own', inchi: str(r.standard_inchi), inchikey: str(r.standard_inchi_key) };
  const parent = str(r.parent_smiles) ?? molfile(r.parent_molfile);
  return parent ? { text: parent, origin: 'parent', inchi: null, inchikey: null } : null;
}

/** "InChI=1S/C9H8O4/c..." -> "C9H8O4" (as the RDKit worker does for its own InChI). */
function formulaFromInchi(inchi: string | null): string | null {
  const layer = inchi?.split('/')[1];
  return layer && /^[A-Z]/.test(layer) ? layer : null;
}

/** The structures row: RDKit canonical form and properties; InChI from the release when it has one. */
function structureRow(input: StructureInput, computed: ComputedStructure) {
  const inchi = input.inchi ?? computed.inchi;
  return {
    ...computed,
    // A molfile is not a SMILES: keep RDKit's SMILES as the "as given" form then.
    smiles: input.text.includes('\n') ? computed.canonical_smiles : input.text,
    inchi,
    inchikey: input.inchikey ?? computed.inchikey,
    mol_formula: computed.mol_formula ?? formulaFromInchi(inchi),
  };
}

/** The union of molregnos of compound_structures and molecule_dictionary, keyset-paged. */
function moleculesQuery(file: ChemblFile, missing: string[]) {
  const keyTables = tablesPresent(file, ['compound_structures', 'molecule_dictionary']);
  const keys = keyTables.map((t) => `SELECT molregno FROM ${t} WHERE molregno > ?`).join(' UNION ');
  const hasCs = hasTable(file, 'compound_structures');
  const hasMh = hasCs && hasTable(file, 'molecule_hierarchy');
  const molfile = (alias: string) =>
    !hasColumn(file, 'compound_structures', 'molfile') ? 'NULL' :
      hasColumn(file, 'compound_structures', 'canonical_smiles') ? `CASE WHEN ${alias}.canonical_smiles IS NULL THEN ${alias}.molfile END` : `${alias}.molfile`;
  const md = hasTable(file, 'molecule_dictionary');
  const select = [
    'k.molregno AS molregno',
    md ? selectList(file, 'molecule_dictionary', 'md', ['chembl_id', 'pref_name', 'molecule_type', 'natural_product'], missing)
      : 'NULL AS chembl_id, NULL AS pref_name, NULL AS molecule_type, NULL AS natural_product',
    hasCs ? selectList(file, 'compound_structures', 'cs', ['canonical_smiles', 'standard_inchi', 'standard_inchi_key'], missing)
      : 'NULL AS canonical_smiles, NULL AS standard_inchi, NULL AS standard_inchi_key',
    `${hasCs ? molfile('cs') : 'NULL'} AS molfile`,
    hasMh ? `mh.parent_molregno AS parent_molregno, pcs.canonical_smiles AS parent_smiles, ${molfile('pcs')} AS parent_molfile`
      : 'NULL AS parent_molregno, NULL AS parent_smiles, NULL AS parent_molfile',
  ].join(', ');
  if (!hasMh) missing.push('molecule_hierarchy (whole table: salts without a structure stay without one)');
  const joins = [
    md ? 'LEFT JOIN molecule_dictionary md ON md.molregno = k.molregno' : '',
    hasCs ? 'LEFT JOIN compound_structures cs ON cs.molregno = k.molregno' : '',
    hasMh ? 'LEFT JOIN molecule_hierarchy mh ON mh.molregno = k.molregno AND mh.parent_molregno <> k.molregno ' +
      'LEFT JOIN compound_structures pcs ON pcs.molregno = mh.parent_molregno' : '',
  ].join(' ');
  return {
    sql: `SELECT ${select} FROM (${keys} ORDER BY 1 LIMIT ?) k ${joins} ORDER BY k.molregno`,
    keyParams: keyTables.length,
    countSql: `SELECT count(*) FROM (${keyTables.map((t) => `SELECT molregno FROM ${t}`).join(' UNION ')})`,
  };
}

async function prepareMolecules(ctx: ImportContext, report: StepReport, rows: SqlRow[]): Promise<Loader> {
  const inputs = rows.map(structureInput);
  const texts = inputs.filter((i): i is StructureInput => i !== null).map((i) => i.text);
  // Real releases carry standard InChIs: RDKit's InChI (a quarter of the time) only when one is missing.
  const needInchi = inputs.some((i) => i !== null && i.inchi === null);
  const computed = await ctx.pool.compute(texts, { inchi: needInchi });
  let next = 0;
  const results = inputs.map((input) => (input === null ? null : { input, computed: computed[next++] ?? null }));
  return (trx) => loadMolecules(trx, ctx, report, rows, results);
}

type MoleculeResult = { input: StructureInput; computed: ComputedStructure | null } | null;

async function loadMolecules(trx: Db, ctx: ImportContext, report: StepReport, rows: SqlRow[], results: MoleculeResult[]): Promise<void> {
  const structures = new Map<string, ReturnType<typeof structureRow>>();
  for (const result of results) {
    if (result?.computed && !structures.has(result.computed.canonical_smiles)) {
      structures.set(result.computed.canonical_smiles, structureRow(result.input, result.computed));
    }
  }
  const insertedStructures = await insertBatched(trx, 'structures', [...structures.values()], { onConflictDoNothing: true });
  add(report.loaded, 'structures', insertedStructures);
  const strIds = await structuresByCanonical(trx, [...structures.keys()]);
  const compounds = rows.map((r, i) => {
    const result = results[i];
    if (!result) add(report.info, 'no structure in the release (compound kept without structure)');
    else if (!result.computed) add(report.skipped, 'unparsable structure (compound kept without structure)');
    else if (result.input.origin === 'parent') add(report.info, 'structure of the parent molecule (molecule_hierarchy)');
    return {
      str_id: result?.computed ? strIds.get(result.computed.canonical_smiles) ?? null : null,
      name: str(r.pref_name),
      compound_category: compoundCategory(r.molecule_type, r.natural_product),
      data_source_id: ctx.chemblSourceId,
      chembl_id: str(r.chembl_id),
      chembl_molregno: int(r.molregno),
    };
  });
  const parsable = results.filter((r) => r?.computed).length;
  add(report.info, 'molecule shares its structure with another molecule or an earlier run', parsable - insertedStructures);
  const insertedCompounds = await insertBatched(trx, 'compounds', compounds, { onConflictDoNothing: true });
  add(report.loaded, 'compounds', insertedCompounds);
  add(report.skipped, 'compound already imported', compounds.length - insertedCompounds);
}

/**
 * compound_structures + molecule_dictionary (+ molecule_hierarchy) -> structures + compounds. Every
 * molregno becomes a compound; its structure is RDKit-canonicalised and deduplicated.
 */
export const moleculesStep = (): Step => keysetStep({
  name: 'molecules', source: 'compound_structures, molecule_dictionary, molecule_hierarchy', target: 'structures, compounds',
  requires: [], requiresAny: ['compound_structures', 'molecule_dictionary'], key: 'molregno',
  query: (ctx, missing) => moleculesQuery(ctx.file, missing),
  prepare: prepareMolecules,
});

/** molecule_synonyms -> compound_synonyms. */
export const synonymsStep = (): Step => keysetStep({
  name: 'molecule_synonyms', source: 'molecule_synonyms', target: 'compound_synonyms', requires: ['molecule_synonyms'], key: 'molsyn_id',
  query: (ctx, missing) => ({
    sql: `SELECT ${selectList(ctx.file, 'molecule_synonyms', 's', ['molsyn_id', 'molregno', 'syn_type', 'synonyms'], missing)} ` +
      'FROM molecule_synonyms s WHERE s.molsyn_id > ? ORDER BY s.molsyn_id LIMIT ?',
    keyParams: 1,
    countSql: 'SELECT count(*) FROM molecule_synonyms',
  }),
  prepare: async (_ctx, report, rows) => async (trx) => {
    const compounds = await compoundsByMolregno(trx, keysOf(rows, 'molregno'));
    const mapped = rows.flatMap((r) => {
      const compound = compounds.get(int(r.molregno) ?? -1);
      const synonym = str(r.synonyms);
      if (!synonym) return skip(report, 'empty synonym');
      if (!compound) return skip(report, 'molecule not in the file');
      return [{ gvk_id: compound.gvk_id, synonym, syn_type: str(r.syn_type) ?? 'synonym', chembl_molsyn_id: int(r.molsyn_id) }];
    });
    const inserted = await insertBatched(trx, 'compound_synonyms', mapped, { onConflictDoNothing: true });
    add(report.loaded, 'compound_synonyms', inserted);
    add(report.skipped, 'already imported (or same synonym and type twice)', mapped.length - inserted);
  },
});

const ACTIVITY_COLUMNS = [
  'activity_id', 'assay_id', 'doc_id', 'molregno', 'standard_relation', 'standard_value', 'standard_units', 'standard_type',
  'activity_comment', 'data_validity_comment', 'pchembl_value', 'src_id', 'type', 'relation', 'value', 'units', 'text_value',
  'action_type',
] as const;

function mapActivity(ctx: ImportContext, r: SqlRow) {
  const value = num(r.standard_value);
  return {
    std_activity_type: str(r.standard_type),
    std_act_prefix: str(r.standard_relation),
    activity_value: value,
    standard_uom: str(r.standard_units),
    micro_molarvalue: toMicromolar(value, r.standard_units),
    pchembl_value: num(r.pchembl_value),
    activity_remarks: str(r.activity_comment),
    activity_mechanism: str(r.action_type),
    activity_type: str(r.type),
    activity_prefix: str(r.relation),
    activity: num(r.value),
    activity_text: str(r.text_value),
    activity_uom: str(r.units),
    data_validity_comment: str(r.data_validity_comment),
    data_source_id: ctx.sourceIds.get(int(r.src_id) ?? -1) ?? ctx.chemblSourceId,
    chembl_activity_id: int(r.activity_id),
  };
}

async function loadActivities(trx: Db, ctx: ImportContext, report: StepReport, rows: SqlRow[]): Promise<void> {
  const compounds = await compoundsByMolregno(trx, keysOf(rows, 'molregno'));
  const assays = await assaysByChemblId(trx, keysOf(rows, 'assay_id'));
  const refIds = await documentsByChemblId(trx, keysOf(rows, 'doc_id'));
  const mapped = rows.flatMap((r) => {
    const compound = compounds.get(int(r.molregno) ?? -1);
    if (!compound) return skip(report, 'molecule not in the file');
    if (compound.str_id === null) return skip(report, 'activity without structure');
    const assay = assays.get(int(r.assay_id) ?? -1);
    if (!assay) add(report.info, 'assay not in the file (activity kept without assay)');
    return [{
      ...mapActivity(ctx, r),
      str_id: compound.str_id,
      gvk_id: compound.gvk_id,
      assay_id: assay?.assay_id ?? null,
      ref_id: refIds.get(int(r.doc_id) ?? -1) ?? assay?.ref_id ?? null,
      target_id: assay?.target_id ?? null,
    }];
  });
  await insertNew(trx, report, 'activities', mapped);
}

/** activities -> activities (standard_* -> std_*, published type/relation/value/units, µM). */
export const activitiesStep = (): Step => keysetStep({
  name: 'activities', source: 'activities', target: 'activities', requires: ['activities'], key: 'activity_id',
  query: (ctx, missing) => ({
    sql: `SELECT ${selectList(ctx.file, 'activities', 'a', ACTIVITY_COLUMNS, missing)} FROM activities a WHERE a.activity_id > ? ORDER BY a.activity_id LIMIT ?`,
    keyParams: 1,
    countSql: 'SELECT count(*) FROM activities',
  }),
  prepare: async (ctx, report, rows) => (trx) => loadActivities(trx, ctx, report, rows),
});
