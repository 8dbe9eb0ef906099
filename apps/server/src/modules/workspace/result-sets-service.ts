import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { ResultSetDetail, ResultSetState, ResultSetSummary, UpdateResultSetRequestSchema } from '@kb/contracts/workspace';
import { RESULT_SET_STATE_MAX_BYTES, ResultSetStateSchema } from '@kb/contracts/workspace';
import { SixCountsSchema } from '@kb/contracts/search';
import { ResultTabKeySchema } from '@kb/contracts/result-tabs';
import type { Database } from '../../db/schema.ts';
import type { AuthContext } from '../../http/auth-hook.ts';
import { HttpError, badRequest } from '../../http/errors.ts';
import { ERROR_CODES } from '@kb/contracts/errors';
import { loadsVersion } from '../knowledge-base/kb-loads.ts';
import { objectRights } from './workspace-access.ts';
import { checkOwnedLimit, ownedRow, ownedRows, ownedShape, requireEdit, requireOwner } from './workspace-objects.ts';
import type { OwnedRow } from './workspace-objects.ts';
import type { WorkspaceSharing } from './workspace-sharing.ts';

type SetColumns = { tab: string; summary: string | null; counts: unknown; kb_version: string | null };
type SetRow = OwnedRow & SetColumns;
const LIST_COLUMNS = sql`o.tab, o.summary, o.counts, o.kb_version`;
const DETAIL_COLUMNS = sql`o.tab, o.summary, o.counts, o.kb_version, o.state`;

const parseJson = (value: unknown): unknown => {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return null;
  }
};

/**
 * The knowledge base's version, kept with a saved result set so that restoring it can say the data
 * changed since. `loadsVersion` rather than the latest finished load: it changes whenever any load
 * ends — complete, partial or failed — and a failed load may still have committed rows that change
 * a search's counts; the latest complete/partial load would not move then.
 */
function kbVersion(db: Kysely<Database>): Promise<string> {
  return loadsVersion(db);
}

/** A state as stored, refused (400) above RESULT_SET_STATE_MAX_BYTES. */
function storedState(state: ResultSetState): string {
  const json = JSON.stringify(state);
  const bytes = Buffer.byteLength(json, 'utf8');
  if (bytes > RESULT_SET_STATE_MAX_BYTES) {
    throw badRequest(
      `This results page's state is ${Math.ceil(bytes / 1024).toLocaleString('en-US')} KB; a saved result set keeps at most ${RESULT_SET_STATE_MAX_BYTES / 1024} KB. Untick rows (a long selection is the usual cause) and save again.`,
      { field: 'state', max: RESULT_SET_STATE_MAX_BYTES, bytes },
    );
  }
  return json;
}

/** The columns a state sets beside it (the list shows them without reading the state). */
function stateColumns(state: ResultSetState) {
  return { tab: state.tab, summary: state.summary ?? null, counts: state.counts ? JSON.stringify(state.counts) : null };
}

/**
 * Saved result sets (docs/workspace.md "Saved result sets"): a results page's state by name, with
 * the knowledge base's version when saved; owned and shared like collections.
 */
export class ResultSetsService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly sharing: WorkspaceSharing,
  ) {}

  async list(auth: AuthContext): Promise<{ rows: ResultSetSummary[] }> {
    const rows = await ownedRows<SetColumns>(this.db, 'result_set', auth.userId, { columns: LIST_COLUMNS });
    return { rows: rows.map((row) => summary(row, auth.userId)) };
  }

  async get(auth: AuthContext, id: number): Promise<ResultSetDetail> {
    const row = await ownedRow<SetColumns & { state: unknown }>(this.db, 'result_set', auth.userId, id, DETAIL_COLUMNS);
    const mine = row.owner_id === auth.userId;
    const [sharing, currentKbVersion] = await Promise.all([
      mine ? this.sharing.sharingOf('result_set', id) : Promise.resolve(null),
      kbVersion(this.db),
    ]);
    const state = ResultSetStateSchema.safeParse(parseJson(row.state));
    if (!state.success) {
      throw new HttpError(409, {
        message: `Saved result set ${id} was saved in a form this version cannot restore: run its search again and save it anew.`,
        code: ERROR_CODES.conflict,
      });
    }
    return { ...summary(row, auth.userId), state: state.data, sharing, currentKbVersion };
  }

  async save(auth: AuthContext, request: { name: string; description: string; state: ResultSetState }): Promise<ResultSetDetail> {
    const state = storedState(request.state);
    const version = await kbVersion(this.db);
    const id = await this.db.transaction().execute(async (trx) => {
      await checkOwnedLimit(trx, 'result_set', auth.userId);
      const created = await trx
        .insertInto('result_sets')
        .values({
          owner_id: auth.userId,
          name: request.name,
          description: request.description,
          ...stateColumns(request.state),
          state,
          kb_version: version,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return created.id;
    });
    return this.get(auth, id);
  }

  /** Renames it or replaces its state (then the knowledge base's version is that of now). */
  async update(auth: AuthContext, id: number, request: z.infer<typeof UpdateResultSetRequestSchema>): Promise<ResultSetDetail> {
    const rights = await objectRights(this.db, 'result_set', id, auth.userId, 'saved result set');
    requireEdit('result_set', rights.access);
    const state = request.state
      ? { ...stateColumns(request.state), state: storedState(request.state), kb_version: await kbVersion(this.db) }
      : {};
    if (request.name !== undefined || request.description !== undefined || request.state) {
      await this.db
        .updateTable('result_sets')
        .set({
          ...(request.name !== undefined ? { name: request.name } : {}),
          ...(request.description !== undefined ? { description: request.description } : {}),
          ...state,
          updated_at: sql<Date>`now()`,
        })
        .where('id', '=', id)
        .execute();
    }
    return this.get(auth, id);
  }

  async delete(auth: AuthContext, id: number): Promise<{ message: string }> {
    const rights = await objectRights(this.db, 'result_set', id, auth.userId, 'saved result set');
    requireOwner('result_set', rights.owner, 'delete');
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('workspace_shares').where('object_kind', '=', 'result_set').where('object_id', '=', id).execute();
      await trx.deleteFrom('result_sets').where('id', '=', id).execute();
    });
    return { message: 'The saved result set was deleted.' };
  }
}

function summary(row: SetRow, userId: number): ResultSetSummary {
  return {
    ...ownedShape(row, userId),
    tab: ResultTabKeySchema.catch('structuretab').parse(row.tab),
    summary: row.summary,
    counts: SixCountsSchema.nullable()
      .catch(null)
      .parse(parseJson(row.counts) ?? null),
    kbVersion: row.kb_version,
  };
}
