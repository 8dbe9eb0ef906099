import { sql } from 'kysely';
import type { Kysely, RawBuilder } from 'kysely';
import { structureLeafletLink } from '@kb/contracts/leaflets';
import type { LeafletIdType } from '@kb/contracts/leaflets';
import type { Database } from '../../db/schema.ts';
import { notFound } from '../../http/errors.ts';

/**
 * What a compound leaflet (and a measurement list) is about. Usually a structure (every activity,
 * record and development compound of it); a compound record or development compound without a
 * structure (a biologic, an unparsable molecule) is shown on its own: its records, their
 * activities and development data.
 */
export interface LeafletScope {
  strId: number | null;
  gvkIds: number[];
  clinicalIds: number[];
}

const NO_ROWS = sql<boolean>`false`;

/** Activities of the scope: by structure (activities_str_target_idx, which starts with str_id) or by compound record (activities_gvk_idx). */
export function activityFilter(scope: LeafletScope): RawBuilder<boolean> {
  if (scope.strId !== null) return sql<boolean>`a.str_id = ${scope.strId}`;
  if (scope.gvkIds.length === 0) return NO_ROWS;
  return sql<boolean>`a.gvk_id = ANY(${scope.gvkIds}::bigint[])`;
}

export function compoundFilter(scope: LeafletScope): RawBuilder<boolean> {
  if (scope.strId !== null) return sql<boolean>`c.str_id = ${scope.strId}`;
  if (scope.gvkIds.length === 0) return NO_ROWS;
  return sql<boolean>`c.gvk_id = ANY(${scope.gvkIds}::bigint[])`;
}

export function clinicalFilter(scope: LeafletScope): RawBuilder<boolean> {
  const byId = sql<boolean>`cc.clinical_compound_id = ANY(${scope.clinicalIds}::bigint[])`;
  if (scope.strId !== null) return sql<boolean>`(cc.str_id = ${scope.strId} OR ${byId})`;
  return sql<boolean>`(cc.gvk_id = ANY(${scope.gvkIds}::bigint[]) OR ${byId})`;
}

export async function requireStructure(db: Kysely<Database>, strId: number): Promise<void> {
  const row = await db.selectFrom('structures').select('str_id').where('str_id', '=', strId).executeTakeFirst();
  if (!row) throw notFound(`No structure with id ${strId} in the knowledge base.`);
}

/** What a leaflet id names; 404 when it names nothing. */
export async function resolveScope(db: Kysely<Database>, idType: LeafletIdType, id: number): Promise<LeafletScope> {
  if (idType === 'structure') {
    await requireStructure(db, id);
    return { strId: id, gvkIds: [], clinicalIds: [] };
  }
  if (idType === 'compound') {
    const record = await db.selectFrom('compounds').select(['gvk_id', 'str_id']).where('gvk_id', '=', id).executeTakeFirst();
    if (!record) throw notFound(`No compound record with id ${id} in the knowledge base.`);
    return { strId: record.str_id, gvkIds: [id], clinicalIds: [] };
  }
  const drug = await db
    .selectFrom('clinical_compounds')
    .select(['str_id', 'gvk_id'])
    .where('clinical_compound_id', '=', id)
    .executeTakeFirst();
  if (!drug) throw notFound(`No development compound with id ${id} in the knowledge base.`);
  return { strId: drug.str_id, gvkIds: drug.gvk_id === null ? [] : [drug.gvk_id], clinicalIds: [id] };
}

/** The permanent link of a compound leaflet: its structure's, else the record or development compound as named. */
export function compoundLeafletLink(scope: LeafletScope, idType: LeafletIdType, id: number): string {
  return scope.strId !== null ? structureLeafletLink(scope.strId) : `/leaflet/${idType}/${id}`;
}
