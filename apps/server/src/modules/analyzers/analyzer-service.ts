import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type {
  EndpointOptionsRequestSchema,
  EndpointOptionsResponseSchema,
  StoreAnalysisRequestSchema,
  StoredAnalysis,
  VisualizationRequest,
  VisualizationResponse,
} from '@kb/contracts/analyzers';
import { StoredAnalysisConfigSchema } from '@kb/contracts/analyzers';
import type { Database } from '../../db/schema.ts';
import type { AuthContext } from '../../http/auth-hook.ts';
import { badRequest, forbidden, notFound } from '../../http/errors.ts';
import type { ChemEngine } from '../chemistry/chem-engine.ts';
import { scaffoldsOf } from '../chemistry/scaffold-cache.ts';
import type { ResultsService } from '../results/results-service.ts';
import { sessionFilters } from '../results/result-sessions.ts';
import { distribution, endpointOptions, heatmap, scaffolds, scatter, treemap } from './analyzer-charts.ts';
import type { TabScope } from './analyzer-scope.ts';

/** The most analyses one user keeps (the list answers them all; nothing grows without bound). */
export const SAVED_ANALYSES_MAX = 200;

/**
 * The analyzers (docs/sar.md "Analyzers"): one chart over the rows of the caller's own search
 * session's tab (another user's session answers 403 through the results module), and the caller's
 * saved analyses.
 */
export class AnalyzerService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly results: ResultsService,
    private readonly engine: ChemEngine,
  ) {}

  /** The ready session's tab (403 / 404 / 409 / 410 as every results call), its filters materialised. */
  private async scope(auth: AuthContext, sessionid: string, tab: TabScope['tab']): Promise<TabScope> {
    const { session, sets } = await this.results.sessionAndSets(auth, sessionid);
    return { tab, setId: Number(session.set_id), sets, filtered: sessionFilters(session)[tab].length > 0 };
  }

  async visualization(auth: AuthContext, request: VisualizationRequest): Promise<VisualizationResponse> {
    const scope = await this.scope(auth, request.sessionid, request.tab);
    const config = request.config;
    // RDKit runs outside the transaction: it holds no connection while scaffolds are computed.
    if (config.chart === 'scaffolds') return scaffolds(this.db, scope, config.limit, (strIds) => scaffoldsOf(this.db, this.engine, strIds));
    return this.results.withWorkMem(async (trx) => {
      switch (config.chart) {
        case 'scatter':
          return scatter(trx, scope, config);
        case 'distribution':
          return distribution(trx, scope, config);
        case 'heatmap':
          return heatmap(trx, scope, config);
        case 'treemap':
          return treemap(trx, scope);
      }
    });
  }

  /** The endpoints a Structures-tab scatter can plot as pActivity (the tab's, most structures first). */
  async endpoints(
    auth: AuthContext,
    request: z.infer<typeof EndpointOptionsRequestSchema>,
  ): Promise<z.infer<typeof EndpointOptionsResponseSchema>> {
    const scope = await this.scope(auth, request.sessionid, request.tab);
    return this.results.withWorkMem((trx) => endpointOptions(trx, scope));
  }

  /**
   * Saves under a name; the caller's analysis of the same name is replaced (same id, now's date) in
   * one statement, so two saves under one name at once both succeed (the last one wins). A user
   * keeps at most SAVED_ANALYSES_MAX analyses: a new name beyond that is refused (400).
   */
  async store(auth: AuthContext, request: z.infer<typeof StoreAnalysisRequestSchema>): Promise<StoredAnalysis> {
    // Only a search the caller may read can be saved (and its summary is the one kept).
    const session = await this.results.session(auth, request.sessionid, 'definition');
    const { rows: counted } = await sql<{ n: number | string }>`SELECT count(*) AS n FROM saved_analyses
      WHERE user_id = ${auth.userId} AND name <> ${request.name}`.execute(this.db);
    if (Number(counted[0]?.n ?? 0) >= SAVED_ANALYSES_MAX) {
      throw badRequest(
        `You already keep ${SAVED_ANALYSES_MAX.toLocaleString('en-US')} saved analyses, the most one user may keep: save this one under the name of one you no longer need, which replaces it.`,
        { limit: SAVED_ANALYSES_MAX },
      );
    }
    const { rows } = await sql<AnalysisRow>`INSERT INTO saved_analyses (user_id, name, session_id, summary, config)
      VALUES (${auth.userId}, ${request.name}, ${session.id}, ${session.summary}, ${JSON.stringify(request.config)}::jsonb)
      ON CONFLICT (user_id, name) DO UPDATE SET session_id = EXCLUDED.session_id, summary = EXCLUDED.summary, config = EXCLUDED.config, created_at = now()
      RETURNING ${COLUMNS}`.execute(this.db);
    return toAnalysis(rows[0]!);
  }

  /** The caller's analyses, newest first; with an id, that one (another user's: 403, none: 404). */
  async fetch(auth: AuthContext, id: number | undefined): Promise<{ analyses: StoredAnalysis[] }> {
    if (id == null) {
      const { rows } = await sql<AnalysisRow>`SELECT ${COLUMNS} FROM saved_analyses WHERE user_id = ${auth.userId}
        ORDER BY created_at DESC, analysis_id DESC LIMIT 500`.execute(this.db);
      return { analyses: rows.map(toAnalysis) };
    }
    const { rows } = await sql<AnalysisRow>`SELECT ${COLUMNS} FROM saved_analyses WHERE analysis_id = ${id}`.execute(this.db);
    const row = rows[0];
    if (!row) throw notFound('There is no saved analysis with this id.');
    if (row.user_id !== auth.userId) throw forbidden('This analysis belongs to another user.');
    return { analyses: [toAnalysis(row)] };
  }
}

interface AnalysisRow {
  analysis_id: number;
  user_id: number;
  name: string;
  session_id: string;
  summary: string | null;
  config: unknown;
  created_at: Date | string;
}
const COLUMNS = sql`analysis_id, user_id, name, session_id, summary, config, created_at`;

function toAnalysis(row: AnalysisRow): StoredAnalysis {
  const config = typeof row.config === 'string' ? JSON.parse(row.config) : row.config;
  return {
    id: Number(row.analysis_id),
    name: row.name,
    sessionid: row.session_id,
    summary: row.summary,
    config: StoredAnalysisConfigSchema.parse(config),
    createdAt: new Date(row.created_at).toISOString(),
  };
}
