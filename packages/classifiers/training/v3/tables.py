"""Prints the held-out tables of AI-text 3.0.0 (out/v3/heldout.json, written by
`AI_TEXT_VERSION=3.0.0 AI_TEXT_WEIGHTING=domain train.py --heldout`) as Markdown, 2.0.0 beside on the same test texts.

Usage: /usr/bin/python3 packages/classifiers/training/v3/tables.py [heldout.json ...]
Per slice: a 3.0.0 model fitted on the train split without the slice, its threshold set on the calib split's human
texts without the slice by the deployment-calibration rule (target 1%, 95%); 2.0.0 is the shipped model (trained with
every slice but the held-out sets) at its shipped per-length thresholds. AUROC of the slice's AI test texts against the
test human texts of the same domains; TPR at the threshold; human FPR of the left-out domain's test texts there.
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# Several files (runs split with --only and AI_TEXT_HELDOUT_DIR) are merged, later files winning.
paths = sys.argv[1:] or [os.path.join(HERE, '..', 'out', 'v3', 'heldout.json')]
h = {}
for path in paths:
    part = json.load(open(path))
    for k, v in part.items():
        if isinstance(v, dict) and isinstance(h.get(k), dict):
            h[k].update(v)
        else:
            h[k] = v
MIN = 50


def f3(v):
    return '-' if v is None else f'{v:.3f}'


def pct(v):
    return '-' if v is None else f'{100 * v:.1f}%'


print(f"alpha {h.get('alpha')}, epochs {h.get('epochs')}; threshold: {h.get('threshold_rule')}\n")
print('| family left out | AI / human test texts | AUROC 3.0.0 (2.0.0) | TPR at threshold 3.0.0 (2.0.0) | weakest domain 3.0.0 (2.0.0) |')
print('|---|---|---|---|---|')
vals, base = [], []
for k, r in h['families'].items():
    b = r.get('base', {})
    dom = [(d, x) for d, x in r['domains'].items() if x['n_ai'] >= MIN and x['n_human'] >= MIN and x['auroc'] is not None]
    weak = min(dom, key=lambda t: t[1]['auroc']) if dom else None
    weak_s = f"{weak[0]} {f3(weak[1]['auroc'])} ({f3(weak[1].get('base_auroc'))})" if weak else '-'
    print(f"| {k} | {r['n_ai']:,} / {r['n_human']:,} | {f3(r['auroc'])} ({f3(b.get('auroc'))}) | "
          f"{pct(r['tpr_at_calib_threshold'])} ({pct(b.get('tpr_at_threshold'))}) | {weak_s} |")
    vals.append(r['auroc'])
    base.append(b.get('auroc') or 0)
print(f'| **mean** | | **{sum(vals) / len(vals):.3f}** ({sum(base) / len(base):.3f}) | | |')

print('\n| domain left out | AI / human test texts | AUROC 3.0.0 (2.0.0) | TPR at threshold 3.0.0 (2.0.0) | human FPR there 3.0.0 (2.0.0) |')
print('|---|---|---|---|---|')
vals, base = [], []
for k, r in sorted(h['domains'].items()):
    b = r.get('base', {})
    # The domain's own human texts (the slice report pools the human texts of every domain of the slice's AI texts).
    own = r['domains'].get(k, {})
    n_h = own.get('n_human', 0)
    counted = r['n_ai'] >= MIN and n_h >= MIN
    tag = (' (never trained)' if r.get('never_trained') else '') + ('' if counted else ' (too few)')
    print(f"| {k}{tag} | {r['n_ai']:,} / {n_h:,} | {f3(own.get('auroc'))} ({f3(own.get('base_auroc'))}) | "
          f"{pct(r['tpr_at_calib_threshold'])} ({pct(b.get('tpr_at_threshold'))}) | "
          f"{pct(r.get('human_fpr_at_threshold'))} ({pct(b.get('human_fpr_at_threshold'))}) |")
    if counted:
        vals.append(own['auroc'])
        base.append(own.get('base_auroc') or 0)
if vals:
    print(f'| **mean** of the {len(vals)} counted | | **{sum(vals) / len(vals):.3f}** ({sum(base) / len(base):.3f}) | | |')
    print(f'| **minimum** | | **{min(vals):.3f}** ({min(base):.3f}) | | |')

if h.get('human_domains'):
    print('\n| human-only domain left out | human test texts | human FPR at threshold 3.0.0 (2.0.0) |')
    print('|---|---|---|')
    for k, r in sorted(h['human_domains'].items()):
        print(f"| {k} | {r['n_human']:,} | {pct(r['human_fpr_at_threshold'])} ({pct(r.get('base_human_fpr_at_threshold'))}) |")
