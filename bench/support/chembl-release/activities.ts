import { assayRow } from './entities.ts';
import { key } from './keys.ts';
import { withoutStructure } from './molecules.ts';
import { pick, STREAM, unit } from './random.ts';
import { boundary, stream } from './release-plan.ts';
import type { ReleasePlan } from './release-plan.ts';
import type { ActivityTemplate, Row, Subset } from './subset.ts';
import type { ReleaseWriter, TableWriter } from './writer.ts';

/**
 * activities and ligand_eff. Activity i copies the real activity template i mod n (templates in
 * seeded order), so the subset's mix of standard and published-only fields, relations, units,
 * pChEMBL, comments and validity flags is kept, share for share. Its numbers are moved by one
 * factor of 10^±0.3 (pChEMBL by the same log step), so no generated value is a real measurement.
 */

/** Largest log10 step of a value's perturbation. */
const MAX_LOG_STEP = 0.3;
/** How far to look for a molecule with (or without) a structure before taking the one at hand. */
const MOLECULE_SEARCH = 10_000;
/** Activities between progress lines. */
const PROGRESS = 1_000_000;
/** Numeric columns moved by the activity's factor (pchembl_value moves by the log step instead). */
const MOVED = ['standard_value', 'value', 'upper_value', 'standard_upper_value'] as const;

function logStep(plan: ReleasePlan, activity: number): number {
  return (unit(plan.seed, stream(STREAM.perturb, 'activities', plan.valueVersion(activity)), activity) - 0.5) * 2 * MAX_LOG_STEP;
}

/**
 * The molecules an assay tests: a run of consecutive molecules (an analogue series, as enumerated)
 * from a seeded start in the assay's segment. Molecule structure presence follows the template, so
 * activities of compounds without a structure keep the subset's share.
 */
function moleculeOf(subset: Subset, plan: ReleasePlan, assay: number, position: number, template: ActivityTemplate): number {
  const segment = plan.segmentOf('assays', assay);
  let [lo, hi] = [plan.segments('molecules')[segment] as number, plan.segments('molecules')[segment + 1] as number];
  if (hi <= lo) [lo, hi] = [0, plan.counts.molecules];
  const size = hi - lo;
  const first = lo + ((pick(plan.seed, STREAM.assayMolecule, assay, size) + position) % size);
  for (let step = 0; step < Math.min(size, MOLECULE_SEARCH); step++) {
    const k = lo + ((first - lo + step) % size);
    if (withoutStructure(subset, plan, k) !== template.hasStructure) return k;
  }
  return first;
}

/**
 * Builds activity rows as value arrays: each template's values are laid out in column order once,
 * and a row is a copy with the keys and moved numbers set (20 M rows: no object per row).
 */
class ActivityRows {
  private readonly layouts = new Map<ActivityTemplate, unknown[]>();
  private readonly at: Record<'activity_id' | 'assay_id' | 'doc_id' | 'molregno' | 'record_id' | 'pchembl_value', number>;
  private readonly moved: number[];

  constructor(private readonly table: TableWriter) {
    const col = (name: string) => table.column(name);
    this.at = {
      activity_id: col('activity_id'),
      assay_id: col('assay_id'),
      doc_id: col('doc_id'),
      molregno: col('molregno'),
      record_id: col('record_id'),
      pchembl_value: col('pchembl_value'),
    };
    this.moved = MOVED.map(col);
  }

  row(template: ActivityTemplate, index: number, assay: Row, molecule: number, step: number): unknown[] {
    let layout = this.layouts.get(template);
    if (!layout) {
      layout = this.table.names.map((n) => template.row[n] ?? null);
      this.layouts.set(template, layout);
    }
    const values = layout.slice();
    const factor = 10 ** step;
    for (const i of this.moved) {
      const v = values[i];
      if (typeof v === 'number') values[i] = Number((v * factor).toPrecision(4));
    }
    const pchembl = values[this.at.pchembl_value];
    if (typeof pchembl === 'number') values[this.at.pchembl_value] = Math.round((pchembl - step) * 100) / 100;
    values[this.at.activity_id] = key(index);
    values[this.at.assay_id] = assay.assay_id;
    // The subset's activities without a document (ChEMBL 27 EGFR rows) stay without one.
    values[this.at.doc_id] = template.row.doc_id === null ? null : assay.doc_id;
    values[this.at.molregno] = key(molecule);
    // Record ids point at compound_records, which a generated release does not have.
    values[this.at.record_id] = null;
    return values;
  }
}

export interface ActivityCounts {
  activities: number;
  retired: number;
  ligandEff: number;
}

/** Writes every activity of every assay, segment by segment, in activity_id order. */
export function writeActivities(
  subset: Subset,
  plan: ReleasePlan,
  targets: Row[],
  writer: ReleaseWriter,
  log: (message: string) => void,
): ActivityCounts {
  const counts: ActivityCounts = { activities: 0, retired: 0, ligandEff: 0 };
  const rows = new ActivityRows(writer.table('activities'));
  const activityStarts = plan.segments('activities');
  const assayStarts = plan.segments('assays');
  for (let segment = 0; segment < plan.release; segment++) {
    const [n0, n1] = [activityStarts[segment] as number, activityStarts[segment + 1] as number];
    const [a0, a1] = [assayStarts[segment] as number, assayStarts[segment + 1] as number];
    // A segment without assays of its own (a tiny file) puts its activities in the segment-0 assays.
    const [g0, groups] = a1 > a0 ? [a0, a1 - a0] : [0, plan.counts.assays];
    const jitter = (g: number) => unit(plan.seed, STREAM.assaySize, g0 + g);
    for (let g = 0; g < groups; g++) {
      const [from, to] = [n0 + boundary(n1 - n0, groups, g, jitter), n0 + boundary(n1 - n0, groups, g + 1, jitter)];
      if (from === to) continue;
      const a = g0 + g;
      const assay = assayRow(subset, plan, targets, a);
      const assayRetired = plan.retired('assays', a);
      for (let i = from; i < to; i++) {
        const template = subset.activities[i % subset.activities.length] as ActivityTemplate;
        const molecule = moleculeOf(subset, plan, a, i - from, template);
        if (assayRetired || plan.retired('molecules', molecule) || plan.retired('activities', i)) {
          counts.retired++;
          continue;
        }
        writer.table('activities').addValues(rows.row(template, i, assay, molecule, logStep(plan, i)));
        if (++counts.activities % PROGRESS === 0) log(`activities: ${counts.activities} of about ${plan.counts.activities}`);
        if (template.ligandEff) {
          writer.table('ligand_eff').add({ ...template.ligandEff, activity_id: key(i) });
          counts.ligandEff++;
        }
      }
    }
  }
  return counts;
}
