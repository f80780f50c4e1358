import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { loadOnnxRuntime, onnxRuntimeChoice, OnnxRuntimeUnavailableError } from '../src/index.js';
import { sigmoidModel } from './tinyModel.js';

const X = Float32Array.of(-2, 0, 0.5, 3);
const SIGMOID = Array.from(X, (x) => 1 / (1 + Math.exp(-x)));

const folder = mkdtempSync(join(tmpdir(), 'onnx-runtime-'));
const modelFile = join(folder, 'sigmoid.onnx');
writeFileSync(modelFile, sigmoidModel());
afterAll(() => rmSync(folder, { recursive: true, force: true }));

interface ChildAnswer { name?: string; y?: number[]; addons?: string[]; error?: string; code?: string; message?: string }

// The built package in a fresh process: the runtime is chosen once per thread, from the environment.
const CHILD = `
import { readFileSync } from 'node:fs';
const { onnxRuntime, onnxRuntimeName } = await import(${JSON.stringify(pathToFileURL(join(import.meta.dirname, '..', 'dist', 'index.js')).href)});
try {
  const ort = onnxRuntime();
  const session = await ort.InferenceSession.create(readFileSync(process.env.MODEL));
  const output = await session.run({ x: new ort.Tensor('float32', Float32Array.of(${Array.from(X).join(', ')}), [${X.length}]) });
  const addons = process.report.getReport().sharedObjects.filter((file) => file.endsWith('.node'));
  console.log(JSON.stringify({ name: onnxRuntimeName(), y: Array.from(output.y.data), addons }));
} catch (error) {
  console.log(JSON.stringify({ error: error.name, code: error.code, message: error.message }));
}
`;

function child(choice: string | undefined, options: { withoutNode?: boolean } = {}): ChildAnswer {
  const env: NodeJS.ProcessEnv = { ...process.env, MODEL: modelFile };
  if (choice === undefined) delete env.CONTENT_ANALYSIS_ONNX_RUNTIME;
  else env.CONTENT_ANALYSIS_ONNX_RUNTIME = choice;
  const preload = options.withoutNode ? ['--require', join(import.meta.dirname, 'hideOnnxruntimeNode.cjs')] : [];
  const out = execFileSync(process.execPath, [...preload, '--input-type=module', '-e', CHILD], { env, encoding: 'utf8', timeout: 60_000 });
  return JSON.parse(out.trim().split('\n').at(-1)!) as ChildAnswer;
}

describe('onnxRuntimeChoice', () => {
  it('reads node, web or auto (unset, empty, any case), and refuses anything else naming the variable', () => {
    expect(onnxRuntimeChoice(undefined)).toBe('auto');
    expect(onnxRuntimeChoice('')).toBe('auto');
    expect(onnxRuntimeChoice(' Web ')).toBe('web');
    expect(onnxRuntimeChoice('NODE')).toBe('node');
    expect(() => onnxRuntimeChoice('cuda')).toThrow('Expected node, web or auto for CONTENT_ANALYSIS_ONNX_RUNTIME but received "cuda"');
  });
});

describe('loadOnnxRuntime', () => {
  it('loads each runtime once per thread; both compute the same sigmoid', async () => {
    for (const name of ['node', 'web'] as const) {
      const ort = loadOnnxRuntime(name);
      expect(loadOnnxRuntime(name)).toBe(ort);
      const session = await ort.InferenceSession.create(sigmoidModel());
      const y = Array.from((await session.run({ x: new ort.Tensor('float32', X, [X.length]) }))['y']!.data as Float32Array);
      y.forEach((value, i) => expect(value).toBeCloseTo(SIGMOID[i]!, 6));
    }
    expect(loadOnnxRuntime('web')).not.toBe(loadOnnxRuntime('node'));
    expect(loadOnnxRuntime('web').env.wasm.numThreads).toBe(1);
  });

  it('refuses a name that is no runtime', () => {
    expect(() => loadOnnxRuntime('cuda' as 'node')).toThrow('Expected node or web for the ONNX runtime but received "cuda" of type string');
  });
});

describe('onnxRuntime (built package, fresh processes)', () => {
  it('takes onnxruntime-node where it loads, and onnxruntime-web (no native addon) when told to', () => {
    const auto = child(undefined);
    expect(auto.name).toBe('node');
    expect(auto.addons!.some((file) => file.includes('onnxruntime'))).toBe(true);
    const web = child('web');
    expect(web.name).toBe('web');
    expect(web.addons).toEqual([]);
    web.y!.forEach((value, i) => expect(value).toBeCloseTo(SIGMOID[i]!, 6));
  }, 60_000);

  it('falls back to onnxruntime-web where onnxruntime-node is not installed, unless node is forced', () => {
    const auto = child('auto', { withoutNode: true });
    expect(auto).toMatchObject({ name: 'web', addons: [] });
    auto.y!.forEach((value, i) => expect(value).toBeCloseTo(SIGMOID[i]!, 6));
    expect(child('node', { withoutNode: true })).toEqual({
      error: 'OnnxRuntimeUnavailableError', code: 'ERR_ONNX_RUNTIME_UNAVAILABLE', message: 'onnxruntime-node is not installed',
    });
  }, 60_000);

  it('refuses a choice that names no runtime when the first model loads', () => {
    expect(child('gpu')).toMatchObject({ error: 'RangeError', message: 'Expected node, web or auto for CONTENT_ANALYSIS_ONNX_RUNTIME but received "gpu"' });
  }, 60_000);
});

describe('OnnxRuntimeUnavailableError', () => {
  it('has a stable code', () => {
    expect(new OnnxRuntimeUnavailableError('x').code).toBe('ERR_ONNX_RUNTIME_UNAVAILABLE');
  });
});
