"""The per-length thresholds of the AI-text calibration, shared by the held-out tables (training/v3/tables.py,
training/v32/tables.py): a Clopper-Pearson threshold on human scores, per length bucket of the profile, and 3.0.0's
shipped rule built on it (training/v3/calibrate.mjs, on whole documents). Pure functions of score, mask and label
arrays: importing this module reads no corpus, so each script loads its own before calling them. Also the merge of
`train.py --heldout` files that these scripts and training/v3/card.py read.
"""
import json
import os
import sys

import numpy as np
from scipy.stats import binom

BUCKETS = [0, 300, 600, 1200, 2400]  # the profile's length buckets (src/calibration/calibrateThresholds.ts)
TARGETS = [0.01, 0.005, 0.002, 0.001]  # 3.0.0's false-positive targets, tried largest first


def merged_heldout(paths):
    """The held-out results of `train.py --heldout` files merged in order: a table (dict) present in several is
    updated slice by slice, anything else is taken from the last file that has it."""
    h = {}
    for path in paths:
        with open(path) as f:
            for k, v in json.load(f).items():
                if isinstance(v, dict) and isinstance(h.get(k), dict):
                    h[k].update(v)
                else:
                    h[k] = v
    return h


def length_buckets(chars):
    """The length bucket (index into BUCKETS) of each document's character count."""
    return np.searchsorted(BUCKETS, chars, side='right') - 1


def cp_threshold(v, target, confidence=0.95):
    """The lowest score threshold whose exceedances among the human scores `v` keep the Clopper-Pearson upper bound
    of the false-positive rate at `target` with the given confidence (the highest score when none may exceed it)."""
    v = np.sort(v)
    n, j = len(v), -1
    while binom.cdf(j + 1, n, target) <= 1 - confidence:
        j += 1
    return float(v[-1] if j < 0 else v[n - 1 - j])


def bucket_thresholds(s, cal, t, bucket):
    """Per length bucket (`bucket`: each row's) the Clopper-Pearson threshold of the calib human documents (`cal`) of
    that length; a bucket with too few for the target takes the nearest calibrated bucket's (whole documents only: the
    profile also scores the leading parts of longer texts, so it has more texts per bucket)."""
    need = int(np.ceil(np.log(0.05) / np.log(1 - t)))
    thr = [cp_threshold(s[cal & (bucket == k)], t) if np.sum(cal & (bucket == k)) >= need else None
           for k in range(len(BUCKETS))]
    done = [k for k, v in enumerate(thr) if v is not None]
    if not done:
        return np.full(len(BUCKETS), cp_threshold(s[cal], t))
    return np.array([v if v is not None else thr[min(done, key=lambda j: abs(j - k))] for k, v in enumerate(thr)])


def shipped_rule(s, cal, domain, bucket):
    """3.0.0's shipped rule: the largest of TARGETS whose per-length thresholds, set on the calib human documents
    `cal`, keep every calib human domain with >= 25 documents at <= 1% flagged (the smallest target when none does).
    Returns each row's threshold and the target."""
    for t in TARGETS:
        thr = bucket_thresholds(s, cal, t, bucket)[bucket]
        worst = max(np.mean(s[cal & (domain == d)] > thr[cal & (domain == d)])
                    for d in set(domain[cal]) if np.sum(cal & (domain == d)) >= 25)
        if worst <= 0.01:
            break
    return thr, t


def help_or_require(doc, inputs):
    """The scripts' entry checks, before they read anything: `-h`/`--help` prints `doc` and exits 0; otherwise every
    input file must exist, else the script exits with status 1 naming the missing files and what writes each
    (`inputs`: path -> the command that writes it) instead of a stack trace."""
    if any(a in ('-h', '--help') for a in sys.argv[1:]):
        print(doc.strip())
        sys.exit(0)
    missing = [(p, how) for p, how in inputs.items() if not os.path.exists(p)]
    if missing:
        name = os.path.relpath(sys.argv[0])
        lines = [f'{name}: missing input, nothing printed (the corpus and held-out fits are not in the repository):']
        lines += [f'  {os.path.normpath(p)}: written by {how}' for p, how in missing]
        sys.exit('\n'.join(lines))
