import { z } from 'zod';
import { defineEndpoint } from './endpoint.ts';
import { SEARCH_ROLES } from './roles.ts';

/**
 * Target prediction (docs/prediction.md): which targets a structure probably hits, from two
 * predictors shown side by side and combined — the knowledge-base similarity ensemble (SEA-like,
 * always available) and the ChEMBL multitask neural network (when an administrator installed a
 * model file). Predictions are hypotheses, not measurements.
 */

// ---------------------------------------------------------------- families and thresholds

/** Target families with their own potency threshold for "active" (the multitask model's training rules). */
export const TARGET_FAMILIES = ['kinase', 'gpcr', 'nuclear receptor', 'ion channel', 'other'] as const;
export type TargetFamily = (typeof TARGET_FAMILIES)[number];
export const TargetFamilySchema = z.enum(TARGET_FAMILIES);

/** A measured potency at or below this (nM) makes a compound an active of a target of the family. */
export const ACTIVE_THRESHOLD_NM: Record<TargetFamily, number> = {
  kinase: 30,
  gpcr: 100,
  'nuclear receptor': 100,
  'ion channel': 10_000,
  other: 1_000,
};

export const TARGET_FAMILY_LABELS: Record<TargetFamily, string> = {
  kinase: 'Kinase',
  gpcr: 'GPCR',
  'nuclear receptor': 'Nuclear receptor',
  'ion channel': 'Ion channel',
  other: 'Other',
};

/** Below this Tanimoto (Morgan r=2) to the nearest active, a structure is outside the data's domain. */
export const PREDICTION_DOMAIN_MIN_SIMILARITY = 0.3;
/** Predicted targets answered per structure at most. */
export const PREDICTION_LIMIT_MAX = 50;
/** Evidence compounds (nearest actives) per predicted target at most. */
export const PREDICTION_EVIDENCE_MAX = 5;
/** Structures per batch call (a selection is sent in batches, with progress between them). */
export const PREDICTION_BATCH_MAX = 50;
/**
 * Batch calls a client keeps in flight for one selection: the server ranks one batch's answers on
 * its main thread while the scan workers score the next (docs/prediction.md "Speed").
 */
export const PREDICTION_BATCH_CONCURRENCY = 2;
/** A selection's size at most (the web sends it in batches). */
export const PREDICTION_SELECTION_MAX = 1_000;

/**
 * A target is listed when its calibrated probability of "active on this target" is at least this
 * (docs/prediction.md "Probabilities"); below it for every target, the answer is "no target
 * predicted with confidence". A caller may ask for weaker ones (`minProbability`).
 */
export const PREDICTION_CONFIDENT_PROBABILITY = 0.2;
/**
 * Model-only targets (no actives in the knowledge base) are shown when the model's lift reaches
 * this E-value or lower: no more than one of its targets is expected to be lifted this high by chance.
 */
export const PREDICTION_MODEL_ONLY_MAX_E = 1;
/** Model-only targets shown at most. */
export const PREDICTION_MODEL_ONLY_MAX = 10;
/** Nearest measured compounds shown when nothing is predicted with confidence. */
export const PREDICTION_NEAREST_MAX = 5;

export const PREDICTION_DISCLAIMER =
  'Predictions are hypotheses from similar measured compounds and a machine-learning model, not measurements: confirm them by experiment.';

// ---------------------------------------------------------------- request

export const PredictionStructureSchema = z.object({
  kind: z.enum(['smiles', 'molfile']),
  // Not trimmed: a molfile's first lines may be blank. Bounded again by the engine's query limits.
  text: z
    .string()
    .max(131_072, 'The structure is too long: at most 128 KiB')
    .refine((v) => v.trim().length > 0, 'Enter a structure: draw it, or type SMILES or a molfile'),
  /** Largest fragment only (salts and solvents dropped), as structure search does by default. */
  desalt: z.boolean().default(true),
});

export const PredictTargetsRequestSchema = z.object({
  structure: PredictionStructureSchema,
  /** Targets to list (the most probable first). */
  limit: z.number().int().min(1).max(PREDICTION_LIMIT_MAX).default(15),
  /** Only targets with a calibrated probability at least this (0 lists every candidate). */
  minProbability: z.number().min(0).max(1).default(PREDICTION_CONFIDENT_PROBABILITY),
});
export type PredictTargetsRequest = z.input<typeof PredictTargetsRequestSchema>;

export const PredictBatchRequestSchema = z.object({
  /** Structures of the knowledge base (str_id), e.g. the selected rows of a result tab. */
  strIds: z
    .array(z.number().int().positive().max(Number.MAX_SAFE_INTEGER))
    .min(1, 'Select at least one structure')
    .max(PREDICTION_BATCH_MAX, `At most ${PREDICTION_BATCH_MAX} structures per call; send a larger selection in batches`),
  /** Targets to answer per structure. */
  limit: z.number().int().min(1).max(PREDICTION_LIMIT_MAX).default(10),
  /** Only targets with a calibrated probability at least this. */
  minProbability: z.number().min(0).max(1).default(PREDICTION_CONFIDENT_PROBABILITY),
});
export type PredictBatchRequest = z.input<typeof PredictBatchRequestSchema>;

// ---------------------------------------------------------------- response

export const EvidenceCompoundSchema = z.object({
  strId: z.number().int(),
  smiles: z.string(),
  /** Tanimoto (Morgan r=2, 2,048 bits) to the query. */
  similarity: z.number(),
  /** Its best measured potency on the target: type, relation, value in nM, pActivity. */
  activityType: z.string().nullable(),
  relation: z.string().nullable(),
  valueNm: z.number(),
  pActivity: z.number(),
  /** The document of that measurement. */
  refId: z.number().int().nullable(),
  reference: z.string().nullable(),
});
export type EvidenceCompound = z.infer<typeof EvidenceCompoundSchema>;

export const MeasuredOnTargetSchema = z.object({
  /** Best (lowest) measured potency of the query compound on the target, nM. */
  bestNm: z.number(),
  pActivity: z.number(),
  activityType: z.string().nullable(),
  /** Measurements with a potency in nM. */
  count: z.number().int(),
  /** At or below the family's threshold. */
  active: z.boolean(),
});

export const PredictedTargetSchema = z.object({
  /** The knowledge base's target (only targets it holds with actives are listed here; the model's others are `modelOnly`). */
  targetId: z.number().int(),
  chemblId: z.string().nullable(),
  name: z.string(),
  geneSymbol: z.string().nullable(),
  organism: z.string().nullable(),
  family: TargetFamilySchema,
  thresholdNm: z.number(),
  /**
   * The calibrated probability that the query is active on the target (at or below the family's
   * threshold), from both predictors and the target's own applicability domain, fitted on the
   * knowledge base's compounds with their documents held out (docs/prediction.md "Probabilities").
   * The list is ordered by it.
   */
  probability: z.number(),
  /**
   * Rank by each order (1 = best) and combined; null where an order has nothing for it: `nearest`
   * by the nearest active's Tanimoto, `similarity` by the ensemble's E-value, `multitask` by the
   * model's lift among the targets the knowledge base holds with actives.
   */
  ranks: z.object({
    combined: z.number().int(),
    nearest: z.number().int().nullable(),
    similarity: z.number().int().nullable(),
    multitask: z.number().int().nullable(),
  }),
  /** The target's own applicability domain: how near its nearest active is, and how much data it rests on. */
  domain: z.object({
    /** Tanimoto of the target's nearest active (a different parent than the query); null below the scan's minimum. */
    nearestSimilarity: z.number().nullable(),
    /** Active compounds (distinct parents are counted once in the evidence, not here). */
    actives: z.number().int(),
    /** Documents its actives come from (each active in its first document). */
    documents: z.number().int(),
  }),
  similarity: z
    .object({
      /** Expected number of targets scoring this well by chance (lower is stronger); null when no active reaches the ensemble's threshold. */
      eValue: z.number().nullable(),
      /** Sum of Tanimoto over the target's nearest actives (one per parent) at or above the ensemble's threshold. */
      rawScore: z.number(),
      maxSimilarity: z.number(),
      /** Actives of the target in the knowledge base (by the family threshold). */
      actives: z.number().int(),
      /** Its actives (distinct parents) at or above the ensemble's threshold. */
      hits: z.number().int(),
      /** The ensemble's own calibrated probability (nearest active and E-value alone). */
      probability: z.number(),
    })
    .nullable(),
  /**
   * The model's raw output, how far the query lifts it above what the knowledge base's own
   * structures get on this target (z-score of the logit; its E-value), and the model's own
   * calibrated probability (from the lift): raw outputs do not compare across targets.
   */
  multitask: z.object({ rawProbability: z.number(), zScore: z.number(), eValue: z.number(), probability: z.number() }).nullable(),
  /** The nearest actives of the target (one per parent structure): why it is predicted. */
  evidence: z.array(EvidenceCompoundSchema),
  /** The query compound's own measurements on the target (it is in the knowledge base and was measured). */
  measured: MeasuredOnTargetSchema.nullable(),
});
export type PredictedTarget = z.infer<typeof PredictedTargetSchema>;

export const PredictionDomainSchema = z.object({
  /** Tanimoto of the nearest active in the knowledge base; null when none reaches `scanMin`. */
  nearestSimilarity: z.number().nullable(),
  nearestStrId: z.number().int().nullable(),
  threshold: z.number(),
  /** Similarities below this were not searched. */
  scanMin: z.number(),
  inDomain: z.boolean(),
  /** The warning shown when out of domain. */
  message: z.string().nullable(),
});

/** A target of the knowledge base a model-only target corresponds to. */
export const RelatedTargetSchema = z.object({
  targetId: z.number().int(),
  chemblId: z.string().nullable(),
  name: z.string(),
  organism: z.string().nullable(),
  /**
   * `same protein`: the same UniProt accession in another target record; `component`: the protein
   * is a component of this complex, fusion or family (Bcr/Abl and ABL1), or the other way round;
   * `orthologue`: the same protein name in another organism.
   */
  relation: z.enum(['same protein', 'component', 'orthologue']),
  /** Actives of that target in the knowledge base. */
  actives: z.number().int(),
});
export type RelatedTarget = z.infer<typeof RelatedTargetSchema>;

/** A target of the model with no actives in the knowledge base, significant by the model's lift. */
export const ModelOnlyTargetSchema = z.object({
  chemblId: z.string(),
  /** Its name and organism when the knowledge base holds the target record (without actives); null otherwise. */
  name: z.string().nullable(),
  organism: z.string().nullable(),
  /** The model's own calibrated probability (from the lift; calibrated on the knowledge base's model targets). */
  probability: z.number(),
  rawProbability: z.number(),
  zScore: z.number(),
  eValue: z.number(),
  related: z.array(RelatedTargetSchema),
});
export type ModelOnlyTarget = z.infer<typeof ModelOnlyTargetSchema>;

/** A measured compound near the query (shown when no target is predicted with confidence). */
export const NearestCompoundSchema = z.object({
  strId: z.number().int(),
  smiles: z.string(),
  similarity: z.number(),
  /** Targets it is active on, most potent first (at most 3). */
  activeOn: z.array(z.object({ targetId: z.number().int(), name: z.string(), valueNm: z.number(), pActivity: z.number() })),
});
export type NearestCompound = z.infer<typeof NearestCompoundSchema>;

/** How the probabilities were calibrated (docs/prediction.md "Probabilities"). */
export const CalibrationInfoSchema = z.object({
  /** `knowledge base`: fitted on this knowledge base's actives with their documents held out; `default`: too few for a fit, the coefficients fitted on the ChEMBL subset. */
  source: z.enum(['knowledge base', 'default']),
  queries: z.number().int(),
  pairs: z.number().int(),
  positives: z.number().int(),
  /** Brier score of the fit on its own held-out pairs (lower is better); null for the default. */
  brier: z.number().nullable(),
  /** The probability a listed target reaches at least. */
  threshold: z.number(),
});
export type CalibrationInfo = z.infer<typeof CalibrationInfoSchema>;

export const ModelStatusSchema = z.object({
  state: z.enum(['installed', 'not-installed', 'failed']),
  /** E.g. "ChEMBL 37 multitask"; null when none. */
  name: z.string().nullable(),
  targets: z.number().int(),
  /** What to do when not installed or failed (where to get a model file, what was wrong). */
  message: z.string().nullable(),
});
export type ModelStatus = z.infer<typeof ModelStatusSchema>;

export const PredictTargetsResponseSchema = z.object({
  query: z.object({
    smiles: z.string(),
    /** The knowledge base's structure, when the query is one of them. */
    strId: z.number().int().nullable(),
  }),
  domain: PredictionDomainSchema,
  model: ModelStatusSchema,
  /** Targets with measurements for the query compound that are not in `targets`. */
  measuredElsewhere: z.number().int(),
  /** Targets at or above `calibration.threshold`, most probable first. */
  targets: z.array(PredictedTargetSchema),
  /** Candidates (with a near active or the model's lift) below the threshold, not listed. */
  belowThreshold: z.number().int(),
  /** Set when no target reaches the threshold: "no target predicted with confidence", with the nearest measured compounds. */
  abstention: z.object({ message: z.string(), nearest: z.array(NearestCompoundSchema) }).nullable(),
  /** The model's significant targets that have no actives here (no measurements in this knowledge base). */
  modelOnly: z.array(ModelOnlyTargetSchema),
  calibration: CalibrationInfoSchema,
  /** Active pairs, targets and the background the similarity ensemble used. */
  ensemble: z.object({ targets: z.number().int(), actives: z.number().int(), threshold: z.number() }),
  disclaimer: z.string(),
  elapsedMs: z.number(),
});
export type PredictTargetsResponse = z.infer<typeof PredictTargetsResponseSchema>;

/** One structure of a batch: its best targets, compact (no evidence structures). */
export const BatchPredictionSchema = z.object({
  strId: z.number().int(),
  /** Null when the structure could not be predicted (unknown id, unreadable); `error` says why. */
  error: z.string().nullable(),
  inDomain: z.boolean(),
  /** No target reached the threshold (no confident prediction for this compound). */
  abstained: z.boolean(),
  targets: z.array(
    z.object({
      targetId: z.number().int(),
      chemblId: z.string().nullable(),
      name: z.string(),
      geneSymbol: z.string().nullable(),
      family: TargetFamilySchema,
      /** Calibrated probability of "active on this target" (the order). */
      probability: z.number(),
      eValue: z.number().nullable(),
      /** The model's raw output, null without a model or for a target not the model's. */
      modelProbability: z.number().nullable(),
      /** The compound was measured on the target (any potency). */
      measured: z.boolean(),
    }),
  ),
});
export type BatchPrediction = z.infer<typeof BatchPredictionSchema>;

export const PredictBatchResponseSchema = z.object({
  predictions: z.array(BatchPredictionSchema),
  model: ModelStatusSchema,
  elapsedMs: z.number(),
});
export type PredictBatchResponse = z.infer<typeof PredictBatchResponseSchema>;

// ---------------------------------------------------------------- a selection, aggregated

/** A target predicted for some compounds of a selection: the off-target view. */
export interface AggregatedTarget {
  key: string;
  targetId: number;
  chemblId: string | null;
  name: string;
  geneSymbol: string | null;
  family: TargetFamily;
  /** Compounds that have it among their predicted targets, and of those, measured on it. */
  predicted: number;
  measured: number;
  /** Predicted but never measured: the off-target hypotheses. */
  unmeasured: number;
  /** Mean calibrated probability over the compounds predicting it, and the best. */
  meanProbability: number;
  bestProbability: number;
}

/** Sums batch answers per target (only the targets each compound predicts with confidence), most compounds first (ties: best probability). Pure: the web and scripts share it. */
export function aggregatePredictions(predictions: readonly BatchPrediction[]): AggregatedTarget[] {
  const byKey = new Map<string, AggregatedTarget & { total: number }>();
  for (const prediction of predictions) {
    for (const target of prediction.targets) {
      const key = `t${target.targetId}`;
      let entry = byKey.get(key);
      if (!entry) {
        entry = {
          key,
          targetId: target.targetId,
          chemblId: target.chemblId,
          name: target.name,
          geneSymbol: target.geneSymbol,
          family: target.family,
          predicted: 0,
          measured: 0,
          unmeasured: 0,
          meanProbability: 0,
          bestProbability: 0,
          total: 0,
        };
        byKey.set(key, entry);
      }
      entry.predicted += 1;
      if (target.measured) entry.measured += 1;
      else entry.unmeasured += 1;
      entry.total += target.probability;
      entry.bestProbability = Math.max(entry.bestProbability, target.probability);
    }
  }
  return [...byKey.values()]
    .map(({ total, ...entry }) => ({ ...entry, meanProbability: entry.predicted > 0 ? total / entry.predicted : 0 }))
    .sort((a, b) => b.predicted - a.predicted || b.bestProbability - a.bestProbability || a.name.localeCompare(b.name));
}

// ---------------------------------------------------------------- model administration

/** Largest model file accepted (the ChEMBL 37 model is 3.1 MB; the unquantised one ≈ 12 MB). */
export const MODEL_FILE_MAX_BYTES = 64 * 1024 * 1024;
export const MODEL_TARGETS_MAX_BYTES = 1024 * 1024;
/** Target ids of a model's target list (ChEMBL target ids), and how many it may hold. */
export const CHEMBL_TARGET_ID = /^CHEMBL\d{1,12}$/;
export const MODEL_TARGETS_MAX = 20_000;

const SUPER = ['SUPER_ADMIN'] as const;

/** A model file as a super admin uploads it: the ONNX file (base64) and its target list. */
export const ModelInstallRequestSchema = z.object({
  /** Shown to users, e.g. "ChEMBL 37 multitask". */
  name: z.string().trim().min(1, 'Name the model').max(100),
  /** The .onnx file, base64. */
  modelBase64: z
    .string()
    .min(1, 'Choose the model file (.onnx)')
    .max(Math.ceil((64 * 1024 * 1024 * 4) / 3) + 4, 'The model file is larger than 64 MiB')
    .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'The model file must be sent as base64'),
  /** The target ChEMBL ids in the order of the model's outputs (targets_NN_all.json). */
  targets: z.array(z.string().regex(CHEMBL_TARGET_ID, 'Each target is a ChEMBL id such as CHEMBL203')).min(1).max(MODEL_TARGETS_MAX),
});
export type ModelInstallRequest = z.input<typeof ModelInstallRequestSchema>;

export const predictionEndpoints = {
  predictTargets: defineEndpoint({
    method: 'POST',
    path: '/api/prediction/targets',
    access: SEARCH_ROLES,
    summary:
      'Predicted targets of a drawn or typed structure: similarity ensemble, multitask model and combined, with the nearest measured actives as evidence.',
    body: PredictTargetsRequestSchema,
    response: PredictTargetsResponseSchema,
  }),
  predictBatch: defineEndpoint({
    method: 'POST',
    path: '/api/prediction/targets/batch',
    access: SEARCH_ROLES,
    summary:
      'Predicted targets of up to 50 knowledge-base structures (a selection is sent in batches); aggregate with aggregatePredictions.',
    body: PredictBatchRequestSchema,
    response: PredictBatchResponseSchema,
  }),
  installModel: defineEndpoint({
    method: 'POST',
    path: '/api/superadmin/prediction/model',
    access: SUPER,
    summary:
      'Installs a multitask model file (ONNX, base64) with its target list into the model folder (PREDICTION_MODEL_DIR), after checking that it runs; 400 with the reason when it does not.',
    body: ModelInstallRequestSchema,
    response: ModelStatusSchema,
    bodyLimit: 96 * 1024 * 1024,
  }),
  reloadModel: defineEndpoint({
    method: 'POST',
    path: '/api/superadmin/prediction/model/reload',
    access: SUPER,
    summary: 'Reads the model folder again (a model file an administrator placed there).',
    response: ModelStatusSchema,
  }),
  adminModelStatus: defineEndpoint({
    method: 'GET',
    path: '/api/superadmin/prediction/model',
    access: SUPER,
    summary: 'The model’s state for a super admin: also names the model folder and, for a model that failed, what was wrong with it.',
    response: ModelStatusSchema,
  }),
  modelStatus: defineEndpoint({
    method: 'GET',
    path: '/api/prediction/model',
    access: 'authenticated',
    summary: 'Whether a multitask model file is installed, and where to get one.',
    response: ModelStatusSchema,
  }),
};
