import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { ActivityCliff, SarCliffsRequestSchema, SarCliffsResponse } from '@kb/contracts/sar-cliffs';
import type { Database } from '../../db/schema.ts';
import type { AuthContext } from '../../http/auth-hook.ts';
import type { ChemEngine, PairDifference } from '../chemistry/chem-engine.ts';
import { badRequest } from '../../http/errors.ts';
import { activityCliffs } from './analysis/activity-cliffs.ts';
import { noOverlapMessage } from './sar-overlap.ts';
import { morganFingerprints } from './sar-queries.ts';
import { coreInput } from './sar-service.ts';
import type { SarService } from './sar-service.ts';

/** Activity cliffs of the SAR view (docs/sar.md "Activity cliffs"): similar compounds far apart in activity, with their difference drawn. */

/** RDKit's time limit for one pair's MCS (whole seconds): past it, the largest common substructure found so far is used. */
const CLIFF_MCS_TIMEOUT_SECONDS = 1;
/**
 * Time for the MCS of one page's pairs (all workers); the pairs not reached get the fast fallbacks
 * (core, atom environments), so a page of 50 answers within ≈ this + one RDKit time limit. The FMCS
 * rounds on what each pair's MCS leaves (its other common parts) start only when they end by then too.
 */
const CLIFF_MCS_BUDGET_MS = 4_000;
/** Ranked lists kept in memory (the pages of one list are asked one after another). */
const LISTS_CACHED = 20;

type CliffsRequest = z.infer<typeof SarCliffsRequestSchema>;
type RankedCliff = Omit<ActivityCliff, 'common' | 'difference'>;
interface RankedList {
  compounds: number;
  compared: number;
  total: number;
  cliffs: RankedCliff[];
}

export class SarCliffs {
  private readonly lists = new Map<string, Promise<RankedList>>();

  constructor(
    private readonly sar: SarService,
    private readonly db: Kysely<Database>,
    private readonly engine: ChemEngine,
  ) {}

  /** One page of the activity cliffs among the endpoint's compounds, each pair with what differs. */
  async cliffs(auth: AuthContext, request: CliffsRequest): Promise<SarCliffsResponse> {
    const started = Date.now();
    const { set } = await this.sar.sarSet(auth, request.sessionid);
    const core = request.core ?? null;
    // A core over the structure limits, or one RDKit cannot read, is refused before any work, as the
    // SAR table refuses it (describe measures the limits before RDKit parses anything).
    if (core)
      await coreInput({ kind: 'smiles', text: core }, () => this.engine.describe({ kind: 'smiles', text: core, desalt: false }), {
        field: 'core',
      });
    const key = JSON.stringify([
      auth.userId,
      set.session_id,
      set.set_id,
      new Date(set.created_at).getTime(),
      request.endpoint,
      request.minus ?? null,
      request.minSimilarity,
      request.minDelta,
      request.limit,
    ]);
    let list = this.lists.get(key);
    if (!list) {
      list = this.rankedList(set, request);
      this.lists.set(key, list);
      list.catch(() => this.lists.delete(key));
      if (this.lists.size > LISTS_CACHED) this.lists.delete(this.lists.keys().next().value as string);
    }
    const ranked = await list;
    const page = ranked.cliffs.slice(request.offset, request.offset + request.pageSize);
    const differences = await this.engine.pairDifferences(
      page.map((cliff) => [cliff.a.smiles, cliff.b.smiles] as const),
      { core, timeoutSeconds: CLIFF_MCS_TIMEOUT_SECONDS, budgetMs: CLIFF_MCS_BUDGET_MS },
    );
    return {
      compounds: ranked.compounds,
      compared: ranked.compared,
      total: ranked.total,
      listed: ranked.cliffs.length,
      offset: request.offset,
      cliffs: page.map((cliff, index) => {
        const found = differences[index] ?? null;
        return { ...cliff, common: sharedSmarts(found), difference: found ? { kind: found.kind, a: found.a, b: found.b } : null };
      }),
      durationMs: Date.now() - started,
    };
  }

  /** The ranked list (Tanimoto on the stored Morgan fingerprints), without differences. */
  private async rankedList(set: Awaited<ReturnType<SarService['sarSet']>>['set'], request: CliffsRequest): Promise<RankedList> {
    const valued = await this.valuedCompounds(set, request);
    const fps = await morganFingerprints(
      this.db,
      valued.map((c) => c.strId),
    );
    const members = valued.filter((c) => fps.has(c.strId));
    const items = members.map((c) => ({ strId: c.strId, fp: fps.get(c.strId)!, value: c.activity.value }));
    const found = activityCliffs(items, { minSimilarity: request.minSimilarity, minDelta: request.minDelta, limit: request.limit });
    const cliffs = found.cliffs.map((cliff) => {
      // The more active compound first.
      const [a, b] = members[cliff.a]!.activity.value >= members[cliff.b]!.activity.value ? [cliff.a, cliff.b] : [cliff.b, cliff.a];
      return { a: members[a]!, b: members[b]!, similarity: cliff.similarity, delta: cliff.delta, sali: cliff.sali };
    });
    return { compounds: items.length, compared: found.compared, total: found.total, cliffs };
  }

  /**
   * The compounds compared and their values: the endpoint's medians, or with `minus` the difference
   * column endpoint − minus over the compounds measured on both (two pActivity endpoints; none
   * measured on both is a 400 in words, as the table refuses such a column).
   */
  private async valuedCompounds(
    set: Awaited<ReturnType<SarService['sarSet']>>['set'],
    request: CliffsRequest,
  ): Promise<RankedCliff['a'][]> {
    const data = await this.sar.endpointData(set, request.endpoint);
    const own = data.compounds.map((c) => ({ strId: c.facts.str_id, smiles: c.facts.smiles, activity: c.value.activity }));
    if (!request.minus) return own;
    if (endpointKey(request.minus) === endpointKey(request.endpoint))
      throw badRequest('A difference needs two different endpoints: choose another one to subtract.', { field: 'minus' });
    const minus = await this.sar.endpointValues(set, request.minus);
    for (const info of [data.info, minus.info]) {
      if (!info.molar)
        throw badRequest(
          `${info.activityType} on ${info.targetName} is not in molar units, so it has no pActivity to subtract. Cliffs on a difference need two pActivity endpoints.`,
          { field: 'minus' },
        );
    }
    const other = new Map(minus.values.map((v) => [v.strId, v.activity.value]));
    const both = own.flatMap((c) => {
      const b = other.get(c.strId);
      if (b === undefined) return [];
      // The difference of the two medians, without binary noise (as the table's column).
      const value = Math.round((c.activity.value - b) * 1e6) / 1e6;
      return [{ ...c, activity: { value, n: 1, min: value, max: value } }];
    });
    if (!both.length) throw badRequest(noOverlapMessage([data.info, minus.info], { a: 0, b: 1 }), { field: 'minus' });
    return both;
  }
}

function endpointKey(endpoint: CliffsRequest['endpoint']): string {
  return `${endpoint.scope ?? 'set'}:${endpoint.targetId}:${endpoint.activityType}`;
}

/**
 * One SMARTS both members contain, or null: none for the environment step (its part differs per
 * member); the connected common part when each member's was extended by what else they share
 * (then `a` and `b` differ); else the members' own when it is the same.
 */
function sharedSmarts(found: PairDifference | null): string | null {
  if (!found || found.kind === 'environment') return null;
  if (found.common !== undefined) return found.common;
  return found.a === found.b ? found.a : null;
}
