import { z } from 'zod';
import { defineEndpoint } from './endpoint.ts';
import { EXPORT_ROLES } from './roles.ts';
import { ExportFormatSchema, ExportJobSchema } from './exports.ts';
import type { ResultTabKey } from './result-tabs.ts';

/**
 * The dynamic query (spec §2 `/dynamicquery`, §7 `api/dynamicquery/gettablecolumns`; issue 17): a
 * table query over the knowledge base — an entity, its columns, typed filters and a sort. A query
 * is data, never SQL text: every entity, column and operator is looked up in the whitelist below,
 * and the server builds the SQL from the whitelist's own identifiers (docs/dynamic-query.md).
 */

export const DQ_COLUMN_TYPES = ['text', 'number', 'integer', 'date', 'boolean'] as const;
export type DqColumnType = (typeof DQ_COLUMN_TYPES)[number];

/** Every operator; which apply depends on the column's type (`DQ_OPERATORS_BY_TYPE`). */
export const DQ_OPERATORS = [
  'eq',
  'neq',
  'contains',
  'startsWith',
  'in',
  'lt',
  'lte',
  'gt',
  'gte',
  'between',
  'isTrue',
  'isFalse',
  'empty',
  'notEmpty',
] as const;
export type DqOperator = (typeof DQ_OPERATORS)[number];

export const DQ_OPERATORS_BY_TYPE: Record<DqColumnType, readonly DqOperator[]> = {
  text: ['eq', 'neq', 'contains', 'startsWith', 'in', 'empty', 'notEmpty'],
  number: ['eq', 'neq', 'lt', 'lte', 'gt', 'gte', 'between', 'empty', 'notEmpty'],
  integer: ['eq', 'neq', 'lt', 'lte', 'gt', 'gte', 'between', 'in', 'empty', 'notEmpty'],
  date: ['eq', 'neq', 'lt', 'lte', 'gt', 'gte', 'between', 'empty', 'notEmpty'],
  boolean: ['isTrue', 'isFalse', 'empty', 'notEmpty'],
};

export const DQ_OPERATOR_LABELS: Record<DqOperator, string> = {
  eq: 'equals',
  neq: 'does not equal',
  contains: 'contains',
  startsWith: 'starts with',
  in: 'is one of',
  lt: '<',
  lte: '≤',
  gt: '>',
  gte: '≥',
  between: 'between',
  isTrue: 'is true',
  isFalse: 'is false',
  empty: 'is empty',
  notEmpty: 'is not empty',
};

/** How many values an operator takes: none, one, two (between) or a list. */
export type DqArity = 'none' | 'one' | 'two' | 'list';
export function operatorArity(operator: DqOperator): DqArity {
  if (operator === 'between') return 'two';
  if (operator === 'in') return 'list';
  if (operator === 'isTrue' || operator === 'isFalse' || operator === 'empty' || operator === 'notEmpty') return 'none';
  return 'one';
}

// ---------------------------------------------------------------- the whitelist

/**
 * Many-to-one joins an entity's columns may read through (a LEFT JOIN on the row's foreign key:
 * the row count never changes). The server holds the ON clauses; here only their names.
 */
export const DQ_JOINS = ['structure', 'compound', 'target', 'assay', 'document', 'phase', 'status'] as const;
export type DqJoin = (typeof DQ_JOINS)[number];

export interface DqColumn {
  key: string;
  label: string;
  type: DqColumnType;
  /** The column of the entity's table, or of the joined table named by `via`. */
  field: string;
  via?: DqJoin;
}

export interface DqEntity {
  key: DqEntityKey;
  label: string;
  /** The knowledge-base table and its primary key (the default sort and the paging tie-break). */
  table: string;
  primaryKey: string;
  /** The join that gives a row its structure (SDF export); none: no SDF. */
  structureVia?: 'self' | DqJoin;
  /** The results tab whose rows these are (an export job names one; targets are listed beside assays). */
  tab: ResultTabKey;
  columns: readonly DqColumn[];
  /** Columns ticked when the entity is chosen. */
  defaultColumns: readonly string[];
}

export const DQ_ENTITY_KEYS = ['structures', 'compounds', 'activities', 'assays', 'documents', 'targets', 'clinicalcompounds'] as const;
export type DqEntityKey = (typeof DQ_ENTITY_KEYS)[number];

const col = (key: string, label: string, type: DqColumnType, field: string = key, via?: DqJoin): DqColumn =>
  via ? { key, label, type, field, via } : { key, label, type, field };

export const DQ_ENTITIES: Record<DqEntityKey, DqEntity> = {
  structures: {
    key: 'structures',
    label: 'Structures',
    table: 'structures',
    primaryKey: 'str_id',
    structureVia: 'self',
    tab: 'structuretab',
    columns: [
      col('str_id', 'Structure id', 'integer'),
      col('canonical_smiles', 'SMILES', 'text'),
      col('inchikey', 'InChIKey', 'text'),
      col('mol_formula', 'Formula', 'text'),
      col('mol_weight', 'Molecular weight', 'number'),
      col('exact_mass', 'Exact mass', 'number'),
      col('logp_calc', 'cLogP', 'number'),
      col('logd_calc', 'LogD', 'number'),
      col('psa', 'Polar surface area', 'number'),
      col('hb_donors', 'H-bond donors', 'integer'),
      col('hb_acceptor', 'H-bond acceptors', 'integer'),
      col('rot_bonds', 'Rotatable bonds', 'integer'),
      col('heavy_atoms', 'Heavy atoms', 'integer'),
      col('pka_value', 'pKa', 'number'),
      col('solubility', 'Solubility', 'number'),
    ],
    defaultColumns: ['str_id', 'canonical_smiles', 'mol_formula', 'mol_weight', 'logp_calc'],
  },
  compounds: {
    key: 'compounds',
    label: 'Compounds',
    table: 'compounds',
    primaryKey: 'gvk_id',
    structureVia: 'structure',
    tab: 'structuretab',
    columns: [
      col('gvk_id', 'Compound id', 'integer'),
      col('name', 'Name', 'text'),
      col('compound_category', 'Category', 'text'),
      col('cas_number', 'CAS number', 'text'),
      col('chembl_id', 'ChEMBL id', 'text'),
      col('str_id', 'Structure id', 'integer'),
      col('smiles', 'SMILES', 'text', 'canonical_smiles', 'structure'),
      col('mol_weight', 'Molecular weight', 'number', 'mol_weight', 'structure'),
      col('ref_id', 'Reference id', 'integer'),
    ],
    defaultColumns: ['gvk_id', 'name', 'chembl_id', 'smiles'],
  },
  activities: {
    key: 'activities',
    label: 'Activities',
    table: 'activities',
    primaryKey: 'act_id',
    structureVia: 'structure',
    tab: 'activitiestab',
    columns: [
      col('act_id', 'Activity id', 'integer'),
      col('std_activity_type', 'Activity type', 'text'),
      col('std_act_prefix', 'Relation', 'text'),
      col('activity_value', 'Value', 'number'),
      col('standard_uom', 'Unit', 'text'),
      col('micro_molarvalue', 'Value (µM)', 'number'),
      col('pchembl_value', 'pChEMBL', 'number'),
      col('activity_type', 'Published type', 'text'),
      col('activity_remarks', 'Remarks', 'text'),
      col('activity_mechanism', 'Mechanism', 'text'),
      col('chembl_activity_id', 'ChEMBL activity id', 'integer'),
      col('str_id', 'Structure id', 'integer'),
      col('smiles', 'SMILES', 'text', 'canonical_smiles', 'structure'),
      col('gvk_id', 'Compound id', 'integer'),
      col('compound_name', 'Compound name', 'text', 'name', 'compound'),
      col('target_id', 'Target id', 'integer'),
      col('target_name', 'Target', 'text', 'name', 'target'),
      col('gene_symbol', 'Gene symbol', 'text', 'gene_symbol', 'target'),
      col('assay_id', 'Assay id', 'integer'),
      col('assay_chembl_id', 'Assay ChEMBL id', 'text', 'chembl_id', 'assay'),
      col('assay_type', 'Assay type', 'text', 'assay_type', 'assay'),
      col('ref_id', 'Reference id', 'integer'),
      col('year', 'Year', 'integer', 'year', 'document'),
    ],
    defaultColumns: ['act_id', 'target_name', 'std_activity_type', 'std_act_prefix', 'activity_value', 'standard_uom', 'smiles'],
  },
  assays: {
    key: 'assays',
    label: 'Assays',
    table: 'assays',
    primaryKey: 'assay_id',
    tab: 'assaytab',
    columns: [
      col('assay_id', 'Assay id', 'integer'),
      col('chembl_id', 'ChEMBL id', 'text'),
      col('description', 'Description', 'text'),
      col('assay_type', 'Assay type', 'text'),
      col('organism', 'Organism', 'text'),
      col('strain', 'Strain', 'text'),
      col('tissue', 'Tissue', 'text'),
      col('cells_cellline_organ', 'Cell line / organ', 'text'),
      col('bao_format', 'BAO format', 'text'),
      col('confidence_score', 'Confidence score', 'integer'),
      col('ph', 'pH', 'number'),
      col('temperature', 'Temperature', 'number'),
      col('wild_type', 'Wild type', 'boolean'),
      col('target_id', 'Target id', 'integer'),
      col('target_name', 'Target', 'text', 'name', 'target'),
      col('ref_id', 'Reference id', 'integer'),
    ],
    defaultColumns: ['assay_id', 'chembl_id', 'description', 'assay_type', 'target_name'],
  },
  documents: {
    key: 'documents',
    label: 'References',
    table: 'documents',
    primaryKey: 'ref_id',
    tab: 'documentstab',
    columns: [
      col('ref_id', 'Reference id', 'integer'),
      col('ref_type', 'Type', 'text'),
      col('title', 'Title', 'text'),
      col('journal_patent_name', 'Journal / patent office', 'text'),
      col('year', 'Year', 'integer'),
      col('volume', 'Volume', 'text'),
      col('pubmed_id', 'PubMed id', 'integer'),
      col('doi', 'DOI', 'text'),
      col('patent_no', 'Patent number', 'text'),
      col('chembl_id', 'ChEMBL id', 'text'),
    ],
    defaultColumns: ['ref_id', 'ref_type', 'title', 'journal_patent_name', 'year'],
  },
  targets: {
    key: 'targets',
    label: 'Targets',
    table: 'targets',
    primaryKey: 'target_id',
    tab: 'assaytab',
    columns: [
      col('target_id', 'Target id', 'integer'),
      col('name', 'Name', 'text'),
      col('target_type', 'Target type', 'text'),
      col('gene_symbol', 'Gene symbol', 'text'),
      col('uniprot_id', 'UniProt id', 'text'),
      col('entrez_gene_id', 'Entrez gene id', 'integer'),
      col('organism', 'Organism', 'text'),
      col('tax_id', 'Taxonomy id', 'integer'),
      col('chembl_id', 'ChEMBL id', 'text'),
    ],
    defaultColumns: ['target_id', 'name', 'target_type', 'gene_symbol', 'organism'],
  },
  clinicalcompounds: {
    key: 'clinicalcompounds',
    label: 'Clinical compounds',
    table: 'clinical_compounds',
    primaryKey: 'clinical_compound_id',
    structureVia: 'structure',
    tab: 'developmentcompoundstab',
    columns: [
      col('clinical_compound_id', 'Clinical compound id', 'integer'),
      col('drug_name', 'Drug name', 'text'),
      col('phase', 'Highest phase', 'text', 'name', 'phase'),
      col('status', 'Status', 'text', 'name', 'status'),
      col('approval_year', 'Approval year', 'integer'),
      col('mode_of_action', 'Mode of action', 'text'),
      col('last_significant_update', 'Last significant update', 'date'),
      col('reason_with_drawn', 'Reason withdrawn', 'text'),
      col('str_id', 'Structure id', 'integer'),
      col('smiles', 'SMILES', 'text', 'canonical_smiles', 'structure'),
    ],
    defaultColumns: ['clinical_compound_id', 'drug_name', 'phase', 'status', 'approval_year'],
  },
};

export function dqEntity(key: string): DqEntity | undefined {
  return Object.hasOwn(DQ_ENTITIES, key) ? DQ_ENTITIES[key as DqEntityKey] : undefined;
}

export function dqColumn(entity: DqEntity, key: string): DqColumn | undefined {
  return entity.columns.find((column) => column.key === key);
}

// ---------------------------------------------------------------- limits

export const DQ_LIMITS = {
  maxColumns: 40,
  maxFilters: 20,
  /** Values of one "is one of" list. */
  maxListValues: 500,
  maxTextLength: 500,
  maxPageSize: 100,
  maxPage: 100_000,
  /** Rows are counted up to this many; beyond, the answer says "more than". */
  countCap: 100_000,
  /** Rows one dynamic-query export holds (its rows are kept with the job). */
  maxExportRows: 25_000,
  savedPerUser: 100,
  maxNameLength: 100,
} as const;

// ---------------------------------------------------------------- requests

const Identifier = z.string().min(1).max(64);
const FilterValueSchema = z.union([z.string().max(DQ_LIMITS.maxTextLength), z.number().finite(), z.boolean()]);
export type DqFilterValue = z.infer<typeof FilterValueSchema>;

export const DqFilterSchema = z.object({
  column: Identifier,
  operator: z.enum(DQ_OPERATORS, { message: `Unknown operator; use one of ${DQ_OPERATORS.join(', ')}` }),
  /** One value (eq, lt, contains …); for between the lower bound. */
  value: FilterValueSchema.nullish(),
  /** Between: the upper bound. */
  value2: FilterValueSchema.nullish(),
  /** "is one of": the list. */
  values: z.array(FilterValueSchema).max(DQ_LIMITS.maxListValues).nullish(),
});
export type DqFilter = z.infer<typeof DqFilterSchema>;

export const DqSortSchema = z.object({ column: Identifier, direction: z.enum(['asc', 'desc']) });
export type DqSort = z.infer<typeof DqSortSchema>;

/** A query: what the user composed (saved as is). Entity, column and operator names are checked against the whitelist on the server. */
export const DqQuerySchema = z.object({
  entity: Identifier,
  columns: z.array(Identifier).min(1, 'Choose at least one column.').max(DQ_LIMITS.maxColumns),
  filters: z.array(DqFilterSchema).max(DQ_LIMITS.maxFilters, `At most ${DQ_LIMITS.maxFilters} filters.`).default([]),
  sort: DqSortSchema.nullish(),
});
export type DqQuery = z.infer<typeof DqQuerySchema>;
export type DqQueryInput = z.input<typeof DqQuerySchema>;

export const DqRunRequestSchema = DqQuerySchema.extend({
  page: z.number().int().min(0).max(DQ_LIMITS.maxPage).default(0),
  pageSize: z.number().int().min(1).max(DQ_LIMITS.maxPageSize).default(50),
});
export type DqRunRequest = z.infer<typeof DqRunRequestSchema>;

export const DqColumnInfoSchema = z.object({
  key: z.string(),
  label: z.string(),
  type: z.enum(DQ_COLUMN_TYPES),
  operators: z.array(z.enum(DQ_OPERATORS)),
});
export type DqColumnInfo = z.infer<typeof DqColumnInfoSchema>;

export const DqEntityInfoSchema = z.object({
  key: z.enum(DQ_ENTITY_KEYS),
  label: z.string(),
  /** SDF export possible (the rows have a structure). */
  hasStructure: z.boolean(),
  defaultColumns: z.array(z.string()),
  columns: z.array(DqColumnInfoSchema),
});
export type DqEntityInfo = z.infer<typeof DqEntityInfoSchema>;

export const DqTableColumnsRequestSchema = z.object({ entity: Identifier.nullish() });
export const DqTableColumnsResponseSchema = z.object({ entities: z.array(DqEntityInfoSchema) });
export type DqTableColumnsResponse = z.infer<typeof DqTableColumnsResponseSchema>;

const CellSchema = z.union([z.string(), z.number(), z.boolean(), z.null()]);
export const DqRunResponseSchema = z.object({
  columns: z.array(DqColumnInfoSchema),
  rows: z.array(z.record(z.string(), CellSchema)),
  /** Rows matching, counted up to `DQ_LIMITS.countCap`. */
  rowCount: z.number().int(),
  /** True when there are more than `rowCount` rows (the count stopped at the cap). */
  rowCountCapped: z.boolean(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type DqRunResponse = z.infer<typeof DqRunResponseSchema>;

export const DqSaveRequestSchema = z.object({
  name: z.string().trim().min(1, 'Name the query.').max(DQ_LIMITS.maxNameLength),
  query: DqQuerySchema,
});
export const DqSavedQuerySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  query: DqQuerySchema,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type DqSavedQuery = z.infer<typeof DqSavedQuerySchema>;
export const DqSavedListSchema = z.object({ queries: z.array(DqSavedQuerySchema) });
const SavedIdParams = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });

export const DqExportRequestSchema = DqQuerySchema.extend({
  format: ExportFormatSchema,
  /** The credits the user was shown (one per row); if the rows changed since, 409 instead of another price. */
  expectedCredits: z.number().int().nonnegative().optional(),
});
export type DqExportRequest = z.infer<typeof DqExportRequestSchema>;

// ---------------------------------------------------------------- checks shared by server and client

/**
 * What is wrong with a query against the whitelist, in words for the user (null: nothing). The
 * server answers 400 with it before any SQL; the page shows it beside the Run button.
 */
export function dqQueryProblem(query: DqQuery): { field: string; message: string } | null {
  const entity = dqEntity(query.entity);
  if (!entity) return { field: 'entity', message: `Unknown table "${query.entity}". Tables: ${DQ_ENTITY_KEYS.join(', ')}.` };
  const unknown = (key: string) =>
    `The ${entity.label} table has no column "${key}". Columns: ${entity.columns.map((c) => c.key).join(', ')}.`;
  for (const key of query.columns) if (!dqColumn(entity, key)) return { field: 'columns', message: unknown(key) };
  for (const [index, filter] of query.filters.entries()) {
    const column = dqColumn(entity, filter.column);
    if (!column) return { field: `filters.${index}.column`, message: unknown(filter.column) };
    const problem = filterProblem(column, filter);
    if (problem) return { field: `filters.${index}`, message: `Filter on ${column.label}: ${problem}` };
  }
  if (query.sort && !dqColumn(entity, query.sort.column)) return { field: 'sort.column', message: unknown(query.sort.column) };
  return null;
}

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

/** Whether a value fits a column's type ('' for fine, else why not). */
export function valueProblem(type: DqColumnType, value: DqFilterValue | null | undefined): string | null {
  if (value === null || value === undefined || value === '') return 'a value is needed.';
  switch (type) {
    case 'text':
      return typeof value === 'string' ? null : 'the value must be text.';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? null : 'the value must be a number.';
    case 'integer':
      return typeof value === 'number' && Number.isSafeInteger(value) ? null : 'the value must be a whole number.';
    case 'date':
      return typeof value === 'string' &&
        DATE_RE.test(value) &&
        !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) &&
        new Date(`${value}T00:00:00Z`).toISOString().startsWith(value)
        ? null
        : 'the value must be a date as YYYY-MM-DD.';
    case 'boolean':
      return 'a yes/no column takes no value; use "is true" or "is false".';
  }
}

function filterProblem(column: DqColumn, filter: DqFilter): string | null {
  const allowed = DQ_OPERATORS_BY_TYPE[column.type];
  if (!allowed.includes(filter.operator)) {
    return `"${DQ_OPERATOR_LABELS[filter.operator]}" does not apply to a ${column.type} column; use ${allowed.map((op) => `"${DQ_OPERATOR_LABELS[op]}"`).join(', ')}.`;
  }
  switch (operatorArity(filter.operator)) {
    case 'none':
      return null;
    case 'one':
      return valueProblem(column.type, filter.value);
    case 'two': {
      const problem = valueProblem(column.type, filter.value) ?? valueProblem(column.type, filter.value2);
      return problem ? `between needs two values: ${problem}` : null;
    }
    case 'list': {
      if (!filter.values?.length) return 'list at least one value.';
      for (const value of filter.values) {
        const problem = valueProblem(column.type, value);
        if (problem) return problem;
      }
      return null;
    }
  }
}

/** The whitelist as gettablecolumns answers it. */
export function dqEntityInfo(entity: DqEntity): DqEntityInfo {
  return {
    key: entity.key,
    label: entity.label,
    hasStructure: entity.structureVia !== undefined,
    defaultColumns: [...entity.defaultColumns],
    columns: entity.columns.map((column) => dqColumnInfo(column)),
  };
}

export function dqColumnInfo(column: DqColumn): DqColumnInfo {
  return { key: column.key, label: column.label, type: column.type, operators: [...DQ_OPERATORS_BY_TYPE[column.type]] };
}

// ---------------------------------------------------------------- endpoints

export const dynamicQueryEndpoints = {
  getTableColumns: defineEndpoint({
    method: 'POST',
    path: '/api/dynamicquery/gettablecolumns',
    access: 'authenticated',
    summary:
      'The dynamic query whitelist: the knowledge-base tables (or one, `entity`), their columns with types and the filter operators each type takes.',
    body: DqTableColumnsRequestSchema,
    response: DqTableColumnsResponseSchema,
  }),
  run: defineEndpoint({
    method: 'POST',
    path: '/api/dynamicquery/run',
    access: 'authenticated',
    summary: `Runs a dynamic query: one page of rows (at most ${DQ_LIMITS.maxPageSize}) in the chosen sort, and the number of matching rows counted up to ${DQ_LIMITS.countCap.toLocaleString('en-US')}. Unknown tables, columns or operators that do not fit a column's type answer 400 before anything runs.`,
    body: DqRunRequestSchema,
    response: DqRunResponseSchema,
  }),
  listSaved: defineEndpoint({
    method: 'GET',
    path: '/api/dynamicquery/saved',
    access: 'authenticated',
    summary: "The caller's saved dynamic queries, newest first.",
    response: DqSavedListSchema,
  }),
  save: defineEndpoint({
    method: 'POST',
    path: '/api/dynamicquery/saved',
    access: 'authenticated',
    summary: `Saves a dynamic query under a name (a name already used is replaced; at most ${DQ_LIMITS.savedPerUser} per user).`,
    body: DqSaveRequestSchema,
    response: DqSavedQuerySchema,
  }),
  openSaved: defineEndpoint({
    method: 'GET',
    path: '/api/dynamicquery/saved/:id',
    access: 'authenticated',
    summary: "One saved dynamic query of the caller (403 for another user's, 404 for none).",
    params: SavedIdParams,
    response: DqSavedQuerySchema,
  }),
  deleteSaved: defineEndpoint({
    method: 'DELETE',
    path: '/api/dynamicquery/saved/:id',
    access: 'authenticated',
    summary: "Deletes one saved dynamic query of the caller (403 for another user's, 404 for none).",
    params: SavedIdParams,
    response: z.object({ deleted: z.boolean() }),
  }),
  export: defineEndpoint({
    method: 'POST',
    path: '/api/dynamicquery/export',
    access: EXPORT_ROLES,
    summary: `Exports every row of a dynamic query (at most ${DQ_LIMITS.maxExportRows.toLocaleString('en-US')}) as CSV, XLSX or SDF through the export jobs, one download credit per row.`,
    body: DqExportRequestSchema,
    response: ExportJobSchema,
  }),
} as const;
