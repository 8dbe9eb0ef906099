import { sql } from 'kysely';
import type { Kysely, RawBuilder } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { TOKEN_LENGTH } from './lookup-fields.ts';
import type { LookupEntriesTable } from '../../db/tables/lookup-tables.ts';

type Db = Kysely<Database>;

/** 0 exact (the whole value), 1 prefix (the value starts with the term), 2 word (a word inside it does). */
export type Tier = 0 | 1 | 2;

/** One matched item: its best entry and how well it matched. Items are unique by rank within a kind. */
export interface TermHit {
  itemRank: number;
  entryId: number;
  tier: Tier;
}

export interface TermScope {
  kindId: number;
  fieldIds: readonly number[];
}

/**
 * Up to this many candidate tokens of a term are ranked directly. A shorter term with more
 * candidates ("a", "demo") walks the kind's items best first instead (lookup_terms_rank_idx) and
 * stops at the limit: with that many matches, the walk finds them quickly.
 */
const CANDIDATE_CAP = 2000;

const ids = (values: readonly number[]) => sql.join(values.map((v) => sql.lit(v)));
/** The term as tokens store it: lower case, compared byte-wise like the C-collated token column. */
const lowered = (term: string) => sql`lower(${term}) COLLATE "C"`;
/** Tokens starting with the term: a range on the token index, no LIKE (so %, _ and \ are plain characters). */
const startsWith = (term: string) => sql`token >= ${lowered(term)} AND token < (lower(${term}) || chr(1114111)) COLLATE "C"`;

interface RankedRow {
  item_rank: number;
  entry_id: number;
}

/**
 * Up to `limit` items matching `term` in the scope, best first: exact, prefix, then word matches,
 * each by item rank (most data first, then alphabetical); each item once, at its best tier.
 */
export async function findTermHits(
  db: Db,
  scope: TermScope,
  term: string,
  limit: number,
  options: { candidateCap?: number } = {},
): Promise<TermHit[]> {
  if ([...term].length >= TOKEN_LENGTH) return findLongTermHits(db, scope, term, limit);
  const cap = options.candidateCap ?? CANDIDATE_CAP;
  const hits: TermHit[] = [];
  const seen = new Set<number>();
  const add = <R extends RankedRow>(rows: readonly R[], tier: (row: R) => Tier) => {
    for (const row of rows) {
      if (hits.length >= limit) return;
      if (seen.has(row.item_rank)) continue;
      seen.add(row.item_rank);
      hits.push({ itemRank: row.item_rank, entryId: row.entry_id, tier: tier(row) });
    }
  };

  const whole = await candidates(db, scope, term, false, limit, cap);
  if (whole.overflow) {
    add(await exactHits(db, scope, term, limit), () => 0);
    if (hits.length < limit) add(await rankWalk(db, scope, term, false, limit + hits.length), () => 1);
  } else {
    add(whole.rows, (row) => (row.exact ? 0 : 1));
  }
  if (hits.length < limit) {
    const words = await candidates(db, scope, term, true, limit + hits.length, cap);
    add(words.overflow ? await rankWalk(db, scope, term, true, limit + hits.length) : words.rows, () => 2);
  }
  return hits;
}

/** The term's tokens (whole values or words), ranked, unless there are more than `cap`. */
async function candidates(db: Db, scope: TermScope, term: string, word: boolean, limit: number, cap: number) {
  const { rows } = await sql<RankedRow & { exact: boolean; candidates: number }>`
    WITH c AS MATERIALIZED (
      SELECT item_rank, entry_id, ${word ? sql`false` : sql`token = ${lowered(term)}`} AS exact FROM lookup_terms
      WHERE field_id IN (${ids(scope.fieldIds)}) AND word = ${word} AND ${startsWith(term)}
      LIMIT ${cap + 1}
    )
    SELECT item_rank, entry_id, exact, (SELECT count(*) FROM c)::int AS candidates
    FROM (SELECT DISTINCT ON (item_rank) item_rank, entry_id, exact FROM c ORDER BY item_rank, exact DESC, entry_id) best
    ORDER BY exact DESC, item_rank
    LIMIT ${limit}`.execute(db);
  return { rows, overflow: (rows[0]?.candidates ?? 0) > cap };
}

async function exactHits(db: Db, scope: TermScope, term: string, limit: number): Promise<RankedRow[]> {
  const { rows } = await sql<RankedRow>`
    SELECT DISTINCT ON (item_rank) item_rank, entry_id FROM lookup_terms
    WHERE field_id IN (${ids(scope.fieldIds)}) AND word = false AND token = ${lowered(term)}
    ORDER BY item_rank, entry_id LIMIT ${limit}`.execute(db);
  return rows;
}

/**
 * The kind's items in rank order, keeping those with a matching token, until `limit`. The token
 * test is written so that it cannot use the token index: this walk must follow lookup_terms_rank_idx.
 */
async function rankWalk(db: Db, scope: TermScope, term: string, word: boolean, limit: number): Promise<RankedRow[]> {
  const { rows } = await sql<RankedRow>`
    SELECT DISTINCT ON (item_rank) item_rank, entry_id FROM lookup_terms
    WHERE kind_id = ${sql.lit(scope.kindId)} AND word = ${word} AND field_id IN (${ids(scope.fieldIds)})
      AND left(token, char_length(${term})) = ${lowered(term)}
    ORDER BY item_rank, entry_id LIMIT ${limit}`.execute(db);
  return rows;
}

/** Terms as long as a token: tokens equal to the term's start, checked against the whole value. */
async function findLongTermHits(db: Db, scope: TermScope, term: string, limit: number): Promise<TermHit[]> {
  const { rows } = await sql<RankedRow & { tier: Tier }>`
    WITH c AS MATERIALIZED (
      SELECT item_rank, entry_id, word, pos FROM lookup_terms
      WHERE field_id IN (${ids(scope.fieldIds)}) AND token = left(${lowered(term)}, ${TOKEN_LENGTH})
      LIMIT ${CANDIDATE_CAP}
    )
    SELECT item_rank, entry_id, tier FROM (
      SELECT DISTINCT ON (c.item_rank) c.item_rank, c.entry_id,
        CASE WHEN NOT c.word AND lower(e.value) = lower(${term}) THEN 0 WHEN NOT c.word THEN 1 ELSE 2 END AS tier
      FROM c JOIN lookup_entries e USING (entry_id)
      WHERE starts_with(substr(lower(e.value), c.pos), lower(${term}))
      ORDER BY c.item_rank, tier, c.entry_id
    ) best
    ORDER BY tier, item_rank LIMIT ${limit}`.execute(db);
  return rows.map((r) => ({ itemRank: r.item_rank, entryId: r.entry_id, tier: r.tier }));
}

/** A look-up entry as the answer needs it: the table row without its rank. */
export type EntryRow = Omit<LookupEntriesTable, 'item_rank'>;

export async function loadEntries(db: Db, entryIds: readonly number[]): Promise<Map<number, EntryRow>> {
  if (entryIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('lookup_entries')
    .select(['entry_id', 'field_id', 'item_id', 'item_text', 'value', 'label', 'detail', 'weight'])
    .where('entry_id', 'in', [...entryIds])
    .execute();
  return new Map(rows.map((r) => [Number(r.entry_id), { ...r, entry_id: Number(r.entry_id), weight: Number(r.weight) }]));
}

/**
 * The label of one structure, by the rule refreshLookupTerms applies to all of them: its first
 * named compound record, else its development compound's name, else its ChEMBL id.
 */
function structureLabelSql(strId: RawBuilder<unknown>): RawBuilder<string> {
  return sql<string>`btrim(coalesce(
    (SELECT c.name FROM compounds c WHERE c.str_id = ${strId} AND btrim(c.name) <> '' ORDER BY c.gvk_id LIMIT 1),
    (SELECT d.drug_name FROM clinical_compounds d WHERE d.str_id = ${strId} AND btrim(d.drug_name) <> '' ORDER BY d.clinical_compound_id LIMIT 1),
    (SELECT c.chembl_id FROM compounds c WHERE c.str_id = ${strId} AND c.chembl_id IS NOT NULL ORDER BY c.gvk_id LIMIT 1),
    'Structure ' || ${strId}))`;
}

export interface StructureHit {
  strId: number;
  label: string;
  detail: string | null;
  weight: number;
  tier: Tier;
  matchedOn: 'id' | 'inchikey';
}

const INCHIKEY_FULL = /^[A-Z]{14}-[A-Z]{10}-[A-Z]$/;
/** The first block, optionally with the start of the rest ("BSYNRYMUTXBXSQ", "BSYNRYMUTXBXSQ-UHFF"). */
const INCHIKEY_START = /^[A-Z]{14}(-[A-Z]{0,10}(-[A-Z]?)?)?$/;
/** Structure ids as typed: digits, small enough for a JS number. */
const STRUCTURE_ID = /^\d{1,15}$/;

/**
 * Structures named by identifier rather than by name: a structure id (exact) or an InChIKey (the
 * full key is exact; its first block, alone or with more, is a prefix match).
 */
export async function findStructuresById(db: Db, term: string, limit: number): Promise<StructureHit[]> {
  const key = term.toUpperCase();
  let where: RawBuilder<boolean>;
  let matchedOn: StructureHit['matchedOn'];
  if (STRUCTURE_ID.test(term)) {
    where = sql<boolean>`s.str_id = ${term}::bigint`;
    matchedOn = 'id';
  } else if (INCHIKEY_FULL.test(key)) {
    where = sql<boolean>`s.inchikey = ${key}`;
    matchedOn = 'inchikey';
  } else if (INCHIKEY_START.test(key)) {
    where = sql<boolean>`left(s.inchikey, 14) = ${key.slice(0, 14)} AND starts_with(s.inchikey, ${key})`;
    matchedOn = 'inchikey';
  } else {
    return [];
  }
  const { rows } = await sql<{ str_id: number; label: string; detail: string | null; weight: number; exact: boolean }>`
    SELECT str_id, label, detail, weight, exact FROM (
      SELECT s.str_id, ${structureLabelSql(sql`s.str_id`)} AS label,
        nullif(concat_ws(' · ', ${matchedOn === 'inchikey' ? sql`s.inchikey` : sql`NULL`}, s.mol_formula, 'MW ' || round(s.mol_weight::numeric, 2)), '') AS detail,
        (SELECT count(*) FROM activities a WHERE a.str_id = s.str_id)::int AS weight,
        ${matchedOn === 'id' ? sql`true` : sql`s.inchikey = ${key}`} AS exact
      FROM structures s WHERE ${where}
      LIMIT ${CANDIDATE_CAP}
    ) found
    ORDER BY exact DESC, weight DESC, lower(label), str_id
    LIMIT ${limit}`.execute(db);
  return rows.map((r) => ({
    strId: Number(r.str_id),
    label: r.label,
    detail: r.detail,
    weight: r.weight,
    tier: r.exact ? 0 : 1,
    matchedOn,
  }));
}

/** Units used with an activity type (any case), with how many activities use each. */
export async function unitsOfActivityType(db: Db, activityType: string): Promise<{ unit: string; activities: number }[]> {
  const { rows } = await sql<{ unit: string; activities: number }>`
    SELECT unit, sum(activities)::bigint AS activities FROM lookup_units
    WHERE lower(activity_type) = lower(${activityType}) GROUP BY unit`.execute(db);
  return rows.map((r) => ({ unit: r.unit, activities: Number(r.activities) }));
}
