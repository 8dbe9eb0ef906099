import { sql } from 'kysely';
import type { Kysely, RawBuilder } from 'kysely';
import { INCHIKEY_PATTERN } from '@kb/contracts/chemistry';
import type { PropertyRanges, StructureHit, StructurePreviewRequest, StructurePreviewResponse } from '@kb/contracts/chemistry';
import type { StructureProperties } from '@kb/contracts/search';
import { PROPERTY_FIELDS } from '@kb/contracts/search';
import type { PropertyColumn } from '@kb/contracts/search';
import type { Database } from '../../db/schema.ts';
import type { ChemEngine, DescribedQuery, StructureHits } from './chem-engine.ts';
import { propertyPredicate } from './property-predicate.ts';
import { askEngine, parseEngineAsk } from './chem-query.ts';

const LOOKUP_LIMIT = 50;
const RANGES_TTL_MS = 10 * 60_000;
/** A preview answers while the chemist types: it never runs as long as a search may. */
const PREVIEW_TIME_LIMIT_MS = 20_000;

/**
 * The structure look-ups of the builder: a query's first hits (preview), InChIKey look-up,
 * property-range counts and the knowledge base's property ranges.
 */
export class StructureLookups {
  private ranges: { at: number; indexed: number; value: PropertyRanges } | null = null;

  constructor(
    private readonly engine: ChemEngine,
    private readonly db: Kysely<Database>,
    timeLimitMs: number,
  ) {
    this.previewLimitMs = Math.min(timeLimitMs, PREVIEW_TIME_LIMIT_MS);
  }

  private readonly previewLimitMs: number;

  async preview(input: StructurePreviewRequest, signal: AbortSignal): Promise<StructurePreviewResponse> {
    const started = performance.now();
    const answer = await askEngine(this.engine, parseEngineAsk(input), {
      signal,
      timeLimitMs: this.previewLimitMs,
      limit: input.limit,
      stoppedMessage: (limitMs) =>
        `The preview stopped after ${limitMs / 1000} s: the query is too generic to preview. The search itself runs longer; add atoms or ring detail to make it faster.`,
    });
    const hits: StructureHits = 'hits' in answer ? answer.hits : await this.exactHits(answer.exact, answer.described);
    const described = hits.query ?? { atoms: 0 };
    return {
      query: { smiles: described.smiles ?? null, smarts: described.smarts ?? null },
      hits: await this.describeHits(Array.from(hits.ids.subarray(0, input.limit)), hits.similarities),
      complete: hits.complete,
      total: hits.total,
      searched: hits.searched,
      indexSize: input.category === 'exact' ? hits.searched : this.engine.status().loaded,
      elapsedMs: Math.round(performance.now() - started),
    };
  }

  /** An exact query's structures (by canonical SMILES, md5-indexed), as hits over every structure. */
  private async exactHits(found: RawBuilder<unknown>, described: DescribedQuery): Promise<StructureHits> {
    const { rows } = await sql<{ str_id: number }>`${found}`.execute(this.db);
    const ids = Float64Array.from(rows, (r) => Number(r.str_id));
    return { ids, complete: true, total: ids.length, searched: await this.structureCount(), query: described };
  }

  /** `key` is upper case, a whole key or its first block (checked by the contract). */
  async byInchikey(key: string): Promise<{ match: 'exact' | 'skeleton' | 'none'; structures: StructureHit[]; more: boolean }> {
    if (INCHIKEY_PATTERN.test(key)) {
      const exact = await this.db
        .selectFrom('structures')
        .select('str_id')
        .where('inchikey', '=', key)
        .orderBy('str_id')
        .limit(LOOKUP_LIMIT + 1)
        .execute();
      if (exact.length) return { match: 'exact', ...(await this.listed(exact)) };
    }
    // The first block is indexed (left(inchikey, 14), migration 0004).
    const skeleton = await this.db
      .selectFrom('structures')
      .select('str_id')
      .where(sql<string>`left(inchikey, 14)`, '=', key.slice(0, 14))
      .orderBy('str_id')
      .limit(LOOKUP_LIMIT + 1)
      .execute();
    if (!skeleton.length) return { match: 'none', structures: [], more: false };
    return { match: 'skeleton', ...(await this.listed(skeleton)) };
  }

  private async listed(rows: { str_id: number }[]): Promise<{ structures: StructureHit[]; more: boolean }> {
    const ids = rows.slice(0, LOOKUP_LIMIT).map((r) => Number(r.str_id));
    return { structures: await this.describeHits(ids), more: rows.length > LOOKUP_LIMIT };
  }

  async countByProperties(properties: StructureProperties): Promise<{ count: number; total: number }> {
    const predicate = propertyPredicate(properties);
    const { rows } = await sql<{
      count: number;
    }>`SELECT count(*)::int AS count FROM structures s ${predicate ? sql`WHERE ${predicate}` : sql``}`.execute(this.db);
    return { count: rows[0]?.count ?? 0, total: await this.structureCount() };
  }

  private async structureCount(): Promise<number> {
    const ranges = await this.propertyRanges();
    return ranges.structures;
  }

  /** Smallest and largest value of each property, and the number of structures; cached (a full scan at 2.5 M structures). */
  async propertyRanges(): Promise<PropertyRanges> {
    // Recomputed when the structure index grew or shrank (a seed or an import) or after 10 minutes.
    const indexed = this.engine.status().loaded;
    if (this.ranges && this.ranges.indexed === indexed && Date.now() - this.ranges.at < RANGES_TTL_MS) return this.ranges.value;
    const columns = Object.keys(PROPERTY_FIELDS) as PropertyColumn[];
    // Column names come from the contract's fixed list, never from a request.
    const selects = columns.map(
      (c) =>
        sql`min(${sql.ref(c)})::float8 AS ${sql.ref(`${c}_min`)}, max(${sql.ref(c)})::float8 AS ${sql.ref(`${c}_max`)}, count(${sql.ref(c)})::int AS ${sql.ref(`${c}_n`)}`,
    );
    const { rows } = await sql<
      Record<string, number | null>
    >`SELECT count(*)::int AS structures, ${sql.join(selects)} FROM structures`.execute(this.db);
    const row = rows[0] ?? {};
    const value: PropertyRanges = {
      structures: Number(row.structures ?? 0),
      properties: columns.map((column) => ({
        column,
        min: row[`${column}_min`] ?? null,
        max: row[`${column}_max`] ?? null,
        known: Number(row[`${column}_n`] ?? 0),
      })),
    };
    this.ranges = { at: Date.now(), indexed, value };
    return value;
  }

  /** SMILES and preferred name of each id, in the order given. */
  private async describeHits(ids: number[], similarities?: Float64Array): Promise<StructureHit[]> {
    if (!ids.length) return [];
    const { rows } = await sql<{ str_id: number; smiles: string; name: string | null }>`SELECT s.str_id, s.canonical_smiles AS smiles,
        (SELECT c.name FROM compounds c WHERE c.str_id = s.str_id AND c.name IS NOT NULL ORDER BY c.gvk_id LIMIT 1) AS name
      FROM structures s WHERE s.str_id = ANY(${ids}::bigint[])`.execute(this.db);
    const byId = new Map(rows.map((r) => [Number(r.str_id), r]));
    return ids.flatMap((id, i) => {
      const row = byId.get(id);
      return row ? [{ strId: id, smiles: row.smiles, name: row.name, similarity: similarities ? (similarities[i] ?? null) : null }] : [];
    });
  }
}
