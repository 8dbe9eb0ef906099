import crypto from 'node:crypto';
import { sql } from 'kysely';
import type { Kysely, RawBuilder } from 'kysely';
import { DEFAULT_SIMILARITY_MAX, DEFAULT_SIMILARITY_MIN } from '@kb/contracts/chemistry';
import type { StructureQuery } from '@kb/contracts/search';
import { SEARCH_CANCELLED_MESSAGE } from '@kb/contracts/search';
import { ERROR_CODES } from '@kb/contracts/errors';
import type { Database } from '../../db/schema.ts';
import { HttpError, badRequest } from '../../http/errors.ts';
import { ChemInputError, ChemSearchCancelled } from '../chemistry/chem-engine.ts';
import type { ChemEngine, ChemQuery, EngineProgress, StructureHits } from '../chemistry/chem-engine.ts';

/** Turns the structure part of a structure row into a query selecting the matching str_ids. */
export interface StructureQueryResolver {
  resolve(query: StructureQuery): Promise<RawBuilder<unknown>>;
}

const INCHIKEY = /^[A-Z]{14}-[A-Z]{10}-[A-Z]$/;
const INCHIKEY_SKELETON = /^[A-Z]{14}$/;
const HIT_BATCH = 50_000;

export const searchCancelled = () => new HttpError(409, { message: SEARCH_CANCELLED_MESSAGE, code: ERROR_CODES.conflict });

export interface StructureRunOptions {
  signal?: AbortSignal;
  onProgress?: (progress: EngineProgress) => void;
  /** A structure search running longer than this is stopped with a message (pathological queries). */
  timeLimitMs: number;
}

/** The chemist-facing message for what RDKit could not read. */
export function chemInputMessage(query: Pick<StructureQuery, 'inputType' | 'value'>, detail: string): string {
  const what = query.inputType === 'smarts' ? 'SMARTS' : query.inputType === 'molfile' ? 'molfile' : 'SMILES';
  const shown = query.inputType === 'molfile' ? '' : ` "${query.value.trim().slice(0, 80)}"`;
  let hint = '';
  if (/kekulize/i.test(detail)) hint = ' Check the aromatic ring: an aromatic N bearing a hydrogen is written [nH], and every aromatic atom must sit in a ring that can alternate double bonds.';
  else if (/valence/i.test(detail)) hint = ' An atom has more bonds than its valence allows: check charges and bond orders.';
  else if (/unclosed ring/i.test(detail)) hint = ' Every ring-opening digit needs a matching closing digit.';
  return `RDKit could not read the ${what}${shown}: ${detail}${hint}`;
}

export function chemQueryOf(query: Pick<StructureQuery, 'inputType' | 'value' | 'feature'>): ChemQuery {
  if (query.inputType === 'molfile' && !/M {2}END/.test(query.value)) {
    throw badRequest('This is not a molfile: a molfile has a header, a counts line (…V2000 or V3000), atom and bond blocks and ends with "M  END".');
  }
  // A molfile's first lines (name, program, comment) may be blank: it is never trimmed.
  const text = query.inputType === 'molfile' ? query.value : query.value.trim();
  return { kind: query.inputType === 'smarts' ? 'smarts' : query.inputType === 'molfile' ? 'molfile' : 'smiles', text, desalt: query.feature !== 'asis' };
}

/**
 * Structure rows of one search run: names and InChIKeys by SQL index, exact SMILES / molfiles by
 * RDKit canonical SMILES, substructure / SMARTS / similarity through the chemistry engine. Engine
 * hits go to `structure_hits` under a fresh id for the run's SQL and are removed by `cleanup()`.
 */
export class StructureRowResolver implements StructureQueryResolver {
  /** Hit sets of similarity rows: their Tanimoto values are copied onto the result set. */
  readonly similarityHitIds: number[] = [];
  private readonly hitIds: number[] = [];

  constructor(
    private readonly engine: ChemEngine,
    private readonly db: Kysely<Database>,
    private readonly options: StructureRunOptions,
  ) {}

  async resolve(query: StructureQuery): Promise<RawBuilder<unknown>> {
    const value = query.value.trim();
    if (query.inputType === 'name') return byName(value, query.category);
    if (query.inputType === 'inchikey') return byInchiKey(value.toUpperCase(), query.category);
    const chem = chemQueryOf(query);
    if (query.category === 'exact') {
      if (chem.kind === 'smarts') throw badRequest('A SMARTS describes a pattern, not one molecule: search it as a substructure, or enter SMILES for an exact search.');
      return sql`SELECT str_id FROM structures WHERE md5(canonical_smiles) = md5(${await this.canonical(query, chem)})`;
    }
    const hits = await this.search(query, chem);
    const hitId = crypto.randomInt(1, 2 ** 47);
    await storeHits(this.db, hitId, hits);
    this.hitIds.push(hitId);
    if (hits.similarities) this.similarityHitIds.push(hitId);
    return sql`SELECT str_id FROM structure_hits WHERE hit_id = ${hitId}`;
  }

  private async canonical(query: StructureQuery, chem: ChemQuery): Promise<string> {
    try {
      const described = await this.engine.describe(chem);
      return described.smiles ?? '';
    } catch (error) {
      if (error instanceof ChemInputError) throw badRequest(chemInputMessage(query, error.message));
      throw error;
    }
  }

  private async search(query: StructureQuery, chem: ChemQuery): Promise<StructureHits> {
    const timeout = AbortSignal.timeout(this.options.timeLimitMs);
    const signal = this.options.signal ? AbortSignal.any([this.options.signal, timeout]) : timeout;
    let last: EngineProgress | null = null;
    const onProgress = (progress: EngineProgress) => {
      last = progress;
      this.options.onProgress?.(progress);
    };
    try {
      if (query.category === 'similarity') {
        const range = { min: query.similarityMin ?? DEFAULT_SIMILARITY_MIN, max: query.similarityMax ?? DEFAULT_SIMILARITY_MAX };
        return await this.engine.similarity(chem, range, { signal, onProgress });
      }
      return await this.engine.substructure(chem, { signal, onProgress });
    } catch (error) {
      if (error instanceof ChemInputError) throw badRequest(chemInputMessage(query, error.message));
      if (error instanceof ChemSearchCancelled || (error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError'))) {
        if (this.options.signal?.aborted) throw searchCancelled();
        throw badRequest(tooLongMessage(this.options.timeLimitMs, last));
      }
      throw error;
    }
  }

  /** Removes this run's hits (they are copied into the search's sets by then). */
  async cleanup(): Promise<void> {
    if (this.hitIds.length === 0) return;
    await this.db.deleteFrom('structure_hits').where('hit_id', 'in', this.hitIds).execute();
    this.hitIds.length = 0;
  }
}

function tooLongMessage(limitMs: number, last: EngineProgress | null): string {
  const seconds = Math.round(limitMs / 1000);
  const where =
    last && last.total > 0
      ? ` after checking ${Math.round((100 * last.searched) / last.total)} % of ${last.total.toLocaleString('en-US')} structures (${last.hits.toLocaleString('en-US')} hits so far)`
      : '';
  return `The structure search was stopped at its time limit of ${seconds} s${where}: the query is too generic. Add atoms or ring detail to the query, combine it with other rows, or use a similarity search.`;
}

function byName(name: string, category: StructureQuery['category']): RawBuilder<unknown> {
  if (category !== 'exact') throw badRequest('Search by name finds the named compound itself: use the category "exact".');
  const lower = name.toLowerCase();
  return sql`SELECT c.str_id FROM compounds c WHERE lower(c.name) = ${lower} AND c.str_id IS NOT NULL
    UNION SELECT c.str_id FROM compound_synonyms cs JOIN compounds c ON c.gvk_id = cs.gvk_id WHERE lower(cs.synonym) = ${lower} AND c.str_id IS NOT NULL`;
}

/** Exact: the whole key. Substructure / similarity: the skeleton, i.e. the key's first block. */
export function byInchiKey(key: string, category: StructureQuery['category']): RawBuilder<unknown> {
  if (INCHIKEY.test(key) && category === 'exact') return sql`SELECT str_id FROM structures WHERE inchikey = ${key}`;
  const skeleton = key.slice(0, 14);
  if (INCHIKEY.test(key) || INCHIKEY_SKELETON.test(key)) return sql`SELECT str_id FROM structures WHERE inchikey LIKE ${`${skeleton}-%`}`;
  throw badRequest(`"${key}" is not an InChIKey: expected 14 letters, a dash, 10 letters, a dash and one letter (or just the first 14 letters).`);
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
