"""Neural entailment model 2.0.0: decomposable attention (Parikh et al., EMNLP 2016) over fixed GloVe 6B 100d
vectors, with ESIM's comparison features (Chen et al., ACL 2017: [a; b; a*b; a-b]) and the 37 alignment features of
entailment 1.x beside the aggregated vector. Claim = hypothesis, evidence passage = premise.
FACT_CHECK_ARCH=esim trains ESIM with its BiLSTM encoders instead (Chen et al., ACL 2017): a BiLSTM over the token
inputs, soft alignment, [a; b; a*b; a-b] enhancement projected to the hidden size, a composition BiLSTM, mean + max
pooling, the same 37 features beside it, MLP -> 3. Same ONNX inputs and output, so src/neuralEntailment.ts runs either.

Reads training/.data/nli/ (built by buildEntailmentSet.mjs: train / dev / test, fixed before training); trains on
train, keeps the epoch with the best dev accuracy, reports the test splits (never trained on), exports
models/entailment-neural.onnx (opset 13) and its card with outputs recorded for fixed inputs.

Run: /usr/bin/python3 packages/fact-check/training/train_neural_entailment.py  (Debian torch 1.13, one thread)
Env: FACT_CHECK_ARCH (decomposable, the default, or esim), FACT_CHECK_EPOCHS (default 4), FACT_CHECK_HIDDEN (default
160; for esim the size of each LSTM direction), FACT_CHECK_LR_DECAY (per epoch, default 0.75), FACT_CHECK_LR (default
1e-3), FACT_CHECK_BATCH (default 64), FACT_CHECK_DROPOUT (default 0.2 decomposable, 0.3 esim), FACT_CHECK_BUDGET
(seconds after which no new epoch starts, nor one that the last epoch's duration says would end after it),
FACT_CHECK_OUT (where best.pt and best.json go, default the data folder; elsewhere
metrics.json too), FACT_CHECK_EXPORT=0 (train only: on a GPU machine, whose exporter differs; export here afterwards
with FACT_CHECK_EPOCHS=0, which reads best.pt and best.json). Uses CUDA when torch sees a GPU.
"""
import json
import os
import sys
import time

import numpy as np
import torch
from torch import nn

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import MODELS, today  # noqa: E402

VERSION = '2.0.0'
DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), '.data', 'nli')
MAX_EVIDENCE, MAX_CLAIM, WIDTH, FEATURES = 80, 40, 102, 37
ARCH = os.environ.get('FACT_CHECK_ARCH', 'decomposable')
assert ARCH in ('decomposable', 'esim'), f'FACT_CHECK_ARCH must be decomposable or esim, not {ARCH}'
EPOCHS = int(os.environ.get('FACT_CHECK_EPOCHS', '4'))
LR = float(os.environ.get('FACT_CHECK_LR', '1e-3'))
BATCH = int(os.environ.get('FACT_CHECK_BATCH', '64'))
DROPOUT = float(os.environ.get('FACT_CHECK_DROPOUT', '0.3' if ARCH == 'esim' else '0.2'))
HIDDEN = int(os.environ.get('FACT_CHECK_HIDDEN', '160'))
LR_DECAY = float(os.environ.get('FACT_CHECK_LR_DECAY', '0.75'))
BUDGET = float(os.environ.get('FACT_CHECK_BUDGET', 'inf'))
OUT = os.environ.get('FACT_CHECK_OUT', DATA)
DEVICE = 'cuda' if torch.cuda.is_available() else 'cpu'
# Per-row weights by source: FEVER claims and SNLI are the targets; the self pairs only keep a restatement entailed.
WEIGHTS = {'fever': 2.0, 'fever_nei': 1.0, 'fever_self': 0.2, 'snli': 1.5, 'breaking_nli': 0.5}

if DEVICE == 'cpu':
    torch.set_num_threads(1)
torch.manual_seed(7)
rng = np.random.RandomState(7)

if not os.path.exists(os.path.join(DATA, 'manifest.json')):
    print('training/.data/nli not found: run node packages/fact-check/training/buildEntailmentSet.mjs first (skipping)')
    sys.exit(0)

vocabulary = json.load(open(os.path.join(DATA, 'vocabulary.json')))
index = {w: i + 1 for i, w in enumerate(vocabulary)}  # 0: no vector
vectors = np.zeros((len(vocabulary) + 1, 100), dtype=np.float32)
vectors[1:] = np.fromfile(os.path.join(DATA, 'vectors.f32'), dtype=np.float32).reshape(-1, 100)
VECTORS = torch.tensor(vectors, device=DEVICE)


def encode(tokens, other, limit):
    """ids, exact-match and unknown flags as encodeTokens (src/entailmentTokens.ts) makes them."""
    tokens = tokens[:limit]
    other = set(other)
    ids = [index.get(t, 0) for t in tokens]
    return ids, [1.0 if t in other else 0.0 for t in tokens], [0.0 if i else 1.0 for i in ids]


def load(split):
    rows = []
    with open(os.path.join(DATA, split + '.jsonl')) as f:
        for line in f:
            r = json.loads(line)
            r['p'] = encode(r['premise'], r['hypothesis'], MAX_EVIDENCE)
            r['h'] = encode(r['hypothesis'], r['premise'], MAX_CLAIM)
            rows.append(r)
    return rows


def side_ids(encoded, length):
    """Token ids, flags and mask of one side of a batch (the vectors are looked up when the batch is used)."""
    batch = len(encoded)
    ids = torch.zeros(batch, length, dtype=torch.long)
    flags = torch.zeros(batch, length, 2)
    mask = torch.zeros(batch, length)
    for b, (i, exact, unknown) in enumerate(encoded):
        n = len(i)
        if n == 0:
            mask[b, 0] = 1
            continue
        ids[b, :n] = torch.tensor(i)
        flags[b, :n, 0] = torch.tensor(exact)
        flags[b, :n, 1] = torch.tensor(unknown)
        mask[b, :n] = 1
    return ids, flags, mask


def prepare(rows):
    """A batch kept as ids (small); `inputs` turns it into the model's tensors."""
    p = side_ids([r['p'] for r in rows], max(1, max(len(r['p'][0]) for r in rows)))
    h = side_ids([r['h'] for r in rows], max(1, max(len(r['h'][0]) for r in rows)))
    f = torch.tensor([r['features'] for r in rows], dtype=torch.float32)
    y = torch.tensor([r['label'] for r in rows])
    w = torch.tensor([WEIGHTS.get(r['source'], 1.0) for r in rows])
    return p, h, f, y, w


def inputs(prepared):
    (pi, pf, pm), (hi, hf, hm), f, y, w = prepared
    pi, pf, pm, hi, hf, hm, f, y, w = (t.to(DEVICE) for t in (pi, pf, pm, hi, hf, hm, f, y, w))
    return (torch.cat([VECTORS[pi], pf], -1), pm, torch.cat([VECTORS[hi], hf], -1), hm, f), y, w


def batch_of(rows):
    return inputs(prepare(rows))


def mlp(inputs, outputs, dropout):
    return nn.Sequential(nn.Dropout(dropout), nn.Linear(inputs, outputs), nn.ReLU(),
                         nn.Dropout(dropout), nn.Linear(outputs, outputs), nn.ReLU())


class DecomposableAttention(nn.Module):
    def __init__(self, hidden, mean, std, dropout=0.2):
        super().__init__()
        self.register_buffer('mean', torch.tensor(mean))
        self.register_buffer('std', torch.tensor(std))
        self.project = nn.Linear(WIDTH, hidden)
        self.attend = mlp(hidden, hidden, dropout)
        self.compare = mlp(4 * hidden, hidden, dropout)
        self.features = nn.Sequential(nn.Linear(FEATURES, 64), nn.ReLU())
        self.aggregate = nn.Sequential(mlp(4 * hidden + 64, hidden, dropout), nn.Linear(hidden, 3))

    def forward(self, premise, premise_mask, claim, claim_mask, features):
        a, b = self.project(premise), self.project(claim)
        scores = torch.matmul(self.attend(a), self.attend(b).transpose(1, 2))  # [B, Lp, Lc]
        pair_mask = premise_mask.unsqueeze(2) * claim_mask.unsqueeze(1)
        scores = scores.masked_fill(pair_mask == 0, -1e4)
        beta = torch.matmul(torch.softmax(scores, 2), b)  # claim aligned to each premise token
        alpha = torch.matmul(torch.softmax(scores, 1).transpose(1, 2), a)  # premise aligned to each claim token
        va = self.compare(torch.cat([a, beta, a * beta, a - beta], -1)) * premise_mask.unsqueeze(2)
        vb = self.compare(torch.cat([b, alpha, b * alpha, b - alpha], -1)) * claim_mask.unsqueeze(2)
        pooled = [va.sum(1) / premise_mask.sum(1, keepdim=True), (va - 1e4 * (1 - premise_mask.unsqueeze(2))).max(1)[0],
                  vb.sum(1) / claim_mask.sum(1, keepdim=True), (vb - 1e4 * (1 - claim_mask.unsqueeze(2))).max(1)[0]]
        f = self.features((features - self.mean) / self.std)
        return self.aggregate(torch.cat(pooled + [f], -1))


def reversal(mask):
    """Per row, the positions that reverse its real tokens in place (the padding after them stays where it is)."""
    lengths = mask.sum(1, keepdim=True)
    positions = torch.cumsum(torch.ones_like(mask), 1) - 1
    return torch.where(positions < lengths, lengths - 1 - positions, positions).long()


def reorder(x, index):
    return torch.gather(x, 1, index.unsqueeze(2).expand(-1, -1, x.size(2)))


class BiLSTM(nn.Module):
    """Two one-way LSTMs; the backward one reads each row's real tokens reversed (padding comes last in both
    directions), so padded batches give the same outputs as rows run alone, in torch and in the ONNX export."""

    def __init__(self, inputs, hidden):
        super().__init__()
        self.ahead = nn.LSTM(inputs, hidden, batch_first=True)
        self.back = nn.LSTM(inputs, hidden, batch_first=True)

    def forward(self, x, index, mask):
        ahead = self.ahead(x)[0]
        back = reorder(self.back(reorder(x, index))[0], index)
        return torch.cat([ahead, back], -1) * mask.unsqueeze(2)


class ESIM(nn.Module):
    def __init__(self, hidden, mean, std, dropout=0.3):
        super().__init__()
        self.register_buffer('mean', torch.tensor(mean))
        self.register_buffer('std', torch.tensor(std))
        self.dropout = nn.Dropout(dropout)
        self.encode = BiLSTM(WIDTH, hidden)
        self.project = nn.Sequential(nn.Linear(8 * hidden, hidden), nn.ReLU())
        self.compose = BiLSTM(hidden, hidden)
        self.features = nn.Sequential(nn.Linear(FEATURES, 64), nn.ReLU())
        self.classify = nn.Sequential(nn.Dropout(dropout), nn.Linear(8 * hidden + 64, hidden), nn.Tanh(),
                                      nn.Dropout(dropout), nn.Linear(hidden, 3))

    def forward(self, premise, premise_mask, claim, claim_mask, features):
        pi, ci = reversal(premise_mask), reversal(claim_mask)
        a = self.encode(self.dropout(premise), pi, premise_mask)  # [B, Lp, 2H]
        b = self.encode(self.dropout(claim), ci, claim_mask)  # [B, Lc, 2H]
        scores = torch.matmul(a, b.transpose(1, 2))  # [B, Lp, Lc]
        pair_mask = premise_mask.unsqueeze(2) * claim_mask.unsqueeze(1)
        scores = scores.masked_fill(pair_mask == 0, -1e4)
        beta = torch.matmul(torch.softmax(scores, 2), b)  # claim aligned to each premise token
        alpha = torch.matmul(torch.softmax(scores, 1).transpose(1, 2), a)  # premise aligned to each claim token
        ma = self.project(torch.cat([a, beta, a * beta, a - beta], -1))
        mb = self.project(torch.cat([b, alpha, b * alpha, b - alpha], -1))
        va = self.compose(self.dropout(ma), pi, premise_mask)
        vb = self.compose(self.dropout(mb), ci, claim_mask)
        pooled = [va.sum(1) / premise_mask.sum(1, keepdim=True), (va - 1e4 * (1 - premise_mask.unsqueeze(2))).max(1)[0],
                  vb.sum(1) / claim_mask.sum(1, keepdim=True), (vb - 1e4 * (1 - claim_mask.unsqueeze(2))).max(1)[0]]
        f = self.features((features - self.mean) / self.std)
        return self.classify(torch.cat(pooled + [f], -1))


class Probabilities(nn.Module):
    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, evidence, evidence_mask, claim, claim_mask, features):
        return torch.softmax(self.model(evidence, evidence_mask, claim, claim_mask, features), -1)


def loss_of(logits, y, w):
    logp = torch.log_softmax(logits, -1)
    three = y >= 0
    loss = torch.zeros(len(y), device=y.device)
    loss[three] = -logp[three, y[three]]
    # "not entailment" (RTE, COVID-Fact): the probability of neutral or contradiction.
    loss[~three] = -torch.log(1 - logp[~three, 0].exp() + 1e-6)
    return (loss * w).sum() / w.sum()


def batches(rows, size, shuffle):
    """Batches of similar premise length (faster padding); order shuffled when training."""
    order = np.argsort([len(r['p'][0]) + rng.rand() * (8 if shuffle else 0) for r in rows], kind='stable')
    return [order[i:i + size] for i in range(0, len(order), size)]


def predict(model, rows):
    model.eval()
    out = np.zeros((len(rows), 3), dtype=np.float32)
    with torch.no_grad():
        for chunk in batches(rows, 256, False):
            x, _, _ = batch_of([rows[i] for i in chunk])
            out[chunk] = torch.softmax(model(*x), -1).cpu().numpy()
    return out


def metrics_of(rows, probs):
    by = {}
    for source in sorted({r['source'] for r in rows}):
        idx = [i for i, r in enumerate(rows) if r['source'] == source]
        y = np.array([rows[i]['label'] for i in idx])
        p = probs[idx]
        if source == 'fever':
            by[source] = {'pairs': len(idx), 'accuracy_supports_vs_refutes': round(float(((p[:, 0] > p[:, 2]) == (y == 0)).mean()), 4),
                          'accuracy_3way_argmax': round(float((p.argmax(1) == y).mean()), 4)}
        elif (y < 0).any():
            by[source] = {'pairs': len(idx), 'accuracy_entailment_vs_not': round(float(((p[:, 0] > 0.5) == (y == 0)).mean()), 4)}
        else:
            by[source] = {'pairs': len(idx), 'accuracy_3way': round(float((p.argmax(1) == y).mean()), 4)}
    return by


def dev_score(rows, probs):
    m = metrics_of(rows, probs)
    return np.mean([m['snli']['accuracy_3way'], m['fever']['accuracy_supports_vs_refutes'], m['fever_nei']['accuracy_3way'],
                    m['semi_auto_wiki']['accuracy_3way']])


started = time.time()
saved = {}
if EPOCHS == 0 and os.path.exists(os.path.join(OUT, 'best.json')):  # export only: the saved run says what it trained
    saved = json.load(open(os.path.join(OUT, 'best.json')))
    ARCH, HIDDEN, DROPOUT = saved.get('arch', 'decomposable'), saved.get('hidden', HIDDEN), saved.get('dropout', DROPOUT)
train, dev, test = load('train'), load('dev'), load('test')
if os.environ.get('FACT_CHECK_LIMIT'):  # smoke runs only; the shipped model uses every row
    train = [train[i] for i in rng.permutation(len(train))[:int(os.environ['FACT_CHECK_LIMIT'])]]
print(f'loaded {len(train)} train / {len(dev)} dev / {len(test)} test rows in {time.time() - started:.0f} s; '
      f'{ARCH}, hidden {HIDDEN}, batch {BATCH}, dropout {DROPOUT}, lr {LR} x {LR_DECAY} per epoch, on {DEVICE}', flush=True)
feats = np.array([r['features'] for r in train], dtype=np.float32)
Model = ESIM if ARCH == 'esim' else DecomposableAttention
model = Model(HIDDEN, feats.mean(0), feats.std(0) + 1e-6, DROPOUT).to(DEVICE)
opt = torch.optim.Adam(model.parameters(), lr=LR)
best, best_state = -1.0, None
# Batches of similar length, built once; their order is shuffled every epoch.
train_batches = [prepare([train[i] for i in chunk]) for chunk in batches(train, BATCH, True)] if EPOCHS else []
print(f'{len(train_batches)} batches ready ({time.time() - started:.0f} s)', flush=True)
trained = {'epochs_run': 0, 'best_epoch': 0, 'arch': ARCH, 'hidden': HIDDEN, 'batch': BATCH, 'dropout': DROPOUT, 'lr': LR,
           'lr_decay': LR_DECAY, 'dev_scores': []}
last_epoch = 0.0
for epoch in range(EPOCHS):
    if time.time() - started + last_epoch > BUDGET:
        print(f'budget of {BUDGET:.0f} s: stopped before epoch {epoch + 1} (the last took {last_epoch:.0f} s)', flush=True)
        break
    epoch_started = time.time()
    trained['epochs_run'] = epoch + 1
    model.train()
    for g in opt.param_groups:
        g['lr'] = LR * (LR_DECAY ** epoch)
    total = 0.0
    for b in rng.permutation(len(train_batches)):
        x, y, w = inputs(train_batches[b])
        opt.zero_grad()
        loss = loss_of(model(*x), y, w)
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 5.0)
        opt.step()
        total += float(loss.detach()) * len(y)
    score = dev_score(dev, predict(model, dev))
    last_epoch = time.time() - epoch_started
    trained['dev_scores'].append(round(float(score), 4))
    print(f'epoch {epoch + 1}: train loss {total / len(train):.4f}, dev score {score:.4f} ({time.time() - started:.0f} s)', flush=True)
    if score > best:
        best, best_state = score, {k: v.detach().cpu().clone() for k, v in model.state_dict().items()}
        trained.update(best_epoch=epoch + 1, best_dev_score=round(float(score), 4), device=DEVICE,
                       seconds=round(time.time() - started))
        os.makedirs(OUT, exist_ok=True)
        torch.save(best_state, os.path.join(OUT, 'best.pt'))  # a later run may export it (FACT_CHECK_EPOCHS=0)
    if best_state is not None:
        json.dump(trained, open(os.path.join(OUT, 'best.json'), 'w'))  # epochs run so far, beside the best one
if best_state is None:
    best_state = torch.load(os.path.join(OUT, 'best.pt'), map_location='cpu')
    trained = saved or trained
model.load_state_dict(best_state)
model.eval()
dev_probs = predict(model, dev)
best = dev_score(dev, dev_probs)

test_metrics = metrics_of(test, predict(model, test))
dev_metrics = metrics_of(dev, dev_probs)
for source, m in test_metrics.items():
    print('test', source, m)
if OUT != DATA:
    json.dump({'trained': trained, 'dev': dev_metrics, 'test': test_metrics}, open(os.path.join(OUT, 'metrics.json'), 'w'))
if os.environ.get('FACT_CHECK_EXPORT') == '0':
    sys.exit(0)
model = model.cpu()

# ONNX export with fixed inputs whose outputs the card records (checked in Node by the package's tests).
wrapped = Probabilities(model).eval()
g = torch.Generator().manual_seed(11)
fixed = {
    'evidence': torch.randn(2, 7, WIDTH, generator=g).mul(0.4), 'evidence_mask': torch.tensor([[1.0] * 7, [1.0] * 4 + [0.0] * 3]),
    'claim': torch.randn(2, 5, WIDTH, generator=g).mul(0.4), 'claim_mask': torch.tensor([[1.0] * 5, [1.0] * 3 + [0.0] * 2]),
    # Feature rows near the training distribution (uniform [0, 1] rows, standardised, saturated the first ESIM's output).
    'features': model.mean + model.std * torch.randn(2, FEATURES, generator=g).mul(0.5),
}
for key in ('evidence', 'claim'):
    fixed[key][:, :, 100:] = (fixed[key][:, :, 100:] > 0).float()
path = os.path.join(MODELS, 'entailment-neural.onnx')
names = ['evidence', 'evidence_mask', 'claim', 'claim_mask', 'features']
torch.onnx.export(wrapped, tuple(fixed[n] for n in names), path, input_names=names, output_names=['probabilities'], opset_version=13,
                  dynamic_axes={'evidence': {0: 'batch', 1: 'evidence_tokens'}, 'evidence_mask': {0: 'batch', 1: 'evidence_tokens'},
                                'claim': {0: 'batch', 1: 'claim_tokens'}, 'claim_mask': {0: 'batch', 1: 'claim_tokens'},
                                'features': {0: 'batch'}, 'probabilities': {0: 'batch'}})
with torch.no_grad():
    fixed_out = wrapped(*(fixed[n] for n in names))
manifest = json.load(open(os.path.join(DATA, 'manifest.json')))
card = {
    'name': 'entailment-neural', 'version': VERSION, 'date': today(), 'file': os.path.basename(path),
    'architecture': (f'ESIM (BiLSTM 102 -> 2 x {HIDDEN} over the tokens, soft alignment, [a; b; a*b; a-b] -> {HIDDEN} ReLU, '
                     f'composition BiLSTM -> 2 x {HIDDEN}, mean + max pooling) + standardised 37 alignment features -> 64, '
                     f'MLP tanh {HIDDEN} -> 3, softmax; fixed GloVe 6B 100d inputs') if ARCH == 'esim' else
                    (f'decomposable attention (project 102 -> {HIDDEN}, attend, compare on [a; b; a*b; a-b], sum + max pooling) '
                     f'+ standardised 37 alignment features -> 64, aggregate MLP -> 3, softmax; fixed GloVe 6B 100d inputs'),
    'inputs': {'evidence': ['batch', 'evidence_tokens', WIDTH], 'evidence_mask': ['batch', 'evidence_tokens'],
               'claim': ['batch', 'claim_tokens', WIDTH], 'claim_mask': ['batch', 'claim_tokens'], 'features': ['batch', FEATURES],
               'tokens': 'encodeTokens in src/entailmentTokens.ts (100 GloVe values, exact match, unknown word); features: ENTAILMENT_FEATURES'},
    'output': {'name': 'probabilities', 'classes': ['entailment', 'neutral', 'contradiction']},
    'training': {'arch': ARCH, 'epochs': trained.get('epochs_run', EPOCHS), 'bestEpoch': trained.get('best_epoch'), 'hidden': HIDDEN,
                 'batch': trained.get('batch', 64), 'dropout': DROPOUT, 'lr': trained.get('lr', 1e-3),
                 'lrDecay': trained.get('lr_decay', LR_DECAY), 'device': trained.get('device', DEVICE),
                 'devScores': trained.get('dev_scores'),
                 'sourceWeights': WEIGHTS, 'seed': 7, 'bestDevScore': round(float(best), 4),
                 'seconds': trained.get('seconds', round(time.time() - started))},
    'data': {'rows': manifest['rows'], 'built': manifest['built'], 'manifest': 'training/.data/nli/manifest.json (buildEntailmentSet.mjs)'},
    'devMetrics': dev_metrics,
    'heldOutMetrics': test_metrics,
    'fixedInputs': {n: fixed[n].tolist() for n in names},
    'fixedOutputs': [[round(float(v), 6) for v in row] for row in fixed_out],
}
with open(os.path.join(MODELS, 'entailment-neural.card.json'), 'w') as f:
    json.dump(card, f)
print('wrote', path, os.path.getsize(path), 'bytes')
