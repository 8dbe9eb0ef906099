import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type {
  CollectionDetail,
  CollectionItemsSchema,
  CollectionSummary,
  CompoundSource,
  CreateCollectionRequest,
  ItemsChanged,
  UpdateCollectionRequestSchema,
} from '@kb/contracts/workspace';
import { COLLECTION_MAX_COMPOUNDS } from '@kb/contracts/workspace';
import type { Database } from '../../db/schema.ts';
import type { AuthContext } from '../../http/auth-hook.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import type { CompoundSources } from './compound-source.ts';
import { objectRights } from './workspace-access.ts';
import { checkOwnedLimit, ownedRow, ownedRows, ownedShape, requireEdit, requireOwner } from './workspace-objects.ts';
import type { OwnedRow } from './workspace-objects.ts';
import type { WorkspaceSharing } from './workspace-sharing.ts';

type CollectionRow = OwnedRow & { compounds: number };
const COLUMNS = sql`o.compounds`;

/**
 * Collections (docs/workspace.md "Collections"): named lists of compounds, owned by a user and
 * shared inside the organisation (workspace-access.ts). `compounds` is kept exact: every change of
 * the items runs in one transaction with the collection's row locked and recounts it there.
 */
export class CollectionsService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly sources: CompoundSources,
    private readonly sharing: WorkspaceSharing,
  ) {}

  async list(auth: AuthContext): Promise<{ rows: CollectionSummary[] }> {
    const rows = await ownedRows<{ compounds: number }>(this.db, 'collection', auth.userId, { columns: COLUMNS });
    return { rows: rows.map((row) => this.summary(row, auth.userId)) };
  }

  async get(auth: AuthContext, id: number): Promise<CollectionDetail> {
    const row = await ownedRow<{ compounds: number }>(this.db, 'collection', auth.userId, id, COLUMNS);
    const mine = row.owner_id === auth.userId;
    return { ...this.summary(row, auth.userId), sharing: mine ? await this.sharing.sharingOf('collection', id) : null };
  }

  async create(auth: AuthContext, request: CreateCollectionRequest): Promise<CollectionDetail> {
    // The source is read first (it may be a results tab): outside the transaction, which stays short.
    const strIds = request.source ? await this.sources.strIds(auth, request.source, COLLECTION_MAX_COMPOUNDS, 'collection') : [];
    const id = await this.db.transaction().execute(async (trx) => {
      await checkOwnedLimit(trx, 'collection', auth.userId);
      const created = await trx
        .insertInto('collections')
        .values({ owner_id: auth.userId, name: request.name, description: request.description, compounds: strIds.length })
        .returning('id')
        .executeTakeFirstOrThrow();
      if (strIds.length) await insertItems(trx, created.id, strIds, auth.userId);
      return created.id;
    });
    return this.get(auth, id);
  }

  async update(auth: AuthContext, id: number, request: z.infer<typeof UpdateCollectionRequestSchema>): Promise<CollectionDetail> {
    const rights = await objectRights(this.db, 'collection', id, auth.userId, 'collection');
    requireEdit('collection', rights.access);
    if (request.name !== undefined || request.description !== undefined) {
      await this.db
        .updateTable('collections')
        .set({
          ...(request.name !== undefined ? { name: request.name } : {}),
          ...(request.description !== undefined ? { description: request.description } : {}),
          updated_at: sql<Date>`now()`,
        })
        .where('id', '=', id)
        .execute();
    }
    return this.get(auth, id);
  }

  async delete(auth: AuthContext, id: number): Promise<{ message: string }> {
    const rights = await objectRights(this.db, 'collection', id, auth.userId, 'collection');
    requireOwner('collection', rights.owner, 'delete');
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('workspace_shares').where('object_kind', '=', 'collection').where('object_id', '=', id).execute();
      await trx.deleteFrom('collections').where('id', '=', id).execute();
    });
    return { message: 'The collection was deleted.' };
  }

  /** A page of the compounds, most recently added first (ids no longer in the knowledge base are left out). */
  async items(auth: AuthContext, id: number, page: number, pageSize: number): Promise<z.infer<typeof CollectionItemsSchema>> {
    await objectRights(this.db, 'collection', id, auth.userId, 'collection');
    const [count, items] = await Promise.all([
      sql<{ n: number }>`SELECT count(*)::int AS n FROM collection_items i JOIN structures s ON s.str_id = i.str_id
        WHERE i.collection_id = ${id}`.execute(this.db),
      sql<{ str_id: number; smiles: string; name: string | null; added_at: Date | string }>`
        SELECT i.str_id, s.canonical_smiles AS smiles, i.added_at,
          (SELECT c.name FROM compounds c WHERE c.str_id = i.str_id AND c.name IS NOT NULL AND c.name <> '' ORDER BY c.gvk_id LIMIT 1) AS name
        FROM collection_items i JOIN structures s ON s.str_id = i.str_id
        WHERE i.collection_id = ${id}
        ORDER BY i.added_at DESC, i.str_id
        LIMIT ${pageSize} OFFSET ${page * pageSize}`.execute(this.db),
    ]);
    return {
      rowCount: Number(count.rows[0]?.n ?? 0),
      rows: items.rows.map((row) => ({
        strId: Number(row.str_id),
        smiles: row.smiles,
        name: row.name,
        addedAt: (row.added_at instanceof Date ? row.added_at : new Date(row.added_at)).toISOString(),
      })),
    };
  }

  async addItems(auth: AuthContext, id: number, source: CompoundSource): Promise<ItemsChanged> {
    const rights = await objectRights(this.db, 'collection', id, auth.userId, 'collection');
    requireEdit('collection', rights.access);
    const strIds = await this.sources.strIds(auth, source, COLLECTION_MAX_COMPOUNDS, 'collection');
    return this.addStrIds(auth, id, strIds);
  }

  /**
   * Adds structure ids (of the knowledge base, distinct) to a collection the caller may edit. In
   * one transaction with the collection locked: two additions at once are counted one after the
   * other, and one that would pass COLLECTION_MAX_COMPOUNDS adds nothing (400).
   */
  async addStrIds(auth: AuthContext, id: number, strIds: readonly number[]): Promise<ItemsChanged> {
    return this.db.transaction().execute(async (trx) => {
      const compounds = await lockedCount(trx, id);
      const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM unnest(${[...strIds]}::bigint[]) AS x(str_id)
        WHERE NOT EXISTS (SELECT 1 FROM collection_items i WHERE i.collection_id = ${id} AND i.str_id = x.str_id)`.execute(trx);
      const fresh = Number(rows[0]?.n ?? 0);
      if (compounds + fresh > COLLECTION_MAX_COMPOUNDS) {
        throw badRequest(
          `A collection holds at most ${COLLECTION_MAX_COMPOUNDS.toLocaleString('en-US')} compounds: this one has ${compounds.toLocaleString('en-US')}, and these would add ${fresh.toLocaleString('en-US')}. Nothing was added.`,
          { max: COLLECTION_MAX_COMPOUNDS, compounds, adding: fresh },
        );
      }
      const changed = fresh ? await insertItems(trx, id, strIds, auth.userId) : 0;
      const total = await recount(trx, id, changed > 0);
      return { changed, unchanged: strIds.length - changed, compounds: total };
    });
  }

  async removeItems(auth: AuthContext, id: number, strIds: readonly number[]): Promise<ItemsChanged> {
    const rights = await objectRights(this.db, 'collection', id, auth.userId, 'collection');
    requireEdit('collection', rights.access);
    const distinct = [...new Set(strIds)];
    return this.db.transaction().execute(async (trx) => {
      await lockedCount(trx, id);
      const removed = await sql`DELETE FROM collection_items WHERE collection_id = ${id} AND str_id = ANY(${distinct}::bigint[])`.execute(
        trx,
      );
      const changed = Number(removed.numAffectedRows ?? 0);
      const total = await recount(trx, id, changed > 0);
      return { changed, unchanged: distinct.length - changed, compounds: total };
    });
  }

  private summary(row: CollectionRow, userId: number): CollectionSummary {
    return { ...ownedShape(row, userId), compounds: Number(row.compounds) };
  }
}

/** Locks the collection's row for the rest of the transaction; answers its count. */
async function lockedCount(trx: Kysely<Database>, id: number): Promise<number> {
  const { rows } = await sql<{ compounds: number }>`SELECT compounds FROM collections WHERE id = ${id} FOR UPDATE`.execute(trx);
  // Deleted by its owner between the access check and here.
  if (!rows[0]) throw notFound(`Collection ${id} was deleted meanwhile.`);
  return Number(rows[0].compounds);
}

/** Inserts the ids not yet in the collection; answers how many were. */
async function insertItems(trx: Kysely<Database>, id: number, strIds: readonly number[], userId: number): Promise<number> {
  const inserted = await sql`INSERT INTO collection_items (collection_id, str_id, added_by)
    SELECT ${id}, x.str_id, ${userId} FROM unnest(${[...strIds]}::bigint[]) AS x(str_id)
    ON CONFLICT DO NOTHING`.execute(trx);
  return Number(inserted.numAffectedRows ?? 0);
}

/** Writes the exact count (and the change time when something changed); answers it. */
async function recount(trx: Kysely<Database>, id: number, changed: boolean): Promise<number> {
  const { rows } = await sql<{ compounds: number }>`UPDATE collections
    SET compounds = (SELECT count(*)::int FROM collection_items WHERE collection_id = ${id})
      ${changed ? sql`, updated_at = now()` : sql``}
    WHERE id = ${id} RETURNING compounds`.execute(trx);
  return Number(rows[0]?.compounds ?? 0);
}
