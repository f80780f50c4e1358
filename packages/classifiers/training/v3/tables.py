"""Prints the held-out tables of AI-text 3.x (out/v3/heldout.json, written by
`AI_TEXT_VERSION=3.0.0 AI_TEXT_WEIGHTING=domain train.py --heldout`) as Markdown, 2.0.0 beside on the same test texts.

Usage: [AI_TEXT_VERSION=3.1.0] /usr/bin/python3 packages/classifiers/training/v3/tables.py [heldout.json ...]
AI_TEXT_VERSION (default 3.0.0) names the version the held-out fits were made for; for a later version the shipped
3.0.0 (its weights and its card's calibration buckets, trained with every slice of its own corpus) is put beside too.
Per slice: a 3.x model fitted on the train split without the slice, its threshold set on the calib split's human
texts without the slice by the deployment-calibration rule (target 1%, 95%); 2.0.0 is the shipped model (trained with
every slice but the held-out sets) at its shipped per-length thresholds. AUROC of the slice's AI test texts against the
test human texts of the same domains; TPR at the threshold; human FPR of the left-out domain's test texts there.
"""
import json
import os
import sys

import numpy as np
from sklearn.metrics import roc_auc_score

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.append(os.path.join(HERE, '..'))
from length_thresholds import TARGETS, help_or_require, length_buckets, merged_heldout, shipped_rule  # noqa: E402

VERSION = os.environ.get('AI_TEXT_VERSION', '3.0.0')
BESIDE = '3.0.0' if VERSION != '3.0.0' else None
# Several files (runs split with --only and AI_TEXT_HELDOUT_DIR) are merged, later files winning.
paths = sys.argv[1:] or [os.path.join(HERE, '..', 'out', 'v3', 'heldout.json')]
# What this script reads, checked before anything is read (-h / --help prints the usage above instead).
DUMP = 'training/v2/dump-ngrams.mjs (after corpus/build_corpus.py)'
inputs = {p: 'AI_TEXT_VERSION=3.0.0 AI_TEXT_WEIGHTING=domain training/v2/train.py --heldout' for p in paths}
inputs[os.path.join(HERE, '..', 'out', 'v2', 'rows.jsonl')] = DUMP
if BESIDE:
    inputs[os.path.join(HERE, '..', 'out', 'v2', 'ngrams.bin')] = DUMP
    beside_dir = os.path.join(HERE, '..', '..', '..', 'models-extra', 'models', 'ai-text', BESIDE)
    for name in ('card.json', 'ngram.weights.f16.gz'):
        inputs[os.path.join(beside_dir, name)] = f'AI_TEXT_VERSION={BESIDE} training/v2/train.py'
help_or_require(__doc__, inputs)
SCORE_DIRS = [os.path.join(os.path.dirname(p), 'scores') for p in paths]
h = merged_heldout(paths)
MIN = 50
ROWS = [json.loads(line) for line in open(os.path.join(HERE, '..', 'out', 'v2', 'rows.jsonl'))]
SPLIT = np.array([r['split'] for r in ROWS])
LABEL = np.array([r['label'] for r in ROWS])
DOMAIN = np.array([r['domain'] for r in ROWS])
FAMILY = np.array([r['family'] for r in ROWS])


CHARS = np.array([r['chars'] for r in ROWS])
BUCKET = length_buckets(CHARS)


def rethreshold(kind, name, r, score_dirs):
    """TPR and the left-out domain's human FPR at the shipped rule's threshold, from the slice's saved scores."""
    key = 'family' if kind == 'families' else 'domain'
    members = set(r.get('members') or [name])
    f = next((os.path.join(d, f'{key}-{name}.npy') for d in score_dirs if os.path.exists(os.path.join(d, f'{key}-{name}.npy'))), None)
    if f is None:
        return None
    s = np.load(f).astype(np.float64)
    col = FAMILY if key == 'family' else DOMAIN
    out = np.isin(col, list(members))
    # 3.0.0's shipped rule on the calib human texts outside the slice.
    thr, t = shipped_rule(s, (SPLIT == 'calib') & (LABEL == 0) & ~out, DOMAIN, BUCKET)
    test = SPLIT == 'test'
    ai = test & (LABEL == 1) & out
    hum = test & (LABEL == 0) & np.isin(DOMAIN, list(members))
    return {'target': t, 'tpr': float(np.mean(s[ai] > thr[ai])) if ai.any() else None,
            'fpr': float(np.mean(s[hum] > thr[hum])) if hum.any() else None}


def shipped_scores(version):
    """ai_logit of a shipped n-gram version on every dumped row and its per-length shipped threshold at each row."""
    import gzip
    sys.path.insert(0, os.path.join(HERE, '..', 'v2'))
    import train
    _, X = train.load()
    d = os.path.join(HERE, '..', '..', '..', 'models-extra', 'models', 'ai-text', version)
    card = json.load(open(os.path.join(d, 'card.json')))
    w = np.frombuffer(gzip.decompress(open(os.path.join(d, 'ngram.weights.f16.gz'), 'rb').read()), dtype=np.float16)
    s = X @ w.astype(np.float64) + card['training']['intercept']
    buckets = sorted(card['calibration']['buckets'], key=lambda b: b['min_chars'])
    mins = np.array([b['min_chars'] for b in buckets])
    thr = np.array([b['threshold'] for b in buckets])[np.maximum(np.searchsorted(mins, CHARS, side='right') - 1, 0)]
    return s, thr


B_S, B_THR = shipped_scores(BESIDE) if BESIDE else (None, None)


def beside(ai, hum):
    """(AUROC, TPR at its shipped threshold, human FPR there) of the shipped BESIDE version on these test rows."""
    if B_S is None or not ai.any() or not hum.any():
        return None
    a = float(roc_auc_score(np.r_[np.zeros(hum.sum()), np.ones(ai.sum())], np.r_[B_S[hum], B_S[ai]]))
    return a, float(np.mean(B_S[ai] > B_THR[ai])), float(np.mean(B_S[hum] > B_THR[hum]))


def f3(v):
    return '-' if v is None else f'{v:.3f}'


def pct(v):
    return '-' if v is None else f'{100 * v:.1f}%'


V, B = VERSION, BESIDE
bcol = f' / {B} shipped' if B else ''
print(f"alpha {h.get('alpha')}, epochs {h.get('epochs')}; {V} threshold per slice: the shipped rule (largest target of "
      f"{TARGETS} keeping every calib human domain <= 1%) on the calib human texts outside the slice; 2.0.0"
      f"{' and ' + B if B else ''}: shipped model and thresholds (trained with the slice)\n")
print(f'| family left out | AI / human test texts | AUROC {V} (2.0.0{bcol}) | TPR at threshold {V} (2.0.0{bcol}) | '
      f'weakest domain AUROC {V} (2.0.0) |')
print('|---|---|---|---|---|')
vals, base, b3 = [], [], []
for k, r in h['families'].items():
    b = r.get('base', {})
    q = rethreshold('families', k, r, SCORE_DIRS) or {}
    dom = [(d, x) for d, x in r['domains'].items() if x['n_ai'] >= MIN and x['n_human'] >= MIN and x['auroc'] is not None]
    weak = min(dom, key=lambda t: t[1]['auroc']) if dom else None
    weak_s = f"{weak[0]} {f3(weak[1]['auroc'])} ({f3(weak[1].get('base_auroc'))})" if weak else '-'
    test = SPLIT == 'test'
    o = beside(test & (LABEL == 1) & (FAMILY == k), test & (LABEL == 0) & np.isin(DOMAIN, list(r['domains'])))
    print(f"| {k} | {r['n_ai']:,} / {r['n_human']:,} | {f3(r['auroc'])} ({f3(b.get('auroc'))}"
          f"{' / ' + f3(o[0]) if o else ''}) | {pct(q.get('tpr'))} ({pct(b.get('tpr_at_threshold'))}"
          f"{' / ' + pct(o[1]) if o else ''}) | {weak_s} |")
    vals.append(r['auroc'])
    base.append(b.get('auroc') or 0)
    b3.append(o[0] if o else 0)
if vals:
    print(f'| **mean** of {len(vals)} | | **{sum(vals) / len(vals):.3f}** ({sum(base) / len(base):.3f}'
          f"{f' / {sum(b3) / len(b3):.3f}' if B else ''}) | | |")

print(f'\n| domain left out | AI / human test texts | AUROC {V} (2.0.0{bcol}) | TPR at threshold {V} (2.0.0{bcol}) | '
      f'human FPR there {V} (2.0.0{bcol}) | {V} at a pooled 1% threshold: TPR / FPR |')
print('|---|---|---|---|---|---|')
vals, base, b3 = [], [], []
for k, r in sorted(h['domains'].items()):
    b = r.get('base', {})
    q = rethreshold('domains', k, r, SCORE_DIRS) or {}
    # The domain's own human texts (the slice report pools the human texts of every domain of the slice's AI texts).
    own = r['domains'].get(k, {})
    n_h = own.get('n_human', 0)
    counted = r['n_ai'] >= MIN and n_h >= MIN
    tag = (' (never trained)' if r.get('never_trained') else '') + ('' if counted else ' (too few)')
    test = SPLIT == 'test'
    o = beside(test & (LABEL == 1) & (DOMAIN == k), test & (LABEL == 0) & (DOMAIN == k))
    print(f"| {k}{tag} | {r['n_ai']:,} / {n_h:,} | {f3(own.get('auroc'))} ({f3(own.get('base_auroc'))}"
          f"{' / ' + f3(o[0]) if o else ''}) | {pct(q.get('tpr'))} ({pct(b.get('tpr_at_threshold'))}"
          f"{' / ' + pct(o[1]) if o else ''}) | {pct(q.get('fpr'))} ({pct(b.get('human_fpr_at_threshold'))}"
          f"{' / ' + pct(o[2]) if o else ''}) | {pct(r['tpr_at_calib_threshold'])} / {pct(r.get('human_fpr_at_threshold'))} |")
    if counted:
        vals.append(own['auroc'])
        base.append(own.get('base_auroc') or 0)
        b3.append(o[0] if o else 0)
if vals:
    print(f'| **mean** of the {len(vals)} counted | | **{sum(vals) / len(vals):.3f}** ({sum(base) / len(base):.3f}'
          f"{f' / {sum(b3) / len(b3):.3f}' if B else ''}) | | | |")

if h.get('human_domains'):
    print(f'\n| human-only domain left out | human test texts | human FPR at threshold {V} (2.0.0) |')
    print('|---|---|---|')
    for k, r in sorted(h['human_domains'].items()):
        q = rethreshold('human_domains', k, r, SCORE_DIRS) or {}
        print(f"| {k} | {r['n_human']:,} | {pct(q.get('fpr'))} ({pct(r.get('base_human_fpr_at_threshold'))}) |")
