import { sql } from 'kysely';
import type { RawBuilder } from 'kysely';
import { INCHIKEY_PATTERN, NOT_AN_INCHIKEY_MESSAGE, isInchikeyOrSkeleton } from '@kb/contracts/chemistry';
import type { StructureQuery } from '@kb/contracts/search';
import { badRequest } from '../../http/errors.ts';
import { REFUSAL_MESSAGE } from './chem-engine.ts';
import type { ChemQuery, EngineProgress } from './chem-engine.ts';

/**
 * Structure queries as chemists type them → what the engine and SQL take, and the messages a
 * chemist reads when a query cannot be run. Shared by structure rows (search) and the previews.
 */

type QueryText = Pick<StructureQuery, 'inputType' | 'value'>;

export const SMARTS_NOT_EXACT_MESSAGE =
  'A SMARTS describes a pattern, not one molecule: search it as a substructure, or enter SMILES for an exact search.';
export const SMARTS_NOT_SIMILAR_MESSAGE = 'Similarity compares whole molecules: enter a SMILES or a molfile, not a SMARTS pattern.';

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
export function checkedInchikey(value: string): string {
  const key = value.trim().toUpperCase();
  if (!isInchikeyOrSkeleton(key)) throw badRequest(NOT_AN_INCHIKEY_MESSAGE);
  return key;
}

/** Exact: the whole key. Otherwise the skeleton: the key's first block (index on left(inchikey, 14)). */
export function byInchikey(key: string, exact: boolean): RawBuilder<unknown> {
  if (exact && INCHIKEY_PATTERN.test(key)) return sql`SELECT str_id FROM structures WHERE inchikey = ${key}`;
  return sql`SELECT str_id FROM structures WHERE left(inchikey, 14) = ${key.slice(0, 14)}`;
}

function seconds(ms: number): string {
  return ms < 10_000 ? (ms / 1000).toFixed(ms < 1000 ? 3 : 1) : String(Math.round(ms / 1000));
}

/** A structure search stopped at its time limit: how far it got, and what to do. */
export function tooGenericMessage(limitMs: number, last: EngineProgress | null): string {
  const where =
    last && last.phase === 'search' && last.total > 0
      ? ` after checking ${Math.round((100 * last.searched) / last.total)} % of ${last.total.toLocaleString('en-US')} structures (${last.hits.toLocaleString('en-US')} hits so far)`
      : '';
  return `The structure search was stopped at its time limit of ${seconds(limitMs)} s${where}: the query is too generic. Add atoms or ring detail to the query, combine it with other rows, or use a similarity search.`;
}
