"""Held-out figures of a model trained on a widened corpus, on the test texts of an earlier version's card.

Usage (Debian's python3):
  /usr/bin/python3 packages/classifiers/training/v32/corpus_compare.py --old-rows=OLD/rows.jsonl \
      --card=packages/models-extra/models/ai-text/3.1.0/card.json out/v32a/heldout.json [more heldout.json ...]

OLD/rows.jsonl is the earlier corpus (`build_corpus.py --exclude=...` writes it; only `id` and `split` are read);
out/v2/rows.jsonl is the current one (dump-ngrams.mjs), the held-out files and their `scores/` come from
`train.py --heldout` on it. Per slice of the card's leave-one-family-out and leave-one-domain-out tables: the slice's
AUROC and TPR at its threshold (the one train.py set without the slice) on
  - `same`: the test rows that the earlier corpus also had, in its test split (the card's test texts: their counts are
    printed beside the card's, and must match),
  - `all`: every test row of the current corpus (the new sources' test texts included),
beside the card's own held-out AUROC. A row whose split moved (its group joined a new source's group) is neither.
"""
import json
import os
import sys

import numpy as np
from sklearn.metrics import roc_auc_score

HERE = os.path.dirname(os.path.abspath(__file__))
ARGS = dict(a[2:].split('=', 1) for a in sys.argv[1:] if a.startswith('--') and '=' in a)
PATHS = [a for a in sys.argv[1:] if not a.startswith('--')]
ROWS = [json.loads(line) for line in open(os.path.join(HERE, '..', 'out', 'v2', 'rows.jsonl'))]
OLD = {}
for line in open(ARGS['old-rows']):
    r = json.loads(line)
    OLD[r['id']] = r['split']
CARD = json.load(open(ARGS['card']))['metrics']['held_out']

n = len(ROWS)
test = np.array([r['split'] == 'test' for r in ROWS])
same = np.array([r['split'] == 'test' and OLD.get(r['id']) == 'test' for r in ROWS])
label = np.array([r['label'] for r in ROWS])
domain = np.array([r['domain'] for r in ROWS])
family = np.array([r['family'] for r in ROWS])
moved = sum(1 for r in ROWS if r['id'] in OLD and OLD[r['id']] != r['split'])
print(f'rows {n}, test {int(test.sum())}; of the earlier corpus\'s {len(OLD)} rows {sum(1 for r in ROWS if r["id"] in OLD)} '
      f'are here, {moved} in another split; same test texts {int(same.sum())}')

heldout = {}
score_dir = {}
for p in PATHS:
    h = json.load(open(p))
    for kind in ('families', 'domains'):
        for v, rep in h.get(kind, {}).items():
            heldout[(kind, v)] = rep
            score_dir[(kind, v)] = os.path.join(os.path.dirname(p), 'scores')


def auroc(hum, ai):
    if hum.sum() == 0 or ai.sum() == 0:
        return None
    return float(roc_auc_score(np.r_[np.zeros(hum.sum()), np.ones(ai.sum())], np.r_[S[hum], S[ai]]))


def fmt(x, d=3):
    return '-' if x is None else f'{x:.{d}f}'


out = {'families': {}, 'domains': {}}
for kind, key, card_key, values in (('families', family, 'leave_one_family_out', None),
                                    ('domains', domain, 'leave_one_domain_out', None)):
    print(f'\n| {kind[:-1] if kind == "domains" else "family"} left out | AI / human (same) | AUROC card / same '
          f'| TPR at thr card / same | human FPR card / same | AI / human (all) | all AUROC | all TPR at thr |')
    print('|---|---|---|---|---|---|---|---|')
    for (k, v), rep in sorted(heldout.items()):
        if k != kind:
            continue
        S = np.load(os.path.join(score_dir[(k, v)], f'{"family" if kind == "families" else "domain"}-{v}.npy'))
        row = {}
        for name, mask in (('same', same), ('all', test)):
            ai = mask & (label == 1) & (key == v)
            doms = set(domain[ai])
            hum = mask & (label == 0) & np.isin(domain, list(doms))
            row[name] = {'n_ai': int(ai.sum()), 'n_human': int(hum.sum()), 'auroc': auroc(hum, ai),
                         'tpr_at_threshold': float(np.mean(S[ai] > rep['threshold'])) if ai.any() else None}
        c = CARD.get(card_key, {}).get(v, {})
        row['card'] = {k2: c.get(k2) for k2 in ('n_ai', 'n_human', 'auroc', 'tpr_at_threshold', 'human_fpr_at_threshold')}
        if kind == 'domains':
            for name, mask in (('same', same), ('all', test)):
                hd = mask & (label == 0) & (domain == v)
                row[name]['human_fpr_at_threshold'] = float(np.mean(S[hd] > rep['threshold'])) if hd.any() else None
        out[kind][v] = row
        print(f'| {v} | {row["same"]["n_ai"]} / {row["same"]["n_human"]} (card {c.get("n_ai", "-")} / '
              f'{c.get("n_human", "-")}) | {fmt(c.get("auroc"))} / {fmt(row["same"]["auroc"])} | '
              f'{fmt(c.get("tpr_at_threshold"))} / {fmt(row["same"]["tpr_at_threshold"])} | '
              f'{fmt(c.get("human_fpr_at_threshold"))} / {fmt(row["same"].get("human_fpr_at_threshold"))} | '
              f'{row["all"]["n_ai"]} / {row["all"]["n_human"]} | '
              f'{fmt(row["all"]["auroc"])} | {fmt(row["all"]["tpr_at_threshold"])} |')
    common = [v for v in out[kind] if out[kind][v]['card']['auroc'] is not None and out[kind][v]['same']['auroc'] is not None
              and out[kind][v]['same']['n_ai'] >= 50 and out[kind][v]['same']['n_human'] >= 50]
    if common:
        a = np.mean([out[kind][v]['same']['auroc'] for v in common])
        b = np.mean([out[kind][v]['card']['auroc'] for v in common])
        print(f'mean over the {len(common)} slices with >= 50 texts a side: same {a:.3f}, card {b:.3f}')
if ARGS.get('json'):
    with open(ARGS['json'], 'w') as f:
        json.dump(out, f, indent=1)
