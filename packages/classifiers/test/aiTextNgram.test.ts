import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  AI_TEXT_MODEL_ID, canonicalSentences, createAiTextDetector, DEFAULT_AI_TEXT_VERSION, detectAiText, float16ToFloat32,
  LATEST_AI_TEXT_VERSION, loadModel, loadNgramTable, ModelRegistry, NGRAM_CHAR_ORDERS, NGRAM_HASH_BITS, ngramPrefix,
  ngramRangeMeans, ngramSlots, normalizeText, parseCalibrationProfile, resolveAiTextVersion,
} from '../src/index.js';
import type { NgramCard } from '../src/index.js';
import { longText, PROSE } from './helpers.js';

const VERSION = '2.0.0';
const TOLERANCE = 3;

// A weight table with a distinct value in every slot, so any wrong slot or missed n-gram changes a sum.
function indexTable(): Float32Array {
  const table = new Float32Array(2 ** NGRAM_HASH_BITS);
  for (let i = 0; i < table.length; i++) table[i] = ((i * 2654435761) % 1000) / 1000 - 0.5;
  return table;
}

describe('hashed n-gram profile', () => {
  it('hashes every character n-gram of orders 2 to 5 and every word uni- and bigram, the same way each time', () => {
    const text = 'the cat sat on the mat';
    const a = ngramSlots(text);
    const b = ngramSlots(text);
    expect(a.charSlots).toEqual(b.charSlots);
    expect(a.charOrders).toBe(NGRAM_CHAR_ORDERS.length);
    expect(a.wordCount).toBe(6);
    // "the " at 0 and at 15: the same word unigram slot and the same character 2- to 4-grams ("the c" vs "the m").
    expect(a.wordSlots[0]).toBe(a.wordSlots[4 * a.wordOrders]);
    expect(a.charSlots.subarray(0, 3)).toEqual(a.charSlots.subarray(15 * 4, 15 * 4 + 3));
    expect(a.charSlots[3]).not.toBe(a.charSlots[15 * 4 + 3]);
    // The last character starts no n-gram of order 2 or more; the second to last only a bigram.
    const n = text.length;
    expect(Array.from(a.charSlots.subarray((n - 1) * 4, n * 4))).toEqual([-1, -1, -1, -1]);
    expect(a.charSlots[(n - 2) * 4]).toBeGreaterThanOrEqual(0);
    expect(a.charSlots[(n - 2) * 4 + 1]).toBe(-1);
    // The last word starts no bigram.
    expect(a.wordSlots[5 * a.wordOrders + 1]).toBe(-1);
    for (const s of [...a.charSlots, ...a.wordSlots]) expect(s).toBeLessThan(2 ** NGRAM_HASH_BITS);
  });

  it('reads any range\'s means from prefix sums exactly as summing its n-grams would', () => {
    const { canonical } = canonicalSentences(normalizeText(PROSE).text);
    const slots = ngramSlots(canonical);
    const table = indexTable();
    const prefix = ngramPrefix(slots, table);
    for (const [start, end] of [[0, canonical.length], [10, 250], [100, 101], [300, 300]] as const) {
      let charSum = 0;
      for (let i = start; i < end; i++) {
        for (let k = 0; k < slots.charOrders; k++) {
          const s = slots.charSlots[i * slots.charOrders + k]!;
          if (s >= 0) charSum += table[s]!;
        }
      }
      let wordSum = 0;
      let words = 0;
      for (let w = 0; w < slots.wordCount; w++) {
        if (slots.wordStarts[w]! < start || slots.wordStarts[w]! >= end) continue;
        words++;
        for (let k = 0; k < slots.wordOrders; k++) {
          const s = slots.wordSlots[w * slots.wordOrders + k]!;
          if (s >= 0) wordSum += table[s]!;
        }
      }
      const [charMean, wordMean] = ngramRangeMeans(prefix, start, end);
      expect(charMean).toBeCloseTo(end > start ? charSum / (end - start) : 0, 9);
      expect(wordMean).toBeCloseTo(words > 0 ? wordSum / words : 0, 9);
    }
  });

  it('decodes half-precision weights', () => {
    const bytes = new Uint8Array([0x00, 0x3c, 0x00, 0xc0, 0xff, 0x7b, 0x01, 0x00, 0x00, 0x80, 0x00, 0x7c, 0x55, 0x35]);
    const values = float16ToFloat32(bytes);
    expect(Array.from(values.subarray(0, 4))).toEqual([1, -2, 65504, 2 ** -24]);
    expect(Object.is(values[4], -0)).toBe(true);
    expect(values[5]).toBe(Infinity);
    expect(values[6]).toBeCloseTo(0.333, 3);
  });
});

// 3.0.0 is the same n-gram model retrained (question answering added, domain-weighted) with a calibration profile;
// 3.1.0 the same recipe on a corpus with more answers (HC3 finance, coursework) and AI rewrites (L2R).
describe.each(['2.0.0', '3.0.0', '3.1.0'])('AI-text detector %s', (VERSION) => {
  it('gives the output recorded in its model card for the fixed input', async () => {
    const model = await loadModel(AI_TEXT_MODEL_ID, { version: VERSION });
    const card = (model.card as unknown as { ngram: NgramCard }).ngram;
    const table = await loadNgramTable(model.entry.folder, card);
    const fixed = model.card.fixed_input!;
    const { canonical } = canonicalSentences(normalizeText(fixed.text).text);
    const means = ngramRangeMeans(ngramPrefix(ngramSlots(canonical), table), 0, canonical.length);
    const [logit] = await model.run(Float32Array.from(means), 1);
    expect(logit).toBeCloseTo(fixed.ai_logit, 4);
  });

  it('refuses a weight table that is not the one the model was trained with', async () => {
    const model = await loadModel(AI_TEXT_MODEL_ID, { version: VERSION });
    const folder = mkdtempSync(join(tmpdir(), 'ai-text-'));
    cpSync(model.entry.folder, folder, { recursive: true });
    const card = JSON.parse(readFileSync(join(folder, 'card.json'), 'utf8')) as { ngram: NgramCard };
    const bytes = readFileSync(join(folder, card.ngram.weights));
    bytes[bytes.length - 9]! ^= 1;
    writeFileSync(join(folder, card.ngram.weights), bytes);
    await expect(loadNgramTable(folder, card.ngram)).rejects.toMatchObject({ code: 'MODEL_LOAD_FAILED' });
    await expect(loadNgramTable(folder, { ...card.ngram, hash_bits: 20 })).rejects.toThrow(/hashing differs/);
    const registry = new ModelRegistry();
    registry.register(folder);
    await expect(createAiTextDetector({ version: VERSION, registry })).rejects.toMatchObject({ code: 'MODEL_LOAD_FAILED' });
  });

});

// The detector-level contract of every 2.x and 3.x version (2.1.0 adds the token encoder: test/aiTextStacked.test.ts).
describe.each(['2.0.0', '2.1.0', '3.0.0', '3.1.0'])('AI-text detector %s', (VERSION) => {
  it('returns the API fields, with sentence scores in input order', async () => {
    const result = await detectAiText(PROSE, { sentences: true, version: VERSION });
    expect(result.version).toBe(VERSION);
    expect(result.score).toBeGreaterThanOrEqual(0);
    expect(result.score).toBeLessThanOrEqual(100);
    expect(result.sentences?.length).toBe(7);
    expect(result.sentences?.[6]?.text).toMatch(/^Nobody could say/);
  });

  it('barely moves under zero-width characters, homoglyphs, case and white space', async () => {
    const base = (await detectAiText(PROSE, { sentences: false, version: VERSION })).score;
    const zeroWidth = PROSE.replace(/e/g, 'e\u200B');
    const homoglyphs = PROSE.replace(/o/g, 'о').replace(/a/g, 'а'); // Cyrillic о and а
    const variants = [zeroWidth, homoglyphs, PROSE.toUpperCase(), PROSE.replace(/ /g, '  ').replace(/\. /g, '.\n')];
    for (const text of variants) {
      const result = await detectAiText(text, { sentences: false, version: VERSION });
      expect(Math.abs(result.score - base)).toBeLessThan(TOLERANCE);
    }
  });

  it('scores 300 and 150,000 characters', async () => {
    const short = await detectAiText(longText(300), { version: VERSION });
    expect(short.confidence).toBe('low');
    expect(Number.isFinite(short.score)).toBe(true);
    const long = await detectAiText(longText(150_000), { sentences: true, version: VERSION });
    expect(long.sentences!.length).toBeGreaterThan(1000);
    for (const s of long.sentences!) expect(Number.isFinite(s.score)).toBe(true);
  });

});

describe.each(['3.0.0', '3.1.0'])('AI-text detector %s calibration', (VERSION) => {
  it('is a deployment calibration profile made for its version, and scores as that profile does', async () => {
    const model = await loadModel(AI_TEXT_MODEL_ID, { version: VERSION });
    const profile = parseCalibrationProfile(model.card.calibration, `${VERSION} card calibration`);
    expect(profile.detector).toMatchObject({ model: AI_TEXT_MODEL_ID, version: VERSION });
    expect(profile.target_fpr).toBeLessThanOrEqual(0.01);
    for (const b of profile.buckets) expect(b.fpr_bound).toBeLessThanOrEqual(b.meets_target ? profile.target_fpr : 1);
    const shipped = await detectAiText(PROSE, { sentences: false, version: VERSION });
    const withProfile = await detectAiText(PROSE, { sentences: false, version: VERSION, calibration: profile });
    expect(withProfile.score).toBeCloseTo(shipped.score, 9);
  });
});

describe('the default AI-text detector', () => {
  it('takes latest as the default version', async () => {
    expect(resolveAiTextVersion(LATEST_AI_TEXT_VERSION)).toBe(DEFAULT_AI_TEXT_VERSION);
    expect(resolveAiTextVersion(undefined)).toBe(DEFAULT_AI_TEXT_VERSION);
    expect(resolveAiTextVersion('1.2.0')).toBe('1.2.0');
    const result = await detectAiText(PROSE, { sentences: false, version: 'latest' });
    expect(result.version).toBe(DEFAULT_AI_TEXT_VERSION);
  });
});
