import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { KbLoad, KbLoadKind, KbLoadReport, KbLoadStatus } from '@kb/contracts/kb-loads';
import { KbLoadReportSchema } from '@kb/contracts/kb-loads';
import type { Database } from '../../db/schema.ts';

/**
 * The loads of the knowledge base (migration 0022): a seed, import or update opens one with
 * `beginLoad`, stamps the rows it adds with its `load_id`, and closes it with `finishLoad` and its
 * report. Alerts read `uncheckedLoads` and mark them with `markAlertsChecked`.
 */

export async function beginLoad(
  db: Kysely<Database>,
  load: { kind: KbLoadKind; label: string; sourceFile?: string | null },
): Promise<number> {
  const row = await db
    .insertInto('kb_loads')
    .values({ kind: load.kind, label: load.label, source_file: load.sourceFile ?? null })
    .returning('load_id')
    .executeTakeFirstOrThrow();
  return Number(row.load_id);
}

export async function finishLoad(
  db: Kysely<Database>,
  loadId: number,
  status: Exclude<KbLoadStatus, 'running'>,
  report: KbLoadReport,
): Promise<void> {
  await db
    .updateTable('kb_loads')
    .set({ status, finished_at: new Date(), report: JSON.stringify(KbLoadReportSchema.parse(report)) })
    .where('load_id', '=', loadId)
    .execute();
}

type LoadRow = {
  load_id: number | string;
  kind: KbLoadKind;
  label: string;
  source_file: string | null;
  started_at: Date | string;
  finished_at: Date | string | null;
  status: KbLoadStatus;
  report: unknown;
};

const iso = (d: Date | string) => (d instanceof Date ? d : new Date(d)).toISOString();

function toKbLoad(row: LoadRow): KbLoad {
  const raw = typeof row.report === 'string' ? JSON.parse(row.report) : row.report;
  const report = raw == null ? null : KbLoadReportSchema.safeParse(raw);
  return {
    loadId: Number(row.load_id),
    kind: row.kind,
    label: row.label,
    sourceFile: row.source_file,
    startedAt: iso(row.started_at),
    finishedAt: row.finished_at === null ? null : iso(row.finished_at),
    status: row.status,
    report: report?.success ? report.data : null,
  };
}

/** Newest first. */
export async function listLoads(db: Kysely<Database>, limit = 50): Promise<KbLoad[]> {
  const rows = await db.selectFrom('kb_loads').selectAll().orderBy('load_id', 'desc').limit(limit).execute();
  return rows.map((r) => toKbLoad(r as unknown as LoadRow));
}

/** The newest finished load (complete or partial), or null before the first. */
export async function latestFinishedLoad(db: Kysely<Database>): Promise<KbLoad | null> {
  const row = await db
    .selectFrom('kb_loads')
    .selectAll()
    .where('status', 'in', ['complete', 'partial'])
    .orderBy('load_id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? toKbLoad(row as unknown as LoadRow) : null;
}

/** Highest load id so far (0 before the first): an alert's starting point. */
export async function currentLoadId(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('kb_loads')
    .select((eb) => eb.fn.max('load_id').as('max'))
    .executeTakeFirst();
  return Number(row?.max ?? 0);
}

/**
 * A token that changes whenever a load ends (seed, import, update, on any server): caches of
 * whole-knowledge-base figures compare it to know they are stale. Cheap: kb_loads has a row a load.
 */
export async function loadsVersion(db: Kysely<Database>): Promise<string> {
  return (await loadsState(db)).finished;
}

export interface LoadsState {
  /** As `loadsVersion`: changes whenever a load ends. */
  finished: string;
  /**
   * `finished`, and while a load is running (or was left running by a stopped process) the
   * highest activity and structure ids, which move as its rows are committed: in-memory copies of
   * the knowledge base (search bitmaps, chart dictionaries) compare it to know they miss rows.
   */
  version: string;
  loading: boolean;
}

export async function loadsState(db: Kysely<Database>): Promise<LoadsState> {
  const { rows } = await sql<{ version: string; loading: boolean | null }>`SELECT
      count(*) FILTER (WHERE finished_at IS NOT NULL) || ':' || coalesce(max(finished_at)::text, '') AS version,
      bool_or(finished_at IS NULL AND status = 'running') AS loading
    FROM kb_loads`.execute(db);
  const finished = rows[0]?.version ?? '';
  if (rows[0]?.loading !== true) return { finished, version: finished, loading: false };
  const { rows: ids } = await sql<{
    ids: string;
  }>`SELECT (SELECT coalesce(max(act_id), 0) FROM activities) || ':' || (SELECT coalesce(max(str_id), 0) FROM structures) AS ids`.execute(
    db,
  );
  return { finished, version: `${finished}:loading:${ids[0]?.ids ?? ''}`, loading: true };
}

const STRUCTURES_REVISION = 'structures_revision';

/**
 * Changes with every change to structure rows made outside a load (fingerprints filled in by
 * "Rebuild derived data"): with `loadsVersion`, what a copy of the structures (the structure index's
 * local snapshot) compares to know it is stale.
 */
export async function structuresRevision(db: Kysely<Database>): Promise<string> {
  const row = await db.selectFrom('app_settings').select('value').where('key', '=', STRUCTURES_REVISION).executeTakeFirst();
  return row?.value ?? '';
}

export async function reviseStructures(db: Kysely<Database>): Promise<void> {
  const value = `${new Date().toISOString()} ${Math.random().toString(36).slice(2)}`;
  await db
    .insertInto('app_settings')
    .values({ key: STRUCTURES_REVISION, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute();
}

/** Finished loads whose alerts have not been checked yet, oldest first. */
export async function uncheckedLoads(db: Kysely<Database>): Promise<KbLoad[]> {
  const rows = await db
    .selectFrom('kb_loads')
    .selectAll()
    .where('alerts_checked_at', 'is', null)
    .where('finished_at', 'is not', null)
    .where('status', 'in', ['complete', 'partial'])
    .orderBy('load_id')
    .execute();
  return rows.map((r) => toKbLoad(r as unknown as LoadRow));
}

export async function markAlertsChecked(db: Kysely<Database>, loadId: number): Promise<void> {
  await db.updateTable('kb_loads').set({ alerts_checked_at: new Date() }).where('load_id', '=', loadId).execute();
}
