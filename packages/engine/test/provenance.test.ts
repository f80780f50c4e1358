import { describe, expect, it } from 'vitest';
import type { AiImageClassification } from '@content-analysis/classifiers';
import { confidenceOf } from '@content-analysis/classifiers';
import type { ImageMetadataResult } from '@content-analysis/image-metadata';
import { AI_PROBABILITY_FLOOR, applyProvenance, decide, provenanceEvidence } from '../src/index.js';

type Issuers = ImageMetadataResult['ai_watermark_issuers'];

/** The parts of a metadata result the provenance rule reads; the rest does not matter to it. */
function metadataWith(issuers: Issuers, c2pa: Record<string, unknown> = {}): ImageMetadataResult {
  return { ai_watermark_detected: Object.keys(issuers).length > 0, ai_watermark_issuers: issuers, c2pa } as unknown as ImageMetadataResult;
}

const DECLARED: Issuers = {
  'Adobe Firefly': {
    strength: 'strong',
    signals: [
      { signal: 'c2pa_digital_source_type', strength: 'strong', evidence: 'active manifest m: c2pa.created trainedAlgorithmicMedia' },
      { signal: 'c2pa_claim_generator', strength: 'moderate', evidence: 'Adobe_Firefly' },
    ],
  },
};
const TRACE: Issuers = {
  ComfyUI: { strength: 'moderate', signals: [{ signal: 'png_text_chunk', strength: 'moderate', evidence: 'prompt (ComfyUI node graph)' }] },
};

const classification = (ai: number, version: AiImageClassification['version'] = '5'): AiImageClassification => ({
  version,
  ai_probability: ai,
  human_probability: 1 - ai,
  score: Math.round(100 * (1 - ai)),
  confidence: confidenceOf(ai),
});

describe('provenanceEvidence', () => {
  it('calls strong signals a declaration, moderate ones a generator trace, and reads the C2PA state', () => {
    expect(provenanceEvidence(metadataWith(DECLARED, { validation_state: 'valid' }))).toEqual({ kind: 'declared', issuers: ['Adobe Firefly'], credentials: 'valid' });
    expect(provenanceEvidence(metadataWith({ ...TRACE, ...DECLARED }))).toEqual({ kind: 'declared', issuers: ['ComfyUI', 'Adobe Firefly'], credentials: 'absent' });
    expect(provenanceEvidence(metadataWith(TRACE, { validation_state: 'invalid' }))).toEqual({ kind: 'generator-trace', issuers: ['ComfyUI'], credentials: 'invalid' });
    expect(provenanceEvidence(metadataWith({}))).toEqual({ kind: 'none', issuers: [], credentials: 'absent' });
  });
});

describe('applyProvenance', () => {
  it('raises the AI probability to 0.99 for a declaration and recomputes the human side', () => {
    const outcome = applyProvenance(classification(0.12, '3'), provenanceEvidence(metadataWith(DECLARED)));
    expect(outcome).toEqual({
      classification: { version: '3', ai_probability: 0.99, human_probability: 0.01, score: 1, confidence: 'high' },
      rule: 'declared',
      overridden: true,
    });
  });

  it('raises it to 0.9 for a generator trace', () => {
    expect(applyProvenance(classification(0.4), provenanceEvidence(metadataWith(TRACE))).classification).toEqual({
      version: '5', ai_probability: 0.9, human_probability: 0.1, score: 10, confidence: 'high',
    });
    expect(AI_PROBABILITY_FLOOR).toEqual({ declared: 0.99, 'generator-trace': 0.9 });
  });

  it('keeps a classifier probability above the floor, and leaves the numbers alone without evidence', () => {
    const high = classification(0.97);
    expect(applyProvenance(high, provenanceEvidence(metadataWith(TRACE)))).toEqual({ classification: high, rule: 'generator-trace', overridden: false });
    const low = classification(0.03);
    expect(applyProvenance(low, provenanceEvidence(metadataWith({}, { validation_state: 'valid' })))).toEqual({ classification: low, rule: 'none', overridden: false });
  });
});

describe('decide: the label agrees with the image detection score', () => {
  it('AI-Generated at high confidence on a declaration, whatever the classifier says', () => {
    expect(decide(metadataWith(DECLARED), classification(0.01))).toMatchObject({ label: 'AI-Generated', confidence: 'High' });
    expect(decide(metadataWith(DECLARED))).toMatchObject({ label: 'AI-Generated', confidence: 'High' });
  });

  it('AI-Generated at moderate confidence on a generator trace', () => {
    expect(decide(metadataWith(TRACE), classification(0.2))).toMatchObject({ label: 'AI-Generated', confidence: 'Moderate' });
  });

  it('the classifier decides without signals: moderate when decisive, low near the threshold', () => {
    expect(decide(metadataWith({}), classification(0.93))).toMatchObject({ label: 'AI-Generated', confidence: 'Moderate' });
    expect(decide(metadataWith({}), classification(0.55))).toMatchObject({ label: 'AI-Generated', confidence: 'Low' });
    expect(decide(metadataWith({}), classification(0.45))).toMatchObject({ label: 'Human', confidence: 'Low' });
    expect(decide(metadataWith({}), classification(0.04))).toMatchObject({ label: 'Human', confidence: 'Moderate' });
  });

  it('valid credentials declaring no AI: moderate when the classifier agrees, low when it does not', () => {
    const valid = metadataWith({}, { validation_state: 'valid' });
    expect(decide(valid, classification(0.3))).toMatchObject({ label: 'Human', confidence: 'Moderate' });
    const contradicted = decide(valid, classification(0.8));
    expect(contradicted).toMatchObject({ label: 'AI-Generated', confidence: 'Low' });
    expect(contradicted.reasons[0]).toBe('The pixel classifier finds AI generation (human score 20 of 100, model version 5) although valid C2PA content credentials declare none.');
    expect(decide(valid)).toMatchObject({ label: 'Human', confidence: 'Moderate' });
  });

  it('the label is AI-Generated exactly when the provenance-adjusted score is below 50', () => {
    for (const issuers of [DECLARED, TRACE, {}]) {
      for (const ai of [0, 0.1, 0.49, 0.5, 0.51, 0.9, 1]) {
        const metadata = metadataWith(issuers);
        const adjusted = applyProvenance(classification(ai), provenanceEvidence(metadata)).classification;
        expect(decide(metadata, classification(ai)).label).toBe(adjusted.score < 50 ? 'AI-Generated' : 'Human');
      }
    }
  });

  it('Manipulated when the credentials fail validation', () => {
    const invalid = metadataWith({}, { validation_state: 'invalid', validation_status: [{ code: 'assertion.dataHash.mismatch' }] });
    const decision = decide(invalid, classification(0.2));
    expect(decision.authenticity).toBe('Manipulated');
    expect(decision.reasons.at(-1)).toMatch(/assertion\.dataHash\.mismatch/);
  });
});
