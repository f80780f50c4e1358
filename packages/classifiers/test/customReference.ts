import { TEST_VOCABULARY } from '../../../scripts/custom-model/testModels.mjs';
import type { TextWeights } from '../../../scripts/custom-model/testModels.mjs';

// The computation of the text test model (scripts/custom-model/testModels.mjs) written out independently of the
// runtime: its WordPiece tokenisation, the graph's masked mean plus bias, and the softmax. The CLI and server tests
// check plugged models against it too.

const VOCAB = new Map(TEST_VOCABULARY.map((t, i) => [t, i]));
const [UNK, CLS, SEP] = [VOCAB.get('[UNK]')!, VOCAB.get('[CLS]')!, VOCAB.get('[SEP]')!];

/** BERT's lower-casing, split at white space and punctuation, then WordPiece's longest match first. */
export function referenceTokens(text: string): number[] {
  const ids: number[] = [];
  for (const word of text.toLowerCase().match(/[a-z0-9]+|[^\sa-z0-9]/g) ?? []) {
    const pieces: number[] = [];
    let start = 0;
    while (start < word.length) {
      let end = word.length;
      let found: number | undefined;
      while (end > start) {
        found = VOCAB.get(`${start > 0 ? '##' : ''}${word.slice(start, end)}`);
        if (found !== undefined) break;
        end--;
      }
      if (found === undefined) break;
      pieces.push(found);
      start = end;
    }
    ids.push(...(start < word.length ? [UNK] : pieces));
  }
  return ids;
}

/** logit(ai) - logit(human) of [CLS] ids [SEP] (cut to `max` tokens as the runtime cuts): mean embedding + bias. */
export function referenceLogOdds(weights: TextWeights, ids: number[], max = Infinity): number {
  const body = ids.slice(0, Math.min(ids.length, max - 2));
  const all = [CLS, ...body, SEP];
  const mean = [0, 1].map((j) => all.reduce((s, id) => s + weights.embedding[id * 2 + j]!, 0) / all.length + weights.bias[j]!);
  return mean[1]! - mean[0]!;
}

/** 100 x (1 - P(ai)) of a log-odds. */
export const humanScore = (logOdds: number) => 100 / (1 + Math.exp(logOdds));
