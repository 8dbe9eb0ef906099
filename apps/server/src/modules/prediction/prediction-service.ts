import type { Kysely } from 'kysely';
import {
  PREDICTION_DISCLAIMER,
  PREDICTION_DOMAIN_MIN_SIMILARITY,
  PREDICTION_EVIDENCE_MAX,
  PREDICTION_MODEL_ONLY_MAX,
  PREDICTION_MODEL_ONLY_MAX_E,
  PREDICTION_NEAREST_MAX,
} from '@kb/contracts/prediction';
import type {
  BatchPrediction,
  CalibrationInfo,
  EvidenceCompound,
  ModelOnlyTarget,
  NearestCompound,
  PredictBatchResponse,
  PredictTargetsResponse,
  PredictedTarget,
} from '@kb/contracts/prediction';
import type { Database } from '../../db/schema.ts';
import { ChemInputError, ChemSearchCancelled } from '../chemistry/chem-engine.ts';
import type { ChemEngine, ChemQuery } from '../chemistry/chem-engine.ts';
import { loadsState } from '../knowledge-base/kb-loads.ts';
import { ActiveScan, storedStructures } from './active-scan.ts';
import type { ScoreQuery } from './active-scan.ts';
import { readActiveSet } from './active-index.ts';
import { calibrationFor } from './calibration-sample.ts';
import { modelProbability, probabilities } from './calibration.ts';
import type { Calibration, PairProbabilities } from './calibration.ts';
import { estimateModelBackground, modelZ } from './model-background.ts';
import { parentOfInchi } from './parent-key.ts';
import { pActivity, readEvidence, readMeasured, smilesOf, storedStructureId } from './prediction-records.ts';
import type { MeasuredRow } from './prediction-records.ts';
import { rankTargets } from './rank-targets.ts';
import type { ModelOnlyOutput, ModelOutputs, RankedTarget } from './rank-targets.ts';
import type { ModelBackground } from './model-background.ts';
import type { MultitaskModel } from './multitask/multitask-model.ts';
import type { ModelRegistry } from './model-registry.ts';
import { estimateBackground } from './background.ts';
import {
  ENSEMBLE_THRESHOLD,
  RAW_TOP_K,
  SCAN_MIN_SIMILARITY,
  activeIndexOf,
  scoresOfTops,
  withParents,
  withoutStructures,
} from './similarity-ensemble.ts';
import type { ActiveSet, ActiveTops, Background, EnsembleTarget, NearActive } from './similarity-ensemble.ts';
import { TargetRelations } from './target-relations.ts';

export { SCAN_MIN_SIMILARITY };

interface EnsembleData {
  version: string;
  set: ActiveSet;
  /** The actives' fingerprints, scanned for neighbours (active-scan.ts). */
  scan: ActiveScan;
  background: Background;
  /** Ensemble target index by ChEMBL id (mapping the model's outputs). */
  byChemblId: Map<string, number>;
  byTargetId: Map<number, number>;
  /** Read when first asked (a model-only target to describe). */
  relations: Promise<TargetRelations> | null;
}

/** A candidate target with its calibrated probabilities. */
interface Scored extends RankedTarget {
  p: PairProbabilities;
}

interface Prediction {
  smiles: string;
  strId: number | null;
  /** The nearest actives (one per parent, not the query's own forms), most similar first. */
  nearestActives: NearActive[];
  nearest: NearActive | null;
  /** Every candidate, most probable first. */
  scored: Scored[];
  modelOnly: ModelOnlyOutput[];
  calibration: Calibration;
  parent: number | null;
}

interface Listing {
  limit: number;
  minProbability: number;
}

/**
 * Target prediction (docs/prediction.md): the similarity ensemble over the knowledge base's actives
 * and the multitask model, calibrated into one probability per target. Neighbours come from the
 * actives' own scan; the actives, the ensemble's background and the calibration are kept per
 * knowledge-base version (and model).
 */
export class PredictionService {
  private data: Promise<EnsembleData> | null = null;
  private readonly retiring = new Set<ActiveScan>();
  private modelBackground: { model: MultitaskModel; version: string; background: Promise<ModelBackground> } | null = null;
  private calibration: { key: string; calibration: Promise<Calibration> } | null = null;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly engine: ChemEngine,
    private readonly models: ModelRegistry,
    private readonly log: (message: string) => void = () => {},
  ) {}

  /** Reads the actives, estimates the backgrounds and fits the calibration now (server start), so the first user does not wait. */
  async warm(): Promise<void> {
    const [data, model] = await Promise.all([this.ensemble(), this.models.model()]);
    if (model) await this.backgroundOf(model, data.version);
    await this.calibrationOf(data);
  }

  async predict(query: ChemQuery, listing: Listing, signal: AbortSignal = new AbortController().signal): Promise<PredictTargetsResponse> {
    const started = performance.now();
    const data = await this.ensemble();
    if (query.kind === 'smarts')
      throw new ChemInputError('Target prediction compares whole molecules: enter a SMILES or a molfile, not a SMARTS pattern.');
    const described = await this.engine.describe(query, { inchi: true });
    if (!described.morgan) throw new ChemInputError('RDKit could not compute a fingerprint for the query.');
    const smiles = described.smiles ?? query.text;
    const strId = await storedStructureId(this.db, smiles);
    const parent = parentOfInchi(described.inchi);
    const [tops] = await this.score(
      data,
      [{ fingerprint: described.morgan, exclude: strId === null ? [] : [strId], excludeParent: parent }],
      signal,
    );
    const prediction = await this.rank(data, { smiles, strId, morgan: described.morgan, parent }, tops!);
    const confident = prediction.scored.filter((entry) => entry.p.probability >= listing.minProbability);
    const top = confident.slice(0, listing.limit);
    const measured =
      prediction.strId !== null
        ? await readMeasured(this.db, data.byTargetId, [prediction.strId])
        : new Map<number, Map<number, MeasuredRow>>();
    const own =
      prediction.strId !== null ? (measured.get(prediction.strId) ?? new Map<number, MeasuredRow>()) : new Map<number, MeasuredRow>();
    const evidence = await readEvidence(this.db, data.set, top);
    const listedTargets = new Set(top.map((entry) => entry.target));
    const domainMessage =
      prediction.nearest === null
        ? `No active compound in the knowledge base has a Tanimoto of ${SCAN_MIN_SIMILARITY} or more to this structure: it is unlike the measured data, and the predictions are extrapolations.`
        : prediction.nearest.similarity < PREDICTION_DOMAIN_MIN_SIMILARITY
          ? `The nearest active compound in the knowledge base has a Tanimoto of ${prediction.nearest.similarity.toFixed(2)} (below ${PREDICTION_DOMAIN_MIN_SIMILARITY}): this structure is unlike the measured data, and the predictions are extrapolations.`
          : null;
    const threshold = listing.minProbability;
    return {
      query: { smiles: prediction.smiles, strId: prediction.strId },
      domain: {
        nearestSimilarity: prediction.nearest?.similarity ?? null,
        nearestStrId: prediction.nearest?.strId ?? null,
        threshold: PREDICTION_DOMAIN_MIN_SIMILARITY,
        scanMin: SCAN_MIN_SIMILARITY,
        inDomain: domainMessage === null,
        message: domainMessage,
      },
      model: this.models.status(),
      measuredElsewhere: [...own.keys()].filter((target) => !listedTargets.has(target)).length,
      targets: top.map((entry, index) =>
        this.describeTarget(data, entry, index + 1, evidence.get(entry.key) ?? [], own.get(entry.target) ?? null),
      ),
      belowThreshold: prediction.scored.length - confident.length,
      abstention:
        confident.length === 0
          ? {
              message: `No target predicted with confidence: no target reaches a probability of ${Math.round(threshold * 100)} % for this structure. The nearest measured compounds are shown instead.`,
              nearest: await this.nearestCompounds(data, prediction),
            }
          : null,
      modelOnly: await this.describeModelOnly(data, prediction),
      calibration: calibrationInfo(prediction.calibration, threshold),
      ensemble: {
        targets: data.set.targets.filter((_, t) => data.set.activesPerTarget[t]! > 0).length,
        actives: data.set.targetOf.length,
        threshold: ENSEMBLE_THRESHOLD,
      },
      disclaimer: PREDICTION_DISCLAIMER,
      elapsedMs: Math.round(performance.now() - started),
    };
  }

  /**
   * Stored structures, predicted from their stored fingerprints (the same the structure index
   * compares): all of a batch's scans go to the scan workers in one message.
   */
  async predictBatch(
    strIds: readonly number[],
    listing: Listing,
    signal: AbortSignal = new AbortController().signal,
  ): Promise<PredictBatchResponse> {
    const started = performance.now();
    const data = await this.ensemble();
    const stored = await storedStructures(this.db, strIds);
    const measured = await readMeasured(this.db, data.byTargetId, [...stored.keys()]);
    // A structure stored without a fingerprint is fingerprinted from its SMILES (RDKit may refuse it).
    const errors = new Map<number, string>();
    for (const [strId, row] of stored) {
      if (row.morgan) continue;
      try {
        row.morgan = (await this.engine.describe({ kind: 'smiles', text: row.smiles, desalt: false })).morgan ?? null;
        if (!row.morgan) errors.set(strId, `Structure ${strId} could not be predicted: RDKit could not compute a fingerprint for it.`);
      } catch (error) {
        if (!(error instanceof ChemInputError)) throw error;
        errors.set(strId, `Structure ${strId} could not be predicted: ${error.message}`);
      }
    }
    const scanned = strIds.filter((strId) => stored.get(strId)?.morgan);
    const found = await this.score(
      data,
      scanned.map((strId) => ({ fingerprint: stored.get(strId)!.morgan!, exclude: [strId], excludeParent: stored.get(strId)!.parent })),
      signal,
    );
    const topsOf = new Map(scanned.map((strId, k) => [strId, found[k]!]));
    const predictions: BatchPrediction[] = [];
    for (const strId of strIds) {
      const row = stored.get(strId);
      const tops = topsOf.get(strId);
      if (!row)
        predictions.push({
          strId,
          error: `There is no structure ${strId} in the knowledge base.`,
          inDomain: false,
          abstained: false,
          targets: [],
        });
      else if (!tops || !row.morgan)
        predictions.push({
          strId,
          error: errors.get(strId) ?? `Structure ${strId} could not be predicted.`,
          inDomain: false,
          abstained: false,
          targets: [],
        });
      else
        predictions.push(
          this.batchEntry(
            data,
            await this.rank(data, { smiles: row.smiles, strId, morgan: row.morgan, parent: row.parent }, tops),
            measured.get(strId),
            listing,
          ),
        );
    }
    return { predictions, model: this.models.status(), elapsedMs: Math.round(performance.now() - started) };
  }

  private batchEntry(
    data: EnsembleData,
    prediction: Prediction,
    measured: Map<number, MeasuredRow> | undefined,
    listing: Listing,
  ): BatchPrediction {
    const confident = prediction.scored.filter((entry) => entry.p.probability >= listing.minProbability);
    return {
      strId: prediction.strId!,
      error: null,
      inDomain: (prediction.nearest?.similarity ?? 0) >= PREDICTION_DOMAIN_MIN_SIMILARITY,
      abstained: confident.length === 0,
      targets: confident.slice(0, listing.limit).map((entry) => {
        const target = data.set.targets[entry.target]!;
        return {
          targetId: target.targetId,
          chemblId: target.chemblId,
          name: target.name,
          geneSymbol: target.geneSymbol,
          family: target.family,
          probability: entry.p.probability,
          eValue: ensembleEValue(entry),
          modelProbability: entry.probability,
          measured: measured?.has(entry.target) ?? false,
        };
      }),
    };
  }

  /**
   * Each query's tops (the evidence per target and the nearest actives) from the scan's threshold
   * on, gathered in the scan workers; a caller that left stops the work.
   */
  private async score(data: EnsembleData, queries: ScoreQuery[], signal: AbortSignal): Promise<ActiveTops[]> {
    if (signal.aborted) throw new ChemSearchCancelled('The prediction was cancelled.');
    if (queries.length === 0) return [];
    const found = await data.scan.score(queries, {
      min: SCAN_MIN_SIMILARITY,
      threshold: ENSEMBLE_THRESHOLD,
      keep: Math.max(RAW_TOP_K, PREDICTION_EVIDENCE_MAX),
      nearest: PREDICTION_NEAREST_MAX,
    });
    if (signal.aborted) throw new ChemSearchCancelled('The prediction was cancelled.');
    return found;
  }

  /** Both predictors, calibrated, for one structure and its tops: every candidate, most probable first. */
  private async rank(
    data: EnsembleData,
    query: { smiles: string; strId: number | null; morgan: Uint8Array; parent: number | null },
    tops: ActiveTops,
  ): Promise<Prediction> {
    const { smiles, strId, parent } = query;
    // The compound's own measurements (and its other forms') are shown as measured, never used as evidence for it (excluded in the scan).
    const ensemble = scoresOfTops(tops.targets, data.set, data.background, { evidence: PREDICTION_EVIDENCE_MAX });
    const outputs = await this.modelOutputs(data, query.morgan);
    const { ranked, modelOnly } = rankTargets(
      data.set,
      ensemble,
      outputs,
      (chemblId) => data.byChemblId.get(chemblId),
      PREDICTION_MODEL_ONLY_MAX_E,
    );
    const calibration = await this.calibrationOf(data);
    const scored = ranked
      .map((entry): Scored => Object.assign(entry, { p: probabilities(calibration, entry.features) }))
      .sort((a, b) => b.p.probability - a.p.probability || b.p.logistic - a.p.logistic || a.target - b.target);
    return {
      smiles,
      strId,
      nearestActives: tops.nearest,
      nearest: tops.nearest[0] ?? null,
      scored,
      modelOnly: modelOnly.slice(0, PREDICTION_MODEL_ONLY_MAX),
      calibration,
      parent,
    };
  }

  /** The calibration for this version and the model installed now (calibration-sample.ts), fitted once. */
  private async calibrationOf(data: EnsembleData): Promise<Calibration> {
    const model = await this.models.model();
    const key = `${data.version}|${model?.name ?? ''}|${model ? model.targets.length : 0}`;
    if (this.calibration?.key === key) return this.calibration.calibration;
    const calibration = calibrationFor({
      db: this.db,
      scan: data.scan,
      set: data.set,
      background: data.background,
      version: data.version,
      modelName: model ? `${model.name}|${model.targets.length}` : null,
      modelOutputs: (morgan) => this.modelOutputs(data, morgan),
      targetOfChemblId: (chemblId) => data.byChemblId.get(chemblId),
    });
    const entry = { key, calibration };
    this.calibration = entry;
    calibration.then(
      (fitted) =>
        this.log(
          `target prediction: probabilities calibrated (${fitted.source}) on ${fitted.pairs} pairs of ${fitted.queries} structures, ${fitted.positives} active${fitted.brier !== null ? `, Brier ${fitted.brier.toFixed(3)}` : ''}`,
        ),
      () => {
        if (this.calibration === entry) this.calibration = null;
      },
    );
    return calibration;
  }

  /** The nearest measured actives (one per parent) with what each is active on: shown when nothing is predicted with confidence. */
  private async nearestCompounds(data: EnsembleData, prediction: Prediction): Promise<NearestCompound[]> {
    const nearest = prediction.nearestActives;
    if (nearest.length === 0) return [];
    const smiles = await smilesOf(
      this.db,
      nearest.map((n) => n.strId),
    );
    const { set } = data;
    return nearest.map(({ strId, similarity }) => {
      const at = activeIndexOf(set, strId);
      const pairs: { target: number; nm: number }[] = [];
      for (let k = set.offsets[at]!; k < set.offsets[at + 1]!; k++) pairs.push({ target: set.targetOf[k]!, nm: set.nmOf[k]! });
      return {
        strId,
        smiles: smiles.get(strId) ?? '',
        similarity,
        activeOn: pairs
          .sort((a, b) => a.nm - b.nm || a.target - b.target)
          .slice(0, 3)
          .map(({ target, nm }) => ({
            targetId: set.targets[target]!.targetId,
            name: set.targets[target]!.name,
            valueNm: nm,
            pActivity: pActivity(nm),
          })),
      };
    });
  }

  /** The model's significant targets without actives here, with their records and related targets (target-relations.ts). */
  private async describeModelOnly(data: EnsembleData, prediction: Prediction): Promise<ModelOnlyTarget[]> {
    if (prediction.modelOnly.length === 0) return [];
    data.relations ??= TargetRelations.read(this.db, data.set);
    const relations = await data.relations.catch((error: unknown) => {
      data.relations = null;
      throw error;
    });
    return prediction.modelOnly.map((output) => {
      const record = relations.describe(output.chemblId);
      return {
        chemblId: output.chemblId,
        name: record.name,
        organism: record.organism,
        probability: modelProbability(prediction.calibration, output.z) ?? 0,
        rawProbability: output.probability,
        zScore: output.z,
        eValue: output.eValue,
        related: record.related,
      };
    });
  }

  /**
   * The model's answer, or null: no model, or it failed or was replaced while this query ran (an
   * install or reload closes the old one) — the ensemble still answers, and the log says why.
   */
  private async modelOutputs(data: EnsembleData, morgan: Uint8Array): Promise<ModelOutputs | null> {
    const model = await this.models.model();
    if (!model) return null;
    try {
      const probabilities = await model.predict(morgan);
      return { targets: model.targets, probabilities, z: modelZ(probabilities, await this.backgroundOf(model, data.version)) };
    } catch (error) {
      this.log(
        `target prediction: the model did not answer (${error instanceof Error ? error.message : String(error)}); the ensemble answers alone`,
      );
      return null;
    }
  }

  /** The model's background on the knowledge base as it is (estimated once per model and version). */
  private async backgroundOf(model: MultitaskModel, version: string): Promise<ModelBackground> {
    const current = this.modelBackground;
    if (current && current.model === model && current.version === version) return current.background;
    const background = estimateModelBackground(this.db, model);
    this.modelBackground = { model, version, background };
    background.catch(() => {
      if (this.modelBackground?.background === background) this.modelBackground = null;
    });
    return background;
  }

  private describeTarget(
    data: EnsembleData,
    entry: Scored,
    rank: number,
    evidence: EvidenceCompound[],
    measured: MeasuredRow | null,
  ): PredictedTarget {
    const target: EnsembleTarget = data.set.targets[entry.target]!;
    const { family, thresholdNm } = target;
    return {
      targetId: target.targetId,
      chemblId: target.chemblId,
      name: target.name,
      geneSymbol: target.geneSymbol,
      organism: target.organism,
      family,
      thresholdNm,
      probability: entry.p.probability,
      ranks: { combined: rank, nearest: entry.nearestRank, similarity: entry.ensembleRank, multitask: entry.modelRank },
      domain: {
        nearestSimilarity: entry.ensemble ? entry.ensemble.maxSimilarity : null,
        actives: entry.features.actives,
        documents: entry.features.documents,
      },
      similarity: entry.ensemble
        ? {
            eValue: ensembleEValue(entry),
            rawScore: entry.ensemble.rawScore,
            maxSimilarity: entry.ensemble.maxSimilarity,
            actives: data.set.activesPerTarget[entry.ensemble.target]!,
            hits: entry.ensemble.hits,
            probability: entry.p.ensemble,
          }
        : null,
      multitask:
        entry.probability !== null
          ? { rawProbability: entry.probability, zScore: entry.modelZ ?? 0, eValue: entry.modelE ?? 0, probability: entry.p.model ?? 0 }
          : null,
      evidence,
      measured: measured
        ? {
            bestNm: measured.nm,
            pActivity: pActivity(measured.nm),
            activityType: measured.type,
            count: measured.count,
            active: measured.nm <= thresholdNm,
          }
        : null,
    };
  }

  /** Actives and background for the knowledge base as it is now (read again after each load). */
  private async ensemble(): Promise<EnsembleData> {
    const { version } = await loadsState(this.db);
    const current = this.data;
    if (current) {
      const data = await current.catch(() => null);
      if (data && data.version === version && !data.scan.broken) return data;
      if (this.data !== current) return this.ensemble();
    }
    const loading = this.readEnsemble(version);
    this.data = loading;
    loading.then(
      () => current && void this.retire(current),
      () => {
        if (this.data === loading) this.data = null;
      },
    );
    return loading;
  }

  /** Stops the scan workers, the current version's and any still retiring (server shutdown). */
  async close(): Promise<void> {
    const current = this.data;
    this.data = null;
    const data = await current?.catch(() => null);
    await Promise.all([data?.scan.close(), ...[...this.retiring].map((scan) => scan.close())]);
    this.retiring.clear();
  }

  /** A replaced version's scan workers stop once the predictions still using them are done. */
  private async retire(previous: Promise<EnsembleData>): Promise<void> {
    const data = await previous.catch(() => null);
    if (!data) return;
    this.retiring.add(data.scan);
    setTimeout(() => {
      this.retiring.delete(data.scan);
      void data.scan.close();
    }, RETIRE_AFTER_MS).unref();
  }

  private async readEnsemble(version: string): Promise<EnsembleData> {
    const started = performance.now();
    const read = await readActiveSet(this.db);
    const scan = await ActiveScan.build(this.db, read.strIds);
    // Each structure's parent from its stored InChI, read with its fingerprint (parent-key.ts).
    const set = withParents(withoutStructures(read, scan.withoutFingerprint), (strId) => scan.parentOfStructure(strId));
    let background: Background;
    try {
      await scan.attach(set);
      background = await estimateBackground(this.db, scan, set, version);
    } catch (error) {
      await scan.close();
      throw error;
    }
    const byChemblId = new Map<string, number>();
    const byTargetId = new Map<number, number>();
    set.targets.forEach((target, index) => {
      if (target.chemblId) byChemblId.set(target.chemblId, index);
      byTargetId.set(target.targetId, index);
    });
    this.log(
      `target prediction: ${set.targetOf.length} active pairs on ${set.strIds.length} structures, background from ${background.queries} queries, ${scan.postings.toLocaleString('en-US')} fingerprint bits indexed, in ${Math.round(performance.now() - started)} ms`,
    );
    return { version, set, scan, background, byChemblId, byTargetId, relations: null };
  }
}

/** How long a replaced version's scan stays up for the predictions that started on it. */
const RETIRE_AFTER_MS = 60_000;

/** How the probabilities were calibrated, as the answer states it. */
function calibrationInfo(calibration: Calibration, threshold: number): CalibrationInfo {
  const { source, queries, pairs, positives, brier } = calibration;
  return { source, queries, pairs, positives, brier, threshold };
}

/** The ensemble's E-value of a listed target; null when no active reaches its threshold. */
function ensembleEValue(entry: RankedTarget): number | null {
  const score = entry.ensemble;
  return score && score.hits > 0 && Number.isFinite(score.eValue) ? score.eValue : null;
}
