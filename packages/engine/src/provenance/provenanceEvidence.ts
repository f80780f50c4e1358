import type { ImageMetadataResult } from '@content-analysis/image-metadata';

/**
 * What the file says about its own origin, read from the AI generation signals of `@content-analysis/image-metadata`.
 *
 * - `declared`: strong evidence. A C2PA manifest whose actions declare an AI digital source type
 *   (`trainedAlgorithmicMedia`, `compositeWithTrainedAlgorithmicMedia`), an IPTC/XMP `DigitalSourceType` declaring
 *   the same, or an invisible generator watermark decoded from the pixels.
 * - `generator-trace`: only a generator's own traces (generation parameters in PNG text chunks or the EXIF
 *   UserComment, a generator named in EXIF Make/Software or XMP CreatorTool, an AI claim generator in C2PA).
 * - `none`: nothing in the file speaks of AI generation.
 */
export type ProvenanceKind = 'declared' | 'generator-trace' | 'none';

export interface ProvenanceEvidence {
  kind: ProvenanceKind;
  /** The issuers (generators, tools) the signals name; empty for `none`. */
  issuers: string[];
  /** State of the C2PA content credentials: `absent` when the file has none. */
  credentials: 'valid' | 'invalid' | 'unverified' | 'absent';
}

/** Reads the provenance evidence of an image from its metadata result; the one place both image endpoints read it. */
export function provenanceEvidence(metadata: ImageMetadataResult): ProvenanceEvidence {
  const issuers = metadata.ai_watermark_detected ? Object.entries(metadata.ai_watermark_issuers) : [];
  const kind: ProvenanceKind = issuers.length === 0 ? 'none' : issuers.some(([, v]) => v.strength === 'strong') ? 'declared' : 'generator-trace';
  const state = (metadata.c2pa as { validation_state?: unknown }).validation_state;
  const credentials = state === 'valid' || state === 'invalid' || state === 'unverified' ? state : 'absent';
  return { kind, issuers: issuers.map(([issuer]) => issuer), credentials };
}
