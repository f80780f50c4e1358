#!/usr/bin/python3
"""Builds the non-English AI-text corpus (French, German, Spanish) from pinned public repositories and shared/.

Python 3 standard library only:

    /usr/bin/python3 packages/classifiers/training/languages/build_corpus.py

Reads bare git mirrors under $CONTENT_ANALYSIS_MIRRORS (default /work/.mirror, one <owner>+<name>/repo each; bring
them with the library's `fetch`) and $CONTENT_ANALYSIS_DATASETS/aitext (default ../shared/datasets from the
repository root). Writes, the same bytes for the same inputs,
packages/classifiers/training/out/languages/{rows.jsonl,manifest.json}. Nothing here is committed.

Every row: text, label (human | ai), language, source, generator, domain, variant, group, use.
- `group` joins a human text and every AI text made from its title or its text (the same topic in the same
  language): splits are by group, never by row.
- `use` is `train` (may train and calibrate a shipped model) or `eval` (measurement only: a licence that does not
  allow a shipped model to be trained on it).

Sources (see README.md beside this file for what each is and why it is used as it is):
- schlippe: LorenzM97/human-AI-generatedTextCorpus (Schaaff, Schlippe & Mindner 2023, arXiv:2312.04882): 100
  Wikipedia articles per language on the same 100 topics (en, fr, de, es) and 4 GPT-3.5 texts per article (written
  from the title, twice; rephrased from the article, twice). Pandas pickles, read here with an unpickler that builds
  no object of any library (every class and function the pickle names becomes an inert record).
- m4: shared/datasets/aitext/m4_llama2 (mbzuai-nlp/M4 @ 3045ae6): 100 German Wikipedia articles and Llama-2-70B-chat
  texts from their titles.
- autext: AlbertoUAH/autexTification data/bert_multilingual_predictions.csv, a participant's copy of the AuTexTification
  2023 test set (text and gold label; BLOOM-1B7/3B/7B1, GPT-3 babbage/curie/text-davinci-003; tweets, reviews,
  how-to, news, legal; Sarvazyan et al. 2023). CC BY-NC-SA 4.0 per the organisers' dataset card: evaluation only.
- gnad: tblock/10kGNAD test.csv, 1,028 news articles of DER Standard (2015-2016, before chat models; Block 2019),
  human only. CC BY-NC-SA 4.0: evaluation only (the German human false-positive rate on news).
"""
import collections
import csv
import hashlib
import io
import json
import os
import pickle
import re
import subprocess
import sys
import unicodedata
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[4]
MIRRORS = Path(os.environ.get('CONTENT_ANALYSIS_MIRRORS', '/work/.mirror'))
DATASETS = (REPO_ROOT / os.environ.get('CONTENT_ANALYSIS_DATASETS', '../shared/datasets')).resolve()
OUT = REPO_ROOT / 'packages/classifiers/training/out/languages'
LANGUAGES = ('fr', 'de', 'es')
MIN_CHARS = 300  # the API's minimum

REPOS = {
    'schlippe': ('LorenzM97/human-AI-generatedTextCorpus', 'c83a9c6efab8d49661f474ad04bd45895eb159b8',
                 'no licence file (research use); human texts from Wikipedia (CC BY-SA), AI texts by GPT-3.5'),
    'gnad': ('tblock/10kGNAD', 'da845fe4a16f02a8de10903ffbc636d1c8d21862',
             'data CC BY-NC-SA 4.0 (its README; code MIT): evaluation only'),
    'autext': ('AlbertoUAH/autexTification', 'da042296dd4b0cceb902d7e1400e73360239da97',
               'AuTexTification 2023 data: CC BY-NC-SA 4.0 (organisers\' dataset card): evaluation only'),
}
M4_FILE = 'aitext/m4_llama2/m4_llama2_examples.jsonl'
M4_INFO = ('mbzuai-nlp/M4 (via shared/datasets/aitext/m4_llama2)', '3045ae6ddedc6caefcb146a72d6936c1a3b0c237',
           'no licence file at that commit (M4 releases its data for research)')

MANIFEST = {}


def git_show(repo, commit, path):
    git_dir = MIRRORS / (repo.replace('/', '+')) / 'repo'
    if not git_dir.exists():
        sys.exit(f'missing mirror {git_dir}: fetch github:{repo} first')
    return subprocess.run(['git', f'--git-dir={git_dir}', 'show', f'{commit}:{path}'], check=True,
                          capture_output=True).stdout


def clean(text):
    text = unicodedata.normalize('NFC', text).replace('\r\n', '\n').replace('\u00ad', '')
    return re.sub(r'[ \t]+', ' ', text).strip()


# ---------------------------------------------------------------------------------------------------------------
# An unpickler that builds nothing but inert records: the pickles name pandas and numpy classes, none is imported.

class Record:
    """What a pickled call or object becomes: the name it referred to, its arguments and its state."""

    def __init__(self, name, args):
        self.name, self.args, self.state = name, args, None

    def __setstate__(self, state):
        self.state = state


class InertUnpickler(pickle.Unpickler):
    def find_class(self, module, name):
        full = f'{module}.{name}'
        if full == 'builtins.slice':
            return slice

        class Named(Record):
            def __new__(cls, *args, **kwargs):
                record = object.__new__(Record)
                record.__init__(full, args)
                return record
        return Named


def object_blocks(obj, out, seen):
    """(shape, values) of every numpy array in the record tree whose values are a list (object arrays)."""
    if id(obj) in seen:
        return out
    seen.add(id(obj))
    if isinstance(obj, Record):
        state = obj.state
        if obj.name.endswith('_reconstruct') and isinstance(state, tuple) and len(state) == 5 and isinstance(state[4], list):
            out.append((state[1], state[4]))
        for x in list(obj.args) + [state]:
            object_blocks(x, out, seen)
    elif isinstance(obj, (list, tuple)):
        for x in obj:
            object_blocks(x, out, seen)
    elif isinstance(obj, dict):
        for x in obj.values():
            object_blocks(x, out, seen)
    return out


def dataframe_rows(blob):
    """Rows of a pickled pandas DataFrame as dicts, from its object block and its column index."""
    blocks = object_blocks(InertUnpickler(io.BytesIO(blob)).load(), [], set())
    columns = next(v for shape, v in blocks if len(shape) == 1 and 'text' in v)
    table = max((b for b in blocks if len(b[0]) == 2), key=lambda b: b[0][0] * b[0][1])
    (ncols, nrows), values = table
    # The object block holds every column but the datetime ones, in column order.
    names = [c for c in columns if not (ncols < len(columns) and c == 'date')]
    if len(names) != ncols:
        sys.exit(f'unexpected pickle layout: {ncols} object columns for {columns}')
    return [{names[c]: values[c * nrows + r] for c in range(ncols)} for r in range(nrows)]


# ---------------------------------------------------------------------------------------------------------------

def schlippe():
    repo, commit, licence = REPOS['schlippe']
    rows = []
    files = {'wiki_human_generated.pkl': 'human', 'wiki_chatgpt_generated.pkl': 'ai'}
    for path, label in files.items():
        for r in dataframe_rows(git_show(repo, commit, path)):
            if r['language'] not in LANGUAGES:
                continue
            variant = 'human' if label == 'human' else r['source']  # generated_base/expert, rephrase_base/expert
            rows.append({
                'text': clean(r['text']), 'label': label, 'language': r['language'], 'source': 'schlippe',
                'generator': None if label == 'human' else 'gpt-3.5-turbo', 'domain': 'wikipedia',
                'variant': variant, 'group': f"schlippe:{r['language']}:{r['title_en']}", 'use': 'train',
            })
    MANIFEST['schlippe'] = {'repo': repo, 'commit': commit, 'paths': list(files), 'licence': licence}
    return rows


def m4_german():
    rows = []
    dropped = collections.Counter()
    path = DATASETS / M4_FILE
    for line in open(path, encoding='utf-8'):
        r = json.loads(line)
        if r.get('domain') != 'germanwikipedia':
            continue
        text = r['text']
        # Llama-2-chat boilerplate ("Sure, here's ...", in English) before the German text: a trivial cue, cut.
        text = re.sub(r"^\s*(Sure|Certainly|Of course)[^\n]*\n+", '', text)
        words = re.findall(r'\w+', text.lower())
        if sum(w in EN_WORDS for w in words) > sum(w in DE_WORDS for w in words):
            dropped['written in English'] += 1  # Llama-2-chat answered some German prompts in English
            continue
        rows.append({
            'text': clean(text), 'label': r['label'], 'language': 'de', 'source': 'm4',
            'generator': r['generator'], 'domain': 'wikipedia', 'variant': 'human' if r['label'] == 'human' else 'generated',
            'group': r['pair_id'], 'use': 'train',
        })
    repo, commit, licence = M4_INFO
    MANIFEST['m4'] = {'repo': repo, 'commit': commit, 'paths': ['data/germanwikipedia_llama2.jsonl'], 'licence': licence,
                    'dropped': dict(dropped)}
    return rows


DE_WORDS = set('der die und in den von zu das mit sich des auf für ist im dem nicht ein eine als auch es an er hat '
               'aus bei wurde sind noch wie einem über einen so zum war haben nur oder aber vor zur bis mehr durch '
               'man sein wurden sie nach werden seine'.split())
ES_WORDS = set('de la que el en los se del las por un una para con no es su al lo como más pero sus le ya o este '
               'porque esta entre cuando muy sin sobre también me hasta hay donde quien desde todo nos durante '
               'todos uno les ni contra otros ese eso ante ellos e esto mí antes algunos qué unos yo otro otras '
               'otra él tanto esa estos mucho quienes nada muchos cual poco ella estar estas algunas algo nosotros'.split())
EN_WORDS = set('the of and to in is that for it as was with be by on not he this are or his from at which but have '
               'an they you were their one all we can her has there been if more when will would who so no'.split())


def autext():
    repo, commit, licence = REPOS['autext']
    path = 'data/bert_multilingual_predictions.csv'
    rows = []
    counts = collections.Counter()
    for i, r in enumerate(csv.DictReader(io.StringIO(git_show(repo, commit, path).decode('utf-8')))):
        words = re.findall(r'\w+', r['text'].lower())
        es = sum(w in ES_WORDS for w in words)
        en = sum(w in EN_WORDS for w in words)
        if es <= 2 * en or es < 5:
            counts['not Spanish'] += 1
            continue
        rows.append({
            'text': clean(r['text']), 'label': 'ai' if r['label'] == '1' else 'human', 'language': 'es',
            'source': 'autext', 'generator': None if r['label'] == '0' else 'bloom-or-gpt3 (not stated per row)',
            'domain': 'mixed (tweets, reviews, how-to, news, legal)', 'variant': 'continuation',
            'group': f'autext:{i}', 'use': 'eval',
        })
    MANIFEST['autext'] = {'repo': repo, 'commit': commit, 'paths': [path], 'licence': licence,
                          'note': 'label 1 = generated; the copy has no generator or domain per row',
                          'dropped': dict(counts)}
    return rows


def gnad():
    repo, commit, licence = REPOS['gnad']
    path = 'test.csv'
    rows = []
    text = git_show(repo, commit, path).decode('utf-8')
    for i, r in enumerate(csv.reader(io.StringIO(text), delimiter=';', quotechar="'")):
        if len(r) != 2:
            continue
        rows.append({
            'text': clean(r[1]), 'label': 'human', 'language': 'de', 'source': 'gnad', 'generator': None,
            'domain': f'news ({r[0]})', 'variant': 'human', 'group': f'gnad:{i}', 'use': 'eval',
        })
    MANIFEST['gnad'] = {'repo': repo, 'commit': commit, 'paths': [path], 'licence': licence}
    return rows


def main():
    rows = schlippe() + m4_german() + autext() + gnad()
    kept, seen = [], {}
    dropped = collections.Counter()
    for r in rows:
        if len(r['text']) < MIN_CHARS:
            dropped[(r['source'], 'under 300 characters')] += 1
            continue
        key = hashlib.sha1(re.sub(r'\W+', ' ', r['text'].lower()).strip().encode()).hexdigest()
        if key in seen:
            dropped[(r['source'], f'duplicate of a {seen[key]} text')] += 1
            continue
        seen[key] = r['source']
        kept.append(r)
    OUT.mkdir(parents=True, exist_ok=True)
    with open(OUT / 'rows.jsonl', 'w', encoding='utf-8') as f:
        for r in kept:
            f.write(json.dumps(r, ensure_ascii=False, sort_keys=True) + '\n')
    counts = collections.Counter(f"{r['language']}:{r['source']}:{r['label']}:{r['variant']}" for r in kept)
    manifest = {'sources': MANIFEST, 'counts': dict(sorted(counts.items())),
                'dropped': {f'{s}: {why}': n for (s, why), n in sorted(dropped.items())}}
    with open(OUT / 'manifest.json', 'w', encoding='utf-8') as f:
        json.dump(manifest, f, indent=1, ensure_ascii=False, sort_keys=True)
    print(json.dumps(manifest['counts'], indent=1))
    print(json.dumps(manifest['dropped'], indent=1))


if __name__ == '__main__':
    main()
