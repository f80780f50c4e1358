"""Trains the AI-text detector 2.0.0: a logistic regression over hashed n-gram profiles (training/v2/dump-ngrams.mjs).

Usage (Debian's python3, sklearn and numpy from apt):
  /usr/bin/python3 packages/classifiers/training/v2/train.py            # fit on the train split, write the model
  /usr/bin/python3 packages/classifiers/training/v2/train.py --heldout  # leave-one-family-out and
                                                                        # leave-one-domain-out tables -> out/v2/heldout.json
  (--only=a,b: just those families or domains, merged into an existing heldout.json; `full` for the model trained
  on the whole train split. Every variant's scores of every row are written to out/v2/scores/)
The model: features are n-gram counts per character (character n-grams) and per word (word n-grams) in one hashed
table; the weight table is written as float16 (`ngram.weights.f16.gz`, to be multiplied by `scale`) with the intercept and scale in `ngram.json`.
The decision threshold and the length buckets are set afterwards by training/v2/calibrate.mjs, with the package's
own runtime code.
"""
import gzip
import hashlib
import json
import os
import sys
import time

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from scipy import sparse
from sklearn.linear_model import SGDClassifier
from sklearn.metrics import roc_auc_score

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, '..', 'out', 'v2')
# AI_TEXT_VERSION (default 2.0.0) names the model folder and the card; 3.0.0 was trained by this script on the corpus
# with HC3's question answering added (its held-out tables go to out/v3/heldout.json, with 2.0.0 beside).
VERSION = os.environ.get('AI_TEXT_VERSION', '2.0.0')
# 2.0.0 ships in this package; 3.0.0 (not the default) in @content-analysis/models-extra (training/paths.mjs modelDir).
MODEL_DIR = (os.path.join(HERE, '..', '..', 'models', 'ai-text', VERSION) if VERSION == '2.0.0' else
             os.path.join(HERE, '..', '..', '..', 'models-extra', 'models', 'ai-text', VERSION))
HELDOUT_DIR = os.environ.get('AI_TEXT_HELDOUT_DIR') or os.path.join(
    HERE, '..', 'out', 'v2' if VERSION == '2.0.0' else 'v' + VERSION.split('.')[0])
HASH_BITS = 21
# Features are multiplied by SCALE before the fit (counts per 1,000 characters or words): the regularisation then
# acts on weights of a sensible size. The exported weights have the scale folded in.
SCALE = 1000.0
ALPHA = float(os.environ.get('AI_TEXT_ALPHA', '2e-6'))
EPOCHS = int(os.environ.get('AI_TEXT_EPOCHS', '8'))
FAMILIES = ['gpt-3.5', 'gpt-4', 'claude', 'gemini-palm', 'llama', 'mistral-qwen-other', 'completion-gpt']


def load():
    rows = [json.loads(line) for line in open(os.path.join(OUT, 'rows.jsonl'))]
    raw = np.fromfile(os.path.join(OUT, 'ngrams.bin'), dtype=np.uint8)
    indptr = np.zeros(len(rows) + 1, dtype=np.int64)
    for i, r in enumerate(rows):
        indptr[i + 1] = indptr[i] + r['nnz']
    indices = np.empty(indptr[-1], dtype=np.int32)
    data = np.empty(indptr[-1], dtype=np.float32)
    for i, r in enumerate(rows):
        n = r['nnz']
        at = r['offset']
        indices[indptr[i]:indptr[i + 1]] = np.frombuffer(raw, dtype=np.uint32, count=n, offset=at)
        data[indptr[i]:indptr[i + 1]] = np.frombuffer(raw, dtype=np.float32, count=n, offset=at + 4 * n)
    X = sparse.csr_matrix((data * SCALE, indices, indptr), shape=(len(rows), 1 << HASH_BITS))
    return rows, X


# AI_TEXT_WEIGHTING: `balanced` (2.0.0: classes weighted to equal totals) or `domain` (3.0.0: each (domain, label)
# cell weighted by 1/sqrt(its size), then classes to equal totals: a domain written mostly by machines, such as the
# essays, no longer teaches the model its topic words as machine signal as strongly).
WEIGHTING = os.environ.get('AI_TEXT_WEIGHTING', 'balanced')
ROWS = None  # set by main(): the corpus rows, for the sample weights


def sample_weights(idx, y):
    if WEIGHTING == 'balanced':
        return None
    cells = {}
    for i in idx:
        k = (ROWS[i]['domain'], ROWS[i]['label'])
        cells[k] = cells.get(k, 0) + 1
    w = np.array([1.0 / np.sqrt(cells[(ROWS[i]['domain'], ROWS[i]['label'])]) for i in idx])
    for label in (0, 1):
        m = y == label
        w[m] *= (len(idx) / 2) / w[m].sum()
    return w


def fit(X, y, seed=0, idx=None):
    weights = sample_weights(idx, y) if idx is not None else None
    clf = SGDClassifier(loss='log_loss', alpha=ALPHA, max_iter=EPOCHS, tol=None, average=True,
                        class_weight='balanced' if weights is None else None, random_state=seed)
    clf.fit(X, y, sample_weight=weights)
    return clf


def scores(clf, X):
    return clf.decision_function(X)


def tpr_at_fpr(human, ai, fpr=0.01):
    if len(human) == 0 or len(ai) == 0:
        return None
    thr = np.quantile(human, 1 - fpr)
    return float(np.mean(ai > thr))


def auroc(human, ai):
    if len(human) == 0 or len(ai) == 0:
        return None
    return float(roc_auc_score(np.r_[np.zeros(len(human)), np.ones(len(ai))], np.r_[human, ai]))


def slice_report(rows, s, test_idx, ai_filter, calib_threshold):
    """AUROC and TPR@1%FPR of the AI test rows that ai_filter keeps against the human test rows of their domains."""
    ai = [i for i in test_idx if rows[i]['label'] == 1 and ai_filter(rows[i])]
    domains = sorted({rows[i]['domain'] for i in ai})
    out = {'n_ai': len(ai), 'domains': {}}
    human_all = [i for i in test_idx if rows[i]['label'] == 0 and rows[i]['domain'] in domains]
    out['n_human'] = len(human_all)
    out['auroc'] = auroc(s[human_all], s[ai])
    out['tpr_at_1pct_fpr'] = tpr_at_fpr(s[human_all], s[ai])
    out['tpr_at_calib_threshold'] = float(np.mean(s[ai] > calib_threshold)) if ai else None
    for d in domains:
        a = [i for i in ai if rows[i]['domain'] == d]
        h = [i for i in human_all if rows[i]['domain'] == d]
        out['domains'][d] = {'n_ai': len(a), 'n_human': len(h), 'auroc': auroc(s[h], s[a]),
                             'tpr_at_1pct_fpr': tpr_at_fpr(s[h], s[a])}
    return out


def calib_threshold(rows, s, idx, quantile=0.998, min_rows=25):
    """Highest per-domain `quantile` of human calib scores (domains with at least min_rows rows)."""
    by_domain = {}
    for i in idx:
        if rows[i]['label'] == 0:
            by_domain.setdefault(rows[i]['domain'], []).append(s[i])
    qs = {d: float(np.quantile(v, quantile)) for d, v in by_domain.items() if len(v) >= min_rows}
    return max(qs.values()), qs


def profile_threshold(human_scores, target=0.01, confidence=0.95):
    """The deployment-calibration rule (src/calibration/fprBound.ts, maxExceedances) on one pool of human scores: the
    (n-j)-th smallest, j the largest count with P(Binomial(n, target) <= j) <= 1 - confidence."""
    from scipy.stats import binom
    v = np.sort(np.asarray(human_scores, dtype=np.float64))
    n = len(v)
    j = -1
    while binom.cdf(j + 1, n, target) <= 1 - confidence:
        j += 1
    if j < 0:
        return float(v[-1])
    return float(v[n - 1 - j])


def baseline_scores(X, rows):
    """Raw ai_logit of the shipped 2.0.0 (its float16 weights and intercept) on every row, and its per-length-bucket
    shipped thresholds at each row's length (the runtime's humanLogit picks the bucket by the text's characters)."""
    d = os.path.join(HERE, '..', '..', 'models', 'ai-text', '2.0.0')
    card = json.load(open(os.path.join(d, 'card.json')))
    w = np.frombuffer(gzip.decompress(open(os.path.join(d, 'ngram.weights.f16.gz'), 'rb').read()), dtype=np.float16)
    s = X @ w.astype(np.float64) + card['training']['intercept']
    buckets = card['calibration']['buckets']
    thr = np.empty(len(rows))
    for i, r in enumerate(rows):
        b = buckets[0]
        for c in buckets:
            if r['chars'] >= c['min_chars']:
                b = c
        thr[i] = b['threshold']
    return s, thr


def heldout(rows, X):
    """Leave-one-family-out and leave-one-domain-out: per slice a model fitted on the train split without it; its
    threshold set on the calib split's human texts without the slice by the deployment-calibration rule (target 1%,
    confidence 0.95, one pool); AUROC, TPR at that threshold and the slice's human FPR there. Beside it, on the same
    test texts, the shipped 2.0.0 (which was trained with every slice) at its shipped thresholds."""
    y = np.array([r['label'] for r in rows])
    split = np.array([r['split'] for r in rows])
    train = np.where(split == 'train')[0]
    calib = np.where(split == 'calib')[0]
    test = np.where(split == 'test')[0]
    os.makedirs(HELDOUT_DIR, exist_ok=True)
    path = os.path.join(HELDOUT_DIR, 'heldout.json')
    only = next((a.split('=', 1)[1].split(',') for a in sys.argv if a.startswith('--only=')), None)
    results = json.load(open(path)) if only and os.path.exists(path) else {'families': {}, 'domains': {}}
    results.update({'version': VERSION, 'alpha': ALPHA, 'epochs': EPOCHS,
                    'threshold_rule': 'calib human texts without the slice, Clopper-Pearson rule, target 1%, '
                                      'confidence 0.95, one pool'})
    base, base_thr = baseline_scores(X, rows) if VERSION != '2.0.0' else (None, None)
    ai_domains = sorted({r['domain'] for r in rows if r['label'] == 1 and r['split'] == 'test'})
    human_only = sorted({r['domain'] for r in rows if r['split'] == 'test'} - set(ai_domains))
    # Every variant's scores of every row are kept (out/<v>/scores/) for models stacked on this one (2.1.0).
    score_dir = os.path.join(HELDOUT_DIR, 'scores')
    os.makedirs(score_dir, exist_ok=True)
    full = None
    if not only or 'full' in only:
        full = scores(fit(X[train], y[train], idx=train), X)
        np.save(os.path.join(score_dir, 'full.npy'), full.astype(np.float32))
    slices = [('families', v, 'family') for v in FAMILIES] + [('domains', v, 'domain') for v in ai_domains]
    # Human-only domains, left out as groups: MASC's 13 small written genres together (a few dozen test texts each).
    masc = [d for d in human_only if d not in ('movie-review', 'product-review', 'speeches')]
    human_groups = {d: {d} for d in human_only if d not in masc}
    if masc:
        human_groups['masc'] = set(masc)
    slices += [('human_domains', v, 'domain') for v in sorted(human_groups)]
    for kind, v, key in slices:
        if only and v not in only:
            continue
        members = human_groups[v] if kind == 'human_domains' else {v}
        keep = train[[rows[i][key] not in members for i in train]]
        t0 = time.time()
        if len(keep) == len(train):
            # Never in training (held-out sets): the model trained on everything has not seen it either.
            full = full if full is not None else scores(fit(X[train], y[train], idx=train), X)
            s = full
        else:
            s = scores(fit(X[keep], y[keep], idx=keep), X)
        cal_h = [i for i in calib if rows[i][key] not in members and rows[i]['label'] == 0]
        # 2.0.0's tables (its card) used the per-domain 99.8th-percentile rule: kept so that they re-run.
        thr = (calib_threshold(rows, s, [i for i in calib if rows[i][key] != v])[0] if VERSION == '2.0.0'
               else profile_threshold(s[cal_h]))
        if kind == 'human_domains':
            h = [i for i in test if rows[i]['label'] == 0 and rows[i]['domain'] in members]
            rep = {'members': sorted(members), 'n_human': len(h), 'human_fpr_at_threshold': float(np.mean(s[h] > thr)) if h else None}
            if base is not None:
                rep['base_human_fpr_at_threshold'] = float(np.mean(base[h] > base_thr[h])) if h else None
        else:
            rep = slice_report(rows, s, test, lambda r, v=v, key=key: r[key] == v, thr)
            if kind == 'domains':
                # Human text of the left-out domain at the threshold set without it.
                h = [i for i in test if rows[i]['label'] == 0 and rows[i]['domain'] == v]
                rep['human_fpr_at_threshold'] = float(np.mean(s[h] > thr)) if h else None
            if base is not None:
                ai = [i for i in test if rows[i]['label'] == 1 and rows[i][key] == v]
                hum = [i for i in test if rows[i]['label'] == 0 and rows[i]['domain'] in rep['domains']]
                rep['base'] = {'auroc': auroc(base[hum], base[ai]),
                               'tpr_at_threshold': float(np.mean(base[ai] > base_thr[ai])) if ai else None}
                if kind == 'domains':
                    h = [i for i in test if rows[i]['label'] == 0 and rows[i]['domain'] == v]
                    rep['base']['human_fpr_at_threshold'] = float(np.mean(base[h] > base_thr[h])) if h else None
                for d, dd in rep['domains'].items():
                    a = [i for i in ai if rows[i]['domain'] == d]
                    hh = [i for i in hum if rows[i]['domain'] == d]
                    dd['base_auroc'] = auroc(base[hh], base[a])
        rep['threshold'] = thr
        rep['never_trained'] = bool(len(keep) == len(train))
        np.save(os.path.join(score_dir, f'{key}-{v}.npy'), s.astype(np.float32))
        results.setdefault(kind, {})[v] = rep
        print(f'{kind} {v}: auroc {rep.get("auroc")} tpr@thr {rep.get("tpr_at_calib_threshold")} '
              f'fpr {rep.get("human_fpr_at_threshold")} base {rep.get("base", {}).get("auroc")} '
              f'(ai {rep.get("n_ai")}, human {rep["n_human"]}) {time.time() - t0:.0f}s', flush=True)
        with open(path, 'w') as f:
            json.dump(results, f, indent=1)


def export(rows, X):
    y = np.array([r['label'] for r in rows])
    train = np.where(np.array([r['split'] for r in rows]) == 'train')[0]
    t0 = time.time()
    clf = fit(X[train], y[train], idx=train)
    print(f'fit on {len(train)} train rows in {time.time() - t0:.0f}s', flush=True)
    w = clf.coef_[0].astype(np.float16)  # the runtime multiplies by `scale` (float16 would overflow)
    print('largest |weight|', float(np.abs(clf.coef_[0]).max()), flush=True)
    os.makedirs(MODEL_DIR, exist_ok=True)
    path = os.path.join(MODEL_DIR, 'ngram.weights.f16.gz')
    payload = gzip.compress(w.tobytes(), compresslevel=9, mtime=0)
    with open(path, 'wb') as f:
        f.write(payload)
    info = {
        'hash_bits': HASH_BITS, 'intercept': float(clf.intercept_[0]), 'alpha': ALPHA, 'epochs': EPOCHS,
        'sha256': hashlib.sha256(payload).hexdigest(), 'nonzero_weights': int(np.count_nonzero(w)),
        'train_rows': int(len(train)),
    }
    # The head adds the intercept to the two means, which already carry the weights.
    export_onnx(np.ones(2, dtype=np.float32), float(clf.intercept_[0]), os.path.join(MODEL_DIR, 'model.onnx'))
    write_card(rows, info)


def export_onnx(weights, bias, path):
    """The head: ai_logit = bias + weights . [character mean, word mean]."""
    graph = helper.make_graph(
        [helper.make_node('MatMul', ['features', 'weights'], ['product']),
         helper.make_node('Add', ['product', 'bias'], ['ai_logit'])],
        'ai_text_ngram_head',
        [helper.make_tensor_value_info('features', TensorProto.FLOAT, ['N', len(weights)])],
        [helper.make_tensor_value_info('ai_logit', TensorProto.FLOAT, ['N', 1])],
        [numpy_helper.from_array(weights.reshape(-1, 1), 'weights'),
         numpy_helper.from_array(np.array([bias], dtype=np.float32), 'bias')],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid('', 13)], producer_name='training/v2/train.py')
    model.ir_version = 7
    onnx.checker.check_model(model)
    onnx.save(model, path)


def count(rows, split, key):
    out = {}
    for r in rows:
        if r['split'] == split:
            k = f"{r[key]}:{'ai' if r['label'] else 'human'}" if key != 'label' else ('ai' if r['label'] else 'human')
            out[k] = out.get(k, 0) + 1
    return dict(sorted(out.items()))


def write_card(rows, info):
    """card.json without calibration (training/v2/calibrate.mjs adds it)."""
    card = {
        'id': 'ai-text', 'version': VERSION, 'date': time.strftime('%Y-%m-%d'),
        'task': 'AI-generated English text detection; output ai_logit (higher = more likely machine text)',
        'file': 'model.onnx', 'input': 'features', 'output': 'ai_logit',
        'feature_names': ['ngram_char_mean', 'ngram_word_mean'],
        'features_used': ['ngram_char_mean', 'ngram_word_mean'],
        'ngram': {'weights': 'ngram.weights.f16.gz', 'sha256': info['sha256'], 'hash_bits': HASH_BITS,
                  'char_orders': [2, 3, 4, 5], 'word_orders': [1, 2], 'scale': SCALE},
        'training': {'model': 'logistic regression (SGD, log loss, averaged, balanced classes) over the hashed n-gram '
                              'profile' + ('' if WEIGHTING == 'balanced' else
                                           '; rows weighted 1/sqrt(size of their (domain, label) cell), classes '
                                           'to equal totals'),
                     'weighting': WEIGHTING,
                     'alpha': ALPHA,
                     'epochs': EPOCHS, 'feature_scale': SCALE, 'intercept': info['intercept'],
                     'nonzero_weights': info['nonzero_weights'], 'max_train_chars': 3000},
        'data': {
            'corpus': 'training/corpus/build_corpus.py (manifest: training/out/corpus/manifest.json)',
            'splits': 'sha1(group) % 100: <60 train, <75 calib, rest test; groups join every text derived from one '
                      'source document or prompt, and near duplicates across sets',
            'counts': {s: count(rows, s, 'label') for s in ('train', 'calib', 'test')},
            'train_families': count(rows, 'train', 'family'),
            'train_domains': count(rows, 'train', 'domain'),
        },
        'metrics': {},
    }
    with open(os.path.join(MODEL_DIR, 'card.json'), 'w') as f:
        json.dump(card, f, indent=2)
        f.write('\n')


def main():
    global ROWS
    rows, X = load()
    ROWS = rows
    print(f'{len(rows)} rows, {X.nnz} non-zeros', flush=True)
    if '--heldout' in sys.argv:
        heldout(rows, X)
    else:
        export(rows, X)


if __name__ == '__main__':
    main()
