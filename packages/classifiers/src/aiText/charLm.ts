import { join } from 'node:path';
import type * as ort from 'onnxruntime-common';
import { onnxRuntime } from '@content-analysis/onnx';
import { ModelLoadError } from '../errors.js';

/**
 * The `lm` section of a model card (versions >= 1.1.0): two character-level GRU language models (observer and
 * performer) exported in one ONNX graph (`training/lm/train_lm.py`) that returns, for every position, the statistics
 * of its next-character distributions listed in `LM_STAT_COLUMNS`.
 */
export interface CharLmCard {
  /** ONNX file inside the model folder. */
  file: string;
  input: string;
  output: string;
  /** Characters with ids 2, 3, ...; id 0 = document start, 1 = any other character. */
  alphabet: string;
  /** Characters scored per chunk; chunks after the first also read `context_chars` before them. */
  chunk_chars: number;
  context_chars: number;
  /** At most this many chunks are scored per document, spread evenly over it (long texts are sampled). */
  max_chunks: number;
  /** A range with fewer scored characters than this uses the statistics of the whole scored document. */
  min_range_chars: number;
}

/** Columns of the graph's output, per position (p1 = observer, p2 = performer, x = the actual next character). */
export const LM_STAT_COLUMNS = 9;

/**
 * The language-model features, appended after `FEATURE_NAMES` for model versions with an `lm` card section. All are
 * per-character means over the scored characters of a range, so they mean the same at every length:
 *
 * - `gru_obs_logp`: mean log p1(x) under the observer (higher = more predictable; the likelihood detector).
 * - `gru_obs_entropy`: mean entropy of the observer's next-character distribution.
 * - `gru_obs_fdg`: Fast-DetectGPT's analytic criterion with the observer as sampling and scoring model,
 *   sum(log p1(x) - E_p1[log p1]) / sqrt(sum Var_p1[log p1]), divided by sqrt(n) so that it does not grow with length.
 * - `gru_perf_logp`, `gru_perf_entropy`, `gru_perf_fdg`: the same for the performer.
 * - `gru_cross_fdg`: the criterion with the performer as sampling model and the observer as scoring model
 *   (Fast-DetectGPT's two-model form).
 * - `binoculars`: log-perplexity under the performer / cross-perplexity (observer's distribution scored by the
 *   performer), Hans et al. 2024; low = machine text.
 * - `binoculars_rev`: the same with the roles swapped.
 */
export const LM_FEATURE_NAMES = [
  'gru_obs_logp', 'gru_obs_entropy', 'gru_obs_fdg', 'gru_perf_logp', 'gru_perf_entropy', 'gru_perf_fdg',
  'gru_cross_fdg', 'binoculars', 'binoculars_rev',
] as const;

// Per-character values kept as prefix sums (over scored characters only).
const LP1 = 0;
const M1 = 1;
const V1 = 2;
const LP2 = 3;
const M2 = 4;
const V2 = 5;
const X21 = 6;
const V21 = 7;
const X12 = 8;
const TRACKS = 10; // the 9 values above + the scored-character count

/** Per-character language-model statistics of a canonical text, as prefix sums (length + 1, `TRACKS` each). */
export interface LmTrace {
  sums: Float64Array;
  length: number;
}

/** A loaded character language model; the ONNX session is created once and shared. */
export class CharLm {
  private readonly ids: Map<string, number>;

  private constructor(private readonly session: ort.InferenceSession, readonly card: CharLmCard) {
    this.ids = new Map([...card.alphabet].map((ch, i) => [ch, i + 2]));
  }

  /** Loads (once per folder and thread count) the language model a model card's `lm` section names. */
  static load(folder: string, card: CharLmCard, threads = 1): Promise<CharLm> {
    const path = join(folder, card.file);
    const key = `${path}|${threads}`;
    let loaded = sessions.get(key);
    if (loaded === undefined) {
      loaded = onnxRuntime().InferenceSession.create(path, {
        intraOpNumThreads: threads, interOpNumThreads: 1, executionMode: 'sequential', graphOptimizationLevel: 'all',
      }).then(
        (session) => new CharLm(session, card),
        (error: unknown) => {
          throw new ModelLoadError(path, error instanceof Error ? error.message : String(error), { cause: error });
        },
      );
      loaded.catch(() => sessions.delete(key));
      sessions.set(key, loaded);
    }
    return loaded;
  }

  /**
   * Runs both models over the text in chunks of `chunk_chars` (each chunk after the first reads `context_chars`
   * before it, unscored), all chunks in one batch. Texts of more than `max_chunks` chunks are sampled: that many
   * chunks, evenly spread, are scored and the rest of the text is not.
   */
  async trace(canonical: string): Promise<LmTrace> {
    const { chunk_chars: chunk, context_chars: context, max_chunks: maxChunks } = this.card;
    const n = canonical.length;
    const total = Math.max(1, Math.ceil(n / chunk));
    const picked: number[] = [];
    if (total <= maxChunks) for (let k = 0; k < total; k++) picked.push(k);
    else for (let j = 0; j < maxChunks; j++) picked.push(Math.floor(((j + 0.5) * total) / maxChunks));
    const width = chunk + context + 1;
    const steps = Math.min(width, n + 1);
    const ids = new BigInt64Array(picked.length * steps).fill(1n);
    // Row of chunk k holds characters first .. first + steps - 1 with first = start - context - 1 (first = -1 for
    // k = 0: the document-start id); output row t predicts input t + 1, so character c is output row c - first - 1.
    const offsets: number[] = [];
    picked.forEach((k, row) => {
      const start = k * chunk;
      const first = k === 0 ? -1 : start - context - 1; // -1 = the document-start id
      offsets.push(first);
      for (let t = 0; t < steps; t++) {
        const c = first + t;
        if (c >= n) break;
        ids[row * steps + t] = BigInt(c < 0 ? 0 : (this.ids.get(canonical[c]!) ?? 1));
      }
    });
    const result = await this.session.run({
      [this.card.input]: new (onnxRuntime().Tensor)('int64', ids, [picked.length, steps]),
    });
    const stats = result[this.card.output]?.data as Float32Array | undefined;
    if (stats === undefined) throw new ModelLoadError(this.card.file, `no output named ${this.card.output}`);

    const values = new Float64Array(n * TRACKS);
    picked.forEach((k, row) => {
      const start = k * chunk;
      const end = Math.min(n, start + chunk);
      for (let c = start; c < end; c++) {
        const t = c - offsets[row]! - 1; // output row t predicts input t + 1 = character c
        const o = (row * (steps - 1) + t) * LM_STAT_COLUMNS;
        const v = c * TRACKS;
        const m1 = stats[o + 1]!;
        const m2 = stats[o + 4]!;
        const x21 = stats[o + 6]!;
        values[v + LP1] = stats[o]!;
        values[v + M1] = m1;
        values[v + V1] = Math.max(0, stats[o + 2]! - m1 * m1);
        values[v + LP2] = stats[o + 3]!;
        values[v + M2] = m2;
        values[v + V2] = Math.max(0, stats[o + 5]! - m2 * m2);
        values[v + X21] = x21;
        values[v + V21] = Math.max(0, stats[o + 7]! - x21 * x21);
        values[v + X12] = stats[o + 8]!;
        values[v + 9] = 1;
      }
    });
    const sums = new Float64Array((n + 1) * TRACKS);
    for (let c = 0; c < n; c++) {
      for (let j = 0; j < TRACKS; j++) sums[(c + 1) * TRACKS + j] = sums[c * TRACKS + j]! + values[c * TRACKS + j]!;
    }
    return { sums, length: n };
  }

  /**
   * The `LM_FEATURE_NAMES` of characters `start` to `end` (exclusive) of the traced text. A range with fewer than
   * `min_range_chars` scored characters (a sentence in the unsampled part of a long text) gets the whole text's.
   */
  rangeFeatures(trace: LmTrace, start: number, end: number): Float32Array {
    const { sums } = trace;
    const sumOf = (j: number, a: number, b: number) => sums[b * TRACKS + j]! - sums[a * TRACKS + j]!;
    let a = start;
    let b = end;
    if (sumOf(9, a, b) < this.card.min_range_chars) {
      a = 0;
      b = trace.length;
    }
    const n = Math.max(1, sumOf(9, a, b));
    const s = (j: number) => sumOf(j, a, b);
    const fdg = (lp: number, mean: number, variance: number) => (s(lp) - s(mean)) / Math.sqrt(Math.max(1e-9, s(variance)) * n);
    const out = new Float32Array(LM_FEATURE_NAMES.length);
    out[0] = s(LP1) / n;
    out[1] = -s(M1) / n;
    out[2] = fdg(LP1, M1, V1);
    out[3] = s(LP2) / n;
    out[4] = -s(M2) / n;
    out[5] = fdg(LP2, M2, V2);
    out[6] = fdg(LP1, X21, V21);
    out[7] = s(LP2) / Math.min(-1e-9, s(X12));
    out[8] = s(LP1) / Math.min(-1e-9, s(X21));
    return out;
  }
}

const sessions = new Map<string, Promise<CharLm>>();
