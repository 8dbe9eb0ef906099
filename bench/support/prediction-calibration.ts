// Calibration figures of the target-prediction benchmark (bench/prediction.ts): the service's
// calibration (apps/server/src/modules/prediction/calibration.ts) fitted on some folds' (compound,
// candidate target) pairs and judged on the others — never on the pairs it was fitted on.
import { PREDICTION_CONFIDENT_PROBABILITY } from '@kb/contracts/prediction';
import { fitCalibration, probabilities, reliability } from '../../apps/server/src/modules/prediction/calibration.ts';
import type { Calibration, LabelledPair, PairFeatures } from '../../apps/server/src/modules/prediction/calibration.ts';
import { RecallTally, keyOf } from './prediction-rank.ts';

/** One evaluated compound of a split: its candidates with what the calibration reads, and its truth. */
export interface EvaluatedCompound {
  /** Index over every evaluated compound of the split (LabelledPair.query). */
  query: number;
  /** The group cross-fitting keeps together (a document, a scaffold fold). */
  group: number;
  /** Targets it is truly active on (in the held-out data). */
  truth: number[];
  candidates: { target: number; features: PairFeatures }[];
  inDomain: boolean;
}

export function labelled(compounds: readonly EvaluatedCompound[]): LabelledPair[] {
  return compounds.flatMap((compound) =>
    compound.candidates.map((candidate) => ({
      ...candidate.features,
      active: compound.truth.includes(candidate.target),
      query: compound.query,
    })),
  );
}

/** A calibration per fold of groups, each fitted without that fold's compounds (null where a fold's training has too few actives). */
export function crossFitted(
  compounds: readonly EvaluatedCompound[],
  withModel: boolean,
  folds = 5,
): (compound: EvaluatedCompound) => Calibration | null {
  const foldOf = (group: number) => Math.abs(Math.imul(group, 2_654_435_761) >>> 0) % folds;
  const fits = Array.from({ length: folds }, (_, fold) =>
    fitCalibration(labelled(compounds.filter((c) => foldOf(c.group) !== fold)), withModel),
  );
  return (compound) => fits[foldOf(compound.group)]!;
}

/**
 * Reliability (predicted vs observed per tenth), Brier and expected calibration error of the
 * combination and of each predictor's own probability; recall of the calibrated order; how often
 * the answer is "no target predicted with confidence", and how right the confident first targets are.
 */
export function calibrationFigures(
  compounds: readonly EvaluatedCompound[],
  calibrationOf: (compound: EvaluatedCompound) => Calibration | null,
) {
  const combined: number[] = [];
  const ensemble: number[] = [];
  const model: number[] = [];
  const observed: boolean[] = [];
  const observedModel: boolean[] = [];
  const all = new RecallTally();
  const inDomain = new RecallTally();
  const outOfDomain = new RecallTally();
  let abstained = 0;
  let confidentFirstRight = 0;
  let judged = 0;
  for (const compound of compounds) {
    const calibration = calibrationOf(compound);
    if (!calibration) continue;
    judged += 1;
    const scored = compound.candidates
      .map((candidate) => ({ target: candidate.target, p: probabilities(calibration, candidate.features) }))
      .sort((a, b) => b.p.probability - a.p.probability || b.p.logistic - a.p.logistic || a.target - b.target);
    for (const entry of scored) {
      const active = compound.truth.includes(entry.target);
      combined.push(entry.p.probability);
      ensemble.push(entry.p.ensemble);
      observed.push(active);
      if (entry.p.model !== null) {
        model.push(entry.p.model);
        observedModel.push(active);
      }
    }
    const ranked = scored.map((entry) => keyOf(entry.target, null));
    const truth = compound.truth.map((t) => keyOf(t, null));
    all.add(ranked, truth);
    (compound.inDomain ? inDomain : outOfDomain).add(ranked, truth);
    const confident = scored.filter((entry) => entry.p.probability >= PREDICTION_CONFIDENT_PROBABILITY);
    if (confident.length === 0) abstained += 1;
    else if (compound.truth.includes(confident[0]!.target)) confidentFirstRight += 1;
  }
  const round = (x: number) => Number(x.toFixed(4));
  const diagram = (predicted: number[], outcome: boolean[]) => {
    const r = reliability(predicted, outcome);
    return {
      pairs: predicted.length,
      brier: round(r.brier),
      ece: round(r.ece),
      bins: r.bins
        .filter((bin) => bin.pairs > 0)
        .map((bin) => ({ ...bin, meanPredicted: round(bin.meanPredicted), observed: round(bin.observed) })),
    };
  };
  return {
    compounds: judged,
    combined: diagram(combined, observed),
    ensemble: diagram(ensemble, observed),
    model: model.length ? diagram(model, observedModel) : null,
    recall: { all: all.figures(), inDomain: inDomain.figures(), outOfDomain: outOfDomain.figures() },
    threshold: PREDICTION_CONFIDENT_PROBABILITY,
    /** Compounds with no target at or above the threshold. */
    abstainedShare: judged > 0 ? round(abstained / judged) : null,
    /** Of the compounds with a confident answer, those whose first target is a true one. */
    confidentFirstRight: judged - abstained > 0 ? round(confidentFirstRight / (judged - abstained)) : null,
  };
}

/** The coefficients fitted on every pair (what calibration-default.ts ships), rounded for the source. */
export function defaultCoefficients(compounds: readonly EvaluatedCompound[], withModel: boolean): Calibration | null {
  const fitted = fitCalibration(labelled(compounds), withModel);
  if (!fitted) return null;
  const r = (x: number) => Number(x.toPrecision(5));
  return {
    ...fitted,
    source: 'default',
    combined: fitted.combined.map(r),
    isotonic: { x: fitted.isotonic.x.map(r), y: fitted.isotonic.y.map(r) },
    ensembleIsotonic: { x: fitted.ensembleIsotonic.x.map(r), y: fitted.ensembleIsotonic.y.map(r) },
    modelIsotonic: { x: fitted.modelIsotonic.x.map(r), y: fitted.modelIsotonic.y.map(r) },
    ensemble: fitted.ensemble.map(r) as [number, number],
    model: fitted.model ? (fitted.model.map(r) as [number, number]) : null,
    baseRate: r(fitted.baseRate),
    queries: 0,
    pairs: 0,
    positives: 0,
    brier: null,
  };
}
