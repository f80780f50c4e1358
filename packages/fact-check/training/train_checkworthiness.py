"""Trains the check-worthiness model (does a sentence state a verifiable, check-worthy fact?) on features dumped by
dumpFeatures.mjs and exports models/checkworthiness.onnx and models/checkworthiness.card.json.

Split (honest, fixed): train = CT22 1B claim train+dev, CLEF 2020 tweets (claim column) train+dev, ClaimRank 2016
debates (positive = checked by at least one outlet), CLEF 2019 training debates minus any test document; test = CT22 1B
dev_test, CLEF 2020 tweets test-gold, CLEF 2019 test_annotated debates (7 documents not seen in training).
10% of the training rows are held out for early stopping. Within each source, positives and negatives weigh the same.
Run: /usr/bin/python3 training/train_checkworthiness.py   (under a minute)
"""
import json
import os

import numpy as np
import torch

from common import MODELS, StandardisedMLP, export, fit_with_early_stopping, fixed_inputs, fixed_outputs, load, today

VERSION = '1.0.0'
torch.manual_seed(7)
torch.set_num_threads(1)
x, rows = load('checkworthiness')
labels = np.array([r['label'] for r in rows])
sources = np.array([r['source'] for r in rows])
is_test = np.array([r['split'] == 'test' for r in rows])
rng = np.random.RandomState(7)
is_val = (~is_test) & (rng.rand(len(rows)) < 0.1)
is_train = (~is_test) & (~is_val)

FACTORS = {'ct22_claim': 1.0, 'clef20_tweets_claim': 0.5, 'claimrank': 1.0, 'clef19_debates': 1.0}
weights = np.zeros(len(rows), dtype=np.float32)
for source, factor in FACTORS.items():
    for label in (0, 1):
        mask = (~is_test) & (sources == source) & (labels == label)
        weights[mask] = factor / 2 / max(1, mask.sum())
weights *= (~is_test).sum() / weights.sum()

mean = x[is_train].mean(0)
std = x[is_train].std(0) + 1e-6
model = StandardisedMLP(mean, std, [32], 2)
opt = torch.optim.Adam(model.parameters(), lr=1e-3, weight_decay=1e-3)
X, Y, W = torch.tensor(x), torch.tensor(labels), torch.tensor(weights)


def loss_of(idx):
    return (torch.nn.functional.cross_entropy(model(X[idx]), Y[idx], reduction='none') * W[idx]).mean()


train_idx = np.where(is_train)[0]
val_idx = torch.tensor(np.where(is_val)[0])
fit_with_early_stopping(model, opt, loss_of, train_idx, val_idx, rng, max_epochs=80)


def average_precision(y, score):
    order = np.argsort(-score)
    y = y[order]
    hits = np.cumsum(y)
    return float((hits / np.arange(1, len(y) + 1))[y == 1].mean()) if y.sum() else 0.0


with torch.no_grad():
    p1 = torch.softmax(model(X), -1)[:, 1].numpy()
metrics = {}
for source in ('ct22_claim', 'clef20_tweets_claim', 'clef19_debates'):
    mask = is_test & (sources == source)
    y, s = labels[mask], p1[mask]
    pred = s >= 0.5
    tp = float((pred & (y == 1)).sum())
    precision = tp / max(1, pred.sum())
    recall = tp / max(1, (y == 1).sum())
    f1 = 2 * precision * recall / max(1e-9, precision + recall)
    metrics[source] = {'sentences': int(mask.sum()), 'positives': int(y.sum()), 'f1_at_0.5': round(f1, 4),
                       'precision_at_0.5': round(precision, 4), 'recall_at_0.5': round(recall, 4),
                       'average_precision': round(average_precision(y, s), 4),
                       'positive_rate': round(float(y.mean()), 4)}
    print(source, metrics[source])

width = x.shape[1]
path = export(model, width, 'checkworthiness')
card = {
    'name': 'checkworthiness', 'version': VERSION, 'date': today(), 'file': os.path.basename(path),
    'input': {'name': 'features', 'shape': ['batch', width],
              'features': 'CHECK_WORTHINESS_CUE_FEATURES then the 100-d mean GloVe vector (src/checkWorthinessFeatures.ts)'},
    'output': {'name': 'probabilities', 'classes': ['not check-worthy', 'check-worthy']},
    'architecture': 'standardise -> Linear(32) ReLU -> Linear(2) -> softmax',
    'data': {k: int((sources == k).sum()) for k in FACTORS},
    'split': __doc__.split('Split (honest, fixed): ')[1].split('\n10%')[0].replace('\n', ' '),
    'rows': {'train': int(is_train.sum()), 'validation': int(is_val.sum()), 'test': int(is_test.sum())},
    'heldOutMetrics': metrics,
    'fixedInputs': fixed_inputs(width),
    'fixedOutputs': fixed_outputs(model, width),
}
with open(os.path.join(MODELS, 'checkworthiness.card.json'), 'w') as f:
    json.dump(card, f, indent=2)
print('wrote', path)
