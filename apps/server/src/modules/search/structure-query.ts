import crypto from 'node:crypto';
import { sql } from 'kysely';
import type { Kysely, RawBuilder } from 'kysely';
import type { StructureQuery } from '@kb/contracts/search';
import { SEARCH_CANCELLED_MESSAGE } from '@kb/contracts/search';
import { ERROR_CODES } from '@kb/contracts/errors';
import type { Database } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import type { ChemEngine, EngineProgress, StructureHits } from '../chemistry/chem-engine.ts';
import { askEngine, lookupBySql, parseEngineAsk } from '../chemistry/chem-query.ts';

/**
 * The structures a structure query matches: as a query selecting str_ids, and — when the chemistry
 * engine searched them — its hits in memory, which the bitmap engine reads instead (the query then
 * reads `structure_hits`, written only when SQL runs it: `writeHits`).
 */
export interface ResolvedStructures {
  sql: RawBuilder<unknown>;
  hits: Float64Array | null;
}

/** Turns the structure part of a structure row into the str_ids it matches. */
export interface StructureQueryResolver {
  /** `candidates` (ascending str_ids): only these can match — the structures the rest of the search leaves (see compileCriteria). */
  resolve(query: StructureQuery, options?: { candidates?: Float64Array | null }): Promise<ResolvedStructures>;
  /** Writes the engine hits of the queries resolved so far to `structure_hits`, for SQL that reads them (materialise.ts). */
  writeHits(db: Kysely<Database>): Promise<void>;
}

const HIT_BATCH = 50_000;

/**
 * The best Tanimoto of each structure a search's similarity rows found, ascending by str_id, in
 * float4 as the set tables keep it (search_structures.similarity): held with sets kept in memory.
 */
export interface StructureScores {
  strIds: Uint32Array;
  scores: Float32Array;
}

export const searchCancelled = () => new HttpError(409, { message: SEARCH_CANCELLED_MESSAGE, code: ERROR_CODES.conflict });

export interface StructureRunOptions {
  signal?: AbortSignal;
  onProgress?: (progress: EngineProgress) => void;
  /** A structure search running longer than this (once the index is loaded) is stopped with a message. */
  timeLimitMs: number;
}

/**
 * Structure rows of one search run: names and InChIKeys by SQL index, exact SMILES / molfiles by
 * RDKit canonical SMILES, substructure / SMARTS / similarity through the chemistry engine. Engine
 * hits stay in memory for the bitmap engine; the SQL path has them written to `structure_hits`
 * under a fresh id (`writeHits`), removed by `cleanup()`.
 */
export class StructureRowResolver implements StructureQueryResolver {
  /** The engine's hits of this run per hit id, until the run ends. */
  private readonly hits = new Map<number, StructureHits>();
  /** Hit ids written to `structure_hits` (removed by `cleanup`). */
  private readonly hitIds: number[] = [];

  constructor(
    private readonly engine: ChemEngine,
    private readonly db: Kysely<Database>,
    private readonly options: StructureRunOptions,
  ) {}

  /** Engine searches given candidates, since start (tests and benchmarks check the path taken). */
  static candidateSearches = 0;

  async resolve(query: StructureQuery, options: { candidates?: Float64Array | null } = {}): Promise<ResolvedStructures> {
    const bySql = lookupBySql(query);
    if (bySql) return { sql: bySql, hits: null };
    const ask = parseEngineAsk(query);
    const { candidates = null } = options;
    if (candidates && ask.category !== 'exact') StructureRowResolver.candidateSearches++;
    const answer = await askEngine(this.engine, ask, { ...this.options, candidates, cancelled: searchCancelled });
    if ('exact' in answer) return { sql: answer.exact, hits: null };
    const hitId = crypto.randomInt(1, 2 ** 47);
    this.hits.set(hitId, answer.hits);
    return { sql: sql`SELECT str_id FROM structure_hits WHERE hit_id = ${hitId}`, hits: answer.hits.ids };
  }

  async writeHits(db: Kysely<Database>): Promise<void> {
    for (const [hitId, hits] of this.hits) {
      // Registered before writing: a failure half-way still has its rows cleaned up. Written again
      // by a later SQL pass (another transaction) without duplicates.
      if (!this.hitIds.includes(hitId)) this.hitIds.push(hitId);
      await storeHits(db, hitId, hits);
    }
  }

  /** The best score of each structure over this run's similarity rows; null when it has none. */
  similarityScores(): StructureScores | null {
    const similarityHits = [...this.hits.values()].filter((hits) => hits.similarities);
    if (similarityHits.length === 0) return null;
    const best = new Map<number, number>();
    for (const { ids, similarities } of similarityHits) {
      for (let i = 0; i < ids.length; i++) {
        const score = Math.fround(similarities![i]!);
        const before = best.get(ids[i]!);
        if (before === undefined || score > before) best.set(ids[i]!, score);
      }
    }
    const strIds = Uint32Array.from(best.keys()).sort();
    return { strIds, scores: Float32Array.from(strIds, (strId) => best.get(strId)!) };
  }

  /** Removes this run's hits (they are copied into the search's sets by then). */
  async cleanup(): Promise<void> {
    if (this.hitIds.length === 0) return;
    await this.db.deleteFrom('structure_hits').where('hit_id', 'in', this.hitIds).execute();
    this.hitIds.length = 0;
  }
}

/** Writes hits in batches of bound arrays (one statement per 50,000 ids). */
async function storeHits(db: Kysely<Database>, hitId: number, hits: StructureHits): Promise<void> {
  for (let at = 0; at < hits.ids.length; at += HIT_BATCH) {
    const ids = Array.from(hits.ids.subarray(at, at + HIT_BATCH));
    const sims = hits.similarities ? Array.from(hits.similarities.subarray(at, at + HIT_BATCH)) : null;
    await sql`INSERT INTO structure_hits (hit_id, str_id, similarity)
      SELECT ${hitId}::bigint, u.str_id, u.similarity
      FROM unnest(${ids}::bigint[], ${sims ?? ids.map(() => null)}::real[]) AS u(str_id, similarity)
      ON CONFLICT DO NOTHING`.execute(db);
  }
}

/** Hits left by a process that stopped mid-search (the table is UNLOGGED: they survive restarts). */
export async function purgeStaleHits(db: Kysely<Database>): Promise<void> {
  await sql`DELETE FROM structure_hits WHERE created_at < now() - interval '1 hour'`.execute(db);
}
