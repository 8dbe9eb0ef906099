import { sql } from 'kysely';
import { assaysByChemblId } from './lookups.ts';
import { int, num, selectList, str } from './sqlite-source.ts';
import type { SqlRow } from './sqlite-source.ts';
import { add, insertNew, keysOf, keysetStep, skip, tableKeysetQuery } from './step.ts';
import type { Db, StepReport, Step } from './step.ts';

/*
 * Cell and tissue dictionaries, the assays' links to them, and assay parameters
 * (docs/data-model.md "Mapping from ChEMBL").
 */

const CELL_COLUMNS = [
  'cell_id',
  'cell_name',
  'cell_description',
  'cell_source_tissue',
  'cell_source_organism',
  'cell_source_tax_id',
  'clo_id',
  'efo_id',
  'cellosaurus_id',
  'cl_lincs_id',
  'chembl_id',
  'cell_ontology_id',
] as const;

async function loadCells(trx: Db, report: StepReport, rows: SqlRow[]): Promise<void> {
  const mapped = rows.flatMap((r) => {
    const name = str(r.cell_name);
    if (name === null) return skip(report, 'no cell_name');
    return [
      {
        name,
        description: str(r.cell_description),
        source_tissue: str(r.cell_source_tissue),
        source_organism: str(r.cell_source_organism),
        source_tax_id: int(r.cell_source_tax_id),
        clo_id: str(r.clo_id),
        efo_id: str(r.efo_id),
        cellosaurus_id: str(r.cellosaurus_id),
        cl_lincs_id: str(r.cl_lincs_id),
        cell_ontology_id: str(r.cell_ontology_id),
        chembl_id: str(r.chembl_id),
        chembl_cell_id: int(r.cell_id),
      },
    ];
  });
  await insertNew(trx, report, 'cell_lines', mapped);
}

/** cell_dictionary -> cell_lines. */
export const cellDictionaryStep = (): Step =>
  keysetStep({
    name: 'cell_dictionary',
    source: 'cell_dictionary',
    target: 'cell_lines',
    requires: ['cell_dictionary'],
    key: 'cell_id',
    query: tableKeysetQuery('cell_dictionary', 'c', 'cell_id', CELL_COLUMNS),
    prepare: async (_ctx, report, rows) => (trx) => loadCells(trx, report, rows),
  });

const TISSUE_COLUMNS = ['tissue_id', 'uberon_id', 'pref_name', 'efo_id', 'chembl_id', 'bto_id', 'caloha_id'] as const;

async function loadTissues(trx: Db, report: StepReport, rows: SqlRow[]): Promise<void> {
  const mapped = rows.flatMap((r) => {
    const name = str(r.pref_name);
    if (name === null) return skip(report, 'no pref_name');
    return [
      {
        name,
        uberon_id: str(r.uberon_id),
        efo_id: str(r.efo_id),
        bto_id: str(r.bto_id),
        caloha_id: str(r.caloha_id),
        chembl_id: str(r.chembl_id),
        chembl_tissue_id: int(r.tissue_id),
      },
    ];
  });
  await insertNew(trx, report, 'tissues', mapped);
}

/** tissue_dictionary -> tissues. */
export const tissueDictionaryStep = (): Step =>
  keysetStep({
    name: 'tissue_dictionary',
    source: 'tissue_dictionary',
    target: 'tissues',
    requires: ['tissue_dictionary'],
    key: 'tissue_id',
    query: tableKeysetQuery('tissue_dictionary', 't', 'tissue_id', TISSUE_COLUMNS),
    prepare: async (_ctx, report, rows) => (trx) => loadTissues(trx, report, rows),
  });

/**
 * Links a batch of assays to their cell line and tissue, and fills the assay's cell / tissue text
 * from the dictionary where the assay row left it empty (assay_cell_type / assay_tissue win: they
 * are what the depositor wrote). Only fills, never overwrites: a re-run changes nothing.
 */
async function linkAssays(trx: Db, report: StepReport, rows: SqlRow[]): Promise<void> {
  const assayIds = rows.map((r) => int(r.assay_id) as number);
  const cellIds = rows.map((r) => int(r.cell_id));
  const tissueIds = rows.map((r) => int(r.tissue_id));
  const { rows: seen } = await sql<{
    assay: number | null;
    cell: number | null;
    tissue: number | null;
    cell_known: boolean;
    tissue_known: boolean;
    changed: boolean;
  }>`
    SELECT ay.assay_id AS assay, c.cell_line_id AS cell, ti.tissue_id AS tissue,
      (u.chembl_cell_id IS NULL OR c.cell_line_id IS NOT NULL) AS cell_known,
      (u.chembl_tissue_id IS NULL OR ti.tissue_id IS NOT NULL) AS tissue_known,
      (ay.cell_line_id IS DISTINCT FROM coalesce(ay.cell_line_id, c.cell_line_id)
        OR ay.tissue_id IS DISTINCT FROM coalesce(ay.tissue_id, ti.tissue_id)) AS changed
    FROM unnest(${assayIds}::bigint[], ${cellIds}::bigint[], ${tissueIds}::bigint[]) AS u(chembl_assay_id, chembl_cell_id, chembl_tissue_id)
    LEFT JOIN assays ay ON ay.chembl_assay_id = u.chembl_assay_id
    LEFT JOIN cell_lines c ON c.chembl_cell_id = u.chembl_cell_id
    LEFT JOIN tissues ti ON ti.chembl_tissue_id = u.chembl_tissue_id`.execute(trx);
  for (const row of seen) {
    if (row.assay === null) skip(report, 'assay not in the file');
    else if (!row.cell_known) skip(report, 'cell_id not in cell_dictionary');
    else if (!row.tissue_known) skip(report, 'tissue_id not in tissue_dictionary');
    else if (!row.changed) skip(report, 'already imported');
  }
  const result = await sql`
    UPDATE assays ay SET
      cell_line_id = coalesce(ay.cell_line_id, c.cell_line_id),
      cells_cellline_organ = coalesce(ay.cells_cellline_organ, c.name),
      tissue_id = coalesce(ay.tissue_id, ti.tissue_id),
      tissue = coalesce(ay.tissue, ti.name)
    FROM unnest(${assayIds}::bigint[], ${cellIds}::bigint[], ${tissueIds}::bigint[]) AS u(chembl_assay_id, chembl_cell_id, chembl_tissue_id)
    LEFT JOIN cell_lines c ON c.chembl_cell_id = u.chembl_cell_id
    LEFT JOIN tissues ti ON ti.chembl_tissue_id = u.chembl_tissue_id
    WHERE ay.chembl_assay_id = u.chembl_assay_id
      AND (ay.cell_line_id IS DISTINCT FROM coalesce(ay.cell_line_id, c.cell_line_id)
        OR ay.tissue_id IS DISTINCT FROM coalesce(ay.tissue_id, ti.tissue_id))`.execute(trx);
  add(report.loaded, 'assays (cell line / tissue linked)', Number(result.numAffectedRows ?? 0));
}

/** assays.cell_id / assays.tissue_id -> assays.cell_line_id / tissue_id (+ names where empty). */
export const assayCellsStep = (): Step =>
  keysetStep({
    name: 'assay cells and tissues',
    source: 'assays (cell_id, tissue_id)',
    target: 'assays.cell_line_id, assays.tissue_id',
    requires: ['assays'],
    requiresAny: ['cell_dictionary', 'tissue_dictionary'],
    key: 'assay_id',
    query: (ctx, missing) => {
      const columns = selectList(ctx.file, 'assays', 'a', ['assay_id', 'cell_id', 'tissue_id'], missing);
      // A release without either column has nothing to link: the WHERE is then false.
      const linked = ['cell_id', 'tissue_id'].filter((c) => ctx.file.tables.get('assays')?.has(c)).map((c) => `a.${c} IS NOT NULL`);
      const where = linked.length > 0 ? `(${linked.join(' OR ')})` : '0';
      return {
        sql: `SELECT ${columns} FROM assays a WHERE ${where} AND a.assay_id > ? ORDER BY a.assay_id LIMIT ?`,
        keyParams: 1,
        countSql: `SELECT count(*) FROM assays a WHERE ${where}`,
      };
    },
    prepare: async (_ctx, report, rows) => (trx) => linkAssays(trx, report, rows),
  });

const PARAMETER_COLUMNS = [
  'assay_param_id',
  'assay_id',
  'type',
  'relation',
  'value',
  'units',
  'text_value',
  'standard_type',
  'standard_relation',
  'standard_value',
  'standard_units',
  'standard_text_value',
  'comments',
] as const;

async function loadParameters(trx: Db, report: StepReport, rows: SqlRow[]): Promise<void> {
  const assays = await assaysByChemblId(trx, keysOf(rows, 'assay_id'));
  const mapped = rows.flatMap((r) => {
    const assay = assays.get(int(r.assay_id) ?? -1);
    const type = str(r.type) ?? str(r.standard_type);
    if (assay === undefined) return skip(report, 'assay not in the file');
    if (type === null) return skip(report, 'no parameter type');
    return [
      {
        assay_id: assay.assay_id,
        param_type: type,
        relation: str(r.relation),
        value: num(r.value),
        units: str(r.units),
        text_value: str(r.text_value),
        standard_type: str(r.standard_type),
        standard_relation: str(r.standard_relation),
        standard_value: num(r.standard_value),
        standard_units: str(r.standard_units),
        standard_text_value: str(r.standard_text_value),
        comments: str(r.comments),
        chembl_assay_param_id: int(r.assay_param_id),
      },
    ];
  });
  await insertNew(trx, report, 'assay_parameters', mapped);
}

/** assay_parameters -> assay_parameters (by assay). */
export const assayParametersStep = (): Step =>
  keysetStep({
    name: 'assay_parameters',
    source: 'assay_parameters',
    target: 'assay_parameters',
    requires: ['assay_parameters'],
    key: 'assay_param_id',
    query: (ctx, missing) => ({
      sql:
        `SELECT ${selectList(ctx.file, 'assay_parameters', 'p', PARAMETER_COLUMNS, missing)} FROM assay_parameters p ` +
        'WHERE p.assay_param_id > ? ORDER BY p.assay_param_id LIMIT ?',
      keyParams: 1,
      countSql: 'SELECT count(*) FROM assay_parameters',
    }),
    prepare: async (_ctx, report, rows) => (trx) => loadParameters(trx, report, rows),
  });
