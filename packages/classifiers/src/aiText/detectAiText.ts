import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { assertProfileFor, parseCalibrationProfile } from '../calibration/calibrationProfile.js';
import type { CalibrationProfile } from '../calibration/calibrationProfile.js';
import { InvalidInputError, ModelLoadError, UnidentifiedLanguageError, UnsupportedLanguageError } from '../errors.js';
import { loadModel } from '../runtime/loadModel.js';
import type { LoadedModel } from '../runtime/loadModel.js';
import { bundledRegistry } from '../runtime/modelRegistry.js';
import type { ModelRegistry } from '../runtime/modelRegistry.js';
import { CharLm } from './charLm.js';
import type { CharLmCard } from './charLm.js';
import { detectLanguage } from './detectLanguage.js';
import { featurePlan, planFeatures } from './featurePlan.js';
import { loadFeatureResources } from './featureResources.js';
import { anchoredSentenceLogits } from './anchoredSentenceLogits.js';
import { humanLogit, scoreOfLogit } from './humanScore.js';
import type { AttackDetected } from './normalizeText.js';
import { normalizeText } from './normalizeText.js';
import { canonicalSentences, prepareDocument } from './prepareDocument.js';
import type { PreparedSentence } from './prepareDocument.js';
import { ngramPrefix, ngramRangeMeans, ngramSlots } from './ngramProfile.js';
import { loadNgramTable } from './ngramTable.js';
import type { NgramCard } from './ngramTable.js';
import { AI_TEXT_LANGUAGE_MODELS, detectInLanguage } from './languageDetectors.js';
import { fleschReadingEase } from './readability.js';
import { TokenEncoder } from './tokenEncoder.js';
import type { TokenEncoderCard } from './tokenEncoder.js';

/** Model id of the AI-text detector in the registry. */
export const AI_TEXT_MODEL_ID = 'ai-text';
/**
 * Version used when none is asked for, or `latest` is. 1.x stay registered as alternatives; the package README says
 * how the default was chosen.
 */
export const DEFAULT_AI_TEXT_VERSION = '2.0.0';
/** The version name that selects `DEFAULT_AI_TEXT_VERSION`. */
export const LATEST_AI_TEXT_VERSION = 'latest';
/** Languages the detector is trained for: English, and those with a model of their own (`languageDetectors.ts`). */
export const AI_TEXT_LANGUAGES: readonly string[] = ['en', ...Object.keys(AI_TEXT_LANGUAGE_MODELS)];
/** Shortest and longest text accepted, in characters (as the API). */
export const AI_TEXT_MIN_CHARS = 300;
export const AI_TEXT_MAX_CHARS = 150_000;
/** A sentence is scored with its neighbours until the window holds at least this many characters. */
const SENTENCE_WINDOW_CHARS = 250;

/** Options of `createAiTextDetector`. */
export interface AiTextDetectorOptions {
  /**
   * Detector version; `DEFAULT_AI_TEXT_VERSION` when absent.
   * @default undefined
   */
  version?: string;
  /**
   * onnxruntime threads per call.
   * @default 1
   */
  threads?: number;
  /**
   * Registry holding the model.
   * @default bundledRegistry()
   */
  registry?: ModelRegistry;
  /**
   * A deployment's calibration profile (`calibrateAiText`), used by every detection that brings none of its own.
   * @default undefined (the model card's calibration)
   */
  calibration?: CalibrationProfile;
}

/** Options of one detection. */
export interface DetectAiTextOptions {
  /**
   * Also score every sentence.
   * @default true
   */
  sentences?: boolean;
  /**
   * `anchored`: each sentence's score is the document's, moved by how much more or less human the sentence reads than
   * the document's average (`anchoredSentenceLogits`), so that a flagged document marks its machine-like sentences
   * and a human one few; `independent`: each sentence window scored on its own against the short-text threshold
   * (the scores of 2.0.0 and earlier releases).
   * @default 'anchored'
   */
  sentenceScores?: 'anchored' | 'independent';
  /**
   * Two-letter language code of the text, or `auto` to detect it.
   * @default 'auto'
   */
  language?: string;
  /**
   * Detector version (see `AiTextDetectorOptions.version`). With a calibration profile, no version or `latest`
   * means the profile's version, and another version is refused (`CalibrationMismatchError`).
   * @default undefined
   */
  version?: string;
  /**
   * A deployment's calibration profile (`calibrateAiText`): scores then compare the text with that deployment's
   * human writing (below 50 = flagged at its calibrated threshold). Checked on every call: it must be valid and made
   * with this detector version.
   * @default undefined (the model card's calibration)
   */
  calibration?: CalibrationProfile;
}

/** Human score of one sentence. */
export interface SentenceScore {
  text: string;
  /** 0..100, 100 = human. */
  score: number;
}

/** Result of `detectAiText`, with the field names of the API response. */
export interface AiTextResult {
  /** Human score 0..100 (100 = human); below 50 the text is reported as machine-generated. */
  score: number;
  /** Per-sentence human scores in input order, when asked for. */
  sentences?: SentenceScore[];
  attack_detected: AttackDetected;
  /** Flesch reading ease, 0..100. */
  readability_score: number;
  version: string;
  language: string;
  /** How much the score can be trusted given the length of the text: `low` below 600 characters. */
  confidence: 'low' | 'medium' | 'high';
}

/** A detector with its model session and resources loaded. */
export interface AiTextDetector {
  version: string;
  detect(text: unknown, options?: DetectAiTextOptions): Promise<AiTextResult>;
}

/** Input rows of a model for ranges of sentences of one document. */
interface DocumentFeatures {
  sentences: PreparedSentence[];
  /** Writes the model input of sentences a..b (inclusive) at `offset`. */
  fill(a: number, b: number, out: Float32Array, offset: number): void;
}

/** Computes a model version's features of a normalised text. */
type Featurizer = (text: string) => Promise<DocumentFeatures>;

/**
 * Resolves `latest` (and no version) to the default version, or to `calibratedVersion` (the version of the
 * calibration profile in use) when there is one.
 */
export function resolveAiTextVersion(version: string | undefined, calibratedVersion?: string): string {
  if (version !== undefined && version !== LATEST_AI_TEXT_VERSION) return version;
  return calibratedVersion ?? DEFAULT_AI_TEXT_VERSION;
}

/** Loads the model and its resources once; the returned detector can be called any number of times. */
export async function createAiTextDetector(options: AiTextDetectorOptions = {}): Promise<AiTextDetector> {
  const profile = options.calibration === undefined ? undefined : parseCalibrationProfile(options.calibration);
  if (profile !== undefined) checkCalibratedVersion(profile, options.version);
  const version = resolveAiTextVersion(options.version, profile?.detector.version);
  const model = await loadModel(AI_TEXT_MODEL_ID, { ...options, version });
  const buckets = model.card.calibration?.buckets;
  if (buckets === undefined || buckets.length === 0) {
    throw new ModelLoadError(model.entry.folder, 'model card has no calibration');
  }
  const featurize = await featurizerOf(model, options.threads ?? 1);
  return {
    version: model.card.version,
    detect: (text, detectOptions = {}) =>
      detect(model, featurize, text, profile === undefined || detectOptions.calibration !== undefined ? detectOptions : { ...detectOptions, calibration: profile }),
  };
}

// Refuses a profile of another model, or an explicit version other than the profile's, before any model is loaded.
function checkCalibratedVersion(profile: CalibrationProfile, version: string | undefined): void {
  assertProfileFor(profile, { model: AI_TEXT_MODEL_ID, version: resolveAiTextVersion(version, profile.detector.version) });
}

// Versions 1.x: the base features of FEATURE_NAMES (language models, compression, style) and, for 1.1.0, the
// character language model's.
async function featureFeaturizer(model: LoadedModel, threads: number): Promise<Featurizer> {
  const resources = await loadFeatureResources(model.entry.folder, model.card.resources, model.card.resource_sha256);
  const plan = featurePlan(model.entry.folder, model.card.feature_names, model.card.features_used);
  const lmCard = (model.card as { lm?: CharLmCard }).lm;
  if ((lmCard === undefined) !== (plan.lmOffset === -1)) {
    throw new ModelLoadError(model.entry.folder, 'language-model features and the card\'s lm section go together');
  }
  const lm = lmCard === undefined ? undefined : await CharLm.load(model.entry.folder, lmCard, threads);
  return async (text) => {
    const doc = prepareDocument(text, resources, { compression: plan.compression });
    const trace = lm === undefined ? undefined : await lm.trace(doc.canonical);
    return {
      sentences: doc.sentences,
      fill(a, b, out, offset) {
        planFeatures(plan, doc, a, b, resources, out, offset);
        if (lm !== undefined && trace !== undefined) {
          // Language-model features follow the base features (model version 1.1.0).
          out.set(lm.rangeFeatures(trace, doc.sentences[a]!.start, doc.sentences[b]!.end), offset + plan.lmOffset);
        }
      },
    };
  };
}

// Versions 2.x: the hashed n-gram profile, two values per range (character and word n-gram means of the weights).
async function ngramFeaturizer(model: LoadedModel, card: NgramCard): Promise<Featurizer> {
  if (model.card.feature_names.join() !== 'ngram_char_mean,ngram_word_mean') {
    throw new ModelLoadError(model.entry.folder, 'an n-gram model reads ngram_char_mean and ngram_word_mean');
  }
  const weights = await loadNgramTable(model.entry.folder, card);
  return async (text) => {
    const { canonical, sentences } = canonicalSentences(text);
    const prefix = ngramPrefix(ngramSlots(canonical), weights);
    return {
      sentences,
      fill(a, b, out, offset) {
        out.set(ngramRangeMeans(prefix, sentences[a]!.start, sentences[b]!.end), offset);
      },
    };
  };
}

/** Raw model outputs of a text and of ranges of its sentences, before calibration (for training and evaluation). */
export interface AiTextScorer {
  version: string;
  /**
   * `ai_logit` of the whole normalised text, then of its leading sentences cut at each of `windowChars` (a window
   * stops growing at the first sentence that reaches the length; windows as long as the text are left out).
   */
  score(text: string, windowChars?: readonly number[]): Promise<Array<{ chars: number; logit: number }>>;
}

/** Loads a detector version's model and features without its calibration (training/v2/calibrate.mjs uses it). */
export async function createAiTextScorer(options: AiTextDetectorOptions = {}): Promise<AiTextScorer> {
  const model = await loadModel(AI_TEXT_MODEL_ID, { ...options, version: resolveAiTextVersion(options.version) });
  const featurize = await featurizerOf(model, options.threads ?? 1);
  const width = model.card.feature_names.length;
  return {
    version: model.card.version,
    async score(text, windowChars = []) {
      const doc = await featurize(normalizeText(text).text);
      const { sentences } = doc;
      if (sentences.length === 0) return [];
      const last = sentences.length - 1;
      const ranges: Array<[number, number]> = [[0, last]];
      for (const target of windowChars) {
        let end = 0;
        while (end < last && sentences[end]!.end - sentences[0]!.start < target) end++;
        if (end === last) break;
        ranges.push([0, end]);
      }
      const input = new Float32Array(ranges.length * width);
      ranges.forEach(([a, b], i) => doc.fill(a, b, input, i * width));
      const raw = await model.run(input, ranges.length);
      return ranges.map(([a, b], i) => ({ chars: sentences[b]!.end - sentences[a]!.start, logit: raw[i]! }));
    },
  };
}

/**
 * The folder and file of a resource a card names in another version's folder (`../2.0.0/ngram.weights.f16.gz`): beside
 * this model's folder when it is there, else in that version's folder in the bundled registry (2.1.0 lives in
 * @content-analysis/models-extra, the 2.0.0 table it reads ships in this package; the card's SHA-256 is checked).
 */
function siblingResource(model: LoadedModel, file: string): [string, string] {
  const sibling = /^\.\.\/([^/]+)\/([^/]+)$/.exec(file);
  if (sibling === null || existsSync(join(model.entry.folder, file))) return [model.entry.folder, file];
  return [bundledRegistry().resolve(model.entry.id, sibling[1]).folder, sibling[2]!];
}

// Version 2.1: the n-gram means followed by the token encoder's mean features of the same range.
async function stackedFeaturizer(
  model: LoadedModel, card: NgramCard, encoderCard: TokenEncoderCard, threads: number,
): Promise<Featurizer> {
  const names = model.card.feature_names;
  if (names.length !== 2 + encoderCard.channels || names[0] !== 'ngram_char_mean' || names[1] !== 'ngram_word_mean') {
    throw new ModelLoadError(model.entry.folder, 'a stacked model reads the two n-gram means, then the encoder\'s features');
  }
  const [tableFolder, tableFile] = siblingResource(model, card.weights);
  const [weights, encoder] = await Promise.all([
    loadNgramTable(tableFolder, { ...card, weights: tableFile }), TokenEncoder.load(model.entry.folder, encoderCard, threads),
  ]);
  return async (text) => {
    const { canonical, sentences } = canonicalSentences(text);
    const prefix = ngramPrefix(ngramSlots(canonical), weights);
    const trace = await encoder.trace(canonical);
    return {
      sentences,
      fill(a, b, out, offset) {
        const start = sentences[a]!.start;
        const end = sentences[b]!.end;
        out.set(ngramRangeMeans(prefix, start, end), offset);
        encoder.rangeMean(trace, start, end, out, offset + 2);
      },
    };
  };
}

function featurizerOf(model: LoadedModel, threads: number): Promise<Featurizer> {
  const { ngram, encoder } = model.card as { ngram?: NgramCard; encoder?: TokenEncoderCard };
  if (ngram === undefined) return featureFeaturizer(model, threads);
  return encoder === undefined ? ngramFeaturizer(model, ngram) : stackedFeaturizer(model, ngram, encoder, threads);
}

const detectors = new Map<string, Promise<AiTextDetector>>();

/**
 * Scores how likely a text is to be human-written, with the bundled model (loaded on first use and kept).
 * Throws `InvalidInputError` (code BAD_REQUEST, `field` names the request field), `UnidentifiedLanguageError`
 * (BAD_REQUEST on `text`: no language found in it) or `UnsupportedLanguageError` (sent or detected, as it says).
 */
export async function detectAiText(text: unknown, options: DetectAiTextOptions = {}): Promise<AiTextResult> {
  const profile = options.calibration === undefined ? undefined : parseCalibrationProfile(options.calibration);
  if (profile !== undefined) checkCalibratedVersion(profile, options.version);
  const key = resolveAiTextVersion(options.version, profile?.detector.version);
  let detector = detectors.get(key);
  if (detector === undefined) {
    detector = createAiTextDetector({ version: key });
    detector.catch(() => detectors.delete(key));
    detectors.set(key, detector);
  }
  return (await detector).detect(text, options);
}

async function detect(
  model: LoadedModel, featurize: Featurizer, text: unknown, options: DetectAiTextOptions,
): Promise<AiTextResult> {
  if (typeof text !== 'string') throw new InvalidInputError('text', 'a string', text);
  if (text.length < AI_TEXT_MIN_CHARS || text.length > AI_TEXT_MAX_CHARS) {
    throw new InvalidInputError('text', `a string of ${AI_TEXT_MIN_CHARS} to ${AI_TEXT_MAX_CHARS} characters`, text);
  }
  const wantSentences = options.sentences ?? true;
  if (typeof wantSentences !== 'boolean') throw new InvalidInputError('sentences', 'a boolean', wantSentences);
  const sentenceScores = options.sentenceScores ?? 'anchored';
  if (sentenceScores !== 'anchored' && sentenceScores !== 'independent') {
    throw new InvalidInputError('sentenceScores', "'anchored' or 'independent'", sentenceScores);
  }
  const profile = options.calibration === undefined ? undefined : parseCalibrationProfile(options.calibration);
  if (profile !== undefined) assertProfileFor(profile, { model: AI_TEXT_MODEL_ID, version: model.card.version });
  if (options.version !== undefined && resolveAiTextVersion(options.version, profile?.detector.version) !== model.card.version) {
    throw new InvalidInputError('version', `detector version ${model.card.version}`, options.version);
  }
  const normalized = normalizeText(text);
  const language = resolveLanguage(options.language ?? 'auto', normalized.text);
  if (language !== 'en') {
    // A deployment's calibration profile measured the English detector: it says nothing of another language's model.
    if (profile !== undefined) throw new UnsupportedLanguageError(language, ['en'], options.language === undefined || options.language === 'auto' ? 'detected' : 'requested');
    return detectInLanguage(language, {
      text: normalized.text, attack: normalized.attack, sentences: wantSentences, sentenceScores, windowOf: sentenceWindow,
    });
  }

  const doc = await featurize(normalized.text);
  const n = doc.sentences.length;
  if (n === 0) throw new InvalidInputError('text', 'text with words', text);
  const width = model.card.feature_names.length;
  const windows: Array<[number, number]> = [[0, n - 1]];
  if (wantSentences) for (let i = 0; i < n; i++) windows.push(sentenceWindow(doc.sentences, i));
  const input = new Float32Array(windows.length * width);
  windows.forEach(([a, b], row) => doc.fill(a, b, input, row * width));
  const raw = await model.run(input, windows.length);

  const buckets = profile?.buckets ?? model.card.calibration!.buckets;
  const charsOf = ([a, b]: [number, number]) => doc.sentences[b]!.end - doc.sentences[a]!.start;
  const docChars = charsOf(windows[0]!);
  const documentLogit = humanLogit(raw[0]!, docChars, buckets);
  const result: AiTextResult = {
    score: scoreOfLogit(documentLogit),
    attack_detected: normalized.attack,
    readability_score: fleschReadingEase(normalized.text),
    version: model.card.version,
    language,
    confidence: docChars < 600 ? 'low' : docChars < 1500 ? 'medium' : 'high',
  };
  if (wantSentences) {
    const own = doc.sentences.map((_, i) => humanLogit(raw[i + 1]!, charsOf(windows[i + 1]!), buckets));
    const logits = sentenceScores === 'independent' ? own : anchoredSentenceLogits(documentLogit, own, doc.sentences.map((s) => s.end - s.start));
    result.sentences = doc.sentences.map((s, i) => ({ text: s.text, score: scoreOfLogit(logits[i]!) }));
  }
  return result;
}

// A language sent by the caller is taken as sent; `auto` (or nothing) detects it, and the error says which it was.
function resolveLanguage(language: unknown, text: string): string {
  if (typeof language !== 'string' || !/^(auto|[a-z]{2})$/i.test(language)) {
    throw new InvalidInputError('language', 'a two-letter language code or auto', language);
  }
  const code = language.toLowerCase();
  if (code !== 'auto') {
    if (!AI_TEXT_LANGUAGES.includes(code)) throw new UnsupportedLanguageError(code, AI_TEXT_LANGUAGES, 'requested');
    return code;
  }
  const detected = detectLanguage(text);
  if (detected === 'und') throw new UnidentifiedLanguageError(AI_TEXT_LANGUAGES);
  if (!AI_TEXT_LANGUAGES.includes(detected)) throw new UnsupportedLanguageError(detected, AI_TEXT_LANGUAGES, 'detected');
  return detected;
}

/**
 * The sentences scored for sentence i: grown around it one neighbour at a time on alternating sides until they span
 * SENTENCE_WINDOW_CHARS characters (plugged text models use the same windows).
 */
export function sentenceWindow(sentences: ReadonlyArray<{ start: number; end: number }>, i: number): [number, number] {
  let a = i;
  let b = i;
  let left = true;
  while (sentences[b]!.end - sentences[a]!.start < SENTENCE_WINDOW_CHARS && (a > 0 || b < sentences.length - 1)) {
    if ((left && a > 0) || b === sentences.length - 1) a--;
    else b++;
    left = !left;
  }
  return [a, b];
}

