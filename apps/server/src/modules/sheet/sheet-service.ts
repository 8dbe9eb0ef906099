import type { Kysely } from 'kysely';
import type {
  SheetColumnInfo,
  SheetEndpoint,
  SheetExportRequest,
  SheetPage,
  SheetProperty,
  SheetRequest,
  SheetSuggestResponse,
} from '@kb/contracts/sheet';
import { SHEET_EXPORT_MAX_ROWS, SHEET_MAX_COMPOUNDS } from '@kb/contracts/sheet';
import type { SheetSource } from '@kb/contracts/sheet';
import { ERROR_CODES } from '@kb/contracts/errors';
import { countedNoun } from '@kb/contracts/text';
import type { Database } from '../../db/schema.ts';
import type { AuthContext } from '../../http/auth-hook.ts';
import { HttpError, badRequest } from '../../http/errors.ts';
import type { CompoundSources } from '../workspace/compound-source.ts';
import type { ExportService } from '../export/export-service.ts';
import { CostLru, idsKey } from './sheet-cache.ts';
import type { EndpointColumn } from './sheet-columns.ts';
import { buildColumn, endpointKey, endpointLabel, optionOf } from './sheet-columns.ts';
import type { FactsRow } from './sheet-queries.ts';
import { compoundFacts, endpointMeasurements, endpointNames, labelGroups, pageCompounds, sqlGroups } from './sheet-queries.ts';
import { memoryFacts, memoryGroups, memoryMeasurements } from './sheet-memory.ts';
import type { KbColumns } from '../search/search-service.ts';
import type { BuiltSheet, ColumnWithInfo } from './sheet-model.ts';
import { PROPERTY_FIELD, cellAt, differenceAt } from './sheet-model.ts';
import type { SheetView } from './sheet-order.ts';
import { orderRows } from './sheet-order.ts';
import { sheetExportRows } from './sheet-export.ts';

/**
 * The compound × endpoint sheet (docs/workspace.md "The sheet"). A call names its source and
 * columns; the service reads the source's compounds, builds (or finds) each endpoint's column and
 * the compounds' properties, then filters, sorts and pages in memory. Columns are kept per
 * compound list and endpoint (CostLru), so a sort, a page or one more endpoint reads no activity.
 */

/** Cells kept across sheets (about 150 bytes each): ~300 MB at most. */
const CELL_BUDGET = 2_000_000;
/** Compounds' properties kept across sheets (rows). */
const FACT_BUDGET = 1_000_000;

export class SheetService {
  private readonly columns = new CostLru<ColumnWithInfo>(CELL_BUDGET);
  private readonly facts = new CostLru<FactsRow[]>(FACT_BUDGET);

  constructor(
    private readonly db: Kysely<Database>,
    private readonly sources: CompoundSources,
    private readonly exports: ExportService,
    /**
     * The knowledge base's columns in memory when they are current (the search's bitmap engine):
     * measurements are then read from them; else (being read, or no engine) from the database.
     */
    private readonly kbColumns: () => Promise<KbColumns | null> = () => Promise.resolve(null),
  ) {}

  /** `POST /api/sheet/endpoints`: what the source's compounds were measured on, most compounds first. */
  async suggest(auth: AuthContext, source: SheetSource): Promise<SheetSuggestResponse> {
    const strIds = await this.compounds(auth, source);
    if (!strIds.length) return { compounds: 0, targets: [], assays: [] };
    const columns = await this.kbColumns();
    const [target, assay] = columns
      ? [memoryGroups(columns, strIds, 'target'), memoryGroups(columns, strIds, 'assay')]
      : await Promise.all([sqlGroups(this.db, strIds, 'target'), sqlGroups(this.db, strIds, 'assay')]);
    const [targets, assays] = await Promise.all([labelGroups(this.db, 'target', target), labelGroups(this.db, 'assay', assay)]);
    return {
      compounds: strIds.length,
      targets: targets.map((row) => optionOf('target', row)),
      assays: assays.map((row) => optionOf('assay', row)),
    };
  }

  /** `POST /api/sheet/page`. */
  async page(auth: AuthContext, request: SheetRequest): Promise<SheetPage> {
    const sheet = await this.build(auth, request);
    const order = orderRows(sheet, viewOf(request));
    const start = request.page * request.pageSize;
    if (start > 0 && start >= order.length) {
      const lastPage = Math.max(0, Math.ceil(order.length / request.pageSize) - 1);
      throw badRequest(`The sheet has ${countedNoun(order.length, 'row', 'rows')}; its last page is ${lastPage}.`, { lastPage });
    }
    const positions = order.slice(start, start + request.pageSize);
    const shownIds = positions.map((position) => sheet.strIds[position]!);
    const compounds = await pageCompounds(this.db, shownIds);
    return {
      compounds: sheet.strIds.length,
      rowCount: order.length,
      page: request.page,
      pageSize: request.pageSize,
      columns: sheet.columns.map((c) => c.info),
      differences: sheet.differences.map((d) => ({ ...d, withValue: this.differenceCount(sheet, d, request) })),
      sort: request.sort,
      rows: positions.map((position) => {
        const strId = sheet.strIds[position]!;
        const compound = compounds.get(strId);
        return {
          strId,
          smiles: compound?.smiles ?? '',
          name: compound?.name ?? null,
          properties: propertiesOf(sheet.facts[position], request.properties),
          cells: sheet.columns.map((c) => cellAt(c.column, position, request.aggregate)),
          differences: sheet.differences.map((d) => differenceAt(sheet, d, position, request.aggregate)),
        };
      }),
    };
  }

  /** `POST /api/sheet/export`: every row of the sheet as filtered and sorted, charged one credit a row. */
  async export(auth: AuthContext, request: SheetExportRequest): Promise<{ jobId: number; background: boolean }> {
    const sheet = await this.build(auth, request);
    const order = orderRows(sheet, viewOf(request));
    if (!order.length) throw badRequest('Nothing to export: no compound passes the sheet’s filters.', { field: 'filters' });
    if (order.length > SHEET_EXPORT_MAX_ROWS) {
      throw badRequest(
        `A sheet exports at most ${SHEET_EXPORT_MAX_ROWS.toLocaleString('en-US')} rows; this one has ${order.length.toLocaleString('en-US')}. Filter it first.`,
        { rows: order.length, max: SHEET_EXPORT_MAX_ROWS },
      );
    }
    if (request.expectedCredits !== undefined && request.expectedCredits !== order.length) {
      const n = order.length.toLocaleString('en-US');
      throw new HttpError(409, {
        message: `The sheet changed since its price was shown: it now holds ${n} rows (${n} credits). Check the new price and export again.`,
        code: ERROR_CODES.conflict,
        details: { rows: order.length, credits: order.length },
      });
    }
    const compounds = await pageCompounds(
      this.db,
      order.map((position) => sheet.strIds[position]!),
    );
    const { columns, rows } = sheetExportRows(sheet, order, compounds, request);
    return this.exports.createPrepared(auth, null, {
      source: 'sheet',
      tab: 'structuretab',
      format: request.format,
      label: 'Compound sheet',
      description: `Compound sheet · ${countedNoun(sheet.columns.length, 'endpoint', 'endpoints')}`,
      columns,
      rows,
    });
  }

  private async compounds(auth: AuthContext, source: SheetSource): Promise<number[]> {
    return this.sources.strIds(auth, source, SHEET_MAX_COMPOUNDS, 'sheet');
  }

  /** Reads (or finds) what the request's columns need. */
  async build(auth: AuthContext, request: Omit<SheetRequest, 'page' | 'pageSize'>): Promise<BuiltSheet> {
    checkRequest(request);
    const strIds = await this.compounds(auth, request.source);
    const key = idsKey(strIds);
    const [facts, columns] = await Promise.all([this.factsOf(key, strIds), this.columnsOf(key, strIds, request.endpoints)]);
    const differences = request.differences.map(({ a, b }) => {
      for (const index of [a, b]) {
        if (!columns[index]!.column.molar)
          throw badRequest(
            `${columns[index]!.info.label} is not a molar measure: a difference of its values says nothing. Choose two endpoints measured as concentrations.`,
            { field: 'differences' },
          );
      }
      return { a, b, label: `${columns[a]!.info.label} − ${columns[b]!.info.label}` };
    });
    return { strIds, facts, columns, differences };
  }

  private async factsOf(key: string, strIds: readonly number[]): Promise<FactsRow[]> {
    const cached = this.facts.get(key);
    if (cached) return cached;
    const columns = await this.kbColumns();
    const facts = (columns && memoryFacts(columns, strIds)) || (await this.readFacts(strIds));
    this.facts.set(key, facts, facts.length);
    return facts;
  }

  private async readFacts(strIds: readonly number[]): Promise<FactsRow[]> {
    const rows = await compoundFacts(this.db, strIds);
    // Positions must line up with the ids: a structure deleted meanwhile keeps an empty row.
    const byId = new Map(rows.map((row) => [row.str_id, row]));
    return strIds.map((id) => byId.get(id) ?? emptyFacts(id));
  }

  /** The endpoints' columns: those kept are reused, the others read in one pass over the compounds' activities. */
  private async columnsOf(key: string, strIds: readonly number[], endpoints: readonly SheetEndpoint[]): Promise<ColumnWithInfo[]> {
    const keys = endpoints.map((endpoint) => `${key}|${endpointKey(endpoint)}`);
    const found = keys.map((cacheKey) => this.columns.get(cacheKey));
    const missing = endpoints.filter((_, i) => !found[i]);
    if (!missing.length) return found as ColumnWithInfo[];
    const names = await Promise.all(missing.map((endpoint) => endpointNames(this.db, endpoint)));
    names.forEach((name, i) => {
      const endpoint = missing[i]!;
      if (!name)
        throw badRequest(`There is no ${endpoint.kind === 'target' ? `target ${endpoint.targetId}` : `assay ${endpoint.assayId}`}.`, {
          field: 'endpoints',
        });
    });
    const columns = await this.kbColumns();
    const rows = columns ? memoryMeasurements(columns, strIds, missing) : await endpointMeasurements(this.db, strIds, missing);
    const built = missing.map((endpoint, i) => {
      const own = rows[i]!;
      const column = buildColumn(endpoint, strIds, own);
      const info = columnInfo(column, endpointLabel(endpoint, names[i]!), names[i]!, own.length);
      this.columns.set(`${key}|${endpointKey(endpoint)}`, { column, info }, column.cells.size + 1);
      return { column, info };
    });
    return found.map((kept) => kept ?? built.shift()!);
  }

  private differenceCount(sheet: BuiltSheet, d: { a: number; b: number }, request: SheetRequest): number {
    let n = 0;
    for (const position of sheet.columns[d.a]!.column.cells.keys()) if (differenceAt(sheet, d, position, request.aggregate)) n++;
    return n;
  }
}

function checkRequest(request: Omit<SheetRequest, 'page' | 'pageSize'>): void {
  const keys = request.endpoints.map(endpointKey);
  if (new Set(keys).size !== keys.length)
    throw badRequest('An endpoint is chosen twice; each column must be a different endpoint.', { field: 'endpoints' });
  for (const { a, b } of request.differences) {
    if (a === b || a >= request.endpoints.length || b >= request.endpoints.length)
      throw badRequest(`A difference takes two different endpoints of the sheet (0–${request.endpoints.length - 1}).`, {
        field: 'differences',
      });
  }
  const columns = [request.sort?.column, ...request.filters.map((f) => f.column)].filter((c): c is string => !!c);
  for (const column of columns) {
    const match = /^([ed])(\d+)$/.exec(column);
    if (!match) continue;
    const count = match[1] === 'e' ? request.endpoints.length : request.differences.length;
    if (Number(match[2]) >= count) throw badRequest(`The sheet has no column ${column}.`, { field: 'sort' });
  }
}

function viewOf(request: Omit<SheetRequest, 'page' | 'pageSize'>): SheetView {
  return { aggregate: request.aggregate, sort: request.sort, filters: request.filters };
}

function emptyFacts(strId: number): FactsRow {
  return { str_id: strId, mw: null, clogp: null, psa: null, hbd: null, hba: null, rotb: null, heavy_atoms: null };
}

function propertiesOf(facts: FactsRow | undefined, properties: readonly SheetProperty[]): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  for (const property of properties) {
    const value = facts?.[PROPERTY_FIELD[property]];
    out[property] = value == null ? null : Number(value);
  }
  return out;
}

function columnInfo(
  column: EndpointColumn,
  label: string,
  names: { targetName: string | null; geneSymbol: string | null },
  measurements: number,
): SheetColumnInfo {
  const censoredOnly = column.cells.censoredOnly;
  const notes = [
    column.molar
      ? 'pActivity (−log10 molar): pChEMBL where given, else the standard value converted; a censored concentration flips (IC50 < 10 nM is pIC50 > 8).'
      : `Not a molar measure: values as published${column.unit ? ` (${column.unit})` : ''}.`,
    'The median of the exact values; censored values are counted, never averaged.',
  ];
  if (censoredOnly)
    notes.push(`${countedNoun(censoredOnly, 'compound has', 'compounds have')} only censored values: the bound is shown with its sign.`);
  if (column.leftOut)
    notes.push(`${countedNoun(column.leftOut, 'measurement', 'measurements')} in another unit or without a usable relation left out.`);
  return {
    endpoint: column.endpoint,
    label,
    targetName: names.targetName,
    geneSymbol: names.geneSymbol,
    compounds: column.cells.size,
    activities: measurements,
    molar: column.molar,
    unit: column.unit,
    withValue: column.cells.size,
    note: notes.join(' '),
  };
}
