import type * as Ort from 'onnxruntime-common';
import { CustomModelError } from '../errors.js';
import { onnxRuntime } from '@content-analysis/onnx';
import type { ModelFolder } from './readModelFolder.js';

/** The session of a plugged model and the names it was checked against. */
export interface CheckedSession {
  session: Ort.InferenceSession;
  /** The graph's input names (all of them fed). */
  inputs: string[];
  /** The output read: `logits` when the graph has it, else its only output. */
  output: string;
}

/** What a task requires of the graph's inputs. */
export interface InputRule {
  /** Inputs that must be there. */
  required: readonly string[];
  /** Inputs that may be there (fed by the runtime). */
  optional: readonly string[];
}

/**
 * Creates the ONNX session of a checked folder (its file read from disk, external data beside it) and checks the
 * names of its inputs and outputs against `rule`. Element types, ranks and the width of the logits are checked by the
 * probe input each model runs next (the pinned onnxruntime reports names only). Throws {@link CustomModelError}.
 */
export async function openSession(model: ModelFolder, rule: InputRule, threads: number): Promise<CheckedSession> {
  const refuse = (reason: string, cause?: unknown): never => {
    throw new CustomModelError(model.name, model.folder, reason, cause === undefined ? undefined : { cause });
  };
  let session: Ort.InferenceSession;
  try {
    session = await onnxRuntime().InferenceSession.create(model.onnxPath, {
      intraOpNumThreads: threads,
      interOpNumThreads: 1,
      executionMode: 'sequential',
      graphOptimizationLevel: 'all',
    });
  } catch (error) {
    return refuse(`onnxruntime cannot load it: ${(error as Error).message}`, error);
  }
  const names = [...session.inputNames];
  const outputs = [...session.outputNames];
  const expected = `${rule.required.join(', ')}${rule.optional.length ? ` (and optionally ${rule.optional.join(', ')})` : ''}`;
  const missing = rule.required.filter((r) => !names.includes(r));
  const extra = names.filter((n) => !rule.required.includes(n) && !rule.optional.includes(n));
  if (missing.length > 0 || extra.length > 0) {
    await session.release();
    refuse(`the graph's inputs are ${names.join(', ')}; a ${model.declaration.task} classifier takes ${expected}` +
      `${missing.length ? `; missing ${missing.join(', ')}` : ''}${extra.length ? `; cannot feed ${extra.join(', ')}` : ''}`);
  }
  const output = outputs.includes('logits') ? 'logits' : outputs.length === 1 ? outputs[0] : undefined;
  if (output === undefined) {
    await session.release();
    return refuse(`the graph has outputs ${outputs.join(', ')} and none named logits`);
  }
  return { session, inputs: names, output };
}

/**
 * The AI label's log-odds from one row of logits: with two labels or more, log p_ai - log(1 - p_ai) of the softmax;
 * with one (a sigmoid head), the logit itself. Computed without overflow.
 */
export function aiLogOdds(logits: ArrayLike<number>, offset: number, labels: number, aiIndex: number): number {
  if (labels === 1) return logits[offset]!;
  const ai = logits[offset + aiIndex]!;
  let max = -Infinity;
  for (let j = 0; j < labels; j++) if (j !== aiIndex) max = Math.max(max, logits[offset + j]!);
  let sum = 0;
  for (let j = 0; j < labels; j++) if (j !== aiIndex) sum += Math.exp(logits[offset + j]! - max);
  return ai - (max + Math.log(sum));
}

/** The probability of a log-odds. */
export function sigmoid(logOdds: number): number {
  return logOdds >= 0 ? 1 / (1 + Math.exp(-logOdds)) : Math.exp(logOdds) / (1 + Math.exp(logOdds));
}

/** Checks one run's output: `rows` rows of `labels` finite values. */
export function checkLogits(model: ModelFolder, output: Ort.Tensor | undefined, rows: number): Float32Array {
  const labels = model.labels.length;
  if (output === undefined || output.type !== 'float32' || output.dims.length !== 2 || output.dims[0] !== rows || output.dims[1] !== labels) {
    throw new CustomModelError(model.name, model.folder,
      `the graph answered ${output?.type ?? 'nothing'} [${output?.dims.join(', ') ?? ''}] for ${rows} input(s); expected float32 [${rows}, ${labels}] ` +
        '(one logit per label of config.json\'s id2label)');
  }
  const data = output.data as Float32Array;
  for (let i = 0; i < data.length; i++) {
    if (!Number.isFinite(data[i]!)) throw new CustomModelError(model.name, model.folder, 'the graph answered a logit that is not finite');
  }
  return data;
}
