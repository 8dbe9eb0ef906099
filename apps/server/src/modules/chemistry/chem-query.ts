import { sql } from 'kysely';
import type { RawBuilder } from 'kysely';
import {
  DEFAULT_SIMILARITY_MAX,
  DEFAULT_SIMILARITY_MIN,
  INCHIKEY_PATTERN,
  NOT_AN_INCHIKEY_MESSAGE,
  isInchikeyOrSkeleton,
} from '@kb/contracts/chemistry';
import type { StructureQuery } from '@kb/contracts/search';
import { badRequest } from '../../http/errors.ts';
import { ChemInputError, REFUSAL_MESSAGE, isChemStopped } from './chem-engine.ts';
import type { ChemEngine, ChemQuery, DescribedQuery, EngineProgress, StructureHits } from './chem-engine.ts';

/**
 * Structure queries as chemists type them → what the engine and SQL take, and the messages a
 * chemist reads when a query cannot be run. Shared by structure rows (search) and the previews:
 * a query is parsed once (`lookupBySql`, `parseEngineAsk`) and run once (`askEngine`), its
 * refusals worded here whichever caller asked.
 */

type QueryText = Pick<StructureQuery, 'inputType' | 'value'>;

const SMARTS_NOT_EXACT_MESSAGE =
  'A SMARTS describes a pattern, not one molecule: search it as a substructure, or enter SMILES for an exact search.';
const SMARTS_NOT_SIMILAR_MESSAGE = 'Similarity compares whole molecules: enter a SMILES or a molfile, not a SMARTS pattern.';

/** The chemist-facing message for what RDKit could not read, with a hint for the usual mistakes. */
export function chemInputMessage(query: QueryText, detail: string): string {
  // A limit, a trap or the watchdog (ChemQueryRefused): already a whole message for the chemist.
  if (REFUSAL_MESSAGE.test(detail)) return detail;
  const what = query.inputType === 'smarts' ? 'SMARTS' : query.inputType === 'molfile' ? 'molfile' : 'SMILES';
  const shown = query.inputType === 'molfile' ? '' : ` "${query.value.trim().slice(0, 80)}"`;
  let hint = '';
  if (/kekulize/i.test(detail))
    hint =
      ' Check the aromatic ring: an aromatic N bearing a hydrogen is written [nH], and every aromatic atom must sit in a ring that can alternate double bonds.';
  else if (/valence/i.test(detail)) hint = ' An atom has more bonds than its valence allows: check charges and bond orders.';
  else if (/unclosed ring/i.test(detail)) hint = ' Every ring-opening digit needs a matching closing digit.';
  return `RDKit could not read the ${what}${shown}: ${detail}${hint}`;
}

/** The engine's query for a SMILES / SMARTS / molfile row; a text that is not a molfile is refused. */
export function chemQueryOf(query: Pick<StructureQuery, 'inputType' | 'value' | 'feature'>): ChemQuery {
  if (query.inputType === 'molfile' && !/M {2}END/.test(query.value)) {
    throw badRequest(
      'This is not a molfile: a molfile has a header, a counts line (…V2000 or V3000), atom and bond blocks and ends with "M  END".',
    );
  }
  // A molfile's first lines (name, program, comment) may be blank: it is never trimmed.
  const text = query.inputType === 'molfile' ? query.value : query.value.trim();
  return {
    kind: query.inputType === 'smarts' ? 'smarts' : query.inputType === 'molfile' ? 'molfile' : 'smiles',
    text,
    desalt: query.feature !== 'asis',
  };
}

/** Structures whose canonical SMILES is this one (exact search, via the md5 index). */
export function byCanonicalSmiles(canonical: string): RawBuilder<unknown> {
  return sql`SELECT str_id FROM structures WHERE md5(canonical_smiles) = md5(${canonical})`;
}

/** A whole InChIKey (upper-cased), or 400 when the text is not one or its first block. */
function checkedInchikey(value: string): string {
  const key = value.trim().toUpperCase();
  if (!isInchikeyOrSkeleton(key)) throw badRequest(NOT_AN_INCHIKEY_MESSAGE);
  return key;
}

/** Exact: the whole key. Otherwise the skeleton: the key's first block (index on left(inchikey, 14)). */
function byInchikey(key: string, exact: boolean): RawBuilder<unknown> {
  if (exact && INCHIKEY_PATTERN.test(key)) return sql`SELECT str_id FROM structures WHERE inchikey = ${key}`;
  return sql`SELECT str_id FROM structures WHERE left(inchikey, 14) = ${key.slice(0, 14)}`;
}

/** Name and InChIKey queries as the SQL that finds them (indexes); null for a query the engine runs. */
export function lookupBySql(query: Pick<StructureQuery, 'inputType' | 'value' | 'category'>): RawBuilder<unknown> | null {
  if (query.inputType === 'name') return byName(query.value.trim(), query.category);
  if (query.inputType === 'inchikey') return byInchikey(checkedInchikey(query.value), query.category === 'exact');
  return null;
}

function byName(name: string, category: StructureQuery['category']): RawBuilder<unknown> {
  if (category !== 'exact') throw badRequest('Search by name finds the named compound itself: use the category "exact".');
  const lower = name.toLowerCase();
  return sql`SELECT c.str_id FROM compounds c WHERE lower(c.name) = ${lower} AND c.str_id IS NOT NULL
    UNION SELECT c.str_id FROM compound_synonyms cs JOIN compounds c ON c.gvk_id = cs.gvk_id WHERE lower(cs.synonym) = ${lower} AND c.str_id IS NOT NULL`;
}

/** A SMILES / SMARTS / molfile query as the engine runs it: parsed once, a pattern asked for a whole molecule refused. */
export interface EngineAsk {
  chem: ChemQuery;
  category: StructureQuery['category'];
  range: { min: number; max: number };
  nearest: number | null;
}

type AskedQuery = Pick<
  StructureQuery,
  'inputType' | 'value' | 'feature' | 'category' | 'similarityMin' | 'similarityMax' | 'similarityNearest'
>;

export function parseEngineAsk(query: AskedQuery): EngineAsk {
  const chem = chemQueryOf(query);
  if (chem.kind === 'smarts' && query.category === 'exact') throw badRequest(SMARTS_NOT_EXACT_MESSAGE);
  if (chem.kind === 'smarts' && query.category === 'similarity') throw badRequest(SMARTS_NOT_SIMILAR_MESSAGE);
  return {
    chem,
    category: query.category,
    range: { min: query.similarityMin ?? DEFAULT_SIMILARITY_MIN, max: query.similarityMax ?? DEFAULT_SIMILARITY_MAX },
    nearest: query.similarityNearest ?? null,
  };
}

export interface AskOptions {
  /** The caller's cancel (a search cancelled, a preview's request gone). */
  signal?: AbortSignal;
  /** A search running longer (once the index is loaded) is stopped: `stopped` says so. */
  timeLimitMs: number;
  onProgress?: (progress: EngineProgress) => void;
  /** Only these str_ids (ascending) can be hits (SearchOptions.candidates). */
  candidates?: Float64Array | null;
  /** A first page: stop after this many hits. */
  limit?: number;
  /** The message of a search stopped at its time limit (`last`: how far it got); the search's own by default. */
  stoppedMessage?: (limitMs: number, last: EngineProgress | null) => string;
  /** The error of a search its caller cancelled; by default it is worded as stopped. */
  cancelled?: () => Error;
}

/** What the engine answered: an exact query's structures as SQL (by its canonical SMILES), or a search's hits. */
export type EngineAnswer = { exact: RawBuilder<unknown>; described: DescribedQuery } | { hits: StructureHits };

/**
 * Runs a parsed query: exact by its canonical SMILES (no index needed), substructure and similarity
 * on the loaded index within the time limit (waiting for the index after a restart does not count).
 * RDKit's complaints come back as the chemist's 400, a stop as `stoppedMessage` or `cancelled`.
 */
export async function askEngine(engine: ChemEngine, ask: EngineAsk, options: AskOptions): Promise<EngineAnswer> {
  const { signal: callerSignal, timeLimitMs } = options;
  let last: EngineProgress | null = null;
  const onProgress = (progress: EngineProgress) => {
    last = progress;
    options.onProgress?.(progress);
  };
  try {
    if (ask.category === 'exact') {
      const described = await engine.describe(ask.chem);
      return { exact: byCanonicalSmiles(described.smiles ?? ''), described };
    }
    await engine.ready(callerSignal, onProgress);
    const timeout = AbortSignal.timeout(timeLimitMs);
    const signal = callerSignal ? AbortSignal.any([callerSignal, timeout]) : timeout;
    const bounds = {
      signal,
      onProgress,
      ...(options.candidates ? { candidates: options.candidates } : {}),
      ...(options.limit ? { limit: options.limit } : {}),
    };
    const hits =
      ask.category === 'similarity'
        ? await engine.similarity(ask.chem, ask.range, { ...bounds, ...(ask.nearest ? { nearest: ask.nearest } : {}) })
        : await engine.substructure(ask.chem, bounds);
    return { hits };
  } catch (error) {
    if (error instanceof ChemInputError)
      throw badRequest(chemInputMessage({ inputType: ask.chem.kind, value: ask.chem.text }, error.message));
    if (!isChemStopped(error)) throw error;
    if (callerSignal?.aborted && options.cancelled) throw options.cancelled();
    throw badRequest((options.stoppedMessage ?? tooGenericMessage)(timeLimitMs, last));
  }
}

function seconds(ms: number): string {
  return ms < 10_000 ? (ms / 1000).toFixed(ms < 1000 ? 3 : 1) : String(Math.round(ms / 1000));
}

/** A structure search stopped at its time limit: how far it got, and what to do. */
function tooGenericMessage(limitMs: number, last: EngineProgress | null): string {
  const where =
    last && last.phase === 'search' && last.total > 0
      ? ` after checking ${Math.round((100 * last.searched) / last.total)} % of ${last.total.toLocaleString('en-US')} structures (${last.hits.toLocaleString('en-US')} hits so far)`
      : '';
  return `The structure search was stopped at its time limit of ${seconds(limitMs)} s${where}: the query is too generic. Add atoms or ring detail to the query, combine it with other rows, or use a similarity search.`;
}
