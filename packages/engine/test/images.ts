import { existsSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { aiImageModelCard, confidenceOf } from '@content-analysis/classifiers';
import type { AiImageClassification, AiImageClassifier } from '@content-analysis/classifiers';

type ClassifyImageOptions = NonNullable<Parameters<AiImageClassifier['classify']>[1]>;

/** `$CONTENT_ANALYSIS_DATASETS`, or `../shared/datasets` beside the repository. */
export const DATASETS = process.env.CONTENT_ANALYSIS_DATASETS ?? join(import.meta.dirname, '..', '..', '..', '..', 'shared', 'datasets');

/** A file of the shared image datasets, or undefined when the datasets are not there (tests that need it skip). */
export function datasetImage(...path: string[]): string | undefined {
  const file = join(DATASETS, 'images', ...path);
  return existsSync(file) ? file : undefined;
}

/**
 * A photo-like test image made here: smooth gradients plus sensor-like noise (fixed seed), so that every kernel and
 * decoder has texture to read. 512x384 JPEG at quality 92 unless told otherwise.
 */
export async function syntheticPhoto(
  options: { width?: number; height?: number; format?: 'jpeg' | 'png' | 'webp'; xmp?: string; software?: string } = {},
): Promise<Buffer> {
  const { width = 512, height = 384, format = 'jpeg' } = options;
  const data = Buffer.alloc(width * height * 3);
  let seed = 7;
  const noise = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32 - 0.5) * 12;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      data[i] = Math.max(0, Math.min(255, 80 + (x / width) * 120 + noise()));
      data[i + 1] = Math.max(0, Math.min(255, 60 + (y / height) * 140 + noise()));
      data[i + 2] = Math.max(0, Math.min(255, 140 + 60 * Math.sin(x / 40) + noise()));
    }
  }
  let image = sharp(data, { raw: { width, height, channels: 3 } });
  if (options.xmp) image = image.withXmp(options.xmp);
  if (options.software) image = image.withExif({ IFD0: { Software: options.software } });
  if (format === 'png') return image.png().toBuffer();
  if (format === 'webp') return image.webp({ quality: 90 }).toBuffer();
  return image.jpeg({ quality: 92 }).toBuffer();
}

/** A PNG of uniform random pixels: incompressible, so its size is about 3 bytes per pixel. */
export async function noisePng(width: number, height: number): Promise<Buffer> {
  const data = Buffer.alloc(width * height * 3);
  let seed = 11;
  for (let i = 0; i < data.length; i++) data[i] = (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 24;
  return sharp(data, { raw: { width, height, channels: 3 } }).png({ compressionLevel: 9 }).toBuffer();
}

/** An XMP packet whose IPTC DigitalSourceType is `type` (a NewsCodes term). */
export function digitalSourceTypeXmp(type: string): string {
  return (
    '<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/">' +
    '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about=""' +
    ' xmlns:Iptc4xmpExt="http://iptc.org/std/Iptc4xmpExt/2008-02-29/"' +
    ` Iptc4xmpExt:DigitalSourceType="http://cv.iptc.org/newscodes/digitalsourcetype/${type}"/></rdf:RDF></x:xmpmeta>` +
    '<?xpacket end="w"?>'
  );
}

/**
 * TEST DOUBLE of the AI-image classifier, not the model: it answers the same AI probability for every image and
 * records every call. Tests that use it check what the engine composes around the classifier (version
 * pass-through, credits, errors, the provenance rule), never the model's judgement.
 */
export class FixedAiImageClassifierDouble implements AiImageClassifier {
  readonly calls: Array<{ bytes: Uint8Array; version: ClassifyImageOptions['version'] }> = [];

  constructor(readonly aiProbability: number) {}

  async classify(bytes: Uint8Array, options: ClassifyImageOptions = {}): Promise<AiImageClassification> {
    this.calls.push({ bytes, version: options.version });
    const human = 1 - this.aiProbability;
    const version = String(options.version ?? '5') as AiImageClassification['version'];
    return { version, ai_probability: this.aiProbability, human_probability: human, score: Math.round(100 * human), confidence: confidenceOf(this.aiProbability) };
  }
}

/** TEST DOUBLE of a classifier that fails with `error` on every image. */
export function failingClassifierDouble(error: Error): AiImageClassifier {
  return {
    classify: async () => {
      throw error;
    },
  };
}

/** Whether the real AI-image classifier finds its default model here; says why not when it does not. */
export function realClassifierAvailable(): boolean {
  try {
    aiImageModelCard();
    return true;
  } catch (error) {
    console.warn(`[engine] the AI-image model is not there (${(error as Error).message}): tests with the real classifier are skipped`);
    return false;
  }
}
