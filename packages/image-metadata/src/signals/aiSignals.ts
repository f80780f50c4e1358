import type { C2paObject } from '../c2pa/readC2pa.js';
import type { ExifObject } from '../exif/buildExifObject.js';
import type { ImageMetadataObject } from '../metadata/toMetadataObject.js';
import type { XmpProperties } from '../xmp/parseXmp.js';
import type { InvisibleWatermarkResult } from '../watermark/decodeInvisibleWatermark.js';

/** How much one signal says: `strong` = a declaration or a decoded mark, `moderate` = a generator's own trace. */
export type SignalStrength = 'strong' | 'moderate';

/** Where a signal came from. */
export type AiSignalSource =
  | 'c2pa_digital_source_type'
  | 'c2pa_claim_generator'
  | 'xmp_digital_source_type'
  | 'png_text_chunk'
  | 'exif_software'
  | 'exif_user_comment'
  | 'invisible_watermark';

/** One piece of evidence that a generator made or touched the image. */
export interface AiSignal {
  issuer: string;
  signal: AiSignalSource;
  strength: SignalStrength;
  evidence: string;
}

/**
 * IPTC digital source types that declare generative AI, as a full NewsCodes URI or the bare term. `algorithmicMedia`
 * (pure algorithm, no training data) and `compositeSynthetic` are not generative AI.
 */
const AI_SOURCE_TYPES = /(?:^|\/)(trainedAlgorithmicMedia|compositeWithTrainedAlgorithmicMedia)$/;
/** Generator names as they appear in claim generators, Software, CreatorTool and Make tags. */
const GENERATORS: readonly [RegExp, string][] = [
  [/firefly/i, 'Adobe Firefly'],
  // Word boundaries: "Randall Evans" is not DALL-E, "Imagenomic" not Imagen.
  [/\bdall[-·_ ]?e\b|\bopenai\b|\bchatgpt\b/i, 'OpenAI'],
  [/midjourney/i, 'Midjourney'],
  [/novelai/i, 'NovelAI'],
  [/comfyui/i, 'ComfyUI'],
  [/invokeai/i, 'InvokeAI'],
  [/automatic1111|stable[-_ ]?diffusion[-_ ]?web[-_ ]?ui/i, 'Stable Diffusion web UI'],
  [/stable[-_ ]?diffusion|stability[-_ ]?ai|dreamstudio/i, 'Stability AI'],
  [/\bimagen\b|\bgemini\b|google[-_ ]?ai/i, 'Google'],
  [/bing image creator|microsoft designer/i, 'Microsoft'],
  [/meta ai|imagine with meta/i, 'Meta AI'],
  [/ideogram/i, 'Ideogram'],
  [/leonardo\.ai/i, 'Leonardo.Ai'],
  [/black forest labs|\bflux\b/i, 'Black Forest Labs'],
];

function generatorOf(text: string): string | undefined {
  for (const [pattern, name] of GENERATORS) if (pattern.test(text)) return name;
  return undefined;
}

/** C2PA: digital source types in the actions of every manifest, and AI claim generators. */
export function c2paSignals(c2pa: C2paObject): AiSignal[] {
  const out: AiSignal[] = [];
  for (const [label, manifest] of Object.entries(c2pa.manifests ?? {})) {
    const generator = manifest.claim_generator ?? '';
    const issuer = generatorOf(generator) ?? (generator.split(/[\s/]/)[0] || 'C2PA manifest');
    const active = label === c2pa.active_manifest_label;
    for (const [key, assertion] of Object.entries(manifest.assertions ?? {})) {
      if (!key.startsWith('c2pa.actions')) continue;
      const actions = ((assertion as { data?: { actions?: unknown } }).data?.actions ?? []) as { digitalSourceType?: unknown; action?: unknown }[];
      for (const action of Array.isArray(actions) ? actions : []) {
        const type = typeof action.digitalSourceType === 'string' ? action.digitalSourceType : '';
        if (AI_SOURCE_TYPES.test(type)) {
          out.push({
            issuer,
            signal: 'c2pa_digital_source_type',
            strength: 'strong',
            evidence: `${active ? 'active' : 'ingredient'} manifest ${label}: ${String(action.action)} ${type}`,
          });
        }
      }
    }
    const named = generatorOf(generator);
    if (named) out.push({ issuer: named, signal: 'c2pa_claim_generator', strength: 'moderate', evidence: generator });
  }
  return out;
}

/** IPTC / XMP `DigitalSourceType` declaring generative AI. */
export function xmpSignals(exif: ExifObject, xmp: XmpProperties): AiSignal[] {
  const type = typeof exif['DigitalSourceType'] === 'string' ? exif['DigitalSourceType'].trim() : '';
  if (!AI_SOURCE_TYPES.test(type)) return [];
  const tool = [xmp['xmp:CreatorTool'], exif.Software, exif.Make].find((v): v is string => typeof v === 'string');
  return [{ issuer: (tool && generatorOf(tool)) ?? tool ?? 'IPTC DigitalSourceType', signal: 'xmp_digital_source_type', strength: 'strong', evidence: type }];
}

/** Generation parameters that web UIs and apps write into PNG text chunks. */
export function pngTextSignals(metadata: ImageMetadataObject): AiSignal[] {
  const out: AiSignal[] = [];
  const chunks = new Map((metadata.comments ?? []).map((c) => [c.keyword, c.text] as const));
  const parameters = chunks.get('parameters');
  if (parameters && isWebUiParameters(parameters)) {
    out.push({ issuer: 'Stable Diffusion web UI', signal: 'png_text_chunk', strength: 'moderate', evidence: `parameters: ${parameters.slice(0, 120)}` });
  }
  const prompt = chunks.get('prompt');
  const workflow = chunks.get('workflow');
  if ((prompt && /"class_type"\s*:/.test(prompt)) || (workflow && /"nodes"\s*:/.test(workflow))) {
    out.push({ issuer: 'ComfyUI', signal: 'png_text_chunk', strength: 'moderate', evidence: prompt ? 'prompt (ComfyUI node graph)' : 'workflow (ComfyUI)' });
  }
  const novelAi = novelAiEvidence(chunks);
  if (novelAi) out.push({ issuer: 'NovelAI', signal: 'png_text_chunk', strength: 'moderate', evidence: novelAi });
  if (chunks.has('invokeai_metadata') || chunks.has('sd-metadata')) {
    out.push({ issuer: 'InvokeAI', signal: 'png_text_chunk', strength: 'moderate', evidence: chunks.has('invokeai_metadata') ? 'invokeai_metadata' : 'sd-metadata' });
  }
  if (chunks.has('Dream')) out.push({ issuer: 'Stable Diffusion (dream.py)', signal: 'png_text_chunk', strength: 'moderate', evidence: 'Dream' });
  for (const key of ['Software', 'Comment', 'Description', 'Author']) {
    const text = chunks.get(key);
    const generator = text ? generatorOf(text) : undefined;
    if (generator && !out.some((s) => s.issuer === generator)) {
      out.push({ issuer: generator, signal: 'png_text_chunk', strength: 'moderate', evidence: `${key}: ${text!.slice(0, 120)}` });
    }
  }
  return out;
}

/** `Steps: 20, Sampler: Euler a, CFG scale: 7, Seed: ...`: the generation parameters of AUTOMATIC1111 and Forge. */
function isWebUiParameters(text: string): boolean {
  return /\bSteps: \d+/.test(text) && /\b(Sampler|Seed|CFG scale): /.test(text);
}

/**
 * NovelAI's chunks: `Software: NovelAI`, `Source: NovelAI Diffusion ...` (older: `Stable Diffusion <hash>`), and a
 * `Comment` JSON of its request (`prompt`, `steps`, `sampler`, `uc` = undesired content). Any one is enough.
 */
function novelAiEvidence(chunks: ReadonlyMap<string, string>): string | undefined {
  const software = chunks.get('Software');
  const source = chunks.get('Source');
  const parts: string[] = [];
  if (software && /novelai/i.test(software)) parts.push(`Software: ${software}`);
  if (source && /novelai|stable diffusion [0-9a-f]{8}/i.test(source)) parts.push(`Source: ${source}`);
  const comment = chunks.get('Comment');
  if (comment && comment.trimStart().startsWith('{') && isNovelAiRequest(comment)) parts.push('Comment: NovelAI request JSON');
  return parts.length > 0 ? parts.join('; ') : undefined;
}

function isNovelAiRequest(json: string): boolean {
  try {
    const request = JSON.parse(json) as Record<string, unknown> | null;
    return typeof request === 'object' && request !== null && typeof request['uc'] === 'string' &&
      typeof request['steps'] === 'number' && typeof request['sampler'] === 'string';
  } catch {
    return false;
  }
}

/** AUTOMATIC1111 / Forge generation parameters in the EXIF UserComment, where they write them in JPEG and WEBP. */
export function exifUserCommentSignals(exif: ExifObject): AiSignal[] {
  const comment = exif.UserComment;
  if (typeof comment !== 'string' || !isWebUiParameters(comment)) return [];
  return [{ issuer: 'Stable Diffusion web UI', signal: 'exif_user_comment', strength: 'moderate', evidence: `UserComment: ${comment.slice(0, 120)}` }];
}

/** EXIF Make / Software / Model and XMP CreatorTool naming a generator. */
export function exifSoftwareSignals(exif: ExifObject, xmp: XmpProperties): AiSignal[] {
  const out: AiSignal[] = [];
  const fields: [string, unknown][] = [['Make', exif.Make], ['Model', exif.Model], ['Software', exif.Software], ['CreatorTool', xmp['xmp:CreatorTool']]];
  for (const [name, value] of fields) {
    if (typeof value !== 'string') continue;
    const generator = generatorOf(value);
    if (generator && !out.some((s) => s.issuer === generator)) {
      out.push({ issuer: generator, signal: 'exif_software', strength: 'moderate', evidence: `${name}: ${value}` });
    }
  }
  return out;
}

/** Decoded invisible watermarks. */
export function watermarkSignals(result: InvisibleWatermarkResult): AiSignal[] {
  return result.detections.map((d) => ({
    issuer: d.issuer,
    signal: 'invisible_watermark' as const,
    strength: 'strong' as const,
    evidence: `dwtDct payload ${d.payload}: ${d.matchedBits}/${d.totalBits} bits (${d.convention}, chance ${d.chanceProbability.toExponential(1)})`,
  }));
}

/** The `ai_watermark_issuers` map: issuer -> its strongest strength and every signal that named it. */
export function groupSignals(signals: readonly AiSignal[]): Record<string, { strength: SignalStrength; signals: Omit<AiSignal, 'issuer'>[] }> {
  const out: Record<string, { strength: SignalStrength; signals: Omit<AiSignal, 'issuer'>[] }> = {};
  for (const { issuer, ...rest } of signals) {
    const entry = (out[issuer] ??= { strength: rest.strength, signals: [] });
    if (rest.strength === 'strong') entry.strength = 'strong';
    entry.signals.push(rest);
  }
  return out;
}
