"""Trains an AI-text n-gram model with a training variant of method.py, through training/v2/train.py's own export and
held-out code (this script swaps in the fit only, so v2's train.py is unchanged).

Usage (Debian's python3; after build_corpus.py and training/v2/dump-ngrams.mjs):
  AI_TEXT_VARIANT=<name> /usr/bin/python3 packages/classifiers/training/v32/train.py            # fit, write the model
  AI_TEXT_VARIANT=<name> /usr/bin/python3 packages/classifiers/training/v32/train.py --heldout  # held-out tables
(--only=a,b as train.py). AI_TEXT_VERSION (default 3.2.0) names the models-extra folder; held-out results go to
out/v32/heldout.json unless AI_TEXT_HELDOUT_DIR says otherwise. AI_TEXT_VARIANT (default `base`, 3.0.0's method:
the same fit as `AI_TEXT_WEIGHTING=domain v2/train.py`) names the method.py variant; select.py (train split only)
chose alpha3e-5, whose held-out tables did not beat 3.0.0's (package README, "AI-text 3.2 experiments"), so no
3.2.0 was shipped.
"""
import json
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
os.environ.setdefault('AI_TEXT_VERSION', '3.2.0')
os.environ.setdefault('AI_TEXT_HELDOUT_DIR', os.path.join(HERE, '..', 'out', 'v32'))
sys.path.insert(0, HERE)
from method import VARIANTS, fit_variant, load_v2  # noqa: E402

v2 = load_v2()

VARIANT = os.environ.get('AI_TEXT_VARIANT', 'base')
CFG = VARIANTS[VARIANT]


class Linear:
    """What v2's code reads of a fitted SGDClassifier."""

    def __init__(self, w, b):
        self.coef_ = w[None, :]
        self.intercept_ = np.array([b])

    def decision_function(self, X):
        return X @ self.coef_[0] + self.intercept_[0]


def fit(X, y, seed=0, idx=None):
    return Linear(*fit_variant(CFG, X, y, [v2.ROWS[i] for i in idx], seed=seed))


def main():
    v2.fit = fit
    v2.ALPHA = CFG['alpha']
    v2.WEIGHTING = CFG['weighting']
    rows, X = v2.load()
    v2.ROWS = rows
    print(f'{len(rows)} rows, {X.nnz} non-zeros; variant {VARIANT} {json.dumps(CFG)}', flush=True)
    if '--heldout' in sys.argv:
        v2.heldout(rows, X)
        return
    v2.export(rows, X)
    path = os.path.join(v2.MODEL_DIR, 'card.json')
    card = json.load(open(path))
    card['training']['model'] = (
        'logistic regression (SGD, log loss, averaged) over the hashed n-gram profile; training/v32/method.py variant '
        f'{VARIANT}: ' + {
            'cell': 'each (domain, label) cell of the train split weighted to an equal total (1/size), classes to '
                    'equal totals',
            'domain': 'rows weighted 1/sqrt(size of their (domain, label) cell), classes to equal totals',
            'dro': 'cells to equal totals, then group-DRO reweighting rounds',
        }[CFG['weighting']] + (f"; only slots present in the train texts of >= {CFG['min_domains']} domains keep a "
                               'weight' if CFG.get('min_domains') else ''))
    card['training']['variant'] = {'name': VARIANT, **CFG, 'selected_by': 'training/v32/select.py (leave-one-domain-out '
                                                                         'on the train split only)'}
    with open(path, 'w') as f:
        json.dump(card, f, indent=2)
        f.write('\n')


if __name__ == '__main__':
    main()
