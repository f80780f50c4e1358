// PAN-style corpus generator: a collection of human source texts and suspicious documents made of other human
// texts into which passages of the sources are inserted with no, light or heavy obfuscation (the PAN recipes:
// random word operations, synonym and inflection substitution, reordering), or with zero-width and homoglyph
// attacks; the true offsets of every inserted passage are kept. Deterministic for a given seed.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mulberry32 } from '../lib/random.mjs';
import { restructure } from './restructure.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export function datasetsPath() {
  return process.env.CONTENT_ANALYSIS_DATASETS ?? resolve(root, '../shared/datasets');
}

export { mulberry32 };

const FILES = ['fastdetectgpt_open_models/exp_main.jsonl', 'm4_llama2/m4_llama2_examples.jsonl', 'binoculars_pubmed/pubmed_falcon7.jsonl'];

/** English human texts of at least `minWords` words from the aitext sets, each once, or undefined when absent. */
export function loadHumanTexts(minWords = 150) {
  const base = join(datasetsPath(), 'aitext');
  if (!existsSync(base)) return undefined;
  const seen = new Set();
  const texts = [];
  for (const file of FILES) {
    const path = join(base, file);
    if (!existsSync(path)) continue;
    for (const line of readFileSync(path, 'utf8').split('\n')) {
      if (line.length === 0) continue;
      const row = JSON.parse(line);
      if (row.label !== 'human' || typeof row.text !== 'string') continue;
      const text = row.text.replace(/\s+/g, ' ').trim();
      const key = text.slice(0, 80);
      if (seen.has(key)) continue;
      // English only: ASCII letters dominate.
      const ascii = (text.match(/[A-Za-z]/g) ?? []).length;
      if (ascii < 0.7 * text.length) continue;
      if (text.split(' ').length < minWords) continue;
      seen.add(key);
      texts.push(text);
    }
  }
  return texts;
}

export const sentencesOf = (text) => text.match(/[^.!?]+[.!?]+(?:["')\]]+)?\s*|[^.!?]+$/g)?.map((s) => s.trim()).filter((s) => s.length > 0) ?? [];

export function pick(rng, list) {
  return list[Math.floor(rng() * list.length)];
}

/** Simple inflection changes: -s, -ed, -ing added or removed. */
function inflect(word, rng) {
  if (word.length < 4 || !/^[a-z]+$/.test(word)) return undefined;
  if (word.endsWith('ing')) return word.slice(0, -3) + (rng() < 0.5 ? 's' : 'ed');
  if (word.endsWith('ed')) return word.slice(0, -2) + 'ing';
  if (word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word + pick(rng, ['s', 'ed', 'ing']);
}

/** A WordNet synonym of `word` (another lemma of one of its first senses), or undefined. */
function synonym(word, lexicon, rng) {
  const lower = word.toLowerCase();
  const options = [];
  for (const id of lexicon.synsetsOf(lower)) for (const lemma of lexicon.lemmasOf(id)) if (lemma !== lower && /^[a-z]+$/.test(lemma)) options.push(lemma);
  if (options.length === 0) return undefined;
  const chosen = pick(rng, options);
  return word[0] === word[0].toUpperCase() ? chosen[0].toUpperCase() + chosen.slice(1) : chosen;
}

/**
 * PAN's random obfuscation and its semantic variant: each word is, with probability `rate`, deleted, replaced by
 * a WordNet synonym or an inflection, swapped with its neighbour, or followed by an inserted word from `pool`.
 */
function obfuscateWords(sentence, rate, rng, lexicon, pool) {
  const words = sentence.split(' ');
  const out = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i];
    if (rng() >= rate) {
      out.push(word);
      continue;
    }
    const m = /^([^A-Za-z]*)([A-Za-z]+)([^A-Za-z]*)$/.exec(word);
    const op = rng();
    if (op < 0.2) continue; // delete
    if (op < 0.6 && m) {
      const replacement = synonym(m[2], lexicon, rng) ?? inflect(m[2], rng);
      out.push(replacement === undefined ? word : m[1] + replacement + m[3]);
    } else if (op < 0.75 && m) {
      out.push(m[1] + (inflect(m[2].toLowerCase(), rng) ?? m[2]) + m[3]);
    } else if (op < 0.88 && i + 1 < words.length) {
      out.push(words[i + 1], word);
      i++;
    } else {
      out.push(word, pick(rng, pool));
    }
  }
  return out.join(' ');
}

const ZERO_WIDTH = ['\u200B', '\u200C', '\u200D', '\u2060'];
const HOMOGLYPH = { a: 'а', e: 'е', o: 'о', p: 'р', c: 'с', x: 'х', y: 'у', i: 'і' };

/** Zero-width characters inside 20 % of the words and Cyrillic look-alikes for 5 % of the letters that have one. */
function attack(text, rng) {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    out += HOMOGLYPH[ch] !== undefined && rng() < 0.05 ? HOMOGLYPH[ch] : ch;
    if (/[a-z]/i.test(ch) && /[a-z]/i.test(text[i + 1] ?? '') && rng() < 0.04) out += pick(rng, ZERO_WIDTH);
  }
  return out;
}

export const LEVELS = ['none', 'light', 'heavy', 'attack'];

/** The obfuscated form of a passage (array of sentences) at `level`. */
export function obfuscate(sentences, level, rng, lexicon, pool) {
  if (level === 'none') return sentences.join(' ');
  if (level === 'restructured') return restructure(sentences, rng);
  if (level === 'attack') return attack(sentences.join(' '), rng);
  if (level === 'light') return sentences.map((s) => obfuscateWords(s, 0.12, rng, lexicon, pool)).join(' ');
  // heavy: sentence order shuffled, then dense word operations.
  const order = sentences.map((s, i) => [rng(), s]).sort((a, b) => a[0] - b[0]).map(([, s]) => s);
  return order.map((s) => obfuscateWords(s, 0.35, rng, lexicon, pool)).join(' ');
}

/**
 * Builds `{sources, suspicious}`: `sources` are {url, text}; each suspicious document is {id, level, text, cases}
 * with cases {src, suspStart, suspEnd, srcStart, srcEnd}. Per level `perLevel` documents, plus `clean` documents
 * without plagiarism. Each plagiarised document gets 1 to 3 passages of 2 to 5 sentences from random sources.
 */
export function buildCorpus({ texts, lexicon, seed = 2024, sourceCount = 300, perLevel = 25, clean = 20, restructured = 0 }) {
  const rng = mulberry32(seed);
  const shuffled = texts.map((t) => [rng(), t]).sort((a, b) => a[0] - b[0]).map(([, t]) => t);
  const sources = shuffled.slice(0, sourceCount).map((text, i) => ({ url: `https://corpus.example/source-${i}`, title: `source ${i}`, text }));
  const hosts = shuffled.slice(sourceCount);
  const pool = hosts.slice(0, 50).join(' ').split(' ').filter((w) => /^[a-z]+$/.test(w));
  const suspicious = [];
  let h = 0;
  // `restructured` documents (the second generator, restructure.mjs) come last: the others stay as they were.
  const plan = [...LEVELS.flatMap((level) => Array.from({ length: perLevel }, () => level)), ...Array.from({ length: clean }, () => 'clean'),
    ...Array.from({ length: restructured }, () => 'restructured')];
  for (const level of plan) {
    const host = sentencesOf(hosts[h++ % hosts.length]);
    const parts = host.map((s) => ({ text: s }));
    if (level !== 'clean') {
      const count = 1 + Math.floor(rng() * 3);
      for (let c = 0; c < count; c++) {
        const source = pick(rng, sources);
        const srcSentences = sentencesOf(source.text);
        const length = Math.min(srcSentences.length, 2 + Math.floor(rng() * 4));
        const first = Math.floor(rng() * (srcSentences.length - length + 1));
        const chosen = srcSentences.slice(first, first + length);
        const srcStart = source.text.indexOf(chosen[0]);
        const last = chosen[chosen.length - 1];
        const srcEnd = source.text.indexOf(last, srcStart) + last.length;
        const at = Math.floor(rng() * (parts.length + 1));
        parts.splice(at, 0, { text: obfuscate(chosen, level, rng, lexicon, pool), src: source.url, srcStart, srcEnd });
      }
    }
    let text = '';
    const cases = [];
    for (const part of parts) {
      if (text.length > 0) text += ' ';
      if (part.src !== undefined) cases.push({ src: part.src, suspStart: text.length, suspEnd: text.length + part.text.length, srcStart: part.srcStart, srcEnd: part.srcEnd });
      text += part.text;
    }
    suspicious.push({ id: `suspicious-${suspicious.length}`, level, text, cases });
  }
  return { sources, suspicious };
}
