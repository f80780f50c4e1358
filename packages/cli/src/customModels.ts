import {
  assertProfileFor, CalibrationMismatchError, createCalibrationProfile, customCalibrationScorer, CustomModelError, CustomModels,
  parseModelSpec, profileTextCalibration,
} from '@content-analysis/engine';
import type { CalibrationOutcome, CalibrationProfile } from '@content-analysis/engine';
import { readCalibrationProfile } from './calibrate.js';
import type { Writable } from 'node:stream';
import { CliError, UsageError } from './errors.js';

/** The flags that plug models in: `--model NAME=DIR` (repeatable) and `--max-model-bytes N`. */
export const MODEL_FLAGS = {
  model: { type: 'string', multiple: true },
  'default-model': { type: 'string', multiple: true },
  'model-calibration': { type: 'string', multiple: true },
  'max-model-bytes': { type: 'string' },
} as const;

/** Usage lines of the flags. */
export const MODEL_USAGE = [
  '  --model <NAME=DIR>         plug in an ONNX classifier folder (Hugging Face layout with content-analysis.json);',
  '                             requests select it with version "custom:NAME"; repeatable',
  '  --default-model <NAME>     answer requests that name no version with this plugged model (one per task;',
  '                             default: the bundled detectors)',
  '  --model-calibration <file> a calibration profile of a plugged text model (calibrate ai-text --model); repeatable',
  '  --max-model-bytes <n>      refuse a plugged model larger than this (default 2 GiB)',
];

/**
 * Loads the models the command line names; undefined when it names none. A refused folder is a one-line CliError
 * with the reason; a malformed flag is a UsageError.
 */
export async function loadCustomModels(values: Record<string, unknown>): Promise<CustomModels | undefined> {
  const specs = (values.model as string[] | undefined) ?? [];
  if (values['max-model-bytes'] !== undefined && specs.length === 0) throw new UsageError('--max-model-bytes applies to --model folders; none was given');
  const defaults = (values['default-model'] as string[] | undefined) ?? [];
  const names = specs.map((spec) => spec.slice(0, spec.indexOf('=')));
  for (const name of defaults) {
    if (!names.includes(name)) throw new UsageError(`--default-model ${name}: no --model ${name}=DIR was given`);
  }
  if (specs.length === 0) return undefined;
  let entries: Array<[string, string]>;
  try {
    entries = specs.map((spec) => parseModelSpec(spec));
  } catch (error) {
    throw new UsageError(`--model: ${(error as Error).message}`);
  }
  const flag = values['max-model-bytes'] as string | undefined;
  const maxModelBytes = flag === undefined ? undefined : Number(flag);
  if (maxModelBytes !== undefined && (!Number.isSafeInteger(maxModelBytes) || maxModelBytes <= 0)) {
    throw new UsageError(`Expected positive integer for --max-model-bytes but received ${flag}`);
  }
  // Profiles made by `calibrate ai-text --model NAME=DIR` name `custom:NAME`; each applies to that model's scores.
  const profiles = new Map<string, CalibrationProfile>();
  for (const path of (values['model-calibration'] as string[] | undefined) ?? []) {
    const profile = await readCalibrationProfile(path);
    const name = profile.detector.model.startsWith('custom:') ? profile.detector.model.slice('custom:'.length) : undefined;
    if (name === undefined || !entries.some(([n]) => n === name)) {
      throw new UsageError(`--model-calibration ${path} was made for ${profile.detector.model}, which no --model names`);
    }
    profiles.set(name, profile);
  }
  const calibrations = Object.fromEntries([...profiles].map(([name, p]) => [name, profileTextCalibration(p.buckets)]));
  let models: CustomModels;
  try {
    models = await CustomModels.load(entries, { calibrations, ...(maxModelBytes === undefined ? {} : { maxModelBytes }) });
  } catch (error) {
    if (error instanceof CustomModelError) throw new CliError(error.message, { cause: error });
    throw error;
  }
  // A profile made with other model files is on another scale: refused, as the bundled detector's would be.
  try {
    for (const [name, profile] of profiles) assertProfileFor(profile, (await customCalibrationScorer(models.text(`custom:${name}`))).detector);
  } catch (error) {
    await models.release();
    if (error instanceof CalibrationMismatchError) throw new CliError(`--model-calibration: ${error.message}`, { cause: error });
    throw error;
  }
  return models;
}

/**
 * `calibrate ai-text --model NAME=DIR`: the calibration profile of a plugged text model, made from the deployment's
 * human texts with the same rule as the bundled detector's (the model's AI log-odds on the same ranges).
 */
export async function calibratePluggedModel(
  spec: string, texts: AsyncIterable<string>, options: { targetFpr: number; confidence: number; source: string },
): Promise<CalibrationOutcome> {
  let name: string;
  let folder: string;
  try {
    [name, folder] = parseModelSpec(spec);
  } catch (error) {
    throw new UsageError(`--model: ${(error as Error).message}`);
  }
  let models: CustomModels;
  try {
    models = await CustomModels.load({ [name]: folder });
  } catch (error) {
    if (error instanceof CustomModelError) throw new CliError(error.message, { cause: error });
    throw error;
  }
  try {
    const scorer = await customCalibrationScorer(models.text(`custom:${name}`));
    return await createCalibrationProfile(texts, scorer, options);
  } catch (error) {
    if ((error as { code?: unknown }).code === 'BAD_REQUEST') throw new UsageError(`--model ${spec}: ${(error as Error).message}`);
    throw error;
  } finally {
    await models.release();
  }
}

/** One line per plugged model for a start-up log: its version, task, load time and memory. */
export function describeCustomModels(models: CustomModels, out: Writable): void {
  for (const version of models.versions()) {
    const name = version.slice('custom:'.length);
    const stats = models.loadStats.get(name);
    const task = models.versions('ai-text').includes(version) ? 'ai-text' : 'ai-image';
    out.write(`plugged model ${version} (${task}) loaded in ${stats ? stats.seconds.toFixed(2) : '?'} s, ` +
      `+${stats ? (stats.rssBytes / 2 ** 20).toFixed(0) : '?'} MiB resident\n`);
  }
}

/**
 * The engine options of the model flags: the loaded models and the defaults `--default-model` names (`{}` without
 * `--model`). Two defaults of one task are a UsageError.
 */
export async function pluggedEngineOptions(values: Record<string, unknown>): Promise<{ customModels?: CustomModels; defaultModels?: string[] }> {
  const customModels = await loadCustomModels(values);
  if (customModels === undefined) return {};
  const defaultModels = ((values['default-model'] as string[] | undefined) ?? []).map((name) => `custom:${name}`);
  for (const task of ['ai-text', 'ai-image'] as const) {
    const chosen = defaultModels.filter((v) => customModels.versions(task).includes(v));
    if (chosen.length > 1) {
      await customModels.release();
      throw new UsageError(`--default-model: ${chosen.join(' and ')} are both ${task} models; give one per task`);
    }
  }
  return { customModels, defaultModels };
}
