import { DataType, bytesOf, decodeModel, dimsOf, encodeModel, floatTensor, floatsOf, int64, node, tensor } from './onnx-proto.ts';
import type { OnnxGraph, OnnxModel, OnnxNode, OnnxTensor } from './onnx-proto.ts';

/** The name of the one output of a compacted model: the heads' probabilities in head order. */
export const COMPACT_OUTPUT = 'probabilities';

export type CompactResult = { compacted: true; model: Uint8Array; heads: string[] } | { compacted: false; reason: string };

/** One quantised single-output head, as ONNX Runtime's dynamic quantiser writes it for `Linear(K, 1)` then Sigmoid. */
interface Head {
  output: string;
  nodes: OnnxNode[];
  weight: Int16Array;
  weightType: number;
  zeroPoint: number;
  weightScale: number;
  bias: number;
  initializers: string[];
}

/** What the heads share: the hidden layer quantised once by DynamicQuantizeLinear. */
interface Shared {
  quantized: string;
  scale: string;
  zeroPoint: string;
  width: number;
}

class NoMatch extends Error {}

function check(condition: boolean, reason: string): asserts condition {
  if (!condition) throw new NoMatch(reason);
}

/**
 * Rewrites a multitask model whose T outputs are T separate quantised heads into one with a single
 * [T] output (docs in README.md beside this file). The ChEMBL multitask model's heads are each
 *
 *   s = Mul(hidden_scale, w_scale) ; q = MatMulInteger(hidden_q, W[K,1], hidden_zp, w_zp)
 *   Add(bias, Mul(Cast<float>(q), s)) → Sigmoid → output named by the target
 *
 * five tiny nodes per target, 4,000 kernel launches per molecule in all. The rewrite stacks the
 * T weight columns into one [K,T] matrix (per-column zero points where they differ, as
 * MatMulInteger allows) and runs the same five operations once over vectors of T, so each target's
 * value comes from the same float32 operations on the same numbers. Anything that does not fit
 * the pattern exactly — another operation, a tensor read elsewhere, a weight of another shape —
 * leaves the model as it is (`compacted: false` with the reason), still correct, only slower.
 */
export function compactHeads(bytes: Uint8Array): CompactResult {
  let model: OnnxModel;
  try {
    model = decodeModel(bytes);
  } catch (error) {
    return { compacted: false, reason: `not an ONNX model (${error instanceof Error ? error.message : String(error)})` };
  }
  try {
    return { compacted: true, ...rewrite(model) };
  } catch (error) {
    if (error instanceof NoMatch) return { compacted: false, reason: error.message };
    throw error;
  }
}

function rewrite(model: OnnxModel): { model: Uint8Array; heads: string[] } {
  const graph = model.graph;
  check(!!graph, 'the model has no graph');
  check(model.functions.length === 0 && model.trainingInfo.length === 0, 'the model has functions or training information');
  check(
    graph.sparseInitializer.length === 0 && graph.quantizationAnnotation.length === 0,
    'the graph has sparse initialisers or quantisation annotations',
  );
  check(graph.output.length >= 2, 'the graph has fewer than two outputs');

  const initializers = new Map(graph.initializer.map((t) => [t.name ?? '', t]));
  const producer = new Map<string, OnnxNode>();
  const consumers = new Map<string, OnnxNode[]>();
  for (const n of graph.node) {
    check((n.domain ?? '') === '' || n.domain === 'ai.onnx', `the graph uses the operator domain "${n.domain}"`);
    for (const out of n.output) producer.set(out, n);
    for (const input of n.input) {
      const list = consumers.get(input);
      if (list) list.push(n);
      else consumers.set(input, [n]);
    }
  }
  const graphOutputs = new Set(graph.output.map((o) => o.name ?? ''));
  const graphInputs = new Set(graph.input.map((i) => i.name ?? ''));

  /** The node that makes `name`, provided nothing but `reader` reads it and it is not a graph output. */
  const onlyFor = (name: string, reader: OnnxNode, op: string): OnnxNode => {
    const made = producer.get(name);
    check(!!made && made.opType === op, `"${name}" is not made by ${op}`);
    check(made.output.length === 1 && !graphOutputs.has(name), `"${name}" is also a graph output`);
    const readers = consumers.get(name) ?? [];
    check(readers.length === 1 && readers[0] === reader, `"${name}" is read by more than one node`);
    return made;
  };
  const constant = (name: string): OnnxTensor => {
    const t = initializers.get(name);
    check(!!t && !graphInputs.has(name), `"${name}" is not a constant`);
    check((consumers.get(name) ?? []).length === 1, `the constant "${name}" is shared`);
    check(t.dataLocation !== 1 && t.externalData.length === 0, `"${name}" is stored outside the model`);
    return t;
  };
  const scalar = (t: OnnxTensor): number => {
    const values = floatsOf(t);
    check(!!values && values.length === 1 && dimsOf(t).length <= 1, `"${t.name}" is not one float`);
    return values[0]!;
  };
  /** The operand of a two-input node that is not `known`; either order, as Add and Mul are commutative. */
  const other = (n: OnnxNode, known: (name: string) => boolean): [string, string] => {
    check(n.input.length === 2 && n.attribute.length === 0, `${n.opType} "${n.name}" is not a plain binary operation`);
    const [a, b] = n.input as [string, string];
    if (known(a)) return [a, b];
    check(known(b), `${n.opType} "${n.name}" has no constant operand`);
    return [b, a];
  };

  let shared: Shared | null = null;
  const heads: Head[] = graph.output.map((out) => {
    const output = out.name ?? '';
    const sigmoid = producer.get(output);
    check(
      !!sigmoid && sigmoid.opType === 'Sigmoid' && sigmoid.output.length === 1 && sigmoid.attribute.length === 0,
      `output "${output}" is not made by Sigmoid`,
    );
    check((consumers.get(output) ?? []).length === 0, `output "${output}" is read by other nodes`);
    const add = onlyFor(sigmoid.input[0]!, sigmoid, 'Add');
    const [biasName, scaledName] = other(add, (name) => initializers.has(name));
    const bias = scalar(constant(biasName));
    const mulOut = onlyFor(scaledName, add, 'Mul');
    check(mulOut.input.length === 2 && mulOut.attribute.length === 0, `Mul "${mulOut.name}" is not a plain product`);
    const [first, second] = mulOut.input as [string, string];
    const castFirst = producer.get(first)?.opType === 'Cast';
    const cast = onlyFor(castFirst ? first : second, mulOut, 'Cast');
    const mulScales = onlyFor(castFirst ? second : first, mulOut, 'Mul');
    check(
      cast.attribute.length === 1 && cast.attribute[0]!.name === 'to' && int64(cast.attribute[0]!.i) === DataType.FLOAT,
      `Cast "${cast.name}" does not cast to float`,
    );
    const [weightScaleName, hiddenScale] = other(mulScales, (name) => initializers.has(name));
    const weightScale = scalar(constant(weightScaleName));
    const matmul = onlyFor(cast.input[0]!, cast, 'MatMulInteger');
    check(matmul.input.length === 4 && matmul.attribute.length === 0, `MatMulInteger "${matmul.name}" lacks its zero points`);
    const [hiddenQ, weightName, hiddenZp, weightZpName] = matmul.input as [string, string, string, string];
    const weightTensor = constant(weightName);
    const weight = bytesOf(weightTensor);
    const dims = dimsOf(weightTensor);
    check(!!weight && dims.length === 2 && dims[1] === 1, `the weight "${weightName}" is not one int8 column`);
    const zp = bytesOf(constant(weightZpName));
    check(
      !!zp && zp.type === weight.type && zp.values.length === 1,
      `the zero point "${weightZpName}" is not one value of the weight's type`,
    );

    const quantizer = producer.get(hiddenQ);
    check(!!quantizer && quantizer.opType === 'DynamicQuantizeLinear', `"${hiddenQ}" is not made by DynamicQuantizeLinear`);
    check(
      quantizer.output[0] === hiddenQ && quantizer.output[1] === hiddenScale && quantizer.output[2] === hiddenZp,
      `head "${output}" does not read one quantised hidden layer`,
    );
    shared ??= { quantized: hiddenQ, scale: hiddenScale, zeroPoint: hiddenZp, width: dims[0]! };
    check(shared.quantized === hiddenQ && shared.width === dims[0], `head "${output}" reads another hidden layer`);

    return {
      output,
      nodes: [mulScales, matmul, cast, mulOut, add, sigmoid],
      weight: weight.values,
      weightType: weight.type,
      zeroPoint: zp.values[0]!,
      weightScale,
      bias,
      initializers: [biasName, weightScaleName, weightName, weightZpName],
    };
  });
  const hidden = shared as Shared | null;
  check(hidden !== null, 'no heads');
  check(
    heads.every((h) => h.weightType === heads[0]!.weightType),
    'the heads mix int8 and uint8 weights',
  );

  const T = heads.length;
  const K = hidden.width;
  const weights = new Uint8Array(K * T);
  heads.forEach((h, t) => {
    for (let k = 0; k < K; k++) weights[k * T + t] = h.weight[k]! & 0xff;
  });
  const sameZeroPoint = heads.every((h) => h.zeroPoint === heads[0]!.zeroPoint);
  const zeroPoints = new Uint8Array(sameZeroPoint ? 1 : T);
  if (sameZeroPoint) zeroPoints[0] = heads[0]!.zeroPoint & 0xff;
  else heads.forEach((h, t) => (zeroPoints[t] = h.zeroPoint & 0xff));

  const removedNodes = new Set(heads.flatMap((h) => h.nodes));
  const removedInits = new Set(heads.flatMap((h) => h.initializers));
  const removedValues = new Set(heads.flatMap((h) => h.nodes.flatMap((n) => n.output)));
  const prefix = '/compacted_heads';
  const names = {
    weights: `${prefix}/weights`,
    zeroPoints: `${prefix}/weight_zero_points`,
    weightScales: `${prefix}/weight_scales`,
    biases: `${prefix}/biases`,
    scales: `${prefix}/scales`,
    q: `${prefix}/matmul_integer`,
    cast: `${prefix}/cast`,
    scaled: `${prefix}/scaled`,
    logits: `${prefix}/logits`,
  };
  check(
    ![...Object.values(names), COMPACT_OUTPUT].some((n) => producer.has(n) || initializers.has(n) || graphInputs.has(n)),
    'the graph already uses the compacted names',
  );

  const castNode = node('Cast', [names.q], [names.cast], `${prefix}/Cast`);
  castNode.attribute.push({ name: 'to', type: 2, i: DataType.FLOAT, floats: [], ints: [], strings: [], tensors: [], graphs: [] });
  const compactGraph: OnnxGraph = {
    ...graph,
    node: [
      ...graph.node.filter((n) => !removedNodes.has(n)),
      node('Mul', [hidden.scale, names.weightScales], [names.scales], `${prefix}/MulScales`),
      node('MatMulInteger', [hidden.quantized, names.weights, hidden.zeroPoint, names.zeroPoints], [names.q], `${prefix}/MatMulInteger`),
      castNode,
      node('Mul', [names.cast, names.scales], [names.scaled], `${prefix}/MulOutputScale`),
      node('Add', [names.biases, names.scaled], [names.logits], `${prefix}/Add`),
      node('Sigmoid', [names.logits], [COMPACT_OUTPUT], `${prefix}/Sigmoid`),
    ],
    initializer: [
      ...graph.initializer.filter((t) => !removedInits.has(t.name ?? '')),
      tensor(names.weights, heads[0]!.weightType, [K, T], weights),
      tensor(names.zeroPoints, heads[0]!.weightType, sameZeroPoint ? [] : [T], zeroPoints),
      floatTensor(
        names.weightScales,
        [T],
        Float32Array.from(heads, (h) => h.weightScale),
      ),
      floatTensor(
        names.biases,
        [T],
        Float32Array.from(heads, (h) => h.bias),
      ),
    ],
    output: [{ name: COMPACT_OUTPUT, type: { tensorType: { elemType: DataType.FLOAT, shape: { dim: [{ dimValue: T }] } } } }],
    valueInfo: graph.valueInfo.filter((v) => !removedValues.has(v.name ?? '')),
  };
  return { model: encodeModel({ ...model, graph: compactGraph }), heads: heads.map((h) => h.output) };
}
