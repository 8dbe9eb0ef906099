import crypto from 'node:crypto';
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { DefaultCounts, SearchCounts, SearchCriteria, SearchProgress } from '@kb/contracts/search';
import { ACTIVITY_CAP } from '@kb/contracts/search';
import type { Database } from '../../db/schema.ts';
import { forbidden } from '../../http/errors.ts';
import type { AuthContext } from '../../http/auth-hook.ts';
import { clearSets, compileCriteria, materialiseSets, readCounts } from './materialise.ts';
import type { ChemEngine } from '../chemistry/chem-engine.ts';
import type { CompileContext } from './row-compiler.ts';
import { StructureRowResolver, purgeStaleHits, searchCancelled } from './structure-query.ts';

/** Search sessions unused for this long are dropped with their sets. */
const SESSION_TTL_HOURS = 24;
const DEFAULT_COUNTS_TTL_MS = 5 * 60_000;

export interface SearchServiceOptions {
  /** Spec §5 cap (750,000); lowered only by tests that need to reach it on small data. */
  activityCap?: number;
  /** Longest a structure search may run before it is stopped with a message. */
  structureTimeLimitMs?: number;
}

/** A run in this process: its cancel switch and what it has done so far. */
interface LiveRun {
  userId: number;
  controller: AbortController;
  progress: SearchProgress;
}

export type SessionKind = 'search' | 'selection';

class RollbackWith extends Error {
  constructor(readonly counts: SearchCounts) {
    super('rollback');
  }
}

/** Stable hash of criteria: the same search in the same session is not run twice. */
function criteriaHash(criteria: SearchCriteria): string {
  return crypto.createHash('sha256').update(JSON.stringify(criteria)).digest('hex');
}

/**
 * Search sessions: owned by one user, identified by a client-made UUID, holding the id sets of
 * one search. The spec's three log calls and the count call arrive together for one session, so
 * one run is shared by all of them (in this process; other processes see status `running` in the
 * database and wait for `ready`).
 */
export class SearchService {
  private readonly runs = new Map<string, Promise<SearchCounts>>();
  private readonly live = new Map<string, LiveRun>();
  private defaultCountsCache: { at: number; value: DefaultCounts } | null = null;
  private readonly activityCap: number;
  private readonly structureTimeLimitMs: number;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly engine: ChemEngine,
    options: SearchServiceOptions = {},
  ) {
    this.activityCap = options.activityCap ?? ACTIVITY_CAP;
    this.structureTimeLimitMs = options.structureTimeLimitMs ?? 120_000;
  }

  private async context(run?: LiveRun): Promise<{ ctx: CompileContext; structures: StructureRowResolver }> {
    const units = await this.db.selectFrom('units').select(['unit', 'to_micromolar']).where('to_micromolar', 'is not', null).execute();
    const structures = new StructureRowResolver(this.engine, this.db, {
      timeLimitMs: this.structureTimeLimitMs,
      ...(run
        ? {
            signal: run.controller.signal,
            onProgress: (p) => {
              run.progress = { ...run.progress, phase: p.phase === 'index' ? 'index' : 'structure', searched: p.searched, total: p.total, hits: p.hits };
            },
          }
        : {}),
    });
    return { ctx: { structures, unitFactors: new Map(units.map((u) => [u.unit, Number(u.to_micromolar)])) }, structures };
  }

  /** Counts without keeping a session (`api/guidedsearch/count`): the sets are built and rolled back. */
  async countOnly(criteria: SearchCriteria): Promise<SearchCounts> {
    const { ctx, structures } = await this.context();
    try {
      const compiled = await compileCriteria(criteria, ctx);
      await this.db.transaction().execute(async (trx) => {
        const setId = -crypto.randomInt(1, 2 ** 47);
        throw new RollbackWith(await materialiseSets(trx, setId, compiled, this.activityCap));
      });
    } catch (error) {
      if (error instanceof RollbackWith) return error.counts;
      throw error;
    } finally {
      await structures.cleanup();
    }
    throw new Error('unreachable');
  }

  /** What the running search of a session has done (this process), else its stored state. */
  async progress(auth: AuthContext, sessionId: string): Promise<SearchProgress> {
    const run = this.live.get(sessionId);
    if (run) {
      if (run.userId !== auth.userId) throw forbidden('This search session belongs to another user.');
      return run.progress;
    }
    const session = await this.owned(auth, sessionId);
    const status = !session ? 'none' : session.status === 'ready' ? 'ready' : session.status === 'failed' ? 'failed' : session.status === 'cancelled' ? 'cancelled' : 'none';
    return { sessionid: sessionId, status, phase: null, searched: 0, total: 0, hits: 0, message: session?.error ?? null };
  }

  /** Stops the running search of a session; its waiting calls answer 409 and no sets are kept. */
  async cancel(auth: AuthContext, sessionId: string): Promise<boolean> {
    const run = this.live.get(sessionId);
    if (!run) {
      await this.owned(auth, sessionId);
      return false;
    }
    if (run.userId !== auth.userId) throw forbidden('This search session belongs to another user.');
    run.controller.abort();
    return true;
  }

  /** Runs (or reuses) the search of one session and answers its six counts. */
  async run(auth: AuthContext, sessionId: string, criteria: SearchCriteria, kind: SessionKind = 'search'): Promise<SearchCounts> {
    const hash = criteriaHash(criteria);
    const key = `${sessionId}:${hash}`;
    const existing = this.runs.get(key);
    if (existing) return existing;
    const run = this.runOnce(auth, sessionId, criteria, hash, kind).finally(() => this.runs.delete(key));
    this.runs.set(key, run);
    return run;
  }

  private async runOnce(auth: AuthContext, sessionId: string, criteria: SearchCriteria, hash: string, kind: SessionKind): Promise<SearchCounts> {
    const session = await this.claim(auth, sessionId, kind);
    if (session.criteria_hash === hash && session.status === 'ready') {
      await this.db.updateTable('search_sessions').set({ last_used_at: new Date() }).where('id', '=', sessionId).execute();
      return readCounts(this.db, session.set_id);
    }
    const run: LiveRun = {
      userId: auth.userId,
      controller: new AbortController(),
      progress: { sessionid: sessionId, status: 'running', phase: null, searched: 0, total: 0, hits: 0, message: null },
    };
    this.live.set(sessionId, run);
    let structures: StructureRowResolver | null = null;
    try {
      const prepared = await this.context(run);
      structures = prepared.structures;
      const similarityHitIds = prepared.structures.similarityHitIds;
      // A new search in the session starts without the filters of the old one.
      await this.db
        .updateTable('search_sessions')
        .set({ status: 'running', criteria: JSON.stringify(criteria), criteria_hash: hash, error: null, filters: '{}', kb_max_str_id: await this.maxStrId() })
        .where('id', '=', sessionId)
        .execute();
      const ctx = prepared.ctx;
      const compiled = await compileCriteria(criteria, ctx);
      run.progress = { ...run.progress, phase: 'sets' };
      const counts = await this.db.transaction().execute(async (trx) => {
        await clearSets(trx, session.set_id);
        const result = await materialiseSets(trx, session.set_id, compiled, this.activityCap);
        await copySimilarities(trx, session.set_id, similarityHitIds);
        // Cancelled while the sets were being built: roll them back.
        if (run.controller.signal.aborted) throw searchCancelled();
        return result;
      });
      await analyseSets(this.db, counts);
      await this.db
        .updateTable('search_sessions')
        .set({ status: 'ready', counts: JSON.stringify(counts), last_used_at: new Date() })
        .where('id', '=', sessionId)
        .execute();
      // Housekeeping must never fail a search (nor, unhandled, the process).
      this.purgeExpired().catch(() => undefined);
      return counts;
    } catch (error) {
      const cancelled = run.controller.signal.aborted;
      const message = cancelled ? 'Cancelled by the user.' : error instanceof Error ? error.message : String(error);
      await this.db
        .updateTable('search_sessions')
        .set({ status: cancelled ? 'cancelled' : 'failed', error: message.slice(0, 1000) })
        .where('id', '=', sessionId)
        .execute();
      throw cancelled ? searchCancelled() : error;
    } finally {
      // A newer run of the same session may have taken the slot: leave it alone.
      if (this.live.get(sessionId) === run) this.live.delete(sessionId);
      await structures?.cleanup().catch(() => undefined);
    }
  }

  /** The highest structure id now: results compare it later to say new structures arrived (strIdNewlyAddedStatus). */
  private async maxStrId(): Promise<number> {
    const { rows } = await sql<{ max: number | null }>`SELECT max(str_id) AS max FROM structures`.execute(this.db);
    return Number(rows[0]?.max ?? 0);
  }

  /** The session row for this user, created on first use; another user's session id is refused. */
  async claim(auth: AuthContext, sessionId: string, kind: SessionKind = 'search') {
    await this.db
      .insertInto('search_sessions')
      .values({ id: sessionId, user_id: auth.userId, user_session_id: auth.sessionId, kind })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    const session = await this.db.selectFrom('search_sessions').selectAll().where('id', '=', sessionId).executeTakeFirstOrThrow();
    if (session.user_id !== auth.userId) throw forbidden('This search session belongs to another user.');
    return session;
  }

  /** The session if it is this user's and has been run; null when it does not exist. */
  async owned(auth: AuthContext, sessionId: string) {
    const session = await this.db.selectFrom('search_sessions').selectAll().where('id', '=', sessionId).executeTakeFirst();
    if (!session) return null;
    if (session.user_id !== auth.userId) throw forbidden('This search session belongs to another user.');
    return session;
  }

  async tableRows(setId: number, table: 'structures' | 'activities' | 'assays'): Promise<number> {
    const name = table === 'structures' ? 'search_structures' : table === 'activities' ? 'search_activities' : 'search_assays';
    const row = await this.db.selectFrom(name).select((eb) => eb.fn.countAll<number>().as('n')).where('set_id', '=', setId).executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** Counts of the whole knowledge base; cached briefly (a full count of 20 M activities is not free). */
  async defaultCounts(): Promise<DefaultCounts> {
    if (this.defaultCountsCache && Date.now() - this.defaultCountsCache.at < DEFAULT_COUNTS_TTL_MS) return this.defaultCountsCache.value;
    const { rows } = await sql<DefaultCounts>`SELECT
        (SELECT count(*)::int FROM documents) AS "refIdsCount",
        (SELECT count(*)::int FROM structures) AS "strIdsCount",
        (SELECT count(*)::int FROM compounds) AS "gvkIdsCount",
        (SELECT count(*)::int FROM activities) AS "actIdsCount",
        (SELECT count(*)::int FROM assays) AS "assayIdsCount",
        (SELECT count(*)::int FROM clinical_compounds) AS "clinicalCompoundIdsCount",
        (SELECT count(*)::int FROM clinical_compounds cc JOIN clinical_phases p ON p.phase_id = cc.highest_phase_id
          WHERE p.name = 'Launched') AS "drugIdsCount"`.execute(this.db);
    const value = rows[0]!;
    this.defaultCountsCache = { at: Date.now(), value };
    return value;
  }

  /** Forget cached knowledge-base counts (after a load). */
  invalidateDefaultCounts(): void {
    this.defaultCountsCache = null;
  }

  /**
   * Drops a session's sets (spec `dropunloggedtables`). The session row stays, with its criteria,
   * summary and counts, as a recent search the user can run again.
   */
  async dropSets(setId: number, sessionId: string, status: 'dropped' | 'expired' = 'dropped'): Promise<void> {
    await clearSets(this.db, setId);
    await this.db.updateTable('search_sessions').set({ status }).where('id', '=', sessionId).execute();
  }

  /** Drops the sets of sessions nobody used for a day (derived data: re-running rebuilds them). */
  async purgeExpired(): Promise<number> {
    const old = await this.db
      .selectFrom('search_sessions')
      .select(['id', 'set_id'])
      .where('status', 'in', ['ready', 'failed', 'running', 'cancelled'])
      .where('last_used_at', '<', sql<Date>`now() - make_interval(hours => ${SESSION_TTL_HOURS})`)
      .limit(100)
      .execute();
    for (const session of old) await this.dropSets(session.set_id, session.id, 'expired');
    await purgeStaleHits(this.db);
    // Results rows (filters, similarity sorts) written by a request that finished after its set was dropped.
    for (const table of ['result_filtered', 'result_similarity'] as const) {
      await sql`DELETE FROM ${sql.table(table)} r WHERE NOT EXISTS (SELECT 1 FROM search_sessions s WHERE s.set_id = r.set_id AND s.status = 'ready')`.execute(this.db);
    }
    return old.length;
  }

  async close(): Promise<void> {
    for (const run of this.live.values()) run.controller.abort();
  }
}

/**
 * Fresh statistics for the set tables after a large search: without them PostgreSQL guesses a new
 * set holds a few dozen rows and plans the results' joins and filters as nested loops over sets of
 * hundreds of thousands (seconds instead of milliseconds). ANALYZE samples, so it costs about the
 * same for any set size; SKIP_LOCKED lets a search that finds another ANALYZE running go on.
 */
async function analyseSets(db: Kysely<Database>, counts: SearchCounts): Promise<void> {
  if (counts.actidscount + counts.stridscount < 5_000) return;
  await sql`ANALYZE (SKIP_LOCKED) search_structures, search_activities, search_compounds, search_assays, search_references, search_clinical_compounds`.execute(db);
}

/** Similarity rows: each structure keeps its best Tanimoto, for sorting the results by similarity. */
async function copySimilarities(trx: Kysely<Database>, setId: number, hitIds: readonly number[]): Promise<void> {
  if (hitIds.length === 0) return;
  await sql`UPDATE search_structures ss SET similarity = h.similarity
    FROM (SELECT str_id, max(similarity) AS similarity FROM structure_hits WHERE hit_id = ANY(${[...hitIds]}::bigint[]) GROUP BY str_id) h
    WHERE ss.set_id = ${setId} AND ss.str_id = h.str_id`.execute(trx);
}
