import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { DefaultCounts } from '@kb/contracts/search';
import type { Database } from '../../db/schema.ts';
import { loadsVersion } from '../knowledge-base/kb-loads.ts';

const DEFAULT_COUNTS_TTL_MS = 5 * 60_000;

/**
 * Counts of the whole knowledge base (the search page before any search), cached briefly: a full
 * count of 26 M activities is not free. A load that ended — here, on another server or from the
 * command line — makes the cache stale at once (its kb_loads version moved).
 */
export class KbCountsCache {
  private cached: { at: number; version: string; value: DefaultCounts } | null = null;

  constructor(private readonly db: Kysely<Database>) {}

  async get(): Promise<DefaultCounts> {
    const version = await loadsVersion(this.db);
    const cached = this.cached;
    if (cached && cached.version === version && Date.now() - cached.at < DEFAULT_COUNTS_TTL_MS) return cached.value;
    const { rows } = await sql<DefaultCounts>`SELECT
        (SELECT count(*)::int FROM documents) AS "refIdsCount",
        (SELECT count(*)::int FROM structures) AS "strIdsCount",
        (SELECT count(*)::int FROM compounds) AS "gvkIdsCount",
        (SELECT count(*)::int FROM activities) AS "actIdsCount",
        (SELECT count(*)::int FROM assays) AS "assayIdsCount",
        (SELECT count(*)::int FROM clinical_compounds) AS "clinicalCompoundIdsCount",
        (SELECT count(*)::int FROM clinical_compounds cc JOIN clinical_phases p ON p.phase_id = cc.highest_phase_id
          WHERE p.name = 'Launched') AS "drugIdsCount"`.execute(this.db);
    const value = rows[0]!;
    this.cached = { at: Date.now(), version, value };
    return value;
  }

  invalidate(): void {
    this.cached = null;
  }
}
