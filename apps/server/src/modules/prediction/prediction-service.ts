import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { PREDICTION_DISCLAIMER, PREDICTION_DOMAIN_MIN_SIMILARITY, PREDICTION_EVIDENCE_MAX } from '@kb/contracts/prediction';
import type {
  BatchPrediction,
  EvidenceCompound,
  PredictBatchResponse,
  PredictTargetsResponse,
  PredictedTarget,
} from '@kb/contracts/prediction';
import type { Database } from '../../db/schema.ts';
import { ChemInputError, ChemSearchCancelled } from '../chemistry/chem-engine.ts';
import { byCanonicalSmiles } from '../chemistry/chem-query.ts';
import type { ChemEngine, ChemQuery } from '../chemistry/chem-engine.ts';
import { loadsState } from '../knowledge-base/kb-loads.ts';
import { ActiveScan, storedFingerprint } from './active-scan.ts';
import { potencyPredicate, readActiveSet } from './active-index.ts';
import { estimateModelBackground, modelZ } from './model-background.ts';
import { rankTargets } from './rank-targets.ts';
import type { ModelOutputs, RankedTarget } from './rank-targets.ts';
import type { ModelBackground } from './model-background.ts';
import type { MultitaskModel } from './multitask/multitask-model.ts';
import type { ModelRegistry } from './model-registry.ts';
import { estimateBackground } from './background.ts';
import { ENSEMBLE_THRESHOLD, nearestActive, scoreTargets, withoutStructures } from './similarity-ensemble.ts';
import type { ActiveSet, Background, EnsembleTarget, Neighbour } from './similarity-ensemble.ts';

/**
 * Similarities below this are not searched: the ensemble counts nothing below its threshold, and
 * the domain's nearest active matters only up to the domain's.
 */
export const SCAN_MIN_SIMILARITY = Math.min(ENSEMBLE_THRESHOLD, PREDICTION_DOMAIN_MIN_SIMILARITY);

interface EnsembleData {
  version: string;
  set: ActiveSet;
  /** The actives' fingerprints, scanned for neighbours (active-scan.ts). */
  scan: ActiveScan;
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
  private readonly retiring = new Set<ActiveScan>();
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
    if (query.kind === 'smarts')
      throw new ChemInputError('Target prediction compares whole molecules: enter a SMILES or a molfile, not a SMARTS pattern.');
    const described = await this.engine.describe(query);
    if (!described.morgan) throw new ChemInputError('RDKit could not compute a fingerprint for the query.');
    const smiles = described.smiles ?? query.text;
    const strId = await this.storedStructure(smiles);
    const [neighbours] = await this.scan(data, [described.morgan], signal);
    const prediction = await this.rank(data, { smiles, strId, morgan: described.morgan }, neighbours!, limit);
    const top = prediction.ranked.slice(0, limit);
    const measured =
      prediction.strId !== null ? await this.measuredOn(data, [prediction.strId]) : new Map<number, Map<number, MeasuredRow>>();
    const own =
      prediction.strId !== null ? (measured.get(prediction.strId) ?? new Map<number, MeasuredRow>()) : new Map<number, MeasuredRow>();
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
      targets: top.map((entry, index) =>
        this.describeTarget(data, entry, index + 1, evidence.get(entry.key) ?? [], own.get(entry.target) ?? null),
      ),
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
    limit: number,
    signal: AbortSignal = new AbortController().signal,
  ): Promise<PredictBatchResponse> {
    const started = performance.now();
    const data = await this.ensemble();
    const stored = await storedFingerprints(this.db, strIds);
    const measured = await this.measuredOn(data, [...stored.keys()]);
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
    const found = await this.scan(
      data,
      scanned.map((strId) => stored.get(strId)!.morgan!),
      signal,
    );
    const neighboursOf = new Map(scanned.map((strId, k) => [strId, found[k]!]));
    const predictions: BatchPrediction[] = [];
    for (const strId of strIds) {
      const row = stored.get(strId);
      const neighbours = neighboursOf.get(strId);
      if (!row) predictions.push({ strId, error: `There is no structure ${strId} in the knowledge base.`, inDomain: false, targets: [] });
      else if (!neighbours || !row.morgan)
        predictions.push({ strId, error: errors.get(strId) ?? `Structure ${strId} could not be predicted.`, inDomain: false, targets: [] });
      else
        predictions.push(
          this.batchEntry(
            data,
            await this.rank(data, { smiles: row.smiles, strId, morgan: row.morgan }, neighbours, limit),
            measured.get(strId),
            limit,
          ),
        );
    }
    return { predictions, model: this.models.status(), elapsedMs: Math.round(performance.now() - started) };
  }

  private batchEntry(
    data: EnsembleData,
    prediction: Prediction,
    measured: Map<number, MeasuredRow> | undefined,
    limit: number,
  ): BatchPrediction {
    return {
      strId: prediction.strId!,
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
  }

  /** Active neighbours of each fingerprint from the scan's threshold on; a caller that left stops the work. */
  private async scan(data: EnsembleData, fingerprints: Uint8Array[], signal: AbortSignal): Promise<Neighbour[][]> {
    if (signal.aborted) throw new ChemSearchCancelled('The prediction was cancelled.');
    if (fingerprints.length === 0) return [];
    const found = await data.scan.neighbours(fingerprints, SCAN_MIN_SIMILARITY);
    if (signal.aborted) throw new ChemSearchCancelled('The prediction was cancelled.');
    return found;
  }

  /** Both predictors and the combination for one structure and its active neighbours. */
  private async rank(
    data: EnsembleData,
    query: { smiles: string; strId: number | null; morgan: Uint8Array },
    neighbours: Neighbour[],
    limit: number,
  ): Promise<Prediction> {
    const { smiles, strId } = query;
    // The compound's own measurements are shown as measured, never used as evidence for it.
    const exclude = (id: number) => id === strId;
    const ensemble = scoreTargets(neighbours, data.set, data.background, { exclude, evidence: PREDICTION_EVIDENCE_MAX });
    const outputs = await this.modelOutputs(data, query.morgan);
    const { ranked, modelOnlyInTop10 } = rankTargets(data.set, ensemble, outputs, (chemblId) => data.byChemblId.get(chemblId));
    return {
      smiles,
      strId,
      neighbours,
      nearest: nearestActive(neighbours, data.set, exclude),
      ranked: ranked.slice(0, Math.max(limit, 1)),
      modelOnlyInTop10,
    };
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

  private async storedStructure(canonical: string): Promise<number | null> {
    const { rows } = await sql<{ str_id: string | number }>`${byCanonicalSmiles(canonical)} LIMIT 1`.execute(this.db);
    return rows[0] ? Number(rows[0].str_id) : null;
  }

  private describeTarget(
    data: EnsembleData,
    entry: RankedTarget,
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
      multitask:
        entry.probability !== null ? { probability: entry.probability, zScore: entry.modelZ ?? 0, eValue: entry.modelE ?? 0 } : null,
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

  /** The evidence compounds of the listed targets: SMILES and the best measurement behind each (with its document). */
  private async evidenceOf(data: EnsembleData, top: readonly RankedTarget[]): Promise<Map<string, EvidenceCompound[]>> {
    const wanted = top.flatMap((entry) =>
      entry.ensemble
        ? entry.ensemble.evidence.map((ref) => ({ key: entry.key, targetId: data.set.targets[entry.ensemble!.target]!.targetId, ref }))
        : [],
    );
    const result = new Map<string, EvidenceCompound[]>();
    if (wanted.length === 0) return result;
    const strIds = [...new Set(wanted.map((w) => w.ref.strId))];
    const targetIds = [...new Set(wanted.map((w) => w.targetId))];
    const { rows } = await sql<{
      str_id: string | number;
      target_id: string | number;
      smiles: string;
      type: string | null;
      relation: string | null;
      um: number;
      ref_id: string | number | null;
      reference: string | null;
    }>`
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
    const set = withoutStructures(read, scan.withoutFingerprint);
    let background: Background;
    try {
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
    return { version, set, scan, background, byChemblId, byTargetId };
  }
}

/** How long a replaced version's scan stays up for the predictions that started on it. */
const RETIRE_AFTER_MS = 60_000;

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

interface StoredStructure {
  smiles: string;
  morgan: Uint8Array | null;
}

/** SMILES and stored Morgan fingerprint of these structures (absent: no such structure). */
async function storedFingerprints(db: Kysely<Database>, strIds: readonly number[]): Promise<Map<number, StoredStructure>> {
  const { rows } = await sql<{
    str_id: string | number;
    canonical_smiles: string;
    fp: string | null;
  }>`SELECT str_id, canonical_smiles, encode(morgan_fp, 'base64') AS fp
    FROM structures WHERE str_id = ANY(${`{${strIds.join(',')}}`}::bigint[])`.execute(db);
  return new Map(rows.map((row) => [Number(row.str_id), { smiles: row.canonical_smiles, morgan: storedFingerprint(row.fp) }]));
}
