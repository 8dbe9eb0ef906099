import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { CompoundSource } from '@kb/contracts/workspace';
import type { Database } from '../../db/schema.ts';
import type { AuthContext } from '../../http/auth-hook.ts';
import { badRequest } from '../../http/errors.ts';
import type { ResultsService } from '../results/results-service.ts';
import { TAB_MODELS } from '../results/tab-model.ts';
import { objectRights } from './workspace-access.ts';

/**
 * The compounds (structure ids) a source names, for a collection or a sheet (docs/workspace.md):
 * ids that are structures of the knowledge base, the structures of a results tab's rows (ticked,
 * or all as filtered, as the SAR view takes them), or a collection the caller may read. Answered
 * sorted and distinct; more than `max` is a 400 saying how many there are.
 */
export class CompoundSources {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly results: ResultsService,
    /**
     * Every structure id of the knowledge base, when the search's columns in memory are current
     * (null otherwise): ids are then checked there instead of probed in the database, which a
     * sheet of 100,000 ids paid on every sort and page (≈ 300 ms).
     */
    private readonly structuresInMemory: () => Promise<{ has(id: number): boolean } | null> = () => Promise.resolve(null),
  ) {}

  async strIds(auth: AuthContext, source: CompoundSource, max: number, what: string): Promise<number[]> {
    const ids = await this.read(auth, source, max);
    if (ids.length > max) {
      throw badRequest(
        `A ${what} holds at most ${max.toLocaleString('en-US')} compounds; these rows have more. Narrow them first (filter the tab, or tick fewer rows).`,
        { max },
      );
    }
    return ids;
  }

  private async read(auth: AuthContext, source: CompoundSource, max: number): Promise<number[]> {
    switch (source.kind) {
      case 'ids':
        return this.knownStructures(source.strIds);
      case 'collection': {
        await objectRights(this.db, 'collection', source.collectionId, auth.userId, 'collection');
        const { rows } = await sql<{ str_id: number }>`SELECT i.str_id FROM collection_items i
          JOIN structures s ON s.str_id = i.str_id
          WHERE i.collection_id = ${source.collectionId} ORDER BY i.str_id LIMIT ${max + 1}`.execute(this.db);
        return rows.map((row) => Number(row.str_id));
      }
      case 'session':
        return this.sessionStructures(auth, source, max);
    }
  }

  /** The given ids that are structures of the knowledge base (others are dropped), sorted. */
  private async knownStructures(strIds: readonly number[]): Promise<number[]> {
    if (!strIds.length) return [];
    const known = await this.structuresInMemory();
    if (known) return [...new Set(strIds)].filter((id) => known.has(id)).sort((a, b) => a - b);
    // Probed one by one through the primary key: `= ANY(array)` of 100,000 ids took 1.2 s at M, the join a tenth.
    const { rows } = await sql<{ str_id: number }>`SELECT DISTINCT s.str_id FROM unnest(${[...new Set(strIds)]}::bigint[]) AS ids(str_id)
      JOIN structures s ON s.str_id = ids.str_id ORDER BY s.str_id`.execute(this.db);
    return rows.map((row) => Number(row.str_id));
  }

  private async sessionStructures(auth: AuthContext, source: Extract<CompoundSource, { kind: 'session' }>, max: number): Promise<number[]> {
    const strId = TAB_MODELS[source.tab].strId;
    if (!strId) throw badRequest('Compounds come from the Structures, Activities or Development Compounds tab.', { field: 'tab' });
    const { session, sets } = await this.results.sessionAndSets(auth, source.sessionid);
    const selection = source.selection ?? null;
    if (selection && !selection.selectAll && selection.selectedIds.length === 0) {
      throw badRequest('Tick at least one row, or take every row of the tab.', { field: 'selection' });
    }
    const { from, join, where } = await this.results.selectionScope(source.tab, session, selection, { strIdList: source.strIdList }, sets);
    return this.results.withWorkMem(async (trx) => {
      const { rows } = await sql<{ str_id: number }>`SELECT DISTINCT ${strId} AS str_id FROM ${from} ${join}
        WHERE ${where} AND ${strId} IS NOT NULL ORDER BY 1 LIMIT ${max + 1}`.execute(trx);
      return rows.map((row) => Number(row.str_id));
    });
  }
}
