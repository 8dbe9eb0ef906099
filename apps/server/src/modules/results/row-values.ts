import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { NO_VALUE_ID } from '@kb/contracts/charts';
import type { Database } from '../../db/schema.ts';
import { readPacked } from '../../db/column-read.ts';
import type { KbDictionaries } from '../knowledge-base/kb-dictionaries.ts';
import { SOURCE_CODES } from '../knowledge-base/kb-dictionaries.ts';
import type { Sql } from './tab-model.ts';

/**
 * The chart values an activity of a search session takes from its assay, reference and target,
 * looked up in memory (knowledge-base/kb-dictionaries.ts) instead of joined in SQL: the batched
 * charts (charts/memory-batch.ts) count them and the Activities tab's filters test them
 * (memory-filters.ts). One value per activity per chart: these are exactly the charts whose value
 * comes from one record of the activity (chart-dimensions.ts levels reference, assay, target).
 */
export const ROW_VALUE_CHARTS = ['bibliographyrefid', 'bibliography', 'year', 'assaytype', 'target', 'organism'] as const;

export type RowValueChart = (typeof ROW_VALUE_CHARTS)[number];

export function isRowValueChart(chartKey: string): chartKey is RowValueChart {
  return (ROW_VALUE_CHARTS as readonly string[]).includes(chartKey);
}

/** The key of a row without a value (no real value is -Infinity: ids and codes are positive, years finite). */
export const NONE = Number.NEGATIVE_INFINITY;

/** Rows of `search_activities` as columns (ids; 0 for NULL). */
export interface SessionRows {
  count: number;
  act: Int32Array | null;
  assay: Int32Array;
  ref: Int32Array;
  target: Int32Array;
  str: Int32Array | null;
}

/** A row's value of each row-value chart, as a number key (NONE: no value). */
export function keyOf(d: KbDictionaries, chart: RowValueChart, rows: SessionRows, k: number): number {
  return keyOfLinks(d, chart, rows.assay[k]!, rows.ref[k]!, rows.target[k]!);
}

/** The key of the chart's value for an assay, reference and target (0: none): an activity's, or an assay's or reference's own. */
export function keyOfLinks(d: KbDictionaries, chart: RowValueChart, assay: number, ref: number, target: number): number {
  switch (chart) {
    case 'bibliographyrefid':
      return d.refSource[ref] ? ref : NONE;
    case 'bibliography':
      return d.refSource[ref] || NONE;
    case 'year': {
      const year = d.refSource[ref] ? d.refYear[ref]! : Number.NaN;
      return Number.isNaN(year) ? NONE : year;
    }
    case 'assaytype':
      return d.assayType[assay] || NONE;
    case 'target':
      return d.targetExists[target] ? target : NONE;
    case 'organism':
      return d.assayOrganism[assay] || NONE;
  }
}

/**
 * Each row's key of a chart whose keys are ids, codes or years, as `keyOfLinks` gives it with -1
 * for "no value", for the rows `order` lists (all rows in order when null); null for the year
 * when some reference's year is not a small whole number. Typed small integers in one tight loop per chart: counting 750,000
 * rows through `keyOf` (a float key, a switch per row) was most of a chart batch's time at L.
 */
export function denseKeys(d: KbDictionaries, chart: RowValueChart, rows: SessionRows, order: Int32Array | null = null): Int32Array | null {
  const n = order ? order.length : rows.count;
  const out = new Int32Array(n);
  const at = order ?? null;
  const { assay, ref, target } = rows;
  switch (chart) {
    case 'bibliographyrefid':
      for (let i = 0; i < n; i++) {
        const r = ref[at ? at[i]! : i]!;
        out[i] = d.refSource[r] ? r : -1;
      }
      return out;
    case 'bibliography':
      for (let i = 0; i < n; i++) out[i] = d.refSource[ref[at ? at[i]! : i]!] || -1;
      return out;
    case 'assaytype':
      for (let i = 0; i < n; i++) out[i] = d.assayType[assay[at ? at[i]! : i]!] || -1;
      return out;
    case 'target':
      for (let i = 0; i < n; i++) {
        const t = target[at ? at[i]! : i]!;
        out[i] = d.targetExists[t] ? t : -1;
      }
      return out;
    case 'organism':
      for (let i = 0; i < n; i++) out[i] = d.assayOrganism[assay[at ? at[i]! : i]!] || -1;
      return out;
    case 'year': {
      if (!yearsAreSmall(d)) return null;
      for (let i = 0; i < n; i++) {
        const r = ref[at ? at[i]! : i]!;
        const year = d.refSource[r] ? d.refYear[r]! : Number.NaN;
        out[i] = Number.isNaN(year) ? -1 : year;
      }
      return out;
    }
  }
}

/** One more than the highest key `denseKeys` can give for a chart (ids and codes of these dictionaries). */
export function denseKeyBound(d: KbDictionaries, chart: RowValueChart): number {
  switch (chart) {
    case 'bibliographyrefid':
    case 'bibliography':
      return Math.max(d.refSource.length, SOURCE_CODES.length + 1);
    case 'assaytype':
      return d.assayTypes.names.length;
    case 'organism':
      return d.organisms.names.length;
    case 'year':
      return MAX_DENSE_YEAR;
    case 'target':
      return d.targetExists.length;
  }
}

/** Years above this are not counted in an array indexed by year (`denseKeys`). */
const MAX_DENSE_YEAR = 4_000;

const yearsChecked = new WeakMap<KbDictionaries, boolean>();

/** Whether every reference's year is a whole number in [0, MAX_DENSE_YEAR) or none (checked once per dictionaries). */
function yearsAreSmall(d: KbDictionaries): boolean {
  let small = yearsChecked.get(d);
  if (small === undefined) {
    small = d.refYear.every((year) => Number.isNaN(year) || (Number.isInteger(year) && year >= 0 && year < MAX_DENSE_YEAR));
    yearsChecked.set(d, small);
  }
  return small;
}

/** The chart value a key stands for, typed as the SQL path answers it. */
export function valueOf(d: KbDictionaries, chart: RowValueChart, key: number): string | number | null {
  if (key === NONE) return null;
  switch (chart) {
    case 'bibliography':
      return SOURCE_CODES[key - 1]!;
    case 'assaytype':
      return d.assayTypes.names[key] ?? null;
    case 'organism':
      return d.organisms.names[key] ?? null;
    default:
      return key;
  }
}

/**
 * The key a filter value stands for (filters are checked against the chart's column first,
 * results/chart-bounds.ts); undefined when no row can hold it (a text value no assay has).
 */
export function keyOfValue(d: KbDictionaries, chart: RowValueChart, value: string | number): number | undefined {
  if (value === NO_VALUE_ID) return NONE;
  switch (chart) {
    case 'bibliography': {
      const index = (SOURCE_CODES as readonly string[]).indexOf(String(value));
      return index < 0 ? undefined : index + 1;
    }
    case 'assaytype':
      return d.assayTypes.find(String(value));
    case 'organism':
      return d.organisms.find(String(value));
    default:
      return Number(value);
  }
}

/**
 * The session's activity rows `where` keeps (`sa` = search_activities, `where` naming its set),
 * read packed in one query, with their activity and / or structure ids when asked. A dangling
 * assay, reference or target id (those columns have no foreign key) beyond 32 bits is read as the
 * largest int4, which no dictionary holds: no value, as the SQL join finds no record.
 *
 * Read through the set tables' index on set_id by this backend alone. A set is at most 750,000
 * rows of tables that hold every user's sets, written together on few pages the index finds. Left
 * to itself, on set tables that searches have used for a while, the planner picks plans priced for
 * the table's size: a whole-table scan (its statistics see a set as a share of the table's rows,
 * not as the pages it sits on), or a parallel scan whose workers hand every row to the leader
 * through a Gather — both measured slower than one backend following the index (docs/benchmarks.md
 * "Issue 18, ninth step"). The halves of a large read already run on two connections at once
 * (session-rows.ts).
 */
export async function readSessionRows(
  db: Kysely<Database>,
  where: Sql,
  ids: readonly ('str_id' | 'act_id')[] = [],
  /** The set table's stand-in (sets held in memory, set-source.ts), or the table. */
  activities: Sql = sql`search_activities sa`,
): Promise<SessionRows> {
  const int = (column: string) => ({ kind: 'int' as const, expr: sql`LEAST(${sql.ref(`sa.${column}`)}, 2147483647)` });
  const columns = [int('assay_id'), int('ref_id'), int('target_id'), ...ids.map(int)];
  const [assay, ref, target, ...extra] = (await withSettings(db, SET_READ_SETTINGS, (reader) =>
    readPacked(reader, sql`FROM ${activities} WHERE ${where}`, columns),
  )) as Int32Array[];
  const idColumn = (name: 'str_id' | 'act_id') => (ids.includes(name) ? extra[ids.indexOf(name)]! : null);
  return { count: assay!.length, assay: assay!, ref: ref!, target: target!, str: idColumn('str_id'), act: idColumn('act_id') };
}

/** A slice of a set by activity id: `(above, upTo]`, either end open. */
export interface ActRange {
  above?: number;
  upTo?: number;
}

/** Every row of set `setId`, or of `range` in it. */
export function readSetRows(
  db: Kysely<Database>,
  setId: number,
  ids: readonly ('str_id' | 'act_id')[],
  range: ActRange = {},
): Promise<SessionRows> {
  const where = [sql`sa.set_id = ${setId}::bigint`];
  if (range.above !== undefined) where.push(sql`sa.act_id > ${range.above}::bigint`);
  if (range.upTo !== undefined) where.push(sql`sa.act_id <= ${range.upTo}::bigint`);
  return readSessionRows(db, sql.join(where, sql` AND `), ids);
}

/** Planner settings for reading one set (readSessionRows). */
const SET_READ_SETTINGS = { enable_seqscan: 'off', max_parallel_workers_per_gather: '0' } as const;

/** Runs `read` under `settings`, in its own transaction or, inside the caller's, set and restored around it. */
async function withSettings<T>(
  db: Kysely<Database>,
  settings: Readonly<Record<string, string>>,
  read: (db: Kysely<Database>) => Promise<T>,
): Promise<T> {
  const names = Object.keys(settings);
  const apply = (reader: Kysely<Database>, values: readonly string[]) =>
    sql`SELECT ${sql.join(names.map((name, i) => sql`set_config(${name}, ${values[i]!}, true)`))}`.execute(reader);
  if (!db.isTransaction) {
    return db.transaction().execute(async (trx) => {
      await apply(trx, Object.values(settings));
      return read(trx);
    });
  }
  const { rows } = await sql<
    Record<string, string>
  >`SELECT ${sql.join(names.map((name, i) => sql`current_setting(${name}) AS ${sql.ref(`s${i}`)}`))}`.execute(db);
  const was = names.map((_, i) => rows[0]![`s${i}`]!);
  await apply(db, Object.values(settings));
  try {
    return await read(db);
  } finally {
    // After a failed read the transaction is aborted and this fails too: the read's error is the one to see.
    await apply(db, was).catch(() => undefined);
  }
}
