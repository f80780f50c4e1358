"""Prints the held-out tables of a training/v32/train.py variant (out/v32/heldout.json, written by `v32/train.py --heldout`) as Markdown,
with 3.0.0's held-out AUROC (its card.json -> metrics.held_out, the same corpus and splits) and the shipped 2.0.0 on
the same test texts beside.

Usage: /usr/bin/python3 packages/classifiers/training/v32/tables.py [heldout.json ...]
Per slice: a 3.2.0 model fitted on the train split without the slice; its thresholds set on the calib split's human
texts outside the slice by two rules, on whole documents: 3.0.0's shipped rule (training/length_thresholds.py: per
length bucket the largest pooled Clopper-Pearson target of 1% / 0.5% / 0.2% / 0.1% keeping every calib human domain at
<= 1%) and 3.2.0's (training/v32/calibrate.mjs: pooled Clopper-Pearson at 0.5%, raised per bucket to every calib
human domain's split-conformal 0.5% quantile). TPR of the slice's AI test texts and FPR of the left-out domain's
human test texts at each.
"""
import json
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.append(os.path.join(HERE, '..'))
from length_thresholds import BUCKETS, bucket_thresholds, help_or_require, length_buckets, merged_heldout, shipped_rule  # noqa: E402

paths = sys.argv[1:] or [os.path.join(HERE, '..', 'out', 'v32', 'heldout.json')]
V3_CARD = os.path.join(HERE, '..', '..', '..', 'models-extra', 'models', 'ai-text', '3.0.0', 'card.json')
# What this script reads, checked before anything is read (-h / --help prints the usage above instead).
inputs = {p: 'training/v32/train.py --heldout' for p in paths}
ROWS_FILE = os.path.join(HERE, '..', 'out', 'v2', 'rows.jsonl')
inputs[ROWS_FILE] = 'training/v2/dump-ngrams.mjs (after corpus/build_corpus.py)'
inputs[V3_CARD] = 'AI_TEXT_VERSION=3.0.0 training/v2/train.py, then training/v3/card.py'
help_or_require(__doc__, inputs)
SCORE_DIRS = [os.path.join(os.path.dirname(p), 'scores') for p in paths]
h = merged_heldout(paths)
V3 = json.load(open(V3_CARD))['metrics']['held_out']
# AI_TEXT_TABLE_NAME: the column name of the model whose held-out file this is (3.2.0's method by default).
NAME = os.environ.get('AI_TEXT_TABLE_NAME', '3.2.0')
MIN = 50
POOLED, DOMAIN_TARGET, MIN_DOMAIN = 0.005, 0.005, 25
ROWS = [json.loads(line) for line in open(ROWS_FILE)]
SPLIT = np.array([r['split'] for r in ROWS])
LABEL = np.array([r['label'] for r in ROWS])
DOMAIN = np.array([r['domain'] for r in ROWS])
FAMILY = np.array([r['family'] for r in ROWS])
CHARS = np.array([r['chars'] for r in ROWS])
BUCKET = length_buckets(CHARS)


def rule_30(s, out):
    return shipped_rule(s, (SPLIT == 'calib') & (LABEL == 0) & ~out, DOMAIN, BUCKET)[0]


def rule_32(s, out):
    cal = (SPLIT == 'calib') & (LABEL == 0) & ~out
    thr = bucket_thresholds(s, cal, POOLED, BUCKET)
    for k in range(len(BUCKETS)):
        for d in set(DOMAIN[cal & (BUCKET == k)]):
            v = np.sort(s[cal & (BUCKET == k) & (DOMAIN == d)])
            if len(v) < MIN_DOMAIN:
                continue
            rank = min(len(v), int(np.ceil((len(v) + 1) * (1 - DOMAIN_TARGET) - 1e-9)))
            thr[k] = max(thr[k], v[rank - 1])
    return thr[BUCKET]


def rethreshold(kind, name, r):
    key = 'family' if kind == 'families' else 'domain'
    members = set(r.get('members') or [name])
    f = next((os.path.join(d, f'{key}-{name}.npy') for d in SCORE_DIRS if os.path.exists(os.path.join(d, f'{key}-{name}.npy'))), None)
    if f is None:
        return {}
    s = np.load(f).astype(np.float64)
    out = np.isin(FAMILY if key == 'family' else DOMAIN, list(members))
    test = SPLIT == 'test'
    ai = test & (LABEL == 1) & out
    hum = test & (LABEL == 0) & np.isin(DOMAIN, list(members))
    res = {}
    for tag, rule in (('30', rule_30), ('32', rule_32)):
        thr = rule(s, out)
        res[tag] = {'tpr': float(np.mean(s[ai] > thr[ai])) if ai.any() else None,
                    'fpr': float(np.mean(s[hum] > thr[hum])) if hum.any() else None}
    return res


def f3(v):
    return '-' if v is None else f'{v:.3f}'


def pct(v):
    return '-' if v is None else f'{100 * v:.1f}%'


print(f"variant alpha {h.get('alpha')}; thresholds per slice from the calib human texts outside it: rule 3.2 (pooled "
      f"0.5% + per-domain conformal 0.5%) and rule 3.0 (3.0.0's shipped rule)\n")
print(f'| family left out | AI / human test texts | AUROC {NAME} | 3.0.0 held out | 2.0.0 shipped | TPR rule 3.2 / rule 3.0 |')
print('|---|---|---|---|---|---|')
vals, v3s, base = [], [], []
for k, r in h['families'].items():
    q = rethreshold('families', k, r)
    old = V3['leave_one_family_out'].get(k, {})
    print(f"| {k} | {r['n_ai']:,} / {r['n_human']:,} | {f3(r['auroc'])} | {f3(old.get('auroc'))} | "
          f"{f3(r.get('base', {}).get('auroc'))} | {pct(q.get('32', {}).get('tpr'))} / {pct(q.get('30', {}).get('tpr'))} |")
    vals.append(r['auroc'])
    v3s.append(old.get('auroc') or 0)
    base.append(r.get('base', {}).get('auroc') or 0)
if vals:
    print(f'| **mean** of {len(vals)} | | **{np.mean(vals):.3f}** | {np.mean(v3s):.3f} | {np.mean(base):.3f} | |')

print(f'\n| domain left out | AI / human test texts | AUROC {NAME} | 3.0.0 held out | 2.0.0 shipped | TPR / human FPR rule 3.2 | rule 3.0 | 2.0.0 shipped |')
print('|---|---|---|---|---|---|---|---|')
vals, v3s, base = [], [], []
for k, r in sorted(h['domains'].items()):
    q = rethreshold('domains', k, r)
    own = r['domains'].get(k, {})
    b = r.get('base', {})
    old = V3['leave_one_domain_out'].get(k, {})
    n_h = own.get('n_human', 0)
    counted = r['n_ai'] >= MIN and n_h >= MIN
    tag = (' (never trained)' if r.get('never_trained') else '') + ('' if counted else ' (too few)')
    print(f"| {k}{tag} | {r['n_ai']:,} / {n_h:,} | {f3(own.get('auroc'))} | {f3(old.get('auroc'))} | "
          f"{f3(own.get('base_auroc'))} | {pct(q.get('32', {}).get('tpr'))} / {pct(q.get('32', {}).get('fpr'))} | "
          f"{pct(q.get('30', {}).get('tpr'))} / {pct(q.get('30', {}).get('fpr'))} | "
          f"{pct(b.get('tpr_at_threshold'))} / {pct(b.get('human_fpr_at_threshold'))} |")
    if counted and old.get('auroc') is not None:
        vals.append(own['auroc'])
        v3s.append(old['auroc'])
        base.append(own.get('base_auroc') or 0)
if vals:
    print(f'| **mean** of the {len(vals)} counted in both | | **{np.mean(vals):.3f}** | {np.mean(v3s):.3f} | {np.mean(base):.3f} | | | |')

if h.get('human_domains'):
    print('\n| human-only domain left out | human test texts | human FPR rule 3.2 / rule 3.0 (2.0.0 shipped) |')
    print('|---|---|---|')
    for k, r in sorted(h['human_domains'].items()):
        q = rethreshold('human_domains', k, r)
        print(f"| {k} | {r['n_human']:,} | {pct(q.get('32', {}).get('fpr'))} / {pct(q.get('30', {}).get('fpr'))} "
              f"({pct(r.get('base_human_fpr_at_threshold'))}) |")
