"""Builds AI-text model 2.1.0: the n-gram model of 2.0.0 (training/v2/train.py) stacked with the convolutional token
encoder (training/v21/train_neural.py, run on a GPU machine), and its leave-one-out tables.

The stacking is a logistic regression over the two models' logits, fitted on the calib split (never on test): for
the shipped model on all of calib; for each left-out family or domain on the calib rows outside it, over the
scores of the two models trained without it. Thresholds for the tables follow train.py's rule (the highest
per-domain 99.8th percentile of human calib scores); the shipped threshold is set afterwards by
training/v21/calibrate.mjs with the package's runtime code.

Inputs: out/v2/rows.jsonl and out/v2/scores/ (train.py --heldout), out/v21/gpu/ (train_neural.py's output: 
neural_scores.npy, neural_report.json, neural_<config>.npz) and out/v21/rows.jsonl (dump-tokens.mjs).
Usage (Debian's python3): /usr/bin/python3 packages/classifiers/training/v21/build.py [--tables-only | --export-only]
"""
import hashlib
import json
import os
import subprocess
import sys
import time

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'v2'))
from train import FAMILIES, calib_threshold, count, slice_report  # noqa: E402
from export import neural_head, numpy_features, write_encoder, write_head  # noqa: E402

OUT = os.path.join(HERE, '..', 'out')
GPU = os.path.join(OUT, 'v21', 'gpu')
# 2.1.0 is neither the default nor latest: it lives in @content-analysis/models-extra.
MODEL_DIR = os.path.join(HERE, '..', '..', '..', 'models-extra', 'models', 'ai-text', '2.1.0')
NGRAM_DIR = os.path.join(HERE, '..', '..', 'models', 'ai-text', '2.0.0')


def load():
    rows = [json.loads(line) for line in open(os.path.join(OUT, 'v2', 'rows.jsonl'))]
    order = {json.loads(line)['id']: i for i, line in enumerate(open(os.path.join(OUT, 'v21', 'rows.jsonl')))}
    take = np.array([order[r['id']] for r in rows])
    report = json.load(open(os.path.join(GPU, 'neural_report.json')))
    neural = np.load(os.path.join(GPU, 'neural_scores.npy'))[:, take]
    by_name = {v['name']: neural[k] for k, v in enumerate(report['variants'])}
    return rows, report, by_name


def stack(ngram, neural, idx, y):
    """(a, b, c) of a * ngram + b * neural + c, a logistic regression on rows idx (balanced classes)."""
    x = np.c_[ngram[idx], neural[idx]].astype(np.float64)
    # Fitted on standardised logits (the n-gram model's are some 10^5 times larger), then mapped back.
    mean, std = x.mean(0), x.std(0)
    clf = LogisticRegression(C=100.0, class_weight='balanced', max_iter=1000)
    clf.fit((x - mean) / std, y[idx])
    w = clf.coef_[0] / std
    return float(w[0]), float(w[1]), float(clf.intercept_[0] - (w * mean).sum())


def tables(rows, report, neural):
    y = np.array([r['label'] for r in rows])
    split = np.array([r['split'] for r in rows])
    calib = np.where(split == 'calib')[0]
    test = np.where(split == 'test')[0]
    chosen = report['chosen']
    ai_domains = sorted({r['domain'] for r in rows if r['label'] == 1 and r['split'] == 'test'})
    results = {'families': {}, 'domains': {}, 'stacking': {}}
    for kind, values, key in (('families', FAMILIES, 'family'), ('domains', ai_domains, 'domain')):
        for v in values:
            path = os.path.join(OUT, 'v2', 'scores', f'{key}-{v}.npy')
            ngram = np.load(path) if os.path.exists(path) else np.load(os.path.join(OUT, 'v2', 'scores', 'full.npy'))
            nn = neural.get(f'{key}:{v}')
            never = nn is None and not any(r[key] == v and r['split'] == 'train' for r in rows)
            if nn is None:
                if not never:
                    print(f'{kind} {v}: no neural model trained without it (skipped)', flush=True)
                    continue
                nn = neural[f'full:{chosen}']
            fit_idx = np.array([i for i in calib if rows[i][key] != v])
            a, b, c = stack(ngram, nn, fit_idx, y)
            s = a * ngram + b * nn + c
            thr, _ = calib_threshold(rows, s, fit_idx)
            rep = slice_report(rows, s, test, lambda r, v=v, key=key: r[key] == v, thr)
            for name, alone in (('ngram', ngram), ('neural', nn)):
                rep[f'{name}_auroc'] = slice_report(rows, alone, test, lambda r, v=v, key=key: r[key] == v, thr)['auroc']
            if kind == 'domains':
                h = [i for i in test if rows[i]['label'] == 0 and rows[i]['domain'] == v]
                rep['human_fpr_at_threshold'] = float(np.mean(s[h] > thr)) if h else None
            rep['never_trained'] = bool(never)
            results[kind][v] = rep
            results['stacking'][f'{key}:{v}'] = [a, b, c]
            f3 = lambda x: '-' if x is None else f'{x:.3f}'  # noqa: E731
            print(f'{kind} {v}: auroc {f3(rep["auroc"])} (n-gram {f3(rep["ngram_auroc"])}, neural '
                  f'{f3(rep["neural_auroc"])}) tpr@1% {f3(rep["tpr_at_1pct_fpr"])} stack {a:.2e} {b:.2f}', flush=True)
    with open(os.path.join(OUT, 'v21', 'heldout.json'), 'w') as f:
        json.dump(results, f, indent=1)
    # The card carries the summary (mean over slices with >= 50 AI and >= 50 human test texts, as evaluate.mjs).
    card_path = os.path.join(MODEL_DIR, 'card.json')
    card = json.load(open(card_path))
    for kind in ('families', 'domains'):
        counted = {k: r for k, r in results[kind].items() if r['n_ai'] >= 50 and r['n_human'] >= 50}
        card['metrics'][f'leave_one_{kind[:-1] if kind == "domains" else "family"}_out'] = {
            'mean_auroc': float(np.mean([r['auroc'] for r in counted.values()])),
            'mean_auroc_ngram_alone': float(np.mean([r['ngram_auroc'] for r in counted.values()])),
            'auroc': {k: r['auroc'] for k, r in counted.items()},
            'note': 'test split; each slice scored by the two models trained without it, stacked on calib without it',
        }
    with open(card_path, 'w') as f:
        json.dump(card, f, indent=2)
        f.write('\n')


def reference(weights, dilations, a, b, bias):
    """The head's output for [0, 0, mean encoder features of the fixed input], computed in numpy from the token hashes
    the package gives (the tests run the ONNX graphs on the same input and compare)."""
    script = ("import { canonicalSentences, normalizeText, wordTokens } from './dist/index.js';"
              "import { FIXED_INPUT } from './training/paths.mjs';"
              "const t = wordTokens(canonicalSentences(normalizeText(FIXED_INPUT).text).canonical);"
              "console.log(JSON.stringify(Array.from(t.hashes)));")
    hashes = json.loads(subprocess.run(['node', '--input-type=module', '-e', script], cwd=os.path.join(HERE, '..', '..'),
                                       check=True, capture_output=True, text=True).stdout)
    pooled = numpy_features(weights, dilations, hashes).mean(1)
    logit = b * neural_head(weights, pooled[None, :])[0] + bias
    return {'input': 'fixed_input', 'tokens': len(hashes), 'first_hash': hashes[0],
            'mean_features_0_3': [float(v) for v in pooled[:4]], 'head_logit_without_ngram': float(logit)}


def export(rows, report, neural):
    y = np.array([r['label'] for r in rows])
    split = np.array([r['split'] for r in rows])
    calib = np.where(split == 'calib')[0]
    chosen = report['chosen']
    ngram = np.load(os.path.join(OUT, 'v2', 'scores', 'full.npy'))
    nn = neural[f'full:{chosen}']
    a, b, c = stack(ngram, nn, calib, y)
    ngram_card = json.load(open(os.path.join(NGRAM_DIR, 'card.json')))
    intercept = ngram_card['training']['intercept']
    weights = dict(np.load(os.path.join(GPU, f'neural_{chosen}.npz')))
    config = report['configs'][chosen]  # (embedding width, channels, dilations after the first)
    os.makedirs(MODEL_DIR, exist_ok=True)
    encoder_path = os.path.join(MODEL_DIR, 'encoder.onnx')
    write_encoder(weights, config[2], encoder_path)
    write_head(weights, a, b, c + a * intercept, os.path.join(MODEL_DIR, 'model.onnx'))
    channels = int(weights['first.weight'].shape[0])
    test = split == 'test'
    s = a * ngram + b * nn + c
    card = {
        'id': 'ai-text', 'version': '2.1.0', 'date': time.strftime('%Y-%m-%d'),
        'task': 'AI-generated English text detection; output ai_logit (higher = more likely machine text)',
        'file': 'model.onnx', 'input': 'features', 'output': 'ai_logit',
        'feature_names': ['ngram_char_mean', 'ngram_word_mean'] + [f'encoder_mean_{k}' for k in range(channels)],
        'features_used': ['ngram_char_mean', 'ngram_word_mean'] + [f'encoder_mean_{k}' for k in range(channels)],
        'ngram': {**ngram_card['ngram'], 'weights': '../2.0.0/' + ngram_card['ngram']['weights']},
        'encoder': {'file': 'encoder.onnx', 'sha256': hashlib.sha256(open(encoder_path, 'rb').read()).hexdigest(),
                    'token_bits': 16, 'channels': channels, 'input': 'rows', 'output': 'features'},
        'training': {
            'ngram': 'model 2.0.0 (training/v2/train.py), unchanged',
            'encoder': {'model': 'hashed-token embeddings (two rows per token, float16), 1-D convolutions with SiLU '
                                 '(the later ones residual), mean over the range, head 64 -> 1',
                        'embedding_width': config[0], 'channels': config[1], 'dilations': [1] + list(config[2]),
                        'steps': report['steps'], 'tokens_per_batch': report['tokens_per_batch'],
                        'crops_tokens': [32, 64, 128, 256, 512], 'optimiser': 'AdamW lr 2e-3 cosine, weight decay 0.01',
                        'token_dropout': 0.1, 'device': report['device'], 'torch': report['torch'],
                        'script': 'training/v21/train_neural.py'},
            'stacking': {'a_ngram': a, 'b_encoder': b, 'c': c,
                         'fit': 'logistic regression (balanced classes) on the calib split\'s two logits'},
        },
        'data': {
            'corpus': 'training/corpus/build_corpus.py (manifest: training/out/corpus/manifest.json)',
            'splits': 'as 2.0.0: sha1(group) % 100: <60 train, <75 calib, rest test',
            'counts': {sp: count(rows, sp, 'label') for sp in ('train', 'calib', 'test')},
        },
        'metrics': {'test_auroc_python': float(roc_auc_score(y[test], s[test])),
                    'test_auroc_ngram_alone': float(roc_auc_score(y[test], ngram[test])),
                    'test_auroc_encoder_alone': float(roc_auc_score(y[test], nn[test]))},
    }
    card['encoder']['reference'] = reference(weights, config[2], a, b, c + a * intercept)
    with open(os.path.join(MODEL_DIR, 'card.json'), 'w') as f:
        json.dump(card, f, indent=2)
        f.write('\n')
    print(f'stacking a={a:.3f} b={b:.3f} c={c:.3f}; test AUROC {card["metrics"]}', flush=True)


def main():
    rows, report, neural = load()
    if '--tables-only' not in sys.argv:
        export(rows, report, neural)
    if '--export-only' not in sys.argv:
        tables(rows, report, neural)


if __name__ == '__main__':
    main()
