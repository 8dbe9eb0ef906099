import type { ComputedStructure } from '../chem/chem-pool.ts';
import { insertBatched } from '../bulk.ts';
import { assaysByChemblId, compoundsByMolregno, documentsByChemblId, md5, structuresByCanonical } from './lookups.ts';
import { compoundCategory, standardFields } from './mapping.ts';
import type { StandardFields } from './mapping.ts';
import { hasColumn, hasTable, int, num, selectList, str } from './sqlite-source.ts';
import type { ChemblFile, SqlRow } from './sqlite-source.ts';
import { add, keysOf, keysetStep, skip, tablesPresent } from './step.ts';
import { change, restoreStructures, upsertKeyed } from './release.ts';
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
    !hasColumn(file, 'compound_structures', 'molfile')
      ? 'NULL'
      : hasColumn(file, 'compound_structures', 'canonical_smiles')
        ? `CASE WHEN ${alias}.canonical_smiles IS NULL THEN ${alias}.molfile END`
        : `${alias}.molfile`;
  const md = hasTable(file, 'molecule_dictionary');
  const select = [
    'k.molregno AS molregno',
    md
      ? selectList(file, 'molecule_dictionary', 'md', ['chembl_id', 'pref_name', 'molecule_type', 'natural_product'], missing)
      : 'NULL AS chembl_id, NULL AS pref_name, NULL AS molecule_type, NULL AS natural_product',
    hasCs
      ? selectList(file, 'compound_structures', 'cs', ['canonical_smiles', 'standard_inchi', 'standard_inchi_key'], missing)
      : 'NULL AS canonical_smiles, NULL AS standard_inchi, NULL AS standard_inchi_key',
    `${hasCs ? molfile('cs') : 'NULL'} AS molfile`,
    hasMh
      ? `mh.parent_molregno AS parent_molregno, pcs.canonical_smiles AS parent_smiles, ${molfile('pcs')} AS parent_molfile`
      : 'NULL AS parent_molregno, NULL AS parent_smiles, NULL AS parent_molfile',
  ].join(', ');
  if (!hasMh) missing.push('molecule_hierarchy (whole table: salts without a structure stay without one)');
  const joins = [
    md ? 'LEFT JOIN molecule_dictionary md ON md.molregno = k.molregno' : '',
    hasCs ? 'LEFT JOIN compound_structures cs ON cs.molregno = k.molregno' : '',
    hasMh
      ? 'LEFT JOIN molecule_hierarchy mh ON mh.molregno = k.molregno AND mh.parent_molregno <> k.molregno ' +
        'LEFT JOIN compound_structures pcs ON pcs.molregno = mh.parent_molregno'
      : '',
  ].join(' ');
  return {
    sql: `SELECT ${select} FROM (${keys} ORDER BY 1 LIMIT ?) k ${joins} ORDER BY k.molregno`,
    keyParams: keyTables.length,
    countSql: `SELECT count(*) FROM (${keyTables.map((t) => `SELECT molregno FROM ${t}`).join(' UNION ')})`,
  };
}

/** The stored structure of each molregno an earlier load brought: as given, its InChI and canonical form. */
async function earlierStructures(db: Db, molregnos: number[]): Promise<Map<number, { smiles: string; canonical: string }>> {
  if (molregnos.length === 0) return new Map();
  const rows = await db
    .selectFrom('compounds')
    .innerJoin('structures', 'structures.str_id', 'compounds.str_id')
    .select(['compounds.chembl_molregno', 'structures.smiles', 'structures.canonical_smiles'])
    .where('compounds.chembl_molregno', 'in', molregnos)
    .execute();
  return new Map(rows.map((r) => [Number(r.chembl_molregno), { smiles: r.smiles, canonical: r.canonical_smiles }]));
}

/**
 * RDKit work for the batch, outside its transaction. In an update, a molecule whose structure text
 * is the one an earlier load stored keeps that structure without RDKit: most of a new release's
 * 2.4 M molecules are unchanged, and RDKit is most of the molecules step's time. (Recomputing would
 * not refresh the row either: an existing canonical form is never written again.) After an RDKit
 * upgrade that changes canonical SMILES, `--restart` over a fresh database gives uniform forms.
 */
async function prepareMolecules(ctx: ImportContext, report: StepReport, rows: SqlRow[]): Promise<Loader> {
  const inputs = rows.map(structureInput);
  const earlier = ctx.release.firstLoad ? new Map() : await earlierStructures(ctx.db, keysOf(rows, 'molregno'));
  const unchanged = inputs.map((input, i) => {
    const stored = input ? earlier.get(int(rows[i]?.molregno) ?? -1) : undefined;
    return stored && input && stored.smiles === input.text ? stored.canonical : null;
  });
  const texts = inputs.filter((input, i): input is StructureInput => input !== null && unchanged[i] === null).map((input) => input.text);
  // Real releases carry standard InChIs: RDKit's InChI (a quarter of the time) only when one is missing.
  const needInchi = inputs.some((input, i) => input !== null && unchanged[i] === null && input.inchi === null);
  const computed = await ctx.pool.compute(texts, { inchi: needInchi });
  let next = 0;
  const results = inputs.map((input, i): MoleculeResult => {
    if (input === null) return null;
    const canonical = unchanged[i];
    if (canonical) return { input, computed: null, canonical };
    const structure = computed[next++] ?? null;
    return { input, computed: structure, canonical: structure?.canonical_smiles ?? null };
  });
  const reused = unchanged.filter((c) => c !== null).length;
  return async (trx) => {
    await loadMolecules(trx, ctx, report, rows, results);
    add(report.info, 'structure as in the earlier load (RDKit not run again)', reused);
  };
}

/** `canonical`: RDKit's canonical SMILES, computed now (`computed`) or stored by an earlier load. */
type MoleculeResult = { input: StructureInput; computed: ComputedStructure | null; canonical: string | null } | null;

async function loadMolecules(trx: Db, ctx: ImportContext, report: StepReport, rows: SqlRow[], results: MoleculeResult[]): Promise<void> {
  const structures = new Map<string, ReturnType<typeof structureRow>>();
  for (const result of results) {
    if (result?.computed && !structures.has(result.computed.canonical_smiles)) {
      structures.set(result.computed.canonical_smiles, structureRow(result.input, result.computed));
    }
  }
  // A structure retired by an earlier release comes back with its str_id; new ones carry this load.
  const restoredStructures = ctx.release.firstLoad ? 0 : await restoreStructures(trx, [...structures.keys()].map(md5), ctx.release.loadId);
  const stamped = [...structures.values()].map((s) => ({ ...s, load_id: ctx.release.loadId }));
  const insertedStructures = (await insertBatched(trx, 'structures', stamped, { onConflictDoNothing: true })) + restoredStructures;
  add(report.loaded, 'structures', insertedStructures);
  change(ctx.release.changes, 'structures').added += insertedStructures;
  const canonicals = new Set(results.flatMap((r) => (r?.canonical ? [r.canonical] : [])));
  const strIds = await structuresByCanonical(trx, [...canonicals]);
  const compounds = rows.map((r, i) => {
    const result = results[i];
    if (!result) add(report.info, 'no structure in the release (compound kept without structure)');
    else if (!result.canonical) add(report.skipped, 'unparsable structure (compound kept without structure)');
    else if (result.input.origin === 'parent') add(report.info, 'structure of the parent molecule (molecule_hierarchy)');
    return {
      str_id: result?.canonical ? (strIds.get(result.canonical) ?? null) : null,
      name: str(r.pref_name),
      compound_category: compoundCategory(r.molecule_type, r.natural_product),
      data_source_id: ctx.chemblSourceId,
      chembl_id: str(r.chembl_id),
      chembl_molregno: int(r.molregno),
    };
  });
  const parsable = results.filter((r) => r?.computed).length;
  add(report.info, 'molecule shares its structure with another molecule or an earlier run', parsable - insertedStructures);
  await upsertKeyed(trx, ctx.release, report, 'compounds', compounds);
}

/**
 * compound_structures + molecule_dictionary (+ molecule_hierarchy) -> structures + compounds. Every
 * molregno becomes a compound; its structure is RDKit-canonicalised and deduplicated.
 */
export const moleculesStep = (): Step =>
  keysetStep({
    name: 'molecules',
    source: 'compound_structures, molecule_dictionary, molecule_hierarchy',
    target: 'structures, compounds',
    requires: [],
    requiresAny: ['compound_structures', 'molecule_dictionary'],
    key: 'molregno',
    query: (ctx, missing) => moleculesQuery(ctx.file, missing),
    prepare: prepareMolecules,
  });

/** molecule_synonyms -> compound_synonyms. */
export const synonymsStep = (): Step =>
  keysetStep({
    name: 'molecule_synonyms',
    source: 'molecule_synonyms',
    target: 'compound_synonyms',
    requires: ['molecule_synonyms'],
    key: 'molsyn_id',
    query: (ctx, missing) => ({
      sql:
        `SELECT ${selectList(ctx.file, 'molecule_synonyms', 's', ['molsyn_id', 'molregno', 'syn_type', 'synonyms'], missing)} ` +
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
  'activity_id',
  'assay_id',
  'doc_id',
  'molregno',
  'standard_relation',
  'standard_value',
  'standard_units',
  'standard_type',
  'activity_comment',
  'data_validity_comment',
  'pchembl_value',
  'src_id',
  'type',
  'relation',
  'value',
  'units',
  'text_value',
  'action_type',
] as const;
/** ChEMBL ligand_eff, one row per activity (activity_id): binding/surface/ligand/lipophilic efficiency. */
const LIGAND_EFF_COLUMNS = ['bei', 'sei', 'le', 'lle'] as const;

/** Report keys of the activities step (tests and docs/data-model.md name them). */
export const ACTIVITY_REPORT = {
  notStandardised: 'activity not standardised (published type, relation or value used)',
  converted: 'value converted to µM from another unit',
  withoutStructure: 'activity of a compound without structure (kept)',
} as const;

/**
 * The activities SELECT: activities joined (by activity_id / record_id) with ligand_eff and
 * compound_records when the release has them. A missing table or column reads as NULL and is
 * reported, so one query shape serves partial releases too.
 */
function activitiesQuery(file: ChemblFile, missing: string[]): string {
  const select = [selectList(file, 'activities', 'a', ACTIVITY_COLUMNS, missing)];
  const joins: string[] = [];
  if (hasTable(file, 'ligand_eff')) {
    select.push(selectList(file, 'ligand_eff', 'le', LIGAND_EFF_COLUMNS, missing));
    joins.push('LEFT JOIN ligand_eff le ON le.activity_id = a.activity_id');
  } else {
    select.push(LIGAND_EFF_COLUMNS.map((c) => `NULL AS ${c}`).join(', '));
    missing.push('ligand_eff (whole table: no ligand efficiency)');
  }
  if (hasTable(file, 'compound_records') && hasColumn(file, 'activities', 'record_id')) {
    select.push(selectList(file, 'compound_records', 'cr', ['compound_name'], missing));
    joins.push('LEFT JOIN compound_records cr ON cr.record_id = a.record_id');
  } else {
    select.push('NULL AS compound_name');
    missing.push(
      hasTable(file, 'compound_records') ? 'activities.record_id' : 'compound_records (whole table: no compound name in the reference)',
    );
  }
  return `SELECT ${select.join(', ')} FROM activities a ${joins.join(' ')} WHERE a.activity_id > ? ORDER BY a.activity_id LIMIT ?`;
}

function mapActivity(ctx: ImportContext, r: SqlRow, standard: StandardFields) {
  return {
    std_activity_type: standard.type,
    std_act_prefix: standard.relation,
    activity_value: standard.value,
    standard_uom: standard.units,
    micro_molarvalue: standard.micromolar,
    standardised: standard.standardised,
    pchembl_value: num(r.pchembl_value),
    activity_remarks: str(r.activity_comment),
    activity_mechanism: str(r.action_type),
    activity_type: str(r.type),
    activity_prefix: str(r.relation),
    activity: num(r.value),
    activity_text: str(r.text_value),
    activity_uom: str(r.units),
    data_validity_comment: str(r.data_validity_comment),
    compound_name_reference: str(r.compound_name),
    bei: num(r.bei),
    sei: num(r.sei),
    le: num(r.le),
    lle: num(r.lle),
    data_source_id: ctx.sourceIds.get(int(r.src_id) ?? -1) ?? ctx.chemblSourceId,
    chembl_activity_id: int(r.activity_id),
  };
}

/** Counts a batch's mapping makes, applied to the step's report only when the batch is loaded. */
type Tally = Pick<StepReport, 'skipped' | 'info'>;

function applyTally(report: StepReport, tally: Tally): void {
  for (const [reason, n] of Object.entries(tally.skipped)) add(report.skipped, reason, n);
  for (const [fact, n] of Object.entries(tally.info)) add(report.info, fact, n);
}

/**
 * Look-ups and mapping outside the batch's transaction, so they overlap the previous batch's insert
 * (a second connection and the importer's thread work while PostgreSQL writes). They read only
 * rows of earlier steps (compounds, assays, documents), committed before this step began.
 */
async function prepareActivities(ctx: ImportContext, report: StepReport, rows: SqlRow[]): Promise<Loader> {
  const [compounds, assays, refIds] = await Promise.all([
    compoundsByMolregno(ctx.db, keysOf(rows, 'molregno')),
    assaysByChemblId(ctx.db, keysOf(rows, 'assay_id')),
    documentsByChemblId(ctx.db, keysOf(rows, 'doc_id')),
  ]);
  const tally: Tally = { skipped: {}, info: {} };
  const mapped = rows.flatMap((r) => {
    const compound = compounds.get(int(r.molregno) ?? -1);
    if (!compound) return skip(tally, 'molecule not in the file');
    // Peptides, antibodies, mixtures: kept, found by every non-structure row, never a structure.
    if (compound.str_id === null) add(tally.info, ACTIVITY_REPORT.withoutStructure);
    const assay = assays.get(int(r.assay_id) ?? -1);
    if (!assay) add(tally.info, 'assay not in the file (activity kept without assay)');
    const standard = standardFields(r);
    if (!standard.standardised) add(tally.info, ACTIVITY_REPORT.notStandardised);
    if (standard.converted) add(tally.info, ACTIVITY_REPORT.converted);
    return [
      {
        ...mapActivity(ctx, r, standard),
        str_id: compound.str_id,
        gvk_id: compound.gvk_id,
        assay_id: assay?.assay_id ?? null,
        ref_id: refIds.get(int(r.doc_id) ?? -1) ?? assay?.ref_id ?? null,
        target_id: assay?.target_id ?? null,
        load_id: ctx.release.loadId,
      },
    ];
  });
  return async (trx) => {
    applyTally(report, tally);
    await upsertKeyed(trx, ctx.release, report, 'activities', mapped, ['load_id']);
  };
}

/**
 * activities (+ ligand_eff, compound_records) -> activities: standard_* -> std_* (published fields
 * where ChEMBL could not standardise), µM, ligand efficiency, the compound's name in the reference.
 */
export const activitiesStep = (): Step =>
  keysetStep({
    name: 'activities',
    source: 'activities, ligand_eff, compound_records',
    target: 'activities',
    requires: ['activities'],
    key: 'activity_id',
    // 20 M rows in a release: fewer, larger transactions (each also writes its checkpoint and progress).
    batchRows: 10_000,
    query: (ctx, missing) => ({
      sql: activitiesQuery(ctx.file, missing),
      keyParams: 1,
      countSql: 'SELECT count(*) FROM activities',
    }),
    prepare: prepareActivities,
  });
