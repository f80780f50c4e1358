import type { AiImageClassification, AiImageClassifier } from '@content-analysis/classifiers';
import type { ImageMetadataResult } from '@content-analysis/image-metadata';
import { likelyAiGenerated } from '../image/likelyAiGenerated.js';
import { applyProvenance } from '../provenance/applyProvenance.js';
import { provenanceEvidence } from '../provenance/provenanceEvidence.js';
import type { ToolReport } from './toolReports.js';

/** What the pixel classifier gave for one image: its numbers, or why it could not run. */
export type ClassificationOutcome =
  | { state: 'completed'; classification: AiImageClassification }
  | { state: 'errored'; error: { code?: string; message: string } };

/**
 * Runs the classifier without letting its failure take the report down. A caller error of the classifier keeps
 * its message; any other failure is summarised by its code, since its message may name server paths.
 */
export async function classifyOutcome(classifier: () => AiImageClassifier, bytes: Uint8Array): Promise<ClassificationOutcome> {
  try {
    return { state: 'completed', classification: await classifier().classify(bytes) };
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    const message = code === 'BAD_REQUEST' ? (error as Error).message : 'the classifier failed to run';
    return { state: 'errored', error: typeof code === 'string' ? { code, message } : { message } };
  }
}

const two = (x: number): string => String(Math.round(x * 100) / 100);

/** The `classify_image` entry of the advanced report: the classifier's own numbers, and the provenance rule on top. */
export function classifyImageReport(outcome: ClassificationOutcome, metadata: ImageMetadataResult): ToolReport {
  if (outcome.state === 'errored') {
    return {
      id: 'classify_image',
      analysis: `The pixel classifier could not run on this image (${outcome.error.message}); the label rests on the file's own signals.`,
      result: { error: outcome.error },
    };
  }
  const raw = outcome.classification;
  const evidence = provenanceEvidence(metadata);
  const applied = applyProvenance(raw, evidence);
  const sentences = [
    `Pixel classifier, model version ${raw.version}: AI probability ${two(raw.ai_probability)}, human score ${raw.score} of 100 ` +
      `(${raw.confidence === 'low' ? 'not conclusive: within 0.1 of even' : likelyAiGenerated(raw.score) ? 'likely AI-generated' : 'likely human'}, ` +
      `${raw.confidence} confidence).`,
  ];
  if (applied.overridden) {
    sentences.push(
      `The file's AI generation signals (${evidence.issuers.join(', ')}) override the pixels: image detection reports AI ` +
        `probability ${two(applied.classification.ai_probability)} and human score ${applied.classification.score}.`,
    );
  } else if (applied.rule !== 'none') {
    sentences.push(`The file's AI generation signals (${evidence.issuers.join(', ')}) agree.`);
  }
  return {
    id: 'classify_image',
    analysis: sentences.join(' '),
    result: {
      version: raw.version,
      ai_probability: raw.ai_probability,
      human_probability: raw.human_probability,
      score: raw.score,
      confidence: raw.confidence,
      provenance: {
        rule: applied.rule,
        overridden: applied.overridden,
        ai_probability: applied.classification.ai_probability,
        human_probability: applied.classification.human_probability,
        score: applied.classification.score,
      },
    },
  };
}
