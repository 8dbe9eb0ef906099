import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { ActivityCliff, SarCliffsRequestSchema, SarCliffsResponse } from '@kb/contracts/sar-cliffs';
import type { Database } from '../../db/schema.ts';
import type { AuthContext } from '../../http/auth-hook.ts';
import type { ChemEngine, PairDifference } from '../chemistry/chem-engine.ts';
import { activityCliffs } from './analysis/activity-cliffs.ts';
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
    const data = await this.sar.endpointData(set, request.endpoint);
    const fps = await morganFingerprints(
      this.db,
      data.compounds.map((c) => c.facts.str_id),
    );
    const members = data.compounds.filter((c) => fps.has(c.facts.str_id));
    const items = members.map((c) => ({ strId: c.facts.str_id, fp: fps.get(c.facts.str_id)!, value: c.value.activity.value }));
    const found = activityCliffs(items, { minSimilarity: request.minSimilarity, minDelta: request.minDelta, limit: request.limit });
    const member = (index: number) => ({
      strId: members[index]!.facts.str_id,
      smiles: members[index]!.facts.smiles,
      activity: members[index]!.value.activity,
    });
    const cliffs = found.cliffs.map((cliff) => {
      // The more active compound first.
      const [a, b] =
        members[cliff.a]!.value.activity.value >= members[cliff.b]!.value.activity.value ? [cliff.a, cliff.b] : [cliff.b, cliff.a];
      return { a: member(a), b: member(b), similarity: cliff.similarity, delta: cliff.delta, sali: cliff.sali };
    });
    return { compounds: items.length, compared: found.compared, total: found.total, cliffs };
  }
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
