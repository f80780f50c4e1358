import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  AI_TEXT_MODEL_ID, bundledRegistry, CharLm, canonicalText, detectAiText, FEATURE_NAMES, LM_FEATURE_NAMES,
  featurePlan, loadFeatureResources, loadModel, normalizeText, planFeatures, prepareDocument,
} from '../src/index.js';
import type { CharLmCard } from '../src/index.js';
import { longText, PROSE } from './helpers.js';

// Version 1.1.0: base features + character GRU language-model features (src/aiText/charLm.ts).
const VERSION = '1.1.0';
const TOLERANCE = 3;

describe('AI-text detector 1.1.0 (character language model)', () => {
  const entry = () => bundledRegistry().resolve(AI_TEXT_MODEL_ID, VERSION);
  const lmCard = () => (entry().card as unknown as { lm: CharLmCard }).lm;

  it('is registered with a complete card and stays small', () => {
    const { card, folder } = entry();
    const base = FEATURE_NAMES.slice(0, FEATURE_NAMES.indexOf('repeated_trigrams') + 1);
    expect(card.feature_names).toEqual([...base, ...LM_FEATURE_NAMES]);
    expect(card.calibration?.buckets.length).toBeGreaterThan(0);
    expect(lmCard().file).toBe('lm.onnx');
    const bytes = readdirSync(folder).reduce((n, f) => n + statSync(join(folder, f)).size, 0);
    expect(bytes).toBeLessThan(5 * 1024 * 1024);
  });

  it('gives the output recorded in the model card for its fixed input', async () => {
    const model = await loadModel(AI_TEXT_MODEL_ID, { version: VERSION });
    const fixed = model.card.fixed_input!;
    const resources = await loadFeatureResources(model.entry.folder);
    const lm = await CharLm.load(model.entry.folder, lmCard());
    const doc = prepareDocument(normalizeText(fixed.text).text, resources);
    const last = doc.sentences.length - 1;
    const trace = await lm.trace(doc.canonical);
    const plan = featurePlan(model.entry.folder, model.card.feature_names, model.card.features_used);
    const features = new Float32Array(model.card.feature_names.length);
    planFeatures(plan, doc, 0, last, resources, features);
    features.set(lm.rangeFeatures(trace, 0, doc.sentences[last]!.end), plan.lmOffset);
    const [logit] = await model.run(features, 1);
    expect(logit).toBeCloseTo(fixed.ai_logit, 3);
  });

  it('scores in chunks close to one pass over the whole text', async () => {
    const { folder } = entry();
    const text = canonicalText(longText(2000));
    const chunked = await CharLm.load(folder, lmCard());
    const whole = await CharLm.load(folder, { ...lmCard(), chunk_chars: 100_000 });
    const a = chunked.rangeFeatures(await chunked.trace(text), 0, text.length);
    const b = whole.rangeFeatures(await whole.trace(text), 0, text.length);
    for (let i = 0; i < a.length; i++) expect(Math.abs(a[i]! - b[i]!)).toBeLessThan(0.02 * Math.max(1, Math.abs(b[i]!)));
  });

  it('is selected by the version option and keeps the result shape', async () => {
    const result = await detectAiText(PROSE, { version: VERSION, language: 'en' });
    expect(result.version).toBe(VERSION);
    expect(result.sentences?.length).toBe(7);
    expect(result.score).toBeGreaterThanOrEqual(0);
    expect(result.score).toBeLessThanOrEqual(100);
    expect((await detectAiText(PROSE, { sentences: false })).version).not.toBe(undefined);
  });

  it('barely moves under zero-width characters, homoglyphs, case and white space', async () => {
    const base = (await detectAiText(PROSE, { sentences: false, version: VERSION })).score;
    const variants = [
      PROSE.replace(/e/g, 'e\u200B'), PROSE.replace(/o/g, 'о').replace(/a/g, 'а'), PROSE.toUpperCase(),
      PROSE.replace(/ /g, '  ').replace(/\. /g, '.\n'),
    ];
    for (const text of variants) {
      const result = await detectAiText(text, { sentences: false, version: VERSION });
      expect(Math.abs(result.score - base)).toBeLessThan(TOLERANCE);
    }
  });

  it('scores 300 and 150,000 characters (the long text sampled, with sentence scores)', async () => {
    const short = await detectAiText(longText(300), { version: VERSION });
    expect(Number.isFinite(short.score)).toBe(true);
    const long = await detectAiText(longText(150_000), { version: VERSION, sentences: true });
    expect(long.sentences!.length).toBeGreaterThan(1000);
    expect(long.sentences!.every((s) => Number.isFinite(s.score))).toBe(true);
  });
});
