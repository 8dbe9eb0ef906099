import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { PREDICTION_DISCLAIMER, PREDICTION_DOMAIN_MIN_SIMILARITY, PREDICTION_EVIDENCE_MAX } from '@kb/contracts/prediction';
import type { BatchPrediction, EvidenceCompound, PredictBatchResponse, PredictTargetsResponse, PredictedTarget } from '@kb/contracts/prediction';
import type { Database } from '../../db/schema.ts';
import { ChemInputError } from '../chemistry/chem-engine.ts';
import { byCanonicalSmiles } from '../chemistry/chem-query.ts';
import type { ChemEngine, ChemQuery } from '../chemistry/chem-engine.ts';
import { loadsState } from '../knowledge-base/kb-loads.ts';
import { potencyPredicate, readActiveSet } from './active-index.ts';
import { estimateModelBackground, modelZ } from './model-background.ts';
import { rankTargets } from './rank-targets.ts';
import type { ModelOutputs, RankedTarget } from './rank-targets.ts';
import type { ModelBackground } from './model-background.ts';
import type { MultitaskModel } from './multitask/multitask-model.ts';
import type { ModelRegistry } from './model-registry.ts';
import { estimateBackground } from './background.ts';
import { ENSEMBLE_THRESHOLD, nearestActive, scoreTargets } from './similarity-ensemble.ts';
import type { ActiveSet, Background, EnsembleTarget, Neighbour } from './similarity-ensemble.ts';

/**
 * Similarities below this are not searched: the ensemble counts nothing below its threshold, and
 * the domain's nearest active matters only up to the domain's. (A scan from 0.2 answered about
 * 2.5 times the structures of one from 0.3 on the demo data and took 1.7 times as long.)
 */
export const SCAN_MIN_SIMILARITY = Math.min(ENSEMBLE_THRESHOLD, PREDICTION_DOMAIN_MIN_SIMILARITY);
/** Batch structures predicted at once (the structure index's workers share them). */
const BATCH_CONCURRENCY = 4;
/** One structure's scan at most (a preview's limit): a query that takes longer answers 400. */
export const SCAN_TIME_LIMIT_MS = 20_000;

interface EnsembleData {
  version: string;
  set: ActiveSet;
  background: Background;
  /** Ensemble target index by ChEMBL id (mapping the model's outputs). */
  byChemblId: Map<string, number>;
  byTargetId: Map<number, number>;
}

interface Prediction {
  smiles: string;
  strId: number | null;
  neighbours: Neighbour[];
  nearest: Neighbour | null;
  ranked: RankedTarget[];
  modelOnlyInTop10: number;
}

/**
 * Target prediction (docs/prediction.md): the similarity ensemble over the knowledge base's actives
 * and the multitask model, combined. Neighbours come from the structure index's similarity scan;
 * the actives and the ensemble's background are kept per knowledge-base version.
 */
export class PredictionService {
  private data: Promise<EnsembleData> | null = null;
  private modelBackground: { model: MultitaskModel; version: string; background: Promise<ModelBackground> } | null = null;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly engine: ChemEngine,
    private readonly models: ModelRegistry,
    private readonly log: (message: string) => void = () => {},
  ) {}

  /** Reads the actives and estimates the background now (server start), so the first user does not wait. */
  async warm(): Promise<void> {
    const [data, model] = await Promise.all([this.ensemble(), this.models.model()]);
    if (model) await this.backgroundOf(model, data.version);
  }

  async predict(query: ChemQuery, limit: number, signal: AbortSignal = new AbortController().signal): Promise<PredictTargetsResponse> {
    const started = performance.now();
    const data = await this.ensemble();
    const prediction = await this.rank(data, query, null, limit, signal);
    const top = prediction.ranked.slice(0, limit);
    const measured = prediction.strId !== null ? await this.measuredOn(data, [prediction.strId]) : new Map<number, Map<number, MeasuredRow>>();
    const own = prediction.strId !== null ? (measured.get(prediction.strId) ?? new Map<number, MeasuredRow>()) : new Map<number, MeasuredRow>();
    const evidence = await this.evidenceOf(data, top);
    const listedTargets = new Set(top.map((entry) => entry.target));
    const domainMessage =
      prediction.nearest === null
        ? `No active compound in the knowledge base has a Tanimoto of ${SCAN_MIN_SIMILARITY} or more to this structure: it is unlike the measured data, and the predictions are extrapolations.`
        : prediction.nearest.similarity < PREDICTION_DOMAIN_MIN_SIMILARITY
          ? `The nearest active compound in the knowledge base has a Tanimoto of ${prediction.nearest.similarity.toFixed(2)} (below ${PREDICTION_DOMAIN_MIN_SIMILARITY}): this structure is unlike the measured data, and the predictions are extrapolations.`
          : null;
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
      modelOnlyInTop10: prediction.modelOnlyInTop10,
      targets: top.map((entry, index) => this.describeTarget(data, entry, index + 1, evidence.get(entry.key) ?? [], own.get(entry.target) ?? null)),
      ensemble: { targets: data.set.targets.filter((_, t) => data.set.activesPerTarget[t]! > 0).length, actives: data.set.targetOf.length, threshold: ENSEMBLE_THRESHOLD },
      disclaimer: PREDICTION_DISCLAIMER,
      elapsedMs: Math.round(performance.now() - started),
    };
  }

  async predictBatch(strIds: readonly number[], limit: number, signal: AbortSignal = new AbortController().signal): Promise<PredictBatchResponse> {
    const started = performance.now();
    const data = await this.ensemble();
    const { rows } = await sql<{ str_id: string | number; canonical_smiles: string }>`SELECT str_id, canonical_smiles FROM structures
      WHERE str_id = ANY(${`{${strIds.join(',')}}`}::bigint[])`.execute(this.db);
    const smilesOf = new Map(rows.map((row) => [Number(row.str_id), row.canonical_smiles]));
    const measured = await this.measuredOn(data, [...smilesOf.keys()]);
    const predictions: BatchPrediction[] = new Array(strIds.length);
    let next = 0;
    const work = async (): Promise<void> => {
      while (next < strIds.length) {
        const index = next++;
        const strId = strIds[index]!;
        if (signal.aborted) throw signal.reason;
        predictions[index] = await this.predictOne(data, strId, smilesOf.get(strId), measured.get(strId), limit, signal);
      }
    };
    await Promise.all(Array.from({ length: Math.min(BATCH_CONCURRENCY, strIds.length) }, work));
    return { predictions, model: this.models.status(), elapsedMs: Math.round(performance.now() - started) };
  }

  private async predictOne(data: EnsembleData, strId: number, smiles: string | undefined, measured: Map<number, MeasuredRow> | undefined, limit: number, signal: AbortSignal): Promise<BatchPrediction> {
    if (smiles === undefined) return { strId, error: `There is no structure ${strId} in the knowledge base.`, inDomain: false, targets: [] };
    try {
      const prediction = await this.rank(data, { kind: 'smiles', text: smiles, desalt: false }, strId, limit, signal);
      return {
        strId,
        error: null,
        inDomain: (prediction.nearest?.similarity ?? 0) >= PREDICTION_DOMAIN_MIN_SIMILARITY,
        targets: prediction.ranked.slice(0, limit).map((entry) => {
          const target = data.set.targets[entry.target]!;
          return {
            targetId: target.targetId,
            chemblId: target.chemblId,
            name: target.name,
            geneSymbol: target.geneSymbol,
            family: target.family,
            score: entry.score,
            eValue: ensembleEValue(entry),
            probability: entry.probability,
            measured: measured?.has(entry.target) ?? false,
          };
        }),
      };
    } catch (error) {
      // A stored structure RDKit cannot read (or over the stored limits) is that structure's answer; anything else fails the call.
      if (error instanceof ChemInputError) return { strId, error: `Structure ${strId} could not be predicted: ${error.message}`, inDomain: false, targets: [] };
      throw error;
    }
  }

  /** Neighbours, both predictors and the combination for one query; `strId` when it is known to be a stored structure. */
  private async rank(data: EnsembleData, query: ChemQuery, knownStrId: number | null, limit: number, signal: AbortSignal): Promise<Prediction> {
    await this.engine.ready(signal);
    const hits = await this.engine.similarity(query, { min: SCAN_MIN_SIMILARITY, max: 1 }, { signal: AbortSignal.any([signal, AbortSignal.timeout(SCAN_TIME_LIMIT_MS)]) });
    const smiles = hits.query?.smiles ?? query.text;
    const strId = knownStrId ?? (await this.storedStructure(smiles));
    const neighbours: Neighbour[] = Array.from(hits.ids, (id, k) => ({ strId: id, similarity: hits.similarities?.[k] ?? 0 }));
    // The compound's own measurements are shown as measured, never used as evidence for it.
    const exclude = (id: number) => id === strId;
    const ensemble = scoreTargets(neighbours, data.set, data.background, { exclude, evidence: PREDICTION_EVIDENCE_MAX });
    const outputs = hits.query?.morgan ? await this.modelOutputs(data, hits.query.morgan) : null;
    const { ranked, modelOnlyInTop10 } = rankTargets(data.set, ensemble, outputs, (chemblId) => data.byChemblId.get(chemblId));
    return { smiles, strId, neighbours, nearest: nearestActive(neighbours, data.set, exclude), ranked: ranked.slice(0, Math.max(limit, 1)), modelOnlyInTop10 };
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
      this.log(`target prediction: the model did not answer (${error instanceof Error ? error.message : String(error)}); the ensemble answers alone`);
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

  private async storedStructure(canonical: string): Promise<number | null> {
    const { rows } = await sql<{ str_id: string | number }>`${byCanonicalSmiles(canonical)} LIMIT 1`.execute(this.db);
    return rows[0] ? Number(rows[0].str_id) : null;
  }

  private describeTarget(data: EnsembleData, entry: RankedTarget, rank: number, evidence: EvidenceCompound[], measured: MeasuredRow | null): PredictedTarget {
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
      ranks: { combined: rank, nearest: entry.nearestRank, similarity: entry.ensembleRank, multitask: entry.modelRank },
      score: entry.score,
      similarity: entry.ensemble
        ? {
            eValue: ensembleEValue(entry),
            rawScore: entry.ensemble.rawScore,
            maxSimilarity: entry.ensemble.maxSimilarity,
            actives: data.set.activesPerTarget[entry.ensemble.target]!,
            hits: entry.ensemble.hits,
          }
        : null,
      multitask: entry.probability !== null ? { probability: entry.probability, zScore: entry.modelZ ?? 0, eValue: entry.modelE ?? 0 } : null,
      evidence,
      measured: measured
        ? { bestNm: measured.nm, pActivity: pActivity(measured.nm), activityType: measured.type, count: measured.count, active: measured.nm <= thresholdNm }
        : null,
    };
  }

  /** The evidence compounds of the listed targets: SMILES and the best measurement behind each (with its document). */
  private async evidenceOf(data: EnsembleData, top: readonly RankedTarget[]): Promise<Map<string, EvidenceCompound[]>> {
    const wanted = top.flatMap((entry) => (entry.ensemble ? entry.ensemble.evidence.map((ref) => ({ key: entry.key, targetId: data.set.targets[entry.ensemble!.target]!.targetId, ref })) : []));
    const result = new Map<string, EvidenceCompound[]>();
    if (wanted.length === 0) return result;
    const strIds = [...new Set(wanted.map((w) => w.ref.strId))];
    const targetIds = [...new Set(wanted.map((w) => w.targetId))];
    const { rows } = await sql<{ str_id: string | number; target_id: string | number; smiles: string; type: string | null; relation: string | null; um: number; ref_id: string | number | null; reference: string | null }>`
      SELECT DISTINCT ON (a.str_id, a.target_id) a.str_id, a.target_id, s.canonical_smiles AS smiles, a.std_activity_type AS type,
        a.std_act_prefix AS relation, a.micro_molarvalue AS um, a.ref_id,
        coalesce(d.reference, d.title, nullif(concat_ws(' ', d.journal_patent_name, d.year::text), ''), d.chembl_id) AS reference
      FROM activities a JOIN structures s ON s.str_id = a.str_id LEFT JOIN documents d ON d.ref_id = a.ref_id
      WHERE a.str_id = ANY(${`{${strIds.join(',')}}`}::bigint[]) AND a.target_id = ANY(${`{${targetIds.join(',')}}`}::bigint[]) AND ${potencyPredicate()}
      ORDER BY a.str_id, a.target_id, a.micro_molarvalue, a.act_id`.execute(this.db);
    const byPair = new Map(rows.map((row) => [`${Number(row.str_id)}:${Number(row.target_id)}`, row]));
    for (const { key, targetId, ref } of wanted) {
      const row = byPair.get(`${ref.strId}:${targetId}`);
      if (!row) continue;
      const list = result.get(key) ?? [];
      list.push({
        strId: ref.strId,
        smiles: row.smiles,
        similarity: ref.similarity,
        activityType: row.type,
        relation: row.relation,
        valueNm: row.um * 1000,
        pActivity: pActivity(row.um * 1000),
        refId: row.ref_id === null ? null : Number(row.ref_id),
        reference: row.reference,
      });
      result.set(key, list);
    }
    return result;
  }

  /** The potency measurements of these structures per ensemble target (best value, type, count). */
  private async measuredOn(data: EnsembleData, strIds: readonly number[]): Promise<Map<number, Map<number, MeasuredRow>>> {
    const result = new Map<number, Map<number, MeasuredRow>>();
    if (strIds.length === 0) return result;
    const { rows } = await sql<{ str_id: string | number; target_id: string | number; um: number; n: number; type: string | null }>`
      SELECT a.str_id, a.target_id, min(a.micro_molarvalue) AS um, count(*)::int AS n,
        (array_agg(a.std_activity_type ORDER BY a.micro_molarvalue))[1] AS type
      FROM activities a WHERE a.str_id = ANY(${`{${strIds.join(',')}}`}::bigint[]) AND a.target_id IS NOT NULL AND ${potencyPredicate()}
      GROUP BY a.str_id, a.target_id`.execute(this.db);
    for (const row of rows) {
      const target = data.byTargetId.get(Number(row.target_id));
      if (target === undefined) continue;
      const perStructure = result.get(Number(row.str_id)) ?? new Map<number, MeasuredRow>();
      perStructure.set(target, { nm: row.um * 1000, count: row.n, type: row.type });
      result.set(Number(row.str_id), perStructure);
    }
    return result;
  }

  /** Actives and background for the knowledge base as it is now (read again after each load). */
  private async ensemble(): Promise<EnsembleData> {
    const { version } = await loadsState(this.db);
    const current = this.data;
    if (current) {
      const data = await current.catch(() => null);
      if (data && data.version === version) return data;
      if (this.data !== current) return this.ensemble();
    }
    const loading = this.readEnsemble(version);
    this.data = loading;
    loading.catch(() => {
      if (this.data === loading) this.data = null;
    });
    return loading;
  }

  private async readEnsemble(version: string): Promise<EnsembleData> {
    const started = performance.now();
    const set = await readActiveSet(this.db);
    const background = await estimateBackground(this.db, this.engine, set, version);
    const byChemblId = new Map<string, number>();
    const byTargetId = new Map<number, number>();
    set.targets.forEach((target, index) => {
      if (target.chemblId) byChemblId.set(target.chemblId, index);
      byTargetId.set(target.targetId, index);
    });
    this.log(`target prediction: ${set.targetOf.length} active pairs on ${set.strIds.length} structures, background from ${background.queries} queries, in ${Math.round(performance.now() - started)} ms`);
    return { version, set, background, byChemblId, byTargetId };
  }
}

interface MeasuredRow {
  nm: number;
  count: number;
  type: string | null;
}

function pActivity(nm: number): number {
  return Math.round((9 - Math.log10(nm)) * 100) / 100;
}

/** The ensemble's E-value of a listed target; null when no active reaches its threshold. */
function ensembleEValue(entry: RankedTarget): number | null {
  const score = entry.ensemble;
  return score && score.hits > 0 && Number.isFinite(score.eValue) ? score.eValue : null;
}
