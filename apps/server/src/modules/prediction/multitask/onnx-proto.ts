import protobuf from 'protobufjs/light.js';

/**
 * The part of ONNX's protobuf schema (onnx/onnx.proto, field numbers as there) that reading and
 * rewriting a model needs. Messages the rewrite does not understand (functions, training info,
 * sparse initialisers, quantisation annotations, non-tensor types) are declared as opaque bytes
 * so that they survive a decode and encode unchanged and their presence can be seen.
 */
const ONNX_SCHEMA = {
  nested: {
    onnx: {
      nested: {
        ModelProto: {
          fields: {
            irVersion: { type: 'int64', id: 1 },
            opsetImport: { rule: 'repeated', type: 'OperatorSetIdProto', id: 8 },
            producerName: { type: 'string', id: 2 },
            producerVersion: { type: 'string', id: 3 },
            domain: { type: 'string', id: 4 },
            modelVersion: { type: 'int64', id: 5 },
            docString: { type: 'string', id: 6 },
            graph: { type: 'GraphProto', id: 7 },
            metadataProps: { rule: 'repeated', type: 'StringStringEntryProto', id: 14 },
            trainingInfo: { rule: 'repeated', type: 'bytes', id: 20 },
            functions: { rule: 'repeated', type: 'bytes', id: 25 },
          },
        },
        OperatorSetIdProto: { fields: { domain: { type: 'string', id: 1 }, version: { type: 'int64', id: 2 } } },
        StringStringEntryProto: { fields: { key: { type: 'string', id: 1 }, value: { type: 'string', id: 2 } } },
        GraphProto: {
          fields: {
            node: { rule: 'repeated', type: 'NodeProto', id: 1 },
            name: { type: 'string', id: 2 },
            initializer: { rule: 'repeated', type: 'TensorProto', id: 5 },
            sparseInitializer: { rule: 'repeated', type: 'bytes', id: 15 },
            docString: { type: 'string', id: 10 },
            input: { rule: 'repeated', type: 'ValueInfoProto', id: 11 },
            output: { rule: 'repeated', type: 'ValueInfoProto', id: 12 },
            valueInfo: { rule: 'repeated', type: 'ValueInfoProto', id: 13 },
            quantizationAnnotation: { rule: 'repeated', type: 'bytes', id: 14 },
          },
        },
        NodeProto: {
          fields: {
            input: { rule: 'repeated', type: 'string', id: 1 },
            output: { rule: 'repeated', type: 'string', id: 2 },
            name: { type: 'string', id: 3 },
            opType: { type: 'string', id: 4 },
            domain: { type: 'string', id: 7 },
            attribute: { rule: 'repeated', type: 'AttributeProto', id: 5 },
            docString: { type: 'string', id: 6 },
          },
        },
        AttributeProto: {
          fields: {
            name: { type: 'string', id: 1 },
            refAttrName: { type: 'string', id: 21 },
            docString: { type: 'string', id: 13 },
            type: { type: 'int32', id: 20 },
            f: { type: 'float', id: 2 },
            i: { type: 'int64', id: 3 },
            s: { type: 'bytes', id: 4 },
            t: { type: 'TensorProto', id: 5 },
            g: { type: 'GraphProto', id: 6 },
            sparseTensor: { type: 'bytes', id: 22 },
            tp: { type: 'bytes', id: 14 },
            floats: { rule: 'repeated', type: 'float', id: 7 },
            ints: { rule: 'repeated', type: 'int64', id: 8 },
            strings: { rule: 'repeated', type: 'bytes', id: 9 },
            tensors: { rule: 'repeated', type: 'TensorProto', id: 10 },
            graphs: { rule: 'repeated', type: 'GraphProto', id: 11 },
            sparseTensors: { rule: 'repeated', type: 'bytes', id: 23 },
            typeProtos: { rule: 'repeated', type: 'bytes', id: 15 },
          },
        },
        TensorProto: {
          fields: {
            dims: { rule: 'repeated', type: 'int64', id: 1 },
            dataType: { type: 'int32', id: 2 },
            segment: { type: 'bytes', id: 3 },
            floatData: { rule: 'repeated', type: 'float', id: 4 },
            int32Data: { rule: 'repeated', type: 'int32', id: 5 },
            stringData: { rule: 'repeated', type: 'bytes', id: 6 },
            int64Data: { rule: 'repeated', type: 'int64', id: 7 },
            name: { type: 'string', id: 8 },
            docString: { type: 'string', id: 12 },
            rawData: { type: 'bytes', id: 9 },
            externalData: { rule: 'repeated', type: 'StringStringEntryProto', id: 13 },
            dataLocation: { type: 'int32', id: 14 },
            doubleData: { rule: 'repeated', type: 'double', id: 10 },
            uint64Data: { rule: 'repeated', type: 'uint64', id: 11 },
          },
        },
        ValueInfoProto: {
          fields: { name: { type: 'string', id: 1 }, type: { type: 'TypeProto', id: 2 }, docString: { type: 'string', id: 3 } },
        },
        TypeProto: {
          fields: {
            tensorType: { type: 'TypeProtoTensor', id: 1 },
            sequenceType: { type: 'bytes', id: 4 },
            mapType: { type: 'bytes', id: 5 },
            optionalType: { type: 'bytes', id: 9 },
            sparseTensorType: { type: 'bytes', id: 8 },
            denotation: { type: 'string', id: 6 },
          },
        },
        TypeProtoTensor: { fields: { elemType: { type: 'int32', id: 1 }, shape: { type: 'TensorShapeProto', id: 2 } } },
        TensorShapeProto: { fields: { dim: { rule: 'repeated', type: 'Dimension', id: 1 } } },
        Dimension: {
          oneofs: { value: { oneof: ['dimValue', 'dimParam'] } },
          fields: { dimValue: { type: 'int64', id: 1 }, dimParam: { type: 'string', id: 2 }, denotation: { type: 'string', id: 3 } },
        },
      },
    },
  },
};

const root = protobuf.Root.fromJSON(ONNX_SCHEMA);
const ModelType = root.lookupType('onnx.ModelProto');

/** protobufjs gives int64 fields as Long when the `long` package is present, else as number. */
export type Int64 = number | { toNumber(): number };

export interface OnnxModel {
  irVersion?: Int64;
  opsetImport: { domain?: string; version?: Int64 }[];
  producerName?: string;
  producerVersion?: string;
  domain?: string;
  modelVersion?: Int64;
  docString?: string;
  graph?: OnnxGraph;
  metadataProps: { key?: string; value?: string }[];
  trainingInfo: Uint8Array[];
  functions: Uint8Array[];
}

export interface OnnxGraph {
  node: OnnxNode[];
  name?: string;
  initializer: OnnxTensor[];
  sparseInitializer: Uint8Array[];
  docString?: string;
  input: OnnxValueInfo[];
  output: OnnxValueInfo[];
  valueInfo: OnnxValueInfo[];
  quantizationAnnotation: Uint8Array[];
}

export interface OnnxNode {
  input: string[];
  output: string[];
  name?: string;
  opType?: string;
  domain?: string;
  attribute: OnnxAttribute[];
  docString?: string;
}

interface OnnxAttribute {
  name?: string;
  type?: number;
  f?: number;
  i?: Int64;
  s?: Uint8Array;
  t?: OnnxTensor;
  floats: number[];
  ints: Int64[];
  strings: Uint8Array[];
  tensors: OnnxTensor[];
  graphs: OnnxGraph[];
}

export interface OnnxTensor {
  dims: Int64[];
  dataType?: number;
  segment?: Uint8Array;
  floatData: number[];
  int32Data: number[];
  stringData: Uint8Array[];
  int64Data: Int64[];
  name?: string;
  docString?: string;
  rawData?: Uint8Array;
  externalData: { key?: string; value?: string }[];
  dataLocation?: number;
  doubleData: number[];
  uint64Data: Int64[];
}

export interface OnnxValueInfo {
  name?: string;
  type?: {
    tensorType?: { elemType?: number; shape?: { dim: { dimValue?: Int64; dimParam?: string; denotation?: string }[] } };
    sequenceType?: Uint8Array;
    mapType?: Uint8Array;
    optionalType?: Uint8Array;
    sparseTensorType?: Uint8Array;
    denotation?: string;
  };
  docString?: string;
}

/** TensorProto.DataType values this code reads or writes (onnx.proto). */
export const DataType = { FLOAT: 1, UINT8: 2, INT8: 3, INT32: 6, INT64: 7 } as const;

/** Decodes a serialised ModelProto; throws protobufjs's error on bytes that are not one. */
export function decodeModel(bytes: Uint8Array): OnnxModel {
  return ModelType.decode(bytes) as unknown as OnnxModel;
}

export function encodeModel(model: OnnxModel): Uint8Array {
  return ModelType.encode(model as unknown as protobuf.Message).finish();
}

export function int64(value: Int64 | undefined): number {
  if (value === undefined) return 0;
  return typeof value === 'number' ? value : value.toNumber();
}

/** A tensor's dimensions as numbers. */
export function dimsOf(tensor: OnnxTensor): number[] {
  return tensor.dims.map(int64);
}

/** The declared shape of a graph input or output: a number per fixed dimension, null for a symbolic one; null if not a tensor. */
export function shapeOf(info: OnnxValueInfo): (number | null)[] | null {
  const tensor = info.type?.tensorType;
  if (!tensor) return null;
  return (tensor.shape?.dim ?? []).map((d) => (d.dimValue !== undefined && d.dimValue !== null ? int64(d.dimValue) : null));
}

function count(dims: number[]): number {
  return dims.reduce((a, b) => a * b, 1);
}

/** The float32 values of a FLOAT tensor, from raw_data (little endian) or float_data; null if another type. */
export function floatsOf(tensor: OnnxTensor): Float32Array | null {
  if (tensor.dataType !== DataType.FLOAT) return null;
  const n = count(dimsOf(tensor));
  if (tensor.rawData && tensor.rawData.length > 0) {
    if (tensor.rawData.length !== n * 4) return null;
    const view = new DataView(tensor.rawData.buffer, tensor.rawData.byteOffset, tensor.rawData.byteLength);
    const out = new Float32Array(n);
    for (let i = 0; i < n; i++) out[i] = view.getFloat32(i * 4, true);
    return out;
  }
  return tensor.floatData.length === n ? Float32Array.from(tensor.floatData) : null;
}

/** The values of an INT8 or UINT8 tensor (raw_data, or int32_data as ONNX allows), as numbers; null if another type. */
export function bytesOf(tensor: OnnxTensor): { type: number; values: Int16Array } | null {
  if (tensor.dataType !== DataType.INT8 && tensor.dataType !== DataType.UINT8) return null;
  const n = count(dimsOf(tensor));
  const out = new Int16Array(n);
  if (tensor.rawData && tensor.rawData.length > 0) {
    if (tensor.rawData.length !== n) return null;
    for (let i = 0; i < n; i++) {
      const b = tensor.rawData[i]!;
      out[i] = tensor.dataType === DataType.INT8 && b > 127 ? b - 256 : b;
    }
  } else {
    if (tensor.int32Data.length !== n) return null;
    for (let i = 0; i < n; i++) out[i] = tensor.int32Data[i]!;
  }
  return { type: tensor.dataType, values: out };
}

/** A new tensor initialiser. */
export function tensor(name: string, dataType: number, dims: number[], rawData: Uint8Array): OnnxTensor {
  return {
    name,
    dataType,
    dims,
    rawData,
    floatData: [],
    int32Data: [],
    stringData: [],
    int64Data: [],
    externalData: [],
    doubleData: [],
    uint64Data: [],
  };
}

export function floatTensor(name: string, dims: number[], values: Float32Array): OnnxTensor {
  const raw = new Uint8Array(values.length * 4);
  const view = new DataView(raw.buffer);
  values.forEach((v, i) => view.setFloat32(i * 4, v, true));
  return tensor(name, DataType.FLOAT, dims, raw);
}

export function node(opType: string, inputs: string[], outputs: string[], name: string): OnnxNode {
  return { opType, input: inputs, output: outputs, name, attribute: [] };
}
