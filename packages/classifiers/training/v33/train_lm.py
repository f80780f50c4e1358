"""Step 2 of the v33 experiment: the observer and performer character GRUs of training/lm/train_lm.py (same
architecture, same training loop, same ONNX statistics graph, so src/aiText/charLm.ts can run them unchanged),
trained on out/v33/lm-corpus.txt: human text of the human-only domains only (dump-texts.mjs), which no AI domain of
the leave-one-domain-out tables shares. Writes out/v33/lm/{observer,performer}.pt, lm.onnx, lm.json (the runtime
card section, `max_chunks` 2: the first 512 characters, or two chunks spread over a longer text) and info.json.

Run: OMP_NUM_THREADS=1 nice -n 10 /usr/bin/python3 packages/classifiers/training/v33/train_lm.py [s_observer] [s_performer]
(default 150 s + 300 s of training, fixed seeds; the result depends on how many steps fit in that time.)
"""
import importlib.util
import json
import os
import sys

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, '..', 'out', 'v33')
LM_DIR = os.path.join(OUT, 'lm')
RUNTIME = {'chunk_chars': 256, 'context_chars': 32, 'max_chunks': 2, 'min_range_chars': 64}


def base_module():
    """training/lm/train_lm.py, imported by path (the model, the loop and the export are its own)."""
    spec = importlib.util.spec_from_file_location('train_lm', os.path.join(HERE, '..', 'lm', 'train_lm.py'))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main():
    torch.set_num_threads(1)
    lm = base_module()
    seconds = [float(a) for a in sys.argv[1:3]] or [150.0, 300.0]
    docs = [l for l in open(os.path.join(OUT, 'lm-corpus.txt'), encoding='utf8').read().split('\n') if l]
    n_val = max(1, len(docs) // 30)
    train_data = np.concatenate([lm.encode(d) for d in docs[:-n_val]])
    val_data = np.concatenate([lm.encode(d) for d in docs[-n_val:]])
    print(f'{len(docs) - n_val} training documents ({len(train_data)} ids), {n_val} validation documents', flush=True)
    observer, obs_info = lm.train('observer', seconds[0], train_data, val_data, 1)
    performer, perf_info = lm.train('performer', seconds[1], train_data, val_data, 2)
    os.makedirs(LM_DIR, exist_ok=True)
    torch.save(observer.state_dict(), os.path.join(LM_DIR, 'observer.pt'))
    torch.save(performer.state_dict(), os.path.join(LM_DIR, 'performer.pt'))
    stats = lm.Stats(observer, performer).eval()
    example = torch.from_numpy(lm.encode('the cat sat on the mat.')).unsqueeze(0)
    torch.onnx.export(stats, (example,), os.path.join(LM_DIR, 'lm.onnx'), input_names=['ids'], output_names=['stats'],
                      opset_version=14, dynamic_axes={'ids': {0: 'batch', 1: 'time'}, 'stats': {0: 'batch', 1: 'time'}})
    card = {'file': 'lm.onnx', 'input': 'ids', 'output': 'stats', 'alphabet': lm.ALPHABET, **RUNTIME}
    json.dump(card, open(os.path.join(LM_DIR, 'lm.json'), 'w'), indent=2)
    info = {'training_documents': len(docs) - n_val, 'training_characters': int(len(train_data)),
            'validation_documents': n_val, 'observer': obs_info, 'performer': perf_info,
            'corpus': 'human rows of the human-only domains (out/v33/lm-corpus.txt)'}
    json.dump(info, open(os.path.join(LM_DIR, 'info.json'), 'w'), indent=2)
    print(json.dumps(info), flush=True)


if __name__ == '__main__':
    main()
