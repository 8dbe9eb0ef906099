import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { COLLECTION_MAX_COMPOUNDS } from '@kb/contracts/workspace';
import type { Database } from '../../db/schema.ts';
import { accessSql } from './workspace-access.ts';

/**
 * The structure ids of a collection for a search's "In collection" row (docs/search-semantics.md),
 * read for user `userId` under the workspace's access rule (workspace-access.ts, on every call: an
 * account moved out of the organisation loses it at once). Null when the collection does not exist
 * or is not shared with that user: the search answers both the same way. services.ts hands this to
 * the search service, which does not import the workspace module.
 */
export async function collectionMembers(db: Kysely<Database>, userId: number, collectionId: number): Promise<number[] | null> {
  const { rows } = await sql<{ access: string | null }>`
    SELECT ${accessSql('collection', userId)} AS access FROM collections o WHERE o.id = ${collectionId}`.execute(db);
  if (!rows[0]?.access) return null;
  // Bounded as a collection is (additions past the limit are refused); sorted, as the bitmap engine reads id lists.
  const items = await db
    .selectFrom('collection_items')
    .select('str_id')
    .where('collection_id', '=', collectionId)
    .orderBy('str_id')
    .limit(COLLECTION_MAX_COMPOUNDS)
    .execute();
  return items.map((item) => Number(item.str_id));
}
