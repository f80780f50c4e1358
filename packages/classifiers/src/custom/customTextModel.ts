import { Tokenizer } from '@huggingface/tokenizers';
import type * as Ort from 'onnxruntime-common';
import { detectLanguage } from '../aiText/detectLanguage.js';
import { AI_TEXT_MAX_CHARS, AI_TEXT_MIN_CHARS, sentenceWindow } from '../aiText/detectAiText.js';
import type { AiTextResult, DetectAiTextOptions } from '../aiText/detectAiText.js';
import { anchoredSentenceLogits } from '../aiText/anchoredSentenceLogits.js';
import { scoreOfLogit } from '../aiText/humanScore.js';
import { normalizeText } from '../aiText/normalizeText.js';
import { fleschReadingEase } from '../aiText/readability.js';
import { splitSentences } from '../aiText/splitSentences.js';
import { CustomModelError, InvalidInputError, UnidentifiedLanguageError, UnsupportedLanguageError } from '../errors.js';
import { onnxRuntime } from '@content-analysis/onnx';
import { aiLogOdds, checkLogits, openSession } from './openSession.js';
import type { CheckedSession } from './openSession.js';
import { readJson } from './readModelFolder.js';
import type { ModelFolder } from './readModelFolder.js';
import { combineWindows, packWindows, splitLongSpan } from './textWindows.js';
import type { CountedSpan, TextWindow } from './textWindows.js';

/** Token window used when neither the declaration, the tokenizer nor the graph gives one. */
export const DEFAULT_MAX_TOKENS = 512;
/** A `model_max_length` above this is the tokenizer's "no limit" placeholder, not a length. */
const UNBOUNDED_LENGTH = 100_000;

/**
 * Maps a text model's raw output (the AI log-odds of a text of `chars` characters) to the human logit, whose
 * `100 x sigmoid` is the human score 0..100 (as the bundled detector's `humanLogit`).
 */
export type TextCalibration = (logOdds: number, chars: number) => number;

/** Without a calibration profile: the human log-odds, so that the score is 100 x (1 - P(aiLabel)) of the softmax. */
export const uncalibratedTextScore: TextCalibration = (logOdds) => -logOdds;

/** A plugged AI-text classifier, loaded and checked. */
export interface CustomTextModel {
  readonly task: 'ai-text';
  readonly name: string;
  /** `custom:<name>`: what requests send as `version` and results report. */
  readonly version: string;
  readonly folder: string;
  readonly labels: readonly string[];
  readonly aiLabel: string;
  /** Longest window, special tokens included. */
  readonly maxTokens: number;
  /** The ONNX file read. */
  readonly onnxPath: string;
  /** Languages the folder declares (others are refused), or undefined for any. */
  readonly languages: readonly string[] | undefined;
  /**
   * The text's AI log-odds (windows of at most `maxTokens` tokens, combined by characters), and its characters,
   * before any calibration: what calibration and evaluation read.
   */
  score(text: string): Promise<{ logOdds: number; chars: number; windows: number }>;
  /**
   * AI log-odds (`raw`, higher = machine) of the whole text, then of its leading sentences cut at each of
   * `windowChars` (a part stops growing at the first sentence that reaches the length; parts as long as the text are
   * left out): the ranges a deployment calibration sets its length-bucket thresholds on, as the bundled scorer's.
   */
  rangeScores(text: string, windowChars: readonly number[]): Promise<Array<{ chars: number; raw: number }>>;
  /** The same result as the bundled detector's (`detectAiText`), from this model. */
  detect(text: unknown, options?: DetectAiTextOptions): Promise<AiTextResult>;
  release(): Promise<void>;
}

export interface TextModelOptions {
  threads: number;
  /** Windows per onnxruntime call. */
  batchSize: number;
  calibration?: TextCalibration | undefined;
}

/** One window's model input: token ids and their type ids (all of one length). */
interface Encoded {
  ids: number[];
  typeIds: number[];
}

/** Creates a text model from a checked folder: tokenizer from `tokenizer.json`, session, signature and a probe run. */
export async function loadTextModel(model: ModelFolder, options: TextModelOptions): Promise<CustomTextModel> {
  const refuse = (reason: string, cause?: unknown): never => {
    throw new CustomModelError(model.name, model.folder, reason, cause === undefined ? undefined : { cause });
  };
  const tokenizerJson = readJson(model.folder, 'tokenizer.json', refuse);
  const tokenizerConfig = readJson(model.folder, 'tokenizer_config.json', refuse, true) ?? {};
  const modelType = (tokenizerJson.model as { type?: unknown } | undefined)?.type;
  if (!['BPE', 'WordPiece', 'Unigram'].includes(modelType as string)) {
    refuse(`tokenizer.json's model is ${JSON.stringify(modelType)}; BPE, WordPiece and Unigram tokenizers are read`);
  }
  let tokenizer: Tokenizer;
  try {
    tokenizer = new Tokenizer(tokenizerJson, tokenizerConfig);
  } catch (error) {
    return refuse(`tokenizer.json cannot be read: ${(error as Error).message}`, error);
  }
  const checked = await openSession(model, { required: ['input_ids'], optional: ['attention_mask', 'token_type_ids'] }, options.threads);
  try {
    return await textModel(model, tokenizer, tokenizerJson, tokenizerConfig, checked, options);
  } catch (error) {
    await checked.session.release();
    throw error;
  }
}

async function textModel(
  model: ModelFolder, tokenizer: Tokenizer, tokenizerJson: Record<string, unknown>, tokenizerConfig: Record<string, unknown>,
  checked: CheckedSession, options: TextModelOptions,
): Promise<CustomTextModel> {
  const { session, inputs, output } = checked;
  const refuse = (reason: string, cause?: unknown): never => {
    throw new CustomModelError(model.name, model.folder, reason, cause === undefined ? undefined : { cause });
  };
  // The declaration's maxTokens, else the tokenizer's: the pinned onnxruntime does not report a fixed sequence length.
  const fixedLength: number | undefined = undefined;
  const maxTokens = tokenWindow(model, tokenizerJson, tokenizerConfig, fixedLength);
  // Exporters give int64 ids; a graph that wants int32 is found by the probe below.
  let idType: 'int64' | 'int32' = 'int64';
  const padId = padIdOf(tokenizer, tokenizerJson, tokenizerConfig, model.config);
  const { prefix, suffix } = specialTokens(tokenizer, refuse);
  if (prefix + suffix >= maxTokens) refuse(`a window of ${maxTokens} tokens leaves no room for text`);
  const budget = maxTokens - prefix - suffix;
  const calibration = options.calibration ?? uncalibratedTextScore;
  const languages = model.declaration.languages;

  const count = (text: string) => tokenizer.encode(text, { add_special_tokens: false }).ids.length;
  const encode = (text: string): Encoded => {
    const e = tokenizer.encode(text, { return_token_type_ids: true });
    const typeIds = e.token_type_ids ?? new Array<number>(e.ids.length).fill(0);
    if (e.ids.length <= maxTokens) return { ids: e.ids, typeIds };
    // Too long (a span with no white space to cut at): keep the head and the closing special tokens.
    const cut = <T>(a: T[]) => [...a.slice(0, maxTokens - suffix), ...a.slice(a.length - suffix)];
    return { ids: cut(e.ids), typeIds: cut(typeIds) };
  };

  async function logOddsOf(texts: readonly string[]): Promise<Float64Array> {
    const out = new Float64Array(texts.length);
    for (let from = 0; from < texts.length; from += options.batchSize) {
      const batch = texts.slice(from, from + options.batchSize).map(encode);
      const width = fixedLength ?? Math.max(...batch.map((e) => e.ids.length));
      const feeds: Record<string, Ort.Tensor> = {};
      for (const input of inputs) {
        const data = idType === 'int64' ? new BigInt64Array(batch.length * width) : new Int32Array(batch.length * width);
        batch.forEach((e, row) => {
          for (let t = 0; t < width; t++) {
            const value = input === 'input_ids' ? (t < e.ids.length ? e.ids[t]! : padId)
              : input === 'attention_mask' ? (t < e.ids.length ? 1 : 0)
              : (t < e.typeIds.length ? e.typeIds[t]! : 0);
            if (data instanceof BigInt64Array) data[row * width + t] = BigInt(value);
            else data[row * width + t] = value;
          }
        });
        feeds[input] = new (onnxRuntime().Tensor)(idType, data, [batch.length, width]);
      }
      const result = await session.run(feeds);
      const logits = checkLogits(model, result[output], batch.length);
      for (let row = 0; row < batch.length; row++) {
        out[from + row] = aiLogOdds(logits, row * model.labels.length, model.labels.length, model.aiIndex);
      }
    }
    return out;
  }

  /** The sentences of a normalised text, and its windows. */
  function windowsOf(text: string): { sentences: CountedSpan[]; windows: TextWindow[] } {
    const sentences = splitSentences(text).map((s) => ({ ...s, tokens: count(text.slice(s.start, s.end)) }));
    const pieces = sentences.flatMap((s) => splitLongSpan(text, s, budget, count));
    return { sentences, windows: packWindows(pieces, budget) };
  }

  async function score(text: string) {
    const normalized = normalizeText(text).text;
    const { windows } = windowsOf(normalized);
    if (windows.length === 0) throw new InvalidInputError('text', 'text with words', text);
    const values = await logOddsOf(windows.map((w) => normalized.slice(w.start, w.end)));
    const chars = windows.reduce((n, w) => n + w.end - w.start, 0);
    return { logOdds: combineWindows(values, windows), chars, windows: windows.length };
  }

  // The probe: a short text through tokenizer and graph, so that a model that cannot answer (input types or ranks,
  // the width of its logits) is refused at load.
  const probe = ['This is a short probe sentence, checked when the model is loaded.'];
  try {
    await logOddsOf(probe);
  } catch (error) {
    if (error instanceof CustomModelError) throw error;
    if (!/tensor\(int32\)/.test((error as Error).message)) refuse(`the probe text could not be classified: ${(error as Error).message}`, error);
    idType = 'int32';
    try {
      await logOddsOf(probe);
    } catch (retry) {
      if (retry instanceof CustomModelError) throw retry;
      refuse(`the probe text could not be classified: ${(retry as Error).message}`, retry);
    }
  }

  return {
    task: 'ai-text',
    name: model.name,
    version: `custom:${model.name}`,
    folder: model.folder,
    labels: model.labels,
    aiLabel: model.declaration.aiLabel,
    maxTokens,
    onnxPath: model.onnxPath,
    languages,
    score,
    async rangeScores(text, windowChars) {
      const normalized = normalizeText(text).text;
      const sentences = splitSentences(normalized);
      if (sentences.length === 0) return [];
      const whole = await score(text);
      const ranges = [{ chars: whole.chars, raw: whole.logOdds }];
      const first = sentences[0]!.start;
      for (const target of windowChars) {
        let end = 0;
        while (end < sentences.length - 1 && sentences[end]!.end - first < target) end++;
        if (end === sentences.length - 1) break;
        const part = await score(normalized.slice(first, sentences[end]!.end));
        ranges.push({ chars: part.chars, raw: part.logOdds });
      }
      return ranges;
    },
    async detect(text, detectOptions = {}) {
      if (typeof text !== 'string') throw new InvalidInputError('text', 'a string', text);
      if (text.length < AI_TEXT_MIN_CHARS || text.length > AI_TEXT_MAX_CHARS) {
        throw new InvalidInputError('text', `a string of ${AI_TEXT_MIN_CHARS} to ${AI_TEXT_MAX_CHARS} characters`, text);
      }
      const wantSentences = detectOptions.sentences ?? true;
      if (typeof wantSentences !== 'boolean') throw new InvalidInputError('sentences', 'a boolean', wantSentences);
      const sentenceScores = detectOptions.sentenceScores ?? 'anchored';
      if (sentenceScores !== 'anchored' && sentenceScores !== 'independent') {
        throw new InvalidInputError('sentenceScores', "'anchored' or 'independent'", sentenceScores);
      }
      if (detectOptions.version !== undefined && detectOptions.version !== `custom:${model.name}`) {
        throw new InvalidInputError('version', `custom:${model.name}`, detectOptions.version);
      }
      const normalized = normalizeText(text);
      const language = languageOf(detectOptions.language ?? 'auto', normalized.text, languages);
      const { sentences, windows } = windowsOf(normalized.text);
      if (windows.length === 0) throw new InvalidInputError('text', 'text with words', text);
      const around = wantSentences ? sentences.map((_, i) => sentenceWindow(sentences, i)) : [];
      const texts = [
        ...windows.map((w) => normalized.text.slice(w.start, w.end)),
        ...around.map(([a, b]) => normalized.text.slice(sentences[a]!.start, sentences[b]!.end)),
      ];
      const values = await logOddsOf(texts);
      const docChars = windows.reduce((n, w) => n + w.end - w.start, 0);
      const documentLogit = calibration(combineWindows(values, windows), docChars);
      const result: AiTextResult = {
        score: scoreOfLogit(documentLogit),
        attack_detected: normalized.attack,
        readability_score: fleschReadingEase(normalized.text),
        version: `custom:${model.name}`,
        language,
        confidence: docChars < 600 ? 'low' : docChars < 1500 ? 'medium' : 'high',
      };
      if (wantSentences) {
        // As the bundled detector: each sentence's own human logit (its window's), anchored to the document's unless
        // the caller asks for the independent ones.
        const own = sentences.map((_, i) => {
          const [a, b] = around[i]!;
          return calibration(values[windows.length + i]!, sentences[b]!.end - sentences[a]!.start);
        });
        const logits = sentenceScores === 'independent' ? own : anchoredSentenceLogits(documentLogit, own, sentences.map((s) => s.end - s.start));
        result.sentences = sentences.map((s, i) => ({ text: normalized.text.slice(s.start, s.end), score: scoreOfLogit(logits[i]!) }));
      }
      return result;
    },
    release: () => session.release(),
  };
}

/**
 * The window in tokens: the declaration's `maxTokens`, else the tokenizer's `model_max_length` or truncation
 * length, else 512; never more than a sequence length fixed in the graph.
 */
function tokenWindow(
  model: ModelFolder, tokenizerJson: Record<string, unknown>, tokenizerConfig: Record<string, unknown>, fixed: number | undefined,
): number {
  const fromConfig = tokenizerConfig.model_max_length;
  const fromTruncation = (tokenizerJson.truncation as { max_length?: unknown } | null | undefined)?.max_length;
  const candidates = [model.declaration.maxTokens, fromConfig, fromTruncation]
    .filter((v): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v > 0 && v <= UNBOUNDED_LENGTH);
  const chosen = candidates[0] ?? DEFAULT_MAX_TOKENS;
  return fixed === undefined ? chosen : Math.min(chosen, fixed);
}

/** The padding id: the tokenizer's padding, its pad token, config.json's pad_token_id, else 0. */
function padIdOf(
  tokenizer: Tokenizer, tokenizerJson: Record<string, unknown>, tokenizerConfig: Record<string, unknown>, config: Record<string, unknown>,
): number {
  const padding = (tokenizerJson.padding as { pad_id?: unknown } | null | undefined)?.pad_id;
  if (typeof padding === 'number') return padding;
  const token = tokenizerConfig.pad_token;
  const name = typeof token === 'string' ? token : (token as { content?: unknown } | undefined)?.content;
  const id = typeof name === 'string' ? tokenizer.token_to_id(name) : undefined;
  if (id !== undefined) return id;
  return typeof config.pad_token_id === 'number' ? config.pad_token_id : 0;
}

/** How many special tokens the tokenizer's post-processor puts before and after a text. */
function specialTokens(tokenizer: Tokenizer, refuse: (reason: string) => never): { prefix: number; suffix: number } {
  const probe = 'probe';
  const bare: number[] = tokenizer.encode(probe, { add_special_tokens: false }).ids;
  const full: number[] = tokenizer.encode(probe).ids;
  if (bare.length === 0) refuse('the tokenizer gives no token for a plain word (an empty vocabulary?)');
  for (let at = 0; at + bare.length <= full.length; at++) {
    if (bare.every((id, i) => full[at + i] === id)) return { prefix: at, suffix: full.length - at - bare.length };
  }
  return refuse('the tokenizer\'s special tokens do not surround the text (unsupported post-processor)');
}

// As the bundled detector: a sent language is taken as sent (refused when the model declares others), `auto` is
// detected. A model that declares no languages answers for any.
function languageOf(language: unknown, text: string, languages: readonly string[] | undefined): string {
  if (typeof language !== 'string' || !/^(auto|[a-z]{2})$/i.test(language)) {
    throw new InvalidInputError('language', 'a two-letter language code or auto', language);
  }
  const code = language.toLowerCase();
  if (code !== 'auto') {
    if (languages !== undefined && !languages.includes(code)) throw new UnsupportedLanguageError(code, languages, 'requested');
    return code;
  }
  const detected = detectLanguage(text);
  if (languages !== undefined && detected === 'und') throw new UnidentifiedLanguageError(languages);
  if (languages !== undefined && !languages.includes(detected)) throw new UnsupportedLanguageError(detected, languages, 'detected');
  return detected;
}
