import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { SarPairsRequestSchema, SarPairsResponse } from '@kb/contracts/sar-pairs';
import type { AuthContext } from '../../http/auth-hook.ts';
import type { Database } from '../../db/schema.ts';
import type { ChemEngine } from '../chemistry/chem-engine.ts';
import { cutsOf } from '../chemistry/cut-cache.ts';
import { matchedPairs } from './analysis/matched-pairs.ts';
import type { SarService } from './sar-service.ts';

/** Matched molecular pairs of the SAR view (docs/sar.md "Matched molecular pairs"): single-cut transformations and the change they bring. */

type PairsRequest = z.infer<typeof SarPairsRequestSchema>;

export class SarPairs {
  constructor(
    private readonly sar: SarService,
    private readonly engine: ChemEngine,
    /** Cuts are kept per structure across users, sessions and restarts (cut-cache.ts). */
    private readonly db: Kysely<Database>,
  ) {}

  /** Matched molecular pairs (single cuts) among the endpoint's compounds. */
  async pairs(auth: AuthContext, request: PairsRequest): Promise<SarPairsResponse> {
    const started = Date.now();
    const { set } = await this.sar.sarSet(auth, request.sessionid);
    const data = await this.sar.endpointData(set, request.endpoint);
    const cuts = await this.sar.jobs.run(auth.userId, request.sessionid, 'pairs', (job) =>
      cutsOf(
        this.db,
        this.engine,
        data.compounds.map((c) => ({ strId: c.facts.str_id, smiles: c.facts.smiles })),
        { signal: job.signal, onProgress: job.progress },
      ),
    );
    const items = data.compounds.map((c, index) => ({ strId: c.facts.str_id, value: c.value.activity.value, cuts: cuts[index] ?? [] }));
    const found = matchedPairs(items, {
      minPairs: request.minPairs,
      limit: request.limit,
      radius: request.radius,
      minMeanDelta: request.minMeanDelta,
      sign: request.sign,
    });
    const member = (index: number) => ({
      strId: data.compounds[index]!.facts.str_id,
      smiles: data.compounds[index]!.facts.smiles,
      activity: data.compounds[index]!.value.activity,
    });
    return {
      compounds: items.length,
      total: found.total,
      transformations: found.transformations.map((t) => ({
        from: t.from,
        to: t.to,
        environment: t.environment,
        pairs: t.pairs,
        meanDelta: t.meanDelta,
        sdDelta: t.sdDelta,
        medianDelta: t.medianDelta,
        minDelta: t.minDelta,
        maxDelta: t.maxDelta,
        deltas: t.deltas,
        examples: t.examples.map((example) => ({
          a: member(example.a),
          b: member(example.b),
          constant: example.constant,
          delta: example.delta,
        })),
      })),
      note: found.note,
      durationMs: Date.now() - started,
    };
  }
}
