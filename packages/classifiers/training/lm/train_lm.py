"""Trains two small character-level GRU language models (an 'observer' and a 'performer', same architecture at two
sizes) on the canonical text of the 'resource' split (out/lm-corpus.txt, written by dump-lm-corpus.mjs), and exports
both in ONE ONNX graph that returns, per position, the statistics the detector's features need (Fast-DetectGPT's
analytic criterion, Binoculars' cross-perplexity), so that the runtime reads 9 floats per character, not logits.

Run: nice /usr/bin/python3 packages/classifiers/training/lm/train_lm.py [seconds_observer] [seconds_performer]
(Debian's python with torch 1.13; CPU only; default 200 s + 440 s of training (the shipped 1.1.0), fixed seeds.)

Vocabulary: the canonical text is lower case ASCII for almost all characters; ids are 0 = document start, 1 = any
other character, 2.. = printable ASCII 32..126 except A-Z (which canonical text never holds). The TypeScript side
(src/aiText/charLm.ts) maps characters the same way (the card's lm.alphabet).

Graph input 'ids' int64 [B, T]; output 'stats' float32 [B, T-1, 9]; row t describes predicting ids[:, t+1] from
ids[:, :t+1], with p1 = observer, p2 = performer next-character distributions:
  0 log p1(x)      1 sum p1 log p1      2 sum p1 (log p1)^2
  3 log p2(x)      4 sum p2 log p2      5 sum p2 (log p2)^2
  6 sum p2 log p1  7 sum p2 (log p1)^2  8 sum p1 log p2
"""
import json
import math
import os
import sys
import time

import numpy as np
import torch
from torch import nn

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, '..', 'out')
VERSION = os.environ.get('AI_TEXT_VERSION', '1.1.0')
# Version 1.1.0 lives in @content-analysis/models-extra (training/paths.mjs modelDir).
MODEL_DIR = os.path.join(HERE, '..', '..', '..', 'models-extra', 'models', 'ai-text', VERSION)
ALPHABET = ''.join(chr(c) for c in range(32, 127) if not ('A' <= chr(c) <= 'Z'))
VOCAB = 2 + len(ALPHABET)
SEQ = 256
BATCH = 48
# Run-time settings of the detector's use of the graph (src/aiText/charLm.ts, CharLmCard): chunks of 256 scored
# characters, each after the first reading 32 characters before it; at most 32 chunks (8,192 characters) per text,
# spread evenly over longer texts; a range with under 64 scored characters uses the whole text's statistics.
RUNTIME = {'chunk_chars': 256, 'context_chars': 32, 'max_chunks': 32, 'min_range_chars': 64}
SIZES = {'observer': (24, 128), 'performer': (32, 224)}  # (embedding, hidden)


def encode(text):
    table = {ch: i + 2 for i, ch in enumerate(ALPHABET)}
    return np.array([0] + [table.get(ch, 1) for ch in text], dtype=np.int64)


class CharGru(nn.Module):
    def __init__(self, emb, hidden):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, emb)
        self.gru = nn.GRU(emb, hidden, batch_first=True)
        self.out = nn.Linear(hidden, VOCAB)

    def forward(self, ids):
        h, _ = self.gru(self.emb(ids))
        return self.out(h)


class Stats(nn.Module):
    def __init__(self, observer, performer):
        super().__init__()
        self.observer = observer
        self.performer = performer

    def forward(self, ids):
        lp1 = torch.log_softmax(self.observer(ids)[:, :-1], dim=-1)
        lp2 = torch.log_softmax(self.performer(ids)[:, :-1], dim=-1)
        p1 = torch.exp(lp1)
        p2 = torch.exp(lp2)
        target = ids[:, 1:].unsqueeze(-1)
        cols = [
            torch.gather(lp1, 2, target).squeeze(-1), (p1 * lp1).sum(-1), (p1 * lp1 * lp1).sum(-1),
            torch.gather(lp2, 2, target).squeeze(-1), (p2 * lp2).sum(-1), (p2 * lp2 * lp2).sum(-1),
            (p2 * lp1).sum(-1), (p2 * lp1 * lp1).sum(-1), (p1 * lp2).sum(-1),
        ]
        return torch.stack(cols, dim=-1)


def batches(data, rng):
    starts = rng.integers(0, len(data) - SEQ - 1, size=BATCH)
    x = np.stack([data[s:s + SEQ + 1] for s in starts])
    return torch.from_numpy(x)


def evaluate(model, data):
    model.eval()
    total, count = 0.0, 0
    with torch.no_grad():
        for s in range(0, len(data) - SEQ - 1, SEQ * 8):
            x = torch.from_numpy(np.stack([data[s + k * SEQ:s + k * SEQ + SEQ + 1]
                                           for k in range(8) if s + k * SEQ + SEQ + 1 <= len(data)]))
            logits = model(x[:, :-1])
            total += nn.functional.cross_entropy(logits.reshape(-1, VOCAB), x[:, 1:].reshape(-1), reduction='sum').item()
            count += x[:, 1:].numel()
    model.train()
    return total / count / math.log(2)  # bits per character


def train(name, seconds, train_data, val_data, seed):
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    emb, hidden = SIZES[name]
    model = CharGru(emb, hidden)
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    started = time.time()
    step = 0
    while time.time() - started < seconds:
        # Cosine decay over the time budget.
        frac = min(1.0, (time.time() - started) / seconds)
        for g in opt.param_groups:
            g['lr'] = 3e-4 + 0.5 * (3e-3 - 3e-4) * (1 + math.cos(math.pi * frac))
        x = batches(train_data, rng)
        logits = model(x[:, :-1])
        loss = nn.functional.cross_entropy(logits.reshape(-1, VOCAB), x[:, 1:].reshape(-1))
        opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        step += 1
        if step % 100 == 0:
            print(f'{name} step {step} {time.time() - started:.0f}s loss {loss.item() / math.log(2):.3f} bits/char', flush=True)
    bpc = evaluate(model, val_data)
    chars = step * BATCH * SEQ
    print(f'{name}: {step} steps, {chars / len(train_data):.2f} epochs, validation {bpc:.3f} bits/char', flush=True)
    return model, {'embedding': emb, 'hidden': hidden, 'steps': step, 'batch': BATCH, 'sequence': SEQ,
                   'epochs': round(chars / len(train_data), 2), 'seconds': seconds,
                   'validation_bits_per_char': round(bpc, 4)}


def write_lm_card():
    """models/ai-text/<version>/lm.json: what the runtime needs to run lm.onnx (train.py copies it into card.json)."""
    card = {'file': 'lm.onnx', 'input': 'ids', 'output': 'stats', 'alphabet': ALPHABET, **RUNTIME}
    json.dump(card, open(os.path.join(MODEL_DIR, 'lm.json'), 'w'), indent=2)


def main():
    torch.set_num_threads(1)  # one thread: the per-step matrices are small, and the machine is shared
    seconds = [float(a) for a in sys.argv[1:3]] or [200.0, 440.0]
    if len(seconds) == 1:
        seconds.append(2 * seconds[0])
    docs = [l for l in open(os.path.join(OUT, 'lm-corpus.txt'), encoding='utf8').read().split('\n') if l]
    n_val = max(1, len(docs) // 30)  # last ~3% of documents (sha1 order): validation of the LM only
    train_data = np.concatenate([encode(d) for d in docs[:-n_val]])
    val_data = np.concatenate([encode(d) for d in docs[-n_val:]])
    print(f'{len(docs) - n_val} training documents ({len(train_data)} ids), {n_val} validation documents')
    observer, obs_info = train('observer', seconds[0], train_data, val_data, 1)
    performer, perf_info = train('performer', seconds[1], train_data, val_data, 2)
    stats = Stats(observer, performer).eval()
    os.makedirs(MODEL_DIR, exist_ok=True)
    path = os.path.join(MODEL_DIR, 'lm.onnx')
    example = torch.from_numpy(encode('the cat sat on the mat.')).unsqueeze(0)
    torch.onnx.export(stats, (example,), path, input_names=['ids'], output_names=['stats'], opset_version=14,
                      dynamic_axes={'ids': {0: 'batch', 1: 'time'}, 'stats': {0: 'batch', 1: 'time'}})
    info = {'alphabet': ALPHABET, 'vocab': VOCAB, 'file': 'lm.onnx', 'input': 'ids', 'output': 'stats',
            'training_documents': len(docs) - n_val, 'training_characters': int(len(train_data)),
            'validation_documents': n_val, 'observer': obs_info, 'performer': perf_info,
            'parameters': sum(p.numel() for p in stats.parameters())}
    json.dump(info, open(os.path.join(OUT, 'lm-info.json'), 'w'), indent=2)
    write_lm_card()
    print(f'wrote {path} ({os.path.getsize(path)} bytes), {info["parameters"]} parameters')


if __name__ == '__main__':
    main()
