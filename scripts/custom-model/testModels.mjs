// Small model folders in the Hugging Face / Optimum layout, written from code so that they are regenerable and a few
// kilobytes: a sequence classifier (input_ids, attention_mask -> logits) with a hand-written WordPiece tokenizer.json,
// and an image classifier (pixel_values -> logits) with a preprocessor_config.json. Their weights are arbitrary
// (a seeded generator): they exercise loading, windows and scoring, and detect nothing.
//
// The text graph: logits = mean over the unmasked tokens of E[input_ids] + bias (E: vocabulary x labels).
// The image graph: logits = (per-channel mean of pixel_values) x W + bias (W: 3 x labels).
// Tests compute the same numbers on their own from `weights` to check the runtime against them.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { encodeOnnxModel, ONNX_INT64 } from '../../packages/classifiers/dist/index.js';

/** The WordPiece vocabulary of the test tokenizer (ids are positions). */
export const TEST_VOCABULARY = [
  '[PAD]', '[UNK]', '[CLS]', '[SEP]', '.', ',', '!', '?', "'", '-',
  'the', 'a', 'an', 'of', 'to', 'and', 'in', 'is', 'it', 'that', 'was', 'for', 'on', 'with', 'as', 'at', 'by', 'this',
  'i', 'you', 'he', 'she', 'we', 'they', 'my', 'her', 'his', 'our', 'be', 'are', 'were', 'have', 'has', 'had', 'not',
  'but', 'or', 'from', 'so', 'if', 'when', 'there', 'what', 'which', 'can', 'will', 'would', 'one', 'all', 'more',
  'cat', 'dog', 'house', 'day', 'time', 'year', 'people', 'way', 'thing', 'world', 'life', 'work', 'model', 'text',
  'however', 'furthermore', 'additionally', 'overall', 'important', 'ensure', 'various', 'crucial', 'delve',
  'grand', '##mother', 'bee', '##s', '##ed', '##ing', '##ly', 'kept', 'every', 'summer', 'honey', 'smell',
];

/** Seeded weights in [-1, 1): a linear congruential generator, so the folders are the same bytes every time. */
export function seededWeights(count, seed) {
  const out = new Float32Array(count);
  let state = seed >>> 0;
  for (let i = 0; i < count; i++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    out[i] = state / 2 ** 31 - 1;
  }
  return out;
}

/** The hand-written tokenizer.json of the text test model: BERT normaliser and pre-tokeniser, WordPiece, [CLS] A [SEP]. */
export function wordPieceTokenizer(vocabulary = TEST_VOCABULARY) {
  const special = (id, content) => ({ id, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true });
  const cls = vocabulary.indexOf('[CLS]');
  const sep = vocabulary.indexOf('[SEP]');
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: ['[PAD]', '[UNK]', '[CLS]', '[SEP]'].map((t) => special(vocabulary.indexOf(t), t)),
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [{ SpecialToken: { id: '[CLS]', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '[SEP]', type_id: 0 } }],
      pair: [{ SpecialToken: { id: '[CLS]', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '[SEP]', type_id: 0 } },
        { Sequence: { id: 'B', type_id: 1 } }, { SpecialToken: { id: '[SEP]', type_id: 1 } }],
      special_tokens: {
        '[CLS]': { id: '[CLS]', ids: [cls], tokens: ['[CLS]'] },
        '[SEP]': { id: '[SEP]', ids: [sep], tokens: ['[SEP]'] },
      },
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##', max_input_chars_per_word: 100,
      vocab: Object.fromEntries(vocabulary.map((t, i) => [t, i])),
    },
  };
}

/** The text classifier's graph: masked mean of a token embedding table, plus a bias. */
export function textClassifierOnnx({ vocabulary = TEST_VOCABULARY.length, labels = 2, seed = 31, inputs = ['input_ids', 'attention_mask'], fixedLength } = {}) {
  const embedding = seededWeights(vocabulary * labels, seed);
  const bias = seededWeights(labels, seed + 1);
  const seq = fixedLength ?? 'sequence';
  const [ids, mask] = inputs;
  const bytes = encodeOnnxModel({
    name: 'test-sequence-classifier',
    opset: 13,
    inputs: inputs.map((name) => ({ name, shape: ['batch', seq], elemType: ONNX_INT64 })),
    outputs: [{ name: 'logits', shape: ['batch', labels] }],
    initializers: [
      { name: 'embedding', dims: [vocabulary, labels], data: embedding },
      { name: 'bias', dims: [labels], data: bias },
      { name: 'axis2', dims: [1], data: BigInt64Array.from([2n]) },
      { name: 'axis1', dims: [1], data: BigInt64Array.from([1n]) },
    ],
    nodes: [
      { op: 'Gather', inputs: ['embedding', ids], outputs: ['emb'], attributes: { axis: 0 } },
      { op: 'Cast', inputs: [mask], outputs: ['maskf'], attributes: { to: 1 } },
      { op: 'Unsqueeze', inputs: ['maskf', 'axis2'], outputs: ['mask3'] },
      { op: 'Mul', inputs: ['emb', 'mask3'], outputs: ['masked'] },
      { op: 'ReduceSum', inputs: ['masked', 'axis1'], outputs: ['sum'], attributes: { keepdims: 0 } },
      { op: 'ReduceSum', inputs: ['maskf', 'axis1'], outputs: ['count'], attributes: { keepdims: 1 } },
      { op: 'Div', inputs: ['sum', 'count'], outputs: ['mean'] },
      { op: 'Add', inputs: ['mean', 'bias'], outputs: ['logits'] },
    ],
  });
  return { bytes, weights: { embedding, bias, labels } };
}

/** The image classifier's graph: per-channel means of pixel_values, times W, plus a bias. */
export function imageClassifierOnnx({ labels = 2, seed = 77, height = 224, width = 224 } = {}) {
  const w = seededWeights(3 * labels, seed);
  // Strong enough weights that the channel means move the answer.
  for (let i = 0; i < w.length; i++) w[i] *= 4;
  const bias = seededWeights(labels, seed + 1);
  const bytes = encodeOnnxModel({
    name: 'test-image-classifier',
    opset: 13,
    inputs: [{ name: 'pixel_values', shape: ['batch', 3, height, width] }],
    outputs: [{ name: 'logits', shape: ['batch', labels] }],
    initializers: [
      { name: 'w', dims: [3, labels], data: w },
      { name: 'bias', dims: [labels], data: bias },
    ],
    nodes: [
      { op: 'ReduceMean', inputs: ['pixel_values'], outputs: ['means'], attributes: { axes: [2, 3], keepdims: 0 } },
      { op: 'MatMul', inputs: ['means', 'w'], outputs: ['projected'] },
      { op: 'Add', inputs: ['projected', 'bias'], outputs: ['logits'] },
    ],
  });
  return { bytes, weights: { w, bias, labels } };
}

function writeJson(path, value) {
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
}

/** Labels of the test models: index 1 is AI. */
export const TEST_LABELS = ['human', 'ai'];

/**
 * Writes a text model folder (transformers.js layout: onnx/model.onnx) and returns its weights.
 * `declaration` is merged into content-analysis.json; `tokenizer` replaces the WordPiece tokenizer.json.
 */
export function writeTextModel(dir, { declaration = {}, tokenizer, onnx = {}, labels = TEST_LABELS, maxTokens } = {}) {
  mkdirSync(join(dir, 'onnx'), { recursive: true });
  const tok = tokenizer ?? wordPieceTokenizer();
  const vocabulary = Object.keys(tok.model.vocab).length || tok.model.vocab.length;
  const { bytes, weights } = textClassifierOnnx({ vocabulary, labels: labels.length, ...onnx });
  writeFileSync(join(dir, 'onnx/model.onnx'), bytes);
  writeJson(join(dir, 'tokenizer.json'), tok);
  writeJson(join(dir, 'tokenizer_config.json'), { tokenizer_class: 'BertTokenizer', model_max_length: maxTokens ?? 512, pad_token: '[PAD]', do_lower_case: true });
  writeJson(join(dir, 'config.json'), {
    architectures: ['TestSequenceClassification'], model_type: 'test',
    id2label: Object.fromEntries(labels.map((l, i) => [String(i), l])), label2id: Object.fromEntries(labels.map((l, i) => [l, i])),
  });
  writeJson(join(dir, 'content-analysis.json'), { task: 'ai-text', aiLabel: 'ai', ...declaration });
  return weights;
}

/** Writes an image model folder (Optimum layout: model.onnx at the top) and returns its weights. */
export function writeImageModel(dir, { declaration = {}, preprocessor = {}, onnx = {}, labels = TEST_LABELS } = {}) {
  mkdirSync(dir, { recursive: true });
  const { bytes, weights } = imageClassifierOnnx({ labels: labels.length, ...onnx });
  writeFileSync(join(dir, 'model.onnx'), bytes);
  writeJson(join(dir, 'preprocessor_config.json'), {
    image_processor_type: 'ViTImageProcessor', do_resize: true, size: { height: 224, width: 224 }, resample: 2,
    do_rescale: true, rescale_factor: 1 / 255, do_normalize: true, image_mean: [0.5, 0.5, 0.5], image_std: [0.5, 0.5, 0.5],
    ...preprocessor,
  });
  writeJson(join(dir, 'config.json'), {
    architectures: ['TestImageClassification'], model_type: 'test',
    id2label: Object.fromEntries(labels.map((l, i) => [String(i), l])), label2id: Object.fromEntries(labels.map((l, i) => [l, i])),
  });
  writeJson(join(dir, 'content-analysis.json'), { task: 'ai-image', aiLabel: 'ai', ...declaration });
  return weights;
}

// `node scripts/custom-model/testModels.mjs <dir>` writes <dir>/text and <dir>/image, to try the flags by hand:
// content-analysis ai-text fixtures/demo/personal-note.txt --model test=<dir>/text --version custom:test
if (import.meta.filename === process.argv[1]) {
  const dir = process.argv[2];
  if (dir === undefined) {
    console.error('Usage: node scripts/custom-model/testModels.mjs <dir>');
    process.exit(2);
  }
  writeTextModel(join(dir, 'text'));
  writeImageModel(join(dir, 'image'));
  console.log(`wrote ${join(dir, 'text')} (ai-text) and ${join(dir, 'image')} (ai-image)`);
}
