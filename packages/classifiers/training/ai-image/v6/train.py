"""Trains AI-image model version 6 or 7 (the same recipe; 7 on the corpus with the sources added since) on the
artefact features extract.mjs wrote, measures it leaving whole generator families and whole sources out, calibrates
its threshold on real photos held apart, and exports models/ai-image/<version>/probe.onnx with card.json.

Run (from packages/classifiers, after build-corpus.mjs and extract.mjs):
    /usr/bin/python3 training/ai-image/v6/train.py --version 7 [--model lr|mlp|both]   (Debian's python3: sklearn, onnx, torch)
On a lent GPU machine (which has no corpus): `train.py --write-pack .gpu/v7.npz` here (rows and float16 features,
33 MB), carry it, and run `V6_PACK=.gpu/v7.npz python3 train.py --version 7 ...` there (version 7 was trained so).

Protocol
- Every image appears three times, as published, as shared and reduced (extract.mjs); all rows of an image always
  fall on the same side of every split. `--train-processings` adds `enlarged` to what the models learn from (an
  experiment); the tables and the threshold are always measured on the three.
- Calibration split: 15% of the real images of every source (by SHA-256; the manifest's `split` column, which
  build-corpus.mjs writes), never trained on; the shipped threshold
  is the lowest logit that flags at most 1.5% of them and at most 5% of each source's (targets: 2% of real photos,
  5% of every photo source).
- Leave-family-out: for each AI generator family (families of fewer than 20 images form one fold), a model trained without it and without one fold of the real
  images (5 folds by SHA-256, taken in turn); the family is ranked against that real fold by the same model.
- Leave-source-out: for each source repository, a model trained without it (and, for an AI source, without one
  real fold, ranked as above); a real source is ranked against the leave-family-out scores of all AI images and its
  false positive rate at the threshold is counted.
- The model type (logistic regression or a one-hidden-layer network) and its regularisation are chosen by the
  mean leave-family-out AUROC; the shipped model is then trained on every image outside the calibration split.
"""
import argparse
import csv
import datetime
import glob
import hashlib
import json
import os

import numpy as np
import onnx
import torch
from onnx import TensorProto, helper, numpy_helper
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, '..', '..', 'out', 'ai-image-v6')
# Versions 6 and 7 live in @content-analysis/models-extra.
MODELS = os.path.join(HERE, '..', '..', '..', '..', 'models-extra', 'models', 'ai-image')
TARGET_FPR = 0.015
SOURCE_FPR = 0.05
REAL_FOLDS = 5
MIN_FAMILY = 20
HIDDEN = int(os.environ.get('V6_HIDDEN', '64'))
# The networks train on the GPU when one is there (a lent machine: see --write-pack), else on 2 CPU threads.
DEVICE = torch.device('cuda' if torch.cuda.is_available() else 'cpu')
torch.set_num_threads(2)


def balanced_threshold(logits, sources):
    """The lowest logit that flags at most TARGET_FPR of the real photos overall and SOURCE_FPR of each source's."""
    t = np.quantile(logits, 1 - TARGET_FPR)
    for s_id in set(sources):
        t = max(t, np.quantile(logits[sources == s_id], 1 - SOURCE_FPR))
    return float(t)


def frac(text, salt=''):
    return int(hashlib.sha256((salt + text).encode()).hexdigest()[:8], 16) / 2**32


def write_pack(view, path):
    """The rows and features (float16) of one view, as `load` gives them, in one file small enough to carry to a
    lent GPU machine (which has no corpus): there `V6_PACK=<path> train.py ...` trains on it."""
    rows, x, names = load(view)
    np.savez_compressed(path, x=x.astype(np.float16), rows=np.frombuffer(json.dumps(rows).encode(), np.uint8),
                        names=np.frombuffer(json.dumps(names).encode(), np.uint8))
    print('wrote', path, x.shape)


def load(view):
    """Rows and features of one view's dumps (extract.mjs: `rows-<tag>.json`, tags of the native view start 'native_'),
    restricted to the images of the current manifest (a rebuilt corpus can drop an image), each with its manifest
    `split`; from the pack that V6_PACK names when it is set (write_pack)."""
    if os.environ.get('V6_PACK'):
        pack = np.load(os.environ['V6_PACK'])
        return json.loads(pack['rows'].tobytes()), pack['x'].astype(np.float64), json.loads(pack['names'].tobytes())
    rows, parts, names = [], [], None
    paths = sorted(glob.glob(os.path.join(OUT, 'rows-*.json')))
    paths = [p for p in paths if os.path.basename(p).startswith('rows-native_') == (view == 'native')]
    with open(os.path.join(OUT, 'manifest.csv'), newline='') as f:
        split = {r['file']: r['split'] for r in csv.DictReader(f)}
    for path in paths:
        meta = json.load(open(path))
        names = meta['names']
        tag = os.path.basename(path)[len('rows-'):-len('.json')]
        x = np.fromfile(os.path.join(OUT, f'features-{tag}.f32'), dtype=np.float32).reshape(len(meta['rows']), len(names))
        keep = [i for i, r in enumerate(meta['rows']) if r['file'] in split]
        rows += [dict(meta['rows'][i], split=split[meta['rows'][i]['file']]) for i in keep]
        parts.append(x[keep])
    return rows, np.concatenate(parts).astype(np.float64), names


def transform_mask(names):
    """Columns that are probabilities (co-occurrences, NPR): taken as square roots (Hellinger) before scaling."""
    return np.array([n.split('/')[-1].startswith(('cooc', 'npr')) for n in names])


def prepare(x, mask):
    z = x.copy()
    z[:, mask] = np.sqrt(np.maximum(z[:, mask], 0))
    return z


class Scaler:
    def __init__(self, z):
        self.mean = z.mean(0)
        self.std = z.std(0) + 1e-6

    def __call__(self, z):
        return (z - self.mean) / self.std


def fit_lr(z, y, c):
    m = LogisticRegression(C=c, max_iter=3000, class_weight='balanced')
    m.fit(z, y)
    return dict(kind='lr', w=m.coef_[0].copy(), b=float(m.intercept_[0]))


def fit_mlp(z, y, wd, hidden=HIDDEN, epochs=int(os.environ.get("V6_EPOCHS", "20")), seed=int(os.environ.get("V6_SEED", "0"))):
    torch.manual_seed(seed)
    xt = torch.tensor(z, dtype=torch.float32, device=DEVICE)
    yt = torch.tensor(y, dtype=torch.float32, device=DEVICE)
    pos = float(y.mean())
    weight = torch.where(yt > 0.5, torch.tensor(0.5 / pos, device=DEVICE), torch.tensor(0.5 / (1 - pos), device=DEVICE))
    net = torch.nn.Sequential(torch.nn.Dropout(0.1), torch.nn.Linear(z.shape[1], hidden), torch.nn.ReLU(), torch.nn.Dropout(0.3),
                              torch.nn.Linear(hidden, 1)).to(DEVICE)
    opt = torch.optim.AdamW(net.parameters(), lr=2e-3, weight_decay=wd)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, epochs)
    n = len(y)
    for _ in range(epochs):
        net.train()
        order = torch.randperm(n, device=DEVICE)
        for i in range(0, n, 256):
            idx = order[i:i + 256]
            loss = torch.nn.functional.binary_cross_entropy_with_logits(net(xt[idx])[:, 0], yt[idx], weight=weight[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
        sched.step()
    net.eval()
    return dict(kind='mlp', net=net.cpu())


def logits(model, z):
    if model['kind'] == 'lr':
        return z @ model['w'] + model['b']
    with torch.no_grad():
        return model['net'](torch.tensor(z, dtype=torch.float32))[:, 0].numpy().astype(np.float64)


def train(x, y, spec, mask):
    z = prepare(x, mask)
    scaler = Scaler(z)
    z = scaler(z)
    model = fit_lr(z, y, spec['c']) if spec['kind'] == 'lr' else fit_mlp(z, y, spec['wd'])
    return scaler, model


def score(fitted, x, mask):
    scaler, model = fitted
    return logits(model, scaler(prepare(x, mask)))


def auroc(pos, neg):
    if len(pos) == 0 or len(neg) == 0:
        return None
    return float(roc_auc_score(np.r_[np.ones(len(pos)), np.zeros(len(neg))], np.r_[pos, neg]))


def evaluate(spec, rows, x, y, mask, use, real_fold, fit_rows, eval_rows):
    """Leave-family-out and leave-source-out scores of one model spec (trained on `fit_rows`, measured on
    `eval_rows`: masks of processings). Returns per-row logits and tables."""
    fam = np.array([r['family'] for r in rows])
    src = np.array([r['source'] for r in rows])
    families = sorted(set(fam[(y == 1) & use]))
    lofo, lofo_scores = {}, np.full(len(rows), np.nan)
    real_sum, real_n = np.zeros(len(rows)), np.zeros(len(rows))
    for i, f in enumerate(families):
        k = i % REAL_FOLDS
        held_real = use & (y == 0) & (real_fold == k)
        train_idx = use & fit_rows & ~(fam == f) & ~held_real
        fitted = train(x[train_idx], y[train_idx], spec, mask)
        held_real &= eval_rows
        test = use & eval_rows & ((fam == f) | held_real)
        s = score(fitted, x[test], mask)
        lofo_scores[test & (fam == f)] = s[(fam[test] == f)]
        real_sum[held_real] += s[y[test] == 0]
        real_n[held_real] += 1
        lofo[f] = dict(s_ai=s[y[test] == 1], s_real=s[y[test] == 0], idx_ai=np.where(test & (fam == f))[0])
    real_oof = np.where(real_n > 0, real_sum / np.maximum(real_n, 1), np.nan)
    loso = {}
    for j, s_id in enumerate(sorted(set(src[use]))):
        is_ai = bool(y[use & (src == s_id)][0] == 1)
        k = j % REAL_FOLDS
        held_real = use & (y == 0) & (real_fold == k) & (src != s_id) if is_ai else np.zeros(len(rows), bool)
        train_idx = use & fit_rows & (src != s_id) & ~held_real
        fitted = train(x[train_idx], y[train_idx], spec, mask)
        test = use & eval_rows & ((src == s_id) | held_real)
        s = score(fitted, x[test], mask)
        loso[s_id] = dict(is_ai=is_ai, s_src=s[src[test] == s_id], s_real=s[(src[test] != s_id)],
                          idx=np.where(test & (src == s_id))[0])
    return lofo, loso, lofo_scores, real_oof


def summarise(lofo, loso, lofo_scores, rows, y, use, threshold, threshold_without=None):
    """Tables at `threshold` over the rows `use` marks (outside the calibration split, in the processings measured);
    a left-out real source is counted at `threshold_without[source]`, the same rule applied without that source's
    photos, so that its false positive rate is measured on photos no choice saw."""
    threshold_without = threshold_without or {}
    ai_oof = lofo_scores[use & (y == 1)]
    proc = np.array([r['processing'] for r in rows])
    fam_table = {}
    for f, d in lofo.items():
        p = proc[d['idx_ai']]
        fam_table[f] = dict(n=int((p == 'original').sum()), auroc=auroc(d['s_ai'], d['s_real']),
                            **{f'auroc_{k}': auroc(d['s_ai'][p == k], d['s_real']) for k in sorted(set(p))},
                            tpr=float((d['s_ai'] >= threshold).mean()))
    src_table = {}
    for s_id, d in loso.items():
        if d['is_ai']:
            src_table[s_id] = dict(kind='ai', n=int((proc[d['idx']] == 'original').sum()), auroc=auroc(d['s_src'], d['s_real']),
                                   tpr=float((d['s_src'] >= threshold).mean()))
        else:
            p = proc[d['idx']]
            src_table[s_id] = dict(kind='real', n=int((p == 'original').sum()), auroc=auroc(ai_oof, d['s_src']),
                                   fpr=float((d['s_src'] >= threshold_without.get(s_id, threshold)).mean()),
                                   fpr_by_processing={k: float((d['s_src'][p == k] >= threshold_without.get(s_id, threshold)).mean())
                                                      for k in sorted(set(p))})
    mean = lambda t: float(np.mean([v['auroc'] for v in t.values() if v['auroc'] is not None]))
    low = lambda t: min((v['auroc'], k) for k, v in t.items() if v['auroc'] is not None)
    return dict(families=fam_table, sources=src_table, lofo_mean=mean(fam_table), lofo_min=low(fam_table),
                loso_mean=mean(src_table), loso_min=low(src_table))


def export(spec, fitted, mask, names, threshold, platt_a, card, model_dir):
    scaler, model = fitted
    d = len(names)
    nodes, inits = [], []
    m = mask.astype(np.float32)
    inits += [numpy_helper.from_array(m, 'hellinger_mask'), numpy_helper.from_array(1 - m, 'plain_mask'),
              numpy_helper.from_array(scaler.mean.astype(np.float32), 'mean'),
              numpy_helper.from_array(scaler.std.astype(np.float32), 'std')]
    nodes += [helper.make_node('Relu', ['features'], ['pos']), helper.make_node('Sqrt', ['pos'], ['root']),
              helper.make_node('Mul', ['root', 'hellinger_mask'], ['a']), helper.make_node('Mul', ['features', 'plain_mask'], ['b']),
              helper.make_node('Add', ['a', 'b'], ['t']), helper.make_node('Sub', ['t', 'mean'], ['c']),
              helper.make_node('Div', ['c', 'std'], ['z'])]
    if model['kind'] == 'lr':
        inits += [numpy_helper.from_array(model['w'].astype(np.float32).reshape(d, 1), 'w'),
                  numpy_helper.from_array(np.array([model['b']], np.float32), 'b0')]
        nodes += [helper.make_node('Gemm', ['z', 'w', 'b0'], ['logit'])]
    else:
        lin1, lin2 = model['net'][1], model['net'][4]
        inits += [numpy_helper.from_array(lin1.weight.detach().numpy().T.copy(), 'w1'),
                  numpy_helper.from_array(lin1.bias.detach().numpy().copy(), 'b1'),
                  numpy_helper.from_array(lin2.weight.detach().numpy().T.copy(), 'w2'),
                  numpy_helper.from_array(lin2.bias.detach().numpy().copy(), 'b2')]
        nodes += [helper.make_node('Gemm', ['z', 'w1', 'b1'], ['h0']), helper.make_node('Relu', ['h0'], ['h']),
                  helper.make_node('Gemm', ['h', 'w2', 'b2'], ['logit'])]
    # Calibrated probability: sigmoid(a * (logit - threshold)), so the shipped threshold is probability 0.5.
    inits += [numpy_helper.from_array(np.array([threshold], np.float32), 'threshold'),
              numpy_helper.from_array(np.array([platt_a], np.float32), 'slope')]
    nodes += [helper.make_node('Sub', ['logit', 'threshold'], ['shifted']), helper.make_node('Mul', ['shifted', 'slope'], ['scaled']),
              helper.make_node('Sigmoid', ['scaled'], ['ai_probability'])]
    graph = helper.make_graph(nodes, f"ai_image_v{card['version']}",
                              [helper.make_tensor_value_info('features', TensorProto.FLOAT, ['batch', d])],
                              [helper.make_tensor_value_info('ai_probability', TensorProto.FLOAT, ['batch', 1])], inits)
    onnx_model = helper.make_model(graph, opset_imports=[helper.make_opsetid('', 13)], producer_name='content-analysis')
    onnx_model.ir_version = 7
    onnx.checker.check_model(onnx_model)
    os.makedirs(model_dir, exist_ok=True)
    onnx.save(onnx_model, os.path.join(model_dir, 'probe.onnx'))
    json.dump(card, open(os.path.join(model_dir, 'card.json'), 'w'), indent=1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--model', default='both', choices=['lr', 'mlp', 'both'])
    ap.add_argument('--no-export', action='store_true')
    ap.add_argument('--write-pack', metavar='PATH', help="write the view's rows and features to PATH (.npz) and stop")
    ap.add_argument('--view', default='native', choices=['native', 'reduced512', 'both'],
                    help='which dump of extract.mjs (V6_VIEW) to train on; the classifier reads the native view')
    ap.add_argument('--version', default='6', help='the model version written (models/ai-image/<version>/)')
    ap.add_argument('--train-processings', default='original,shared,reduced',
                    help="extract.mjs processings the models learn from (version 7: and 'enlarged')")
    ap.add_argument('--eval-processings', default='original,shared,reduced',
                    help='processings the tables and the threshold are measured on (the same for every version)')
    args = ap.parse_args()
    model_dir = os.path.join(MODELS, args.version)
    if args.write_pack:
        return write_pack(args.view, args.write_pack)
    if args.view == 'both':
        rows, x, names = load('native')
        rows2, x2, names2 = load('reduced512')
        where = {(r['file'], r['processing']): i for i, r in enumerate(rows2)}
        keep = [i for i, r in enumerate(rows) if (r['file'], r['processing']) in where]
        rows, x = [rows[i] for i in keep], np.concatenate([x[keep], x2[[where[(rows[i]['file'], rows[i]['processing'])] for i in keep]]], axis=1)
        names = [f'native/{n}' for n in names] + [f'reduced/{n}' for n in names2]
    else:
        rows, x, names = load(args.view)
    # Families of fewer than MIN_FAMILY images are left out together, as one fold ('other-small').
    counts = {}
    for r in rows:
        if r['label'] == 'ai' and r['processing'] == 'original':
            counts[r['family']] = counts.get(r['family'], 0) + 1
    small = sorted(f for f, n in counts.items() if n < MIN_FAMILY)
    for r in rows:
        r['family'] = 'other-small' if r['family'] in small else r['family']
    mask = transform_mask(names)
    proc = np.array([r['processing'] for r in rows])
    fit_rows = np.isin(proc, args.train_processings.split(','))
    eval_rows = np.isin(proc, args.eval_processings.split(','))
    y = np.array([1 if r['label'] == 'ai' else 0 for r in rows])
    keys = [r['file'] for r in rows]
    calib = np.array([r['split'] == 'calibration' for r in rows])
    real_fold = np.array([int(frac(k, 'fold') * REAL_FOLDS) for k in keys])
    src = np.array([r['source'] for r in rows])
    use = ~calib
    ev = use & eval_rows  # the rows every table is measured on
    print(f'{len(rows)} rows ({int(y.sum())} AI, {int((y == 0).sum())} real), {x.shape[1]} features; calibration rows {int(calib.sum())}')
    specs = []
    if args.model in ('lr', 'both'):
        specs += [dict(kind='lr', c=c) for c in [float(v) for v in os.environ.get('V6_C', '0.01,0.1,1.0').split(',')]]
    if args.model in ('mlp', 'both'):
        specs += [dict(kind='mlp', wd=float(v)) for v in os.environ.get('V6_WD', '1e-3,1e-2').split(',')]
    results = []
    for spec in specs:
        lofo, loso, lofo_scores, real_oof = evaluate(spec, rows, x, y, mask, use, real_fold, fit_rows, eval_rows)
        # Provisional threshold for the fold tables: the calibration quantile of the out-of-fold real scores.
        real = ev & (y == 0)
        thr = balanced_threshold(real_oof[real], src[real])
        without = {s_id: balanced_threshold(real_oof[real & (src != s_id)], src[real & (src != s_id)]) for s_id in set(src[real])}
        table = summarise(lofo, loso, lofo_scores, rows, y, ev, thr, without)
        print(json.dumps(dict(spec=spec, lofo_mean=table['lofo_mean'], lofo_min=table['lofo_min'], loso_mean=table['loso_mean'],
                              loso_min=table['loso_min'])), flush=True)
        results.append((spec, table, lofo_scores, real_oof))
    spec, table, lofo_scores, real_oof = max(results, key=lambda r: r[1]['lofo_mean'])
    final = train(x[use & fit_rows], y[use & fit_rows], spec, mask)
    calib &= eval_rows
    threshold = balanced_threshold(score(final, x[calib], mask), src[calib])
    # Platt slope on the out-of-fold logits (AI from leave-family-out, real from the real folds).
    oof = np.r_[lofo_scores[ev & (y == 1)], real_oof[ev & (y == 0)]]
    oy = np.r_[np.ones(int((ev & (y == 1)).sum())), np.zeros(int((ev & (y == 0)).sum()))]
    ok = ~np.isnan(oof)
    platt_a = float(LogisticRegression(C=1e6).fit(oof[ok, None], oy[ok]).coef_[0, 0])
    # The fold tables count TPR / FPR at each fold model's own version of the threshold: the logit that flags 1.5%
    # of the out-of-fold real scores (as the shipped threshold flags 1.5% of the calibration split).
    calib_fpr = float((score(final, x[calib], mask) >= threshold).mean())
    families = table['families']
    if 'other-small' in families:
        families['other-small']['members'] = small
    tpr_all = float(np.mean(np.concatenate([[v['tpr']] * v['n'] for v in families.values()])))
    print(json.dumps(table, indent=1))
    card = dict(
        id='ai-image', version=args.version, date=datetime.date.today().isoformat(),
        summary=('Artefact detector: rich-model co-occurrences of first- and second-order residuals and of the 2x2 '
                 'up-sampling residual (NPR), split by texture-poor and texture-rich 64 px tiles, and residual spectra, '
                 f"on a 256 or 512 px luma view; {'logistic regression' if spec['kind'] == 'lr' else 'one-hidden-layer network'}."),
        file='probe.onnx', input='features', output='ai_probability',
        feature_blocks=[dict(block='artefacts', start=0, end=len(names))], feature_count=len(names), backbones={},
        threshold=dict(ai_probability=0.5, human_score=50),
        calibration=dict(method='sigmoid(a * (logit - t)); t flags at most 1.5% of the held-apart real photos and 5% of each source', a=platt_a, b=-platt_a * threshold),
        model=dict(spec, hidden=HIDDEN) if spec['kind'] == 'mlp' else spec,
        training=dict(images=len({r['file'] for r, u in zip(rows, use & fit_rows) if u}), rows=int((use & fit_rows).sum()),
                      processings=args.train_processings.split(','),
                      calibration_real_images=len({r['file'] for r, c in zip(rows, calib) if c}),
                      trained_on=(f"{torch.cuda.get_device_name(0) if DEVICE.type == 'cuda' else 'CPU, 2 threads'}, torch {torch.__version__}"
                                  + ('; features from the pack train.py --write-pack made' if os.environ.get('V6_PACK') else ''))),
        metrics=dict(
            leave_family_out=dict(mean_auroc=table['lofo_mean'], min=table['lofo_min'], tpr_at_threshold=tpr_all, per_family=families),
            leave_source_out=dict(mean_auroc=table['loso_mean'], min=table['loso_min'], per_source=table['sources']),
            calibration_split_fpr=calib_fpr,
            model_selection={json.dumps(s): dict(lofo_mean=t['lofo_mean'], loso_mean=t['loso_mean']) for s, t, _, _ in results},
        ),
    )
    # Reference rows for the runtime test: features of three calibration photos and two AI images, and the
    # probability this script computes for them (the ONNX export must give the same to 1e-4).
    ref_idx = list(np.where(calib)[0][:3]) + list(np.where(ev & (y == 1))[0][:2])
    ref_p = 1 / (1 + np.exp(-platt_a * (score(final, x[ref_idx], mask) - threshold)))
    card['reference'] = [dict(file=rows[i]['file'], processing=rows[i]['processing'], features=[float(v) for v in x[i].astype(np.float32)],
                              ai_probability=float(p)) for i, p in zip(ref_idx, ref_p)]
    if not args.no_export:
        export(spec, final, mask, names, threshold, platt_a, card, model_dir)
        print('wrote', model_dir)


if __name__ == '__main__':
    main()
