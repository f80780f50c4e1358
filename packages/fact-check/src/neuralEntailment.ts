import type * as ort from 'onnxruntime-common';
import { onnxRuntime } from '@content-analysis/onnx';
import { ENTAILMENT_FEATURE_COUNT } from './entailmentFeatures.js';
import { encodeTokens, MAX_CLAIM_TOKENS, MAX_EVIDENCE_TOKENS, TOKEN_INPUT_WIDTH } from './entailmentTokens.js';
import { ModelLoadError } from './errors.js';
import { modelPath } from './onnxModel.js';
import type { WordVectors } from './wordVectors.js';

/** One claim / evidence pair as the neural entailment model reads it. */
export interface NeuralEntailmentPair {
  /** `entailmentTokens` of the claim. */
  claimTokens: readonly string[];
  /** `entailmentTokens` of the evidence passage. */
  evidenceTokens: readonly string[];
  /** `entailmentFeatures` of the pair's alignment (the 1.x model's input). */
  features: Float32Array;
}

/** Entailment 2.0: decomposable attention over GloVe vectors plus the alignment features (`models/entailment-neural.md`). */
export interface NeuralEntailmentModel {
  /** [p(entailment), p(neutral), p(contradiction)] per pair. */
  run(pairs: readonly NeuralEntailmentPair[], vectors: WordVectors): Promise<Float32Array[]>;
  /** The raw session, for tests that feed the model card's fixed tensors. */
  readonly session: OnnxSessionRunner;
}

/**
 * What is exposed of the onnxruntime session, declared here because onnxruntime-common's own declarations need the
 * DOM library, which a Node project's strict build does not have.
 */
export interface OnnxSessionRunner {
  run(feeds: Record<string, unknown>): Promise<Record<string, { readonly data: unknown; readonly dims: readonly number[] }>>;
}

let loading: Promise<NeuralEntailmentModel> | undefined;

/** Loads `models/entailment-neural.onnx` once per process (`@content-analysis/onnx`'s runtime, CPU, one thread). */
export function loadNeuralEntailment(): Promise<NeuralEntailmentModel> {
  if (!loading) {
    loading = create();
    loading.catch(() => {
      loading = undefined;
    });
  }
  return loading;
}

async function create(): Promise<NeuralEntailmentModel> {
  let session: ort.InferenceSession;
  try {
    session = await onnxRuntime().InferenceSession.create(modelPath('entailment-neural'), { intraOpNumThreads: 1, interOpNumThreads: 1 });
  } catch (error) {
    throw new ModelLoadError('entailment-neural', error);
  }
  return {
    session,
    async run(pairs, vectors) {
      if (pairs.length === 0) return [];
      const batch = pairs.length;
      // Padded to the longest text of the batch (the model masks the padding), cut as in training.
      const evidenceLength = Math.max(1, Math.min(MAX_EVIDENCE_TOKENS, Math.max(...pairs.map((p) => p.evidenceTokens.length))));
      const claimLength = Math.max(1, Math.min(MAX_CLAIM_TOKENS, Math.max(...pairs.map((p) => p.claimTokens.length))));
      const evidence = new Float32Array(batch * evidenceLength * TOKEN_INPUT_WIDTH);
      const evidenceMask = new Float32Array(batch * evidenceLength);
      const claim = new Float32Array(batch * claimLength * TOKEN_INPUT_WIDTH);
      const claimMask = new Float32Array(batch * claimLength);
      const features = new Float32Array(batch * ENTAILMENT_FEATURE_COUNT);
      pairs.forEach((pair, i) => {
        const e = encodeTokens(pair.evidenceTokens, pair.claimTokens, vectors, evidenceLength);
        const c = encodeTokens(pair.claimTokens, pair.evidenceTokens, vectors, claimLength);
        evidence.set(e.values, i * evidenceLength * TOKEN_INPUT_WIDTH);
        evidenceMask.set(e.mask, i * evidenceLength);
        claim.set(c.values, i * claimLength * TOKEN_INPUT_WIDTH);
        claimMask.set(c.mask, i * claimLength);
        features.set(pair.features, i * ENTAILMENT_FEATURE_COUNT);
      });
      const output = await session.run({
        evidence: new (onnxRuntime().Tensor)('float32', evidence, [batch, evidenceLength, TOKEN_INPUT_WIDTH]),
        evidence_mask: new (onnxRuntime().Tensor)('float32', evidenceMask, [batch, evidenceLength]),
        claim: new (onnxRuntime().Tensor)('float32', claim, [batch, claimLength, TOKEN_INPUT_WIDTH]),
        claim_mask: new (onnxRuntime().Tensor)('float32', claimMask, [batch, claimLength]),
        features: new (onnxRuntime().Tensor)('float32', features, [batch, ENTAILMENT_FEATURE_COUNT]),
      });
      const probabilities = output.probabilities;
      if (!probabilities) throw new ModelLoadError('entailment-neural', new Error('no "probabilities" output'));
      const data = probabilities.data as Float32Array;
      return pairs.map((_, i) => data.slice(i * 3, (i + 1) * 3));
    },
  };
}
