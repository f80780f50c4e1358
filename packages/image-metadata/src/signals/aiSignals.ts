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
  | 'invisible_watermark';

/** One piece of evidence that a generator made or touched the image. */
export interface AiSignal {
  issuer: string;
  signal: AiSignalSource;
  strength: SignalStrength;
  evidence: string;
}

/** IPTC digital source types that declare generative AI. */
const AI_SOURCE_TYPES = /\/(trainedAlgorithmicMedia|compositeWithTrainedAlgorithmicMedia)$/;
/** Generator names as they appear in claim generators, Software, CreatorTool and Make tags. */
const GENERATORS: readonly [RegExp, string][] = [
  [/firefly/i, 'Adobe Firefly'],
  [/dall[-·_ ]?e|openai|chatgpt/i, 'OpenAI'],
  [/midjourney/i, 'Midjourney'],
  [/novelai/i, 'NovelAI'],
  [/comfyui/i, 'ComfyUI'],
  [/invokeai/i, 'InvokeAI'],
  [/automatic1111|stable[-_ ]?diffusion[-_ ]?web[-_ ]?ui/i, 'Stable Diffusion web UI'],
  [/stable[-_ ]?diffusion|stability[-_ ]?ai|dreamstudio/i, 'Stability AI'],
  [/imagen|gemini|google[-_ ]?ai/i, 'Google'],
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
  const type = typeof exif['DigitalSourceType'] === 'string' ? exif['DigitalSourceType'] : '';
  if (!AI_SOURCE_TYPES.test(type)) return [];
  const tool = [xmp['xmp:CreatorTool'], exif.Software, exif.Make].find((v): v is string => typeof v === 'string');
  return [{ issuer: (tool && generatorOf(tool)) ?? tool ?? 'IPTC DigitalSourceType', signal: 'xmp_digital_source_type', strength: 'strong', evidence: type }];
}

/** Generation parameters that web UIs and apps write into PNG text chunks. */
export function pngTextSignals(metadata: ImageMetadataObject): AiSignal[] {
  const out: AiSignal[] = [];
  const chunks = new Map((metadata.comments ?? []).map((c) => [c.keyword, c.text] as const));
  const parameters = chunks.get('parameters');
  if (parameters && /\bSteps: \d+/.test(parameters) && /\b(Sampler|Seed|CFG scale): /.test(parameters)) {
    out.push({ issuer: 'Stable Diffusion web UI', signal: 'png_text_chunk', strength: 'moderate', evidence: `parameters: ${parameters.slice(0, 120)}` });
  }
  const prompt = chunks.get('prompt');
  const workflow = chunks.get('workflow');
  if ((prompt && /"class_type"\s*:/.test(prompt)) || (workflow && /"nodes"\s*:/.test(workflow))) {
    out.push({ issuer: 'ComfyUI', signal: 'png_text_chunk', strength: 'moderate', evidence: prompt ? 'prompt (ComfyUI node graph)' : 'workflow (ComfyUI)' });
  }
  const software = chunks.get('Software');
  if ((software && /novelai/i.test(software)) || (chunks.get('Source') ?? '').match(/novelai|stable diffusion [0-9a-f]{8}/i)) {
    out.push({ issuer: 'NovelAI', signal: 'png_text_chunk', strength: 'moderate', evidence: `Software: ${software ?? ''} Source: ${chunks.get('Source') ?? ''}`.trim() });
  }
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
