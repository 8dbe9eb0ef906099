import { sql } from 'kysely';
import type { Kysely, RawBuilder } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { LookupKind } from './upload-terms.ts';
import { resolveTargetTerms } from '../targets/target-resolver.ts';
import type { TargetCategory } from '../targets/target-text.ts';

/**
 * Looks up the keys of one list in the knowledge base: one set-based query per list (the keys
 * travel as one array parameter), so 100,000 terms cost one round trip, never one per term.
 *
 * Ids are what a search row of that kind takes: structure ids for compound lists (strid, CAS,
 * names, InChIKeys), target ids for target lists, reference ids for document lists, the year for
 * years, company / indication / taxonomy ids, and the canonical text for lists searched by text
 * (authors, activity types, mechanisms, compound categories).
 */

export interface TermMatch {
  ids: (number | string)[];
  label: string | null;
}

interface MatchRow {
  key: string;
  id: number | string;
  label: string | null;
}

/** Keys that can be ids: longer digit strings exceed bigint and match nothing anyway. */
const numbers = (keys: readonly string[]) => keys.filter((k) => k.length <= 15).map(Number);

/** The first compound name of structure `s` (its label), else its formula. */
const structureLabel = sql<
  string | null
>`coalesce((select c.name from compounds c where c.str_id = s.str_id and c.name is not null order by c.gvk_id limit 1), s.mol_formula)`;

const targetLabel = sql<string>`t.name || coalesce(' (' || t.organism || ')', '')`;

/** A query over the keys as table `k(key)`: the array is sent once however often it is joined. */
const overKeys = (keys: readonly string[], body: RawBuilder<unknown>) =>
  sql<MatchRow>`with k as (select distinct unnest(${[...keys]}::text[]) as key) ${body}`;

function matchQuery(kind: LookupKind, keys: readonly string[]): RawBuilder<MatchRow> | null {
  switch (kind) {
    case 'strid': {
      const ids = numbers(keys);
      if (ids.length === 0) return null;
      return sql<MatchRow>`select s.str_id::text as key, s.str_id as id, ${structureLabel} as label
        from structures s where s.str_id = any(${ids}::bigint[])`;
    }
    case 'cas':
      // CAS numbers sit on compound records, and as synonyms where a source lists them that way.
      return overKeys(
        keys,
        sql`select k.key, c.str_id as id, c.name as label
          from k join compounds c on c.cas_number = k.key where c.str_id is not null
        union
        select k.key, c.str_id, coalesce(c.name, cs.synonym)
          from k join compound_synonyms cs on lower(cs.synonym) = lower(k.key)
          join compounds c on c.gvk_id = cs.gvk_id where c.str_id is not null`,
      );
    case 'compoundname':
      return overKeys(
        keys,
        sql`select k.key, c.str_id as id, c.name as label
          from k join compounds c on lower(c.name) = k.key where c.str_id is not null
        union
        select k.key, c.str_id, coalesce(c.name, cs.synonym)
          from k join compound_synonyms cs on lower(cs.synonym) = k.key
          join compounds c on c.gvk_id = cs.gvk_id where c.str_id is not null
        union
        select k.key, cc.str_id, cc.drug_name
          from k join clinical_compounds cc on lower(cc.drug_name) = k.key where cc.str_id is not null`,
      );
    case 'inchikey':
      return sql<MatchRow>`select s.inchikey as key, s.str_id as id, ${structureLabel} as label
        from structures s where s.inchikey = any(${[...keys]}::text[])`;
    case 'target':
    case 'uniprot':
    case 'gene':
    case 'entrez':
    case 'pdb':
      // Resolved by the search's own rules (targetMatches), never here.
      return null;
    case 'pubmed': {
      const ids = numbers(keys);
      if (ids.length === 0) return null;
      return sql<MatchRow>`select d.pubmed_id::text as key, d.ref_id as id, coalesce(d.title, d.reference) as label
        from documents d where d.pubmed_id = any(${ids}::bigint[])`;
    }
    case 'refid': {
      const ids = numbers(keys);
      if (ids.length === 0) return null;
      return sql<MatchRow>`select d.ref_id::text as key, d.ref_id as id, coalesce(d.title, d.reference) as label
        from documents d where d.ref_id = any(${ids}::bigint[])`;
    }
    case 'doi':
      // The label is the DOI as the reference spells it: a DOI row searches by that text.
      return sql<MatchRow>`select lower(d.doi) as key, d.ref_id as id, d.doi as label
        from documents d where lower(d.doi) = any(${[...keys]}::text[])`;
    case 'patent':
      return patentQuery(keys);
    case 'year': {
      const years = numbers(keys);
      if (years.length === 0) return null;
      return sql<MatchRow>`select d.year::text as key, d.year as id, count(*) || ' references' as label
        from documents d where d.year = any(${years}::bigint[]) group by d.year`;
    }
    case 'author':
      // Authors are searched by name: the ids are the names as the references spell them.
      return sql<MatchRow>`select distinct lower(a.name) as key, a.name as id, a.name as label
        from document_authors a where lower(a.name) = any(${[...keys]}::text[])`;
    case 'company':
      return sql<MatchRow>`select lower(co.name) as key, co.company_id as id, co.name as label
        from companies co where lower(co.name) = any(${[...keys]}::text[])`;
    case 'indication':
      return sql<MatchRow>`select lower(i.name) as key, i.indication_id as id, i.name || coalesce(' (' || i.mesh_id || ')', '') as label
        from indications i where lower(i.name) = any(${[...keys]}::text[])`;
    case 'mesh':
      return sql<MatchRow>`select upper(i.mesh_id) as key, i.indication_id as id, i.name as label
        from indications i where upper(i.mesh_id) = any(${[...keys]}::text[])`;
    case 'activitytype':
      return sql<MatchRow>`select lower(at.name) as key, at.name as id, at.name as label
        from activity_types at where lower(at.name) = any(${[...keys]}::text[])`;
    case 'mechanism':
      return sql<MatchRow>`select lower(act.name) as key, act.name as id, act.name as label
        from action_types act where lower(act.name) = any(${[...keys]}::text[])`;
    case 'category':
      return sql<MatchRow>`select distinct lower(c.compound_category) as key, c.compound_category as id, c.compound_category as label
        from compounds c where lower(c.compound_category) = any(${[...keys]}::text[])`;
    case 'source':
      return sql<MatchRow>`select lower(tx.name) as key, tx.taxonomy_id as id, tx.name || ' (' || tx.rank || ')' as label
        from taxonomy tx where lower(tx.name) = any(${[...keys]}::text[])`;
  }
}

/**
 * Patent numbers are compared as letters and digits only, and match with or without their country
 * code and kind code: "8513270", "US8513270" and "US-8513270-B2" all find US-8513270-B2. Numbers
 * are stored in several styles (ChEMBL "US-8513270-B2", others "US2015000123"), so each stored
 * number is normalised once here and joined on the four forms.
 */
function patentQuery(keys: readonly string[]): RawBuilder<MatchRow> {
  return sql<MatchRow>`with p as (
      select d.ref_id, coalesce(d.title, d.reference, d.patent_no) as label,
        upper(regexp_replace(d.patent_no, '[^A-Za-z0-9]', '', 'g')) as full_no,
        upper(coalesce(d.country_code, substring(d.patent_no from '^[A-Za-z]{2}'), '')) as cc
      from documents d where d.patent_no is not null
    ), forms as (
      select ref_id, label, full_no as form, cc from p
      union select ref_id, label, regexp_replace(full_no, '([0-9])[A-Z][0-9]?$', '\\1'), cc from p
    ), all_forms as (
      select ref_id, label, form from forms
      union select ref_id, label, substr(form, length(cc) + 1) from forms where cc <> '' and left(form, length(cc)) = cc
    )
    select f.form as key, f.ref_id as id, f.label from all_forms f where f.form = any(${[...keys]}::text[])`;
}

/** Mechanisms used on activities but missing from the action-type vocabulary (one scan, only when needed). */
function activityMechanismQuery(keys: readonly string[]): RawBuilder<MatchRow> {
  return sql<MatchRow>`select distinct lower(a.activity_mechanism) as key, a.activity_mechanism as id, a.activity_mechanism as label
    from activities a where lower(a.activity_mechanism) = any(${[...keys]}::text[])`;
}

/** Synonyms curators made of reported terms, by the kind and key an upload looks them up by. */
function curatedQuery(kind: LookupKind, keys: readonly string[]): RawBuilder<MatchRow> {
  const id = TEXT_KINDS.has(kind) ? sql`cs.match_id` : sql`cs.match_id::bigint`;
  return sql<MatchRow>`select cs.lookup_key as key, ${id} as id, cs.label as label
    from curated_synonyms cs where cs.lookup_kind = ${kind} and cs.lookup_key = any(${[...keys]}::text[])`;
}

/**
 * Lists searched by text: their label is the canonical text itself (the text a search row takes),
 * never a list of variants.
 */
const TEXT_KINDS: ReadonlySet<LookupKind> = new Set(['author', 'activitytype', 'mechanism', 'category']);

/** Up to three labels of a term's matches, with how many more there are. */
function joinLabels(labels: readonly string[]): string | null {
  if (labels.length === 0) return null;
  const shown = labels.slice(0, 3).join('; ');
  return labels.length > 3 ? `${shown} (+${labels.length - 3} more)` : shown;
}

const byId = (a: number | string, b: number | string) =>
  typeof a === 'number' && typeof b === 'number' ? a - b : String(a).localeCompare(String(b));

function groupMatches(kind: LookupKind, rows: readonly MatchRow[], into: Map<string, TermMatch>): void {
  const grouped = new Map<string, Map<number | string, string | null>>();
  for (const row of rows) {
    const labels = grouped.get(row.key) ?? new Map<number | string, string | null>();
    // A structure reached twice (name and synonym) keeps its first label.
    if (!labels.has(row.id) || labels.get(row.id) === null) labels.set(row.id, row.label);
    grouped.set(row.key, labels);
  }
  for (const [key, labels] of grouped) {
    const ids = [...labels.keys()].sort(byId);
    const inOrder = [...new Set(ids.map((id) => labels.get(id)).filter((l): l is string => !!l))];
    into.set(key, { ids, label: TEXT_KINDS.has(kind) ? (inOrder[0] ?? null) : joinLabels(inOrder) });
  }
}

/** The category of the search's Target row each target list is (docs/search-semantics.md "Target text and families"). */
const TARGET_LIST_CATEGORY: Partial<Record<LookupKind, TargetCategory>> = {
  target: 'name',
  uniprot: 'uniprot',
  gene: 'gene',
  entrez: 'entrez',
  pdb: 'pdb',
};

/**
 * Target lists: each key resolved exactly as a Target row resolves the same text (identifiers
 * exactly; prefixes, whole words, families and wildcards otherwise), so the row finds what the
 * upload reported.
 */
async function targetMatches(db: Kysely<Database>, category: TargetCategory, keys: readonly string[]): Promise<MatchRow[]> {
  const resolved = await resolveTargetTerms(
    db,
    keys.map((key) => ({ label: key, targetCategories: [category] })),
  );
  const ids = [...new Set(resolved.flatMap((r) => r.ids))];
  if (ids.length === 0) return [];
  const label = category === 'gene' ? sql`coalesce(t.gene_symbol || ': ', '') || ${targetLabel}` : targetLabel;
  const { rows } = await sql<{ id: number | string; label: string }>`select t.target_id as id, ${label} as label
    from targets t where t.target_id = any(${ids}::bigint[])`.execute(db);
  const labels = new Map(rows.map((r) => [Number(r.id), r.label]));
  return resolved.flatMap((r, i) => r.ids.map((id) => ({ key: keys[i]!, id, label: labels.get(id) ?? null })));
}

/** The matches of a list's keys, by key; keys without a match are absent. */
export async function resolveKeys(db: Kysely<Database>, kind: LookupKind, keys: readonly string[]): Promise<Map<string, TermMatch>> {
  const matches = new Map<string, TermMatch>();
  if (keys.length === 0) return matches;
  const category = TARGET_LIST_CATEGORY[kind];
  if (category) groupMatches(kind, await targetMatches(db, category, keys), matches);
  const query = matchQuery(kind, keys);
  if (query) groupMatches(kind, (await query.execute(db)).rows, matches);
  if (kind === 'mechanism') {
    const rest = keys.filter((key) => !matches.has(key));
    if (rest.length > 0) groupMatches(kind, (await activityMechanismQuery(rest).execute(db)).rows, matches);
  }
  // Terms a curator resolved (trackers, migration 0018): only keys the knowledge base does not know.
  const rest = keys.filter((key) => !matches.has(key));
  if (rest.length > 0) groupMatches(kind, (await curatedQuery(kind, rest).execute(db)).rows, matches);
  return matches;
}
