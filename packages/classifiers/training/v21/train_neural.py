"""Trains the neural part of AI-text model 2.1.0 on a GPU machine (runs on CPU too, slowly): a hashed-token convolutional
encoder whose per-token features are averaged over a range and read by a small head. Trains the model on the train
split, and the same model again without each generator family and without each AI domain (the leave-one-out tables),
and scores every corpus row with each.

Input: a folder written by training/v21/pack.py. Output (--out): neural_scores.npy (float32, one row per variant, one
column per corpus row, in rows.jsonl.xz order), neural_report.json (variants, configs, times, calib AUROC) and
neural_<config>.npz (the weights of the model trained on the whole train split; the embedding as float16).
Usage: python3 train_neural.py --data DIR --out DIR [--steps N] [--budget S] [--configs a,b] [--heldout 0|1]
"""
import argparse
import json
import lzma
import math
import os
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

FAMILIES = ['gpt-3.5', 'gpt-4', 'claude', 'gemini-palm', 'llama', 'mistral-qwen-other', 'completion-gpt']
BITS = 16
# Name -> (embedding width, channels, dilations of the convolutions after the first).
CONFIGS = {'a': (64, 128, (2,)), 'b': (64, 192, (2, 4)), 'ams': (64, 128, (2,)), 'amsbal': (64, 128, (2,))}
# Configs whose head reads the range's standard deviation of each feature besides its mean.
STD_POOL = {'ams', 'amsbal'}
# Configs that draw training rows evenly over classes and, within a class, in proportion to 1 / sqrt(the size of the
# row's cell: domain for human text, family and domain for AI text), instead of uniformly.
BALANCED = {'amsbal'}
STD_EPS = 1e-4
CROPS = [32, 64, 128, 256, 512]
CROP_P = [0.15, 0.15, 0.2, 0.25, 0.25]


def unvarint(b):
    """Decodes LEB128 varints of at most 3 bytes (pack.py's encoding)."""
    last = np.flatnonzero((b & 128) == 0)
    starts = np.concatenate([[0], last[:-1] + 1])
    lens = last - starts + 1
    v = (b[starts] & 127).astype(np.int64)
    for k in (1, 2):
        m = lens > k
        v[m] |= (b[starts[m] + k] & 127).astype(np.int64) << (7 * k)
    return v


def load(data):
    rows = [json.loads(line) for line in lzma.open(os.path.join(data, 'rows.jsonl.xz'), 'rt')]
    ids = unvarint(np.frombuffer(lzma.decompress(open(os.path.join(data, 'tokens.varint.xz'), 'rb').read()),
                                 dtype=np.uint8))
    vocab = np.fromfile(os.path.join(data, 'vocab.u32'), dtype=np.uint32).astype(np.int64)
    assert len(ids) == rows[-1]['offset'] + rows[-1]['tokens'], 'token stream and rows disagree'
    return rows, ids, vocab


class Encoder(nn.Module):
    """Embedding rows (low and high 16 bits of the token hash) added, convolutions with SiLU (the later ones
    residual), mean over the range, then a two-layer head. Padding is zero at every layer, as ONNX Conv pads."""

    def __init__(self, dim, channels, dilations, std_pool=False):
        super().__init__()
        self.std_pool = std_pool
        self.emb = nn.Embedding(1 << BITS, dim)
        nn.init.normal_(self.emb.weight, std=0.1)
        self.first = nn.Conv1d(dim, channels, 3, padding=1)
        self.rest = nn.ModuleList(nn.Conv1d(channels, channels, 3, padding=d, dilation=d) for d in dilations)
        self.head1 = nn.Linear(channels * (2 if std_pool else 1), 64)
        self.head2 = nn.Linear(64, 1)

    def features(self, lo, hi, mask, drop=0.0):
        x = self.emb(lo) + self.emb(hi)
        if drop > 0:
            x = x * (torch.rand(x.shape[:2], device=x.device) >= drop).unsqueeze(-1)
        m = mask.unsqueeze(1)
        h = F.silu(self.first(x.mul(mask.unsqueeze(-1)).transpose(1, 2))) * m
        for conv in self.rest:
            h = (F.silu(conv(h)) + h) * m
        return h

    def head(self, pooled):
        return self.head2(F.silu(self.head1(pooled))).squeeze(-1)

    def forward(self, lo, hi, mask, drop=0.0):
        h = self.features(lo, hi, mask, drop)
        n = mask.sum(1, keepdim=True).clamp(min=1)
        pooled = h.sum(2) / n
        if self.std_pool:
            var = (h * h).sum(2) / n - pooled * pooled
            pooled = torch.cat([pooled, torch.sqrt(var.clamp(min=0) + STD_EPS)], 1)
        return self.head(pooled)


def auroc(y, s):
    order = np.argsort(s, kind='mergesort')
    ranks = np.empty(len(s))
    ranks[order] = np.arange(1, len(s) + 1)
    # Ties share their mean rank.
    _, inv, counts = np.unique(s, return_inverse=True, return_counts=True)
    sums = np.bincount(inv, weights=ranks)
    ranks = (sums / counts)[inv]
    pos = y == 1
    n1, n0 = pos.sum(), (~pos).sum()
    return float((ranks[pos].sum() - n1 * (n1 + 1) / 2) / (n1 * n0)) if n1 and n0 else None


class Data:
    def __init__(self, rows, ids, vocab, device):
        self.device = device
        self.offset = torch.tensor([r['offset'] for r in rows], device=device)
        self.length = torch.tensor([r['tokens'] for r in rows], device=device)
        self.label = torch.tensor([r['label'] for r in rows], dtype=torch.float32, device=device)
        h = torch.tensor(vocab[ids], device=device)
        self.lo = (h & 0xffff).long()
        self.hi = (h >> 16).long()

    def batch(self, idx, length, random_start, gen=None):
        n = self.length[idx]
        if random_start:
            room = (n - length).clamp(min=0)
            start = self.offset[idx] + (torch.rand(len(idx), device=self.device, generator=gen) * (room + 1)).long()
        else:
            start = self.offset[idx]
        pos = torch.arange(length, device=self.device)
        mask = pos.unsqueeze(0) < n.unsqueeze(1)
        at = (start.unsqueeze(1) + pos.unsqueeze(0)).clamp(max=len(self.lo) - 1)
        return self.lo[at] * mask, self.hi[at] * mask, mask.float()


def sampling_weights(rows, train_idx):
    cell = [(r['label'], r['domain'], r['family'] if r['label'] == 1 else '') for r in (rows[i] for i in train_idx)]
    sizes = {}
    for c in cell:
        sizes[c] = sizes.get(c, 0) + 1
    w = np.array([1 / math.sqrt(sizes[c]) for c in cell])
    label = np.array([c[0] for c in cell])
    for v in (0, 1):
        w[label == v] /= w[label == v].sum()
    return w


def train(data, train_idx, config, steps, tokens_per_batch, seed, device, rows=None):
    torch.manual_seed(seed)
    gen = torch.Generator(device=device)
    gen.manual_seed(seed)
    rng = np.random.default_rng(seed)
    model = Encoder(*CONFIGS[config], std_pool=config in STD_POOL).to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=2e-3, weight_decay=0.01)
    y = data.label[train_idx]
    pos_weight = (y == 0).sum() / (y == 1).sum().clamp(min=1)
    idx_all = torch.tensor(train_idx, device=device)
    probs = None
    if config in BALANCED:
        probs = torch.tensor(sampling_weights(rows, train_idx), dtype=torch.float32, device=device)
        pos_weight = torch.tensor(1.0, device=device)
    model.train()
    for step in range(steps):
        lr = 2e-3 * min(1.0, (step + 1) / 100) * 0.5 * (1 + math.cos(math.pi * step / steps))
        for g in opt.param_groups:
            g['lr'] = lr
        length = int(rng.choice(CROPS, p=CROP_P))
        b = min(len(train_idx), max(8, tokens_per_batch // length))
        if probs is None:
            pick = idx_all[torch.randint(len(idx_all), (b,), device=device, generator=gen)]
        else:
            pick = idx_all[torch.multinomial(probs, b, replacement=True, generator=gen)]
        lo, hi, mask = data.batch(pick, length, True, gen)
        logit = model(lo, hi, mask, drop=0.1)
        loss = F.binary_cross_entropy_with_logits(logit, data.label[pick], pos_weight=pos_weight)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
    return model


@torch.no_grad()
def score(model, data, max_tokens_per_batch=262144):
    model.eval()
    n = len(data.length)
    lengths = data.length.cpu().numpy()
    order = np.argsort(lengths, kind='mergesort')
    out = np.zeros(n, dtype=np.float32)
    i = 0
    while i < n:
        length = int(lengths[order[min(n - 1, i)]])
        j = i
        # Rows sorted by length: a batch holds as many as fit at the length of its longest.
        while j < n and (j - i + 1) * int(lengths[order[j]]) <= max_tokens_per_batch:
            j += 1
        j = max(j, i + 1)
        idx = torch.tensor(order[i:j], device=data.device)
        length = int(lengths[order[j - 1]])
        lo, hi, mask = data.batch(idx, length, False)
        out[order[i:j]] = model(lo, hi, mask).float().cpu().numpy()
        i = j
    return out


def save_weights(model, path):
    sd = {k: v.detach().cpu().numpy() for k, v in model.state_dict().items()}
    sd['emb.weight'] = sd['emb.weight'].astype(np.float16)
    np.savez(path, **sd)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--data', required=True)
    ap.add_argument('--out', required=True)
    ap.add_argument('--steps', type=int, default=1500)
    ap.add_argument('--tokens', type=int, default=49152)
    ap.add_argument('--budget', type=float, default=480)
    ap.add_argument('--configs', default='a,b')
    ap.add_argument('--heldout', type=int, default=1)
    ap.add_argument('--heldout-configs', default='', help='configs trained for every left-out variant (default: the chosen one)')
    ap.add_argument('--limit', type=int, default=0, help='use about N rows, evenly spread (smoke tests)')
    args = ap.parse_args()
    t0 = time.time()
    device = 'cuda' if torch.cuda.is_available() else 'cpu'
    if device == 'cuda':
        torch.backends.cuda.matmul.allow_tf32 = True
        torch.backends.cudnn.allow_tf32 = True
    rows, ids, vocab = load(args.data)
    if args.limit:
        rows = rows[::max(1, len(rows) // args.limit)]
    data = Data(rows, ids, vocab, device)
    split = np.array([r['split'] for r in rows])
    label = np.array([r['label'] for r in rows])
    train_idx = np.flatnonzero(split == 'train')
    calib = split == 'calib'
    os.makedirs(args.out, exist_ok=True)
    report = {'device': torch.cuda.get_device_name(0) if device == 'cuda' else 'cpu', 'torch': torch.__version__,
              'rows': len(rows), 'tokens': int(len(ids)), 'steps': args.steps, 'tokens_per_batch': args.tokens,
              'configs': {k: CONFIGS[k] for k in args.configs.split(',')}, 'variants': []}
    scores = []

    def record(name, config, model, keep, seconds):
        s = score(model, data)
        scores.append(s)
        m = calib
        entry = {'name': name, 'config': config, 'train_rows': int(len(keep)), 'seconds': round(seconds, 1),
                 'calib_auroc': auroc(label[m], s[m])}
        report['variants'].append(entry)
        np.save(os.path.join(args.out, 'neural_scores.npy'), np.stack(scores))
        with open(os.path.join(args.out, 'neural_report.json'), 'w') as f:
            json.dump(report, f, indent=1)
        print(f'{time.time() - t0:6.0f}s {name} [{config}] calib auroc {entry["calib_auroc"]} '
              f'(train {seconds:.0f}s)', flush=True)

    best = None
    for config in args.configs.split(','):
        t = time.time()
        model = train(data, train_idx, config, args.steps, args.tokens, 0, device, rows)
        record(f'full:{config}', config, model, train_idx, time.time() - t)
        save_weights(model, os.path.join(args.out, f'neural_{config}.npz'))
        auc = report['variants'][-1]['calib_auroc']
        # A larger model must earn its cost: it is chosen only for a clear gain on calib.
        if best is None or auc > best[1] + 0.005:
            best = (config, auc)
    report['chosen'] = best[0]
    if args.heldout:
        domains = sorted({r['domain'] for r in rows if r['label'] == 1 and r['split'] == 'test'})
        variants = [('family', f) for f in FAMILIES] + [('domain', d) for d in domains]
        for key, value in variants:
            if time.time() - t0 > args.budget:
                print(f'budget spent: {key} {value} and later variants not trained', flush=True)
                break
            keep = train_idx[[rows[i][key] != value for i in train_idx]]
            if len(keep) == len(train_idx):
                continue  # never in training: the full model's scores hold for it
            for config in (args.heldout_configs.split(',') if args.heldout_configs else [best[0]]):
                t = time.time()
                model = train(data, keep, config, args.steps, args.tokens, 0, device, rows)
                suffix = '' if not args.heldout_configs else f'@{config}'
                record(f'{key}:{value}{suffix}', config, model, keep, time.time() - t)
    print(f'done in {time.time() - t0:.0f}s', flush=True)


if __name__ == '__main__':
    main()
