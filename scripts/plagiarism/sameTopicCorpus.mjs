// Same-topic corpus: sources and suspicious documents come in families written to one prompt or in one field
// (OUTFOX student essays grouped by their prompt, arXiv machine-learning abstracts under a shared
// `Title: ... Abstract:` template, Yelp reviews), so that documents without reuse still share a topic, its words
// and its stock phrases. Suspicious documents are other members of a family with passages of same-family sources
// inserted (levels none, light, heavy as in corpus.mjs), `noreuse` members without any reuse, and `quoted`
// members carrying a verbatim quotation of a same-family source with an attribution, which is not plagiarism.
// The texts are read from bare git mirrors ($CONTENT_ANALYSIS_MIRRORS, default /work/.mirror) and never
// committed: the built corpus is written to the git-ignored .data/plagiarism-corpus/. Deterministic per seed.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mulberry32, obfuscate, pick, sentencesOf } from './corpus.mjs';
import { readStringListPickle } from './pickle.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export function mirrorsPath() {
  return process.env.CONTENT_ANALYSIS_MIRRORS ?? '/work/.mirror';
}

const OUTFOX = 'ryuryukke+OUTFOX/repo';
const BISCOPE = 'MarkGHX+BiScope/repo';

function gitShow(repo, path) {
  return execFileSync('git', ['--git-dir', join(mirrorsPath(), repo), 'show', `HEAD:${path}`], { maxBuffer: 1 << 28 });
}

/** Essay prompts of the OUTFOX (Persuade) essays, recognised in the problem statement written for each essay. */
const PROMPTS = [
  ['venus', /venus/i], ['face-on-mars', /face on mars|\bmars\b/i], ['electoral-college', /electoral/i],
  ['driverless-cars', /driverless|self-driving|autonomous/i], ['facial-coding', /facial|emotion/i],
  ['seagoing-cowboys', /seagoing|cowboy/i], ['community-service', /community service/i],
  ['extracurricular', /extracurricular/i], ['phones', /phone/i], ['car-free', /car-free|car usage|limiting car|cars/i],
  ['distance-learning', /online|distance learning|from home/i], ['advice', /advice|multiple opinions|opinions/i],
  ['summer-projects', /summer/i],
];

const clean = (text) => text.replace(/[ \t]+/g, ' ').replace(/\s*\n\s*/g, ' ').trim();

/** Families {name, texts} from the mirrors, or a string saying what is missing. */
export function loadFamilies() {
  const missing = [OUTFOX, BISCOPE].filter((repo) => !existsSync(join(mirrorsPath(), repo)));
  if (missing.length > 0) return `no mirror ${missing.join(', ')} under ${mirrorsPath()} (set CONTENT_ANALYSIS_MIRRORS)`;
  const families = new Map();
  const seen = new Set();
  const add = (name, text) => {
    // The BiScope files repeat some texts: each text once.
    const key = text.toLowerCase().replace(/[^a-z]+/g, ' ').slice(0, 200);
    if (seen.has(key)) return;
    seen.add(key);
    if (!families.has(name)) families.set(name, []);
    families.get(name).push(text);
  };
  for (const split of ['valid', 'test']) {
    const essays = readStringListPickle(gitShow(OUTFOX, `data/common/${split}/${split}_humans.pkl`));
    const prompts = readStringListPickle(gitShow(OUTFOX, `data/common/${split}/${split}_problem_statements.pkl`));
    essays.forEach((essay, i) => {
      const prompt = PROMPTS.find(([, pattern]) => pattern.test(prompts[i] ?? ''));
      if (prompt !== undefined && essay.split(/\s+/).length >= 150) add(`essays/${prompt[0]}`, clean(essay));
    });
  }
  // The shared template is part of every abstract: "Title: ...\nAbstract: ...".
  for (const row of JSON.parse(gitShow(BISCOPE, 'Dataset/Arxiv/Arxiv_human.json').toString('utf8'))) {
    if (typeof row.abs === 'string' && row.abs.split(/\s+/).length >= 80) add('arxiv', `Title: ${clean(row.title)}\nAbstract: ${clean(row.abs)}`);
  }
  for (const review of JSON.parse(gitShow(BISCOPE, 'Dataset/Yelp/Yelp_human.json').toString('utf8'))) {
    if (typeof review === 'string' && review.split(/\s+/).length >= 100 && (families.get('yelp')?.length ?? 0) < 250) add('yelp', clean(review));
  }
  return [...families].map(([name, texts]) => ({ name, texts }));
}

/** Length of the shared word runs that make two texts share material (e.g. both quote the essay prompt's article). */
const SHARED_RUN_WORDS = 8;

const wordsOf = (text) => text.toLowerCase().split(/[^a-z0-9']+/).filter((w) => w.length > 0);

/** The word 8-grams of a text, as strings. */
export function runsOf(text) {
  const words = wordsOf(text);
  const runs = new Set();
  for (let i = 0; i + SHARED_RUN_WORDS <= words.length; i++) runs.add(words.slice(i, i + SHARED_RUN_WORDS).join(' '));
  return runs;
}

const SURNAMES = ['Smith', 'Garcia', 'Nguyen', 'Okafor', 'Müller', 'Rossi', 'Tanaka', 'Kowalski', 'Haddad', 'Larsen'];

/** The sentences of a document; an arXiv template's header (`Title: ...\nAbstract: `) is kept apart so passages skip it. */
const bodySentences = (text) => {
  const header = /^Title: [^\n]*\nAbstract: /.exec(text);
  return header === null ? { header: '', sentences: sentencesOf(text) } : { header: header[0], sentences: sentencesOf(text.slice(header[0].length)) };
};

/**
 * Builds `{sources, suspicious}` like corpus.mjs's buildCorpus, per family: `sourceShare` of each family's texts
 * are sources, the others host suspicious documents of levels none, light, heavy (1 or 2 passages of 2 to 4
 * sentences of same-family sources), `noreuse` and `quoted` (cases only for the first three; a quoted document
 * has `quotes`: [{suspStart, suspEnd, src}] of the quotation).
 */
export function buildSameTopicCorpus({ families, lexicon, seed = 2025, sourceShare = 0.55, perLevel = 40, noreuse = 100, quoted = 40, restructured = 0 }) {
  const rng = mulberry32(seed);
  const sources = [];
  const hosts = [];
  for (const { name, texts } of families) {
    const shuffled = texts.map((t) => [rng(), t]).sort((a, b) => a[0] - b[0]).map(([, t]) => t);
    const cut = Math.round(shuffled.length * sourceShare);
    const familySources = shuffled.slice(0, cut).map((text, i) => ({ url: `https://same-topic.example/${name}/${i}`, title: `${name} ${i}`, text, family: name }));
    sources.push(...familySources);
    // A host shares no run of 8 words with a source of its family (essays that quote the prompt's reading do):
    // the documents without reuse have none at all, and a host's only reuse is its inserted cases.
    const sourceRuns = new Set(familySources.flatMap((source) => [...runsOf(source.text.replace(/^Title: [^\n]*\n/, ''))]));
    for (const text of shuffled.slice(cut)) {
      if ([...runsOf(text.replace(/^Title: [^\n]*\n/, ''))].some((run) => sourceRuns.has(run))) continue;
      hosts.push({ family: name, text, sources: familySources });
    }
  }
  const ordered = hosts.map((h) => [rng(), h]).sort((a, b) => a[0] - b[0]).map(([, h]) => h);
  const pool = ordered.slice(0, 50).map((h) => h.text).join(' ').split(' ').filter((w) => /^[a-z]+$/.test(w));
  const plan = [...['none', 'light', 'heavy'].flatMap((level) => Array.from({ length: perLevel }, () => level)),
    ...Array.from({ length: noreuse }, () => 'noreuse'), ...Array.from({ length: quoted }, () => 'quoted'),
    ...Array.from({ length: restructured }, () => 'restructured')];
  if (plan.length > ordered.length) throw new RangeError(`${plan.length} suspicious documents need as many hosts, found ${ordered.length}`);
  const passageOf = (source, length) => {
    const { header, sentences } = bodySentences(source.text);
    const n = Math.min(sentences.length, length);
    const first = Math.floor(rng() * (sentences.length - n + 1));
    const chosen = sentences.slice(first, first + n);
    const srcStart = source.text.indexOf(chosen[0], header.length);
    const last = chosen[chosen.length - 1];
    return { chosen, srcStart, srcEnd: source.text.indexOf(last, srcStart) + last.length };
  };
  const suspicious = [];
  plan.forEach((level, d) => {
    const host = ordered[d];
    const { header, sentences } = bodySentences(host.text);
    const parts = sentences.map((s) => ({ text: s }));
    if (level === 'quoted') {
      const source = pick(rng, host.sources);
      const { chosen, srcStart, srcEnd } = passageOf(source, 1 + Math.floor(rng() * 2));
      const name = pick(rng, SURNAMES);
      const year = 2000 + Math.floor(rng() * 24);
      // Inner double quotes become single ones, as a writer quoting the passage would write them.
      const quote = chosen.join(' ').replace(/"/g, "'");
      const lead = rng() < 0.5 ? `As ${name} (${year}) wrote, "` : `${name} argued that "`;
      const at = 1 + Math.floor(rng() * Math.max(1, parts.length - 1));
      parts.splice(at, 0, { lead, text: quote, tail: `" (${name}, ${year}).`, quote: { src: source.url, srcStart, srcEnd } });
    } else if (level !== 'noreuse') {
      const count = 1 + Math.floor(rng() * 2);
      for (let c = 0; c < count; c++) {
        const source = pick(rng, host.sources);
        const { chosen, srcStart, srcEnd } = passageOf(source, 2 + Math.floor(rng() * 3));
        const at = Math.floor(rng() * (parts.length + 1));
        parts.splice(at, 0, { text: obfuscate(chosen, level, rng, lexicon, pool), src: source.url, srcStart, srcEnd });
      }
    }
    let text = header;
    const cases = [];
    const quotes = [];
    for (const part of parts) {
      if (text.length > header.length) text += ' ';
      text += part.lead ?? '';
      if (part.src !== undefined) cases.push({ src: part.src, suspStart: text.length, suspEnd: text.length + part.text.length, srcStart: part.srcStart, srcEnd: part.srcEnd });
      if (part.quote !== undefined) quotes.push({ ...part.quote, suspStart: text.length, suspEnd: text.length + part.text.length });
      text += part.text + (part.tail ?? '');
    }
    suspicious.push({ id: `same-topic-${d}`, family: host.family, level, text, cases, quotes });
  });
  return { sources, suspicious };
}

/** Writes the corpus to the git-ignored .data/plagiarism-corpus/ for inspection; returns the file. */
export function saveCorpus(corpus, name) {
  const dir = join(root, '.data', 'plagiarism-corpus');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify(corpus));
  return file;
}
