import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { ChartType } from '@kb/contracts/charts';
import type { Database } from '../../db/schema.ts';
import type { Level, Sql } from './tab-model.ts';

/**
 * What each chart of CHART_CATALOGUE (packages/contracts/src/charts.ts) counts: a value read from
 * the records of one level (aliases of results/tab-model.ts), with extra joins when a record has
 * many values (a reference's companies, a clinical compound's indications). It lives in results,
 * not charts: a chart bucket is also a results filter (tab-filters.ts), and charts depends on
 * results, never the other way (docs/architecture.md "Module boundaries").
 */
/**
 * SQL type of a chart's value column (migrations/0002_knowledge_base.sql). Every bound and value a
 * client sends for the chart is checked against it (results/chart-bounds.ts) before it reaches SQL.
 */
export type ColumnType = 'int2' | 'int4' | 'int8' | 'float8' | 'text';

export interface Dimension {
  level: Level;
  type: ChartType;
  value: Sql;
  column: ColumnType;
  joins?: Sql;
  /** Labels of some values (id-valued charts); text-valued charts are their own labels. */
  labels?: (db: Kysely<Database>, ids: readonly (string | number)[]) => Promise<Map<string, ValueLabel>>;
  /** Tree charts: the table and its key, a node stands for itself and its descendants. */
  tree?: { table: 'target_classes' | 'indications'; key: 'class_id' | 'indication_id' };
}

/** Whole-number columns: their Range charts have whole-number bins and bounds. */
export function isIntegerColumn(column: ColumnType): column is 'int2' | 'int4' | 'int8' {
  return column === 'int2' || column === 'int4' || column === 'int8';
}

/** The SQL type value lists are bound as: ids as bigint (fits every integer column), text, float8. */
export function listBindType(dimension: Dimension): 'bigint' | 'text' | 'float8' {
  return dimension.column === 'text' ? 'text' : isIntegerColumn(dimension.column) ? 'bigint' : 'float8';
}

/** A value's name, and the short one a crowded axis shows (a target's gene symbol), when it has one. */
interface ValueLabel {
  label: string;
  short?: string | null;
}

/**
 * Labels by id from a small table: `SELECT key AS id, label[, short] FROM table WHERE key = ANY(ids)`.
 * A query that selects `short` gives every value one (null where the row has none), so the client
 * knows the chart offers short labels and shortens the others itself.
 */
function labelsFrom(query: (ids: number[]) => Sql) {
  return async (db: Kysely<Database>, ids: readonly (string | number)[]) => {
    const numeric = ids.map(Number).filter(Number.isFinite);
    if (!numeric.length) return new Map<string, ValueLabel>();
    const { rows } = await sql<{ id: string; label: string; short?: string | null }>`${query(numeric)}`.execute(db);
    return new Map(
      rows.map((row) => [String(row.id), row.short === undefined ? { label: row.label } : { label: row.label, short: row.short }]),
    );
  };
}

const ids = (list: number[]) => sql`ANY(${list}::bigint[])`;

/** "Kim T. 2019, J. Med. Chem." — first author and year first, so labels cut short still differ. */
const referenceLabel = sql`coalesce(nullif(concat_ws(', ',
    nullif(concat_ws(' ', (SELECT da.name FROM document_authors da WHERE da.ref_id = d.ref_id ORDER BY da.position LIMIT 1), d.year::text), ''),
    coalesce(d.journal_patent_name, d.patent_no)), ''), left(d.title, 120), 'Reference ' || d.ref_id)`;

export const DIMENSIONS: Record<string, Dimension> = {
  bibliographyrefid: {
    level: 'reference',
    type: 'List',
    value: sql`d.ref_id`,
    column: 'int8',
    labels: labelsFrom(
      (list) => sql`SELECT d.ref_id::text AS id, ${referenceLabel} AS label FROM documents d WHERE d.ref_id = ${ids(list)}`,
    ),
  },
  bibliography: {
    level: 'reference',
    type: 'List',
    value: sql`CASE WHEN d.ref_id IS NULL THEN NULL WHEN d.ref_type = 'journal' THEN 'J' WHEN d.ref_type = 'patent' THEN 'P' ELSE 'O' END`,
    column: 'text',
  },
  year: { level: 'reference', type: 'Range', value: sql`d.year`, column: 'int4' },
  assaytype: { level: 'assay', type: 'List', value: sql`ay.assay_type`, column: 'text' },
  activitytype: { level: 'activity', type: 'List', value: sql`a.std_activity_type`, column: 'text' },
  target: {
    level: 'target',
    type: 'List',
    value: sql`t.target_id`,
    column: 'int8',
    // Four "Tyrosine-protein kinase …" bars cut to one width read alike; their gene symbols do not.
    labels: labelsFrom(
      (list) =>
        sql`SELECT target_id::text AS id, name AS label, nullif(btrim(gene_symbol), '') AS short FROM targets WHERE target_id = ${ids(list)}`,
    ),
  },
  targetclass: {
    level: 'target',
    type: 'Tree',
    value: sql`t.class_id`,
    column: 'int4',
    tree: { table: 'target_classes', key: 'class_id' },
  },
  mechanism: { level: 'activity', type: 'List', value: sql`a.activity_mechanism`, column: 'text' },
  organism: { level: 'assay', type: 'List', value: sql`ay.organism`, column: 'text' },
  molweight: { level: 'structure', type: 'Range', value: sql`s.mol_weight`, column: 'float8' },
  logp: { level: 'structure', type: 'Range', value: sql`s.logp_calc`, column: 'float8' },
  structures: {
    level: 'structure',
    type: 'Image',
    value: sql`s.str_id`,
    column: 'int8',
    labels: labelsFrom(
      (
        list,
      ) => sql`SELECT s.str_id::text AS id, coalesce((SELECT c.name FROM compounds c WHERE c.str_id = s.str_id AND c.name IS NOT NULL ORDER BY c.gvk_id LIMIT 1), 'Str ' || s.str_id) AS label
        FROM structures s WHERE s.str_id = ${ids(list)}`,
    ),
  },
  phase: {
    level: 'clinical',
    type: 'List',
    value: sql`cc.highest_phase_id`,
    column: 'int2',
    labels: labelsFrom((list) => sql`SELECT phase_id::text AS id, name AS label FROM clinical_phases WHERE phase_id = ${ids(list)}`),
  },
  indication: {
    level: 'clinical',
    type: 'Tree',
    value: sql`cci.indication_id`,
    column: 'int4',
    joins: sql`LEFT JOIN clinical_compound_indications cci ON cci.clinical_compound_id = cc.clinical_compound_id`,
    tree: { table: 'indications', key: 'indication_id' },
  },
  company: {
    level: 'reference',
    type: 'List',
    value: sql`dc.company_id`,
    column: 'int4',
    joins: sql`LEFT JOIN document_companies dc ON dc.ref_id = d.ref_id`,
    labels: labelsFrom((list) => sql`SELECT company_id::text AS id, name AS label FROM companies WHERE company_id = ${ids(list)}`),
  },
};

/** Labels of the bibliography source codes (spec §9: J, P, O). */
export const BIBLIOGRAPHY_LABELS: Record<string, string> = { J: 'Journal (J)', P: 'Patent (P)', O: 'Other (O)' };
