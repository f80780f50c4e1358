import type { AiImageClassification } from '@content-analysis/classifiers';
import { FUSION_MODEL } from '@content-analysis/forensics';
import type { FusedLocalisation } from '@content-analysis/forensics';
import type { ImageMetadataResult } from '@content-analysis/image-metadata';
import { likelyAiGenerated } from '../image/likelyAiGenerated.js';
import { provenanceEvidence } from '../provenance/provenanceEvidence.js';
import { validationCodes } from './toolReports.js';

export interface Decision {
  label: 'AI-Generated' | 'Human';
  confidence: 'High' | 'Moderate' | 'Low';
  authenticity: 'Authentic' | 'Manipulated';
  /** What called the image manipulated, when it is. */
  manipulatedBy?: 'credentials' | 'forensics';
  /**
   * The pixel classifier decided and said its pixels were not conclusive (its `confidence` is `low`: AI probability
   * within 0.1 of 0.5): the report's conclusion then names no side.
   */
  inconclusive: boolean;
  /** Why, in one or two sentences, for the report. */
  reasons: string[];
}

/** A pixel classifier's AI or human probability at least this far from even counts as decisive. */
const DECISIVE_PROBABILITY = 0.9;

/**
 * The documented decision rule of advanced image detection.
 *
 * - label: AI-Generated when the file carries an AI generation signal (C2PA digital source type or claim
 *   generator, IPTC/XMP digital source type, generator metadata, an invisible generator watermark; see
 *   {@link provenanceEvidence}). Otherwise the pixel classifier (`classify_image`) decides: AI-Generated when its
 *   human score is below 50. Without a classification (it failed), Human. The label is therefore AI-Generated
 *   exactly when the image detection score (the classifier after the provenance rule of `applyProvenance`) is
 *   below 50.
 * - confidence: High when a strong signal decides (a C2PA or IPTC/XMP declaration, a decoded watermark); Moderate
 *   when only a generator's metadata does, when valid C2PA credentials declaring no AI source agree with a human
 *   classification, or when the classifier alone is decisive (AI or human probability at least 0.9); Low
 *   otherwise, including when the classifier contradicts valid credentials. The pixels alone never give High: the
 *   classifier's accuracy on generators it was not trained on is not known. When the classifier decides and its own
 *   `confidence` is `low` (AI probability within 0.1 of 0.5), the decision is `inconclusive`: confidence Low, the
 *   label still the side of 50 the score falls on (the spec knows only two labels), and the conclusion says that the
 *   pixels were not conclusive instead of naming that side.
 * - authenticity: Manipulated when the C2PA content credentials fail validation (the image or the manifest no
 *   longer matches what was signed), or when the fused forensic map's image score (`fuseMaps`: the mean of its top 5%
 *   cells) reaches FUSION_MODEL.threshold, chosen on the copy-move half of the CASIA samples above every authentic
 *   image's score there (precision first: it flags few tampered images; see the forensics README); Authentic
 *   otherwise, meaning that no evidence of manipulation was found. The single kernels' scores are reported but do
 *   not decide.
 */
export function decide(metadata: ImageMetadataResult, classification?: AiImageClassification, fused?: FusedLocalisation): Decision {
  const reasons: string[] = [];
  const evidence = provenanceEvidence(metadata);
  let label: Decision['label'] = 'Human';
  let confidence: Decision['confidence'] = 'Low';
  let inconclusive = false;
  if (evidence.kind !== 'none') {
    label = 'AI-Generated';
    confidence = evidence.kind === 'declared' ? 'High' : 'Moderate';
    reasons.push(`The file declares AI generation (${evidence.issuers.join(', ')}).`);
  } else if (classification) {
    const ai = likelyAiGenerated(classification.score);
    const scored = `human score ${classification.score} of 100, model version ${classification.version}`;
    label = ai ? 'AI-Generated' : 'Human';
    if (evidence.credentials === 'valid') {
      confidence = ai ? 'Low' : 'Moderate';
      reasons.push(
        ai
          ? `The pixel classifier finds AI generation (${scored}) although valid C2PA content credentials declare none.`
          : `Valid C2PA content credentials declare no AI generation, and the pixel classifier agrees (${scored}).`,
      );
    } else if (classification.confidence === 'low') {
      inconclusive = true;
      reasons.push(
        `Nothing in the file declares AI generation, and the pixels are not conclusive (${scored}, low confidence): ` +
          'the classifier cannot tell this image from the ones it was trained on either way.',
      );
    } else {
      const decisive = Math.max(classification.ai_probability, classification.human_probability) >= DECISIVE_PROBABILITY;
      confidence = decisive ? 'Moderate' : 'Low';
      reasons.push(
        `Nothing in the file declares AI generation, so the pixel classifier decides (${scored})` +
          `${decisive ? '.' : ', too close to its threshold to be sure.'}`,
      );
    }
  } else if (evidence.credentials === 'valid') {
    confidence = 'Moderate';
    reasons.push('Valid C2PA content credentials declare no AI generation.');
  } else {
    reasons.push('Nothing in the file declares AI generation, and the pixel classifier did not run, so the label rests on the absence of signals.');
  }
  let authenticity: Decision['authenticity'] = 'Authentic';
  let manipulatedBy: Decision['manipulatedBy'];
  const c2pa = metadata.c2pa as Record<string, unknown>;
  const fusedScore = fused ? `fused forensic score ${Math.round(fused.score * 1000) / 1000}, threshold ${FUSION_MODEL.threshold}` : undefined;
  if (evidence.credentials === 'invalid') {
    authenticity = 'Manipulated';
    manipulatedBy = 'credentials';
    reasons.push(`Its C2PA content credentials fail validation (${validationCodes(c2pa).join(', ') || 'invalid'}): the file changed after it was signed.`);
  } else if (fused && fused.score >= FUSION_MODEL.threshold) {
    authenticity = 'Manipulated';
    manipulatedBy = 'forensics';
    reasons.push(`The forensic maps agree on a region that differs from the rest of the image (${fusedScore}).`);
  } else {
    reasons.push(`No evidence of manipulation was found${fusedScore ? ` (${fusedScore})` : ''}.`);
  }
  return { label, confidence, authenticity, ...(manipulatedBy ? { manipulatedBy } : {}), inconclusive, reasons };
}
