#!/usr/bin/python3
"""Builds the AI-text detector training corpus from pinned public repositories and the shared aitext/ sets.

Python 3 standard library only (and the `zstd` command for GRiD's files). Run with Debian's interpreter:

    /usr/bin/python3 packages/classifiers/training/corpus/build_corpus.py

Reads bare git mirrors under $CONTENT_ANALYSIS_MIRRORS (default /work/.mirror, one <owner>+<name>/repo each) and
$CONTENT_ANALYSIS_DATASETS/aitext (default ../shared/datasets relative to the repository root). Writes, always the
same bytes for the same inputs, packages/classifiers/training/out/corpus/{rows.jsonl,manifest.json}.
See README.md next to this file for the label semantics and the cleaning applied.
"""
import collections
import csv
import hashlib
import html
import io
import json
import os
import pickle
import re
import subprocess
import sys
import time
import unicodedata
import zipfile
import zlib
from pathlib import Path

T0 = time.time()
REPO_ROOT = Path(__file__).resolve().parents[4]
MIRRORS = Path(os.environ.get('CONTENT_ANALYSIS_MIRRORS', '/work/.mirror'))
DATASETS = (REPO_ROOT / os.environ.get('CONTENT_ANALYSIS_DATASETS', '../shared/datasets')).resolve()
# AI_TEXT_CORPUS_OUT: another output folder (to keep an earlier corpus beside the current one).
OUT = Path(os.environ.get('AI_TEXT_CORPUS_OUT') or REPO_ROOT / 'packages/classifiers/training/out/corpus')

HELD_OUT = {'hc3plus_si', 'mgtbench_truthfulqa', 'binoculars_pubmed'}
FAMILIES = {'human', 'gpt-3.5', 'gpt-4', 'claude', 'gemini-palm', 'llama', 'mistral-qwen-other', 'completion-gpt'}
FORMATS = {'human', 'generation', 'continuation', 'answer', 'summary', 'rewrite', 'polish', 'expand', 'paraphrase'}
MIN_CHARS = 300
MAX_GIT_BLOB = 4 * 1024 * 1024  # files of 4 MiB or more are absent in the mirrors

REPOS = {
    'biscope': ('MarkGHX/BiScope', '9e4057d8be54363a5c8f368882a646e96aaf70fa', 'CC BY-SA 4.0'),
    'detectrl': ('NLP2CT/DetectRL', '3472f0ae3cc81133c821e901f6d5c8f79c60dd23',
                 'no licence file (research use); sources arXiv, XSum, WritingPrompts, Yelp'),
    'outfox': ('ryuryukke/OUTFOX', '80275f576058cbeca7f2edcb02ced5750b95a63f',
               'Apache-2.0 (repo); essays from the Kaggle Feedback Prize corpus (its terms apply)'),
    'imbd': ('Jiaqi-Chen-00/ImBD', 'ef0ad54b84989c7a5ef7d119dd40d93ce0675db4', 'Apache-2.0'),
    'seqxgpt': ('Jihuai-wpy/SeqXGPT', 'da2f264160c12a95c9573c4820fefaa75a68a0f9', 'Apache-2.0'),
    'nltk': ('nltk/nltk_data', '5db857e6f7df11eabb5e5665836db9ec8df07e28', 'per corpus'),
    'hc3': ('nguyendinhthienloc/SC203', 'ad35f62a7b71d0d5f46cd16b89b49274d11287da',
            'CC BY-SA 4.0 (HC3, Guo et al. 2023, dataset card; where a source set is stricter its terms apply: '
            'medicine from MedDialog (research use), open_qa from WikiQA, wiki_csai from Wikipedia (CC BY-SA)); '
            'the copy in SC203 has no licence file of its own'),
    'l2r': ('scott-matkosky/AI_Text_Detector', '0706922f555d694fd734159d2f7e6306e7d2ab7c',
            'CC BY 3.0 (L2R_dataset/LICENSE.txt; L2R data of Hao et al. 2024, arXiv 2408.04237, copied into this '
            'repository, which has no licence of its own); human texts from public sets of 21 domains (their terms '
            'apply)'),
    'coursework': ('comnetsAD/ChatGPT', '25399756f77b198efcb95e8529275db4670db6c9',
                   'no licence file (research use): Ibrahim et al. 2023, Scientific Reports 13:12187, student and '
                   'ChatGPT answers to university course questions'),
    'reddit_qa': ('madlab-ucr/GriD', 'f899c0e90a64f725ade33696bff900bb76d8ea5a',
                  'no licence file (research use): GRiD, GPT Reddit Dataset (WWW 2024 short paper, madlab-ucr); '
                  'human answers are Reddit comments (Reddit\'s terms apply), AI answers ChatGPT\'s'),
    'wiki_intro': ('wisent-ai/wisent', '286d75742f2e5df996d02f87b58759810a8f595a',
                   'MIT (wisent repository); the pairs are 100 rows of aadityaubhat/GPT-wiki-intro (CC BY-SA: '
                   'Wikipedia introductions and GPT-3 Curie continuations of their first words)'),
    'argument_essay': ('sherbold/chatgpt-student-essay-study', '4cef7af330823961ee65c1a5ff49df17624a51ab',
                       'Apache-2.0 (repository; Herbold et al. 2023, Scientific Reports 13:18617); the student essays '
                       'are Stab & Gurevych\'s Argument Annotated Essays (essayforum.com; research use, their terms '
                       'apply)'),
}
# Sources added after 3.1.0's corpus (115,441 rows): `--exclude=reddit_qa,wiki_intro,argument_essay` rebuilds 3.1.0's
# corpus.
EXCLUDE = set(next((a.split('=', 1)[1].split(',') for a in sys.argv if a.startswith('--exclude=')), []))

# ----------------------------------------------------------------------------------------------------------------
# bookkeeping

MANIFEST = {}          # source -> {repo, commit, paths, licence, dropped: Counter, notes: []}
CLEANING = collections.Counter()  # (source, cleaning) -> rows changed


def src_info(source, repo, commit, licence):
    m = MANIFEST.setdefault(source, {'repo': repo, 'commit': commit, 'paths': [], 'licence': licence,
                                     'dropped': collections.Counter(), 'notes': []})
    return m


def drop(source, reason, n=1):
    MANIFEST[source]['dropped'][reason] += n


def note(source, text):
    if text not in MANIFEST[source]['notes']:
        MANIFEST[source]['notes'].append(text)


class Mirror:
    """Read-only access to one pinned commit of a bare mirror."""

    def __init__(self, key):
        repo, commit, _ = REPOS[key]
        self.repo, self.commit = repo, commit
        self.dir = MIRRORS / (repo.replace('/', '+')) / 'repo'
        self.ok = self.dir.is_dir() and subprocess.run(
            ['git', '--git-dir', str(self.dir), 'cat-file', '-e', commit + '^{commit}'],
            capture_output=True).returncode == 0
        if not self.ok:
            print(f'SKIP {repo}: mirror {self.dir} absent or commit {commit[:12]} missing', file=sys.stderr)
        self._tree = None

    def tree(self):
        """path -> (blob sha, size or None when the object is absent)."""
        if self._tree is None:
            out = subprocess.run(['git', '--git-dir', str(self.dir), 'ls-tree', '-r', '-l', '-z', self.commit],
                                 capture_output=True, check=True).stdout.decode('utf-8', 'replace')
            self._tree = {}
            for ent in out.split('\0'):
                if not ent:
                    continue
                meta, path = ent.split('\t', 1)
                parts = meta.split()
                if parts[1] != 'blob':
                    continue
                size = int(parts[3]) if parts[3].isdigit() else None
                self._tree[path] = (parts[2], size)
        return self._tree

    def present(self, path):
        t = self.tree().get(path)
        return t is not None and t[1] is not None and t[1] < MAX_GIT_BLOB

    def read(self, path):
        t = self.tree()[path]
        return subprocess.run(['git', '--git-dir', str(self.dir), 'cat-file', 'blob', t[0]],
                              capture_output=True, check=True).stdout


# ----------------------------------------------------------------------------------------------------------------
# text helpers

WS = re.compile(r'\s+')


def norm(text):
    return WS.sub(' ', unicodedata.normalize('NFKC', text).lower()).strip()


def sha1(s):
    return hashlib.sha1(s.encode('utf-8')).hexdigest()


STOP = set('the of and to a in is that it for was on with as be by this are at from have not but or an his they '
           'he she we you i my their which has had were been will would can there its our your all one so if more '
           'when who about what also than them into some no only do out up time other these her him me just'.split())


def looks_english(text):
    words = re.findall(r"[^\W\d_]+", text.lower())
    if len(words) < 30:
        return False
    ascii_words = sum(1 for w in words if w.isascii())
    if ascii_words / len(words) < 0.9:
        return False
    return sum(1 for w in words if w in STOP) / len(words) >= 0.12


CODE_LINE = re.compile(r'^\s*(def |class \w+[(:]|import \w|from \S+ import|#include|public |private |function\b|'
                       r'var |const |let |return\b|for \(|if \(|while \()|[{}]\s*$|[(=].*;\s*$')


def looks_code(text):
    lines = [l for l in text.split('\n') if l.strip()]
    if '```' in text:
        return True
    n = sum(1 for l in lines if CODE_LINE.search(l))
    return n >= 3 and n >= 0.2 * len(lines)


DETOK = [
    (re.compile(r'<newline>'), '\n'),
    (re.compile(r"\b(\w+) n' ?t\b"), r"\1n't"),        # DetectRL "did n' t"
    (re.compile(r"(\w) (n't|'s|'re|'ve|'ll|'d|'m)\b"), r"\1\2"),
    (re.compile(r'(\w) ([,.;:!?%])(?=\s|$)'), r'\1\2'),
    (re.compile(r'([(\[]) (?=\w)'), r'\1'),
    (re.compile(r'(?<=\w) ([)\]])'), r'\1'),
    (re.compile(r'``\s?|\s?\'\''), '"'),
]


def detok(text):
    """Undo PTB-style tokenised spacing (` .`, ` ,`, ` n't`, `( x )`, <newline>): a dataset-format artefact that is
    present on the human side only in several sets (WritingPrompts, arXiv/PubMed abstracts, movie reviews)."""
    for pat, rep in DETOK:
        text = pat.sub(rep, text)
    return text


def tidy(text):
    text = text.replace('\r\n', '\n').replace('\r', '\n').replace('\xa0', ' ')
    text = re.sub(r'[ \t]+\n', '\n', text)
    text = re.sub(r'\n{3,}', '\n\n', text)
    return text.strip()


def unwrap(text):
    """Join hard-wrapped lines (arXiv abstracts keep their 80-column line breaks, generations do not)."""
    return re.sub(r'(?<!\n)\n(?!\n)', ' ', text)


def sentence_case(text):
    text = re.sub(r'(^|[.!?]\s+|\n\s*)([a-z])', lambda m: m.group(1) + m.group(2).upper(), text)
    return re.sub(r'\bi\b', 'I', text)


# ----------------------------------------------------------------------------------------------------------------
# rows

ROWS = []
RESERVED = []   # (text) human originals of reserved evaluation files: blocklist only, never emitted


def add(source, key, row_id, path, text, label, generator, family, domain, fmt, group, edited_human=False,
        attack=None, cleaners=()):
    repo, commit, licence = REPOS[key] if key in REPOS else key
    if text is None:
        drop(source, 'empty')
        return
    orig = text
    text = tidy(text)
    for name, fn in cleaners:
        new = fn(text)
        if new != text:
            CLEANING[(source, name)] += 1
            text = new
    text = tidy(text)
    if len(text) < MIN_CHARS:
        drop(source, f'too short (<{MIN_CHARS} chars)')
        return
    if looks_code(text):
        drop(source, 'code')
        return
    if not looks_english(text):
        drop(source, 'non-English (or no running prose)')
        return
    assert family in FAMILIES, family
    assert fmt in FORMATS, fmt
    assert (label == 0) == (family == 'human'), (source, row_id, label, family)
    ROWS.append({
        'id': f'{source}:{row_id}', 'text': text, 'label': label, 'source': source, 'repo': repo, 'commit': commit,
        'path': path, 'licence': licence, 'generator': generator, 'family': family, 'domain': domain,
        'format': fmt, 'edited_human': bool(edited_human), 'attack': attack, 'group': group,
        'split': None, 'language': 'en'})


def family_of(generator):
    g = (generator or '').lower()
    if not g:
        return 'human'
    if 'gpt-4' in g:
        return 'gpt-4'
    if 'gpt-3.5' in g or 'chatgpt' in g:
        return 'gpt-3.5'
    if 'claude' in g:
        return 'claude'
    if 'gemini' in g or 'palm' in g:
        return 'gemini-palm'
    if 'llama' in g:
        return 'llama'
    if re.search(r'gpt-?2|gpt-?3(?!\.)|davinci|gpt-?j|gpt-?neo|neox|opt-', g):
        return 'completion-gpt'
    return 'mistral-qwen-other'  # mistral, qwen, deepseek, flan-t5, falcon, dipper (t5-xxl) ...


# ----------------------------------------------------------------------------------------------------------------
# 1. BiScope

def load_biscope():
    m = Mirror('biscope')
    info = src_info('biscope', *REPOS['biscope'])
    if not m.ok:
        info['notes'].append('mirror absent: skipped')
        return
    dom = {'Arxiv': 'arxiv', 'Yelp': 'yelp', 'Creative': 'creative', 'Essay': 'essay'}
    gens = ['gpt-3.5-turbo', 'gpt-4-turbo-preview', 'claude-3-opus', 'claude-3-sonnet', 'gemini-1.0-pro']
    note('biscope', 'AI file i and human file i are aligned by index (same title / prompt / source review) when the '
                    'files have equal length; shorter AI files (Gemini, failed generations removed) get their own '
                    'groups. Essay_human.json is absent (>=4 MiB): the essay domain has AI rows only. '
                    'Paraphrased_Dataset rows: label 1, attack "paraphrase", same group as the AI text they '
                    'paraphrase. Format recorded as "generation" (the repo does not document the prompt; the Yelp '
                    'AI reviews visibly restate their human review).')
    for d, domain in dom.items():
        hp = f'Dataset/{d}/{d}_human.json'
        n_human = None
        cleaners = [('unwrap arxiv line breaks', unwrap)] if domain == 'arxiv' else []
        cleaners = cleaners + [('detokenise', detok)]
        if m.present(hp):
            data = json.loads(m.read(hp))
            info['paths'].append(hp)
            n_human = len(data)
            for i, x in enumerate(data):
                text = x['abs'] if isinstance(x, dict) and 'abs' in x else (
                    x['essay'] if isinstance(x, dict) else x)
                add('biscope', 'biscope', f'{domain}:human:{i}', hp, text, 0, None, 'human', domain, 'human',
                    f'biscope:{domain}:{i}', cleaners=cleaners)
        else:
            drop('biscope', f'file absent in mirror: {hp}')
        for para in (False, True):
            base = 'Paraphrased_Dataset' if para else 'Dataset'
            for g in gens:
                p = f'{base}/{d}/{d}_{g}.json'
                if not m.present(p):
                    drop('biscope', f'file absent in mirror: {p}')
                    continue
                data = json.loads(m.read(p))
                info['paths'].append(p)
                ref = n_human if n_human is not None else (1000 if d == 'Essay' else None)
                aligned = ref is not None and len(data) == ref
                for i, text in enumerate(data):
                    grp = f'biscope:{domain}:{i}' if aligned else f'biscope:{domain}:{g}:{"para" if para else "orig"}:{i}'
                    add('biscope', 'biscope', f'{domain}:{g}:{"para" if para else "orig"}:{i}', p, text, 1, g,
                        family_of(g), domain, 'paraphrase' if para else 'generation', grp,
                        attack='paraphrase' if para else None, cleaners=cleaners)


# ----------------------------------------------------------------------------------------------------------------
# 2. DetectRL

DRL_GEN = {'ChatGPT': 'gpt-3.5-turbo (ChatGPT)', 'Google-PaLM': 'google-palm', 'Claude-instant': 'claude-instant',
           'Llama-2-70b': 'llama-2-70b-chat'}
DRL_HUMAN_DOMAIN = {'abstract': 'arxiv', 'document': 'news', 'story': 'writing-prompts', 'content': 'yelp'}
DRL_FILE_DOMAIN = {'arxiv': 'arxiv', 'xsum': 'news', 'writing_prompt': 'writing-prompts', 'yelp_review': 'yelp'}
DIPPER = 'dipper-paraphraser-xxl (T5-XXL)'


def drl_semantics(label, data_type, llm_type, folder):
    """(label, generator, format, edited_human, attack) or None (drop). Read from Data_Generation/*.py:
    *_human keys are attacks applied to the HUMAN text; polish = the LLM of the row's llm_type rewrote it,
    dipper = DIPPER T5-XXL paraphraser, back_translation = Google Translate en->zh->en (Selenium),
    perturbation character/word/sent = TextAttack DeepWordBug / TextFooler / TextBugger."""
    gen = DRL_GEN.get(llm_type)
    if label == 'human':
        if data_type in DRL_HUMAN_DOMAIN:
            return (0, None, 'human', False, None)
        if folder == 'Paraphrase_Attacks_Human' and data_type == 'paraphrase_dipper_llm':
            data_type = 'paraphrase_dipper_human'   # mislabelled data_type inside paraphrase_attacks_human_test.json
        if data_type == 'paraphrase_polish_human':
            return (1, gen, 'polish', True, 'polish')
        if data_type == 'paraphrase_dipper_human':
            return (1, DIPPER, 'paraphrase', True, 'dipper')
        if data_type == 'paraphrase_back_translation_human':
            return None
        if data_type == 'adversarial_character_human':
            return (0, None, 'human', False, 'typo')
        if data_type == 'adversarial_word_human':
            return (0, None, 'human', False, 'word-swap')
        if data_type == 'adversarial_character_word_human':
            return (0, None, 'human', False, 'typo+word-swap')
        raise ValueError(data_type)
    table = {'direct_prompt': ('generation', None), 'prompt_few_shot': ('generation', 'prompt-attack'),
             'prompt_SICO': ('generation', 'prompt-attack'), 'prompt_ICO': ('generation', 'prompt-attack'),
             'paraphrase_polish_llm': ('polish', 'polish'), 'paraphrase_dipper_llm': ('paraphrase', 'dipper'),
             'paraphrase_back_translation_llm': ('paraphrase', 'back-translation'),
             'adversarial_character_llm': ('generation', 'typo'), 'adversarial_word_llm': ('generation', 'word-swap'),
             'adversarial_character_word_llm': ('generation', 'typo+word-swap')}
    fmt, attack = table[data_type]
    return (1, gen, fmt, False, attack)


def nb_train(samples):
    counts = collections.defaultdict(collections.Counter)
    totals = collections.Counter()
    for text, label in samples:
        for w in re.findall(r'[a-z]+', text.lower()):
            counts[label][w] += 1
            totals[label] += 1
    vocab = set()
    for c in counts.values():
        vocab.update(c)
    import math

    def predict(text):
        best = None
        for label in sorted(counts):
            s = 0.0
            c, t = counts[label], totals[label] + len(vocab)
            for w in re.findall(r'[a-z]+', text.lower()):
                s += math.log((c.get(w, 0) + 1) / t)
            if best is None or s > best[0]:
                best = (s, label)
        return best[1]
    return predict


def load_detectrl():
    m = Mirror('detectrl')
    info = src_info('detectrl', *REPOS['detectrl'])
    if not m.ok:
        info['notes'].append('mirror absent: skipped')
        return
    files = sorted(p for p in m.tree() if p.startswith('Benchmark/Benchmark_Data/') and p.endswith('_test.json'))
    uniq = {}       # text -> record
    for p in files:
        folder = p.split('/')[2]
        if folder.startswith('Data_Mixing'):
            drop('detectrl', 'Data_Mixing files skipped (sentence-mixed human/LLM texts: label ambiguous)',
                 1)
            continue
        if folder == 'Varying_Length':
            drop('detectrl', 'Varying_Length files skipped (length-truncated copies without llm_type)', 1)
            continue
        if not m.present(p):
            drop('detectrl', f'file absent in mirror: {p}')
            continue
        info['paths'].append(p)
        fdomain = next((v for k, v in DRL_FILE_DOMAIN.items() if f'multi_domains_{k}_' in p), None)
        for x in json.loads(m.read(p)):
            t = x['text']
            sem = drl_semantics(x['label'], x['data_type'], x.get('llm_type'), folder)
            r = uniq.get(t)
            if r is None:
                r = uniq[t] = {'sem': sem, 'paths': [], 'domain': None, 'dt': x['data_type'],
                               'llm': x.get('llm_type')}
            elif r['sem'] != sem:
                r.setdefault('conflict', True)
            r['paths'].append(p)
            if x['data_type'] in DRL_HUMAN_DOMAIN:
                r['domain'] = DRL_HUMAN_DOMAIN[x['data_type']]
            elif fdomain and r['domain'] is None:
                r['domain'] = fdomain
    note('detectrl', 'Each text read once (the same text recurs in up to ~10 files). Label semantics from '
                     'Data_Generation/*.py: human text polished by the row\'s LLM or paraphrased by DIPPER -> '
                     'label 1 edited_human; human text with DeepWordBug typos / TextFooler word swaps / TextBugger '
                     'stays label 0 with attack typo / word-swap / typo+word-swap; human text round-tripped through '
                     'Google Translate is dropped (machine-translated, not LLM-written: ambiguous). Data_Mixing '
                     '(sentence-level human/LLM mixes) and Varying_Length (truncated copies, no llm_type) skipped.')
    note('detectrl', 'format_process() deleted every newline: hard-wrapped arXiv abstracts became glued words '
                     '("themodel"), paragraphs became "end.Next". Repaired: missing space after sentence punctuation '
                     'restored; glued arXiv words split with a vocabulary counted on the rest of the corpus.')
    # domain of AI rows that never occur in a Multi_Domain file: naive Bayes on the rows whose domain is known
    known = [(t, r['domain']) for t, r in uniq.items() if r['domain']]
    predict = nb_train(known)
    inferred = 0
    for t in sorted(uniq):
        r = uniq[t]
        if r['domain'] is None:
            r['domain'] = predict(t)
            inferred += 1
    note('detectrl', f'{inferred} AI texts occur in no Multi_Domain file: domain inferred by a naive Bayes word '
                     f'model trained on the {len(known)} texts whose domain is known.')
    for t in sorted(uniq, key=lambda s: sha1(s)):
        r = uniq[t]
        if r.get('conflict'):
            drop('detectrl', 'same text with conflicting data_type semantics')
            continue
        if r['sem'] is None:
            drop('detectrl', 'human text back-translated by Google Translate (label ambiguous)')
            continue
        label, gen, fmt, edited, attack = r['sem']
        cleaners = [('stray "n"/"nn" left by deleted \\n escapes', lambda s: re.sub(
                        r'(?:^|(?<=[.!?"\')])|(?<=[.!?"\')] ))n{1,2}(?=[A-Z])', ' ', s)),
                    ('space after sentence end', lambda s: re.sub(r'([a-z][.!?]["\']?)([A-Z])', r'\1 \2', s)),
                    ('detokenise', detok)]
        if r['domain'] == 'arxiv':
            cleaners.append(('split glued arXiv words', split_glued))
        add('detectrl', 'detectrl', sha1(t)[:16], r['paths'][0], t, label, gen, family_of(gen), r['domain'], fmt,
            'detectrl:' + sha1(norm(t))[:16], edited_human=edited, attack=attack, cleaners=cleaners)


VOCAB = collections.Counter()


def split_glued(text):
    def fix(mo):
        w = mo.group(0)
        lw = w.lower()
        if len(lw) < 7 or VOCAB.get(lw, 0) >= 2:
            return w
        best = None
        for i in range(2, len(lw) - 1):
            a, b = VOCAB.get(lw[:i], 0), VOCAB.get(lw[i:], 0)
            if a >= 5 and b >= 5 and (best is None or min(a, b) > best[0]):
                best = (min(a, b), i)
        return w if best is None else w[:best[1]] + ' ' + w[best[1]:]
    return re.sub(r'[A-Za-z]+', fix, text)


# ----------------------------------------------------------------------------------------------------------------
# 3. OUTFOX

class RefusingUnpickler(pickle.Unpickler):
    def find_class(self, module, name):
        raise pickle.UnpicklingError(f'refused object type {module}.{name}')


def load_pickle_strings(data):
    obj = RefusingUnpickler(io.BytesIO(data)).load()
    if not isinstance(obj, list) or not all(isinstance(s, str) for s in obj):
        raise ValueError('not a list of strings')
    return obj


def load_outfox():
    m = Mirror('outfox')
    info = src_info('outfox', *REPOS['outfox'])
    if not m.ok:
        info['notes'].append('mirror absent: skipped')
        return
    gens = {'chatgpt': 'gpt-3.5-turbo-0613', 'text_davinci_003': 'text-davinci-003', 'flan_t5_xxl': 'flan-t5-xxl'}
    note('outfox', 'Pickles loaded with an Unpickler whose find_class refuses every object type. Index i of '
                   '<split>_humans, <split>_problem_statements and each model\'s <split>_lms are one triplet; group = '
                   'hash of the problem statement. DIPPER and OUTFOX attacks: label 1 (AI essays paraphrased by DIPPER '
                   '/ regenerated by ChatGPT to evade detection).')

    def get(p):
        if not m.present(p):
            drop('outfox', f'file absent in mirror: {p}')
            return None
        info['paths'].append(p)
        return load_pickle_strings(m.read(p))
    for split in ('valid', 'test'):
        humans = get(f'data/common/{split}/{split}_humans.pkl')
        ps = get(f'data/common/{split}/{split}_problem_statements.pkl')
        if humans is None or ps is None:
            continue
        grp = lambda i: 'outfox:' + sha1(norm(ps[i]))[:16]
        cl = [('detokenise', detok)]
        for i, t in enumerate(humans):
            add('outfox', 'outfox', f'{split}:human:{i}', f'data/common/{split}/{split}_humans.pkl', t, 0, None,
                'human', 'student-essay', 'human', grp(i), cleaners=cl)
        for key, gen in gens.items():
            p = f'data/{key}/{split}/{split}_lms.pkl'
            lms = get(p)
            if lms is None:
                continue
            assert len(lms) == len(ps)
            for i, t in enumerate(lms):
                add('outfox', 'outfox', f'{split}:{key}:{i}', p, t, 1, gen, family_of(gen), 'student-essay',
                    'generation', grp(i), cleaners=cl)
            if split == 'test':
                p = f'data/dipper/{key}/test_attacks.pkl'
                att = get(p)
                for i, t in enumerate(att or []):
                    add('outfox', 'outfox', f'{split}:{key}:dipper:{i}', p, t, 1, gen, family_of(gen),
                        'student-essay', 'paraphrase', grp(i), attack='dipper', cleaners=cl)
        if split == 'test':
            p = 'data/chatgpt/test/test_outfox_attacks.pkl'
            for i, t in enumerate(get(p) or []):
                add('outfox', 'outfox', f'{split}:outfox-attack:{i}', p, t, 1, 'gpt-3.5-turbo-0613', 'gpt-3.5',
                    'student-essay', 'generation', grp(i), attack='outfox-attack', cleaners=cl)


# ----------------------------------------------------------------------------------------------------------------
# 4. ImBD (squad + 500-pair polish set only; xsum / writing / pubmed are RESERVED: blocklist only)

def load_imbd():
    m = Mirror('imbd')
    info = src_info('imbd', *REPOS['imbd'])
    if not m.ok:
        info['notes'].append('mirror absent: skipped')
        return
    reserved_files = []
    for p in sorted(m.tree()):
        name = p.rsplit('/', 1)[-1]
        if p.startswith('data/') and p.endswith('.json') and re.match(r'(xsum|writing|pubmed)[._]', name) \
                and 'multilang' not in p:
            if not m.present(p):
                continue
            d = json.loads(m.read(p))
            for t in d.get('original', []):
                RESERVED.append(t)
            reserved_files.append(p)
    info['reserved_blocklist_files'] = reserved_files
    note('imbd', f'{len(RESERVED)} human originals of the reserved xsum/writing/pubmed files ({len(reserved_files)} '
                 f'files) were read only to build a blocklist (normalised-text hash, first-200-character hash and '
                 f'MinHash near-duplicates); nothing from them is emitted.')
    note('imbd', 'ai_detection_500_polish: the repo does not name the polishing model; the ImBD paper trains on '
                 'GPT-3.5-turbo polish, recorded as "gpt-3.5-turbo (assumed)". Its originals are web text.')
    seen = set()
    for task in ('polish', 'rewrite', 'expand', 'generation'):
        for p in sorted(x for x in m.tree() if x.startswith(f'data/{task}/') and
                        x.rsplit('/', 1)[-1].startswith(f'squad_{task}_')):
            if not m.present(p):
                drop('imbd', f'file absent in mirror: {p}')
                continue
            model = p.split('/')[2]
            d = json.loads(m.read(p))
            info['paths'].append(p)
            for i, (o, r) in enumerate(zip(d['original'], d['rewritten'])):
                g = 'imbd:' + sha1(norm(o))[:16]
                if g not in seen:
                    seen.add(g)
                    add('imbd', 'imbd', f'squad:human:{sha1(norm(o))[:12]}', p, o, 0, None, 'human', 'squad',
                        'human', g)
                add('imbd', 'imbd', f'squad:{task}:{model}:{i}', p, r, 1, model, family_of(model), 'squad',
                    'generation' if task == 'generation' else task, g, edited_human=task != 'generation')
    p = 'data/ai_detection_500_polish.raw_data.json'
    if m.present(p):
        d = json.loads(m.read(p))
        info['paths'].append(p)
        for i, (o, r) in enumerate(zip(d['original'], d['rewritten'])):
            g = 'imbd:' + sha1(norm(o))[:16]
            add('imbd', 'imbd', f'polish500:human:{i}', p, o, 0, None, 'human', 'web', 'human', g)
            add('imbd', 'imbd', f'polish500:ai:{i}', p, r, 1, 'gpt-3.5-turbo (assumed)', 'gpt-3.5', 'web', 'polish',
                g, edited_human=True)


# ----------------------------------------------------------------------------------------------------------------
# 5. SeqXGPT

def load_seqxgpt():
    m = Mirror('seqxgpt')
    info = src_info('seqxgpt', *REPOS['seqxgpt'])
    if not m.ok:
        info['notes'].append('mirror absent: skipped')
        return
    gens = {'gpt2': 'gpt-2', 'gpt3re': 'gpt-3 (davinci)', 'gptj': 'gpt-j-6b', 'gptneo': 'gpt-neo', 'llama': 'llama'}
    note('seqxgpt', 'document-level files: pure AI continuations (prompt already removed) and human documents from '
                    'mixed sources; no pairing is recorded, so each document is its own group. OOD sentence-level '
                    'files are documents too (human prompt + continuation, prompt_len given): the human prompt is cut '
                    'off the AI rows (at a word boundary) and rows sharing a prompt share a group. Domain "mixed" '
                    '(news, arXiv/PubMed, reviews, Wikipedia; not labelled per row).')
    cl = [('detokenise', detok)]
    for d in ('document-level detection dataset', 'OOD sentence-level detection dataset'):
        ood = d.startswith('OOD')
        for name in ('human', 'gpt2', 'gpt3', 'gptj', 'gptneo', 'llama'):
            p = f'SeqXGPT/dataset/{d}/{name}_lines.jsonl'
            if not m.present(p):
                drop('seqxgpt', f'file absent in mirror: {p}')
                continue
            info['paths'].append(p)
            for i, line in enumerate(m.read(p).decode('utf-8').splitlines()):
                if not line.strip():
                    continue
                x = json.loads(line)
                t = x['text']
                g = f'seqxgpt:{"ood" if ood else "doc"}:{name}:{i}'
                if ood:
                    g = 'seqxgpt:ood:' + sha1(norm(t)[:100])[:16]
                if x['label'] == 'human':
                    add('seqxgpt', 'seqxgpt', f'{"ood" if ood else "doc"}:human:{i}', p, t, 0, None, 'human',
                        'mixed', 'human', g, cleaners=cl)
                    continue
                gen = gens[x['label']]
                if ood:
                    k = int(x.get('prompt_len', 0))
                    while 0 < k < len(t) and not t[k - 1].isspace() and not t[k].isspace():
                        k += 1
                    t = t[k:]
                add('seqxgpt', 'seqxgpt', f'{"ood" if ood else "doc"}:{name}:{i}', p, t, 1, gen, family_of(gen),
                    'mixed', 'continuation', g, cleaners=cl)


# ----------------------------------------------------------------------------------------------------------------
# 5b. HC3 (Human ChatGPT Comparison Corpus, English): question answering

HC3_FILES = {'medicine': 'medicine-qa', 'open_qa': 'open-qa', 'wiki_csai': 'wiki-csai'}


def load_hc3():
    """HC3's medicine, open_qa and wiki_csai answers, from the CSV copies in nguyendinhthienloc/SC203 (its
    convert_all_hc3.py: per HC3 line, the human answers then the ChatGPT answers of >= 50 words, numbered in file
    order; the question itself is not kept). finance and reddit_eli5 copies are over the 4 MiB mirror limit."""
    m = Mirror('hc3')
    info = src_info('hc3', *REPOS['hc3'])
    if not m.ok:
        info['notes'].append('mirror absent: skipped')
        return
    note('hc3', 'Answers to questions: human answers (medicine: doctors on HealthCareMagic via MedDialog; open_qa: '
                'WikiQA Wikipedia sentences; wiki_csai: the Wikipedia paragraph on the topic) and ChatGPT '
                '(gpt-3.5, Dec 2022) answers to the same question. The copy drops the question, so a question is '
                'recovered from the row order (a human row after a ChatGPT row opens the next question); rows of one '
                'question share a group (an answer-only question merges into its neighbour: groups only get larger).')
    cl = [('detokenise', detok)]
    load_hc3_finance(m, info, cl)
    for name, domain in HC3_FILES.items():
        p = f'data/raw/hc3_{name}_full.csv'
        if not m.present(p):
            drop('hc3', f'file absent in mirror: {p}')
            continue
        info['paths'].append(p)
        reader = csv.reader(io.StringIO(m.read(p).decode('utf-8'), newline=''))
        header = next(reader)
        assert header == ['id', 'text', 'label'], header
        question, last = 0, None
        for row_id, text, label in reader:
            label = int(label)
            if label == 0 and last == 1:
                question += 1
            last = label
            g = f'hc3:{name}:{question}'
            if label == 0:
                add('hc3', 'hc3', f'{name}:{row_id}', p, text, 0, None, 'human', domain, 'human', g, cleaners=cl)
            else:
                add('hc3', 'hc3', f'{name}:{row_id}', p, text, 1, 'chatgpt (gpt-3.5, HC3)', 'gpt-3.5', domain,
                    'answer', g, cleaners=cl)


def load_hc3_finance(m, info, cl):
    """hc3_finance.csv: a 100 + 100 sample of HC3 finance (FiQA questions) answers of >= 50 words, in file order per
    HC3 line with the ChatGPT answers first (the file opens with ai_1, human_2; the _full copy is over 4 MiB). Which
    rows share a question is not certain from the order alone, so rows are grouped in blocks of 20 consecutive rows
    (cut only where an AI row follows a human row): a question split across two blocks is the most that can leak."""
    p = 'data/raw/hc3_finance.csv'
    if not m.present(p):
        drop('hc3', f'file absent in mirror: {p}')
        return
    info['paths'].append(p)
    note('hc3', 'finance: hc3_finance.csv (100 human, 100 ChatGPT answers sampled by the copy), rows grouped in '
                'blocks of about 20 consecutive rows because the question boundaries are uncertain; human answers '
                'from FiQA (StackExchange Personal Finance, CC BY-SA). ChatGPT answers there lost their paragraph '
                'breaks ("time.Small-cap"): a space is restored after a sentence end glued to a capital.')
    reader = csv.reader(io.StringIO(m.read(p).decode('utf-8'), newline=''))
    assert next(reader) == ['id', 'text', 'label']
    block, n_in_block, last = 0, 0, None
    glued = ('space after a sentence end glued to a capital', lambda t: re.sub(r'([a-z][.!?])([A-Z])', r'\1 \2', t))
    for row_id, text, label in reader:
        label = int(label)
        if label == 1 and last == 0 and n_in_block >= 20:
            block, n_in_block = block + 1, 0
        last = label
        n_in_block += 1
        g = f'hc3:finance:block{block}'
        if label == 0:
            add('hc3', 'hc3', f'finance:{row_id}', p, text, 0, None, 'human', 'finance-qa', 'human', g, cleaners=cl)
        else:
            add('hc3', 'hc3', f'finance:{row_id}', p, text, 1, 'chatgpt (gpt-3.5, HC3)', 'gpt-3.5', 'finance-qa',
                'answer', g, cleaners=[glued] + cl)


# ----------------------------------------------------------------------------------------------------------------
# 5c. L2R (Hao et al. 2024): human texts of 21 domains and their rewrites by four chat models

L2R_GEN = {'GPT-3-Turbo': 'gpt-3.5-turbo (L2R)', 'GPT-4o': 'gpt-4o', 'Gemini-1.5-Pro': 'gemini-1.5-pro',
           'Llama-3-70B': 'llama-3-70b'}


def load_l2r():
    m = Mirror('l2r')
    info = src_info('l2r', *REPOS['l2r'])
    if not m.ok:
        info['notes'].append('mirror absent: skipped')
        return
    note('l2r', 'L2R_dataset/<Domain>/human.json and <model>.json: model file i rewrites human text i (the paper\'s '
                'rewrite prompt; Gemini files are shorter, failed rewrites removed, so their rows are aligned by '
                'content only: each Gemini row is grouped with its most similar human row by the derived-copy pass). '
                'AI rows: label 1, format "rewrite", edited_human. Code domain skipped. One domain "l2r" for the 20 genres '
                '(the genre is in the row id): 20 small domains would take most of the weight under domain '
                'weighting. TravelTourism is a byte copy of TechnicalWriting: removed by the exact-duplicate pass.')
    domains = sorted({p.split('/')[1] for p in m.tree() if p.startswith('L2R_dataset/') and p.count('/') == 2
                      and p.endswith('.json')})
    for d in domains:
        if d == 'Code':
            drop('l2r', 'Code domain skipped (source code)')
            continue
        domain = 'l2r'
        hp = f'L2R_dataset/{d}/human.json'
        if not m.present(hp):
            drop('l2r', f'file absent in mirror: {hp}')
            continue
        human = json.loads(m.read(hp))
        info['paths'].append(hp)
        cl = [('detokenise', detok)]
        for i, t in enumerate(human):
            add('l2r', 'l2r', f'{d}:human:{i}', hp, t, 0, None, 'human', domain, 'human', f'l2r:{d}:{i}', cleaners=cl)
        for name, gen in L2R_GEN.items():
            p = f'L2R_dataset/{d}/{name}.json'
            if not m.present(p):
                drop('l2r', f'file absent in mirror: {p}')
                continue
            data = json.loads(m.read(p))
            info['paths'].append(p)
            aligned = len(data) == len(human)
            for i, t in enumerate(data):
                g = f'l2r:{d}:{i}' if aligned else f'l2r:{d}:{name}:{i}'
                add('l2r', 'l2r', f'{d}:{name}:{i}', p, t, 1, gen, family_of(gen), domain, 'rewrite', g,
                    edited_human=True, cleaners=cl)


# ----------------------------------------------------------------------------------------------------------------
# 5d. Coursework answers (Ibrahim et al. 2023): students and ChatGPT answering the same university course questions

def load_coursework():
    m = Mirror('coursework')
    info = src_info('coursework', *REPOS['coursework'])
    if not m.ok:
        info['notes'].append('mirror absent: skipped')
        return
    note('coursework', '"Student and GPT Responses/<course>/Q<n>/": three student answers (files named student*, '
                       'hum_*) and three ChatGPT answers (gpt*) per question, 10 questions per course; one group per '
                       'question. Programming courses ("(code)") and source files skipped; QuillBot paraphrases not '
                       'used. Domain "coursework", AI format "answer".')
    for p in sorted(m.tree()):
        parts = p.split('/')
        if parts[0] != 'Student and GPT Responses' or len(parts) != 4:
            continue
        course, q, name = parts[1], parts[2], parts[3].strip().lower()
        if '(code)' in course or re.search(r'\.(cpp|pbm|py|r|c|java)$', name):
            drop('coursework', 'programming course or source file')
            continue
        if name.startswith('gpt'):
            label = 1
        elif name.startswith('student') or name.startswith('hum_'):
            label = 0
        else:
            continue
        if not m.present(p):
            drop('coursework', f'file absent in mirror: {p}')
            continue
        info['paths'].append(p)
        text = m.read(p).decode('utf-8', 'replace')
        g = 'coursework:' + sha1(f'{course}/{q}')[:16]
        rid = sha1(p)[:16]
        if label == 0:
            add('coursework', 'coursework', rid, p, text, 0, None, 'human', 'coursework', 'human', g)
        else:
            add('coursework', 'coursework', rid, p, text, 1, 'chatgpt (gpt-3.5, early 2023)', 'gpt-3.5', 'coursework',
                'answer', g)


# ----------------------------------------------------------------------------------------------------------------
# 5e. Reddit answers (GRiD): the top human comments and ChatGPT's answer to the same AskHistorians, AskScience and
#     ELI5 questions

GRID_FILES = ['reddit_datasets/archive/askhistorians_2022-10-31_top-5-comments_json.zst',
              'reddit_datasets/archive/askscience_2022-10-31_top-5-comments_json.zst',
              'reddit_datasets/archive/explainlikeimfive_2022-10-31_top-5-comments_json.zst']
MD_LINK = re.compile(r'\[([^\]]*)\]\((?:[^()]|\([^()]*\))*\)')
URL = re.compile(r'https?://\S+')


def reddit_markup(text):
    """Reddit markdown and HTML entities are the human side's only: links -> their text, bare URLs, emphasis marks,
    quote markers, superscript carets and `&amp;`-style entities removed."""
    text = html.unescape(text)
    text = MD_LINK.sub(r'\1', text)
    text = URL.sub('', text)
    text = re.sub(r'(?m)^\s*(&gt;|>)\s?', '', text)
    text = re.sub(r'(\*{1,3}|~~|\^)(?=\S)|(?<=\S)(\*{1,3}|~~)', '', text)
    return re.sub(r'[ \t]{2,}', ' ', text)


def zstd_decompress(data):
    """The GRiD files are zstd-compressed; Python 3.11's standard library has no zstd, Debian's `zstd` tool does."""
    return subprocess.run(['zstd', '-d', '-c', '-q'], input=data, capture_output=True, check=True).stdout


def load_reddit_qa():
    m = Mirror('reddit_qa')
    info = src_info('reddit_qa', *REPOS['reddit_qa'])
    if not m.ok:
        info['notes'].append('mirror absent: skipped')
        return
    note('reddit_qa', 'GRiD\'s thread files (reddit_datasets/archive/<subreddit>_2022-10-31_top-5-comments_json.zst): '
                      'per question (post), its title, ChatGPT\'s answer (`gpt`) and the top 5 human comments. One '
                      'group per post. The CSV variants of the repository are the same texts without the question '
                      'and with punctuation removed: not used. The 2023 "askscience_old" and mixed-subreddit files '
                      'have no post ids: not used. Reddit markup removed from the human side (links -> their text, '
                      'URLs, emphasis, quote markers, entities). Domain "reddit-qa", AI format "answer".')
    for p in GRID_FILES:
        if not m.present(p):
            drop('reddit_qa', f'file absent in mirror: {p}')
            continue
        try:
            threads = json.loads(zstd_decompress(m.read(p)))
        except (OSError, subprocess.CalledProcessError) as e:
            drop('reddit_qa', f'not decompressed ({type(e).__name__}): {p}')
            continue
        info['paths'].append(p)
        cl = [('reddit markup', reddit_markup)]
        # Moderator and bot notices (AskHistorians' rules reminder ...) repeat under many questions: dropped, else the
        # exact-duplicate pass would join those questions' groups into one.
        seen = collections.Counter(norm(c.get('body') or '') for t in threads for c in t.get('comments') or [])
        for t in threads:
            pid = t.get('post_id')
            if not pid:
                drop('reddit_qa', 'thread without post id')
                continue
            g = f'reddit_qa:{pid}'
            for j, c in enumerate(t.get('comments') or []):
                if seen[norm(c.get('body') or '')] > 1:
                    drop('reddit_qa', 'moderator / bot notice (the same comment under several questions)')
                    continue
                add('reddit_qa', 'reddit_qa', f'{pid}:human:{j}', p, c.get('body'), 0, None, 'human', 'reddit-qa',
                    'human', g, cleaners=cl)
            add('reddit_qa', 'reddit_qa', f'{pid}:gpt', p, t.get('gpt'), 1, 'gpt-3.5-turbo (ChatGPT, 2023)', 'gpt-3.5',
                'reddit-qa', 'answer', g)


# ----------------------------------------------------------------------------------------------------------------
# 5f. GPT-wiki-intro pairs: a Wikipedia introduction and GPT-3 Curie's continuation of its first words

def load_wiki_intro():
    m = Mirror('wiki_intro')
    info = src_info('wiki_intro', *REPOS['wiki_intro'])
    if not m.ok:
        info['notes'].append('mirror absent: skipped')
        return
    p = 'wisent/support/examples/contrastive_pairs/humanization_human_vs_ai.json'
    note('wiki_intro', f'{p}: 100 pairs of aadityaubhat/GPT-wiki-intro (Bhat 2023): the human Wikipedia introduction '
                       'and text-curie-001\'s "200 word wikipedia style introduction" prompted with the title and the '
                       'introduction\'s first words (the continuation begins with them). One group per title; domain '
                       '"wikipedia", AI format "continuation".')
    if not m.present(p):
        drop('wiki_intro', f'file absent in mirror: {p}')
        return
    info['paths'].append(p)
    for i, pair in enumerate(json.loads(m.read(p))['pairs']):
        title = (pair.get('metadata') or {}).get('title') or str(i)
        g = 'wiki_intro:' + sha1(title)[:16]
        human = pair['positive_response']
        ai = pair['negative_response']
        assert human['metadata']['is_human'] and not ai['metadata']['is_human']
        add('wiki_intro', 'wiki_intro', f'{i}:human', p, human['model_response'], 0, None, 'human', 'wikipedia',
            'human', g)
        add('wiki_intro', 'wiki_intro', f'{i}:curie', p, ai['model_response'], 1, 'text-curie-001 (GPT-3 Curie)',
            'completion-gpt', 'wikipedia', 'continuation', g)


# ----------------------------------------------------------------------------------------------------------------
# 5g. Argumentative essays (Herbold et al. 2023): a student's essay and ChatGPT's and GPT-4's on each of 90 topics

def load_argument_essay():
    m = Mirror('argument_essay')
    info = src_info('argument_essay', *REPOS['argument_essay'])
    if not m.ok:
        info['notes'].append('mirror absent: skipped')
        return
    p = 'data/essays-without-markers.csv'
    note('argument_essay', f'{p} (";"-separated): per topic (90) the student essay of the Argument Annotated Essays '
                           'corpus and the essays ChatGPT (gpt-3.5-turbo) and GPT-4 wrote on the same topic (the '
                           'paper\'s prompt asks for an essay of about 350 words). One group per topic; domain '
                           '"argument-essay" (its own domain, not OUTFOX\'s "student-essay": other students, other '
                           'prompts), AI format "generation".')
    if not m.present(p):
        drop('argument_essay', f'file absent in mirror: {p}')
        return
    info['paths'].append(p)
    for r in csv.DictReader(io.StringIO(m.read(p).decode('utf-8')), delimiter=';'):
        g = f'argument_essay:{r["id"]}'
        add('argument_essay', 'argument_essay', f'{r["id"]}:student', p, r['Student'], 0, None, 'human',
            'argument-essay', 'human', g)
        for col, gen in (('ChatGPT-3', 'gpt-3.5-turbo (ChatGPT, 2023)'), ('ChatGPT-4', 'gpt-4 (2023)')):
            add('argument_essay', 'argument_essay', f'{r["id"]}:{col}', p, r[col], 1, gen, family_of(gen),
                'argument-essay', 'generation', g)


# ----------------------------------------------------------------------------------------------------------------
# 6. shared aitext/ sets (port of packages/classifiers/training/datasets.mjs)

def read_jsonl(path):
    with open(path, encoding='utf-8') as f:
        return [json.loads(l) for l in f if l.strip()]


def readme_meta(folder):
    meta = {}
    p = folder / 'README.txt'
    if p.exists():
        for line in p.read_text(encoding='utf-8').splitlines():
            for k in ('Repo', 'Commit', 'License'):
                if line.startswith(k + ':') and k not in meta:
                    meta[k] = line.split(':', 1)[1].strip()
    return meta


def strip_shared_prefix(human, ai):
    i = 0
    n = min(len(human), len(ai))
    while i < n and human[i] == ai[i]:
        i += 1
    while i > 0 and not human[i - 1].isspace():
        i -= 1
    return human[i:], ai[i:]


def gen_of(g):
    return None if g in (None, 'None', '') else g


def load_aitext():
    root = DATASETS / 'aitext'
    if not root.is_dir():
        print(f'SKIP aitext: {root} absent', file=sys.stderr)
        return

    def setup(source, folder, files):
        meta = readme_meta(root / folder)
        info = src_info(source, meta.get('Repo', '?'), meta.get('Commit', '?'), meta.get('License', '?'))
        info['paths'] += [f'aitext/{folder}/{f}' for f in files]
        key = (meta.get('Repo', '?'), meta.get('Commit', '?'), meta.get('License', '?'))
        return key
    cl = [('detokenise', detok)]
    # fastdetectgpt: continuation of the human text's first ~30 tokens: drop the shared prefix from both sides,
    # keep one copy of each human text.
    f = 'fastdetectgpt_open_models/exp_main.jsonl'
    if (root / f).exists():
        key = setup('fastdetectgpt', 'fastdetectgpt_open_models', ['exp_main.jsonl'])
        note('fastdetectgpt', 'Shared human/AI prefix (~30 tokens) stripped from both sides at a word boundary; one '
                              'copy of each human text (paired with five generators).')
        pairs = collections.OrderedDict()
        for r in read_jsonl(root / f):
            pairs.setdefault(r['pair_id'], {})[r['label']] = r
        seen = set()
        dmap = {'xsum': 'news', 'writing': 'writing-prompts', 'squad': 'squad'}
        for pid, p in pairs.items():
            if 'human' not in p or 'ai' not in p:
                drop('fastdetectgpt', 'unpaired row')
                continue
            h, a = strip_shared_prefix(p['human']['text'], p['ai']['text'])
            dom = dmap.get(p['ai']['domain'], p['ai']['domain'])
            g = 'fastdetectgpt:' + p['ai']['group']
            gen = gen_of(p['ai']['generator'])
            add('fastdetectgpt', key, f'{pid}:ai', p['ai']['source'], a, 1, gen, family_of(gen), dom, 'continuation',
                g, cleaners=cl)
            if h not in seen:
                seen.add(h)
                add('fastdetectgpt', key, f'{pid}:human', p['human']['source'], h, 0, None, 'human', dom, 'human', g,
                    cleaners=cl)
            else:
                drop('fastdetectgpt', 'same human text paired with another generator (one copy kept)')
    f = 'm4_llama2/m4_llama2_examples.jsonl'
    if (root / f).exists():
        key = setup('m4', 'm4_llama2', ['m4_llama2_examples.jsonl'])
        note('m4', 'Rows with chat_preamble=True ("Sure, here\'s ...") dropped as in datasets.mjs; non-English rows '
                   'dropped; WikiHow ".," scraping separators replaced by "."; arXiv line wraps joined.')
        for r in read_jsonl(root / f):
            if r.get('lang') != 'en':
                drop('m4', 'non-English (lang field)')
                continue
            if r.get('chat_preamble') is True:
                drop('m4', 'chat preamble ("Sure, here\'s ...") as in datasets.mjs')
                continue
            dom = r['domain']
            cls = list(cl)
            if dom == 'wikihow':
                cls.insert(0, ('wikihow ".," separators', lambda s: s.replace('.,', '.')))
            if dom == 'arxiv':
                cls.insert(0, ('unwrap arxiv line breaks', unwrap))
            gen = gen_of(r['generator'])
            lab = 1 if r['label'] == 'ai' else 0
            fmt = 'human' if lab == 0 else ('answer' if dom == 'reddit' else 'generation')
            add('m4', key, f'{r["pair_id"]}:{r["label"]}', r['source'], r['text'], lab, gen if lab else None,
                family_of(gen) if lab else 'human', dom, fmt, 'm4:' + r['pair_id'], cleaners=cls)
    f = 'hc3plus_si/val_hc3_si_en.jsonl'
    if (root / f).exists():
        key = setup('hc3plus_si', 'hc3plus_si', ['val_hc3_si_en.jsonl'])
        note('hc3plus_si', 'HELD_OUT (always test). " .\\n" (tokenised CNN/DM highlight bullets, human only) -> ".\\n". '
                           'Semantic-invariant tasks (summary / translation / paraphrase); format recorded as '
                           '"summary" for AI rows (task not given per row).')
        for r in read_jsonl(root / f):
            lab = 1 if r['label'] == 'ai' else 0
            gen = gen_of(r['generator'])
            add('hc3plus_si', key, f'{r["idx"]}:{r["label"]}', r['source'], r['text'], lab, gen if lab else None,
                family_of(gen) if lab else 'human', 'semantic-invariant', 'summary' if lab else 'human',
                f'hc3plus_si:{r["idx"]}',
                cleaners=[('hc3 " .\\n" fix', lambda s: s.replace(' .\n', '.\n'))] + cl)
    f = 'binoculars_pubmed/pubmed_falcon7.jsonl'
    if (root / f).exists():
        key = setup('binoculars', 'binoculars_pubmed', ['pubmed_falcon7.jsonl'])
        note('binoculars', 'HELD_OUT (binoculars_pubmed: always test). Both sides lower-cased PubMed style.')
        for i, r in enumerate(read_jsonl(root / f)):
            lab = 1 if r['label'] == 'ai' else 0
            gen = gen_of(r['generator'])
            add('binoculars', key, str(i), r['source'], r['text'], lab, gen if lab else None,
                family_of(gen) if lab else 'human', 'pubmed', 'continuation' if lab else 'human',
                f'binoculars:{r.get("pair_id", i)}', cleaners=cl)
    f = 'mgtbench_truthfulqa/truthfulqa_chatgpt.jsonl'
    if (root / f).exists():
        key = setup('mgtbench', 'mgtbench_truthfulqa', ['truthfulqa_chatgpt.jsonl'])
        note('mgtbench', 'HELD_OUT (mgtbench_truthfulqa: always test). Human answers are one sentence (<300 chars): '
                         'all dropped by the length floor, so only AI rows remain.')
        for i, r in enumerate(read_jsonl(root / f)):
            lab = 1 if r['label'] == 'ai' else 0
            gen = gen_of(r['generator'])
            add('mgtbench', key, str(i), r['source'], r['text'], lab, gen if lab else None,
                family_of(gen) if lab else 'human', 'qa', 'answer' if lab else 'human',
                f'mgtbench:{r["pair_id"]}', cleaners=cl)


HELD_OUT_SOURCES = {'hc3plus_si', 'mgtbench', 'binoculars'}  # source keys of the HELD_OUT data sets


# ----------------------------------------------------------------------------------------------------------------
# 7. nltk_data human text

PASSAGE_TARGETS = [450, 800, 1300, 2000, 2800, 600, 1000, 1600, 2400]


def split_sentences(par):
    return [s for s in re.split(r'(?:(?<=[.!?])|(?<=[.!?]["\')\]]))\s+(?=[A-Z"\'(\[])', par) if s]


def passages(doc, key):
    """Cut a document into passages of 400..3000 chars at paragraph (else sentence) boundaries, with lengths
    cycling deterministically through PASSAGE_TARGETS."""
    units = []
    for par in re.split(r'\n\s*\n', doc):
        par = par.strip()
        if not par:
            continue
        if len(par) <= 2000:
            units.append((par, '\n\n'))
        else:
            units += [(s, ' ') for s in split_sentences(par)]
    out, cur = [], ''
    k = int(sha1(key), 16) % len(PASSAGE_TARGETS)
    for u, sep in units:
        if len(u) > 3000:
            continue
        cand = (cur + sep + u) if cur else u
        if len(cand) > 3000:
            if len(cur) >= 400:
                out.append(cur)
                k += 1
            cur = u
            continue
        cur = cand
        if len(cur) >= PASSAGE_TARGETS[k % len(PASSAGE_TARGETS)]:
            out.append(cur)
            k += 1
            cur = ''
    if len(cur) >= 400:
        out.append(cur)
    return out


def masc_detag(raw):
    lines = []
    for line in raw.split('\n'):
        toks = []
        for tok in line.split():
            w, _, tag = tok.rpartition('_')
            if not w:
                w, tag = tok, ''
            if tag == '``':
                w = '``'
            elif tag == "''":
                w = "''"
            toks.append(w)
        lines.append(' '.join(toks))
    text = '\n'.join(lines)
    text = re.sub(r'`` ', '"', text)
    text = re.sub(r" ''", '"', text)
    text = re.sub(r'\$ (?=\d)', '$', text)
    return detok(text)


def load_nltk():
    m = Mirror('nltk')
    for s in ('nltk_masc', 'nltk_state_union', 'nltk_inaugural', 'nltk_movie_reviews', 'nltk_product_reviews'):
        src_info(s, *REPOS['nltk'])
    if not m.ok:
        return
    lic = {'nltk_masc': 'MASC (open, commercial use allowed)', 'nltk_state_union': 'public domain',
           'nltk_inaugural': 'public domain', 'nltk_movie_reviews': 'movie_reviews (Pang & Lee, nltk_data)',
           'nltk_product_reviews': 'CC BY 4.0 (Hu & Liu)'}
    for s, l in lic.items():
        MANIFEST[s]['licence'] = l

    def zipped(name, source):
        p = f'packages/corpora/{name}.zip'
        if not m.present(p):
            drop(source, f'file absent in mirror: {p}')
            return None
        MANIFEST[source]['paths'].append(p)
        return zipfile.ZipFile(io.BytesIO(m.read(p)))

    def emit(source, key, path, doc, domain, licence_key=None):
        ps = passages(doc, f'{source}:{path}')
        if not ps:
            drop(source, 'document shorter than one 400-char passage')
        for j, t in enumerate(ps):
            add(source, REPOS_NLTK(source), f'{path}:{j}', f'{key}!{path}', t, 0, None, 'human', domain, 'human',
                f'{source}:{path}')

    z = zipped('masc_tagged', 'nltk_masc')
    if z:
        cats = {}
        for line in z.read('masc_tagged/categories.txt').decode('utf-8').splitlines():
            parts = line.split()
            if len(parts) == 2:
                cats[parts[0]] = parts[1]
        dmap = {'newspaper': 'news', 'essays': 'essay', 'travel-guides': 'travel', 'ficlets': 'fiction',
                'govt-docs': 'government', 'letters': 'letters', 'jokes': 'jokes', 'twitter': 'twitter',
                'spam': 'spam'}
        note('nltk_masc', 'written/ genres only (spoken transcripts skipped); POS tags stripped and PTB spacing '
                          'undone; genre from categories.txt as domain.')
        for n in sorted(z.namelist()):
            rel = n[len('masc_tagged/'):]
            if rel not in cats:
                continue
            if not rel.startswith('written/'):
                drop('nltk_masc', 'spoken transcript (not written text)')
                continue
            doc = masc_detag(z.read(n).decode('utf-8', 'replace'))
            emit('nltk_masc', 'packages/corpora/masc_tagged.zip', n, doc, dmap.get(cats[rel], cats[rel]))
    for name, source in (('state_union', 'nltk_state_union'), ('inaugural', 'nltk_inaugural')):
        z = zipped(name, source)
        if not z:
            continue
        for n in sorted(z.namelist()):
            if n.endswith('/') or not n.endswith('.txt'):
                continue
            doc = z.read(n).decode('latin-1')
            emit(source, f'packages/corpora/{name}.zip', n, tidy(doc), 'speeches')
    z = zipped('movie_reviews', 'nltk_movie_reviews')
    if z:
        note('nltk_movie_reviews', 'Lower-cased, tokenised text (a human-only artefact): PTB spacing undone and '
                                   'sentence starts / "i" re-capitalised.')
        for n in sorted(z.namelist()):
            if not n.endswith('.txt') or '/neg/' not in n and '/pos/' not in n:
                continue
            doc = z.read(n).decode('latin-1')
            doc = sentence_case(detok(doc.replace(' \n', '\n')))
            # one sentence per line in the files: rebuild paragraphs of ~5 sentences
            sents = [s.strip() for s in doc.split('\n') if s.strip()]
            doc = '\n\n'.join(' '.join(sents[i:i + 5]) for i in range(0, len(sents), 5))
            emit('nltk_movie_reviews', 'packages/corpora/movie_reviews.zip', n, doc, 'movie-review')
    for name in ('product_reviews_1', 'product_reviews_2'):
        z = zipped(name, 'nltk_product_reviews')
        if not z:
            continue
        note('nltk_product_reviews', 'Annotations ([t] titles, feature[+n]## tags) removed; one row per review.')
        for n in sorted(z.namelist()):
            if not n.endswith('.txt') or 'Readme' in n or 'README' in n:
                continue
            raw = z.read(n).decode('latin-1')
            reviews, cur = [], []
            for line in raw.splitlines():
                if line.startswith('*'):
                    continue
                if line.startswith('[t]'):
                    if cur:
                        reviews.append(cur)
                    cur = []
                    continue
                if '##' in line:
                    cur.append(line.split('##', 1)[1].strip())
            if cur:
                reviews.append(cur)
            for j, sents in enumerate(reviews):
                t = ' '.join(s for s in sents if s)
                path = f'{n}#{j}'
                add('nltk_product_reviews', REPOS_NLTK('nltk_product_reviews'), path,
                    f'packages/corpora/{name}.zip!{n}', t, 0, None, 'human', 'product-review', 'human',
                    f'nltk_product_reviews:{path}',
                    cleaners=[('detokenise', detok), ('re-capitalise sentence starts and "i"', sentence_case)])


def REPOS_NLTK(source):
    repo, commit, _ = REPOS['nltk']
    return (repo, commit, MANIFEST[source]['licence'])


# ----------------------------------------------------------------------------------------------------------------
# dedup + groups + splits

class UF:
    def __init__(self):
        self.p = {}

    def find(self, x):
        p = self.p
        p.setdefault(x, x)
        root = x
        while p[root] != root:
            root = p[root]
        while p[x] != root:
            p[x], x = root, p[x]
        return root

    def union(self, a, b):
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return False
        if rb < ra:
            ra, rb = rb, ra
        self.p[rb] = ra   # the smallest key is the root: deterministic group names
        return True


NBINS = 64
BANDS, ROWS_PER_BAND = 16, 4
WORD_IDS = {}


def minhash(nt):
    words = nt.split(' ')
    ids = []
    for w in words:
        h = WORD_IDS.get(w)
        if h is None:
            h = WORD_IDS[w] = zlib.crc32(w.encode('utf-8'))
        ids.append(h)
    if len(ids) < 5:
        return None
    big = 1 << 62
    sig = [big] * NBINS
    for t in zip(ids, ids[1:], ids[2:], ids[3:], ids[4:]):
        h = hash(t) & 0xFFFFFFFFFFFFFFFF   # tuples of ints hash deterministically (no string hash randomisation)
        h = (h * 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
        b = h & 63
        v = h >> 6
        if v < sig[b]:
            sig[b] = v
    # densification of empty bins (one-permutation hashing): borrow the next non-empty bin, salted by distance
    if big in sig:
        filled = [i for i in range(NBINS) if sig[i] != big]
        if not filled:
            return None
        out = list(sig)
        for i in range(NBINS):
            if sig[i] == big:
                j = 1
                while sig[(i + j) % NBINS] == big:
                    j += 1
                out[i] = (sig[(i + j) % NBINS] + j * 0x5851F42D4C957F2D) & 0xFFFFFFFFFFFFFFFF
        sig = out
    return sig


def jaccard_est(a, b):
    return sum(1 for x, y in zip(a, b) if x == y) / NBINS


def main():
    load_biscope()
    load_outfox()
    load_imbd()
    load_seqxgpt()
    load_hc3()
    load_l2r()
    load_coursework()
    if 'reddit_qa' not in EXCLUDE:
        load_reddit_qa()
    if 'wiki_intro' not in EXCLUDE:
        load_wiki_intro()
    if 'argument_essay' not in EXCLUDE:
        load_argument_essay()
    load_aitext()
    load_nltk()
    # vocabulary for repairing DetectRL's glued arXiv words: counted on everything loaded so far (DetectRL excluded)
    for r in ROWS:
        VOCAB.update(w.lower() for w in re.findall(r'[A-Za-z]+', r['text']))
    load_detectrl()
    print(f'loaded {len(ROWS)} rows in {time.time() - T0:.1f}s', file=sys.stderr)

    rows = sorted(ROWS, key=lambda r: r['id'])
    ids = [r['id'] for r in rows]
    dup = [k for k, v in collections.Counter(ids).items() if v > 1]
    assert not dup, f'duplicate ids: {dup[:5]}'
    uf = UF()
    stats = collections.Counter()

    # reserved blocklist (ImBD xsum / writing / pubmed human originals)
    res_full, res_pre = set(), set()
    res_norm = []
    for t in RESERVED:
        n = norm(t)
        res_norm.append(n)
        res_full.add(sha1(n))
        res_pre.add(sha1(n[:200]))
    kept = []
    for r in rows:
        n = norm(r['text'])
        r['_n'] = n
        if sha1(n) in res_full or sha1(n[:200]) in res_pre:
            drop(r['source'], 'reserved overlap (ImBD xsum/writing/pubmed original: exact or first-200-char)')
            stats['reserved_exact_or_prefix'] += 1
            continue
        kept.append(r)
    rows = kept

    def richness(r):
        return (r['source'] not in HELD_OUT_SOURCES, sum(1 for k in ('generator', 'attack', 'domain') if r[k]),
                len(r['path']), r['id'])

    # exact duplicates
    by_text = collections.defaultdict(list)
    for r in rows:
        by_text[sha1(r['_n'])].append(r)
    kept = []
    for key in sorted(by_text):
        grp = by_text[key]
        if len({r['label'] for r in grp}) > 1:
            for r in grp:
                drop(r['source'], 'exact duplicate carrying a different label (all copies dropped)')
            stats['exact_label_conflict_rows'] += len(grp)
            continue
        grp.sort(key=richness, reverse=True)
        best = grp[0]
        for r in grp[1:]:
            uf.union(best['group'], r['group'])
            drop(r['source'], f'exact duplicate (kept {best["source"]})')
            stats['exact_duplicates_dropped'] += 1
        kept.append(best)
    rows = kept

    # prefix variants (same first 200 normalised characters)
    by_pre = collections.defaultdict(list)
    for r in rows:
        by_pre[sha1(r['_n'][:200])].append(r)
    kept = []
    for key in sorted(by_pre):
        grp = by_pre[key]
        for r in grp[1:]:
            uf.union(grp[0]['group'], r['group'])
        if len(grp) == 1:
            kept.append(grp[0])
            continue
        for lab in sorted({r['label'] for r in grp}):
            sub = sorted((r for r in grp if r['label'] == lab), key=lambda r: (len(r['text']),) + richness(r),
                         reverse=True)
            kept.append(sub[0])
            for r in sub[1:]:
                drop(r['source'], f'prefix variant (same first 200 chars; kept the longest, {sub[0]["source"]})')
                stats['prefix_variants_dropped'] += 1
        if len({r['label'] for r in grp}) > 1:
            stats['prefix_groups_with_both_labels_kept_and_grouped'] += 1
    rows = sorted(kept, key=lambda r: r['id'])

    # near duplicates: MinHash (64 one-permutation bins, densified) over word 5-grams, LSH 16 bands x 4 rows
    t1 = time.time()
    sigs = []
    for r in rows:
        sigs.append(minhash(r['_n']))
    res_sigs = [minhash(n) for n in res_norm]
    nodes = [(s, ('row', i)) for i, s in enumerate(sigs) if s is not None] + \
            [(s, ('res', i)) for i, s in enumerate(res_sigs) if s is not None]
    buckets = collections.defaultdict(list)
    for idx, (s, _) in enumerate(nodes):
        for b in range(BANDS):
            buckets[(b, tuple(s[b * ROWS_PER_BAND:(b + 1) * ROWS_PER_BAND]))].append(idx)
    checked = set()
    near_pairs = 0
    reserved_rows = set()

    def node_group(node):
        kind, i = node
        return rows[i]['group'] if kind == 'row' else f'reserved:{i}'
    for key in sorted(buckets, key=lambda k: (k[0], k[1])):
        mem = buckets[key]
        if len(mem) < 2:
            continue
        if len(mem) <= 40:
            pairs = [(mem[a], mem[b]) for a in range(len(mem)) for b in range(a + 1, len(mem))]
        else:
            pairs = [(mem[0], x) for x in mem[1:]] + list(zip(mem[1:], mem[2:]))
        for a, b in pairs:
            if (a, b) in checked:
                continue
            checked.add((a, b))
            if jaccard_est(nodes[a][0], nodes[b][0]) >= 0.6:
                na, nb = nodes[a][1], nodes[b][1]
                if na[0] == 'res' and nb[0] == 'res':
                    continue
                near_pairs += 1
                if uf.union(node_group(na), node_group(nb)):
                    stats['near_duplicate_group_unions'] += 1
    stats['near_duplicate_pairs'] = near_pairs
    print(f'minhash + LSH: {len(nodes)} signatures, {len(checked)} candidate pairs, {near_pairs} near-duplicate '
          f'pairs in {time.time() - t1:.1f}s', file=sys.stderr)

    # derived-copy links: typo / word-swap / DIPPER / polish copies change too many word 5-grams for MinHash, so
    # each attacked or AI-edited row is also matched to its most similar unattacked row (rare-word candidates,
    # word-set Jaccard >= 0.5; >= 0.4 for an AI edit of a human text, searched among human rows only).
    t2 = time.time()
    wid = {}

    def wset(text):
        return frozenset(wid.setdefault(w, len(wid)) for w in re.findall(r'[a-z]+', text))
    pool = [i for i, r in enumerate(rows) if r['attack'] is None and not r['edited_human']]
    psets = {i: wset(rows[i]['_n']) for i in pool}
    inv = collections.defaultdict(list)
    for i in pool:
        for w in psets[i]:
            inv[w].append(i)
    links = 0
    for qi, r in enumerate(rows):
        if r['attack'] is None and not r['edited_human']:
            continue
        qs = wset(r['_n'])
        rare = sorted((w for w in qs if w in inv), key=lambda w: (len(inv[w]), w))[:8]
        cand = collections.Counter()
        for w in rare:
            if len(inv[w]) <= 2000:
                cand.update(inv[w])
        best = (0.0, None)
        for ci, _ in sorted(cand.items(), key=lambda kv: (-kv[1], kv[0]))[:25]:
            c = rows[ci]
            if r['edited_human'] and c['label'] != 0:
                continue
            if not r['edited_human'] and c['label'] != r['label']:
                continue
            s2 = psets[ci]
            j = len(qs & s2) / len(qs | s2)
            if j > best[0]:
                best = (j, ci)
        if best[1] is not None and best[0] >= (0.4 if r['edited_human'] else 0.5):
            links += 1
            if uf.union(r['group'], rows[best[1]]['group']):
                stats['derived_copy_group_unions'] += 1
    stats['derived_copy_links'] = links
    del psets, inv
    print(f'derived-copy linking: {links} links in {time.time() - t2:.1f}s', file=sys.stderr)

    # final groups; drop every row whose group touches a reserved text; held-out groups are test only
    comp_res = {uf.find(f'reserved:{i}') for i, s in enumerate(res_sigs) if s is not None and f'reserved:{i}' in uf.p}
    comp_held = {uf.find(r['group']) for r in rows if r['source'] in HELD_OUT_SOURCES}
    out = []
    for r in rows:
        root = uf.find(r['group'])
        if root in comp_res:
            drop(r['source'], 'reserved overlap (near duplicate of an ImBD reserved original, whole group)')
            stats['reserved_near_duplicate_group_rows'] += 1
            continue
        r['_g0'] = r['group']
        r['group'] = root
        if r['source'] in HELD_OUT_SOURCES or root in comp_held:
            r['split'] = 'test'
            if r['source'] not in HELD_OUT_SOURCES:
                stats['rows_forced_to_test_by_held_out_group'] += 1
        else:
            b = int(hashlib.sha1(root.encode('utf-8')).hexdigest(), 16) % 100
            r['split'] = 'train' if b < 60 else ('calib' if b < 75 else 'test')
        out.append(r)
    rows = out
    initial_groups = len({r['_g0'] for r in rows})
    final_groups = len({r['group'] for r in rows})
    stats['groups_final'] = final_groups

    # write
    OUT.mkdir(parents=True, exist_ok=True)
    fields = ['id', 'text', 'label', 'source', 'repo', 'commit', 'path', 'licence', 'generator', 'family', 'domain',
              'format', 'edited_human', 'attack', 'group', 'split', 'language']
    with open(OUT / 'rows.jsonl', 'w', encoding='utf-8') as f:
        for r in rows:
            f.write(json.dumps({k: r[k] for k in fields}, ensure_ascii=False) + '\n')

    def counts(rs, key):
        return dict(sorted(collections.Counter(str(r[key]) for r in rs).items()))
    by_source = collections.defaultdict(list)
    for r in rows:
        by_source[r['source']].append(r)
    sources = {}
    for s in sorted(MANIFEST):
        info = MANIFEST[s]
        rs = by_source.get(s, [])
        sources[s] = {
            'repo': info['repo'], 'commit': info['commit'], 'licence': info['licence'],
            'held_out': s in HELD_OUT_SOURCES, 'paths': info['paths'],
            'rows': len(rs), 'label': counts(rs, 'label'), 'family': counts(rs, 'family'),
            'generator': counts(rs, 'generator'), 'domain': counts(rs, 'domain'), 'format': counts(rs, 'format'),
            'attack': counts(rs, 'attack'), 'edited_human': counts(rs, 'edited_human'), 'split': counts(rs, 'split'),
            'dropped': dict(sorted(info['dropped'].items())),
            'cleaning': {k[1]: v for k, v in sorted(CLEANING.items()) if k[0] == s},
            'notes': info['notes'],
        }
        for k in ('reserved_blocklist_files',):
            if k in info:
                sources[s][k] = info[k]
    manifest = {
        'built_by': 'packages/classifiers/training/corpus/build_corpus.py',
        'rows': len(rows), 'groups_before_merging': initial_groups, 'groups_final': final_groups,
        'label': counts(rows, 'label'), 'family': counts(rows, 'family'), 'split': counts(rows, 'split'),
        'held_out_sets': sorted(HELD_OUT), 'min_chars': MIN_CHARS,
        'dedup': dict(sorted(stats.items())),
        'dedup_method': 'exact: NFKC + lower case + collapsed whitespace, sha1; label conflicts drop all copies. '
                        'prefix: same first 200 normalised chars = same document, keep the longest per label, union '
                        'groups. near: one-permutation MinHash (64 bins, densified) over word 5-grams, LSH 16x4, '
                        'estimated Jaccard >= 0.6 -> union-find of groups (rows kept). split = sha1(group) % 100: '
                        '<60 train, <75 calib, else test; HELD_OUT sets and any group containing one of their rows: '
                        'test.',
        'reserved_blocklist_texts': len(RESERVED),
        'sources': sources,
    }
    with open(OUT / 'manifest.json', 'w', encoding='utf-8') as f:
        json.dump(manifest, f, ensure_ascii=False, indent=1, sort_keys=False)
        f.write('\n')

    print_tables(rows, stats, initial_groups, final_groups)
    print(f'\nwrote {len(rows)} rows to {OUT / "rows.jsonl"} and {OUT / "manifest.json"} in '
          f'{time.time() - T0:.1f}s')


def table(title, rows, rkey, ckey, cols=None):
    c = collections.Counter((str(r[rkey]), str(r[ckey])) for r in rows)
    rk = sorted({k[0] for k in c})
    cols = cols or sorted({k[1] for k in c})
    w = max([len(title)] + [len(x) for x in rk]) + 2
    print(f'\n{title:<{w}}' + ''.join(f'{x:>10}' for x in cols) + f'{"total":>10}')
    for k in rk:
        print(f'{k:<{w}}' + ''.join(f'{c.get((k, x), 0):>10}' for x in cols) + f'{sum(c.get((k, x), 0) for x in cols):>10}')
    print(f'{"total":<{w}}' + ''.join(f'{sum(v for kk, v in c.items() if kk[1] == x):>10}' for x in cols) +
          f'{sum(c.values()):>10}')


def print_tables(rows, stats, g0, g1):
    table('source x label', rows, 'source', 'label', ['0', '1'])
    table('family x split', rows, 'family', 'split', ['train', 'calib', 'test'])
    table('domain x label', rows, 'domain', 'label', ['0', '1'])
    table('format x label', rows, 'format', 'label', ['0', '1'])
    table('source x split', rows, 'source', 'split', ['train', 'calib', 'test'])
    table('label x split', rows, 'label', 'split', ['train', 'calib', 'test'])
    print('\ndedup:', json.dumps(dict(sorted(stats.items()))))
    print(f'groups: {g0} initial group keys -> {g1} final groups ({g0 - g1} merged away)')


if __name__ == '__main__':
    main()
