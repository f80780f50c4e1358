import { createHash } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { join } from 'node:path';
import { AI_TEXT_MAX_CHARS, AI_TEXT_MIN_CHARS } from '../aiText/detectAiText.js';
import { detectLanguage } from '../aiText/detectLanguage.js';
import { humanLogit } from '../aiText/humanScore.js';
import { normalizeText } from '../aiText/normalizeText.js';
import type { CalibrationBucket } from '../runtime/modelCard.js';
import type { CustomTextModel, TextCalibration } from './customTextModel.js';
import { DECLARATION_FILE } from './readModelFolder.js';

/** Files of a model folder whose bytes decide its scores (the ONNX file is added by path). */
const SCORED_FILES = ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'preprocessor_config.json', DECLARATION_FILE];

/**
 * SHA-256 (hex) over the files that decide a plugged model's scores: its ONNX file (and external data) and its
 * configuration. A calibration made with one set of files is refused for another.
 */
export async function modelFingerprint(folder: string, onnxPath: string): Promise<string> {
  const hash = createHash('sha256');
  const files = [onnxPath, `${onnxPath}_data`, `${onnxPath}.data`, ...SCORED_FILES.map((f) => join(folder, f))];
  for (const file of files) {
    if (!existsSync(file)) continue;
    hash.update(`${file.slice(folder.length)}\0`);
    for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  }
  return hash.digest('hex');
}

/** The detector a calibration profile of a plugged model names: `custom:NAME`, its files' fingerprint. */
export interface CustomDetectorId {
  model: string;
  /** The first 12 hex digits of the fingerprint (a plugged model has no version of its own). */
  version: string;
  fingerprint: string;
}

/**
 * A plugged text model as a deployment-calibration scorer (the shape of the calibration module's
 * `CalibrationScorer`): its raw output is the AI log-odds, on the same ranges as the bundled scorer's (the whole text,
 * then its leading parts); texts the model would refuse are left out as `length` or `language <code>`.
 */
export async function customCalibrationScorer(model: CustomTextModel): Promise<{
  detector: CustomDetectorId;
  score(text: string, windowChars: readonly number[]): Promise<{ ranges: Array<{ chars: number; raw: number }> } | { skip: string }>;
}> {
  const fingerprint = await modelFingerprint(model.folder, model.onnxPath);
  return {
    detector: { model: model.version, version: fingerprint.slice(0, 12), fingerprint },
    async score(text, windowChars) {
      if (text.length < AI_TEXT_MIN_CHARS || text.length > AI_TEXT_MAX_CHARS) return { skip: 'length' };
      if (model.languages !== undefined) {
        const language = detectLanguage(normalizeText(text).text);
        if (!model.languages.includes(language)) return { skip: `language ${language}` };
      }
      return { ranges: await model.rangeScores(text, windowChars) };
    },
  };
}

/**
 * The human logit of a calibration profile's length buckets (the bundled detector's mapping, `humanLogit`), for
 * `CustomModelsOptions.calibrations`: a human score of 50 at the bucket's threshold on the AI log-odds.
 */
export function profileTextCalibration(buckets: ReadonlyArray<Pick<CalibrationBucket, 'min_chars' | 'threshold' | 'scale'>>): TextCalibration {
  if (buckets.length === 0) throw new RangeError('Expected at least one calibration bucket');
  // humanLogit reads these three fields of a bucket only.
  return (logOdds, chars) => humanLogit(logOdds, chars, buckets as readonly CalibrationBucket[]);
}
