"""Adds to AI-text 3.x's card.json (AI_TEXT_VERSION, default 3.0.0) what train.py and calibrate.mjs do not write: the licence
of every corpus source (from out/corpus/manifest.json), the held-out tables (out/v3/heldout.json and any further files given, merged; see
tables.py) with 2.0.0 beside, and the never-trained-on test-split figures measured end to end by
scripts/ai-text/evaluate.mjs, passed as JSON in --test '{...}'.

Usage: /usr/bin/python3 packages/classifiers/training/v3/card.py [heldout.json ...] [--test JSON]
"""
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.append(os.path.join(HERE, '..'))
from length_thresholds import merged_heldout  # noqa: E402
VERSION = os.environ.get('AI_TEXT_VERSION', '3.0.0')  # 3.0.0, 3.1.0 (not the default: in @content-analysis/models-extra)
CARD = os.path.join(HERE, '..', '..', '..', 'models-extra', 'models', 'ai-text', VERSION, 'card.json')
MANIFEST = os.path.join(HERE, '..', 'out', 'corpus', 'manifest.json')
MIN = 50

args = sys.argv[1:]
test = None
if '--test' in args:
    k = args.index('--test')
    test = json.loads(args[k + 1])
    args = args[:k] + args[k + 2:]
paths = args or [os.path.join(HERE, '..', 'out', 'v3', 'heldout.json')]
h = merged_heldout(paths)

card = json.load(open(CARD))
manifest = json.load(open(MANIFEST))
sources = manifest.get('sources', manifest)
card['data']['sources'] = {
    name: {'repo': s.get('repo'), 'commit': s.get('commit'), 'licence': s.get('licence'), 'rows': s.get('rows'),
           'held_out': s.get('held_out', False)}
    for name, s in sorted(sources.items()) if isinstance(s, dict) and 'licence' in s}
card['data']['research_only_or_unlicensed'] = [
    'detectrl (NLP2CT/DetectRL: no licence file, research use)',
    'outfox (essays from the Kaggle Feedback Prize corpus: its terms)',
    'hc3 medicine answers (MedDialog source: research use; the SC203 copy has no licence file)',
    'fastdetectgpt / binoculars / mgtbench / m4 / hc3plus_si shared sets (see their README.txt in the shared aitext folder)',
] + ([
    'coursework (comnetsAD/ChatGPT: no licence file, research use; student answers of Ibrahim et al. 2023)',
    'l2r (CC BY 3.0, but its human texts come from public sets of 21 genres whose own terms apply; judging by '
    'their content some are research-only, e.g. student essays, PubMedQA answers, IMDb reviews)',
    'hc3 finance answers (FiQA source; the SC203 copy has no licence file)',
] if VERSION != '3.0.0' else [])


def r3(v):
    return None if v is None else round(v, 3)


fam = {}
for k, r in h.get('families', {}).items():
    b = r.get('base', {})
    fam[k] = {'n_ai': r['n_ai'], 'n_human': r['n_human'], 'auroc': r3(r['auroc']),
              'tpr_at_threshold': r3(r['tpr_at_calib_threshold']),
              'auroc_2_0_0': r3(b.get('auroc')), 'tpr_at_threshold_2_0_0': r3(b.get('tpr_at_threshold'))}
dom = {}
for k, r in h.get('domains', {}).items():
    b = r.get('base', {})
    own = r['domains'].get(k, {})
    dom[k] = {'n_ai': r['n_ai'], 'n_human': own.get('n_human', 0), 'auroc': r3(own.get('auroc')),
              'tpr_at_threshold': r3(r['tpr_at_calib_threshold']),
              'human_fpr_at_threshold': r3(r.get('human_fpr_at_threshold')),
              'auroc_2_0_0': r3(own.get('base_auroc')), 'tpr_at_threshold_2_0_0': r3(b.get('tpr_at_threshold')),
              'human_fpr_at_threshold_2_0_0': r3(b.get('human_fpr_at_threshold')),
              'never_trained': r.get('never_trained', False)}
hum = {k: {'members': r.get('members'), 'n_human': r['n_human'],
           'human_fpr_at_threshold': r3(r['human_fpr_at_threshold']),
           'human_fpr_at_threshold_2_0_0': r3(r.get('base_human_fpr_at_threshold'))}
       for k, r in h.get('human_domains', {}).items()}
counted = [d for d in dom.values() if d['n_ai'] >= MIN and d['n_human'] >= MIN and d['auroc'] is not None]
card['metrics']['held_out'] = {
    'command': f'AI_TEXT_VERSION={VERSION} AI_TEXT_WEIGHTING=domain /usr/bin/python3 packages/classifiers/training/v2/train.py '
               '--heldout (tables: training/v3/tables.py)',
    'date': time.strftime('%Y-%m-%d'),
    'rule': 'per slice a model fitted on the train split without it; threshold from the calib human texts without the '
            'slice by the deployment-calibration rule (target 1%, confidence 0.95, one pool); 2.0.0 = the shipped '
            'model at its shipped thresholds on the same test texts (it was trained with every slice but the held-out '
            'sets)',
    'leave_one_family_out': fam,
    'leave_one_domain_out': dom,
    'leave_one_human_domain_out': hum,
    'leave_one_domain_out_auroc_mean': r3(sum(d['auroc'] for d in counted) / len(counted)) if counted else None,
    'leave_one_family_out_auroc_mean': r3(sum(f['auroc'] for f in fam.values()) / len(fam)) if fam else None,
}
if test is not None:
    card['metrics']['never_trained_on'] = test
with open(CARD, 'w') as f:
    json.dump(card, f, indent=2)
    f.write('\n')
print(f'{CARD}: {len(fam)} families, {len(dom)} domains, {len(hum)} human domains, {len(card["data"]["sources"])} sources')
