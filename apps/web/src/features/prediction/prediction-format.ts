import { TARGET_FAMILY_LABELS } from '@kb/contracts/prediction';
import type { EvidenceCompound, PredictedTarget, TargetFamily } from '@kb/contracts/prediction';
import type { SearchCriteria } from '@kb/contracts/search';
import { NO_NUMBER, formatQuantity } from '../../app/format/number-format.ts';
import { countNoun } from '../../app/format/plural.ts';

/**
 * How target predictions are written for a chemist (docs/prediction.md): E-values as SEA prints
 * them, potencies in the unit they are read in, pActivities named after their type, and the
 * search that lists a predicted target's measured actives.
 */

const twoSignificant = new Intl.NumberFormat('en-US', { maximumSignificantDigits: 2 });
const threeSignificant = new Intl.NumberFormat('en-US', { maximumSignificantDigits: 3 });

/** An E-value: "3e-12" when tiny, "0.04", "1.2", "35" otherwise (two significant digits are all it carries). */
export function formatEValue(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value) || value < 0) return NO_NUMBER;
  if (value === 0) return '0';
  if (value < 0.001) {
    const [mantissa, exponent] = value.toExponential(0).split('e');
    return `${mantissa}e${Number(exponent)}`;
  }
  return twoSignificant.format(value);
}

/**
 * A calibrated probability as a percentage: "62 %" (whole percents are all a calibration carries).
 * A small but real probability never reads as 0 %, nor a large one as certain. The space is a
 * no-break space: "62" and "%" never part at a line end.
 */
export function formatProbability(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value) || value < 0) return NO_NUMBER;
  const percent = value * 100;
  if (percent > 0 && percent < 0.5) return '< 1\u00a0%';
  if (percent < 100 && percent >= 99.5) return '> 99\u00a0%';
  return `${Math.round(Math.min(percent, 100))}\u00a0%`;
}

/** The title of the state shown when no target reaches the threshold. */
export const ABSTENTION_TITLE = 'No target predicted with confidence';

/**
 * The server's abstention message under that title: without the title when the message opens with
 * it ("No target predicted with confidence: no target reaches…" reads once, not twice).
 */
export function abstentionDetail(message: string): string {
  const prefix = new RegExp(`^\\s*${ABSTENTION_TITLE}\\s*[:.;,—–-]?\\s*`, 'i');
  const rest = message.replace(prefix, '');
  return rest ? rest.charAt(0).toUpperCase() + rest.slice(1) : message;
}

/** How to read an E-value, said once where one is shown. */
export const E_VALUE_READING =
  'E-value: how many targets would score this well by chance; below 0.01 is strong, above 1 means no better than chance.';

/** Fewer actives than this make a target's prediction rest on little data (a caution is shown). */
const FEW_ACTIVES = 5;

/**
 * The caution for a target whose data is thin: "rests on 1 paper", "rests on 3 actives", "rests on
 * 1 paper and 3 actives"; null when it rests on two papers or more and at least FEW_ACTIVES actives.
 * One paper is one laboratory's assay and chemotype: its prediction is only as good as that paper.
 */
export function thinDataCaution(domain: { actives: number; documents: number }): string | null {
  const onePaper = domain.documents <= 1;
  const fewActives = domain.actives < FEW_ACTIVES;
  if (!onePaper && !fewActives) return null;
  const papers = domain.documents === 0 ? 'no named paper' : countNoun(domain.documents, 'paper');
  const actives = countNoun(domain.actives, 'active');
  if (onePaper && fewActives) return `rests on ${papers} and ${actives}`;
  return `rests on ${onePaper ? papers : actives}`;
}

/** A score or probability in [0, 1], two decimals as the product writes ratios. */
export function formatScore(value: number | null | undefined): string {
  // A weak but real score must not read as zero.
  if (value !== null && value !== undefined && value > 0 && value < 0.005) return '< 0.01';
  return formatQuantity(value, 'index');
}

/** A potency from its nM value: "12 nM", "0.35 nM", "1.2 µM", "35 µM" (three significant digits). */
export function formatNanomolar(valueNm: number | null | undefined): string {
  if (valueNm === null || valueNm === undefined || !Number.isFinite(valueNm) || valueNm <= 0) return NO_NUMBER;
  if (valueNm < 1000) return `${threeSignificant.format(valueNm)} nM`;
  if (valueNm < 1_000_000) return `${threeSignificant.format(valueNm / 1000)} µM`;
  return `${threeSignificant.format(valueNm / 1_000_000)} mM`;
}

/** The relations a potency is written with; "=" is not written. */
function relationText(relation: string | null | undefined): string {
  if (!relation || relation === '=') return '';
  return `${relation.replace('<=', '≤').replace('>=', '≥')} `;
}

/** "IC50 12 nM", "Ki < 5 nM": a measured potency with its type and relation. */
export function formatPotencyOf(activityType: string | null, valueNm: number, relation?: string | null): string {
  const value = `${relationText(relation)}${formatNanomolar(valueNm)}`;
  return activityType ? `${activityType} ${value}` : value;
}

/** The negative log named after the type a chemist measured it as: pIC50, pKi; "pActivity" for the others. */
export function pActivityLabel(activityType: string | null): string {
  if (activityType && /^(IC50|EC50|XC50|AC50|Ki|Kd)$/i.test(activityType)) {
    const type = activityType.toUpperCase();
    return `p${type === 'KI' ? 'Ki' : type === 'KD' ? 'Kd' : type}`;
  }
  return 'pActivity';
}

/** "pIC50 7.92". */
function formatPActivity(activityType: string | null, pActivity: number): string {
  return `${pActivityLabel(activityType)} ${formatQuantity(pActivity, 'pActivity')}`;
}

/** What an evidence compound's best measurement reads: "IC50 12 nM · pIC50 7.92". */
export function evidencePotency(compound: Pick<EvidenceCompound, 'activityType' | 'relation' | 'valueNm' | 'pActivity'>): string {
  return `${formatPotencyOf(compound.activityType, compound.valueNm, compound.relation)} · ${formatPActivity(compound.activityType, compound.pActivity)}`;
}

/** "measured: pIC50 7.20 (active)": the query compound's own best measurement on a target. */
export function measuredText(measured: NonNullable<PredictedTarget['measured']>): string {
  return `measured: ${formatPActivity(measured.activityType, measured.pActivity)} (${measured.active ? 'active' : 'inactive'})`;
}

/** The potency that makes a compound an active of the family: "≤ 30 nM", "≤ 10 µM". */
export function thresholdText(thresholdNm: number): string {
  return `≤ ${formatNanomolar(thresholdNm)}`;
}

export function familyLabel(family: TargetFamily): string {
  return TARGET_FAMILY_LABELS[family];
}

/** The name a target is shown by: its gene symbol beside its name when it has one. */
function targetLabel(target: { name: string; geneSymbol: string | null }): string {
  return target.geneSymbol ? `${target.name} (${target.geneSymbol})` : target.name;
}

/** The public ChEMBL page of a target (for a model target that is not in the knowledge base). */
export function chemblTargetUrl(chemblId: string): string {
  return `https://www.ebi.ac.uk/chembl/explore/target/${encodeURIComponent(chemblId)}`;
}

/**
 * The potency types the similarity ensemble counts as actives (the server's POTENCY_TYPES, as the
 * search's activity rows spell them): a search with them finds what the ensemble compared with.
 */
const ACTIVE_POTENCY_TYPES = ['IC50', 'Ki', 'Kd', 'EC50', 'XC50', 'AC50', 'Potency'] as const;

/**
 * The search for a target's measured actives: the target (by id, exactly that one) AND a potency
 * of one of the active types at or below the family's threshold (docs/search-semantics.md: both
 * rows hold for the same activity).
 */
export function targetActivesCriteria(target: { targetId: number; name: string; thresholdNm: number }): SearchCriteria {
  return {
    rows: [
      {
        selectedOption: 'target',
        operator: 'AND',
        targets: [{ label: target.name, displayValue: target.name, targetCategories: ['name'], operator: '|', ids: [target.targetId] }],
      },
      {
        selectedOption: 'activitytypes',
        operator: null,
        activities: ACTIVE_POTENCY_TYPES.map((activityType) => ({
          activityType,
          activityUom: 'nM',
          prefix: '<=' as const,
          minValue: target.thresholdNm,
          maxValue: null,
        })),
      },
    ],
  };
}

/**
 * The search for every measurement of a target (a knowledge-base target related to a model-only one,
 * whose family, and so its "active" threshold, the answer does not carry).
 */
export function targetMeasurementsCriteria(target: { targetId: number; name: string }): SearchCriteria {
  return {
    rows: [
      {
        selectedOption: 'target',
        operator: null,
        targets: [{ label: target.name, displayValue: target.name, targetCategories: ['name'], operator: '|', ids: [target.targetId] }],
      },
    ],
  };
}

/** The summary a search of a target's measurements is listed under. */
export function targetMeasurementsSummary(target: { name: string }): string {
  return `Measurements on ${target.name}`;
}

/** The summary a search of a target's actives is listed under (recent searches, the results header). */
export function targetActivesSummary(target: { name: string; geneSymbol: string | null; thresholdNm: number }): string {
  return `Measured actives of ${targetLabel(target)}: potency ${thresholdText(target.thresholdNm)}`;
}

/** Badge colours of the target families (panel and selection alike). */
export const FAMILY_COLORS: Record<TargetFamily, string> = {
  kinase: 'blue',
  gpcr: 'grape',
  'nuclear receptor': 'teal',
  'ion channel': 'orange',
  other: 'gray',
};
/** Figures in columns line up. */
export const NUMERIC = { fontVariantNumeric: 'tabular-nums' } as const;
