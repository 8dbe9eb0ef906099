import { createHash, randomBytes } from 'node:crypto';
import { readFile, readdir, rename, rm, stat, writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import * as ort from 'onnxruntime-web';
import { FP_BITS } from '../../chemistry/fingerprint.mjs';
import { COMPACT_OUTPUT, compactHeads } from './compact-graph.ts';
import { DataType, decodeModel, shapeOf } from './onnx-proto.ts';
import type { OnnxModel } from './onnx-proto.ts';
import { CHEMBL_TARGET_ID, MODEL_FILE_MAX_BYTES, MODEL_TARGETS_MAX, MODEL_TARGETS_MAX_BYTES } from '@kb/contracts/prediction';

/** Bits of the model's input: RDKit `GetMorganFingerprintAsBitVect(mol, 2, nBits=1024)`. */
const MODEL_BITS = 1024;
/** Bounds on what a model folder or an upload may hold, checked before anything is read. */
const MAX_MODEL_BYTES = MODEL_FILE_MAX_BYTES;
const MAX_TARGETS_BYTES = MODEL_TARGETS_MAX_BYTES;
const MAX_MODEL_JSON_BYTES = 64 * 1024;
const MAX_TARGETS = MODEL_TARGETS_MAX;
const CHEMBL_ID = CHEMBL_TARGET_ID;

// One thread: the server runs requests side by side, and a per-molecule run is about a millisecond,
// too short for threads to pay off. Set before the first session is created, which reads it.
ort.env.wasm.numThreads = 1;
ort.env.logLevel = 'error';

/** A model file or target list that cannot be used; the message says why, for the administrator. */
export class ModelFileError extends Error {
  override name = 'ModelFileError';
  constructor(
    message: string,
    /** A folder caught half-way through a write: reading again shortly may succeed. */
    readonly transient = false,
  ) {
    super(message);
  }
}

export interface ModelFiles {
  model: Uint8Array;
  targets: readonly string[];
  name: string;
}

export interface MultitaskModel {
  name: string;
  /** The targets' ChEMBL ids, in the order of `predict`'s probabilities. */
  targets: readonly string[];
  /** True when the heads were merged into one output (compact-graph.ts); false runs the file's graph as it is. */
  compacted: boolean;
  /** Why the graph was not compacted, when it was not. */
  compactionNote: string | null;
  /** The probability of activity on each target, in `targets` order, from a stored 2,048-bit Morgan fingerprint. */
  predict(morgan2048: Uint8Array): Promise<Float32Array>;
  close(): Promise<void>;
}

/**
 * The model's input from a stored fingerprint: the 2,048-bit Morgan r=2 fingerprint folded to
 * 1,024 bits (bit i of the result is bit i or bit i + 1,024). RDKit's hashed Morgan bit vector sets
 * bit (hash mod nBits), and 1,024 divides 2,048, so the fold equals RDKit's 1,024-bit fingerprint
 * exactly (checked on 600 ChEMBL structures; README.md). Bit i of the stored bytes is
 * byte i >> 3, bit i & 7 (least significant first), as RDKit MinimalLib writes them.
 */
export function morgan1024(morgan2048: Uint8Array): Float32Array {
  if (morgan2048.length !== FP_BITS / 8)
    throw new RangeError(`a Morgan fingerprint of ${FP_BITS} bits has ${FP_BITS / 8} bytes, not ${morgan2048.length}`);
  const out = new Float32Array(MODEL_BITS);
  const half = MODEL_BITS / 8;
  for (let j = 0; j < half; j++) {
    const byte = morgan2048[j]! | morgan2048[j + half]!;
    if (byte === 0) continue;
    for (let b = 0; b < 8; b++) if ((byte >> b) & 1) out[j * 8 + b] = 1;
  }
  return out;
}

/** Checks a target list: ChEMBL ids, none twice. */
function checkTargets(targets: unknown): string[] {
  if (!Array.isArray(targets) || targets.length === 0)
    throw new ModelFileError('The target list must be a JSON array of target ChEMBL ids');
  if (targets.length > MAX_TARGETS)
    throw new ModelFileError(`The target list has ${targets.length} ids; at most ${MAX_TARGETS} are accepted`);
  const seen = new Set<string>();
  targets.forEach((id, index) => {
    if (typeof id !== 'string' || !CHEMBL_ID.test(id))
      throw new ModelFileError(
        `Entry ${index + 1} of the target list (${JSON.stringify(id).slice(0, 40)}) is not a ChEMBL id such as CHEMBL203`,
      );
    if (seen.has(id)) throw new ModelFileError(`The target list names ${id} twice`);
    seen.add(id);
  });
  return targets as string[];
}

/** How the session's outputs become probabilities in target order. */
type OutputPlan = { kind: 'single'; name: string } | { kind: 'per-target'; names: string[] };

function describe(shape: (number | null)[] | null): string {
  return shape ? `[${shape.map((d) => d ?? '?').join(', ')}]` : 'not a tensor';
}

/**
 * Reads the graph's declared input and outputs and matches them with the target list: one float
 * input 1,024 wide (rank 1, or rank 2 with a batch dimension), and either one output per target
 * (named by the targets' ids, in any order, or else taken in list order) or one output of T values.
 */
function planFor(decoded: OnnxModel, targets: readonly string[]): { input: string; inputShape: number[]; outputs: OutputPlan } {
  const graph = decoded.graph;
  if (!graph || graph.node.length === 0) throw new ModelFileError('The file is not an ONNX model (it has no graph)');
  const constants = new Set(graph.initializer.map((t) => t.name));
  const inputs = graph.input.filter((i) => !constants.has(i.name));
  if (inputs.length !== 1)
    throw new ModelFileError(`The model has ${inputs.length} inputs; a target-prediction model has one, the Morgan fingerprint`);
  const input = inputs[0]!;
  const inShape = shapeOf(input);
  if (input.type?.tensorType?.elemType !== DataType.FLOAT || !inShape)
    throw new ModelFileError(`The model's input "${input.name}" is not a float tensor`);
  const width = inShape[inShape.length - 1];
  const rankOk = inShape.length === 1 || (inShape.length === 2 && (inShape[0] === null || inShape[0] === 1));
  if (!rankOk || width !== MODEL_BITS) {
    throw new ModelFileError(
      `The model's input "${input.name}" has the shape ${describe(inShape)}; it must take one Morgan fingerprint of ${MODEL_BITS} bits ([${MODEL_BITS}] or [1, ${MODEL_BITS}])`,
    );
  }
  const inputShape = inShape.length === 1 ? [MODEL_BITS] : [1, MODEL_BITS];

  const outputs = graph.output;
  if (outputs.length === 1 && targets.length > 1) {
    const shape = shapeOf(outputs[0]!);
    const size = shape?.[shape.length - 1];
    if (size !== targets.length) {
      throw new ModelFileError(
        `The model's one output "${outputs[0]!.name}" has ${size ?? 'an unknown number of'} values (shape ${describe(shape)}) but the target list has ${targets.length} ids`,
      );
    }
    return { input: input.name ?? '', inputShape, outputs: { kind: 'single', name: outputs[0]!.name ?? '' } };
  }
  if (outputs.length !== targets.length)
    throw new ModelFileError(`The model has ${outputs.length} outputs but the target list has ${targets.length} ids`);
  const outputNames = outputs.map((o) => o.name ?? '');
  const byName = new Set(outputNames);
  // Outputs named by ChEMBL ids are matched by name; a list in another order is still right.
  const names = targets.every((t) => byName.has(t)) ? [...targets] : outputNames;
  if (names === outputNames && outputNames.some((n) => CHEMBL_ID.test(n))) {
    const missing = targets.filter((t) => !byName.has(t));
    throw new ModelFileError(
      `The model's outputs are named by ChEMBL ids but ${missing.length} ids of the target list (${missing.slice(0, 3).join(', ')}${missing.length > 3 ? ', …' : ''}) are not among them`,
    );
  }
  return { input: input.name ?? '', inputShape, outputs: { kind: 'per-target', names } };
}

async function createSession(bytes: Uint8Array): Promise<ort.InferenceSession> {
  return ort.InferenceSession.create(bytes, { executionProviders: ['wasm'], graphOptimizationLevel: 'all' });
}

/**
 * Loads a multitask model for prediction: checks that the file is an ONNX model with one input of
 * 1,024 bits and one output value per target, merges its per-target heads into one output where
 * the graph allows (compact-graph.ts: the same arithmetic, 25–40× faster), and runs it once on
 * an empty fingerprint, so a file that cannot serve predictions fails here with ModelFileError,
 * not at the first request. `compact: false` runs the file's graph as it is (the tests compare both).
 */
export async function loadMultitaskModel(files: ModelFiles, options: { compact?: boolean } = {}): Promise<MultitaskModel> {
  const targets = checkTargets(files.targets);
  if (files.model.byteLength > MAX_MODEL_BYTES)
    throw new ModelFileError(`The model file has ${files.model.byteLength} bytes; at most ${MAX_MODEL_BYTES} are accepted`);
  let decoded: OnnxModel;
  try {
    decoded = decodeModel(files.model);
  } catch {
    throw new ModelFileError('The file is not an ONNX model (it cannot be decoded)');
  }
  const plan = planFor(decoded, targets);

  let session: ort.InferenceSession | null = null;
  let outputs = plan.outputs;
  let order: number[] | null = null;
  let compactionNote: string | null = null;
  if (plan.outputs.kind === 'per-target' && options.compact === false) {
    compactionNote = 'not merged on request';
  } else if (plan.outputs.kind === 'per-target') {
    const compact = compactHeads(files.model);
    const position = new Map(compact.compacted ? compact.heads.map((name, index) => [name, index]) : []);
    // The merged output keeps the graph's head order; `order` gives it in target order.
    const headOf = plan.outputs.names.map((name) => position.get(name) ?? -1);
    if (compact.compacted && headOf.every((head) => head >= 0)) {
      try {
        session = await createSession(compact.model);
        outputs = { kind: 'single', name: COMPACT_OUTPUT };
        order = headOf.every((head, t) => head === t) ? null : headOf;
      } catch (error) {
        compactionNote = `the merged graph did not load (${firstLine(error)}); running the file's graph, which is slower`;
      }
    } else {
      const reason = compact.compacted ? 'a target has no head' : compact.reason;
      compactionNote = `the heads could not be merged (${reason}); running the file's graph, which is slower`;
    }
  }
  const compacted = session !== null;
  if (!session) {
    try {
      session = await createSession(files.model);
    } catch (error) {
      throw new ModelFileError(`ONNX Runtime cannot load the model (${firstLine(error)})`);
    }
  }
  return wrap(files.name, Object.freeze([...targets]), session, plan, outputs, order, compacted, compactionNote);
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]!.slice(0, 300);
}

async function wrap(
  name: string,
  targets: readonly string[],
  session: ort.InferenceSession,
  plan: { input: string; inputShape: number[] },
  outputs: OutputPlan,
  order: number[] | null,
  compacted: boolean,
  compactionNote: string | null,
): Promise<MultitaskModel> {
  const T = targets.length;
  const run = async (input: Float32Array): Promise<Float32Array> => {
    const feeds = { [plan.input]: new ort.Tensor('float32', input, plan.inputShape) };
    const result = await session.run(feeds);
    const out = new Float32Array(T);
    if (outputs.kind === 'single') {
      const data = result[outputs.name]!.data as Float32Array;
      if (data.length !== T) throw new ModelFileError(`The model gave ${data.length} values for ${T} targets`);
      if (order) for (let t = 0; t < T; t++) out[t] = data[order[t]!]!;
      else out.set(data);
    } else {
      outputs.names.forEach((output, t) => {
        const data = result[output]!.data as Float32Array;
        if (data.length !== 1) throw new ModelFileError(`The model's output "${output}" gave ${data.length} values, not one`);
        out[t] = data[0]!;
      });
    }
    for (const tensor of Object.values(result)) tensor.dispose();
    return out;
  };

  try {
    const probe = await run(new Float32Array(MODEL_BITS));
    if (probe.some((p) => !(p >= 0 && p <= 1)))
      throw new ModelFileError('The model gives values outside 0–1 on an empty fingerprint; it does not give probabilities');
  } catch (error) {
    await session.release();
    if (error instanceof ModelFileError) throw error;
    throw new ModelFileError(`The model does not run (${firstLine(error)})`);
  }

  // One run at a time: a session's runs are not meant to overlap, and each is short.
  let queue: Promise<unknown> = Promise.resolve();
  let closed = false;
  return {
    name,
    targets,
    compacted,
    compactionNote,
    predict(morgan2048) {
      const input = morgan1024(morgan2048);
      const next = queue.then(() => {
        if (closed) throw new Error('the target-prediction model was closed');
        return run(input);
      });
      queue = next.catch(() => undefined);
      return next;
    },
    async close() {
      if (closed) return;
      closed = true;
      await queue;
      await session.release();
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The model folder

/** What an install writes beside the two files, and what a hand-placed folder may add. */
interface FolderManifest {
  name?: string;
  model?: string;
  targets?: string;
  sha256?: { model?: string; targets?: string };
}

const MANIFEST = 'model.json';
const MODEL_FILE = 'model.onnx';
const TARGETS_FILE = 'targets.json';

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** A readable name from a file name: chembl_37_multitask_q8.onnx → "ChEMBL 37 multitask". */
export function modelNameFromFile(file: string): string {
  const words = path
    .basename(file)
    .replace(/\.onnx$/i, '')
    .split(/[_\s-]+/)
    .filter((w) => w && !/^(q\d+|u?int\d+|fp\d+|quant(ised|ized)?)$/i.test(w))
    .map((w) => (/^chembl$/i.test(w) ? 'ChEMBL' : w));
  return words.join(' ') || 'Multitask model';
}

async function readBounded(file: string, max: number, what: string): Promise<Buffer> {
  const info = await stat(file).catch((error: NodeJS.ErrnoException) => {
    // Removed between listing and reading: an install is replacing it.
    if (error.code === 'ENOENT') throw new ModelFileError(`${what} ${path.basename(file)} disappeared while being read`, true);
    throw error;
  });
  if (!info.isFile()) throw new ModelFileError(`${what} ${path.basename(file)} is not a file`);
  if (info.size > max) throw new ModelFileError(`${what} ${path.basename(file)} has ${info.size} bytes; at most ${max} are accepted`);
  return readFile(file);
}

function parseJson(bytes: Buffer, file: string): unknown {
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new ModelFileError(`${path.basename(file)} is not valid JSON`);
  }
}

async function readFolderOnce(dir: string): Promise<(ModelFiles & { targets: string[] }) | null> {
  let entries: string[];
  try {
    const info = await stat(dir);
    if (!info.isDirectory()) throw new ModelFileError(`${dir} is not a folder`);
    entries = (await readdir(dir)).filter((f) => !f.startsWith('.'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }

  let manifest: FolderManifest = {};
  if (entries.includes(MANIFEST)) {
    const parsed = parseJson(await readBounded(path.join(dir, MANIFEST), MAX_MODEL_JSON_BYTES, 'The file'), MANIFEST);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      throw new ModelFileError(`${MANIFEST} must hold an object such as {"name": "ChEMBL 37 multitask"}`);
    manifest = parsed as FolderManifest;
    if (manifest.name !== undefined && (typeof manifest.name !== 'string' || !manifest.name.trim()))
      throw new ModelFileError(`The "name" of ${MANIFEST} must be a non-empty text`);
  }

  let modelFile: string;
  let targetsFile: string;
  if (manifest.model !== undefined || manifest.targets !== undefined) {
    // An installed folder names its files; anything else left there is not read.
    for (const file of [manifest.model, manifest.targets]) {
      if (typeof file !== 'string' || path.basename(file) !== file || !entries.includes(file)) {
        throw new ModelFileError(`${MANIFEST} names the file ${JSON.stringify(file)}, which is not in the folder`, true);
      }
    }
    modelFile = manifest.model!;
    targetsFile = manifest.targets!;
    // Files placed by hand beside an installed model: which one is meant is not for us to guess
    // (for a moment during an install, too, until the previous model's files are removed).
    const others = entries.filter(
      (f) => f !== modelFile && f !== targetsFile && (f.toLowerCase().endsWith('.onnx') || /^targets.*\.json$/i.test(f)),
    );
    if (others.length > 0) {
      throw new ModelFileError(
        `The folder holds ${others.join(', ')} beside the installed ${modelFile}; remove one model (and model.json with the installed one)`,
        true,
      );
    }
  } else {
    const models = entries.filter((f) => f.toLowerCase().endsWith('.onnx'));
    if (models.length === 0) return null;
    if (models.length > 1)
      throw new ModelFileError(`The folder holds ${models.length} .onnx files (${models.join(', ')}); keep only the one to use`, true);
    const lists = entries.filter((f) => /^targets.*\.json$/i.test(f));
    if (lists.length === 0) throw new ModelFileError(`The folder has the model ${models[0]} but no targets*.json list of its target ids`);
    if (lists.length > 1)
      throw new ModelFileError(
        `The folder holds ${lists.length} target lists (${lists.join(', ')}); keep only the one that belongs to ${models[0]}`,
        true,
      );
    modelFile = models[0]!;
    targetsFile = lists[0]!;
  }

  const model = await readBounded(path.join(dir, modelFile), MAX_MODEL_BYTES, 'The model file');
  const targetBytes = await readBounded(path.join(dir, targetsFile), MAX_TARGETS_BYTES, 'The target list');
  if (manifest.sha256) {
    if (manifest.sha256.model !== sha256(model) || manifest.sha256.targets !== sha256(targetBytes)) {
      throw new ModelFileError(
        `${modelFile} or ${targetsFile} is not the file ${MANIFEST} describes (it was replaced by hand, or is being written)`,
        true,
      );
    }
  }
  const targets = checkTargets(parseJson(targetBytes, targetsFile));
  return {
    model: new Uint8Array(model.buffer, model.byteOffset, model.byteLength),
    targets,
    name: manifest.name?.trim() || modelNameFromFile(modelFile),
  };
}

/**
 * Reads the model folder: one `*.onnx` file and one `targets*.json` list of ChEMBL ids (the files of
 * the upstream repository, as they are), optionally `model.json` {"name": …}; or what
 * writeModelFolder wrote. Null when the folder is missing or holds no model; ModelFileError when it
 * cannot be used. A folder met half-way through an install is read again after a moment.
 */
export async function readModelFolder(dir: string): Promise<{ model: Uint8Array; targets: string[]; name: string } | null> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await readFolderOnce(dir);
    } catch (error) {
      if (!(error instanceof ModelFileError) || !error.transient || attempt >= 4) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/**
 * Installs a model into the folder so that a server reading it at any moment sees either the old
 * model or the new one, never part of a file: each file is written under a temporary name and
 * renamed (atomic within a file system), `model.json` with the files' checksums last, and only
 * then the previous model's files are removed.
 */
export async function writeModelFolder(dir: string, files: ModelFiles): Promise<void> {
  const targets = checkTargets(files.targets);
  await mkdir(dir, { recursive: true });
  const targetBytes = Buffer.from(`${JSON.stringify(targets, null, 1)}\n`, 'utf8');
  const manifest: FolderManifest = {
    name: files.name,
    model: MODEL_FILE,
    targets: TARGETS_FILE,
    sha256: { model: sha256(files.model), targets: sha256(targetBytes) },
  };
  const writes: [string, Uint8Array][] = [
    [MODEL_FILE, files.model],
    [TARGETS_FILE, targetBytes],
    [MANIFEST, Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`, 'utf8')],
  ];
  const suffix = `.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  const temps = writes.map(([file]) => path.join(dir, `.${file}${suffix}`));
  try {
    for (const [index, [, bytes]] of writes.entries()) await writeFile(temps[index]!, bytes, { flag: 'wx' });
    for (const [index, [file]] of writes.entries()) await rename(temps[index]!, path.join(dir, file));
  } catch (error) {
    await Promise.all(temps.map((t) => rm(t, { force: true })));
    throw error;
  }
  const stale = (await readdir(dir)).filter(
    (f) => f !== MODEL_FILE && f !== TARGETS_FILE && (f.toLowerCase().endsWith('.onnx') || /^targets.*\.json$/i.test(f)),
  );
  await Promise.all(stale.map((f) => rm(path.join(dir, f), { force: true })));
}
