import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { DEFAULT_SIMILARITY_MAX, DEFAULT_SIMILARITY_MIN } from '@kb/contracts/chemistry';
import type { PropertyRanges, StructureHit, StructurePreviewResponse } from '@kb/contracts/chemistry';
import type { StructureProperties, StructureQuery } from '@kb/contracts/search';
import { PROPERTY_FIELDS } from '@kb/contracts/search';
import type { PropertyColumn } from '@kb/contracts/search';
import type { Database } from '../../db/schema.ts';
import { badRequest } from '../../http/errors.ts';
import { propertyPredicate } from '../search/row-compiler.ts';
import { chemInputMessage, chemQueryOf } from '../search/structure-query.ts';
import { ChemInputError, ChemSearchCancelled } from './chem-engine.ts';
import type { ChemEngine, StructureHits } from './chem-engine.ts';

const INCHIKEY = /^[A-Z]{14}-[A-Z]{10}-[A-Z]$/;
const INCHIKEY_SKELETON = /^[A-Z]{14}$/;
const LOOKUP_LIMIT = 50;
const RANGES_TTL_MS = 10 * 60_000;

export interface PreviewInput {
  inputType: 'smiles' | 'smarts' | 'molfile';
  value: string;
  category: StructureQuery['category'];
  similarityMin?: number | null | undefined;
  similarityMax?: number | null | undefined;
  feature: StructureQuery['feature'];
  limit: number;
}

/**
 * The structure look-ups of the builder: a query's first hits (preview), InChIKey look-up,
 * property-range counts and the knowledge base's property ranges.
 */
export class StructureLookups {
  private ranges: { at: number; value: PropertyRanges } | null = null;

  constructor(
    private readonly engine: ChemEngine,
    private readonly db: Kysely<Database>,
    private readonly timeLimitMs: number,
  ) {}

  async preview(input: PreviewInput, signal: AbortSignal): Promise<StructurePreviewResponse> {
    const started = performance.now();
    const query = { ...input, readOnly: false } as StructureQuery;
    const chem = chemQueryOf(query);
    const bounded = AbortSignal.any([signal, AbortSignal.timeout(this.timeLimitMs)]);
    try {
      const described = await this.engine.describe(chem);
      let hits: StructureHits;
      if (input.category === 'exact') {
        if (chem.kind === 'smarts') throw badRequest('A SMARTS describes a pattern, not one molecule: search it as a substructure, or enter SMILES for an exact search.');
        const rows = await this.db.selectFrom('structures').select('str_id').where(sql<boolean>`md5(canonical_smiles) = md5(${described.smiles ?? ''})`).execute();
        const ids = Float64Array.from(rows, (r) => Number(r.str_id));
        hits = { ids, complete: true, total: ids.length, searched: this.engine.status().loaded };
      } else if (input.category === 'similarity') {
        const range = { min: input.similarityMin ?? DEFAULT_SIMILARITY_MIN, max: input.similarityMax ?? DEFAULT_SIMILARITY_MAX };
        hits = await this.engine.similarity(chem, range, { limit: input.limit, signal: bounded });
      } else {
        hits = await this.engine.substructure(chem, { limit: input.limit, signal: bounded });
      }
      return {
        query: { smiles: described.smiles ?? null, smarts: described.smarts ?? null },
        hits: await this.describeHits(Array.from(hits.ids.subarray(0, input.limit)), hits.similarities),
        complete: hits.complete,
        total: hits.total,
        searched: hits.searched,
        indexSize: this.engine.status().loaded,
        elapsedMs: Math.round(performance.now() - started),
      };
    } catch (error) {
      if (error instanceof ChemInputError) throw badRequest(chemInputMessage(query, error.message));
      if (error instanceof ChemSearchCancelled || (error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError'))) {
        throw badRequest('The preview was stopped: the query is too generic to preview in time. Add atoms or ring detail.');
      }
      throw error;
    }
  }

  async byInchikey(raw: string): Promise<{ match: 'exact' | 'skeleton' | 'none'; structures: StructureHit[] }> {
    const key = raw.trim().toUpperCase();
    if (!INCHIKEY.test(key) && !INCHIKEY_SKELETON.test(key)) {
      throw badRequest(`"${raw.trim().slice(0, 40)}" is not an InChIKey: expected 14 letters, a dash, 10 letters, a dash and one letter (or just the first 14 letters).`);
    }
    if (INCHIKEY.test(key)) {
      const exact = await this.db.selectFrom('structures').select('str_id').where('inchikey', '=', key).orderBy('str_id').limit(LOOKUP_LIMIT).execute();
      if (exact.length) return { match: 'exact', structures: await this.describeHits(exact.map((r) => Number(r.str_id))) };
    }
    const skeleton = await this.db
      .selectFrom('structures')
      .select('str_id')
      .where('inchikey', 'like', `${key.slice(0, 14)}-%`)
      .orderBy('str_id')
      .limit(LOOKUP_LIMIT)
      .execute();
    if (!skeleton.length) return { match: 'none', structures: [] };
    return { match: 'skeleton', structures: await this.describeHits(skeleton.map((r) => Number(r.str_id))) };
  }

  async countByProperties(properties: StructureProperties): Promise<{ count: number; total: number }> {
    const predicate = propertyPredicate(properties);
    const { rows } = await sql<{ count: number; total: number }>`SELECT
        (SELECT count(*)::int FROM structures s ${predicate ? sql`WHERE ${predicate}` : sql``}) AS count,
        (SELECT count(*)::int FROM structures) AS total`.execute(this.db);
    return rows[0] ?? { count: 0, total: 0 };
  }

  /** Smallest and largest value of each property; cached (a full scan at 2.5 M structures). */
  async propertyRanges(): Promise<PropertyRanges> {
    if (this.ranges && Date.now() - this.ranges.at < RANGES_TTL_MS) return this.ranges.value;
    const columns = Object.keys(PROPERTY_FIELDS) as PropertyColumn[];
    // Column names come from the contract's fixed list, never from a request.
    const selects = columns.map(
      (c) => sql`min(${sql.ref(c)})::float8 AS ${sql.ref(`${c}_min`)}, max(${sql.ref(c)})::float8 AS ${sql.ref(`${c}_max`)}, count(${sql.ref(c)})::int AS ${sql.ref(`${c}_n`)}`,
    );
    const { rows } = await sql<Record<string, number | null>>`SELECT ${sql.join(selects)} FROM structures`.execute(this.db);
    const row = rows[0] ?? {};
    const value: PropertyRanges = {
      properties: columns.map((column) => ({
        column,
        min: row[`${column}_min`] ?? null,
        max: row[`${column}_max`] ?? null,
        known: Number(row[`${column}_n`] ?? 0),
      })),
    };
    this.ranges = { at: Date.now(), value };
    return value;
  }

  invalidate(): void {
    this.ranges = null;
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
