// Rankings and recall figures of the target-prediction benchmark (bench/prediction.ts).
import { mulberry32 } from '../../apps/server/src/modules/knowledge-base/demo/mulberry32.mjs';

/** A ranked target: `t<index>` for a target of the knowledge base, `c<ChEMBL id>` for a model target it does not hold. */
export type TargetKey = string;
export const keyOf = (target: number | null, chemblId: string | null): TargetKey => (target !== null ? `t${target}` : `c${chemblId}`);

export const KS = [1, 5, 10] as const;

/** Recall@k over (compound, true target) pairs and the hit rate over compounds, with coverage. */
export class RecallTally {
  pairs = 0;
  compounds = 0;
  covered = 0;
  readonly pairHits = KS.map(() => 0);
  readonly compoundHits = KS.map(() => 0);
  private reciprocal = 0;

  /** One compound: its ranked list (empty = no prediction) and its true targets (skipped when none). */
  add(ranked: readonly TargetKey[], truth: readonly TargetKey[]): void {
    if (truth.length === 0) return;
    this.compounds += 1;
    if (ranked.length > 0) this.covered += 1;
    const position = new Map<TargetKey, number>();
    ranked.forEach((key, index) => position.has(key) || position.set(key, index + 1));
    let best = Infinity;
    for (const key of truth) {
      const rank = position.get(key) ?? Infinity;
      best = Math.min(best, rank);
      this.pairs += 1;
      KS.forEach((k, i) => rank <= k && (this.pairHits[i]! += 1));
      this.reciprocal += Number.isFinite(rank) ? 1 / rank : 0;
    }
    KS.forEach((k, i) => best <= k && (this.compoundHits[i]! += 1));
  }

  figures() {
    const share = (n: number, of: number) => (of > 0 ? Number((n / of).toFixed(3)) : null);
    return {
      compounds: this.compounds,
      pairs: this.pairs,
      recallAt1: share(this.pairHits[0]!, this.pairs),
      recallAt5: share(this.pairHits[1]!, this.pairs),
      recallAt10: share(this.pairHits[2]!, this.pairs),
      hitAt1: share(this.compoundHits[0]!, this.compounds),
      hitAt5: share(this.compoundHits[1]!, this.compounds),
      hitAt10: share(this.compoundHits[2]!, this.compounds),
      meanReciprocalRank: share(this.reciprocal, this.pairs),
      coverage: share(this.covered, this.compounds),
    };
  }
}

/** Deterministic 32-bit generator (mulberry32). */
export const seededRandom = mulberry32;

export function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
