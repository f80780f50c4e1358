import { describe, expect, it } from 'vitest';
import {
  AI_TEXT_MODEL_ID, bundledRegistry, DEFAULT_AI_TEXT_VERSION, FEATURE_NAMES, featurePlan, loadFeatureResources, loadModel, ModelRegistry,
  normalizeText, planFeatures, prepareDocument, UnknownModelError,
} from '../src/index.js';

describe('loadModel', () => {
  it('registers the bundled AI-text model 1.0.0 with a complete card', () => {
    const entry = bundledRegistry().resolve(AI_TEXT_MODEL_ID, '1.0.0');
    // 1.0.0 reads the features up to repeated_trigrams (the lz_* features came with 1.2.0).
    expect(entry.card.feature_names).toEqual(FEATURE_NAMES.slice(0, FEATURE_NAMES.indexOf('repeated_trigrams') + 1));
    expect(entry.card.calibration?.buckets.length).toBeGreaterThan(0);
    expect(entry.card.data).toHaveProperty('splits');
    expect(entry.card.fixed_input?.text.length).toBeGreaterThan(100);
  });

  it('registers the default AI-text model with a calibrated card and its n-gram table', () => {
    const entry = bundledRegistry().resolve(AI_TEXT_MODEL_ID, DEFAULT_AI_TEXT_VERSION);
    expect(entry.card.feature_names).toEqual(['ngram_char_mean', 'ngram_word_mean']);
    expect(entry.card.calibration?.buckets.length).toBe(6);
    expect((entry.card as unknown as { ngram: { sha256: string } }).ngram.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('reuses one session per model and thread count', async () => {
    const a = await loadModel(AI_TEXT_MODEL_ID, { version: DEFAULT_AI_TEXT_VERSION });
    const b = await loadModel(AI_TEXT_MODEL_ID, { version: DEFAULT_AI_TEXT_VERSION, threads: 1 });
    expect(a).toBe(b);
  });

  it.each(['1.0.0', '1.2.0'])('gives the output recorded in the model card %s for its fixed input', async (version) => {
    const model = await loadModel(AI_TEXT_MODEL_ID, { version });
    const fixed = model.card.fixed_input!;
    const resources = await loadFeatureResources(model.entry.folder, model.card.resources, model.card.resource_sha256);
    const plan = featurePlan(model.entry.folder, model.card.feature_names, model.card.features_used);
    const doc = prepareDocument(normalizeText(fixed.text).text, resources);
    const [logit] = await model.run(planFeatures(plan, doc, 0, doc.sentences.length - 1, resources), 1);
    expect(logit).toBeCloseTo(fixed.ai_logit, 4);
  });

  it('names unknown models and bad thread counts', async () => {
    expect(() => new ModelRegistry().resolve('nope')).toThrow(UnknownModelError);
    await expect(loadModel(AI_TEXT_MODEL_ID, { threads: 0 })).rejects.toMatchObject({ code: 'BAD_REQUEST', field: 'threads' });
    await expect(loadModel(AI_TEXT_MODEL_ID, { version: '9.9.9' })).rejects.toThrow(UnknownModelError);
  });
});
