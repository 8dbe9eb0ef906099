import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { AppliedFilter } from '@kb/contracts/search';
import { AppliedFilterSchema, SearchCriteriaSchema, SixCountsSchema } from '@kb/contracts/search';
import { RESULT_TAB_KEYS } from '@kb/contracts/result-tabs';
import type { HistoryEntry } from '@kb/contracts/workspace';
import { HISTORY_LIMIT } from '@kb/contracts/workspace';
import type { Database } from '../../db/schema.ts';
import type { AuthContext } from '../../http/auth-hook.ts';

const parseJson = (value: unknown): unknown => {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return null;
  }
};

/**
 * The chart filters a session keeps per tab (`search_sessions.filters`, migration 0008: `{ tab:
 * AppliedFilter[], _rows: {...} }`, as results/result-sessions.ts writes them), as one list with
 * each filter's tab. What does not read as a filter is left out.
 */
function flatFilters(stored: unknown): AppliedFilter[] {
  const byTab = parseJson(stored);
  if (!byTab || typeof byTab !== 'object' || Array.isArray(byTab)) return [];
  return RESULT_TAB_KEYS.flatMap((tab) => {
    const list = (byTab as Record<string, unknown>)[tab];
    if (!Array.isArray(list)) return [];
    return list.flatMap((item) => {
      const parsed = AppliedFilterSchema.safeParse(item);
      return parsed.success ? [{ ...parsed.data, tab }] : [];
    });
  });
}

/**
 * The caller's last HISTORY_LIMIT searches (docs/workspace.md "History"): the search sessions that
 * ran (counts stored), newest first, with their criteria and applied filters. A row whose stored
 * JSON no longer reads (an older form) answers null criteria or counts rather than failing the list.
 */
export class WorkspaceHistory {
  constructor(private readonly db: Kysely<Database>) {}

  async list(auth: AuthContext): Promise<{ rows: HistoryEntry[] }> {
    const { rows } = await sql<{
      id: string;
      kind: string;
      summary: string | null;
      created_at: Date | string;
      counts: unknown;
      criteria: unknown;
      filters: unknown;
    }>`SELECT id, kind, summary, created_at, counts, criteria, filters FROM search_sessions
      WHERE user_id = ${auth.userId} AND kind IN ('search', 'selection') AND counts IS NOT NULL
      ORDER BY created_at DESC, id LIMIT ${HISTORY_LIMIT}`.execute(this.db);
    return {
      rows: rows.map((row) => ({
        sessionid: row.id,
        kind: row.kind === 'selection' ? 'selection' : 'search',
        summary: row.summary,
        createdAt: (row.created_at instanceof Date ? row.created_at : new Date(row.created_at)).toISOString(),
        counts: SixCountsSchema.nullable()
          .catch(null)
          .parse(parseJson(row.counts) ?? null),
        criteria: SearchCriteriaSchema.nullable()
          .catch(null)
          .parse(parseJson(row.criteria) ?? null),
        filters: flatFilters(row.filters),
      })),
    };
  }
}
