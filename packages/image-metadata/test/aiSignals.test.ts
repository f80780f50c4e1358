import { describe, expect, it } from 'vitest';
import { extractImageMetadata, type ImageMetadataResult } from '../src/index.js';
import {
  a1111ExifBlock, encodedWithMetadata, jpegWithExif, pngWithText, webpWithExif, xmpPacket, type PngText,
} from './helpers/generatorFiles.js';

const DST = 'http://cv.iptc.org/newscodes/digitalsourcetype/';
const A1111 = 'a lighthouse at dusk\nNegative prompt: blurry\nSteps: 20, Sampler: DPM++ 2M Karras, CFG scale: 7, Seed: 1234, Size: 512x512, Model: sd_xl_base_1.0';
const COMFY_PROMPT = '{"3": {"inputs": {"seed": 1, "steps": 20, "model": ["4", 0]}, "class_type": "KSampler"}, "4": {"inputs": {"ckpt_name": "sdxl.safetensors"}, "class_type": "CheckpointLoaderSimple"}}';
const COMFY_WORKFLOW = '{"last_node_id": 9, "last_link_id": 9, "nodes": [{"id": 3, "type": "KSampler", "pos": [863, 186]}], "links": [], "version": 0.4}';
const NOVELAI_COMMENT = '{"prompt": "a lighthouse", "steps": 28, "height": 1216, "width": 832, "scale": 5.0, "uncond_scale": 1.0, "seed": 42, "sampler": "k_euler_ancestral", "uc": "lowres, bad anatomy"}';

const extract = (bytes: Buffer): Promise<ImageMetadataResult> => extractImageMetadata(bytes, { decodeWatermark: false });
const png = async (...texts: PngText[]): Promise<ImageMetadataResult> => extract(await pngWithText(texts));

describe('PNG text chunks of generators', () => {
  it('AUTOMATIC1111 / Forge parameters in a tEXt chunk', async () => {
    const result = await png({ type: 'tEXt', keyword: 'parameters', text: A1111 });
    expect(result.ai_watermark_detected).toBe(true);
    expect(result.ai_watermark_issuers).toEqual({
      'Stable Diffusion web UI': {
        strength: 'moderate',
        signals: [{ signal: 'png_text_chunk', strength: 'moderate', evidence: `parameters: ${A1111.slice(0, 120)}` }],
      },
    });
  });

  it('parameters with non-Latin-1 text in an iTXt chunk, plain and compressed', async () => {
    const text = 'ein Leuchtturm, 灯台\nSteps: 30, Sampler: Euler a, CFG scale: 6, Seed: 7';
    for (const compressed of [false, true]) {
      const result = await png({ type: 'iTXt', keyword: 'parameters', text, compressed });
      expect(result.metadata.comments).toEqual([{ keyword: 'parameters', text }]);
      expect(result.ai_watermark_issuers).toEqual({
        'Stable Diffusion web UI': { strength: 'moderate', signals: [{ signal: 'png_text_chunk', strength: 'moderate', evidence: `parameters: ${text}` }] },
      });
    }
  });

  it('ComfyUI prompt (node graph) and workflow, from zTXt and tEXt chunks', async () => {
    const both = await png({ type: 'zTXt', keyword: 'prompt', text: COMFY_PROMPT }, { type: 'tEXt', keyword: 'workflow', text: COMFY_WORKFLOW });
    expect(both.metadata.comments?.map((c) => c.keyword)).toEqual(['prompt', 'workflow']);
    expect(both.ai_watermark_issuers).toEqual({
      ComfyUI: { strength: 'moderate', signals: [{ signal: 'png_text_chunk', strength: 'moderate', evidence: 'prompt (ComfyUI node graph)' }] },
    });
    const workflowOnly = await png({ type: 'tEXt', keyword: 'workflow', text: COMFY_WORKFLOW });
    expect(workflowOnly.ai_watermark_issuers).toEqual({
      ComfyUI: { strength: 'moderate', signals: [{ signal: 'png_text_chunk', strength: 'moderate', evidence: 'workflow (ComfyUI)' }] },
    });
  });

  it('NovelAI: Software, Source and the Comment request JSON in one signal', async () => {
    const result = await png(
      { type: 'tEXt', keyword: 'Title', text: 'AI generated image' },
      { type: 'tEXt', keyword: 'Description', text: 'a lighthouse' },
      { type: 'tEXt', keyword: 'Software', text: 'NovelAI' },
      { type: 'tEXt', keyword: 'Source', text: 'NovelAI Diffusion V4 4F49EC75' },
      { type: 'tEXt', keyword: 'Comment', text: NOVELAI_COMMENT },
    );
    expect(result.ai_watermark_issuers).toEqual({
      NovelAI: {
        strength: 'moderate',
        signals: [{
          signal: 'png_text_chunk',
          strength: 'moderate',
          evidence: 'Software: NovelAI; Source: NovelAI Diffusion V4 4F49EC75; Comment: NovelAI request JSON',
        }],
      },
    });
  });

  it('NovelAI from its Comment JSON alone (Software chunk stripped)', async () => {
    const result = await png({ type: 'tEXt', keyword: 'Comment', text: NOVELAI_COMMENT });
    expect(result.ai_watermark_issuers).toEqual({
      NovelAI: { strength: 'moderate', signals: [{ signal: 'png_text_chunk', strength: 'moderate', evidence: 'Comment: NovelAI request JSON' }] },
    });
  });

  it('InvokeAI metadata chunks (current invokeai_metadata and legacy sd-metadata)', async () => {
    const current = await png({ type: 'tEXt', keyword: 'invokeai_metadata', text: '{"generation_mode": "txt2img", "steps": 30}' });
    expect(current.ai_watermark_issuers).toEqual({
      InvokeAI: { strength: 'moderate', signals: [{ signal: 'png_text_chunk', strength: 'moderate', evidence: 'invokeai_metadata' }] },
    });
    const legacy = await png({ type: 'tEXt', keyword: 'sd-metadata', text: '{"model": "stable diffusion", "image": {"steps": 50}}' });
    expect(legacy.ai_watermark_issuers).toEqual({
      InvokeAI: { strength: 'moderate', signals: [{ signal: 'png_text_chunk', strength: 'moderate', evidence: 'sd-metadata' }] },
    });
  });

  it('XMP DigitalSourceType in an iTXt XML:com.adobe.xmp chunk, without a named tool', async () => {
    const result = await png({ type: 'iTXt', keyword: 'XML:com.adobe.xmp', text: xmpPacket({ 'Iptc4xmpExt:DigitalSourceType': `${DST}trainedAlgorithmicMedia` }) });
    expect(result.exif['DigitalSourceType']).toBe(`${DST}trainedAlgorithmicMedia`);
    expect(result.ai_watermark_issuers).toEqual({
      'IPTC DigitalSourceType': {
        strength: 'strong',
        signals: [{ signal: 'xmp_digital_source_type', strength: 'strong', evidence: `${DST}trainedAlgorithmicMedia` }],
      },
    });
  });
});

describe.each(['jpeg', 'webp'] as const)('EXIF and XMP of generators in %s', (format) => {
  it('EXIF Software naming a generator (Make of a camera alongside)', async () => {
    const result = await extract(await encodedWithMetadata({ format, ifd0: { Make: 'Canon', Software: 'Midjourney v6' } }));
    expect(result.exif.Software).toBe('Midjourney v6');
    expect(result.ai_watermark_issuers).toEqual({
      Midjourney: { strength: 'moderate', signals: [{ signal: 'exif_software', strength: 'moderate', evidence: 'Software: Midjourney v6' }] },
    });
  });

  it('EXIF Make naming a generator', async () => {
    const result = await extract(await encodedWithMetadata({ format, ifd0: { Make: 'OpenAI', Model: 'DALL-E 3' } }));
    expect(result.ai_watermark_issuers).toEqual({
      OpenAI: { strength: 'moderate', signals: [{ signal: 'exif_software', strength: 'moderate', evidence: 'Make: OpenAI' }] },
    });
  });

  it('XMP CreatorTool with compositeWithTrainedAlgorithmicMedia: one issuer, strong', async () => {
    const xmp = xmpPacket({ 'xmp:CreatorTool': 'Adobe Firefly', 'Iptc4xmpExt:DigitalSourceType': `${DST}compositeWithTrainedAlgorithmicMedia` });
    const result = await extract(await encodedWithMetadata({ format, xmp }));
    expect(result.ai_watermark_issuers).toEqual({
      'Adobe Firefly': {
        strength: 'strong',
        signals: [
          { signal: 'xmp_digital_source_type', strength: 'strong', evidence: `${DST}compositeWithTrainedAlgorithmicMedia` },
          { signal: 'exif_software', strength: 'moderate', evidence: 'CreatorTool: Adobe Firefly' },
        ],
      },
    });
  });

  it('trainedAlgorithmicMedia names the generator from EXIF Software when XMP has no CreatorTool', async () => {
    const xmp = xmpPacket({ 'Iptc4xmpExt:DigitalSourceType': `${DST}trainedAlgorithmicMedia` });
    const result = await extract(await encodedWithMetadata({ format, xmp, ifd0: { Software: 'Google Imagen 3' } }));
    expect(result.ai_watermark_issuers).toEqual({
      Google: {
        strength: 'strong',
        signals: [
          { signal: 'xmp_digital_source_type', strength: 'strong', evidence: `${DST}trainedAlgorithmicMedia` },
          { signal: 'exif_software', strength: 'moderate', evidence: 'Software: Google Imagen 3' },
        ],
      },
    });
  });

  it('algorithmicMedia (no training data) is not generative AI', async () => {
    const result = await extract(await encodedWithMetadata({ format, xmp: xmpPacket({ 'Iptc4xmpExt:DigitalSourceType': `${DST}algorithmicMedia` }) }));
    expect(result.exif['DigitalSourceType']).toBe(`${DST}algorithmicMedia`);
    expect(result.ai_watermark_detected).toBe(false);
    expect(result.ai_watermark_issuers).toEqual({});
  });

  it('a camera file edited in Photoshop gives no detection', async () => {
    const result = await extract(await encodedWithMetadata({
      format,
      ifd0: { Make: 'Canon', Model: 'Canon EOS 5D Mark IV', Software: 'Adobe Photoshop 25.0 Windows', Artist: 'Randall Evans' },
      xmp: xmpPacket({ 'xmp:CreatorTool': 'Adobe Photoshop 25.0 Windows', 'Iptc4xmpExt:DigitalSourceType': `${DST}digitalCapture` }),
    }));
    expect(result.exif).toMatchObject({ Make: 'Canon', Software: 'Adobe Photoshop 25.0 Windows', Creator: 'Randall Evans' });
    expect(result.ai_watermark_detected).toBe(false);
    expect(result.ai_watermark_issuers).toEqual({});
  });
});

describe('AUTOMATIC1111 parameters in the EXIF UserComment (UNICODE, big-endian, as piexif writes them)', () => {
  const expected = {
    'Stable Diffusion web UI': {
      strength: 'moderate',
      signals: [{ signal: 'exif_user_comment', strength: 'moderate', evidence: `UserComment: ${A1111.slice(0, 120)}` }],
    },
  };

  it('JPEG', async () => {
    const result = await extract(await jpegWithExif(a1111ExifBlock(A1111)));
    expect(result.exif.UserComment).toBe(A1111);
    expect(result.ai_watermark_issuers).toEqual(expected);
  });

  it('WEBP', async () => {
    const result = await extract(await webpWithExif(a1111ExifBlock(A1111)));
    expect(result.exif.UserComment).toBe(A1111);
    expect(result.ai_watermark_issuers).toEqual(expected);
  });

  it('a UserComment without generation parameters gives no detection', async () => {
    const result = await extract(await jpegWithExif(a1111ExifBlock('Holiday in Brittany, steps to the lighthouse')));
    expect(result.exif.UserComment).toBe('Holiday in Brittany, steps to the lighthouse');
    expect(result.ai_watermark_detected).toBe(false);
  });
});

describe('negative controls', () => {
  it('a PNG with unrelated Comment, Software, Author and Description chunks', async () => {
    const result = await png(
      { type: 'tEXt', keyword: 'Comment', text: 'Created with GIMP' },
      { type: 'tEXt', keyword: 'Software', text: 'Imagenomic Portraiture 3' },
      { type: 'tEXt', keyword: 'Author', text: 'Randall Evans' },
      { type: 'zTXt', keyword: 'Comment', text: '{"note": "not a generator", "steps": 3}' },
    );
    expect(result.metadata.comments).toHaveLength(4);
    expect(result.ai_watermark_detected).toBe(false);
    expect(result.ai_watermark_issuers).toEqual({});
  });

  it('a parameters chunk that is not a web UI dump', async () => {
    const result = await png({ type: 'tEXt', keyword: 'parameters', text: 'exposure +0.3, white balance daylight' });
    expect(result.ai_watermark_detected).toBe(false);
  });
});
