import { sql } from 'kysely';
import type { Kysely, RawBuilder, Transaction } from 'kysely';
import { CURATION_ENTITY_OF, TEXT_CURATION_ENTITIES } from '@kb/contracts/admin-trackers';
import type { CurationEntity, TermCandidate } from '@kb/contracts/admin-trackers';
import { UPLOAD_LIST_TYPES } from '@kb/contracts/uploads';
import type { UploadListType } from '@kb/contracts/uploads';
import type { Database } from '../../db/schema.ts';
import { checkTerm } from './upload-terms.ts';
import { containsPattern } from '../../db/like-pattern.ts';

/**
 * Curated synonyms (migration 0018): what a curator decided an unidentified term means. The
 * resolver (upload-resolver.ts) reads them beside the knowledge base, under the same kind and key
 * an upload looks the term up by, so the next upload of the term's list identifies it. This file is
 * the uploads module's public surface for the trackers' curation workflow.
 */

type Db = Kysely<Database> | Transaction<Database>;

const CANDIDATE_ROWS = 10;

export function isUploadListType(value: string): value is UploadListType {
  return (UPLOAD_LIST_TYPES as readonly string[]).includes(value);
}

/** The kind and key an upload of `listType` looks `term` up by, or why the term cannot be (malformed). */
export function curationKey(listType: UploadListType, term: string): { kind: UploadListType; key: string } | { invalid: string } {
  const check = checkTerm(listType, term);
  return 'invalid' in check ? { invalid: check.invalid } : { kind: check.kind, key: check.key };
}

/** What a term of the list type may be resolved to. */
export function curationEntity(listType: UploadListType): CurationEntity {
  return CURATION_ENTITY_OF[listType];
}

const structureLabel = sql<string>`coalesce((select c.name from compounds c where c.str_id = s.str_id and c.name is not null order by c.gvk_id limit 1), s.mol_formula, 'Structure ' || s.str_id)`;
const targetLabel = sql<string>`t.name || coalesce(' (' || t.organism || ')', '')`;
const documentLabel = sql<string>`coalesce(d.title, d.reference, d.doi, 'Document ' || d.ref_id)`;

const asId = (text: string): number | null => (/^\d{1,15}$/.test(text) ? Number(text) : null);

/**
 * Records of an entity whose id equals, or whose name contains, `q` (at most ten): the
 * curator's autocomplete. `exactId` set: only that record (the check before a resolution).
 */
function entityQuery(entity: CurationEntity, q: string, exact: boolean): RawBuilder<TermCandidate> {
  const id = asId(q);
  const like = containsPattern(q);
  const limit = exact ? 1 : CANDIDATE_ROWS;
  switch (entity) {
    case 'structure':
      if (exact || id !== null) {
        return sql<TermCandidate>`select s.str_id as id, ${structureLabel} as label from structures s where s.str_id = ${id ?? -1} limit ${limit}`;
      }
      return sql<TermCandidate>`select distinct on (c.str_id) c.str_id as id, c.name as label from compounds c
        where c.str_id is not null and c.name ilike ${like} order by c.str_id, c.gvk_id limit ${limit}`;
    case 'target':
      return sql<TermCandidate>`select t.target_id as id, ${targetLabel} as label from targets t
        where t.target_id = ${id ?? -1} ${exact ? sql`` : sql`or t.name ilike ${like} or t.gene_symbol ilike ${like}`}
        order by t.target_id limit ${limit}`;
    case 'document':
      return sql<TermCandidate>`select d.ref_id as id, ${documentLabel} as label from documents d
        where d.ref_id = ${id ?? -1} ${exact ? sql`` : sql`or d.pubmed_id = ${id ?? -1} or d.title ilike ${like} or d.doi ilike ${like}`}
        order by d.ref_id limit ${limit}`;
    case 'year':
      return sql<TermCandidate>`select d.year as id, d.year || ' (' || count(*) || ' references)' as label from documents d
        where d.year = ${id ?? -1} group by d.year limit 1`;
    case 'company':
      return sql<TermCandidate>`select co.company_id as id, co.name as label from companies co
        where co.company_id = ${id ?? -1} ${exact ? sql`` : sql`or co.name ilike ${like}`} order by co.name limit ${limit}`;
    case 'indication':
      return sql<TermCandidate>`select i.indication_id as id, i.name || coalesce(' (' || i.mesh_id || ')', '') as label from indications i
        where i.indication_id = ${id ?? -1} ${exact ? sql`` : sql`or i.name ilike ${like} or i.mesh_id ilike ${like}`} order by i.name limit ${limit}`;
    case 'taxonomy':
      return sql<TermCandidate>`select tx.taxonomy_id as id, tx.name || ' (' || tx.rank || ')' as label from taxonomy tx
        where tx.taxonomy_id = ${id ?? -1} ${exact ? sql`` : sql`or tx.name ilike ${like}`} order by tx.name limit ${limit}`;
    case 'author':
      return sql<TermCandidate>`select distinct a.name as id, a.name as label from document_authors a
        where ${exact ? sql`a.name = ${q}` : sql`a.name ilike ${like}`} order by a.name limit ${limit}`;
    case 'activitytype':
      return sql<TermCandidate>`select at.name as id, at.name as label from activity_types at
        where ${exact ? sql`at.name = ${q}` : sql`at.name ilike ${like}`} order by at.name limit ${limit}`;
    case 'mechanism':
      return sql<TermCandidate>`select act.name as id, act.name as label from action_types act
        where ${exact ? sql`act.name = ${q}` : sql`act.name ilike ${like}`} order by act.name limit ${limit}`;
    case 'category':
      return sql<TermCandidate>`select distinct c.compound_category as id, c.compound_category as label from compounds c
        where ${exact ? sql`c.compound_category = ${q}` : sql`c.compound_category ilike ${like}`} order by c.compound_category limit ${limit}`;
  }
}

/** The curator's autocomplete: records of the list type's entity matching `q`. */
export async function curationCandidates(db: Db, listType: UploadListType, q: string): Promise<TermCandidate[]> {
  const { rows } = await entityQuery(curationEntity(listType), q, false).execute(db);
  return rows.map((r) => ({ id: r.id, label: String(r.label) }));
}

/** The record `id` names for the list type's entity, or null when there is none. */
export async function curationTarget(db: Db, listType: UploadListType, id: number | string): Promise<TermCandidate | null> {
  const entity = curationEntity(listType);
  const text = String(id).trim();
  if (!TEXT_CURATION_ENTITIES.includes(entity) && asId(text) === null) return null;
  const { rows } = await entityQuery(entity, text, true).execute(db);
  const row = rows[0];
  if (!row) return null;
  // A DOI list searches by the DOI text the reference carries: that is the label it needs.
  if (listType === 'doi') {
    const doc = await sql<{ doi: string | null }>`select doi from documents where ref_id = ${Number(row.id)}`.execute(db);
    if (!doc.rows[0]?.doi) return null;
    return { id: row.id, label: doc.rows[0].doi };
  }
  return { id: row.id, label: String(row.label) };
}

/** Writes (or replaces) the synonym of one key: the resolver identifies the key from then on. */
export async function saveCuratedSynonym(
  trx: Db,
  entry: { kind: UploadListType; key: string; matchId: number | string; label: string | null; term: string; createdBy: number },
): Promise<void> {
  await trx
    .insertInto('curated_synonyms')
    .values({
      lookup_kind: entry.kind,
      lookup_key: entry.key,
      match_id: String(entry.matchId),
      label: entry.label,
      term: entry.term,
      created_by: entry.createdBy,
    })
    .onConflict((oc) =>
      oc.columns(['lookup_kind', 'lookup_key']).doUpdateSet({
        match_id: String(entry.matchId),
        label: entry.label,
        term: entry.term,
        created_by: entry.createdBy,
        created_at: sql`now()`,
      }),
    )
    .execute();
}
