import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { ActiveScan } from './active-scan.ts';
import { storedStructures } from './active-scan.ts';
import { keep, readKept } from './kept-fits.ts';
import { documentSiblings } from './background.ts';
import { fitCalibration } from './calibration.ts';
import type { Calibration, LabelledPair } from './calibration.ts';
import { DEFAULT_CALIBRATION } from './calibration-default.ts';
import { rankTargets } from './rank-targets.ts';
import type { ModelOutputs } from './rank-targets.ts';
import { ENSEMBLE_THRESHOLD, RAW_TOP_K, SCAN_MIN_SIMILARITY, activeIndexOf, scoresOfTops } from './similarity-ensemble.ts';
import type { ActiveSet, Background } from './similarity-ensemble.ts';

/** Active structures whose predictions, with their documents held out, the calibration is fitted on. */
const CALIBRATION_QUERIES = 400;
const SETTING_KEY = 'prediction_calibration';
/** Changes when the features or the fit change, so that a stored fit is not read by other code. */
const LAYOUT = 'v1';

export interface CalibrationInputs {
  db: Kysely<Database>;
  scan: ActiveScan;
  set: ActiveSet;
  background: Background;
  version: string;
  /** The model's name, or null without one (the fit then leaves the model out). */
  modelName: string | null;
  modelOutputs: (morgan: Uint8Array) => Promise<ModelOutputs | null>;
  targetOfChemblId: (chemblId: string) => number | undefined;
}

/**
 * The calibration for the knowledge base as it is (docs/prediction.md "Probabilities"): active
 * structures taken at regular intervals, each predicted as the service predicts a query but
 * without the structures of its own documents (and its own parent's forms), labelled by the
 * targets it is measured active on. Kept in app_settings per knowledge-base version and model, so
 * a restart does not fit again. Too few actives (a small demo): the default coefficients.
 */
export async function calibrationFor(inputs: CalibrationInputs): Promise<Calibration> {
  const { db, version, modelName } = inputs;
  const key = `${LAYOUT}|${version}|${modelName ?? ''}`;
  const stored = await readKept(db, SETTING_KEY);
  const parsed = stored ? parseStored(stored) : null;
  if (parsed && parsed.key === key) return parsed.calibration;
  const pairs = await labelledPairs(inputs);
  const calibration = fitCalibration(pairs, modelName !== null) ?? defaultCalibration(modelName !== null, pairs);
  await keep(db, SETTING_KEY, JSON.stringify({ key, calibration }));
  return calibration;
}

function defaultCalibration(withModel: boolean, pairs: readonly LabelledPair[]): Calibration {
  const base = withModel ? DEFAULT_CALIBRATION.withModel : DEFAULT_CALIBRATION.withoutModel;
  return {
    ...base,
    queries: new Set(pairs.map((pair) => pair.query)).size,
    pairs: pairs.length,
    positives: pairs.filter((pair) => pair.active).length,
  };
}

/** Every candidate target of each sampled active structure, labelled active or not. */
async function labelledPairs(inputs: CalibrationInputs): Promise<LabelledPair[]> {
  const { db, scan, set, background } = inputs;
  const step = Math.max(1, Math.floor(set.strIds.length / CALIBRATION_QUERIES));
  const strIds: number[] = [];
  for (let k = 0; k < set.strIds.length && strIds.length < CALIBRATION_QUERIES; k += step) strIds.push(set.strIds[k]!);
  if (strIds.length === 0) return [];
  const stored = await storedStructures(db, strIds);
  const queries = strIds.filter((strId) => stored.get(strId)?.morgan);
  const fingerprints = new Map(queries.map((strId) => [strId, stored.get(strId)!.morgan!]));
  const siblings = await documentSiblings(db, queries);
  const found = await scan.score(
    queries.map((strId) => ({
      fingerprint: fingerprints.get(strId)!,
      exclude: [strId, ...(siblings.get(strId) ?? [])],
      excludeParent: set.parentOf[activeIndexOf(set, strId)]!,
    })),
    { min: SCAN_MIN_SIMILARITY, threshold: ENSEMBLE_THRESHOLD, keep: RAW_TOP_K, nearest: 0 },
  );
  const pairs: LabelledPair[] = [];
  for (const [q, strId] of queries.entries()) {
    const at = activeIndexOf(set, strId);
    const activeOn = new Set<number>();
    for (let k = set.offsets[at]!; k < set.offsets[at + 1]!; k++) activeOn.add(set.targetOf[k]!);
    const ensemble = scoresOfTops(found[q]!.targets, set, background, { evidence: 1 });
    const outputs = await inputs.modelOutputs(fingerprints.get(strId)!);
    const { ranked } = rankTargets(set, ensemble, outputs, inputs.targetOfChemblId);
    for (const entry of ranked) pairs.push({ ...entry.features, active: activeOn.has(entry.target), query: q });
  }
  return pairs;
}

function parseStored(value: string): { key: string; calibration: Calibration } | null {
  try {
    const parsed = JSON.parse(value) as { key?: unknown; calibration?: Calibration };
    const c = parsed.calibration;
    if (typeof parsed.key !== 'string' || !c || !Array.isArray(c.combined) || !c.combined.every(Number.isFinite)) return null;
    return { key: parsed.key, calibration: c };
  } catch {
    return null;
  }
}
