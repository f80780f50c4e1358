import type { ImageMetadataResult } from '@content-analysis/image-metadata';
import { validationCodes } from './toolReports.js';

export interface Decision {
  label: 'AI-Generated' | 'Human';
  confidence: 'High' | 'Moderate' | 'Low';
  authenticity: 'Authentic' | 'Manipulated';
  /** Why, in one or two sentences, for the report. */
  reasons: string[];
}

/**
 * The documented decision rule of advanced image detection.
 *
 * - label: AI-Generated when the file carries an AI generation signal (C2PA digital source type or claim
 *   generator, IPTC/XMP digital source type, generator metadata, an invisible generator watermark); Human otherwise.
 * - confidence: High when a strong signal decides (signed C2PA provenance, a decoded watermark), Moderate when only
 *   declarative metadata does, or when valid C2PA credentials declare no AI source; Low when nothing in the file
 *   speaks either way (the pixel classifier, `classify_image`, has not landed yet, so the pixels alone decide nothing).
 * - authenticity: Manipulated when the C2PA content credentials fail validation (the image or the manifest no
 *   longer matches what was signed); Authentic otherwise, meaning that no evidence of manipulation was found. The
 *   forensic kernels' scores are reported but do not decide: on the CASIA samples their per-image scores do not
 *   separate tampered from original images (scripts/forensics/casia-localisation.mjs).
 */
export function decide(metadata: ImageMetadataResult): Decision {
  const reasons: string[] = [];
  const issuers = Object.entries(metadata.ai_watermark_issuers);
  const strong = issuers.some(([, v]) => v.strength === 'strong');
  const c2pa = metadata.c2pa as Record<string, unknown>;
  let label: Decision['label'] = 'Human';
  let confidence: Decision['confidence'] = 'Low';
  if (metadata.ai_watermark_detected && issuers.length > 0) {
    label = 'AI-Generated';
    confidence = strong ? 'High' : 'Moderate';
    reasons.push(`The file declares AI generation (${issuers.map(([issuer]) => issuer).join(', ')}).`);
  } else if (c2pa.validation_state === 'valid') {
    confidence = 'Moderate';
    reasons.push('Valid C2PA content credentials declare no AI generation.');
  } else {
    reasons.push('Nothing in the file declares AI generation, and no pixel classifier was run, so the label rests on the absence of signals.');
  }
  let authenticity: Decision['authenticity'] = 'Authentic';
  if (c2pa.validation_state === 'invalid') {
    authenticity = 'Manipulated';
    reasons.push(`Its C2PA content credentials fail validation (${validationCodes(c2pa).join(', ') || 'invalid'}): the file changed after it was signed.`);
  } else {
    reasons.push('No evidence of manipulation was found.');
  }
  return { label, confidence, authenticity, reasons };
}
