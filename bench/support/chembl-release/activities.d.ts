import type { ReleasePlan } from './release-plan.ts';
import type { Row, Subset } from './subset.ts';
import type { ReleaseWriter } from './writer.ts';
export interface ActivityCounts {
    activities: number;
    retired: number;
    ligandEff: number;
}
/** Writes every activity of every assay, segment by segment, in activity_id order. */
export declare function writeActivities(subset: Subset, plan: ReleasePlan, targets: Row[], writer: ReleaseWriter, log: (message: string) => void): ActivityCounts;
