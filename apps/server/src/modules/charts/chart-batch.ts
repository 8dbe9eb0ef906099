import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { levelJoin } from '../results/tab-model.ts';
import { tabSet } from '../results/set-source.ts';
import type { SetSource } from '../results/set-source.ts';
import type { Sql } from '../results/tab-model.ts';
import { DIMENSIONS } from '../results/chart-dimensions.ts';
import type { RangeAnswer } from './range-bins.ts';
import { ROW_VALUE_CHARTS } from '../results/row-values.ts';
import type { RowValueChart } from '../results/row-values.ts';

/**
 * The Activities tab's charts whose value comes from the activity's reference, assay or target —
 * one value per row, among them the four default charts — computed together in one scan of the set
 * (GROUPING SETS) and kept for a short while, so the chart panel's concurrent requests share it
 * (at L: one scan of 730,000 rows instead of one per chart).
 */

export interface Group {
  v: string | number | null;
  n: number;
}

export interface ChartBatch {
  /** Rows of the tab counted. */
  rows: number;
  /** List charts (and the Activities tab's Range charts, one value per row): a group per value, v null for "Not specified". */
  groups: Map<RowValueChart, Group[]>;
  /** Range charts whose rows can have several values (Structures tab), binned already. */
  ranges?: Map<RowValueChart, RangeAnswer>;
}

const TTL_MS = 30_000;
const MAX_ENTRIES = 20;

export async function sqlBatch(db: Kysely<Database>, sets: SetSource, where: Sql): Promise<ChartBatch> {
  const values = ROW_VALUE_CHARTS.map((key) => DIMENSIONS[key]!.value);
  const columns = values.map((value, i) => sql`${value} AS ${sql.ref(`c${i}`)}`);
  const { rows } = await sql<
    Record<string, string | number | null> & { g: number; n: number }
  >`SELECT GROUPING(${sql.join(values)}) AS g, ${sql.join(columns)}, count(*)::int AS n
    FROM ${tabSet('activitiestab', sets)} ${levelJoin('reference', sets)} ${levelJoin('assay', sets)} ${levelJoin('target', sets)}
    WHERE ${where}
    GROUP BY GROUPING SETS (${sql.join(values.map((value) => sql`(${value})`))}, ())`.execute(db);
  // GROUPING() sets a bit (first argument = highest bit) for every expression not grouped by.
  const width = values.length;
  const all = (1 << width) - 1;
  const groups = new Map<RowValueChart, Group[]>(ROW_VALUE_CHARTS.map((key) => [key, []]));
  let total = 0;
  for (const row of rows) {
    const mask = Number(row.g);
    if (mask === all) {
      total = row.n;
      continue;
    }
    const index = width - 1 - Math.log2(all ^ mask);
    groups.get(ROW_VALUE_CHARTS[index]!)!.push({ v: row[`c${index}`] ?? null, n: row.n });
  }
  return { rows: total, groups };
}

/**
 * Batches per session, search and filters, shared by the chart panel's concurrent requests for a
 * short while; a failed computation is not kept.
 */
export class ChartBatches<T> {
  private readonly entries = new Map<string, { at: number; value: Promise<T> }>();

  get(key: string, compute: () => Promise<T>): Promise<T> {
    const now = Date.now();
    for (const [k, entry] of this.entries) if (now - entry.at > TTL_MS) this.entries.delete(k);
    const cached = this.entries.get(key);
    if (cached) return cached.value;
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    const value = compute();
    this.entries.set(key, { at: now, value });
    value.catch(() => this.entries.delete(key));
    return value;
  }
}
