"""Trains AI-image model version 9: version 8's script (v8/train.py, imported, not copied) with the screenshot copy
(80%, bicubic, PNG: v6/processings.mjs) among the training processings of both classes, so that a picture and its
screenshot are learnt alike (issue 29, item 2: processing applied to both classes alike).

The corpus is the full plan of build-corpus.mjs --limit 80,150 (3,061 images kept of 3,484, listed in
training/ai-image/v9/corpus-files.txt; the first model 9 had version 8's 825, v8/corpus-files.txt: CHANGELOG).
Everything else is version 8's: the 406 artefact features, the one-hidden-layer network, the threshold rule (the
highest, over every real source and every measured processing of the calibration split: as published, as shared,
screenshot, of the 99th percentile of the logits) plus the margin that each real source left out in turn needs to
stay at 2.5% (nested for the leave-one-source-out table), the inconclusive band, and the protocol (v8/train.py's
docstring). The leave-family-out and leave-source-out AI tables also
carry the screenshot copies of the AI images (they did not exist for version 8).

Run (from packages/classifiers, Debian's python3 with torch, sklearn and onnx), after
    node training/ai-image/v6/build-corpus.mjs --limit 80,150 --only training/ai-image/v9/corpus-files.txt
    node training/ai-image/v6/extract.mjs --processing original,asshared,screenshot [--skip-dumped] [--shard i/n]
    /usr/bin/python3 training/ai-image/v9/train.py [--no-export]
The model folder is models/ai-image/9 (or V9_MODELS/9).
"""
import importlib.util
import os

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location('train_v8', os.path.join(HERE, '..', 'v8', 'train.py'))
v8 = importlib.util.module_from_spec(spec)
spec.loader.exec_module(v8)

v8.VERSION = '9'
v8.TRAIN_PROCESSINGS = ['original', 'asshared', 'screenshot']
v8.AI_TABLE_PROCESSINGS = ['original', 'asshared', 'screenshot']
v8.MODELS = os.environ.get('V9_MODELS', os.path.join(HERE, '..', '..', '..', 'models', 'ai-image'))
v8.SUMMARY = ('Artefact detector (the features of versions 6 to 8: residual co-occurrences, NPR, residual spectra on the '
              'native-resolution centre square), one-hidden-layer network trained on images as published, as shared '
              '(long side at most 1080 px, JPEG q75) and as a screenshot (80%, PNG), both classes alike; a threshold '
              'set on real photos held apart in all three processings, plus the margin that each real source left out '
              'in turn needed; an inconclusive band around 50.')

if __name__ == '__main__':
    v8.main()
