import type { Kysely } from 'kysely';
import type { SearchCriteria } from '@kb/contracts/search';
import { ACTIVITY_CAP, ACTIVITY_CAP_MESSAGE } from '@kb/contracts/search';
import { ERROR_CODES } from '@kb/contracts/errors';
import { HttpError } from '../../http/errors.ts';
import type { Database } from '../../db/schema.ts';
import { buildExpression, hasNot } from './expression.ts';
import { compileRow } from './row-compiler.ts';
import type { CompileContext, CompiledRow, RowsPlan } from './row-compiler.ts';

/**
 * A search's plan: its criteria compiled once — every row into what it reads (row-compiler.ts),
 * structure rows through the chemistry engine, and the rows' operators into one expression — before
 * anything is counted or written. The bitmap engine (bitmaps/bitmap-counts.ts) counts it and the SQL
 * path (materialise.ts) writes it; search-run.ts drives a run from criteria to sets.
 */

/** A search over the activity cap (spec §5), refused whichever engine counted it. */
export const activityCapError = () =>
  new HttpError(400, { message: ACTIVITY_CAP_MESSAGE, code: ERROR_CODES.validation, details: { cap: ACTIVITY_CAP } });

/**
 * A search's rows compiled, with how the SQL path gets what they read that is only in memory: the
 * chemistry engine's hits (written to `structure_hits` by `writeHits`, in the SQL's transaction).
 */
export interface CompiledSearch extends RowsPlan {
  writeHits?: (db: Kysely<Database>) => Promise<void>;
}

export async function compileCriteria(criteria: SearchCriteria, ctx: CompileContext): Promise<CompiledSearch> {
  const restricted = restrictsLastRow(criteria) && ctx.structuresOf;
  const upTo = restricted ? criteria.rows.length - 1 : criteria.rows.length;
  // The shapes first (the last row's operator is cleared, spec §4: only operators between rows count).
  const expr = buildExpression(criteria.rows.map((r) => r.operator));
  const exprBefore = buildExpression(criteria.rows.slice(0, upTo).map((r) => r.operator));
  const negated = hasNot(expr);
  const negatedBefore = hasNot(exprBefore);
  const rows: CompiledRow[] = [];
  for (let index = 0; index < criteria.rows.length; index++) {
    // A restricted last row: `(rows before) AND S` and `(rows before) NOT S` keep only structures
    // the rows before keep (docs/search-semantics.md "How rows combine"), so S need only be searched
    // among those: a structure filter inside results searches the results' structures, not the whole index.
    const candidates = restricted && index === upTo ? await ctx.structuresOf!({ expr: exprBefore, rows, negated: negatedBefore }) : null;
    rows.push(await compileRow(criteria.rows[index]!, index, ctx, candidates));
  }
  return { expr, rows, negated, writeHits: (db) => ctx.structures.writeHits(db) };
}

/** A last row searched by the chemistry engine (substructure, SMARTS, similarity), joined to the rows before by AND or NOT. */
function restrictsLastRow(criteria: SearchCriteria): boolean {
  const n = criteria.rows.length;
  if (n < 2) return false;
  const last = criteria.rows[n - 1]!;
  if (last.selectedOption !== 'structure' || !last.structure) return false;
  const query = last.structure;
  if (query.inputType === 'name' || query.inputType === 'inchikey' || query.category === 'exact') return false;
  // The N nearest of the whole knowledge base, whatever the other rows keep (search-semantics.md).
  if (query.category === 'similarity' && query.similarityNearest) return false;
  const joining = criteria.rows[n - 2]!.operator ?? 'AND';
  return joining === 'AND' || joining === 'NOT';
}
