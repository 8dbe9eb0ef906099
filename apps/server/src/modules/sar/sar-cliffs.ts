import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { ActivityCliff, SarCliffsRequestSchema, SarCliffsResponse } from '@kb/contracts/sar-cliffs';
import type { Database } from '../../db/schema.ts';
import type { AuthContext } from '../../http/auth-hook.ts';
import type { ChemEngine } from '../chemistry/chem-engine.ts';
import { activityCliffs } from './analysis/activity-cliffs.ts';
import { morganFingerprints } from './sar-queries.ts';
import type { SarService } from './sar-service.ts';

/** Activity cliffs of the SAR view (docs/sar.md "Activity cliffs"): similar compounds far apart in activity, with their difference drawn. */

/** Cliffs drawn with their difference: the MCS of each pair is found for this many (docs/sar.md "Activity cliffs"). */
const CLIFF_MCS_COUNT = 50;
/** Each pair's MCS time limit (the engine clamps it to at least 1 s). */
const CLIFF_MCS_TIMEOUT_SECONDS = 1;
/** MCS calls under way at once, and the time after which no more are started (docs/sar.md "Activity cliffs"). */
const CLIFF_MCS_LANES = 2;
const CLIFF_MCS_BUDGET_MS = 500;

type CliffsRequest = z.infer<typeof SarCliffsRequestSchema>;

export class SarCliffs {
  constructor(
    private readonly sar: SarService,
    private readonly db: Kysely<Database>,
    private readonly engine: ChemEngine,
  ) {}

  /** Activity cliffs among the endpoint's compounds (Tanimoto on the stored Morgan fingerprints). */
  async cliffs(auth: AuthContext, request: CliffsRequest): Promise<SarCliffsResponse> {
    const { set } = await this.sar.sarSet(auth, request.sessionid);
    const data = await this.sar.endpointData(set, request.endpoint);
    const fps = await morganFingerprints(this.db, data.compounds.map((c) => c.facts.str_id));
    const members = data.compounds.filter((c) => fps.has(c.facts.str_id));
    const items = members.map((c) => ({ strId: c.facts.str_id, fp: fps.get(c.facts.str_id)!, value: c.value.activity.value }));
    const found = activityCliffs(items, { minSimilarity: request.minSimilarity, minDelta: request.minDelta, limit: request.limit });
    const member = (index: number) => ({ strId: members[index]!.facts.str_id, smiles: members[index]!.facts.smiles, activity: members[index]!.value.activity });
    const cliffs: Omit<ActivityCliff, 'common'>[] = found.cliffs.map((cliff) => {
      // The more active compound first.
      const [a, b] = members[cliff.a]!.value.activity.value >= members[cliff.b]!.value.activity.value ? [cliff.a, cliff.b] : [cliff.b, cliff.a];
      return { a: member(a), b: member(b), similarity: cliff.similarity, delta: cliff.delta, sali: cliff.sali };
    });
    const common = await this.cliffCommons(cliffs.slice(0, CLIFF_MCS_COUNT));
    return { compounds: items.length, compared: found.compared, total: found.total, cliffs: cliffs.map((cliff, index) => ({ ...cliff, common: common[index] ?? null })) };
  }

  /**
   * The MCS (SMARTS) of each pair, in rank order, so the web can colour what differs. A few at a
   * time (the engine spreads them over its workers), and none started after CLIFF_MCS_BUDGET_MS:
   * large compounds (PROTACs of 60+ atoms) run into RDKit's 1 s limit pair after pair, and 50 of
   * them would hold the workers for tens of seconds. A pair left out, whose MCS is not found in
   * time (a partial one would overstate the difference), or that RDKit fails on, gets null and is
   * drawn with the SAR table's core instead; the list is never refused for it.
   */
  private async cliffCommons(cliffs: readonly Omit<ActivityCliff, 'common'>[]): Promise<(string | null)[]> {
    const commons: (string | null)[] = cliffs.map(() => null);
    const deadline = Date.now() + CLIFF_MCS_BUDGET_MS;
    let next = 0;
    const lane = async () => {
      while (next < cliffs.length && Date.now() < deadline) {
        const index = next++;
        const cliff = cliffs[index]!;
        try {
          // Partial rings allowed: the difference is drawn atom by atom, and RDKit finds it in milliseconds instead of up to a second.
          const found = await this.engine.mcs([cliff.a.smiles, cliff.b.smiles], { timeoutSeconds: CLIFF_MCS_TIMEOUT_SECONDS, completeRings: false });
          commons[index] = found && !found.timedOut ? found.smarts : null;
        } catch {
          commons[index] = null;
        }
      }
    };
    await Promise.all(Array.from({ length: CLIFF_MCS_LANES }, lane));
    return commons;
  }
}
