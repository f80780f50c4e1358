import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { InvalidInputError, ModelLoadError } from '../errors.js';
import { loadModel } from '../runtime/loadModel.js';
import type { LoadedModel } from '../runtime/loadModel.js';
import type { CalibrationBucket } from '../runtime/modelCard.js';
import { BUNDLED_MODELS_DIR, ModelRegistry } from '../runtime/modelRegistry.js';
import { anchoredSentenceLogits } from './anchoredSentenceLogits.js';
import type { AiTextResult } from './detectAiText.js';
import { humanLogit, scoreOfLogit } from './humanScore.js';
import { ngramPrefix, ngramRangeMeans, ngramSlots } from './ngramProfile.js';
import { loadNgramTable } from './ngramTable.js';
import type { NgramCard } from './ngramTable.js';
import type { AttackDetected } from './normalizeText.js';
import { canonicalSentences } from './prepareDocument.js';
import type { PreparedSentence } from './prepareDocument.js';
import { fleschReadingEase } from './readability.js';

/**
 * Languages other than English that `detectAiText` scores, each with a measured detector of its own
 * (`models/ai-text-<code>/`, trained and measured by training/languages/; the package README gives each one's corpus
 * and held-out figures), and the model id of each. A language is listed only when its held-out figures meet the bar
 * the README states (AUROC >= 0.85 and a human false-positive rate of about 2% at most on every held-out human set
 * measured); a language without such a model is refused.
 */
export const AI_TEXT_LANGUAGE_MODELS: Readonly<Record<string, string>> = {
  fr: 'ai-text-fr', de: 'ai-text-de', es: 'ai-text-es',
};

/** Model id of a language's detector, listed in `AI_TEXT_LANGUAGE_MODELS` or not. */
function modelIdOf(language: string): string {
  return `ai-text-${language}`;
}

/** Raw outputs of a language model over a normalised text: the whole text, then any sentence windows. */
export interface LanguageScores {
  /** The detector's version as reported: `<language>-<model version>` (e.g. `fr-1.0.0`). */
  version: string;
  sentences: PreparedSentence[];
  /** Human log-odds (0 = the model's threshold) of the whole text, then of each window asked for. */
  logits: number[];
  /** Canonical characters of the whole text. */
  chars: number;
}

/** A loaded language model: its n-gram table, ONNX head and length calibration. */
export interface LanguageDetector {
  language: string;
  version: string;
  /** Scores the normalised text and the sentence windows `[a, b]` (inclusive sentence indices) `windowsOf` gives. */
  score(text: string, windowsOf?: (sentences: PreparedSentence[]) => Array<[number, number]>): Promise<LanguageScores>;
}

let registry: ModelRegistry | undefined;

/**
 * The registry of the bundled language models: every `models/ai-text-<code>/<version>/card.json` (a model exported
 * for measurement only, whose language `detectAiText` refuses, included: training/languages/evaluate.mjs measures
 * it through this runtime).
 */
export function languageModelRegistry(): ModelRegistry {
  if (registry === undefined) {
    const r = new ModelRegistry();
    for (const name of readdirSync(BUNDLED_MODELS_DIR)) {
      if (!/^ai-text-[a-z]{2}$/.test(name)) continue;
      const root = join(BUNDLED_MODELS_DIR, name);
      for (const version of readdirSync(root)) {
        if (existsSync(join(root, version, 'card.json'))) r.register(join(root, version));
      }
    }
    registry = r;
  }
  return registry;
}

const loaded = new Map<string, Promise<LanguageDetector>>();

/**
 * The bundled detector of `language` (a key of `AI_TEXT_LANGUAGE_MODELS`, or another language with a model folder,
 * for measurement), loaded once and kept; `UnknownModelError` when there is none.
 */
export function languageDetector(language: string, threads = 1): Promise<LanguageDetector> {
  const id = AI_TEXT_LANGUAGE_MODELS[language] ?? modelIdOf(language);
  const key = `${language}|${threads}`;
  let detector = loaded.get(key);
  if (detector === undefined) {
    detector = createLanguageDetector(language, id, threads);
    detector.catch(() => loaded.delete(key));
    loaded.set(key, detector);
  }
  return detector;
}

async function createLanguageDetector(language: string, id: string, threads: number): Promise<LanguageDetector> {
  const model: LoadedModel = await loadModel(id, { registry: languageModelRegistry(), threads });
  const card = model.card as LoadedModel['card'] & { ngram?: NgramCard; language?: string };
  if (card.ngram === undefined || card.language !== language) {
    throw new ModelLoadError(model.entry.folder, `not an n-gram model of language ${language}`);
  }
  if (model.card.feature_names.join() !== 'ngram_char_mean,ngram_word_mean') {
    throw new ModelLoadError(model.entry.folder, 'an n-gram model reads ngram_char_mean and ngram_word_mean');
  }
  const buckets: readonly CalibrationBucket[] | undefined = model.card.calibration?.buckets;
  if (buckets === undefined || buckets.length === 0) throw new ModelLoadError(model.entry.folder, 'model card has no calibration');
  const weights = await loadNgramTable(model.entry.folder, card.ngram);
  const version = `${language}-${model.card.version}`;
  return {
    language,
    version,
    async score(text, windowsOf) {
      const { canonical, sentences } = canonicalSentences(text);
      if (sentences.length === 0) return { version, sentences, logits: [], chars: 0 };
      const prefix = ngramPrefix(ngramSlots(canonical), weights);
      const ranges: Array<[number, number]> = [[0, sentences.length - 1], ...(windowsOf?.(sentences) ?? [])];
      const input = new Float32Array(ranges.length * 2);
      ranges.forEach(([a, b], i) => input.set(ngramRangeMeans(prefix, sentences[a]!.start, sentences[b]!.end), i * 2));
      const raw = await model.run(input, ranges.length);
      const charsOf = ([a, b]: [number, number]) => sentences[b]!.end - sentences[a]!.start;
      return {
        version,
        sentences,
        logits: ranges.map((range, i) => humanLogit(raw[i]!, charsOf(range), buckets)),
        chars: charsOf(ranges[0]!),
      };
    },
  };
}

/** What `detectInLanguage` needs of the request, already checked by `detectAiText`. */
export interface LanguageRequest {
  /** The normalised text (`normalizeText(text).text`). */
  text: string;
  attack: AttackDetected;
  sentences: boolean;
  sentenceScores: 'anchored' | 'independent';
  /** The sentence windows of the English detector (`sentenceWindow`), so that both score the same ranges. */
  windowOf(sentences: ReadonlyArray<{ start: number; end: number }>, i: number): [number, number];
}

/**
 * Scores a text of a language with its own model: the result has the fields and meaning of the English detector's
 * (human score 0..100, below 50 flagged at the model's calibrated threshold), `version` names the language model.
 */
export async function detectInLanguage(language: string, request: LanguageRequest): Promise<AiTextResult> {
  const detector = await languageDetector(language);
  const windowsOf = request.sentences
    ? (sentences: PreparedSentence[]) => sentences.map((_, i) => request.windowOf(sentences, i))
    : undefined;
  const scores = await detector.score(request.text, windowsOf);
  if (scores.sentences.length === 0) throw new InvalidInputError('text', 'text with words', request.text);
  const [documentLogit, ...own] = scores.logits;
  const result: AiTextResult = {
    score: scoreOfLogit(documentLogit!),
    attack_detected: request.attack,
    readability_score: fleschReadingEase(request.text),
    version: scores.version,
    language,
    confidence: scores.chars < 600 ? 'low' : scores.chars < 1500 ? 'medium' : 'high',
  };
  if (request.sentences) {
    const logits = request.sentenceScores === 'independent'
      ? own
      : anchoredSentenceLogits(documentLogit!, own, scores.sentences.map((s) => s.end - s.start));
    result.sentences = scores.sentences.map((s, i) => ({ text: s.text, score: scoreOfLogit(logits[i]!) }));
  }
  return result;
}
