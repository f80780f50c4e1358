"""Selects the training variant of AI-text 3.2.0 by leave-one-domain-out on the TRAIN split only: for each variant and
each chosen domain, a model fitted on the train rows outside the domain ranks the domain's own train rows (AI against
human). The calib and test splits are not read. Prints one line per (variant, domain) and the mean per variant;
writes out/v32/select.json.

Usage: /usr/bin/python3 packages/classifiers/training/v32/select.py [--domains=a,b] [--variants=name,...]
"""
import json
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from method import load_v2  # noqa: E402
from method import VARIANTS, fit_variant  # noqa: E402

v2 = load_v2()

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, '..', 'out', 'v32')


def arg(name, default):
    return next((a.split('=', 1)[1].split(',') for a in sys.argv if a.startswith(f'--{name}=')), default)


def main():
    rows, X = v2.load()
    split = np.array([r['split'] for r in rows])
    train = np.where(split == 'train')[0]
    rows = [rows[i] for i in train]
    X = X[train]
    y = np.array([r['label'] for r in rows])
    domain = np.array([r['domain'] for r in rows])
    domains = arg('domains', ['squad', 'student-essay', 'mixed', 'news', 'arxiv'])
    variants = arg('variants', list(VARIANTS))
    os.makedirs(OUT, exist_ok=True)
    path = os.path.join(OUT, 'select.json')
    res = json.load(open(path)) if os.path.exists(path) else {}
    for v in variants:
        for d in domains:
            t0 = time.time()
            keep = np.where(domain != d)[0]
            held = np.where(domain == d)[0]
            w, b = fit_variant(VARIANTS[v], X[keep], y[keep], [rows[i] for i in keep])
            s = X[held] @ w + b
            h, a = s[y[held] == 0], s[y[held] == 1]
            r = {'auroc': v2.auroc(h, a), 'tpr_at_1pct': v2.tpr_at_fpr(h, a), 'n_human': len(h), 'n_ai': len(a)}
            res.setdefault(v, {})[d] = r
            print(f"{v} {d}: auroc {r['auroc']:.4f} tpr@1% {r['tpr_at_1pct']:.3f} ({len(h)}/{len(a)}) "
                  f"{time.time() - t0:.0f}s", flush=True)
            with open(path, 'w') as f:
                json.dump(res, f, indent=1)
        m = [res[v][d]['auroc'] for d in domains if d in res[v]]
        print(f'{v}: mean {np.mean(m):.4f} min {np.min(m):.4f}', flush=True)


if __name__ == '__main__':
    main()
