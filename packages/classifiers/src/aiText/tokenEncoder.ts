import { resolve } from 'node:path';
import { onnxRuntime } from '@content-analysis/onnx';
import type { OnnxSessionRunner } from '../runtime/onnxSession.js';
import { ModelLoadError } from '../errors.js';
import { readChecked } from '../runtime/readChecked.js';
import { lowerBound } from './words.js';
import { tokenRows, WORD_TOKEN_BITS, wordTokens } from './wordTokens.js';

/** The `encoder` section of a 2.1 model card: the convolutional token encoder (training/v21/). */
export interface TokenEncoderCard {
  /** ONNX file, relative to the model folder: token rows [T, 2] (int64) -> features [1, channels, T]. */
  file: string;
  /** SHA-256 (hex) of that file. */
  sha256: string;
  /** Bits of each embedding row index (`WORD_TOKEN_BITS`). */
  token_bits: number;
  channels: number;
  input: string;
  output: string;
}

/** The encoder's features of a canonical text, as prefix sums over its tokens. */
export interface EncoderTrace {
  /** `sums[t * channels + c]`: feature c summed over the tokens before token t (`count + 1` rows). */
  sums: Float64Array;
  /** Character offset of each token's start. */
  starts: Int32Array;
  count: number;
}

const sessions = new Map<string, Promise<TokenEncoder>>();

/**
 * The token encoder of AI-text model 2.1: every token of a text gets a feature vector from its neighbourhood (a few
 * tokens each side), and a range of the text is described by the mean of its tokens' vectors, so any range costs
 * O(channels) after one pass.
 */
export class TokenEncoder {
  /** Use `TokenEncoder.load`, which checks the file and shares the session. */
  constructor(private readonly session: OnnxSessionRunner, readonly card: TokenEncoderCard) {}

  /** Loads (once per folder and thread count) the encoder a model card's `encoder` section names. */
  static load(folder: string, card: TokenEncoderCard, threads = 1): Promise<TokenEncoder> {
    const path = resolve(folder, card.file);
    const key = `${path}|${threads}`;
    let loaded = sessions.get(key);
    if (loaded === undefined) {
      loaded = openEncoder(folder, path, card, threads);
      loaded.catch(() => sessions.delete(key));
      sessions.set(key, loaded);
    }
    return loaded;
  }

  /** Runs the encoder once over the tokens of `canonical`. */
  async trace(canonical: string): Promise<EncoderTrace> {
    const tokens = wordTokens(canonical);
    const { channels } = this.card;
    const n = tokens.count;
    const sums = new Float64Array((n + 1) * channels);
    if (n > 0) {
      const result = await this.session.run({
        [this.card.input]: new (onnxRuntime().Tensor)('int64', tokenRows(tokens.hashes), [n, 2]),
      });
      const features = result[this.card.output]?.data as Float32Array | undefined;
      if (features === undefined || features.length !== n * channels) {
        throw new ModelLoadError(this.card.file, `no output named ${this.card.output} of ${channels} x ${n} values`);
      }
      for (let c = 0; c < channels; c++) {
        let sum = 0;
        const row = c * n;
        for (let t = 0; t < n; t++) {
          sum += features[row + t]!;
          sums[(t + 1) * channels + c] = sum;
        }
      }
    }
    return { sums, starts: tokens.starts, count: n };
  }

  /** Writes the mean features of the tokens starting in characters `[start, end)` at `out[offset..]` (0 if none). */
  rangeMean(trace: EncoderTrace, start: number, end: number, out: Float32Array, offset: number): void {
    const { channels } = this.card;
    const a = lowerBound(trace.starts, trace.count, start);
    const b = lowerBound(trace.starts, trace.count, end);
    const count = b - a;
    for (let c = 0; c < channels; c++) {
      out[offset + c] = count > 0 ? (trace.sums[b * channels + c]! - trace.sums[a * channels + c]!) / count : 0;
    }
  }
}

async function openEncoder(folder: string, path: string, card: TokenEncoderCard, threads: number): Promise<TokenEncoder> {
  if (card.token_bits !== WORD_TOKEN_BITS) {
    throw new ModelLoadError(folder, `the encoder's tokens have ${card.token_bits} bits, this package's ${WORD_TOKEN_BITS}`);
  }
  const bytes = await readChecked(folder, path, card.sha256);
  try {
    const session = await onnxRuntime().InferenceSession.create(bytes, {
      intraOpNumThreads: threads, interOpNumThreads: 1, executionMode: 'sequential', graphOptimizationLevel: 'all',
    });
    return new TokenEncoder(session, card);
  } catch (error) {
    throw new ModelLoadError(path, error instanceof Error ? error.message : String(error), { cause: error });
  }
}
