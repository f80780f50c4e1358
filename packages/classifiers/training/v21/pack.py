"""Packs out/v21/ (training/v21/dump-tokens.mjs) into one compact folder for a GPU machine: the per-token vocabulary
indices as LEB128 varints compressed with xz, the vocabulary of token hashes, and the row metadata the training needs
(label, split, family, domain). Usage (Debian's python3): /usr/bin/python3 packages/classifiers/training/v21/pack.py DEST
"""
import json
import lzma
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(HERE, '..', 'out', 'v21')


def varint(ids):
    """LEB128 bytes of non-negative integers below 2^21."""
    assert ids.max() < 1 << 21
    v = ids.astype(np.int64)
    lens = np.where(v < 1 << 7, 1, np.where(v < 1 << 14, 2, 3))
    pos = np.concatenate([[0], np.cumsum(lens)[:-1]])
    out = np.zeros(int(lens.sum()), dtype=np.uint8)
    for k in range(3):
        m = lens > k
        more = lens[m] > k + 1
        out[pos[m] + k] = ((v[m] >> (7 * k)) & 127) | np.where(more, 128, 0)
    return out


def main():
    dest = sys.argv[1]
    os.makedirs(dest, exist_ok=True)
    ids = np.fromfile(os.path.join(SRC, 'tokens.u32'), dtype=np.uint32)
    with open(os.path.join(dest, 'tokens.varint.xz'), 'wb') as f:
        f.write(lzma.compress(varint(ids).tobytes(), preset=6))
    vocab = np.fromfile(os.path.join(SRC, 'vocab.u32'), dtype=np.uint32)
    vocab.tofile(os.path.join(dest, 'vocab.u32'))
    keep = ('id', 'label', 'split', 'family', 'domain', 'format', 'edited_human', 'attack', 'offset', 'tokens', 'chars')
    rows = [json.loads(line) for line in open(os.path.join(SRC, 'rows.jsonl'))]
    with lzma.open(os.path.join(dest, 'rows.jsonl.xz'), 'wt') as f:
        for r in rows:
            f.write(json.dumps({k: r[k] for k in keep}) + '\n')
    print(f'{len(rows)} rows, {len(ids)} tokens, {len(vocab)} distinct -> {dest}')


if __name__ == '__main__':
    main()
