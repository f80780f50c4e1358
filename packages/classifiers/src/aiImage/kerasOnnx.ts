import type { OnnxGraph, OnnxNode, OnnxTensor } from './onnxWriter.js';

/**
 * Converts a Keras functional model, as saved in TensorFlow.js layers format (`model.json` topology and a weights
 * manifest), into an ONNX graph in NCHW layout: the layers convolutional image networks are built from (Conv2D,
 * DepthwiseConv2D, BatchNormalization, ReLU/Activation, Add, Concatenate, pooling, ZeroPadding2D), and the dense head.
 * The graph can stop at chosen layers ("taps") and return their globally pooled activations as one feature vector.
 */

/** A layer of a Keras model config, as far as the converter reads it. */
export interface KerasLayer {
  class_name: string;
  name: string;
  config: Record<string, unknown>;
  inbound_nodes: unknown[];
}

/** A tfjs weights-manifest entry. */
export interface KerasWeightSpec {
  name: string;
  shape: number[];
  dtype: string;
  quantization?: { min?: number; scale?: number; dtype: string };
}

/** A weight tensor, dequantized to float32, in Keras (channels-last) layout. */
export interface KerasWeight {
  shape: number[];
  data: Float32Array;
}

/** Reads the weights of a tfjs manifest from its concatenated shard bytes (uint8 affine quantization supported). */
export function decodeKerasWeights(specs: readonly KerasWeightSpec[], bytes: Uint8Array): Map<string, KerasWeight> {
  const weights = new Map<string, KerasWeight>();
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 0;
  for (const spec of specs) {
    const count = spec.shape.reduce((a, b) => a * b, 1);
    const data = new Float32Array(count);
    const q = spec.quantization;
    if (q !== undefined) {
      if (q.dtype !== 'uint8' || q.min === undefined || q.scale === undefined) {
        throw new Error(`weight ${spec.name}: quantization ${q.dtype} is not supported`);
      }
      for (let i = 0; i < count; i++) data[i] = bytes[at + i]! * q.scale + q.min;
      at += count;
    } else if (spec.dtype === 'float32') {
      for (let i = 0; i < count; i++) data[i] = view.getFloat32(at + 4 * i, true);
      at += 4 * count;
    } else {
      throw new Error(`weight ${spec.name}: dtype ${spec.dtype} is not supported`);
    }
    weights.set(spec.name, { shape: spec.shape, data });
  }
  if (at !== bytes.byteLength) throw new Error(`weights manifest covers ${at} of ${bytes.byteLength} bytes`);
  return weights;
}

/** Pooled statistic of a tapped activation map: the channel mean, or the channel standard deviation. */
export type TapStatistic = 'mean' | 'std';

export interface KerasToOnnxOptions {
  /** Graph name. */
  name: string;
  /** Square input side in pixels (the ONNX input is `image`, [batch, 3, side, side]). */
  inputSize: number;
  /**
   * Layers whose outputs become the `features` output, pooled over space; in this order. Without taps the graph
   * runs to the model's last layer and its output is `output`.
   */
  taps?: readonly { layer: string; stats: readonly TapStatistic[] }[];
}

/** Builds the ONNX graph of a Keras model (see the module comment). */
export function kerasToOnnx(
  layers: readonly KerasLayer[],
  weights: ReadonlyMap<string, KerasWeight>,
  options: KerasToOnnxOptions,
): OnnxGraph {
  const b = new GraphBuilder(weights);
  const outputs = new Map<string, string>();
  const taps = options.taps ?? [];
  const lastNeeded = taps.length === 0 ? layers.length - 1 : Math.max(...taps.map((t) => layers.findIndex((l) => l.name === t.layer)));
  for (const tap of taps) if (!layers.some((l) => l.name === tap.layer)) throw new Error(`no layer named ${tap.layer}`);

  for (let index = 0; index <= lastNeeded; index++) {
    const layer = layers[index]!;
    const inputs = inboundNames(layer).map((n) => {
      const out = outputs.get(n);
      if (out === undefined) throw new Error(`layer ${layer.name}: input ${n} not built`);
      return out;
    });
    outputs.set(layer.name, b.layer(layer, inputs));
  }

  if (taps.length === 0) {
    const last = outputs.get(layers[lastNeeded]!.name)!;
    b.node('Identity', [last], 'output');
    return b.graph(options, [{ name: 'output', shape: ['batch', 'classes'] }]);
  }
  const pooled: string[] = [];
  for (const tap of taps) {
    const x = outputs.get(tap.layer)!;
    for (const stat of tap.stats) pooled.push(b.pooled(x, stat, `${tap.layer}_${stat}`));
  }
  b.node('Concat', pooled, 'features', { axis: 1 });
  return b.graph(options, [{ name: 'features', shape: ['batch', 'width'] }]);
}

function inboundNames(layer: KerasLayer): string[] {
  const nodes = layer.inbound_nodes as [string, number, number, unknown][][];
  if (nodes.length === 0) return [];
  if (nodes.length > 1) throw new Error(`layer ${layer.name} is shared; not supported`);
  return nodes[0]!.map((entry) => entry[0]);
}

class GraphBuilder {
  readonly nodes: OnnxNode[] = [];
  readonly initializers: OnnxTensor[] = [];
  private counter = 0;

  constructor(private readonly weights: ReadonlyMap<string, KerasWeight>) {}

  node(op: string, inputs: string[], output: string, attributes?: OnnxNode['attributes']): string {
    this.nodes.push({ op, inputs, outputs: [output], name: `${output}_${op}`, ...(attributes ? { attributes } : {}) });
    return output;
  }

  constant(name: string, dims: number[], data: Float32Array | BigInt64Array): string {
    this.initializers.push({ name, dims, data });
    return name;
  }

  scalar(value: number): string {
    return this.constant(`const_${this.counter++}`, [], Float32Array.of(value));
  }

  weight(layer: string, key: string): KerasWeight {
    const w = this.weights.get(`${layer}/${key}`);
    if (w === undefined) throw new Error(`missing weight ${layer}/${key}`);
    return w;
  }

  optionalWeight(layer: string, key: string): KerasWeight | undefined {
    return this.weights.get(`${layer}/${key}`);
  }

  graph(options: KerasToOnnxOptions, outputs: OnnxGraph['outputs']): OnnxGraph {
    return {
      name: options.name,
      nodes: this.nodes,
      initializers: this.initializers,
      inputs: [{ name: 'image', shape: ['batch', 3, options.inputSize, options.inputSize] }],
      outputs,
    };
  }

  /** Global mean or standard deviation over space: [N, C, H, W] → [N, C]. */
  pooled(x: string, stat: TapStatistic, name: string): string {
    const mean = this.node('GlobalAveragePool', [x], `${name}_gap`);
    if (stat === 'mean') return this.node('Flatten', [mean], name, { axis: 1 });
    const sq = this.node('Mul', [x, x], `${name}_sq`);
    const meanSq = this.node('GlobalAveragePool', [sq], `${name}_gapsq`);
    const mean2 = this.node('Mul', [mean, mean], `${name}_mean2`);
    const variance = this.node('Relu', [this.node('Sub', [meanSq, mean2], `${name}_diff`)], `${name}_var`);
    const std = this.node('Sqrt', [this.node('Add', [variance, this.scalar(1e-6)], `${name}_vare`)], `${name}_std`);
    return this.node('Flatten', [std], name, { axis: 1 });
  }

  layer(layer: KerasLayer, inputs: string[]): string {
    const c = layer.config;
    const name = layer.name;
    switch (layer.class_name) {
      case 'InputLayer':
        return 'image';
      case 'ZeroPadding2D': {
        const [[top, bottom], [left, right]] = c['padding'] as [[number, number], [number, number]];
        const pads = this.constant(`${name}_pads`, [8], BigInt64Array.from([0, 0, top, left, 0, 0, bottom, right].map(BigInt)));
        return this.node('Pad', [inputs[0]!, pads], name, { mode: 'constant' });
      }
      case 'Conv2D':
      case 'DepthwiseConv2D':
        return this.activation(this.conv(layer, inputs[0]!), c['activation'] as string, name);
      case 'BatchNormalization': {
        const mean = this.weight(name, 'moving_mean');
        const channels = mean.data.length;
        const gamma = this.optionalWeight(name, 'gamma')?.data ?? new Float32Array(channels).fill(1);
        const beta = this.optionalWeight(name, 'beta')?.data ?? new Float32Array(channels);
        const variance = this.weight(name, 'moving_variance').data;
        const epsilon = (c['epsilon'] as number | undefined) ?? 1e-3;
        return this.node(
          'BatchNormalization',
          [
            inputs[0]!,
            this.constant(`${name}_gamma`, [channels], gamma),
            this.constant(`${name}_beta`, [channels], beta),
            this.constant(`${name}_mean`, [channels], mean.data),
            this.constant(`${name}_var`, [channels], variance),
          ],
          name,
          { epsilon: { f: epsilon } },
        );
      }
      case 'ReLU': {
        if ((c['negative_slope'] as number | undefined ?? 0) !== 0 || (c['threshold'] as number | undefined ?? 0) !== 0) {
          throw new Error(`layer ${name}: leaky or thresholded ReLU not supported`);
        }
        const max = c['max_value'] as number | null | undefined;
        if (max === null || max === undefined) return this.node('Relu', [inputs[0]!], name);
        return this.node('Clip', [inputs[0]!, this.scalar(0), this.scalar(max)], name);
      }
      case 'Activation':
        return this.activation(inputs[0]!, c['activation'] as string, name, true);
      case 'Add':
        return inputs.slice(1).reduce((acc, x, i) => this.node('Add', [acc, x], i === inputs.length - 2 ? name : `${name}_${i}`), inputs[0]!);
      case 'Concatenate': {
        const axis = c['axis'] as number;
        if (axis !== -1 && axis !== 3) throw new Error(`layer ${name}: concatenation on axis ${axis} not supported`);
        return this.node('Concat', inputs, name, { axis: 1 });
      }
      case 'MaxPooling2D':
      case 'AveragePooling2D': {
        const pool = c['pool_size'] as [number, number];
        const strides = (c['strides'] as [number, number] | null) ?? pool;
        return this.node(layer.class_name === 'MaxPooling2D' ? 'MaxPool' : 'AveragePool', [inputs[0]!], name, {
          kernel_shape: pool,
          strides,
          auto_pad: padding(c),
        });
      }
      case 'GlobalAveragePooling2D':
        return this.node('Flatten', [this.node('GlobalAveragePool', [inputs[0]!], `${name}_gap`)], name, { axis: 1 });
      case 'Flatten': {
        // Keras flattens channels-last (H, W, C); the graph is channels-first, so transpose back first.
        const nhwc = this.node('Transpose', [inputs[0]!], `${name}_nhwc`, { perm: [0, 2, 3, 1] });
        return this.node('Flatten', [nhwc], name, { axis: 1 });
      }
      case 'Dropout':
        return this.node('Identity', [inputs[0]!], name);
      case 'Dense': {
        const kernel = this.weight(name, 'kernel');
        const [fanIn, units] = kernel.shape as [number, number];
        const bias = this.optionalWeight(name, 'bias')?.data ?? new Float32Array(units);
        const gemm = this.node(
          'Gemm',
          [inputs[0]!, this.constant(`${name}_w`, [fanIn, units], kernel.data), this.constant(`${name}_b`, [units], bias)],
          `${name}_linear`,
        );
        return this.activation(gemm, c['activation'] as string, name, true);
      }
      default:
        throw new Error(`layer ${name}: ${layer.class_name} is not supported`);
    }
  }

  private conv(layer: KerasLayer, input: string): string {
    const c = layer.config;
    const name = layer.name;
    const depthwise = layer.class_name === 'DepthwiseConv2D';
    const kernel = this.weight(name, depthwise ? 'depthwise_kernel' : 'kernel');
    const [kh, kw, cin, last] = kernel.shape as [number, number, number, number];
    const cout = depthwise ? cin * last : last;
    // Keras kernels are [kh, kw, in, out] (depthwise: [kh, kw, in, multiplier]); ONNX wants [out, in/group, kh, kw].
    const w = new Float32Array(cout * (depthwise ? 1 : cin) * kh * kw);
    for (let y = 0; y < kh; y++) {
      for (let x = 0; x < kw; x++) {
        for (let i = 0; i < cin; i++) {
          for (let o = 0; o < last; o++) {
            const value = kernel.data[((y * kw + x) * cin + i) * last + o]!;
            if (depthwise) w[((i * last + o) * kh + y) * kw + x] = value;
            else w[((o * cin + i) * kh + y) * kw + x] = value;
          }
        }
      }
    }
    const inputs = [input, this.constant(`${name}_w`, [cout, depthwise ? 1 : cin, kh, kw], w)];
    if (c['use_bias'] === true) inputs.push(this.constant(`${name}_b`, [cout], this.weight(name, 'bias').data));
    const dilation = (c['dilation_rate'] as [number, number] | undefined) ?? [1, 1];
    return this.node('Conv', inputs, `${name}_conv`, {
      kernel_shape: [kh, kw],
      strides: c['strides'] as [number, number],
      dilations: dilation,
      group: depthwise ? cin : 1,
      auto_pad: padding(c),
    });
  }

  private activation(x: string, activation: string | undefined, name: string, always = false): string {
    switch (activation ?? 'linear') {
      case 'linear':
        return always || x !== name ? this.node('Identity', [x], name) : x;
      case 'relu':
        return this.node('Relu', [x], name);
      case 'softmax':
        return this.node('Softmax', [x], name, { axis: 1 });
      case 'sigmoid':
        return this.node('Sigmoid', [x], name);
      default:
        throw new Error(`layer ${name}: activation ${activation} not supported`);
    }
  }
}

function padding(config: Record<string, unknown>): string {
  const p = config['padding'];
  if (p === 'same') return 'SAME_UPPER';
  if (p === 'valid') return 'VALID';
  throw new Error(`padding ${String(p)} not supported`);
}
