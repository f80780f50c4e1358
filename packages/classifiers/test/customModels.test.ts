import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { customCalibrationScorer, CustomModels, profileTextCalibration, resizedSize, readPreprocessing } from '../src/index.js';
import type { CustomImageModel, CustomTextModel } from '../src/index.js';
import { writeImageModel, writeTextModel } from '../../../scripts/custom-model/testModels.mjs';
import type { ImageWeights, TextWeights } from '../../../scripts/custom-model/testModels.mjs';
import { humanScore, referenceLogOdds, referenceTokens } from './customReference.js';

// Small models built here (scripts/custom-model/testModels.mjs), and the numbers they must give computed again in
// this file from their weights: tokenisation, windows, the graph's arithmetic and the softmax, written out by hand.

const root = mkdtempSync(join(tmpdir(), 'custom-models-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const folder = () => join(root, `m${n++}`);

const SENTENCES = [
  'The cat kept the house.',
  'My grandmother kept bees every summer.',
  'However, it is important to ensure various things.',
  'The dog was in the world of work.',
  'We had honey and the smell of it was in the house.',
  'Overall, they would delve into crucial text.',
  'I kept one dog and she kept the cat.',
  'There was more time for people that year.',
  'Additionally, the model can be crucial for life.',
];
const TEXT = SENTENCES.join(' ');

describe('plugged text model', () => {
  let weights: TextWeights;
  let model: CustomTextModel;
  let short: { weights: TextWeights; model: CustomTextModel };
  const models: CustomModels[] = [];
  afterAll(async () => Promise.all(models.map((m) => m.release())));

  it('scores a text that fits one window as 100 x (1 - P(ai)) of the softmax', async () => {
    const dir = folder();
    weights = writeTextModel(dir);
    const loaded = await CustomModels.load({ plain: dir });
    models.push(loaded);
    model = loaded.text('custom:plain');
    const expected = referenceLogOdds(weights, referenceTokens(TEXT));
    const { logOdds, windows } = await model.score(TEXT);
    expect(windows).toBe(1);
    expect(logOdds).toBeCloseTo(expected, 5);
    const result = await model.detect(TEXT, { sentences: false });
    expect(result.score).toBeCloseTo(humanScore(expected), 4);
    expect(result.version).toBe('custom:plain');
    expect(result.language).toBe('en');
  });

  it('cuts a long text into windows of maxTokens and weighs them by characters', async () => {
    const dir = folder();
    const w = writeTextModel(dir, { declaration: { maxTokens: 24 } });
    const loaded = await CustomModels.load({ short: dir });
    models.push(loaded);
    short = { weights: w, model: loaded.text('custom:short') };
    // The reference packing: whole sentences while their tokens fit 24 - 2 special tokens.
    const windows: string[][] = [];
    let tokens = 0;
    for (const s of SENTENCES) {
      const count = referenceTokens(s).length;
      if (windows.length > 0 && tokens + count <= 22) {
        windows.at(-1)!.push(s);
        tokens += count;
      } else {
        windows.push([s]);
        tokens = count;
      }
    }
    const texts = windows.map((w) => w.join(' '));
    const chars = texts.map((t) => t.length);
    const expected = texts.reduce((sum, t, i) => sum + chars[i]! * referenceLogOdds(w, referenceTokens(t)), 0) / chars.reduce((a, b) => a + b, 0);
    const scored = await short.model.score(TEXT);
    expect(scored.windows).toBe(windows.length);
    expect(windows.length).toBeGreaterThan(3);
    expect(scored.logOdds).toBeCloseTo(expected, 5);
  });

  it('scores each sentence on the sentences around it (250 characters), cut to the window', async () => {
    const result = await short.model.detect(TEXT, { sentences: true, sentenceScores: 'independent' });
    expect(result.sentences!.map((s) => s.text)).toEqual(SENTENCES);
    // Around sentence i: one neighbour at a time, left first, until the span reaches 250 characters.
    const starts: number[] = [];
    let at = 0;
    for (const s of SENTENCES) {
      starts.push(at);
      at += s.length + 1;
    }
    const span = (a: number, b: number) => starts[b]! + SENTENCES[b]!.length - starts[a]!;
    SENTENCES.forEach((_, i) => {
      let [a, b, left] = [i, i, true];
      while (span(a, b) < 250 && (a > 0 || b < SENTENCES.length - 1)) {
        if ((left && a > 0) || b === SENTENCES.length - 1) a--;
        else b++;
        left = !left;
      }
      const ids = referenceTokens(SENTENCES.slice(a, b + 1).join(' '));
      expect(result.sentences![i]!.score).toBeCloseTo(humanScore(referenceLogOdds(short.weights, ids, 24)), 4);
    });
  });

  it('anchors sentence scores to the document\'s by default, as the bundled detector', async () => {
    const independent = await short.model.detect(TEXT, { sentenceScores: 'independent' });
    const anchored = await short.model.detect(TEXT);
    // Human logits: the document's, plus each sentence's distance from the length-weighted mean of the sentences.
    const logit = (score: number) => Math.log(score / (100 - score));
    const own = independent.sentences!.map((s) => logit(s.score));
    const lengths = SENTENCES.map((s) => s.length);
    const mean = own.reduce((sum, z, i) => sum + z * lengths[i]!, 0) / lengths.reduce((a, b) => a + b, 0);
    anchored.sentences!.forEach((s, i) => expect(logit(s.score)).toBeCloseTo(logit(anchored.score) + own[i]! - mean, 6));
    expect(anchored.score).toBe(independent.score);
  });

  it('pads a batch of windows of different lengths without changing their scores', async () => {
    const one = await CustomModels.load({ short: short.model.folder }, { batchSize: 1 });
    models.push(one);
    const alone = await one.text('custom:short').detect(TEXT);
    const batched = await short.model.detect(TEXT);
    expect(batched.sentences!.length).toBeGreaterThan(8);
    batched.sentences!.forEach((s, i) => expect(s.score).toBeCloseTo(alone.sentences![i]!.score, 5));
    expect(batched.score).toBeCloseTo(alone.score, 5);
  });

  it('gives a deployment calibration the ranges the bundled scorer gives: whole text, then leading parts', async () => {
    const scorer = await customCalibrationScorer(model);
    expect(scorer.detector.model).toBe('custom:plain');
    expect(scorer.detector.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(await scorer.score('too short', [200])).toEqual({ skip: 'length' });
    const scored = await scorer.score(TEXT, [60, 200, 10_000]);
    if (!('ranges' in scored)) throw new Error('expected ranges');
    // 60 characters: the first two sentences (23 + 1 + 38 = 62); 200: the first six (five span 198); 10,000: the whole text, left out.
    const lead = (k: number) => SENTENCES.slice(0, k).join(' ');
    expect(scored.ranges.map((r) => r.chars)).toEqual([TEXT.length, lead(2).length, lead(6).length]);
    expect(scored.ranges[0]!.raw).toBeCloseTo(referenceLogOdds(weights, referenceTokens(TEXT)), 5);
    expect(scored.ranges[1]!.raw).toBeCloseTo(referenceLogOdds(weights, referenceTokens(lead(2))), 5);
    expect(scored.ranges[2]!.raw).toBeCloseTo(referenceLogOdds(weights, referenceTokens(lead(6))), 5);
  });

  it('applies a calibration profile\'s buckets to the AI log-odds as the bundled detector does', async () => {
    const buckets = [{ min_chars: 0, threshold: 0.2, scale: 0.5 }, { min_chars: 300, threshold: -0.1, scale: 0.25 }];
    const loaded = await CustomModels.load({ calibrated: model.folder }, { calibrations: { calibrated: profileTextCalibration(buckets) } });
    models.push(loaded);
    const logOdds = referenceLogOdds(weights, referenceTokens(TEXT));
    const result = await loaded.text('custom:calibrated').detect(TEXT, { sentences: false });
    // TEXT is over 300 characters: the second bucket; human score 100 x sigmoid(2 (threshold - raw) / scale).
    expect(result.score).toBeCloseTo(100 / (1 + Math.exp(-(2 * (-0.1 - logOdds)) / 0.25)), 4);
  });

  it('reads BPE (byte level) and Unigram tokenizer.json files as the ecosystem does', async () => {
    const special = (id: number, content: string) => ({ id, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true });
    const bpe = {
      version: '1.0', truncation: null, padding: null, normalizer: null,
      added_tokens: [special(0, '<s>'), special(1, '</s>'), special(2, '<pad>'), special(3, '<unk>')],
      pre_tokenizer: { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: true },
      post_processor: { type: 'RobertaProcessing', sep: ['</s>', 1], cls: ['<s>', 0], trim_offsets: true, add_prefix_space: false },
      decoder: { type: 'ByteLevel', add_prefix_space: true, trim_offsets: true, use_regex: true },
      model: {
        type: 'BPE', dropout: null, unk_token: '<unk>', continuing_subword_prefix: '', end_of_word_suffix: '', fuse_unk: false, byte_fallback: false,
        vocab: { '<s>': 0, '</s>': 1, '<pad>': 2, '<unk>': 3, l: 4, o: 5, w: 6, e: 7, r: 8, 'Ġ': 9, lo: 10, low: 11, 'Ġlow': 12, er: 13 },
        merges: ['l o', 'lo w', 'e r', 'Ġ low'],
      },
    };
    const unigram = {
      version: '1.0', truncation: null, padding: null, normalizer: null,
      added_tokens: [special(0, '<unk>'), special(1, '<s>'), special(2, '</s>')],
      pre_tokenizer: { type: 'Metaspace', replacement: '▁', prepend_scheme: 'always', split: true },
      post_processor: {
        type: 'TemplateProcessing', single: [{ SpecialToken: { id: '<s>', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '</s>', type_id: 0 } }],
        pair: [], special_tokens: { '<s>': { id: '<s>', ids: [1], tokens: ['<s>'] }, '</s>': { id: '</s>', ids: [2], tokens: ['</s>'] } },
      },
      decoder: { type: 'Metaspace', replacement: '▁', prepend_scheme: 'always', split: true },
      model: {
        type: 'Unigram', unk_id: 0, byte_fallback: false,
        vocab: [['<unk>', 0], ['<s>', 0], ['</s>', 0], ['▁', -2], ['▁the', -1], ['▁cat', -1.5], ['s', -2.5], ['▁cats', -5], ['c', -4], ['a', -4], ['t', -4]],
      },
    };
    // Hand-derived ids. BPE: "low" -> low; " lower" -> Ġ l o w e r -> (l o) (lo w) (e r) (Ġ low) -> Ġlow er.
    // Unigram: "the cats" -> ▁the, then ▁cat + s (-4) beats ▁cats (-5).
    const cases = [
      { tokenizer: bpe, text: 'low lower', ids: [0, 11, 12, 13, 1], vocabulary: 14 },
      { tokenizer: unigram, text: 'the cats', ids: [1, 4, 5, 6, 2], vocabulary: 11 },
    ];
    for (const c of cases) {
      const dir = folder();
      const w = writeTextModel(dir, { tokenizer: c.tokenizer, onnx: { vocabulary: c.vocabulary } });
      const loaded = await CustomModels.load({ tok: dir });
      models.push(loaded);
      const mean = [0, 1].map((j) => c.ids.reduce((s, id) => s + w.embedding[id * 2 + j]!, 0) / c.ids.length + w.bias[j]!);
      expect((await loaded.text('custom:tok').score(c.text)).logOdds).toBeCloseTo(mean[1]! - mean[0]!, 5);
    }
  });

  it('reads the AI label wherever config.json puts it, and a graph with token_type_ids', async () => {
    const dir = folder();
    const w = writeTextModel(dir, { labels: ['machine', 'person'], declaration: { aiLabel: 'machine' }, onnx: { inputs: ['input_ids', 'attention_mask', 'token_type_ids'] } });
    const loaded = await CustomModels.load({ swapped: dir });
    models.push(loaded);
    const ids = referenceTokens(SENTENCES[0]!);
    // AI is column 0 now: its log-odds is the opposite difference.
    expect((await loaded.text('custom:swapped').score(SENTENCES[0]!)).logOdds).toBeCloseTo(-referenceLogOdds(w, ids), 5);
  });

  it('refuses a language outside the declared ones, as the bundled detector does', async () => {
    const dir = folder();
    writeTextModel(dir, { declaration: { languages: ['de'] } });
    const loaded = await CustomModels.load({ de: dir });
    models.push(loaded);
    await expect(loaded.text('custom:de').detect(TEXT)).rejects.toMatchObject({ code: 'UNSUPPORTED_LANGUAGE' });
    await expect(loaded.text('custom:de').detect(TEXT, { language: 'de', sentences: false })).resolves.toMatchObject({ language: 'de' });
  });
});

// ---- The image model ----

/** Per-channel means of the normalised pixels, times W, plus the bias: the AI log-odds. */
function referenceImageLogOdds(weights: ImageWeights, rgb: Uint8Array, pixels: number, mean: number[], std: number[]): number {
  const m = [0, 1, 2].map((c) => {
    let s = 0;
    for (let i = 0; i < pixels; i++) s += (rgb[i * 3 + c]! / 255 - mean[c]!) / std[c]!;
    return s / pixels;
  });
  const logit = (j: number) => m.reduce((s, v, c) => s + v * weights.w[c * 2 + j]!, 0) + weights.bias[j]!;
  return logit(1) - logit(0);
}

function noise(width: number, height: number, seed: number): Uint8Array {
  const rgb = new Uint8Array(width * height * 3);
  let state = seed;
  for (let i = 0; i < rgb.length; i++) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    // A colour cast per channel, so that the channel means differ.
    rgb[i] = Math.min(255, ((state >>> 24) >> 1) + 60 * (i % 3));
  }
  return rgb;
}

describe('plugged image model', () => {
  const models: CustomModels[] = [];
  afterAll(async () => Promise.all(models.map((m) => m.release())));

  it('scores an image as the graph does on the normalised pixels, rounded as the bundled classifier', async () => {
    const dir = folder();
    const w = writeImageModel(dir);
    const loaded = await CustomModels.load({ vit: dir });
    models.push(loaded);
    const model: CustomImageModel = loaded.image('custom:vit');
    // Already 224 x 224: the resize keeps every pixel, so the reference reads the raw pixels.
    const rgb = noise(224, 224, 5);
    const png = await sharp(rgb, { raw: { width: 224, height: 224, channels: 3 } }).png().toBuffer();
    const expected = referenceImageLogOdds(w, rgb, 224 * 224, [0.5, 0.5, 0.5], [0.5, 0.5, 0.5]);
    expect(await model.score(png)).toBeCloseTo(expected, 4);
    const p = 1 / (1 + Math.exp(-expected));
    const ai = Math.round(p * 1e4) / 1e4;
    const confidence = Math.abs(ai - 0.5) < 0.1 ? 'low' : Math.abs(ai - 0.5) < 0.3 ? 'medium' : 'high';
    expect(await model.classify(png)).toEqual({
      version: 'custom:vit', ai_probability: ai, human_probability: Math.round((1 - ai) * 1e4) / 1e4, score: Math.round((1 - ai) * 100), confidence,
    });
  });

  it('applies ConvNeXt\'s crop_pct rule: shortest edge to edge / crop_pct, then the centre crop', async () => {
    const preprocessor = {
      image_processor_type: 'ConvNextImageProcessor', size: { shortest_edge: 224 }, crop_pct: 0.875, resample: 3,
      image_mean: [0.485, 0.456, 0.406], image_std: [0.229, 0.224, 0.225],
    };
    const dir = folder();
    const w = writeImageModel(dir, { preprocessor });
    const loaded = await CustomModels.load({ convnext: dir });
    models.push(loaded);
    const p = loaded.image('custom:convnext').preprocessing;
    expect(resizedSize(p, 400, 300)).toEqual({ width: 341, height: 256 }); // floor(256 * 400 / 300)
    expect(p.output).toEqual({ width: 224, height: 224 });
    const source = await sharp(noise(400, 300, 9), { raw: { width: 400, height: 300, channels: 3 } }).png().toBuffer();
    // The resize is sharp's bicubic in both; the crop offsets and the normalisation are this test's own.
    const resized = await sharp(source).resize(341, 256, { fit: 'fill', kernel: 'cubic' }).raw().toBuffer();
    const top = Math.floor((256 - 224) / 2);
    const left = Math.floor((341 - 224) / 2);
    const crop = new Uint8Array(224 * 224 * 3);
    for (let y = 0; y < 224; y++) crop.set(resized.subarray(((y + top) * 341 + left) * 3, ((y + top) * 341 + left + 224) * 3), y * 224 * 3);
    const expected = referenceImageLogOdds(w, crop, 224 * 224, preprocessor.image_mean, preprocessor.image_std);
    expect(await loaded.image('custom:convnext').score(source)).toBeCloseTo(expected, 4);
  });

  it('reads grey and RGBA images as RGB', async () => {
    const dir = folder();
    writeImageModel(dir);
    const loaded = await CustomModels.load({ any: dir });
    models.push(loaded);
    const grey = await sharp(Buffer.alloc(300 * 300, 128), { raw: { width: 300, height: 300, channels: 1 } }).png().toBuffer();
    const rgba = await sharp(Buffer.alloc(300 * 300 * 4, 200), { raw: { width: 300, height: 300, channels: 4 } }).png().toBuffer();
    for (const image of [grey, rgba]) expect(Number.isFinite(await loaded.image('custom:any').score(image))).toBe(true);
  });
});

// ---- Folders refused at load ----

describe('a bad model folder is refused at load with the reason', () => {
  const refused = async (dir: string, options = {}) => {
    const error = await CustomModels.load({ bad: dir }, options).then(() => undefined, (e: unknown) => e);
    expect(error).toMatchObject({ code: 'CUSTOM_MODEL_REFUSED', modelName: 'bad' });
    return (error as Error).message;
  };

  it('names a missing file', async () => {
    const dir = folder();
    writeTextModel(dir);
    rmSync(join(dir, 'tokenizer.json'));
    expect(await refused(dir)).toMatch(/refused: missing tokenizer\.json$/);
    const image = folder();
    writeImageModel(image);
    rmSync(join(image, 'model.onnx'));
    expect(await refused(image)).toMatch(/missing the ONNX file: none of onnx\/model\.onnx, model\.onnx/);
    expect(await refused(join(root, 'nowhere'))).toMatch(/no such folder/);
  });

  it('names inputs that do not match a classifier\'s', async () => {
    const dir = folder();
    writeTextModel(dir, { onnx: { inputs: ['ids', 'attention_mask'] } });
    expect(await refused(dir)).toMatch(/inputs are ids, attention_mask; a ai-text classifier takes input_ids .*missing input_ids; cannot feed ids/);
    const image = folder();
    writeImageModel(image, { onnx: { height: 256, width: 256 } });
    // The graph wants 256 x 256, preprocessor_config.json gives 224 x 224: the probe image says so.
    expect(await refused(image)).toMatch(/the probe image could not be classified: Got invalid dimensions for input: pixel_values[^]*Got: 224 Expected: 256/);
  });

  it('names labels that do not match the outputs, or an AI label that is not one of them', async () => {
    const dir = folder();
    writeTextModel(dir, { onnx: { labels: 3 } });
    expect(await refused(dir)).toMatch(/the graph answered float32 \[1, 3\] for 1 input\(s\); expected float32 \[1, 2\] \(one logit per label of config\.json's id2label\)/);
    const other = folder();
    writeTextModel(other, { declaration: { aiLabel: 'generated' } });
    expect(await refused(other)).toMatch(/aiLabel "generated" is not a label of config\.json's id2label \("human", "ai"\)/);
  });

  it('names a file that is not ONNX', async () => {
    const pointer = folder();
    writeTextModel(pointer);
    writeFileSync(join(pointer, 'onnx/model.onnx'), 'version https://git-lfs.github.com/spec/v1\noid sha256:abc\nsize 498000000\n');
    expect(await refused(pointer)).toMatch(/not an ONNX model: it is a Git LFS pointer/);
    const zip = folder();
    writeImageModel(zip);
    writeFileSync(join(zip, 'model.onnx'), Buffer.from('PK\u0003\u0004 pytorch_model/data.pkl'));
    expect(await refused(zip)).toMatch(/not an ONNX model: it is a zip archive/);
    const garbage = folder();
    writeImageModel(garbage);
    writeFileSync(join(garbage, 'model.onnx'), Buffer.from([0x08, 0x07, 0x12, 0xff, 0xff, 0x01, 0x02]));
    expect(await refused(garbage)).toMatch(/onnxruntime cannot load it/);
  });

  it('refuses a model larger than the bound', async () => {
    const dir = folder();
    writeTextModel(dir);
    expect(await refused(dir, { maxModelBytes: 1000 })).toMatch(/onnx\/model\.onnx is \d+ bytes with its external data, more than the 1000 bytes this deployment allows/);
  });

  it('never reads from the network', async () => {
    expect(await refused('https://huggingface.co/openai-community/roberta-base-openai-detector')).toMatch(/read from a local folder, never from the network/);
    expect(await refused('openai-community/roberta-base-openai-detector')).toMatch(/a Hugging Face model id is not fetched/);
  });

  it('refuses an unknown declaration key or task, and preprocessing it cannot apply', async () => {
    const dir = folder();
    writeTextModel(dir, { declaration: { aiLable: 'ai' } });
    expect(await refused(dir)).toMatch(/unknown keys aiLable/);
    const task = folder();
    writeTextModel(task, { declaration: { task: 'plagiarism' } });
    expect(await refused(task)).toMatch(/task must be "ai-text" or "ai-image", not "plagiarism"/);
    const image = folder();
    writeImageModel(image, { preprocessor: { size: { longest_edge: 512 } } });
    expect(await refused(image)).toMatch(/size \{"longest_edge":512\} is not read/);
    expect(() => readPreprocessing({ resample: 4 }, (r) => { throw new Error(r); })).toThrow(/resample 4 is not one of/);
  });
});
