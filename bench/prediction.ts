// `npm run bench -- prediction [--docs N] [--seed 1] [--min-compounds 3] [--background 200]`:
// the quality of target prediction (issue 38) on the real ChEMBL subset in ../shared/data, leaving
// one document out at a time so that a paper's near-duplicates never help predict each other.
//
// Held out: every document with ≥ --min-compounds structures active in it (about 880; 4–5 minutes
// on two cores), or --docs N of them drawn at random with --seed (150: about a minute). A fold's
// test compounds are the document's structures with an active measurement in it; their truth is
// the targets they are active on IN that document. Training is every other active, without the
// document's measurements and without anything measured on the test structures anywhere (they are
// removed entirely). Per fold the actives are rebuilt and the ensemble's background fitted again.
// Predictors, all on the same compounds, scored by the product's own code
// (apps/server/src/modules/prediction): the similarity ensemble (scoreTargets order), the multitask
// model as the service ranks it (z-score of the logit against the data's own structures; recall
// over the true targets that are model targets), the service's combination, and baselines: the
// nearest neighbour (targets by their single most similar training active), popularity (targets by
// their number of actives) and the model's raw probabilities (how ChEMBL's own demo ranks).
// Figures are split by the applicability domain (nearest training active ≥ 0.3 or not). The
// multitask model was trained on ChEMBL 37, which holds these very compounds and documents: its
// figures are optimistic and nothing here can remove that.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { PREDICTION_DOMAIN_MIN_SIMILARITY, PREDICTION_EVIDENCE_MAX } from '@kb/contracts/prediction';
import { BACKGROUND_QUERIES } from '../apps/server/src/modules/prediction/background.ts';
import { modelZ } from '../apps/server/src/modules/prediction/model-background.ts';
import { loadMultitaskModel, readModelFolder } from '../apps/server/src/modules/prediction/multitask/multitask-model.ts';
import type { MultitaskModel } from '../apps/server/src/modules/prediction/multitask/multitask-model.ts';
import { SCAN_MIN_SIMILARITY } from '../apps/server/src/modules/prediction/prediction-service.ts';
import {
  ENSEMBLE_THRESHOLD,
  buildActiveSet,
  fitBackground,
  withParents,
  nearestActive,
  rawScoresOf,
  scoreTargets,
} from '../apps/server/src/modules/prediction/similarity-ensemble.ts';
import type { ActivePair, Background, Neighbour } from '../apps/server/src/modules/prediction/similarity-ensemble.ts';
import { summary, writeResult } from './support/bench-kit.ts';
import { fitCalibration } from '../apps/server/src/modules/prediction/calibration.ts';
import { calibrationFigures, crossFitted, defaultCoefficients, labelled } from './support/prediction-calibration.ts';
import type { EvaluatedCompound } from './support/prediction-calibration.ts';
import { TanimotoScan, readSubset } from './support/prediction-data.ts';
import { RecallTally, keyOf, seededRandom, shuffled } from './support/prediction-rank.ts';
import { estimateModelBackground, hashText, nearestNeighbourRanking } from './support/prediction-baselines.ts';
import type { TargetKey } from './support/prediction-rank.ts';
import { rankTargets } from '../apps/server/src/modules/prediction/rank-targets.ts';
import { FUSION_K, FUSION_WEIGHTS } from '../apps/server/src/modules/prediction/combine.ts';
import type { ModelOutputs } from '../apps/server/src/modules/prediction/rank-targets.ts';

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== '--'),
  options: {
    docs: { type: 'string', default: 'all' },
    seed: { type: 'string', default: '1' },
    'min-compounds': { type: 'string', default: '3' },
    background: { type: 'string', default: String(BACKGROUND_QUERIES) },
    /** Also write every split's evaluated compounds and their candidates' features (for studying the calibration offline). */
    'dump-pairs': { type: 'string' },
  },
});
const docCount = values.docs === undefined || values.docs === 'all' ? Infinity : Number.parseInt(values.docs, 10);
const seed = Number.parseInt(values.seed ?? '1', 10);
const minCompounds = Number.parseInt(values['min-compounds'] ?? '3', 10);
const backgroundQueries = Number.parseInt(values.background ?? String(BACKGROUND_QUERIES), 10);
/** The nearest-neighbour baseline looks further down than the service's scan, so that it ranks something for nearly every compound. */
const NN_SCAN_MIN = 0.1;

const root = path.resolve(import.meta.dirname, '..');
const dataFile = path.resolve(root, '..', 'shared', 'data', 'chembl-subset', 'chembl_subset.db');
const modelDir = path.resolve(root, '..', 'shared', 'models', 'chembl-multitask');
if (!fs.existsSync(dataFile)) {
  console.log(`prediction: skipped: ../shared/data absent (${dataFile})`);
  process.exit(0);
}
const progress = (message: string) => console.error(`prediction: ${message}`);
const startedAll = performance.now();

// ---- data: actives by the server's rule, structures and fingerprints as the knowledge base stores them
const data = await readSubset(dataFile, progress);
const scan = new TanimotoScan(data.fingerprints);
const modelFiles = await readModelFolder(modelDir);
const model: MultitaskModel | null = modelFiles ? await loadMultitaskModel(modelFiles) : null;
if (!model) progress(`no model in ${modelDir}: multitask and combined figures skipped`);
const modelTargetSet = new Set(model?.targets ?? []);
const targetOfChemblId = (chemblId: string) => data.targetByChemblId.get(chemblId) ?? null;
const onModel = (target: number) => modelTargetSet.has(data.targets[target]!.chemblId ?? '');
const activeTargets = new Set(data.records.map((record) => record.target));

// ---- held-out documents: those with ≥ minCompounds structures active in them
const inDoc = new Map<number, Map<number, Set<number>>>();
/** Every target each structure is active on, in any document (or none: the EGFR export). */
const activeAnywhere = new Map<number, Set<number>>();
for (const record of data.records) {
  const anywhere = activeAnywhere.get(record.strId) ?? new Set<number>();
  anywhere.add(record.target);
  activeAnywhere.set(record.strId, anywhere);
  if (record.docId === null) continue;
  const byStructure = inDoc.get(record.docId) ?? new Map<number, Set<number>>();
  const targets = byStructure.get(record.strId) ?? new Set<number>();
  targets.add(record.target);
  byStructure.set(record.strId, targets);
  inDoc.set(record.docId, byStructure);
}
const eligible = [...inDoc.entries()]
  .filter(([, byStructure]) => byStructure.size >= minCompounds)
  .map(([doc]) => doc)
  .sort((a, b) => a - b);
const heldOut = shuffled(eligible, seededRandom(seed))
  .slice(0, docCount)
  .sort((a, b) => a - b);
progress(
  `${data.smiles.length} structures, ${data.records.length} active activities; ${eligible.length} documents eligible, ${heldOut.length} held out`,
);

// ---- the backgrounds' sample, as background.ts takes it: every k-th structure by str_id. The
// ensemble scores each without itself and the structures of its own documents (neighbours from
// the ensemble threshold, scanned once; fitted per fold). The model's background (model-background.ts:
// mean and spread of each output's logit over the sample) is label-free, so estimated once.
const step = Math.max(1, Math.floor(data.smiles.length / backgroundQueries));
const backgroundSample: { strId: number; neighbours: Neighbour[]; siblings: Set<number> }[] = [];
for (let strId = 1; strId <= data.smiles.length && backgroundSample.length < backgroundQueries; strId += step) {
  const siblings = new Set<number>([strId]);
  for (const doc of data.docsOfStructure.get(strId) ?? []) for (const sibling of data.structuresOfDoc.get(doc) ?? []) siblings.add(sibling);
  backgroundSample.push({ strId, neighbours: scan.neighboursOf(strId, ENSEMBLE_THRESHOLD), siblings });
}
const modelBackground = model
  ? await estimateModelBackground(
      model,
      backgroundSample.map((query) => scan.fingerprint(query.strId, data.fingerprints)),
    )
  : null;

/** A structure's parent (its InChI's first component, parent-key.ts); null: none known. */
const parentOf = (strId: number): number | null => {
  const parent = data.parents[strId - 1];
  return parent === undefined || Number.isNaN(parent) ? null : parent;
};
const SCAFFOLD_FOLDS = 5;
// ---- the folds
type Predictor =
  | 'ensemble'
  | 'multitask'
  | 'combined'
  | 'nearestNeighbour'
  | 'popularity'
  | 'multitaskOnSubsetTargets'
  | 'multitaskRawProbability';
const PREDICTORS: Predictor[] = [
  'ensemble',
  'multitask',
  'combined',
  'nearestNeighbour',
  'popularity',
  'multitaskOnSubsetTargets',
  'multitaskRawProbability',
];
const isModelOnly = (predictor: Predictor) => predictor.startsWith('multitask');
type Split = 'all' | 'inDomain' | 'outOfDomain';
const SPLITS: Split[] = ['all', 'inDomain', 'outOfDomain'];
/** allTargets / modelTargets: active in the held-out document (on a model target); anyDocument: active anywhere in the subset (on a model target, for the model). */
type Truth = 'allTargets' | 'modelTargets' | 'anyDocument';
const TRUTHS: Truth[] = ['allTargets', 'modelTargets', 'anyDocument'];
const tallies = new Map<string, RecallTally>();
const tally = (predictor: Predictor, split: Split, truth: Truth) => {
  const key = `${predictor}/${split}/${truth}`;
  let found = tallies.get(key);
  if (!found) tallies.set(key, (found = new RecallTally()));
  return found;
};
const timings = {
  scanMs: [] as number[],
  ensembleMs: [] as number[],
  modelMs: [] as number[],
  combineMs: [] as number[],
  foldSetupMs: [] as number[],
};
const nearestSimilarities: number[] = [];
let withoutNearest = 0;
let identicalNearest = 0;
let inDomainCompounds = 0;
let evaluated = 0;
/** Combined lists whose first target has no active in the knowledge base (only the model names it). */
let combinedFirstModelOnly = 0;
const scoredTargetsPerFold: number[] = [];
const backgrounds: Background[] = [];
const modelCache = new Map<number, ModelOutputs>();
const perTarget = new Map<number, { pairs: number; ranks: Partial<Record<Predictor, number[]>> }>();
/** What a predictor put first when that was not a true target: "true → predicted" counts. */
const CONFUSED: Predictor[] = ['ensemble', 'multitask', 'combined', 'nearestNeighbour'];
const confusions = new Map<Predictor, Map<string, number>>();
const nameOfKey = (key: TargetKey) => {
  if (!key.startsWith('t')) return key.slice(1);
  const target = data.targets[Number(key.slice(1))]!;
  return `${target.name} (${target.chemblId}${target.organism && target.organism !== 'Homo sapiens' ? `, ${target.organism}` : ''})`;
};

/**
 * One fold of a validation split: `testSet` (structure → its true targets) held out entirely, and
 * every record `heldOutRecord` says. The document split also feeds the predictors' recall tallies;
 * every split collects its compounds' candidates for the calibration figures.
 */
async function runFold(
  split: ValidationSplit,
  testSet: Map<number, Set<number>>,
  heldOutRecord: (docId: number | null) => boolean,
  group: number,
) {
  const foldStarted = performance.now();
  // Training actives: best potency per (structure, target) without the held-out records and the test structures.
  const best = new Map<number, ActivePair>();
  for (const record of data.records) {
    if (heldOutRecord(record.docId) || testSet.has(record.strId)) continue;
    const key = record.strId * 65_536 + record.target;
    const known = best.get(key);
    if (!known || record.nm < known.nm) best.set(key, { strId: record.strId, target: record.target, nm: record.nm, docId: record.docId });
  }
  const set = withParents(buildActiveSet(data.targets, [...best.values()]), parentOf);
  const background = fitBackground(
    backgroundSample
      .filter((query) => !testSet.has(query.strId))
      .map((query) => rawScoresOf(query.neighbours, set, (id) => query.siblings.has(id), undefined, undefined, parentOf(query.strId))),
    set.activesPerTarget,
  );
  if (split === 'document') backgrounds.push(background);
  const scored = [...set.activesPerTarget.keys()].filter((t) => set.activesPerTarget[t]! > 0);
  if (split === 'document') scoredTargetsPerFold.push(scored.length);
  const popularity = scored.sort((a, b) => set.activesPerTarget[b]! - set.activesPerTarget[a]! || a - b).map((t) => keyOf(t, null));
  const scoredKeys = new Set(popularity);
  timings.foldSetupMs.push(performance.now() - foldStarted);

  for (const [strId, trueTargets] of testSet) {
    if (split === 'document') evaluated += 1;
    let started = performance.now();
    const wide = scan.neighboursOf(strId, NN_SCAN_MIN, false);
    timings.scanMs.push(performance.now() - started);
    // What the service's structure-index scan would answer.
    const neighbours = wide.filter((neighbour) => neighbour.similarity >= SCAN_MIN_SIMILARITY);
    const exclude = (id: number) => id === strId;
    const excludeParent = parentOf(strId);

    started = performance.now();
    const ensemble = scoreTargets(neighbours, set, background, { exclude, excludeParent, evidence: PREDICTION_EVIDENCE_MAX });
    const nearest = nearestActive(neighbours, set, exclude, excludeParent);
    timings.ensembleMs.push(performance.now() - started);

    let outputs: ModelOutputs | null = null;
    if (model && modelBackground) {
      outputs = modelCache.get(strId) ?? null;
      if (!outputs) {
        started = performance.now();
        const probabilities = await model.predict(scan.fingerprint(strId, data.fingerprints));
        outputs = { targets: model.targets, probabilities, z: modelZ(probabilities, modelBackground) };
        timings.modelMs.push(performance.now() - started);
        modelCache.set(strId, outputs);
      }
    }
    started = performance.now();
    // The product's combined list (rank-targets.ts), with or without the model.
    const candidates = rankTargets(set, ensemble, outputs, (chemblId) => targetOfChemblId(chemblId) ?? undefined).ranked;
    const combined = candidates.map((entry) => entry.key);
    timings.combineMs.push(performance.now() - started);
    const inDomainHere = nearest !== null && nearest.similarity >= PREDICTION_DOMAIN_MIN_SIMILARITY;
    const compounds = evaluatedBySplit.get(split) ?? [];
    compounds.push({
      query: compounds.length,
      group,
      truth: [...trueTargets],
      candidates: candidates.map((entry) => ({ target: entry.target, features: entry.features })),
      inDomain: inDomainHere,
    });
    evaluatedBySplit.set(split, compounds);
    const fusionTally = splitFusion.get(split) ?? new RecallTally();
    fusionTally.add(
      combined,
      [...trueTargets].map((t) => keyOf(t, null)),
    );
    splitFusion.set(split, fusionTally);
    if (split !== 'document') continue;

    const rankings: Partial<Record<Predictor, TargetKey[]>> = {
      ensemble: ensemble.map((score) => keyOf(score.target, null)),
      nearestNeighbour: nearestNeighbourRanking(wide, set, exclude, excludeParent),
      popularity,
      combined,
    };
    if (outputs) {
      const { z, probabilities } = outputs;
      const outputKey = (output: number) => keyOf(targetOfChemblId(model!.targets[output]!), model!.targets[output]!);
      rankings.multitask = Array.from(z.keys())
        .sort((a, b) => z[b]! - z[a]! || probabilities[b]! - probabilities[a]!)
        .map(outputKey);
      rankings.multitaskOnSubsetTargets = rankings.multitask.filter((key) => scoredKeys.has(key));
      rankings.multitaskRawProbability = Array.from(probabilities.keys())
        .sort((a, b) => probabilities[b]! - probabilities[a]! || a - b)
        .map(outputKey);
    }
    if (combined[0] !== undefined && !scoredKeys.has(combined[0])) combinedFirstModelOnly += 1;

    const truth = [...trueTargets].map((t) => keyOf(t, null));
    const truthOnModel = [...trueTargets].filter(onModel).map((t) => keyOf(t, null));
    const anywhere = [...(activeAnywhere.get(strId) ?? [])];
    const anywhereKeys = anywhere.map((t) => keyOf(t, null));
    const anywhereOnModel = anywhere.filter(onModel).map((t) => keyOf(t, null));
    const inDomain = nearest !== null && nearest.similarity >= PREDICTION_DOMAIN_MIN_SIMILARITY;
    if (inDomain) inDomainCompounds += 1;
    const nearestWide = nearestActive(wide, set, exclude);
    if (nearestWide) {
      nearestSimilarities.push(nearestWide.similarity);
      if (nearestWide.similarity >= 1) identicalNearest += 1;
    } else {
      withoutNearest += 1;
    }

    for (const t of trueTargets) {
      const row = perTarget.get(t) ?? { pairs: 0, ranks: {} };
      row.pairs += 1;
      for (const predictor of PREDICTORS) {
        const ranked = rankings[predictor];
        if (!ranked || (isModelOnly(predictor) && !onModel(t))) continue;
        const at = ranked.indexOf(keyOf(t, null));
        (row.ranks[predictor] ??= []).push(at < 0 ? Infinity : at + 1);
      }
      perTarget.set(t, row);
    }
    for (const predictor of CONFUSED) {
      const first = rankings[predictor]?.[0];
      const wanted = isModelOnly(predictor) ? truthOnModel : truth;
      if (first === undefined || wanted.length === 0 || wanted.includes(first)) continue;
      const counts = confusions.get(predictor) ?? new Map<string, number>();
      const label = `${nameOfKey(wanted[0]!)} → ${nameOfKey(first)}`;
      counts.set(label, (counts.get(label) ?? 0) + 1);
      confusions.set(predictor, counts);
    }
    for (const predictor of PREDICTORS) {
      const ranked = rankings[predictor];
      if (!ranked) continue;
      for (const split of ['all', inDomain ? 'inDomain' : 'outOfDomain'] as const) {
        // The model is judged on its own targets only; the others on both, for comparison.
        if (!isModelOnly(predictor)) tally(predictor, split, 'allTargets').add(ranked, truth);
        tally(predictor, split, 'modelTargets').add(ranked, truthOnModel);
        tally(predictor, split, 'anyDocument').add(ranked, isModelOnly(predictor) ? anywhereOnModel : anywhereKeys);
      }
    }
  }
}

type ValidationSplit = 'document' | 'temporal' | 'scaffold';
const evaluatedBySplit = new Map<ValidationSplit, EvaluatedCompound[]>();
/** The rank fusion's recall (the order before calibration) per split. */
const splitFusion = new Map<ValidationSplit, RecallTally>();
const splitInfo: Record<string, unknown> = {};

// ---- split 1: leave one document out
for (const [foldIndex, doc] of heldOut.entries()) {
  if (foldIndex % 50 === 0) progress(`document fold ${foldIndex + 1}/${heldOut.length}`);
  await runFold('document', inDoc.get(doc)!, (docId) => docId === doc, doc);
}

// ---- split 2: temporal — the documents up to a year predict the structures first measured active later
let cut: number | null = null;
{
  const years = eligible
    .map((doc) => data.yearOfDoc.get(doc))
    .filter((year): year is number => year !== undefined)
    .sort((a, b) => a - b);
  cut = years[Math.floor(years.length * 0.8)] ?? null;
  if (cut !== null) {
    const later = (docId: number | null) => docId !== null && (data.yearOfDoc.get(docId) ?? -Infinity) > cut;
    const earlierStructures = new Set(data.records.filter((record) => !later(record.docId)).map((record) => record.strId));
    const testSet = new Map<number, Set<number>>();
    for (const record of data.records) {
      if (!later(record.docId) || earlierStructures.has(record.strId)) continue;
      const targets = testSet.get(record.strId) ?? new Set<number>();
      targets.add(record.target);
      testSet.set(record.strId, targets);
    }
    progress(`temporal split: documents after ${cut} held out, ${testSet.size} structures first active in them`);
    splitInfo.temporal = { trainingUpToYear: cut, testStructures: testSet.size };
    await runFold('temporal', testSet, later, 0);
  }
}

// ---- split 3: scaffold — five folds of Bemis–Murcko scaffolds, every structure of a fold's scaffolds held out
{
  // Every structure active on something: a fold's scaffolds leave the training data entirely.
  const testStructures = [...activeAnywhere.keys()].sort((a, b) => a - b);
  // The RDKit workers' JavaScript, run on this thread; typed by what is read of it (it has no declarations).
  const scaffoldsModule = '../apps/server/src/modules/chemistry/worker/scaffolds.mjs';
  const { scaffolds } = (await import(scaffoldsModule)) as { scaffolds(message: { smiles: string[] }): { scaffolds: (string | null)[] } };
  const found = scaffolds({ smiles: testStructures.map((strId) => data.smiles[strId - 1]!) }).scaffolds;
  const foldOfScaffold = (scaffold: string | null, strId: number) => hashText(scaffold ?? `acyclic ${strId}`) % SCAFFOLD_FOLDS;
  const truthOf = (strId: number) => new Set(activeAnywhere.get(strId) ?? new Set<number>());
  splitInfo.scaffold = { folds: SCAFFOLD_FOLDS, structures: testStructures.length, scaffolds: new Set(found.filter(Boolean)).size };
  for (let fold = 0; fold < SCAFFOLD_FOLDS; fold++) {
    progress(`scaffold fold ${fold + 1}/${SCAFFOLD_FOLDS}`);
    const testSet = new Map<number, Set<number>>();
    testStructures.forEach((strId, k) => {
      if (foldOfScaffold(found[k] ?? null, strId) === fold) testSet.set(strId, truthOf(strId));
    });
    await runFold('scaffold', testSet, () => false, fold);
  }
}
await model?.close();

// ---- figures
const figures: Partial<Record<Predictor, Partial<Record<Split, Partial<Record<Truth, ReturnType<RecallTally['figures']>>>>>>> = {};
for (const predictor of PREDICTORS) {
  for (const split of SPLITS) {
    for (const truth of TRUTHS) {
      const found = tallies.get(`${predictor}/${split}/${truth}`);
      if (found) ((figures[predictor] ??= {})[split] ??= {})[truth] = found.figures();
    }
  }
}
const fig = (predictor: Predictor, split: Split, truth: Truth) => figures[predictor]?.[split]?.[truth];
const triple = (predictor: Predictor, split: Split, truth: Truth) => {
  const f = fig(predictor, split, truth);
  return f ? `${f.recallAt1}/${f.recallAt5}/${f.recallAt10}` : 'n/a';
};
const share = (ranks: number[] | undefined, k: number) =>
  ranks && ranks.length ? Number((ranks.filter((r) => r <= k).length / ranks.length).toFixed(2)) : null;
const perTargetFigures = [...perTarget.entries()]
  .sort((a, b) => b[1].pairs - a[1].pairs || a[0] - b[0])
  .map(([t, row]) => ({
    chemblId: data.targets[t]!.chemblId,
    name: data.targets[t]!.name,
    family: data.targets[t]!.family,
    pairs: row.pairs,
    modelTarget: onModel(t),
    recallAt1: Object.fromEntries(Object.entries(row.ranks).map(([p, ranks]) => [p, share(ranks, 1)])),
    recallAt10: Object.fromEntries(Object.entries(row.ranks).map(([p, ranks]) => [p, share(ranks, 10)])),
  }));
const meanScored = scoredTargetsPerFold.reduce((s, n) => s + n, 0) / Math.max(1, scoredTargetsPerFold.length);
const shareIn = evaluated > 0 ? inDomainCompounds / evaluated : 0;
const modelTargetsInSubset = model ? model.targets.filter((id) => activeTargets.has(targetOfChemblId(id) ?? -1)).length : 0;
const notes = [
  'Leave one document out: for each held-out document, its structures active in it are the test compounds and the targets they are active on in that document their truth; training is every other active minus that document and minus every measurement of the test structures (removed entirely). Actives and the ensemble background are rebuilt per fold.',
  "The active rule is the server's (apps/server/src/modules/prediction/active-index.ts): values mapped as the ChEMBL import maps them (standardFields), IC50/Ki/Kd/EC50/XC50/AC50/Potency, relation =, <, <= (none counts as =), 0 < value <= the family threshold (kinase 30 nM, GPCR and nuclear receptor 100 nM, ion channel 10 µM, other 1 µM; the family from the target name, the subset having no protein classification), protein targets only; best potency per structure and target.",
  `Similarity: Morgan r=2 2,048 bits as the knowledge base stores them (RDKit MinimalLib, MORGAN_SETTINGS), Tanimoto over every structure with an activity in place of the structure index; the service's predictors get the neighbours from ${SCAN_MIN_SIMILARITY} (its scan minimum), the nearest-neighbour baseline from ${NN_SCAN_MIN}. Backgrounds: every k-th structure by id (as background.ts); the ensemble's scores each without itself and the structures of its own documents, neighbours from ${ENSEMBLE_THRESHOLD}, minus the fold's test structures, fitted per fold; the model's (model-background.ts) once.`,
  `The subset holds ${activeTargets.size} targets with actives (${meanScored.toFixed(0)} per fold), not ChEMBL's thousands: ranking among so few is far easier than on a full knowledge base, recall@10 above all. A random order would give recall@k ≈ k/${meanScored.toFixed(0)}; the popularity baseline (targets by their number of actives) is the bar to beat.`,
  'Truth is the targets a compound is active on in its own document ("allTargets"; "modelTargets": those that are model targets); "anyDocument" counts every target it is active on anywhere in the subset (e.g. the EGFR export, which has no documents), all of them removed from training too. Most compounds here were measured on one target only (the subset is made of per-target exports), so a predicted target that was never measured counts as a miss even when it may be true.',
  "The multitask model (ChEMBL 37) was trained on ChEMBL data that contains these very compounds and documents, so its figures (and the combination's) are optimistic: leakage this benchmark cannot remove. A hint of its size: the model's out-of-domain recall (no training active of the subset at Tanimoto >= 0.3) against its in-domain recall.",
  `The model ranks all its ${model?.targets.length ?? 0} outputs by the service's z-score and is scored only on true targets that are model targets (${modelTargetsInSubset} of the subset's targets); multitaskOnSubsetTargets keeps only its outputs that are targets with actives in the fold (the ensemble's candidates), a fairer comparison with the ensemble; multitaskRawProbability ranks by the raw probability (not the product: how ChEMBL's own demo lists them). EGFR's export has no documents, so EGFR is never a held-out truth (its actives are always in training).`,
];
// ---- calibration: fitted on folds of the document split, judged on the others (and on the other splits)
const lodo = evaluatedBySplit.get('document') ?? [];
const withModel = model !== null;
/** The same compounds as a knowledge base without a model sees them: the model's candidates and lift gone. */
const withoutModelView = (compounds: readonly EvaluatedCompound[]): EvaluatedCompound[] =>
  compounds.map((compound) => ({
    ...compound,
    candidates: compound.candidates
      .filter((candidate) => candidate.features.nearest > 0)
      .map((candidate) => ({ ...candidate, features: { ...candidate.features, modelZ: null } })),
  }));
const lodoFit = fitCalibration(labelled(lodo), withModel);
const earlierFit =
  cut === null
    ? null
    : fitCalibration(labelled(lodo.filter((compound) => (data.yearOfDoc.get(compound.group) ?? Infinity) <= cut!)), withModel);
const calibration = {
  document: calibrationFigures(lodo, crossFitted(lodo, withModel)),
  documentWithoutModel: calibrationFigures(withoutModelView(lodo), crossFitted(withoutModelView(lodo), false)),
  temporal: evaluatedBySplit.has('temporal') ? calibrationFigures(evaluatedBySplit.get('temporal')!, () => earlierFit) : null,
  scaffold: evaluatedBySplit.has('scaffold') ? calibrationFigures(evaluatedBySplit.get('scaffold')!, () => lodoFit) : null,
  notes: [
    'Pairs: every candidate target of each evaluated compound (a training active at Tanimoto >= the scan minimum, or a model output on a target with actives), labelled active when the compound is active on it in the held-out data (unmeasured pairs count as inactive, so the observed rates are lower bounds).',
    "document: 5-fold cross-fitting by held-out document (a fold's calibration never saw its documents); documentWithoutModel: the same as a knowledge base without a model sees it; temporal: fitted on the document split's compounds of documents up to the cut year, judged on the structures first active later; scaffold: fitted on all document-split pairs (its coefficients saw these structures' documents; 8 numbers), judged on structures whose scaffold fold was held out.",
  ],
};
if (values['dump-pairs']) fs.writeFileSync(values['dump-pairs'], JSON.stringify(Object.fromEntries(evaluatedBySplit)));
const splitRecall = Object.fromEntries([...splitFusion.entries()].map(([split, tallied]) => [split, { rankFusion: tallied.figures() }]));
const defaultCalibration = {
  withModel: withModel ? defaultCoefficients(lodo, true) : null,
  withoutModel: defaultCoefficients(withoutModelView(lodo), false),
};

const git = (...args: string[]) => spawnSync('git', args, { cwd: root, encoding: 'utf8' }).stdout?.trim() ?? '';
const result = {
  date: new Date().toISOString(),
  /** The product code the figures come from: the commit, and its prediction files changed since. */
  code: {
    commit: git('rev-parse', '--short', 'HEAD'),
    changed: git('status', '--porcelain', '--', 'apps/server/src/modules/prediction', 'packages/contracts/src/prediction.ts')
      .split('\n')
      .filter(Boolean),
  },
  data: path.relative(root, dataFile),
  model: model
    ? { name: model.name, targets: model.targets.length, compacted: model.compacted, targetsWithActivesInSubset: modelTargetsInSubset }
    : null,
  parameters: {
    docs: Number.isFinite(docCount) ? docCount : 'all',
    seed,
    minCompounds,
    backgroundQueries: backgroundSample.length,
    scanMin: SCAN_MIN_SIMILARITY,
    nearestNeighbourScanMin: NN_SCAN_MIN,
    ensembleThreshold: ENSEMBLE_THRESHOLD,
    domainMin: PREDICTION_DOMAIN_MIN_SIMILARITY,
    fusion: { k: FUSION_K, weights: FUSION_WEIGHTS },
  },
  subset: {
    ...data.counts,
    structures: data.smiles.length,
    activeRecords: data.records.length,
    targetsWithActives: activeTargets.size,
    eligibleDocuments: eligible.length,
  },
  heldOutDocuments: heldOut.length,
  evaluatedCompounds: evaluated,
  distinctCompounds: new Set([...heldOut].flatMap((doc) => [...inDoc.get(doc)!.keys()])).size,
  scoredTargetsPerFold: {
    mean: Number(meanScored.toFixed(1)),
    min: Math.min(...scoredTargetsPerFold),
    max: Math.max(...scoredTargetsPerFold),
  },
  chanceRecall: {
    at1: Number((1 / meanScored).toFixed(3)),
    at5: Number((5 / meanScored).toFixed(3)),
    at10: Number((10 / meanScored).toFixed(3)),
  },
  domain: {
    inDomainShare: Number(shareIn.toFixed(3)),
    meanNearestActiveSimilarity: nearestSimilarities.length
      ? Number((nearestSimilarities.reduce((s, x) => s + x, 0) / nearestSimilarities.length).toFixed(3))
      : null,
    withoutActiveAboveNearestNeighbourScanMin: withoutNearest,
    /** A training active with the same Morgan fingerprint (a stereoisomer, salt or tautomer measured in another document). */
    nearestIdenticalShare: Number((identicalNearest / Math.max(1, evaluated)).toFixed(3)),
  },
  backgroundFits: {
    meanScale: summary(backgrounds.map((b) => b.meanScale * 1000)),
    meanExponent: summary(backgrounds.map((b) => b.meanExponent * 1000)),
    sdScale: summary(backgrounds.map((b) => b.sdScale * 1000)),
    sdExponent: summary(backgrounds.map((b) => b.sdExponent * 1000)),
    note: 'p50/p95/max over folds, each ×1000',
  },
  figures,
  calibration,
  splits: { ...splitInfo, recall: splitRecall },
  defaultCalibration,
  combinedFirstWithoutActivesShare: model ? Number((combinedFirstModelOnly / Math.max(1, evaluated)).toFixed(3)) : null,
  perTarget: perTargetFigures,
  /** The most frequent wrong first targets (true → first), per predictor. */
  firstWhenWrong: Object.fromEntries(
    [...confusions.entries()].map(([predictor, counts]) => [
      predictor,
      [...counts.entries()]
        .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
        .slice(0, 12)
        .map(([label, n]) => `${n}× ${label}`),
    ]),
  ),
  leakage: model
    ? {
        truthPairsOnModelTargets: fig('multitask', 'all', 'modelTargets')?.pairs ?? 0,
        note: "Every one of these (compound, target) pairs is a ChEMBL measurement from a release up to 36 (the subset's sources) on a SINGLE PROTEIN target the model was trained on, so nearly all of them were training data of the ChEMBL 37 model (its further filters — confidence score >= 8, no data-validity comment, not a potential duplicate — cannot be checked: the subset lacks those columns for most rows). The model's figures are an upper bound for unseen compounds.",
      }
    : null,
  timingsPerCompoundMs: {
    scan: summary(timings.scanMs),
    ensembleScoring: summary(timings.ensembleMs),
    model: summary(timings.modelMs),
    combine: summary(timings.combineMs),
    foldSetup: summary(timings.foldSetupMs),
  },
  fingerprintMs: Math.round(data.fingerprintMs),
  totalMs: Math.round(performance.now() - startedAll),
  notes,
};
const file = writeResult('prediction', result);
function calibratedTriple(figures: {
  recall: { all: { recallAt1: number | null; recallAt5: number | null; recallAt10: number | null } };
}): string {
  const f = figures.recall.all;
  return `${f.recallAt1}/${f.recallAt5}/${f.recallAt10}`;
}
const out = fig('ensemble', 'outOfDomain', 'allTargets');
const t = result.timingsPerCompoundMs;
console.log(
  `prediction: ${evaluated} compounds / ${heldOut.length} docs, ${meanScored.toFixed(0)} targets; recall@1/5/10 ` +
    `ensemble ${triple('ensemble', 'all', 'allTargets')}, NN ${triple('nearestNeighbour', 'all', 'allTargets')}, popularity ${triple('popularity', 'all', 'allTargets')}` +
    (model
      ? `, combined ${triple('combined', 'all', 'allTargets')}; on model targets (${fig('multitask', 'all', 'modelTargets')?.pairs ?? 0} pairs) multitask ${triple('multitask', 'all', 'modelTargets')} ` +
        `(among the subset's targets ${triple('multitaskOnSubsetTargets', 'all', 'modelTargets')}; raw probability ${triple('multitaskRawProbability', 'all', 'modelTargets')}), ` +
        `ensemble ${triple('ensemble', 'all', 'modelTargets')}, combined ${triple('combined', 'all', 'modelTargets')}`
      : '; multitask skipped (no model in ../shared/models)') +
    `; out of domain (${((1 - shareIn) * 100).toFixed(0)}%, ${out?.compounds ?? 0}): ensemble ${triple('ensemble', 'outOfDomain', 'allTargets')}, NN ${triple('nearestNeighbour', 'outOfDomain', 'allTargets')}` +
    (model ? `, multitask ${triple('multitask', 'outOfDomain', 'modelTargets')} (trained on ChEMBL 37: leaked)` : '') +
    `; calibrated order ${calibratedTriple(calibration.document)} (Brier ${calibration.document.combined.brier}, ECE ${calibration.document.combined.ece}, no confident target ${calibration.document.abstainedShare}, confident first right ${calibration.document.confidentFirstRight})` +
    (calibration.temporal ? `; temporal ${calibratedTriple(calibration.temporal)} (ECE ${calibration.temporal.combined.ece})` : '') +
    (calibration.scaffold ? `; scaffold ${calibratedTriple(calibration.scaffold)} (ECE ${calibration.scaffold.combined.ece})` : '') +
    `; per compound p50 ensemble ${t.ensembleScoring.p50} ms (+ scan ${t.scan.p50} ms), model ${t.model.p50} ms, combine ${t.combine.p50} ms → ${file}`,
);
