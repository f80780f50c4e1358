import { describe, expect, it } from 'vitest';
import {
  AI_TEXT_MODEL_ID, bundledRegistry, compressionCosts, CompressionReference, createAiTextDetector, FEATURE_NAMES,
  featurePlan, loadFeatureResources, ModelLoadError,
} from '../src/index.js';
import { longText, PROSE } from './helpers.js';

const sum = (values: Float32Array, from = 0, to = values.length): number => {
  let s = 0;
  for (let i = from; i < to; i++) s += values[i]!;
  return s;
};

describe('compression profile (LZ77 bits per character)', () => {
  const literals = new CompressionReference('', PROSE);

  it('prices text without repeats as literals of the reference code', () => {
    const text = 'the quick brown fox jumps';
    const costs = compressionCosts(text, literals);
    for (let i = 0; i < text.length; i++) expect(costs[i]).toBe(literals.literalBits[text.charCodeAt(i)]);
    // A letter frequent in the literal source is cheaper than one that never occurs there.
    expect(literals.literalBits['e'.charCodeAt(0)]!).toBeLessThan(literals.literalBits['q'.charCodeAt(0)]! - 2);
  });

  it('prices a repeat with deflate\'s fixed length and distance codes, shared over its characters', () => {
    const alphabet = 'abcdefghijklmnopqrstuvwxyz';
    const costs = compressionCosts(alphabet + alphabet, literals);
    // Length 26: symbol 270 (7 bits) + 2 extra bits; distance 26: code 9 (5 bits) + 3 extra bits: 17 bits.
    for (let i = 26; i < 52; i++) expect(costs[i]).toBeCloseTo(17 / 26, 6);
    expect(sum(costs, 0, 26)).toBeCloseTo([...alphabet].reduce((s, c) => s + literals.literalBits[c.charCodeAt(0)]!, 0), 3);
  });

  it('makes text found in the reference cheap under that reference only', () => {
    const reference = new CompressionReference(PROSE);
    const passage = PROSE.slice(100, 400);
    const underReference = sum(compressionCosts(passage, reference)) / passage.length;
    const alone = sum(compressionCosts(passage, new CompressionReference('', PROSE))) / passage.length;
    expect(underReference).toBeLessThan(0.2);
    expect(alone).toBeGreaterThan(3);
  });

  it('gives every character a finite, non-negative cost, also outside Latin-1', () => {
    const text = 'naïve café – “quotes” 日本語 and emoji 🙂 repeated: naïve café – “quotes” 日本語';
    const costs = compressionCosts(text, literals);
    expect(costs.length).toBe(text.length);
    for (const c of costs) expect(Number.isFinite(c) && c >= 0).toBe(true);
  });
});

describe('AI-text detector 1.2.0 (compression profiles instead of deflate per range)', () => {
  const entry = () => bundledRegistry().resolve(AI_TEXT_MODEL_ID, '1.2.0');

  it('reads 1.0.0\'s resources, checked by SHA-256, and no deflate feature', async () => {
    const { card, folder } = entry();
    expect(card.feature_names.some((n) => n.startsWith('deflate_'))).toBe(false);
    expect(card.feature_names.filter((n) => n.startsWith('lz_'))).toEqual(FEATURE_NAMES.filter((n) => n.startsWith('lz_')));
    expect(card.resources?.['human_lm']).toBe('../1.0.0/human.ngram.gz');
    const plan = featurePlan(folder, card.feature_names, card.features_used);
    expect(plan.deflate).toBe(false);
    expect(plan.compression).toBe(card.features_used.some((n) => n.startsWith('lz_')));
    const wrong = { ...card.resource_sha256, human_lm: '0'.repeat(64) };
    await expect(loadFeatureResources(folder, card.resources, wrong)).rejects.toThrow(ModelLoadError);
  });

  it('barely moves under zero-width characters, homoglyphs, case and white space', async () => {
    const detector = await createAiTextDetector({ version: '1.2.0' });
    const base = (await detector.detect(PROSE, { sentences: false })).score;
    const variants = [
      PROSE.replace(/e/g, 'e\u200B'), PROSE.replace(/o/g, 'о').replace(/a/g, 'а'), PROSE.toUpperCase(),
      PROSE.replace(/ /g, '  ').replace(/\. /g, '.\n'),
    ];
    for (const text of variants) expect(Math.abs((await detector.detect(text, { sentences: false })).score - base)).toBeLessThan(3);
  });

  it('scores 300 and 150,000 characters, with a score per sentence', async () => {
    const detector = await createAiTextDetector({ version: '1.2.0' });
    const short = await detector.detect(longText(300), { sentences: true });
    expect(short.version).toBe('1.2.0');
    expect(short.confidence).toBe('low');
    const long = await detector.detect(longText(150_000), { sentences: true });
    expect(long.sentences!.length).toBeGreaterThan(1000);
    for (const s of long.sentences!) expect(s.score >= 0 && s.score <= 100).toBe(true);
  });
});
