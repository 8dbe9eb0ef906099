import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import { AppliedFilterSchema, SAVED_QUERY_FORMAT, SearchCriteriaSchema, SixCountsSchema } from '@kb/contracts/search';
import type { CriteriaOption, HomeOverview, SaveQueryRequestSchema, SavedQueryFile, VariableSaveRequestSchema } from '@kb/contracts/search';
import type { Database } from '../../db/schema.ts';
import type { AuthContext } from '../../http/auth-hook.ts';
import { notFound } from '../../http/errors.ts';
import type { SearchService } from './search-service.ts';

type SaveQueryRequest = z.infer<typeof SaveQueryRequestSchema>;
type VariableSaveRequest = z.infer<typeof VariableSaveRequestSchema>;

const RECENT_SEARCHES = 10;
const RECENT_DOCUMENTS = 8;

const toIso = (d: Date | string) => (d instanceof Date ? d.toISOString() : new Date(d).toISOString());
/** jsonb may come back parsed (pg) or as text (some drivers): accept both. */
const parseJson = (value: unknown): unknown => (typeof value === 'string' ? JSON.parse(value) : value);

/** Saved searches: the downloadable query file, named criteria in the account, and the home overview. */
export class SavedQueryService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly search: SearchService,
  ) {}

  fileFor(request: SaveQueryRequest): SavedQueryFile {
    // Spec §5: saved-query export drops entries whose simple search lists are empty.
    const rows = request.searchcriteria.rows.filter((row) => !isEmptyListRow(row));
    return {
      format: SAVED_QUERY_FORMAT,
      name: request.name,
      savedAt: new Date().toISOString(),
      searchcriteria: { rows },
      appliedFilters: request.appliedFilters,
    };
  }

  async list(auth: AuthContext): Promise<CriteriaOption[]> {
    const rows = await this.db
      .selectFrom('saved_criteria')
      .select(['criteria_id', 'criteria_name', 'is_active', 'created_at'])
      .where('user_id', '=', auth.userId)
      .orderBy('created_at', 'desc')
      .execute();
    return rows.map((r) => ({ ...r, created_at: toIso(r.created_at) }));
  }

  async save(auth: AuthContext, request: VariableSaveRequest) {
    const row = await this.db.transaction().execute(async (trx) => {
      if (request.makeDefault)
        await trx.updateTable('saved_criteria').set({ is_active: false }).where('user_id', '=', auth.userId).execute();
      return trx
        .insertInto('saved_criteria')
        .values({
          user_id: auth.userId,
          criteria_name: request.name,
          criteria: JSON.stringify(request.searchcriteria),
          applied_filters: JSON.stringify(request.appliedFilters),
          is_active: request.makeDefault,
        })
        .returning('criteria_id')
        .executeTakeFirstOrThrow();
    });
    return this.detail(auth, row.criteria_id);
  }

  /** Makes one saved criteria the user's default and answers it. */
  async select(auth: AuthContext, criteriaId: number) {
    await this.detail(auth, criteriaId);
    await this.db.transaction().execute(async (trx) => {
      await trx.updateTable('saved_criteria').set({ is_active: false }).where('user_id', '=', auth.userId).execute();
      await trx
        .updateTable('saved_criteria')
        .set({ is_active: true })
        .where('user_id', '=', auth.userId)
        .where('criteria_id', '=', criteriaId)
        .execute();
    });
    return this.detail(auth, criteriaId);
  }

  async remove(auth: AuthContext, criteriaId: number): Promise<number> {
    const result = await this.db
      .deleteFrom('saved_criteria')
      .where('user_id', '=', auth.userId)
      .where('criteria_id', '=', criteriaId)
      .executeTakeFirst();
    if (!Number(result.numDeletedRows)) throw notFound(`You have no saved search with id ${criteriaId}.`);
    return Number(result.numDeletedRows);
  }

  async detail(auth: AuthContext, criteriaId: number) {
    // Another user's criteria id answers exactly like an unknown one: ids are not disclosed.
    const row = await this.db
      .selectFrom('saved_criteria')
      .selectAll()
      .where('user_id', '=', auth.userId)
      .where('criteria_id', '=', criteriaId)
      .executeTakeFirst();
    if (!row) throw notFound(`You have no saved search with id ${criteriaId}.`);
    return {
      criteria_id: row.criteria_id,
      criteria_name: row.criteria_name,
      is_active: row.is_active,
      created_at: toIso(row.created_at),
      searchcriteria: SearchCriteriaSchema.parse(parseJson(row.criteria)),
      appliedFilters: AppliedFilterSchema.array().parse(parseJson(row.applied_filters)),
    };
  }

  async home(auth: AuthContext): Promise<HomeOverview> {
    const [counts, recent, savedQueries, documents] = await Promise.all([
      this.search.defaultCounts(),
      // The same criteria run again are one recent search: its latest run (and the latest summary it was given).
      sql<{ id: string; summary: string | null; created_at: Date | string; counts: unknown; criteria: unknown }>`
        SELECT id, summary, created_at, counts, criteria FROM (
          SELECT DISTINCT ON (same) id, created_at, counts, criteria, named AS summary FROM (
            SELECT s.id, s.created_at, s.counts, s.criteria, coalesce(s.criteria_hash, s.id) AS same,
              first_value(s.summary) OVER (PARTITION BY coalesce(s.criteria_hash, s.id) ORDER BY s.summary IS NULL, s.created_at DESC) AS named
            FROM search_sessions s
            WHERE s.user_id = ${auth.userId} AND s.kind = 'search' AND s.counts IS NOT NULL) runs
          ORDER BY same, created_at DESC) latest
        ORDER BY created_at DESC LIMIT ${RECENT_SEARCHES}`
        .execute(this.db)
        .then((result) => result.rows),
      this.list(auth),
      sql<{ ref_id: number; ref_type: string; title: string | null; reference: string | null; year: number | null; activities: number }>`
        SELECT d.ref_id, d.ref_type, d.title, d.reference, d.year,
          (SELECT count(*)::int FROM activities a WHERE a.ref_id = d.ref_id) AS activities
        FROM documents d ORDER BY d.ref_id DESC LIMIT ${RECENT_DOCUMENTS}`.execute(this.db),
    ]);
    return {
      counts,
      recentSearches: recent.map((r) => ({
        sessionid: r.id,
        summary: r.summary,
        createdAt: toIso(r.created_at),
        counts: SixCountsSchema.nullable().catch(null).parse(parseJson(r.counts)),
        searchcriteria: SearchCriteriaSchema.nullable().catch(null).parse(parseJson(r.criteria)),
      })),
      savedQueries,
      recentDocuments: documents.rows,
    };
  }
}

/** A row that is only a list (ids, names) and whose list is empty carries no search. */
function isEmptyListRow(row: SaveQueryRequest['searchcriteria']['rows'][number]): boolean {
  switch (row.selectedOption) {
    case 'target':
      return row.targets.length === 0;
    case 'activitymechanism':
      return row.mechanisms.length === 0;
    case 'compoundcategories':
      return row.categories.length === 0;
    case 'clinicalphase':
      return row.phases.length === 0;
    default:
      return false;
  }
}
