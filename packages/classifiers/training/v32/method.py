"""The training method of AI-text 3.2.0, shared by select.py (variant selection on the train split), heldout.py
(held-out tables) and fit.py (the shipped model). The model is 2.0.0's / 3.0.0's: a logistic regression over the
hashed n-gram profile (training/v2/dump-ngrams.mjs), so the runtime, its per-sentence scores and the model format are
unchanged. What a variant changes:

- `weighting`: `domain` (3.0.0: each (domain, label) cell weighted 1/sqrt(its size), classes to equal totals),
  `cell` (each cell to an equal total, 1/size: every domain counts as much as every other, as group DRO's uniform
  start; Sagawa et al. 2020, arXiv 1911.08731) or `dro` (`cell`, then `rounds` refits that multiply each cell's weight
  by exp(eta * its training error rate), the group-DRO update with a bounded loss);
- `alpha`: the L2 penalty of the SGD fit;
- `min_domains`: only hashed n-gram slots present in the train texts of at least that many domains keep a weight
  (a slot seen in one or two domains is mostly topic: its weight is set to 0 and it is left out of the fit).
"""
import importlib.util
import os

import numpy as np
from sklearn.linear_model import SGDClassifier

VARIANTS = {
    'base': {'weighting': 'domain', 'alpha': 2e-6},
    'alpha1e-5': {'weighting': 'domain', 'alpha': 1e-5},
    'cell': {'weighting': 'cell', 'alpha': 2e-6},
    'dom3': {'weighting': 'domain', 'alpha': 2e-6, 'min_domains': 3},
    'dom5': {'weighting': 'domain', 'alpha': 2e-6, 'min_domains': 5},
    'cell-dom3': {'weighting': 'cell', 'alpha': 2e-6, 'min_domains': 3},
    'cell-dom5-a5e-6': {'weighting': 'cell', 'alpha': 5e-6, 'min_domains': 5},
    'alpha3e-5': {'weighting': 'domain', 'alpha': 3e-5},
    'alpha1e-4': {'weighting': 'domain', 'alpha': 1e-4},
    'alpha3e-5-dom3': {'weighting': 'domain', 'alpha': 3e-5, 'min_domains': 3},
    'dro': {'weighting': 'dro', 'alpha': 2e-6, 'min_domains': 3, 'rounds': 2, 'eta': 2.0},
}
EPOCHS = 8


def cells(rows):
    return np.array([f"{r['domain']}\t{r['label']}" for r in rows])


def cell_weights(rows, y, power):
    c = cells(rows)
    _, inv, counts = np.unique(c, return_inverse=True, return_counts=True)
    w = 1.0 / counts[inv].astype(np.float64) ** power
    return balance(w, y)


def balance(w, y):
    w = w.copy()
    for label in (0, 1):
        m = y == label
        w[m] *= (len(y) / 2) / w[m].sum()
    return w


def domain_mask(X, rows, k):
    """Slots present in the texts of at least k domains."""
    dom = np.array([r['domain'] for r in rows])
    seen = np.zeros(X.shape[1], dtype=np.int32)
    for d in np.unique(dom):
        cols = np.unique(X[np.where(dom == d)[0]].indices)
        seen[cols] += 1
    return seen >= k


def fit_variant(cfg, X, y, rows, seed=0):
    """Returns (weights over the hashed slots, intercept) for the scaled features of load()."""
    mask = None
    if cfg.get('min_domains'):
        mask = domain_mask(X, rows, cfg['min_domains'])
        X = X.copy()
        X.data[~mask[X.indices]] = 0
        X.eliminate_zeros()
    weighting = cfg['weighting']
    w = cell_weights(rows, y, 0.5 if weighting == 'domain' else 1.0)
    clf = None
    for r in range(1 + (cfg.get('rounds', 0) if weighting == 'dro' else 0)):
        if r > 0:
            # Group-DRO step: cells with a higher training error get exponentially more weight. The error rate, not the
            # log loss: the model's raw outputs are in the hundreds of thousands (counts per 1,000 characters), so a
            # log loss is dominated by a few rows and exp of it overflows.
            s = clf.decision_function(X)
            err = ((s > 0).astype(np.int8) != y).astype(np.float64)
            _, inv = np.unique(cells(rows), return_inverse=True)
            mean = np.bincount(inv, weights=err) / np.bincount(inv)
            w = balance(w * np.exp(cfg['eta'] * mean[inv]), y)
        clf = SGDClassifier(loss='log_loss', alpha=cfg['alpha'], max_iter=EPOCHS, tol=None, average=True,
                            random_state=seed)
        clf.fit(X, y, sample_weight=w)
    coef = clf.coef_[0].astype(np.float64)
    if mask is not None:
        coef[~mask] = 0
    return coef, float(clf.intercept_[0])


def load_v2():
    """training/v2/train.py as a module (its load, export, heldout and helpers)."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'v2', 'train.py')
    spec = importlib.util.spec_from_file_location('ai_text_v2_train', path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
