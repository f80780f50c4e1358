"""Univariate AUROC of every feature per generator family, on train-split documents only (no test data).

Run: [AI_TEXT_VERSION=1.1.0] /usr/bin/python3 packages/classifiers/training/analyze_features.py
A value far from 0.5 that keeps its side across families is a feature that may generalise.
"""
import json
import os

import numpy as np
from sklearn.metrics import roc_auc_score

VERSION = os.environ.get('AI_TEXT_VERSION', '1.0.0')
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'out', *([] if VERSION == '1.0.0' else [VERSION]))


def main():
    names = json.load(open(os.path.join(OUT, 'meta.json')))['featureNames']
    rows = [json.loads(l) for l in open(os.path.join(OUT, 'features.jsonl'))]
    rows = [r for r in rows if r['split'] == 'train' and r['kind'] == 'doc' and r['language'] == 'en']
    groups = {'open-2019-22': 'fastdetectgpt_open_models', 'llama-2': 'm4_llama2'}
    print(f"{'feature':20s} " + ' '.join(f'{g:>14s}' for g in groups))
    for j, name in enumerate(names):
        cells = []
        for family, dataset in groups.items():
            sel = [r for r in rows if r['dataset'] == dataset]
            y = np.array([r['label'] for r in sel])
            x = np.array([r['features'][j] for r in sel])
            cells.append(f'{roc_auc_score(y, x):14.3f}')
        print(f'{name:20s} ' + ' '.join(cells))


if __name__ == '__main__':
    main()
