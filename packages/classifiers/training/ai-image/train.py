"""Trains the AI-image probes (model versions 1 to 5) on the feature blocks extract.mjs wrote, measures them
leaving whole generator families out, calibrates them, and exports each as models/ai-image/<version>/probe.onnx
with its card.json.

Run (from packages/classifiers, after `node training/ai-image/names.mjs` and `node training/ai-image/extract.mjs`):
    /usr/bin/python3 training/ai-image/train.py          (Debian's python3 with sklearn and onnx)

Protocol
- Training data: ../shared/datasets/images/ai-vs-real-train, three views per image (centre, top-left and
  bottom-right crops, all normalised the same way: resize, crop, JPEG q90 round trip; see src/aiImage/prepare.ts).
- Leave-generator-out: one fold per AI generator family (all Stable Diffusion versions are one family); the real
  images are spread over the same number of folds by their content group. Each fold's model is trained without
  that family and without those real groups, and scores the centre view of both. Every image thus gets a score
  from a model that never saw its generator (or, for a real image, its content group).
- The regularisation strength is chosen inside each outer fold, by the same leave-family-out scheme on the
  training families only, so the held-out family plays no part in any choice.
- Calibration: Platt scaling of the out-of-fold logits (two parameters); the shipped threshold is probability
  0.5 (human score 50). The figures at that threshold are therefore measured on the same out-of-fold scores the
  two Platt parameters were fitted on.
- The shipped probe is trained on all images with the C most often chosen in the outer folds.
- Held-out sets never used for training or choices: cifake-subset (SD 1.4 and CIFAR-10, 32 px, upscaled), the
  camera photos of exif-samples, and CASIA v1 photos; see evaluationImages() in datasets.mjs.
"""
import collections
import datetime
import hashlib
import json
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, '..', 'out', 'ai-image')
# Versions 1 to 5 (5 answers as legacy-5) live in @content-analysis/models-extra.
MODELS = os.path.join(HERE, '..', '..', '..', 'models-extra', 'models', 'ai-image')

VERSIONS = {
    '1': dict(blocks=[('handcrafted', None)], grid=[0.01, 0.1, 1.0],
              summary='Handcrafted spectral and noise-residual features (26) with logistic regression.'),
    '2': dict(blocks=[('mobilenet_v2', ['out_relu/mean/'])], grid=[0.0003, 0.003, 0.03],
              summary='Linear probe on the last pooled layer of MobileNetV2 (1280 channel means).'),
    '3': dict(blocks=[('mobilenet_v2', None)], grid=[0.0003, 0.003, 0.03],
              summary='Linear probe on six stages of MobileNetV2 (channel means and deviations, 3312 features).'),
    '4': dict(blocks=[('inception_v3', None)], grid=[0.0003, 0.003, 0.03],
              summary='Linear probe on five stages of InceptionV3 (channel means and deviations, 8256 features).'),
    '5': dict(blocks=[('mobilenet_v2', None), ('inception_v3', None), ('handcrafted', None)], grid=[0.0003, 0.003, 0.03],
              summary='Fusion: one linear probe on MobileNetV2, InceptionV3 and the handcrafted features (11594).'),
}


def load():
    """Rows and feature blocks of the training views followed by the held-out images."""
    names = json.load(open(os.path.join(OUT, 'names.json')))
    rows, blocks = [], {}
    for part in ('train', 'eval'):
        meta = json.load(open(os.path.join(OUT, f'{part}-rows.json')))
        n = len(meta['rows'])
        rows += meta['rows']
        for block, width in meta['blocks'].items():
            assert width == len(names['names'][block]), block
            x = np.fromfile(os.path.join(OUT, f'{part}-{block}.f32'), dtype=np.float32).reshape(n, width)
            blocks[block] = x if block not in blocks else np.concatenate([blocks[block], x])
    return rows, blocks, names


def columns(spec, blocks, names):
    """The feature matrix of a version, and its column layout for the card: [{block, start, end}]."""
    parts, layout = [], []
    for block, prefixes in spec['blocks']:
        block_names = names['names'][block]
        for prefix in (prefixes or [None]):
            idx = [i for i, nm in enumerate(block_names) if prefix is None or nm.startswith(prefix)]
            assert idx == list(range(idx[0], idx[-1] + 1)), 'selected columns must be contiguous'
            parts.append(blocks[block][:, idx[0]:idx[-1] + 1])
            layout.append(dict(block=block, start=idx[0], end=idx[-1] + 1))
    return np.concatenate(parts, axis=1).astype(np.float64), layout


def fit(x, y, c):
    mean = x.mean(axis=0)
    std = x.std(axis=0) + 1e-6
    model = LogisticRegression(C=c, max_iter=3000, class_weight='balanced')
    model.fit((x - mean) / std, y)
    return mean, std, model


def logit(params, x):
    mean, std, model = params
    return model.decision_function((x - mean) / std)


def folds_of(rows, train_idx):
    """Fold id per row of ai-vs-real-train: one per AI family; real groups spread over the same count by hash."""
    families = sorted({rows[i]['family'] for i in train_idx if rows[i]['label'] == 1})
    fold = {}
    for i in train_idx:
        r = rows[i]
        if r['label'] == 1:
            fold[i] = families.index(r['family'])
        else:
            h = int(hashlib.sha256(r['group'].encode()).hexdigest()[:8], 16)
            fold[i] = h % len(families)
    return families, fold


def auroc(y, s):
    return float(roc_auc_score(y, s)) if len(set(y)) == 2 else None


def choose_c(x, y, fold_ids, grid, rows_images):
    """C by leave-family-out on the given rows only (inner folds: the distinct fold ids present, at most 4 groups)."""
    present = sorted(set(fold_ids))
    groups = [present[k::4] for k in range(min(4, len(present)))]
    best, best_auc = grid[0], -1
    for c in grid:
        scores = np.zeros(len(y))
        for g in groups:
            test = np.isin(fold_ids, g)
            params = fit(x[~test], y[~test], c)
            scores[test] = logit(params, x[test])
        # one score per image: the centre view
        centre = rows_images
        a = roc_auc_score(y[centre], scores[centre])
        if a > best_auc:
            best, best_auc = c, a
    return best


def platt(scores, y):
    lr = LogisticRegression(C=1e6, max_iter=1000)
    lr.fit(scores.reshape(-1, 1), y)
    return float(lr.coef_[0, 0]), float(lr.intercept_[0])


def sigmoid(z):
    return 1 / (1 + np.exp(-z))


def export(version, spec, layout, params, a, b, card):
    mean, std, model = params
    w = model.coef_[0] / std
    bias = model.intercept_[0] - float(np.dot(model.coef_[0], mean / std))
    w, bias = a * w, a * bias + b  # Platt folded in: p = sigmoid(a * logit + b)
    d = len(w)
    graph = helper.make_graph(
        [helper.make_node('Gemm', ['features', 'weight', 'bias'], ['logit']),
         helper.make_node('Sigmoid', ['logit'], ['ai_probability'])],
        f'ai-image-{version}',
        [helper.make_tensor_value_info('features', TensorProto.FLOAT, ['batch', d])],
        [helper.make_tensor_value_info('ai_probability', TensorProto.FLOAT, ['batch', 1])],
        [numpy_helper.from_array(w.astype(np.float32).reshape(d, 1), 'weight'),
         numpy_helper.from_array(np.array([bias], dtype=np.float32), 'bias')],
    )
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid('', 13)], producer_name='content-analysis')
    m.ir_version = 8
    onnx.checker.check_model(m)
    folder = os.path.join(MODELS, version)
    os.makedirs(folder, exist_ok=True)
    onnx.save(m, os.path.join(folder, 'probe.onnx'))
    with open(os.path.join(folder, 'card.json'), 'w') as f:
        json.dump(card, f, indent=2)
        f.write('\n')


def rates(y, p, threshold=0.5):
    y = np.asarray(y)
    flagged = np.asarray(p) >= threshold
    tpr = float(flagged[y == 1].mean()) if (y == 1).any() else None
    fpr = float(flagged[y == 0].mean()) if (y == 0).any() else None
    return tpr, fpr


def main():
    rows, blocks, names = load()
    only = sys.argv[1:] or list(VERSIONS)
    train_idx = [i for i, r in enumerate(rows) if r['dataset'] == 'ai-vs-real-train']
    eval_idx = [i for i, r in enumerate(rows) if r['dataset'] != 'ai-vs-real-train']
    families, fold = folds_of(rows, train_idx)
    tr = np.array(train_idx)
    fold_ids = np.array([fold[i] for i in train_idx])
    y_tr = np.array([rows[i]['label'] for i in train_idx])
    centre = np.array([rows[i]['position'] == 'centre' for i in train_idx])
    report = {}
    for version in only:
        spec = VERSIONS[version]
        x_all, layout = columns(spec, blocks, names)
        x = x_all[tr]
        oof = np.full(len(train_idx), np.nan)
        chosen = []
        for f in range(len(families)):
            test = fold_ids == f
            c = choose_c(x[~test], y_tr[~test], fold_ids[~test], spec['grid'], centre[~test])
            chosen.append(c)
            params = fit(x[~test], y_tr[~test], c)
            oof[test] = logit(params, x[test])
        s, yy = oof[centre], y_tr[centre]
        fam = np.array([rows[i]['family'] for i in train_idx])[centre]
        a, b = platt(s, yy)
        p = sigmoid(a * s + b)
        tpr, fpr = rates(yy, p)
        per_family = {}
        for name in families:
            mask = fam == name
            per_family[name] = dict(n=int(mask.sum()), detected=round(float((p[mask] >= 0.5).mean()), 3),
                                    auroc_vs_real=round(auroc(np.r_[np.ones(mask.sum()), np.zeros((yy == 0).sum())],
                                                              np.r_[p[mask], p[yy == 0]]), 3))
        # Stricter operating points: the lowest probability threshold whose out-of-fold FPR is at most 5% / 1%.
        operating = {}
        real_p = np.sort(p[yy == 0])
        for target in (0.05, 0.01):
            t = float(real_p[int(np.ceil((1 - target) * len(real_p))) - 1]) + 1e-6
            operating[f'fpr_{target}'] = dict(threshold=round(t, 4), tpr=round(float((p[yy == 1] >= t).mean()), 3),
                                              fpr=round(float((p[yy == 0] >= t).mean()), 3))
        c_final = collections.Counter(chosen).most_common(1)[0][0]
        params = fit(x, y_tr, c_final)
        external = {}
        ev = np.array(eval_idx)
        pe = sigmoid(a * logit(params, x_all[ev]) + b)
        for ds in sorted({rows[i]['dataset'] for i in eval_idx}):
            mask = np.array([rows[i]['dataset'] == ds for i in eval_idx])
            ye = np.array([rows[i]['label'] for i in eval_idx])[mask]
            t, fp = rates(ye, pe[mask])
            external[ds] = dict(n_ai=int((ye == 1).sum()), n_real=int((ye == 0).sum()),
                                auroc=None if auroc(ye, pe[mask]) is None else round(auroc(ye, pe[mask]), 3),
                                tpr=None if t is None else round(t, 3), fpr=None if fp is None else round(fp, 3),
                                fpr_at_strict=None if fp is None else {k: round(rates(ye, pe[mask], v['threshold'])[1], 3)
                                                                       for k, v in operating.items()})
        metrics = dict(
            leave_generator_out=dict(auroc=round(auroc(yy, s), 3), tpr=round(tpr, 3), fpr=round(fpr, 3),
                                     n_ai=int((yy == 1).sum()), n_real=int((yy == 0).sum()),
                                     c_per_fold=chosen, per_family=per_family, stricter_thresholds=operating),
            held_out_sets=external,
        )
        card = dict(
            id='ai-image', version=version, date=datetime.date.today().isoformat(),
            task='AI-generated image detection (probability that the pixels were generated)',
            summary=spec['summary'], file='probe.onnx', input='features', output='ai_probability',
            feature_blocks=layout, feature_count=int(x.shape[1]),
            backbones={blk: dict(source='npm nsfwjs 4.4.0 (MIT)', sha256=names['digests'][blk])
                       for blk, _ in spec['blocks'] if blk != 'handcrafted'},
            preprocessing='src/aiImage/prepare.ts: orient, flatten alpha on white, sRGB; shorter side to 256 '
                          '(InceptionV3: 342), centre crop 256 (MobileNetV2 uses its centre 224; InceptionV3 a '
                          '299 crop), JPEG q90 4:2:0 round trip; inputs scaled to [0, 1].',
            threshold=dict(ai_probability=0.5, human_score=50),
            calibration=dict(method='Platt scaling of leave-generator-out logits', a=round(a, 6), b=round(b, 6)),
            training=dict(C=c_final, images=int(centre.sum()), views=int(len(train_idx)),
                          regulariser='L2 logistic regression, class-balanced, standardised features'),
            data=dict(train='ai-vs-real-train (695 images: 282 AI from 12 generator families, 413 real photos)',
                      families=families),
            metrics=metrics,
        )
        export(version, spec, layout, params, a, b, card)
        report[version] = metrics
        lgo = metrics['leave_generator_out']
        print(f"version {version}: leave-generator-out AUROC {lgo['auroc']} TPR {lgo['tpr']} FPR {lgo['fpr']} "
              f"(C {c_final}); held out: " + ', '.join(f"{k}: AUROC {v['auroc']} TPR {v['tpr']} FPR {v['fpr']}"
                                                       for k, v in external.items()), flush=True)
    json.dump(report, open(os.path.join(OUT, 'report.json'), 'w'), indent=1)


# Ablations (not shipped): `train.py --ablation mn-early inc-early both-early` writes to out/ai-image/ablations/.
ABLATIONS = {
    'mn-early': dict(blocks=[('mobilenet_v2', ['block_2_add/', 'block_5_add/', 'block_9_add/'])], grid=[0.001, 0.01, 0.1], summary=''),
    'inc-early': dict(blocks=[('inception_v3', ['mixed0/', 'mixed2/', 'mixed4/'])], grid=[0.0003, 0.003, 0.03], summary=''),
    'both-early': dict(blocks=[('mobilenet_v2', ['block_2_add/', 'block_5_add/', 'block_9_add/']), ('inception_v3', ['mixed0/', 'mixed2/', 'mixed4/'])], grid=[0.0003, 0.003, 0.03], summary=''),
}
if '--ablation' in sys.argv:
    sys.argv.remove('--ablation')
    VERSIONS.update(ABLATIONS)
    MODELS = os.path.join(OUT, 'ablations')

if __name__ == '__main__':
    main()
