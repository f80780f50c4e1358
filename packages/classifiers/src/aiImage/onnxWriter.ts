/**
 * A minimal writer of ONNX model files (protocol buffers, onnx.proto3 field numbers): just what the backbone
 * converter needs, so that a network can be assembled from weights in memory and handed to onnxruntime as bytes.
 */

/** ONNX tensor element types used here (TensorProto.DataType). */
export const ONNX_FLOAT = 1;
export const ONNX_INT64 = 7;

/** An attribute value: number → INT, `{ f }` → FLOAT, number[] → INTS, string → STRING. */
export type AttributeValue = number | { f: number } | number[] | string;

export interface OnnxNode {
  op: string;
  inputs: string[];
  outputs: string[];
  name?: string;
  attributes?: Record<string, AttributeValue>;
}

export interface OnnxTensor {
  name: string;
  dims: number[];
  /** FLOAT data (Float32Array) or INT64 data (BigInt64Array). */
  data: Float32Array | BigInt64Array;
}

export interface OnnxValueInfo {
  name: string;
  /** Dimensions; a string names a symbolic dimension such as `batch`. */
  shape: (number | string)[];
  /** Element type (TensorProto.DataType). @default ONNX_FLOAT */
  elemType?: number;
}

export interface OnnxGraph {
  name: string;
  nodes: OnnxNode[];
  initializers: OnnxTensor[];
  inputs: OnnxValueInfo[];
  outputs: OnnxValueInfo[];
  /** Default opset version of the ai.onnx domain. @default 13 */
  opset?: number;
  docString?: string;
}

/** Encodes a graph as an ONNX ModelProto (IR version 8). */
export function encodeOnnxModel(graph: OnnxGraph): Uint8Array {
  const opset = new Proto().string(1, '').int(2, graph.opset ?? 13);
  const g = new Proto();
  for (const node of graph.nodes) g.message(1, encodeNode(node));
  g.string(2, graph.name);
  for (const tensor of graph.initializers) g.message(5, encodeTensor(tensor));
  if (graph.docString) g.string(10, graph.docString);
  for (const input of graph.inputs) g.message(11, encodeValueInfo(input));
  for (const output of graph.outputs) g.message(12, encodeValueInfo(output));
  return new Proto()
    .int(1, 8)
    .string(2, 'content-analysis')
    .message(7, g)
    .message(8, opset)
    .finish();
}

function encodeNode(node: OnnxNode): Proto {
  const p = new Proto();
  for (const input of node.inputs) p.string(1, input);
  for (const output of node.outputs) p.string(2, output);
  if (node.name) p.string(3, node.name);
  p.string(4, node.op);
  for (const [name, value] of Object.entries(node.attributes ?? {})) {
    const a = new Proto().string(1, name);
    if (typeof value === 'number') a.int(3, value).int(20, 2);
    else if (typeof value === 'string') a.bytes(4, new TextEncoder().encode(value)).int(20, 3);
    else if (Array.isArray(value)) {
      for (const v of value) a.int(8, v);
      a.int(20, 7);
    } else a.float(2, value.f).int(20, 1);
    p.message(5, a);
  }
  return p;
}

function encodeTensor(tensor: OnnxTensor): Proto {
  const p = new Proto();
  for (const d of tensor.dims) p.int(1, d);
  p.int(2, tensor.data instanceof Float32Array ? ONNX_FLOAT : ONNX_INT64);
  p.string(8, tensor.name);
  // raw_data is little-endian; typed arrays are in host order, which is little-endian on every platform Node supports.
  p.bytes(9, new Uint8Array(tensor.data.buffer, tensor.data.byteOffset, tensor.data.byteLength));
  return p;
}

function encodeValueInfo(info: OnnxValueInfo): Proto {
  const shape = new Proto();
  for (const d of info.shape) shape.message(1, typeof d === 'number' ? new Proto().int(1, d) : new Proto().string(2, d));
  const tensorType = new Proto().int(1, info.elemType ?? ONNX_FLOAT).message(2, shape);
  return new Proto().string(1, info.name).message(2, new Proto().message(1, tensorType));
}

/** Protocol-buffer message under construction: a list of byte chunks. */
class Proto {
  private readonly chunks: Uint8Array[] = [];
  private size = 0;

  int(field: number, value: number): this {
    this.key(field, 0);
    return this.varint(BigInt.asUintN(64, BigInt(value)));
  }

  float(field: number, value: number): this {
    this.key(field, 5);
    const b = new Uint8Array(4);
    new DataView(b.buffer).setFloat32(0, value, true);
    return this.push(b);
  }

  string(field: number, value: string): this {
    return this.bytes(field, new TextEncoder().encode(value));
  }

  bytes(field: number, value: Uint8Array): this {
    this.key(field, 2);
    this.varint(BigInt(value.byteLength));
    return this.push(value);
  }

  message(field: number, value: Proto): this {
    this.key(field, 2);
    this.varint(BigInt(value.size));
    for (const chunk of value.chunks) this.push(chunk);
    return this;
  }

  finish(): Uint8Array {
    const out = new Uint8Array(this.size);
    let at = 0;
    for (const chunk of this.chunks) {
      out.set(chunk, at);
      at += chunk.byteLength;
    }
    return out;
  }

  private key(field: number, wireType: number): void {
    this.varint(BigInt((field << 3) | wireType));
  }

  private varint(value: bigint): this {
    const bytes: number[] = [];
    let v = value;
    do {
      let byte = Number(v & 0x7fn);
      v >>= 7n;
      if (v !== 0n) byte |= 0x80;
      bytes.push(byte);
    } while (v !== 0n);
    return this.push(Uint8Array.from(bytes));
  }

  private push(chunk: Uint8Array): this {
    this.chunks.push(chunk);
    this.size += chunk.byteLength;
    return this;
  }
}
