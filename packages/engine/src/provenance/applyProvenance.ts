import { classification as classified } from '@content-analysis/classifiers';
import type { AiImageClassification } from '@content-analysis/classifiers';
import type { ProvenanceEvidence, ProvenanceKind } from './provenanceEvidence.js';

/**
 * The lowest AI probability each kind of provenance evidence allows. A declaration or a decoded watermark is
 * stronger evidence than any pixel statistic; a generator's metadata trace is strong but can be copied onto
 * another file, so it leaves a margin.
 */
export const AI_PROBABILITY_FLOOR: Readonly<Record<Exclude<ProvenanceKind, 'none'>, number>> = Object.freeze({
  declared: 0.99,
  'generator-trace': 0.9,
});

/** The classification after the provenance rule, and whether the rule changed it. */
export interface ProvenanceOutcome {
  classification: AiImageClassification;
  /** The evidence the rule read: `none` when the pixels alone decide. */
  rule: ProvenanceKind;
  /** Whether the evidence raised the classifier's AI probability. */
  overridden: boolean;
}

/**
 * The provenance rule of image detection: evidence in the file overrides the pixel classifier upwards, never
 * downwards.
 *
 * - `declared` (a C2PA or IPTC/XMP digital source type declaring AI generation, or a decoded invisible watermark):
 *   `ai_probability = max(classifier, 0.99)`.
 * - `generator-trace` (generation parameters or a generator's name in the metadata): `ai_probability =
 *   max(classifier, 0.9)`.
 * - `none`: the classifier's numbers as they are.
 *
 * When the floor applies, the numbers are made by the classifier's own `classification` (`human_probability =
 * 1 - ai_probability`, `score = round(100 * human_probability)`), so the score stays the one function of the
 * probability that the classifier documents. Nothing lowers the AI
 * probability: valid C2PA credentials that declare no AI source are not proof of a camera (signers are not
 * checked against a trust list), and metadata is easily stripped.
 */
export function applyProvenance(classification: AiImageClassification, evidence: ProvenanceEvidence): ProvenanceOutcome {
  if (evidence.kind === 'none') return { classification, rule: 'none', overridden: false };
  const floor = AI_PROBABILITY_FLOOR[evidence.kind];
  if (classification.ai_probability >= floor) return { classification, rule: evidence.kind, overridden: false };
  return {
    classification: classified(classification.version, floor),
    rule: evidence.kind,
    overridden: true,
  };
}
