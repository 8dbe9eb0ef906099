import type { Entity } from './proportions.ts';
import type { ReleasePlan } from './release-plan.ts';
import type { Row, Subset } from './subset.ts';
import type { ReleaseWriter } from './writer.ts';
/**
 * Documents, targets and assays of a generated release. Targets are the subset's real targets (and
 * their components); documents and assays are new rows, each a copy of a real template row with
 * new keys and ChEMBL ids. Identifiers that name a real paper or deposition (PubMed id, DOI, patent
 * number, PubChem assay id) are not copied: a generated row must not point at a real record.
 */
/** The real targets of the release: those with activities in the subset come first. */
export declare function selectedTargets(subset: Subset, count: number): Row[];
/** target_components and component_sequences of the selected targets, copied as they are. */
export declare function targetComponents(subset: Subset, targets: Row[]): {
    components: Row[];
    sequences: Row[];
};
export declare function docRow(subset: Subset, index: number): Row;
/**
 * Index of `index`'s counterpart in another entity, segment by segment: rows added by release N
 * point at rows added by release N (new assays report new documents), spread evenly in blocks.
 * A segment of the other entity that is empty (a tiny file) falls back to all its rows.
 */
export declare function blockTarget(plan: ReleasePlan, from: Entity, to: Entity, index: number): number;
/**
 * A skewed pick of the assay's target (u^2: the first targets, those with real activities, get more
 * assays than the rest, as a few targets hold many of ChEMBL's; the first of 15,000 gets ~0.8 %). The template is a real assay of that target when
 * the subset has one (its description, type and format then fit), else any real assay.
 */
export declare function assayRow(subset: Subset, plan: ReleasePlan, targets: Row[], index: number): Row;
/**
 * Everything but molecules and activities: the subset's vocabularies as they are, the selected real
 * targets with their components, then the documents and (live) assays. Answers the targets (the
 * activities' assays are built again from them) and how many assays this release retired.
 */
export declare function writeEntities(subset: Subset, plan: ReleasePlan, writer: ReleaseWriter): {
    targets: Row[];
    retiredAssays: number;
};
