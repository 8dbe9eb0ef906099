import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile, mkdir, readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import initRDKitModule from '@rdkit/rdkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MORGAN_SETTINGS } from '../../chemistry/fingerprint.mjs';
import { compactHeads } from './compact-graph.ts';
import { ModelFileError, loadMultitaskModel, modelNameFromFile, morgan1024, readModelFolder, writeModelFolder } from './multitask-model.ts';
import type { MultitaskModel } from './multitask-model.ts';
import { DataType, encodeModel, floatTensor, node, tensor } from './onnx-proto.ts';
import type { OnnxModel, OnnxNode, OnnxTensor, OnnxValueInfo } from './onnx-proto.ts';
import { mulberry32 } from '../../knowledge-base/demo/mulberry32.mjs';

const REPO_ROOT = path.resolve(import.meta.dirname, '../../../../../..');
const MODEL_DIR = path.resolve(REPO_ROOT, '../shared/models/chembl-multitask');
const modelPresent =
  existsSync(path.join(MODEL_DIR, 'chembl_37_multitask_q8.onnx')) && existsSync(path.join(MODEL_DIR, 'targets_37_all.json'));
if (!modelPresent) console.warn(`multitask model tests skipped: ../shared/models absent (no ChEMBL 37 model in ${MODEL_DIR})`);

/**
 * Computed once by an independent route (README.md "Verification"): Debian's python3-rdkit
 * 2022.09.3, `AllChem.GetMorganFingerprintAsBitVect(mol, 2, nBits=1024).GetOnBits()`.
 */
const REFERENCE_FINGERPRINTS = {
  erlotinib: {
    smiles: 'COCCOc1cc2ncnc(Nc3cccc(C#C)c3)c2cc1OCCOC',
    on1024: [
      13, 15, 33, 64, 73, 80, 102, 128, 133, 149, 191, 202, 231, 329, 333, 343, 356, 378, 428, 486, 489, 491, 494, 605, 624, 627, 673, 674,
      676, 695, 703, 708, 710, 726, 747, 780, 786, 794, 841, 849, 875, 888, 893, 915, 946, 974, 1005,
    ],
  },
  imatinib: {
    smiles: 'Cc1ccc(NC(=O)c2ccc(CN3CCN(C)CC3)cc2)cc1Nc1nccc(-c2cccnc2)n1',
    on1024: [
      14, 19, 33, 61, 64, 74, 80, 121, 128, 136, 184, 191, 200, 207, 212, 257, 310, 356, 361, 367, 378, 399, 428, 437, 456, 458, 486, 491,
      511, 541, 555, 558, 562, 579, 641, 650, 658, 659, 667, 673, 698, 726, 730, 736, 741, 747, 767, 771, 784, 787, 792, 795, 807, 831, 842,
      843, 849, 875, 893, 926, 932, 935, 954, 980, 1012,
    ],
  },
  risperidone: {
    smiles: 'Cc1nc2n(c(=O)c1CCN1CCC(c3noc4cc(F)ccc34)CC1)CCCC2',
    on1024: [
      4, 30, 33, 63, 80, 91, 92, 105, 112, 121, 169, 179, 218, 219, 237, 248, 265, 301, 310, 314, 333, 356, 374, 378, 386, 421, 439, 456,
      458, 463, 472, 504, 518, 556, 622, 628, 630, 642, 646, 650, 656, 698, 699, 709, 714, 726, 767, 784, 802, 831, 849, 875, 885, 904, 926,
      935, 974, 976, 987, 1010, 1019,
    ],
  },
  caffeine: {
    smiles: 'Cn1c(=O)c2c(ncn2C)n(C)c1=O',
    on1024: [0, 33, 121, 179, 234, 283, 314, 330, 356, 378, 385, 400, 416, 428, 463, 493, 504, 564, 650, 672, 771, 849, 932, 935],
  },
  aspirin: {
    smiles: 'CC(=O)Oc1ccccc1C(=O)O',
    on1024: [11, 23, 33, 64, 175, 356, 386, 389, 423, 444, 456, 592, 650, 695, 705, 726, 751, 807, 849, 893, 909, 946, 967, 1017],
  },
} as const;
type Molecule = keyof typeof REFERENCE_FINGERPRINTS;

/**
 * Computed once by an independent route: onnxruntime-node 1.30.0 (native CPU build, outside this
 * repository) running chembl_37_multitask_q8.onnx as it is on the fingerprints above — per molecule
 * the three highest probabilities, the two lowest, and the target the drug is known for (which the
 * model ranks low: README.md "What the numbers say").
 */
const REFERENCE_PROBABILITIES: Record<Molecule, [string, number][]> = {
  erlotinib: [
    ['CHEMBL4794', 0.982751],
    ['CHEMBL1899', 0.9630346],
    ['CHEMBL4360', 0.959078],
    ['CHEMBL4600', 0.0019433],
    ['CHEMBL2208', 0.0016573],
    ['CHEMBL203', 0.2838464],
  ],
  imatinib: [
    ['CHEMBL5879', 0.9876729],
    ['CHEMBL4794', 0.9742633],
    ['CHEMBL4518', 0.9498439],
    ['CHEMBL2208', 0.0096722],
    ['CHEMBL4816', 0.0088775],
    ['CHEMBL1862', 0.0893752],
  ],
  risperidone: [
    ['CHEMBL4360', 0.9940751],
    ['CHEMBL4478', 0.9923246],
    ['CHEMBL4794', 0.9906384],
    ['CHEMBL4482', 0.005566],
    ['CHEMBL3720', 0.0026301],
    ['CHEMBL217', 0.5710326],
  ],
  caffeine: [
    ['CHEMBL3751648', 0.9475641],
    ['CHEMBL4360', 0.9462745],
    ['CHEMBL1899', 0.9423911],
    ['CHEMBL3797', 0.0014893],
    ['CHEMBL1293316', 0.0005395],
    ['CHEMBL251', 0.1570941],
  ],
  aspirin: [
    ['CHEMBL5160', 0.9555914],
    ['CHEMBL1899', 0.9265385],
    ['CHEMBL4794', 0.8656554],
    ['CHEMBL3797', 0.0017457],
    ['CHEMBL4123', 0.001628],
    ['CHEMBL221', 0.3343088],
  ],
};

/** A stored-style 2,048-bit fingerprint with about `bits` bits set. */
function randomFingerprint(next: () => number, bits = 45): Uint8Array {
  const fp = new Uint8Array(256);
  for (let k = 0; k < bits; k++) {
    const i = Math.floor(next() * 2048);
    fp[i >> 3]! |= 1 << (i & 7);
  }
  return fp;
}

function onBits(values: Float32Array): number[] {
  return [...values.keys()].filter((i) => values[i] === 1);
}

// ---------------------------------------------------------------------------------------------
// A small model of the same form as ChEMBL's (input 1,024 → quantised hidden layer → quantised
// single-output heads), built here so the compaction and the fallback are tested without the file.

function int8Tensor(name: string, dims: number[], values: number[]): OnnxTensor {
  return tensor(
    name,
    DataType.INT8,
    dims,
    Uint8Array.from(values, (v) => v & 0xff),
  );
}

function valueInfo(name: string, dims: number[]): OnnxValueInfo {
  return { name, type: { tensorType: { elemType: DataType.FLOAT, shape: { dim: dims.map((d) => ({ dimValue: d })) } } } };
}

function castToFloat(input: string, output: string): OnnxNode {
  const cast = node('Cast', [input], [output], `${output}_node`);
  cast.attribute.push({ name: 'to', type: 2, i: DataType.FLOAT, floats: [], ints: [], strings: [], tensors: [], graphs: [] });
  return cast;
}

interface SmallModelOptions {
  heads?: number;
  /** Zero point of each head's weight (default all 0). */
  zeroPoints?: number[];
  /** Head 1 reads head 0's weight: a graph outside the pattern. */
  shareAWeight?: boolean;
}

function smallModel(seed: number, options: SmallModelOptions = {}): Uint8Array {
  const next = mulberry32(seed);
  const H = 8;
  const heads = options.heads ?? 3;
  const int8 = (n: number) => Array.from({ length: n }, () => Math.floor(next() * 255) - 127);
  const floats = (n: number, scale: number) => Float32Array.from({ length: n }, () => (next() - 0.5) * scale);
  const nodes: OnnxNode[] = [
    node('DynamicQuantizeLinear', ['input'], ['xq', 'xs', 'xzp'], 'quantize_input'),
    node('Mul', ['xs', 'w1_scale'], ['s1'], 'fc1_scales'),
    node('MatMulInteger', ['xq', 'w1', 'xzp', 'w1_zp'], ['q1'], 'fc1'),
    castToFloat('q1', 'c1'),
    node('Mul', ['c1', 's1'], ['m1'], 'fc1_scale'),
    node('Add', ['b1', 'm1'], ['a1'], 'fc1_bias'),
    node('Relu', ['a1'], ['h'], 'relu'),
    node('DynamicQuantizeLinear', ['h'], ['hq', 'hs', 'hzp'], 'quantize_hidden'),
  ];
  const initializer: OnnxTensor[] = [
    floatTensor('w1_scale', [], Float32Array.of(0.004)),
    int8Tensor('w1', [1024, H], int8(1024 * H)),
    int8Tensor('w1_zp', [], [0]),
    floatTensor('b1', [H], floats(H, 0.2)),
  ];
  const outputs: OnnxValueInfo[] = [];
  for (let k = 0; k < heads; k++) {
    const weight = options.shareAWeight && k === 1 ? 'w_head0' : `w_head${k}`;
    nodes.push(
      node('Mul', ['hs', `scale_head${k}`], [`s_head${k}`], `head${k}_scales`),
      node('MatMulInteger', ['hq', weight, 'hzp', `zp_head${k}`], [`q_head${k}`], `head${k}_matmul`),
      castToFloat(`q_head${k}`, `c_head${k}`),
      node('Mul', [`c_head${k}`, `s_head${k}`], [`m_head${k}`], `head${k}_scale`),
      node('Add', [`b_head${k}`, `m_head${k}`], [`a_head${k}`], `head${k}_bias`),
      node('Sigmoid', [`a_head${k}`], [`CHEMBL${k + 1}`], `head${k}_sigmoid`),
    );
    initializer.push(
      floatTensor(`scale_head${k}`, [], Float32Array.of(0.002 + next() * 0.002)),
      int8Tensor(`zp_head${k}`, [], [options.zeroPoints?.[k] ?? 0]),
      floatTensor(`b_head${k}`, [1], floats(1, 1)),
    );
    if (weight === `w_head${k}`) initializer.push(int8Tensor(weight, [H, 1], int8(H)));
    outputs.push(valueInfo(`CHEMBL${k + 1}`, [1]));
  }
  const model: OnnxModel = {
    irVersion: 8,
    opsetImport: [{ domain: '', version: 18 }],
    producerName: 'multitask-model.test',
    metadataProps: [],
    trainingInfo: [],
    functions: [],
    graph: {
      name: 'small multitask',
      node: nodes,
      initializer,
      sparseInitializer: [],
      input: [valueInfo('input', [1024])],
      output: outputs,
      valueInfo: [],
      quantizationAnnotation: [],
    },
  };
  return encodeModel(model);
}

const SMALL_TARGETS = ['CHEMBL1', 'CHEMBL2', 'CHEMBL3'];

async function predictAll(model: MultitaskModel, fingerprints: Uint8Array[]): Promise<Float32Array[]> {
  const out: Float32Array[] = [];
  for (const fp of fingerprints) out.push(await model.predict(fp));
  return out;
}

describe('the fold of a stored fingerprint to the model input', () => {
  it('sets bit i when bit i or bit i + 1024 of the stored fingerprint is set, reading bytes least significant bit first', () => {
    const fp = new Uint8Array(256);
    fp[0] = 0b0000_0101; // bits 0 and 2
    fp[128] = 0b1000_0000; // bit 1031 → 7
    fp[255] = 0b1000_0000; // bit 2047 → 1023
    fp[127] = 0b1000_0000; // bit 1023, also reached by 2047
    expect(onBits(morgan1024(fp))).toEqual([0, 2, 7, 1023]);
  });

  it('refuses a fingerprint that is not 2,048 bits', () => {
    expect(() => morgan1024(new Uint8Array(128))).toThrow(/2048 bits has 256 bytes/);
  });
});

describe('merging the per-target heads (compact-graph.ts), on a small model of the same form', () => {
  const next = mulberry32(7);
  const fingerprints = Array.from({ length: 40 }, () => randomFingerprint(next));

  it('gives the same probabilities as the graph as it is, bit for bit', async () => {
    const bytes = smallModel(1);
    const merged = await loadMultitaskModel({ model: bytes, targets: SMALL_TARGETS, name: 'small' });
    const plain = await loadMultitaskModel({ model: bytes, targets: SMALL_TARGETS, name: 'small' }, { compact: false });
    expect(merged.compacted).toBe(true);
    expect(plain.compacted).toBe(false);
    expect(await predictAll(merged, fingerprints)).toEqual(await predictAll(plain, fingerprints));
    await Promise.all([merged.close(), plain.close()]);
  });

  it('keeps per-head weight zero points as one per column', async () => {
    const bytes = smallModel(2, { zeroPoints: [0, 3, -5] });
    const result = compactHeads(bytes);
    expect(result.compacted).toBe(true);
    const merged = await loadMultitaskModel({ model: bytes, targets: SMALL_TARGETS, name: 'small' });
    const plain = await loadMultitaskModel({ model: bytes, targets: SMALL_TARGETS, name: 'small' }, { compact: false });
    expect(await predictAll(merged, fingerprints)).toEqual(await predictAll(plain, fingerprints));
    await Promise.all([merged.close(), plain.close()]);
  });

  it('gives the probabilities in the order of the target list when it differs from the outputs', async () => {
    const bytes = smallModel(3);
    const inOrder = await loadMultitaskModel({ model: bytes, targets: SMALL_TARGETS, name: 'small' });
    const reversed = await loadMultitaskModel({ model: bytes, targets: [...SMALL_TARGETS].reverse(), name: 'small' });
    const a = await inOrder.predict(fingerprints[0]!);
    expect([...(await reversed.predict(fingerprints[0]!))]).toEqual([...a].reverse());
    await Promise.all([inOrder.close(), reversed.close()]);
  });

  it('runs a graph outside the pattern as it is, and says why', async () => {
    const bytes = smallModel(4, { shareAWeight: true });
    const model = await loadMultitaskModel({ model: bytes, targets: SMALL_TARGETS, name: 'small' });
    expect(model.compacted).toBe(false);
    expect(model.compactionNote).toMatch(/heads could not be merged \(the constant "w_head0" is shared\)/);
    const p = await model.predict(fingerprints[0]!);
    expect(p).toHaveLength(3);
    expect([...p].every((x) => x > 0 && x < 1)).toBe(true);
    await model.close();
  });

  it('refuses a target list of another length than the outputs, saying both numbers', async () => {
    await expect(loadMultitaskModel({ model: smallModel(5), targets: ['CHEMBL1', 'CHEMBL2'], name: 'small' })).rejects.toThrow(
      new ModelFileError('The model has 3 outputs but the target list has 2 ids'),
    );
  });

  it('refuses bytes that are not a model, and a target list that is not ChEMBL ids', async () => {
    const next8 = mulberry32(8);
    const junk = Uint8Array.from({ length: 5000 }, () => Math.floor(next8() * 256));
    const error = await loadMultitaskModel({ model: junk, targets: SMALL_TARGETS, name: 'junk' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelFileError);
    expect((error as Error).message).toMatch(/^The (file is not an ONNX model|model)/);
    await expect(loadMultitaskModel({ model: smallModel(6), targets: ['CHEMBL1', 'EGFR', 'CHEMBL3'], name: 'small' })).rejects.toThrow(
      /Entry 2 of the target list \("EGFR"\) is not a ChEMBL id/,
    );
  });
});

describe('the model folder', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'multitask-folder-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('is no model when the folder is missing or holds no .onnx file', async () => {
    expect(await readModelFolder(path.join(dir, 'missing'))).toBeNull();
    await mkdir(path.join(dir, 'empty'));
    expect(await readModelFolder(path.join(dir, 'empty'))).toBeNull();
  });

  it('reads the upstream files as they are, naming the model from the file name', async () => {
    const folder = path.join(dir, 'upstream');
    await mkdir(folder);
    const bytes = smallModel(9);
    await writeFile(path.join(folder, 'chembl_37_multitask_q8.onnx'), bytes);
    await writeFile(path.join(folder, 'targets_37_all.json'), JSON.stringify(SMALL_TARGETS));
    expect(await readModelFolder(folder)).toEqual({ model: new Uint8Array(bytes), targets: SMALL_TARGETS, name: 'ChEMBL 37 multitask' });
    await writeFile(path.join(folder, 'model.json'), JSON.stringify({ name: 'Our model' }));
    expect((await readModelFolder(folder))?.name).toBe('Our model');
  });

  it('names models from their files', () => {
    expect(modelNameFromFile('chembl_37_multitask_q8.onnx')).toBe('ChEMBL 37 multitask');
    expect(modelNameFromFile('chembl_37_multitask_kinase_q8.onnx')).toBe('ChEMBL 37 multitask kinase');
    expect(modelNameFromFile('my-model.onnx')).toBe('my model');
  });

  it('refuses a folder with two models, or a target list that is not JSON', async () => {
    const two = path.join(dir, 'two');
    await mkdir(two);
    await writeFile(path.join(two, 'a.onnx'), smallModel(10));
    await writeFile(path.join(two, 'b.onnx'), smallModel(10));
    await writeFile(path.join(two, 'targets.json'), JSON.stringify(SMALL_TARGETS));
    await expect(readModelFolder(two)).rejects.toThrow(/holds 2 \.onnx files \(a\.onnx, b\.onnx\)/);

    const bad = path.join(dir, 'bad');
    await mkdir(bad);
    await writeFile(path.join(bad, 'a.onnx'), smallModel(10));
    await writeFile(path.join(bad, 'targets.json'), '["CHEMBL1",');
    await expect(readModelFolder(bad)).rejects.toThrow(new ModelFileError('targets.json is not valid JSON'));
  });

  it('installs over the previous model, leaving only the new files and no temporary ones', async () => {
    const folder = path.join(dir, 'upstream');
    const bytes = smallModel(11);
    await writeModelFolder(folder, { model: bytes, targets: SMALL_TARGETS, name: 'Installed' });
    expect((await readdir(folder)).sort()).toEqual(['model.json', 'model.onnx', 'targets.json']);
    expect(await readModelFolder(folder)).toEqual({ model: new Uint8Array(bytes), targets: SMALL_TARGETS, name: 'Installed' });
  });

  it('lets a reader see the old model or the new one while installs replace it, never a mix', async () => {
    const folder = path.join(dir, 'busy');
    const a = { model: smallModel(15), targets: SMALL_TARGETS, name: 'A' };
    const b = { model: smallModel(16), targets: ['CHEMBL7', 'CHEMBL8', 'CHEMBL9'], name: 'B' };
    await writeModelFolder(folder, a);
    let writing = true;
    const writes = (async () => {
      for (let i = 0; writing; i++) await writeModelFolder(folder, i % 2 ? a : b);
    })();
    const seen = { A: 0, B: 0, busy: 0 };
    for (let i = 0; i < 12; i++) {
      try {
        const read = (await readModelFolder(folder))!;
        const expected = read.name === 'A' ? a : b;
        expect(read).toEqual({ ...expected, model: new Uint8Array(expected.model) });
        seen[read.name as 'A' | 'B']++;
      } catch (error) {
        // Writes without pause for the whole time: a reader may give up, saying why, but never reads a mix.
        expect(error).toBeInstanceOf(ModelFileError);
        expect((error as ModelFileError).transient).toBe(true);
        seen.busy++;
      }
    }
    writing = false;
    await writes;
    expect(seen.A + seen.B).toBeGreaterThan(0);
  });

  it('refuses a model placed by hand beside an installed one', async () => {
    const folder = path.join(dir, 'beside');
    await writeModelFolder(folder, { model: smallModel(13), targets: SMALL_TARGETS, name: 'Installed' });
    await writeFile(path.join(folder, 'chembl_38_multitask_q8.onnx'), smallModel(14));
    await expect(readModelFolder(folder)).rejects.toThrow(/holds chembl_38_multitask_q8\.onnx beside the installed model\.onnx/);
  });

  it('notices a model file replaced behind the checksums of model.json', async () => {
    const folder = path.join(dir, 'upstream');
    await writeFile(path.join(folder, 'model.onnx'), smallModel(12));
    await expect(readModelFolder(folder)).rejects.toThrow(/model\.onnx or targets\.json is not the file model\.json describes/);
  });
});

describe.skipIf(!modelPresent)('the ChEMBL 37 multitask model (../shared/models/chembl-multitask)', () => {
  let rd: Awaited<ReturnType<typeof initRDKitModule>>;
  let files: NonNullable<Awaited<ReturnType<typeof readModelFolder>>>;
  let model: MultitaskModel;
  const stored: Partial<Record<Molecule, Uint8Array>> = {};

  beforeAll(async () => {
    rd = await initRDKitModule();
    for (const [name, { smiles }] of Object.entries(REFERENCE_FINGERPRINTS)) {
      const mol = rd.get_mol(smiles)!;
      // As the knowledge base stores it (chemistry/fingerprint.mjs).
      stored[name as Molecule] = mol.get_morgan_fp_as_uint8array(MORGAN_SETTINGS);
      mol.delete();
    }
    files = (await readModelFolder(MODEL_DIR))!;
    model = await loadMultitaskModel(files);
  });
  afterAll(async () => {
    await model?.close();
  });

  it('folds the stored 2,048-bit fingerprint into RDKit’s 1,024-bit one', () => {
    for (const [name, { on1024 }] of Object.entries(REFERENCE_FINGERPRINTS)) {
      expect(onBits(morgan1024(stored[name as Molecule]!)), name).toEqual(on1024);
    }
  });

  it('reads the folder and merges the 798 heads into one output', () => {
    expect(files.name).toBe('ChEMBL 37 multitask');
    expect(model.targets).toHaveLength(798);
    expect(model.compacted).toBe(true);
  });

  it('predicts what the native ONNX Runtime predicts for the same molecules', async () => {
    for (const [name, expected] of Object.entries(REFERENCE_PROBABILITIES)) {
      const p = await model.predict(stored[name as Molecule]!);
      for (const [target, probability] of expected) {
        expect(p[model.targets.indexOf(target)], `${name} on ${target}`).toBeCloseTo(probability, 4);
      }
      const top = [...p.keys()]
        .sort((a, b) => p[b]! - p[a]!)
        .slice(0, 3)
        .map((i) => model.targets[i]);
      expect(top, name).toEqual(expected.slice(0, 3).map(([target]) => target));
    }
  });

  it('gives exactly the probabilities of the graph as it is, in a fraction of the time', async () => {
    const next = mulberry32(38);
    const fingerprints = [...Object.values(stored), ...Array.from({ length: 25 }, () => randomFingerprint(next))];
    const plain = await loadMultitaskModel(files, { compact: false });
    try {
      const time = async (m: MultitaskModel) => {
        const start = performance.now();
        const out = await predictAll(m, fingerprints);
        return { out, ms: (performance.now() - start) / fingerprints.length };
      };
      await predictAll(model, fingerprints); // warm-up
      const merged = await time(model);
      const original = await time(plain);
      expect(merged.out).toEqual(original.out);
      console.log(`multitask model: ${merged.ms.toFixed(2)} ms a molecule merged, ${original.ms.toFixed(2)} ms as the file is`);
      // Generous against a busy machine; measured ≈0.4 ms against ≈17 ms (README.md).
      expect(merged.ms).toBeLessThan(original.ms / 4);
    } finally {
      await plain.close();
    }
  });

  it('refuses the model with a target list of another length', async () => {
    await expect(loadMultitaskModel({ ...files, targets: files.targets.slice(0, 700) })).rejects.toThrow(
      new ModelFileError('The model has 798 outputs but the target list has 700 ids'),
    );
  });

  it('reads a copy of the real files from a folder it installed', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'multitask-real-'));
    try {
      await writeModelFolder(dir, files);
      const again = await readModelFolder(dir);
      expect(again?.targets).toEqual(files.targets);
      expect(Buffer.compare(Buffer.from(again!.model), await readFile(path.join(MODEL_DIR, 'chembl_37_multitask_q8.onnx')))).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
