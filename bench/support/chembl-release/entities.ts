import { chemblId, key } from './keys.ts';
import type { Entity } from './proportions.ts';
import { pick, STREAM, unit } from './random.ts';
import type { ReleasePlan } from './release-plan.ts';
import type { GeneratedTable, Row, Subset } from './subset.ts';
import type { ReleaseWriter } from './writer.ts';

/**
 * Documents, targets and assays of a generated release. Targets are the subset's real targets (and
 * their components); documents and assays are new rows, each a copy of a real template row with
 * new keys and ChEMBL ids. Identifiers that name a real paper or deposition (PubMed id, DOI, patent
 * number, PubChem assay id) are not copied: a generated row must not point at a real record.
 */

/** The real targets of the release: those with activities in the subset come first. */
export function selectedTargets(subset: Subset, count: number): Row[] {
  if (count > subset.targets.length) throw new Error(`the subset has ${subset.targets.length} targets, ${count} asked for`);
  return subset.targets.slice(0, count);
}

/** target_components and component_sequences of the selected targets, copied as they are. */
export function targetComponents(subset: Subset, targets: Row[]): { components: Row[]; sequences: Row[] } {
  const components = targets.flatMap((t) => subset.componentsByTid.get(Number(t.tid)) ?? []);
  const ids = [...new Set(components.map((c) => Number(c.component_id)))].sort((a, b) => a - b);
  const sequences = ids.flatMap((id): Row[] => {
    const row = subset.componentSequences.get(id);
    return row ? [row] : [];
  });
  return { components: components.sort((a, b) => Number(a.targcomp_id) - Number(b.targcomp_id)), sequences };
}

export function docRow(subset: Subset, index: number): Row {
  const template = subset.docs[index % subset.docs.length] as Row;
  return { ...template, doc_id: key(index), chembl_id: chemblId('doc', index), pubmed_id: null, doi: null, patent_id: null };
}

/**
 * Index of `index`'s counterpart in another entity, segment by segment: rows added by release N
 * point at rows added by release N (new assays report new documents), spread evenly in blocks.
 * A segment of the other entity that is empty (a tiny file) falls back to all its rows.
 */
export function blockTarget(plan: ReleasePlan, from: Entity, to: Entity, index: number): number {
  const segment = plan.segmentOf(from, index);
  const [fromStart, fromEnd] = [plan.segments(from)[segment] as number, plan.segments(from)[segment + 1] as number];
  let [toStart, toEnd] = [plan.segments(to)[segment] as number, plan.segments(to)[segment + 1] as number];
  if (toEnd <= toStart) [toStart, toEnd] = [0, plan.counts[to]];
  return toStart + Math.floor(((index - fromStart) * (toEnd - toStart)) / Math.max(1, fromEnd - fromStart));
}

/**
 * A skewed pick of the assay's target (u^2: the first targets, those with real activities, get more
 * assays than the rest, as a few targets hold many of ChEMBL's; the first of 15,000 gets ~0.8 %). The template is a real assay of that target when
 * the subset has one (its description, type and format then fit), else any real assay.
 */
export function assayRow(subset: Subset, plan: ReleasePlan, targets: Row[], index: number): Row {
  const target = targets[Math.floor(targets.length * unit(plan.seed, STREAM.target, index) ** 2)] as Row;
  const own = subset.assaysByTid.get(Number(target.tid));
  const pool = own && own.length > 0 ? own : subset.assays;
  const template = pool[pick(plan.seed, STREAM.template, index, pool.length)] as Row;
  const doc = template.doc_id === null ? null : key(blockTarget(plan, 'assays', 'docs', index));
  return { ...template, assay_id: key(index), chembl_id: chemblId('assay', index), doc_id: doc, tid: target.tid, src_assay_id: null };
}

/**
 * Everything but molecules and activities: the subset's vocabularies as they are, the selected real
 * targets with their components, then the documents and (live) assays. Answers the targets (the
 * activities' assays are built again from them) and how many assays this release retired.
 */
export function writeEntities(subset: Subset, plan: ReleasePlan, writer: ReleaseWriter): { targets: Row[]; retiredAssays: number } {
  for (const [table, rows] of Object.entries(subset.vocabulary)) for (const row of rows) writer.table(table as GeneratedTable).add(row);
  const targets = selectedTargets(subset, plan.counts.targets);
  const { components, sequences } = targetComponents(subset, targets);
  for (const row of targets) writer.table('target_dictionary').add(row);
  for (const row of components) writer.table('target_components').add(row);
  for (const row of sequences) writer.table('component_sequences').add(row);
  for (let d = 0; d < plan.counts.docs; d++) writer.table('docs').add(docRow(subset, d));
  let retiredAssays = 0;
  for (let a = 0; a < plan.counts.assays; a++) {
    if (plan.retired('assays', a)) retiredAssays++;
    else writer.table('assays').add(assayRow(subset, plan, targets, a));
  }
  return { targets, retiredAssays };
}
