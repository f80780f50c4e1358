"""Step 4 of the v33 experiment: a small second-stage model over domain-robust features, left out one domain at a
time, on the sample of dump-texts.mjs.

Features per text: the style features (dump-texts.mjs STYLE_FEATURES, the runtime's own code), the language-model
features (lm_features.py; `runtime` = the nine the runtime computes, `lm` = all twenty), and the logit of the 3.1.0
n-gram model fitted without the left-out domain (training/v2/train.py --heldout, scores/domain-<D>.npy).

For each left-out domain D, every model is fitted without any text of D:
  - variants without the n-gram logit are fitted on the **train** split (the card's held-out rule);
  - variants with it are fitted on the **calib** split: the fold n-gram model was fitted on the train split, so its
    logits of train rows are in-sample and would teach the second stage to trust it too much; its calib logits are
    honest. The same feature sets are also fitted on calib (`@calib`) for a like-for-like comparison.
AUROC: the left-out domain's AI test rows against its human test rows (of the sample). Beside it, on the same rows,
the fold n-gram logit alone (the same-run anchor), and 3.1.0's held-out figure from its card (all test rows).
Rows are weighted so that every (domain, label) cell of the fitting rows has the same total, then classes equal.

Run: OMP_NUM_THREADS=1 /usr/bin/python3 packages/classifiers/training/v33/stack.py [--heldout-dir=DIR,DIR] [--only=a,b]
Writes out/v33/results.json and prints the tables.
"""
import json
import os
import sys
import time

import numpy as np
from sklearn.ensemble import HistGradientBoostingClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, '..', 'out')
ARG = dict(a[2:].split('=', 1) for a in sys.argv[1:] if a.startswith('--') and '=' in a)
# Folders of `train.py --heldout` runs (comma-separated; the fits of one run can be split over several folders).
HELDOUT_DIRS = ARG.get('heldout-dir', ','.join(
    os.path.join(OUT, 'v33', f) for f in ('ngram-heldout', 'ngram-heldout-d'))).split(',')
# 3.1.0's leave-one-domain-out AUROC (package README, "AI-text detector 3.1.0", held-out table; all test rows).
CARD_31 = {'arxiv': 0.922, 'coursework': 0.721, 'creative': 0.990, 'l2r': 0.817, 'medicine-qa': 0.998,
           'mixed': 0.641, 'news': 0.869, 'open-qa': 0.882, 'squad': 0.702, 'student-essay': 0.793, 'web': 0.915,
           'wiki-csai': 0.907, 'writing-prompts': 0.903, 'yelp': 0.966}
WEAK = ['mixed', 'squad', 'coursework', 'student-essay', 'l2r', 'news', 'open-qa']


def load():
    rows, style = [], []
    for line in open(os.path.join(OUT, 'v33', 'sample.jsonl')):
        r = json.loads(line)
        style.append(r.pop('style'))
        r.pop('canonical')
        rows.append(r)
    lm = np.load(os.path.join(OUT, 'v33', 'lm-features.npy')).astype(np.float64)
    lm_names = json.load(open(os.path.join(OUT, 'v33', 'lm-features.json')))['names']
    style_names = json.load(open(os.path.join(OUT, 'v33', 'sample-meta.json')))['style']
    v2_ids = [json.loads(l)['id'] for l in open(os.path.join(OUT, 'v2', 'rows.jsonl'))]
    where = {rid: i for i, rid in enumerate(v2_ids)}
    index = np.array([where.get(r['id'], -1) for r in rows])
    return rows, np.array(style, dtype=np.float64), style_names, lm, lm_names, index


def cell_weights(rows, idx):
    cells = {}
    for i in idx:
        k = (rows[i]['domain'], rows[i]['label'])
        cells[k] = cells.get(k, 0) + 1
    w = np.array([1.0 / cells[(rows[i]['domain'], rows[i]['label'])] for i in idx])
    y = np.array([rows[i]['label'] for i in idx])
    for label in (0, 1):
        w[y == label] *= (len(idx) / 2) / w[y == label].sum()
    return w


def models():
    return {
        'logreg': lambda: make_pipeline(StandardScaler(), LogisticRegression(C=0.3, max_iter=2000)),
        'hgb': lambda: HistGradientBoostingClassifier(max_iter=200, learning_rate=0.05, max_leaf_nodes=15,
                                                      min_samples_leaf=40, l2_regularization=1.0, random_state=0),
    }


def auroc(y, s):
    return float(roc_auc_score(y, s)) if 0 < y.sum() < len(y) else None


def main():
    rows, style, style_names, lm, lm_names, index = load()
    n_runtime = 9
    split = np.array([r['split'] for r in rows])
    domain = np.array([r['domain'] for r in rows])
    y = np.array([r['label'] for r in rows])
    sets = {
        'style': style,
        'runtime-lm': lm[:, :n_runtime],
        'lm': lm,
        'lm+style': np.hstack([lm, style]),
        'runtime-lm+style': np.hstack([lm[:, :n_runtime], style]),
    }  # runtime-lm: the nine features src/aiText/charLm.ts computes
    test_domains = [d for d in CARD_31 if ((split == 'test') & (domain == d) & (y == 0)).sum() > 0]
    only = ARG.get('only')
    if only:
        test_domains = [d for d in test_domains if d in only.split(',')]
    path = os.path.join(OUT, 'v33', 'results.json')
    # With --only, the domains run are merged into the results of an earlier run.
    kept = json.load(open(path))['domains'] if only and os.path.exists(path) else {}
    results = {'domains': kept, 'features': {'style': style_names, 'lm': lm_names, 'runtime_lm': lm_names[:n_runtime]},
               'heldout_dirs': HELDOUT_DIRS}
    all_names = lm_names + style_names
    all_feats = np.hstack([lm, style])
    for d in test_domains:
        t0 = time.time()
        test = np.where((split == 'test') & (domain == d))[0]
        res = {'n_ai': int(y[test].sum()), 'n_human': int((1 - y[test]).sum()), 'card_31': CARD_31[d]}
        found = [p for p in (os.path.join(h, 'scores', f'domain-{d}.npy') for h in HELDOUT_DIRS) if os.path.exists(p)]
        ngram = None
        if found:
            s = np.load(found[0]).astype(np.float64)
            ngram = np.where(index >= 0, s[np.maximum(index, 0)], np.nan)
            res['ngram_fold'] = auroc(y[test], ngram[test])
        fits = [(name, 'train', sets[name]) for name in ('style', 'lm', 'lm+style', 'runtime-lm+style')]
        fits.append(('lm+style@calib', 'calib', sets['lm+style']))
        if ngram is not None:
            for name in ('style', 'lm+style', 'runtime-lm+style'):
                fits.append((name + '+ngram@calib', 'calib', np.hstack([sets[name], ngram[:, None]])))
        for name, fit_split, X in fits:
            fit = np.where((split == fit_split) & (domain != d) & np.all(np.isfinite(X), axis=1))[0]
            w = cell_weights(rows, fit)
            for kind, make in models().items():
                m = make()
                if kind == 'logreg':
                    m.fit(X[fit], y[fit], logisticregression__sample_weight=w)
                else:
                    m.fit(X[fit], y[fit], sample_weight=w)
                ok = test[np.all(np.isfinite(X[test]), axis=1)]
                res.setdefault(kind, {})[name] = auroc(y[ok], m.decision_function(X[ok]) if kind == 'logreg'
                                                       else m.predict_proba(X[ok])[:, 1])
        # One feature at a time, its direction taken from the train rows outside D (is it robust across domains?).
        single = {}
        fit = np.where((split == 'train') & (domain != d))[0]
        for j, fname in enumerate(all_names):
            a = auroc(y[fit], all_feats[fit, j])
            sign = 1.0 if a is None or a >= 0.5 else -1.0
            single[fname] = auroc(y[test], sign * all_feats[test, j])
        res['single'] = single
        results['domains'][d] = res
        print(f'{d}: n-gram fold {res.get("ngram_fold")}, hgb lm+style {res["hgb"]["lm+style"]:.3f}, '
              f'hgb lm+style+ngram@calib {res["hgb"].get("lm+style+ngram@calib")} ({time.time() - t0:.0f}s)', flush=True)
        json.dump(results, open(path, 'w'), indent=1)
    print_tables(results)


def print_tables(results):
    doms = [d for d in CARD_31 if d in results['domains']]
    cols = [('hgb', 'style'), ('hgb', 'lm'), ('hgb', 'lm+style'), ('logreg', 'lm+style'), ('hgb', 'lm+style@calib'),
            ('hgb', 'style+ngram@calib'), ('hgb', 'lm+style+ngram@calib'), ('logreg', 'lm+style+ngram@calib'), ('hgb', 'runtime-lm+style+ngram@calib')]
    head = ['domain', 'AI/human', '3.1.0 card', 'n-gram fold (same rows)'] + [f'{k} {n}' for k, n in cols]
    print('| ' + ' | '.join(head) + ' |')
    print('|' + '---|' * len(head))
    means = {c: [] for c in ['card', 'ngram'] + cols}
    fmt = lambda v: '-' if v is None else f'{v:.3f}'  # noqa: E731
    for d in doms:
        r = results['domains'][d]
        vals = [r['card_31'], r.get('ngram_fold')] + [r[k].get(n) for k, n in cols]
        for key, v in zip(['card', 'ngram'] + cols, vals):
            if v is not None:
                means[key].append(v)
        print(f'| {d} | {r["n_ai"]}/{r["n_human"]} | ' + ' | '.join(fmt(v) for v in vals) + ' |')
    print('| **mean** | | ' + ' | '.join(fmt(np.mean(means[k])) if means[k] else '-' for k in ['card', 'ngram'] + cols) + ' |')
    keys = ['card', 'ngram'] + cols
    for label, subset in (('weak', [d for d in doms if d in WEAK]),
                          ('with n-gram fold', [d for d in doms if results['domains'][d].get('ngram_fold') is not None])):
        if not subset:
            continue
        vals = []
        for k in keys:
            v = [results['domains'][d]['card_31'] if k == 'card' else
                 results['domains'][d].get('ngram_fold') if k == 'ngram' else results['domains'][d][k[0]].get(k[1])
                 for d in subset]
            vals.append(None if any(x is None for x in v) else float(np.mean(v)))
        print(f'| mean, {label} ({", ".join(subset)}) | | ' + ' | '.join(fmt(v) for v in vals) + ' |')
    # Per-feature robustness: mean single-feature AUROC over left-out domains.
    names = list(next(iter(results['domains'].values()))['single'])
    avg = sorted(((np.nanmean([results['domains'][d]['single'][n] or np.nan for d in doms]), n) for n in names), reverse=True)
    print('single features, mean AUROC over the left-out domains (direction from the train rows outside each):')
    print(', '.join(f'{n} {v:.3f}' for v, n in avg))


if __name__ == '__main__':
    if '--print' in sys.argv:
        print_tables(json.load(open(os.path.join(OUT, 'v33', 'results.json'))))
    else:
        main()
