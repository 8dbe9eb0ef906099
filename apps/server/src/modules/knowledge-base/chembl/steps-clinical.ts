import { sql } from 'kysely';
import { insertBatched } from '../bulk.ts';
import { clinicalByMolregno, compoundsByMolregno, targetsByTid } from './lookups.ts';
import { phaseName } from './mapping.ts';
import { hasColumn, hasTable, int, num, selectList, str } from './sqlite-source.ts';
import type { ChemblFile, SqlRow } from './sqlite-source.ts';
import { add, keysOf, keysetStep, skip } from './step.ts';
import { upsertKeyed } from './release.ts';
import type { Db, ImportContext, Step, StepReport } from './step.ts';

const CLINICAL_COLUMNS = [
  'molregno',
  'chembl_id',
  'pref_name',
  'max_phase',
  'first_approval',
  'withdrawn_flag',
  'withdrawn_reason',
  'withdrawn_class',
] as const;

/** A development compound: reached a clinical phase, or has an indication or a mechanism in the release. */
function clinicalQuery(file: ChemblFile, missing: string[]) {
  const conditions = ['md.max_phase > 0'];
  if (hasTable(file, 'drug_indication')) conditions.push('md.molregno IN (SELECT molregno FROM drug_indication)');
  if (hasTable(file, 'drug_mechanism')) conditions.push('md.molregno IN (SELECT molregno FROM drug_mechanism)');
  if (!file.tables.get('molecule_dictionary')?.has('max_phase')) conditions.shift();
  const where = conditions.length > 0 ? `(${conditions.join(' OR ')})` : 'false';
  return {
    sql:
      `SELECT ${selectList(file, 'molecule_dictionary', 'md', CLINICAL_COLUMNS, missing)} FROM molecule_dictionary md ` +
      `WHERE ${where} AND md.molregno > ? ORDER BY md.molregno LIMIT ?`,
    keyParams: 1,
    countSql: `SELECT count(*) FROM molecule_dictionary md WHERE ${where}`,
  };
}

async function loadClinical(trx: Db, ctx: ImportContext, report: StepReport, rows: SqlRow[]): Promise<void> {
  const compounds = await compoundsByMolregno(trx, keysOf(rows, 'molregno'));
  const mapped = rows.map((r) => {
    const compound = compounds.get(int(r.molregno) ?? -1);
    const phase = phaseName(num(r.max_phase));
    return {
      str_id: compound?.str_id ?? null,
      gvk_id: compound?.gvk_id ?? null,
      drug_name: str(r.pref_name) ?? str(r.chembl_id) ?? `ChEMBL molregno ${int(r.molregno)}`,
      highest_phase_id: phase ? (ctx.phaseIds.get(phase) ?? null) : null,
      status_id: int(r.withdrawn_flag) === 1 ? (ctx.statusIds.get('Withdrawn') ?? null) : null,
      approval_year: int(r.first_approval),
      reason_with_drawn: str(r.withdrawn_reason),
      reason_with_drawn_category: str(r.withdrawn_class),
      data_source_id: ctx.chemblSourceId,
      chembl_molregno: int(r.molregno),
    };
  });
  add(report.info, 'development compound without structure', mapped.filter((c) => c.str_id === null).length);
  await upsertKeyed(trx, ctx.release, report, 'clinical_compounds', mapped);
}

/** molecule_dictionary (max_phase, first_approval, withdrawn_*) -> clinical_compounds. */
export const clinicalStep = (): Step =>
  keysetStep({
    name: 'development compounds',
    source: 'molecule_dictionary (max_phase > 0, or in drug_indication / drug_mechanism)',
    target: 'clinical_compounds',
    requires: ['molecule_dictionary'],
    key: 'molregno',
    query: (ctx, missing) => clinicalQuery(ctx.file, missing),
    prepare: async (ctx, report, rows) => (trx) => loadClinical(trx, ctx, report, rows),
  });

/** Indications of a batch, flat (ChEMBL gives MeSH headings, not the MeSH tree): name -> id. */
async function ensureIndications(trx: Db, rows: SqlRow[]): Promise<Map<string, number>> {
  const byName = new Map<string, { name: string; mesh_id: string | null; efo_id: string | null }>();
  for (const r of rows) {
    const name = str(r.mesh_heading) ?? str(r.efo_term);
    if (name && !byName.has(name)) byName.set(name, { name, mesh_id: str(r.mesh_id), efo_id: str(r.efo_id) });
  }
  if (byName.size === 0) return new Map();
  await insertBatched(trx, 'indications', [...byName.values()], { onConflictDoNothing: true });
  const found = await trx
    .selectFrom('indications')
    .select(['indication_id', 'name'])
    .where('parent_id', 'is', null)
    .where('name', 'in', [...byName.keys()])
    .execute();
  return new Map(found.map((f) => [f.name, f.indication_id]));
}

async function loadIndications(trx: Db, ctx: ImportContext, report: StepReport, rows: SqlRow[]): Promise<void> {
  const before = await trx
    .selectFrom('indications')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const indications = await ensureIndications(trx, rows);
  const after = await trx
    .selectFrom('indications')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  add(report.loaded, 'indications', Number(after.n) - Number(before.n));
  const clinical = await clinicalByMolregno(trx, keysOf(rows, 'molregno'));
  const mapped = rows.flatMap((r) => {
    const indicationId = indications.get(str(r.mesh_heading) ?? str(r.efo_term) ?? '');
    const clinicalId = clinical.get(int(r.molregno) ?? -1);
    if (indicationId === undefined) return skip(report, 'no MeSH heading or EFO term');
    if (clinicalId === undefined) return skip(report, 'molecule not in the file');
    const phase = phaseName(num(r.max_phase_for_ind));
    return [
      {
        clinical_compound_id: clinicalId,
        indication_id: indicationId,
        phase_id: phase ? (ctx.phaseIds.get(phase) ?? null) : null,
        chembl_drugind_id: int(r.drugind_id),
      },
    ];
  });
  const inserted = await insertBatched(trx, 'clinical_compound_indications', mapped, { onConflictDoNothing: true });
  add(report.loaded, 'clinical_compound_indications', inserted);
  add(report.skipped, 'already imported (or same drug and MeSH heading under another EFO term)', mapped.length - inserted);
}

/** drug_indication -> indications + clinical_compound_indications. */
export const indicationsStep = (): Step =>
  keysetStep({
    name: 'drug_indication',
    source: 'drug_indication',
    target: 'indications, clinical_compound_indications',
    requires: ['drug_indication'],
    key: 'drugind_id',
    query: (ctx, missing) => ({
      sql:
        `SELECT ${selectList(ctx.file, 'drug_indication', 'di', ['drugind_id', 'molregno', 'max_phase_for_ind', 'mesh_id', 'mesh_heading', 'efo_id', 'efo_term'], missing)} ` +
        'FROM drug_indication di WHERE di.drugind_id > ? ORDER BY di.drugind_id LIMIT ?',
      keyParams: 1,
      countSql: 'SELECT count(*) FROM drug_indication',
    }),
    prepare: async (ctx, report, rows) => (trx) => loadIndications(trx, ctx, report, rows),
  });

/** ChEMBL 0/1 flags as booleans (NULL stays unknown). */
function flag(value: unknown): boolean | null {
  const n = int(value);
  return n === null ? null : n !== 0;
}

/**
 * The drug's mode of action: every mechanism_of_action of the molecule, also those without a target
 * (which have no clinical_compound_targets row). Only fills an empty one, so a re-run changes nothing.
 */
async function setModeOfAction(trx: Db, report: StepReport, rows: SqlRow[]): Promise<void> {
  const byMolregno = new Map<number, string>();
  for (const r of rows) {
    const molregno = int(r.molregno);
    const text = str(r.mode_of_action);
    if (molregno !== null && text !== null) byMolregno.set(molregno, text);
  }
  if (byMolregno.size === 0) return;
  const result = await sql`UPDATE clinical_compounds cc SET mode_of_action = n.moa
    FROM unnest(${[...byMolregno.keys()]}::bigint[], ${[...byMolregno.values()]}::text[]) AS n(molregno, moa)
    WHERE cc.chembl_molregno = n.molregno AND cc.mode_of_action IS NULL`.execute(trx);
  add(report.loaded, 'clinical_compounds (mode of action)', Number(result.numAffectedRows ?? 0));
}

async function loadMechanisms(trx: Db, report: StepReport, rows: SqlRow[]): Promise<void> {
  const actionTypes = [...new Set(rows.map((r) => str(r.action_type)).filter((a): a is string => a !== null))];
  // action_types is a foreign key: a release without the action_type table still names them here.
  await insertBatched(
    trx,
    'action_types',
    actionTypes.map((name) => ({ name })),
    { onConflictDoNothing: true },
  );
  const clinical = await clinicalByMolregno(trx, keysOf(rows, 'molregno'));
  const targets = await targetsByTid(trx, keysOf(rows, 'tid'));
  const mapped = rows.flatMap((r) => {
    const clinicalId = clinical.get(int(r.molregno) ?? -1);
    if (int(r.tid) === null) return skip(report, 'mechanism without target');
    const targetId = targets.get(int(r.tid) as number);
    if (clinicalId === undefined) return skip(report, 'molecule not in the file');
    if (targetId === undefined) return skip(report, 'target not in the file');
    return [
      {
        clinical_compound_id: clinicalId,
        target_id: targetId,
        action_type: str(r.action_type),
        mechanism: str(r.mechanism_of_action),
        chembl_mec_id: int(r.mec_id),
        direct_interaction: flag(r.direct_interaction),
        molecular_mechanism: flag(r.molecular_mechanism),
        disease_efficacy: flag(r.disease_efficacy),
        mechanism_comment: str(r.mechanism_comment),
        selectivity_comment: str(r.selectivity_comment),
        binding_site_comment: str(r.binding_site_comment),
      },
    ];
  });
  const inserted = await insertBatched(trx, 'clinical_compound_targets', mapped, { onConflictDoNothing: true });
  add(report.loaded, 'clinical_compound_targets', inserted);
  add(report.skipped, 'already imported (or same drug and target twice)', mapped.length - inserted);
  await setModeOfAction(trx, report, rows);
}

const MECHANISM_COLUMNS = [
  'mec_id',
  'molregno',
  'tid',
  'action_type',
  'mechanism_of_action',
  'direct_interaction',
  'molecular_mechanism',
  'disease_efficacy',
  'mechanism_comment',
  'selectivity_comment',
  'binding_site_comment',
] as const;

/** All mechanisms of the row's molecule, one text (ordered, distinct): the drug's mode of action. */
function modeOfActionColumn(file: ChemblFile): string {
  if (!hasColumn(file, 'drug_mechanism', 'mechanism_of_action') || !hasColumn(file, 'drug_mechanism', 'molregno'))
    return 'NULL AS mode_of_action';
  return (
    "(SELECT group_concat(moa, '; ') FROM (SELECT DISTINCT d.mechanism_of_action AS moa FROM drug_mechanism d " +
    'WHERE d.molregno = m.molregno AND d.mechanism_of_action IS NOT NULL ORDER BY 1)) AS mode_of_action'
  );
}

/** drug_mechanism (+ action_type) -> clinical_compound_targets, clinical_compounds.mode_of_action. */
export const mechanismsStep = (): Step =>
  keysetStep({
    name: 'drug_mechanism',
    source: 'drug_mechanism',
    target: 'clinical_compound_targets, clinical_compounds.mode_of_action, action_types',
    requires: ['drug_mechanism'],
    key: 'mec_id',
    query: (ctx, missing) => ({
      sql:
        `SELECT ${selectList(ctx.file, 'drug_mechanism', 'm', MECHANISM_COLUMNS, missing)}, ${modeOfActionColumn(ctx.file)} ` +
        'FROM drug_mechanism m WHERE m.mec_id > ? ORDER BY m.mec_id LIMIT ?',
      keyParams: 1,
      countSql: 'SELECT count(*) FROM drug_mechanism',
    }),
    prepare: async (_ctx, report, rows) => (trx) => loadMechanisms(trx, report, rows),
  });

async function loadCompanies(trx: Db, report: StepReport, rows: SqlRow[]): Promise<void> {
  const names = [...new Set(rows.map((r) => str(r.applicant_full_name)).filter((n): n is string => n !== null))];
  add(
    report.loaded,
    'companies',
    await insertBatched(
      trx,
      'companies',
      names.map((name) => ({ name })),
      { onConflictDoNothing: true },
    ),
  );
  const companies =
    names.length === 0 ? [] : await trx.selectFrom('companies').select(['company_id', 'name']).where('name', 'in', names).execute();
  const companyIds = new Map(companies.map((c) => [c.name, c.company_id]));
  const clinical = await clinicalByMolregno(trx, keysOf(rows, 'molregno'));
  const mapped = rows.flatMap((r) => {
    const companyId = companyIds.get(str(r.applicant_full_name) ?? '');
    const clinicalId = clinical.get(int(r.molregno) ?? -1);
    if (companyId === undefined) return skip(report, 'product without applicant');
    if (clinicalId === undefined) return skip(report, 'molecule not in the file');
    return [{ clinical_compound_id: clinicalId, company_id: companyId }];
  });
  const inserted = await insertBatched(trx, 'clinical_compound_companies', mapped, { onConflictDoNothing: true });
  add(report.loaded, 'clinical_compound_companies', inserted);
  add(report.skipped, 'already imported (or same drug and company twice)', mapped.length - inserted);
}

/** formulations + products (applicant) -> companies + clinical_compound_companies. */
export const companiesStep = (): Step =>
  keysetStep({
    name: 'formulations',
    source: 'formulations, products',
    target: 'companies, clinical_compound_companies',
    requires: ['formulations', 'products'],
    key: 'formulation_id',
    query: (ctx, missing) => ({
      sql:
        `SELECT ${selectList(ctx.file, 'formulations', 'f', ['formulation_id', 'molregno'], missing)}, ` +
        `${selectList(ctx.file, 'products', 'p', ['applicant_full_name'], missing)} ` +
        'FROM formulations f LEFT JOIN products p ON p.product_id = f.product_id WHERE f.formulation_id > ? ORDER BY f.formulation_id LIMIT ?',
      keyParams: 1,
      countSql: 'SELECT count(*) FROM formulations',
    }),
    prepare: async (_ctx, report, rows) => (trx) => loadCompanies(trx, report, rows),
  });
