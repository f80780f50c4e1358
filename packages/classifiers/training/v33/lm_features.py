"""Step 3 of the v33 experiment: language-model features of every sample row (out/v33/sample.jsonl) under the v33
character GRUs (train_lm.py), written to out/v33/lm-features.npy (rows in sample order) and lm-features.json (names).

The text is cut into chunks exactly as src/aiText/charLm.ts `trace` does with the card of train_lm.py (chunks of 256
scored characters, each after the first reading 32 before it, at most `max_chunks` spread over the text), and the
first nine features are `rangeFeatures` of the whole text (LM_FEATURE_NAMES: the runtime computes them from lm.onnx).
The others are computed here only (the runtime graph does not return ranks or per-character quantiles):
  - GLTR-style rank features (Gehrmann et al. 2019) of the actual next character under each model: the share that
    is the model's top-1 and within its top-3 choices, and the mean log2 rank (Log-Rank of Su et al. 2023, DetectLLM);
  - the spread of the performer's per-character log-probability: standard deviation and the 10/50/90% quantiles;
  - log-likelihood ratio to log-rank (LRR of Su et al. 2023) under the performer.
Run: OMP_NUM_THREADS=1 nice -n 10 /usr/bin/python3 packages/classifiers/training/v33/lm_features.py
"""
import json
import math
import os
import sys
import time

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from train_lm import LM_DIR, OUT, base_module  # noqa: E402

RUNTIME_NAMES = ['gru_obs_logp', 'gru_obs_entropy', 'gru_obs_fdg', 'gru_perf_logp', 'gru_perf_entropy', 'gru_perf_fdg',
                 'gru_cross_fdg', 'binoculars', 'binoculars_rev']
EXTRA_NAMES = ['obs_top1', 'obs_top3', 'obs_logrank', 'perf_top1', 'perf_top3', 'perf_logrank',
               'perf_logp_sd', 'perf_logp_q10', 'perf_logp_q50', 'perf_logp_q90', 'perf_lrr']
BATCH_ROWS = 96
# Test rows are scored only for the domains stack.py leaves out (3.1.0's held-out table); the others get NaN.
EVAL_DOMAINS = {'arxiv', 'coursework', 'creative', 'l2r', 'medicine-qa', 'mixed', 'news', 'open-qa', 'squad',
                'student-essay', 'web', 'wiki-csai', 'writing-prompts', 'yelp'}


def chunk_rows(ids, card):
    """(input ids of each chunk row, first scored output position, scored count) as charLm.ts `trace` builds them."""
    chunk, context, max_chunks = card['chunk_chars'], card['context_chars'], card['max_chunks']
    n = len(ids) - 1  # ids[0] is the document-start id
    total = max(1, math.ceil(n / chunk))
    picked = list(range(total)) if total <= max_chunks else [int((j + 0.5) * total / max_chunks) for j in range(max_chunks)]
    steps = min(chunk + context + 1, n + 1)
    out = []
    for k in picked:
        start = k * chunk
        first = -1 if k == 0 else start - context - 1
        row = np.ones(steps, dtype=np.int64)
        seg = ids[first + 1:first + 1 + steps]  # ids is shifted by one: ids[c + 1] is character c, ids[0] the start
        row[:len(seg)] = seg
        end = min(n, start + chunk)
        # output t predicts character c = first + t + 1
        out.append((row, start - first - 1, end - start))
    return out


def per_char(models, batch):
    """Per scored position: the 9 runtime statistics' inputs and the ranks, for a batch of equal-length rows."""
    observer, performer = models
    x = torch.from_numpy(np.stack(batch))
    with torch.no_grad():
        lp1 = torch.log_softmax(observer(x)[:, :-1], dim=-1)
        lp2 = torch.log_softmax(performer(x)[:, :-1], dim=-1)
        target = x[:, 1:].unsqueeze(-1)
        p1, p2 = lp1.exp(), lp2.exp()
        a1 = torch.gather(lp1, 2, target)
        a2 = torch.gather(lp2, 2, target)
        rank1 = (lp1 > a1).sum(-1) + 1
        rank2 = (lp2 > a2).sum(-1) + 1
        cols = [a1.squeeze(-1), (p1 * lp1).sum(-1), (p1 * lp1 * lp1).sum(-1),
                a2.squeeze(-1), (p2 * lp2).sum(-1), (p2 * lp2 * lp2).sum(-1),
                (p2 * lp1).sum(-1), (p2 * lp1 * lp1).sum(-1), (p1 * lp2).sum(-1),
                rank1.float(), rank2.float()]
    return torch.stack(cols, dim=-1).numpy().astype(np.float64)


def features(stats):
    """The features of one document from its scored positions' statistics (rows: positions, 11 columns)."""
    n = max(1, len(stats))
    s = stats.sum(0)
    lp1, m1, q1, lp2, m2, q2, x21, q21, x12 = (stats[:, j] for j in range(9))
    v1 = np.maximum(0, q1 - m1 * m1).sum()
    v2 = np.maximum(0, q2 - m2 * m2).sum()
    v21 = np.maximum(0, q21 - x21 * x21).sum()
    fdg = lambda lp, mean, var: (lp.sum() - mean.sum()) / math.sqrt(max(1e-9, var) * n)  # noqa: E731
    runtime = [s[0] / n, -s[1] / n, fdg(lp1, m1, v1), s[3] / n, -s[4] / n, fdg(lp2, m2, v2), fdg(lp1, x21, v21),
               s[3] / min(-1e-9, s[8]), s[0] / min(-1e-9, s[6])]
    r1, r2 = stats[:, 9], stats[:, 10]
    logrank2 = np.log2(r2).mean()
    extra = [np.mean(r1 == 1), np.mean(r1 <= 3), np.log2(r1).mean(), np.mean(r2 == 1), np.mean(r2 <= 3), logrank2,
             lp2.std(), *np.quantile(lp2, [0.1, 0.5, 0.9]), -lp2.mean() / max(1e-9, logrank2)]
    return runtime + extra


def main():
    torch.set_num_threads(int(os.environ.get('OMP_NUM_THREADS', '1')))
    lm = base_module()
    card = json.load(open(os.path.join(LM_DIR, 'lm.json')))
    models = []
    for name in ('observer', 'performer'):
        emb, hidden = lm.SIZES[name]
        m = lm.CharGru(emb, hidden)
        m.load_state_dict(torch.load(os.path.join(LM_DIR, f'{name}.pt')))
        models.append(m.eval())
    rows = [json.loads(l) for l in open(os.path.join(OUT, 'sample.jsonl'))]
    # Every chunk row of every document, grouped by length so that a batch needs no padding.
    pending = {}
    for i, r in enumerate(rows):
        if r['split'] == 'test' and r['domain'] not in EVAL_DOMAINS:
            continue
        for row, at, count in chunk_rows(lm.encode(r['canonical']), card):
            pending.setdefault(len(row), []).append((i, row, at, count))
    per_doc = [[] for _ in rows]
    started = time.time()
    done = 0
    total = sum(len(v) for v in pending.values())
    for length in sorted(pending):
        items = pending[length]
        for b in range(0, len(items), BATCH_ROWS):
            part = items[b:b + BATCH_ROWS]
            stats = per_char(models, [row for _, row, _, _ in part])
            for k, (i, _, at, count) in enumerate(part):
                per_doc[i].append(stats[k, at:at + count])
            done += len(part)
            if done % (BATCH_ROWS * 20) < len(part):
                print(f'{done}/{total} chunk rows, {time.time() - started:.0f}s', flush=True)
    nan = [float('nan')] * (len(RUNTIME_NAMES) + len(EXTRA_NAMES))
    X = np.array([features(np.concatenate(p)) if p else nan for p in per_doc], dtype=np.float32)
    np.save(os.path.join(OUT, 'lm-features.npy'), X)
    json.dump({'names': RUNTIME_NAMES + EXTRA_NAMES, 'runtime': RUNTIME_NAMES, 'card': card},
              open(os.path.join(OUT, 'lm-features.json'), 'w'), indent=1)
    print(f'{len(rows)} documents, {total} chunk rows in {time.time() - started:.0f}s', flush=True)


if __name__ == '__main__':
    main()
