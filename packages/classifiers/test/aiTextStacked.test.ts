import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  AI_TEXT_MODEL_ID, bundledRegistry, canonicalSentences, createAiTextDetector, humanScore, loadModel, ModelRegistry, normalizeText, TokenEncoder,
  tokenHash, tokenRows, WORD_TOKEN_BITS, wordTokens,
} from '../src/index.js';
import type { TokenEncoderCard } from '../src/index.js';
import { PROSE } from './helpers.js';

const VERSION = '2.1.0';

interface StackedCard {
  encoder: TokenEncoderCard & {
    reference: { tokens: number; first_hash: number; mean_features_0_3: number[]; head_logit_without_ngram: number };
  };
}

describe('word tokens', () => {
  it('cuts words (with inner apostrophes) and every other non-space character, with their offsets', () => {
    const text = "it's 3.5 km—far, isn't it?";
    const t = wordTokens(text);
    const pieces = Array.from(t.starts, (s, i) => text.slice(s, t.ends[i]));
    expect(pieces).toEqual(["it's", '3', '.', '5', 'km', '—', 'far', ',', "isn't", 'it', '?']);
    expect(t.count).toBe(11);
    // Equal tokens hash alike wherever they are; the hash is FNV-1a with MurmurHash3's finaliser.
    expect(t.hashes[0]).toBe(tokenHash("it's"));
    expect(t.hashes[9]).toBe(tokenHash('it'));
    expect(tokenHash('it')).not.toBe(tokenHash('is'));
    expect(tokenHash('a')).toBe(tokenHash('xa', 1, 2));
  });

  it('gives the model the low and the high 16 bits of each hash as two embedding rows', () => {
    const rows = tokenRows(Uint32Array.from([0x12345678, 0xffff0001]));
    expect(Array.from(rows)).toEqual([0x5678n, 0x1234n, 0x0001n, 0xffffn]);
    expect(WORD_TOKEN_BITS).toBe(16);
  });
});

describe('AI-text detector 2.1.0 (n-gram model stacked with the token encoder)', () => {
  it('runs the encoder and head as the numpy reference of training/v21/export.py does on the fixed input', async () => {
    const model = await loadModel(AI_TEXT_MODEL_ID, { version: VERSION });
    const card = (model.card as unknown as StackedCard).encoder;
    const encoder = await TokenEncoder.load(model.entry.folder, card);
    const { canonical } = canonicalSentences(normalizeText(model.card.fixed_input!.text).text);
    const trace = await encoder.trace(canonical);
    expect(trace.count).toBe(card.reference.tokens);
    expect(wordTokens(canonical).hashes[0]).toBe(card.reference.first_hash);
    const row = new Float32Array(2 + card.channels);
    encoder.rangeMean(trace, 0, canonical.length, row, 2);
    card.reference.mean_features_0_3.forEach((v, c) => expect(row[2 + c]).toBeCloseTo(v, 4));
    // With both n-gram means at 0 the head gives its encoder part plus the constant.
    const [logit] = await model.run(row, 1);
    expect(logit).toBeCloseTo(card.reference.head_logit_without_ngram, 4);
  });

  it('gives the output recorded in its model card for the fixed input, through the whole detector path', async () => {
    const model = await loadModel(AI_TEXT_MODEL_ID, { version: VERSION });
    const detector = await createAiTextDetector({ version: VERSION });
    const result = await detector.detect(model.card.fixed_input!.text, { sentences: false });
    expect(result.version).toBe(VERSION);
    // The card's logit through the card's calibration of its length bucket.
    const chars = canonicalSentences(normalizeText(model.card.fixed_input!.text).text).canonical.length;
    const expected = humanScore(model.card.fixed_input!.ai_logit, chars, model.card.calibration!.buckets);
    expect(result.score).toBeCloseTo(expected, 3);
    expect(result.score).toBeGreaterThan(50); // the fixed input is human prose written for the project
  });

  it('averages encoder features over exactly the tokens that start in a range', async () => {
    const model = await loadModel(AI_TEXT_MODEL_ID, { version: VERSION });
    const card = (model.card as unknown as StackedCard).encoder;
    const encoder = await TokenEncoder.load(model.entry.folder, card);
    const { canonical } = canonicalSentences(normalizeText(PROSE).text);
    const trace = await encoder.trace(canonical);
    const tokens = wordTokens(canonical);
    const [start, end] = [40, 200];
    const inside = Array.from(tokens.starts).flatMap((s, t) => (s >= start && s < end ? [t] : []));
    const out = new Float32Array(card.channels);
    encoder.rangeMean(trace, start, end, out, 0);
    for (const c of [0, 17, card.channels - 1]) {
      const sum = inside.reduce((acc, t) => acc + (trace.sums[(t + 1) * card.channels + c]! - trace.sums[t * card.channels + c]!), 0);
      expect(out[c]).toBeCloseTo(sum / inside.length, 5);
    }
    encoder.rangeMean(trace, 5, 5, out, 0);
    expect(Array.from(out.subarray(0, 3))).toEqual([0, 0, 0]);
  });

  it('refuses an encoder file that is not the one the model was trained with', async () => {
    const model = await loadModel(AI_TEXT_MODEL_ID, { version: VERSION });
    const folder = mkdtempSync(join(tmpdir(), 'ai-text-'));
    cpSync(model.entry.folder, folder, { recursive: true });
    // The card reads 2.0.0's n-gram table through a relative path (2.0.0 ships in this package, 2.1.0 in
    // @content-analysis/models-extra): give the copy its own.
    const card = JSON.parse(readFileSync(join(folder, 'card.json'), 'utf8')) as StackedCard & { ngram: { weights: string } };
    const table = join(bundledRegistry().resolve(AI_TEXT_MODEL_ID, '2.0.0').folder, card.ngram.weights.replace('../2.0.0/', ''));
    cpSync(table, join(folder, 'ngram.weights.f16.gz'));
    card.ngram.weights = 'ngram.weights.f16.gz';
    writeFileSync(join(folder, 'card.json'), JSON.stringify(card));
    const bytes = readFileSync(join(folder, card.encoder.file));
    bytes[bytes.length - 100]! ^= 1;
    writeFileSync(join(folder, card.encoder.file), bytes);
    const registry = new ModelRegistry();
    registry.register(folder);
    await expect(createAiTextDetector({ version: VERSION, registry })).rejects.toThrow(/SHA-256/);
    await expect(TokenEncoder.load(folder, { ...card.encoder, token_bits: 15 })).rejects.toThrow(/bits/);
  });
});
