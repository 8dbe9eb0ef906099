import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type {
  DqEntity,
  DqExportRequest,
  DqQuery,
  DqRunRequest,
  DqRunResponse,
  DqSavedQuery,
  DqTableColumnsResponse,
} from '@kb/contracts/dynamic-query';
import { DQ_ENTITIES, DQ_ENTITY_KEYS, DQ_LIMITS, dqColumnInfo, dqEntity, dqEntityInfo, dqQueryProblem } from '@kb/contracts/dynamic-query';
import type { ResultRow } from '@kb/contracts/results';
import { ERROR_CODES } from '@kb/contracts/errors';
import type { Database } from '../../db/schema.ts';
import type { AuthContext } from '../../http/auth-hook.ts';
import { HttpError, badRequest, forbidden, notFound } from '../../http/errors.ts';
import type { ExportService } from '../export/export-service.ts';
import type { ExportColumn } from '../export/export-formats.ts';
import { SMILES_FIELD, TITLE_FIELD } from '../export/export-formats.ts';
import type { QueryParts } from './dq-sql.ts';
import { fromClause, orderClause, primaryKeyExpr, resolveQuery, selectList, structureSmiles, whereClause } from './dq-sql.ts';

/**
 * The dynamic query (docs/dynamic-query.md): the whitelist, a page of rows with a capped count,
 * saved queries (owner only) and the export through the export jobs and credits.
 */

export interface DqSettings {
  /** Longest statement of a dynamic query (PostgreSQL's statement_timeout inside its transaction). */
  statementTimeoutMs: number;
  /** Rows are counted up to this many (DQ_LIMITS.countCap; smaller in tests). */
  countCap: number;
}

export const DEFAULT_DQ_SETTINGS: DqSettings = { statementTimeoutMs: 30_000, countCap: DQ_LIMITS.countCap };

/** PostgreSQL's SQLSTATE for a statement cancelled by statement_timeout. */
const QUERY_CANCELED = '57014';

export class DynamicQueryService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly exports: ExportService,
    private readonly settings: DqSettings = DEFAULT_DQ_SETTINGS,
  ) {}

  /** Spec `api/dynamicquery/gettablecolumns`: the whitelist, all tables or one. */
  tableColumns(entityKey: string | null | undefined): DqTableColumnsResponse {
    if (entityKey == null) return { entities: DQ_ENTITY_KEYS.map((key) => dqEntityInfo(DQ_ENTITIES[key])) };
    const entity = dqEntity(entityKey);
    if (!entity) throw badRequest(`Unknown table "${entityKey}". Tables: ${DQ_ENTITY_KEYS.join(', ')}.`, { field: 'entity' });
    return { entities: [dqEntityInfo(entity)] };
  }

  /** The query checked against the whitelist: 400 naming what is wrong, before any SQL. */
  private checked(query: DqQuery): { entity: DqEntity; parts: QueryParts } {
    const problem = dqQueryProblem(query);
    if (problem) throw badRequest(problem.message, { field: problem.field });
    const entity = dqEntity(query.entity)!;
    return { entity, parts: resolveQuery(entity, query) };
  }

  /**
   * Bounded work: a transaction with a statement timeout (a user's sort of 20 M unindexed rows
   * stops there instead of holding a connection), no JIT and memory for sorts.
   */
  private async bounded<T>(work: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
    try {
      return await this.db.transaction().execute(async (trx) => {
        await sql`SELECT set_config('statement_timeout', ${String(this.settings.statementTimeoutMs)}, true)`.execute(trx);
        await sql`SET LOCAL jit = off`.execute(trx);
        await sql`SET LOCAL work_mem = '64MB'`.execute(trx);
        return work(trx);
      });
    } catch (error) {
      if ((error as { code?: string }).code === QUERY_CANCELED) {
        const seconds = Math.round(this.settings.statementTimeoutMs / 1000);
        throw badRequest(
          `This query ran longer than ${seconds} s and was stopped. Narrow it with a filter (an id, a type, a name) or sort by another column.`,
          { field: 'filters' },
        );
      }
      throw error;
    }
  }

  /** Rows matching, counted up to `cap` (a whole-table count at millions of rows would stall). */
  private async count(trx: Kysely<Database>, entity: DqEntity, parts: QueryParts, cap: number): Promise<number> {
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM (SELECT 1 ${fromClause(
      entity,
      parts.filtered.map((f) => f.column),
    )}
      WHERE ${whereClause(parts)} LIMIT ${cap + 1}) AS capped`.execute(trx);
    return rows[0]?.n ?? 0;
  }

  async run(request: DqRunRequest): Promise<DqRunResponse> {
    const { entity, parts } = this.checked(request);
    const needs = [...parts.selected, ...parts.filtered.map((f) => f.column), ...(parts.sort.column ? [parts.sort.column] : [])];
    return this.bounded(async (trx) => {
      const cap = this.settings.countCap;
      const counted = await this.count(trx, entity, parts, cap);
      const { rows } = await sql<Record<string, string | number | boolean | null>>`SELECT ${selectList(parts)}
        ${fromClause(entity, needs)} WHERE ${whereClause(parts)} ${orderClause(entity, parts)}
        LIMIT ${request.pageSize} OFFSET ${request.page * request.pageSize}`.execute(trx);
      return {
        columns: parts.selected.map(dqColumnInfo),
        rows,
        rowCount: Math.min(counted, cap),
        rowCountCapped: counted > cap,
        page: request.page,
        pageSize: request.pageSize,
      };
    });
  }

  // ------------------------------------------------------------ saved queries

  async listSaved(auth: AuthContext): Promise<{ queries: DqSavedQuery[] }> {
    const rows = await this.db
      .selectFrom('dynamic_queries')
      .selectAll()
      .where('user_id', '=', auth.userId)
      .orderBy('updated_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return { queries: rows.map(toSaved) };
  }

  /** Saves under a name (a used name is replaced); the query must be valid against the whitelist. */
  async save(auth: AuthContext, name: string, query: DqQuery): Promise<DqSavedQuery> {
    this.checked(query);
    return this.db.transaction().execute(async (trx) => {
      // One user's saves run one at a time, so the limit holds under concurrent saves.
      await trx.selectFrom('users').select('id').where('id', '=', auth.userId).forUpdate().execute();
      const existing = await trx
        .selectFrom('dynamic_queries')
        .select('id')
        .where('user_id', '=', auth.userId)
        .where('name', '=', name)
        .executeTakeFirst();
      if (!existing) {
        const { n } = await trx
          .selectFrom('dynamic_queries')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('user_id', '=', auth.userId)
          .executeTakeFirstOrThrow();
        if (Number(n) >= DQ_LIMITS.savedPerUser)
          throw badRequest(`You have ${DQ_LIMITS.savedPerUser} saved queries, the most one user may keep. Delete one first.`, {
            field: 'name',
          });
      }
      const row = await trx
        .insertInto('dynamic_queries')
        .values({ user_id: auth.userId, name, query: JSON.stringify(query) })
        .onConflict((oc) => oc.columns(['user_id', 'name']).doUpdateSet({ query: JSON.stringify(query), updated_at: new Date() }))
        .returningAll()
        .executeTakeFirstOrThrow();
      return toSaved(row);
    });
  }

  /** One of the caller's saved queries: 404 for none, 403 for another user's. */
  async open(auth: AuthContext, id: number): Promise<DqSavedQuery> {
    const row = await this.db.selectFrom('dynamic_queries').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound(`There is no saved query ${id}.`);
    if (row.user_id !== auth.userId) throw forbidden('This saved query belongs to another user.');
    return toSaved(row);
  }

  async deleteSaved(auth: AuthContext, id: number): Promise<{ deleted: boolean }> {
    await this.open(auth, id);
    await this.db.deleteFrom('dynamic_queries').where('id', '=', id).where('user_id', '=', auth.userId).execute();
    return { deleted: true };
  }

  // ------------------------------------------------------------ export

  /**
   * Exports every row of the query through the export jobs: the rows are read now (at most
   * DQ_LIMITS.maxExportRows, in the query's sort) and kept with the job, priced one credit per row
   * and charged by the export service's ledger movement (402 when the balance is short).
   */
  async export(auth: AuthContext, request: DqExportRequest): Promise<{ jobId: number; background: boolean }> {
    const { entity, parts } = this.checked(request);
    const smiles = structureSmiles(entity);
    if (request.format === 'sdf' && !smiles) {
      throw badRequest(`An SDF holds structures; ${entity.label} rows have none. Export them as CSV or XLSX.`, { field: 'format' });
    }
    const extra = [sql`${primaryKeyExpr(entity)} AS ${sql.id(TITLE_FIELD)}`];
    if (smiles) extra.push(sql`${smiles.expr} AS ${sql.id(SMILES_FIELD)}`);
    const needs = [
      ...parts.selected,
      ...parts.filtered.map((f) => f.column),
      ...(parts.sort.column ? [parts.sort.column] : []),
      ...(smiles?.needs ?? []),
    ];
    const rows = await this.bounded(async (trx) => {
      const counted = await this.count(trx, entity, parts, DQ_LIMITS.maxExportRows);
      if (counted === 0) throw badRequest('Nothing to export: no row matches this query.', { field: 'filters' });
      if (counted > DQ_LIMITS.maxExportRows) {
        throw badRequest(
          `One dynamic-query export holds at most ${DQ_LIMITS.maxExportRows.toLocaleString('en-US')} rows; this query has more. Add a filter.`,
          { field: 'filters' },
        );
      }
      if (request.expectedCredits !== undefined && request.expectedCredits !== counted) {
        throw new HttpError(409, {
          message: `The rows of this query changed since their price was shown: it now holds ${counted.toLocaleString('en-US')} rows (${counted.toLocaleString('en-US')} credits). Check the new price and export again.`,
          code: ERROR_CODES.conflict,
          details: { rows: counted, credits: counted },
        });
      }
      const { rows } = await sql<ResultRow>`SELECT ${selectList(parts, extra)} ${fromClause(entity, needs)}
        WHERE ${whereClause(parts)} ${orderClause(entity, parts)} LIMIT ${DQ_LIMITS.maxExportRows}`.execute(trx);
      return rows;
    });
    const columns: ExportColumn[] = parts.selected.map((column) => ({
      key: column.key,
      label: column.label,
      // Yes/no values are written as text; dates are already YYYY-MM-DD text.
      type: column.type === 'boolean' ? 'text' : column.type,
    }));
    for (const row of rows)
      for (const column of parts.selected)
        if (column.type === 'boolean' && row[column.key] !== null) row[column.key] = row[column.key] ? 'yes' : 'no';
    return this.exports.createPrepared(auth, null, {
      source: 'dynamicquery',
      tab: entity.tab,
      format: request.format,
      label: `Dynamic query ${entity.label}`,
      columns,
      rows,
    });
  }
}

type SavedRow = { id: number; name: string; query: unknown; created_at: Date; updated_at: Date };

function toSaved(row: SavedRow): DqSavedQuery {
  return {
    id: Number(row.id),
    name: row.name,
    query: row.query as DqQuery,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}
