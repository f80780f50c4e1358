// Prose for the benchmarks. `realProse` and `editProse` give real human text from the shared AI-text sets (read from
// CONTENT_ANALYSIS_DATASETS, default ../shared/datasets; never committed); PROSE / proseOf is one made-up paragraph
// repeated in numbered parts, kept for the benches that only need some text of a given length.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { mulberry32 } from '../../scripts/plagiarism/corpus.mjs';
import { datasetsRoot, distinctHumanTexts } from './realInputs.mjs';

export const PROSE =
  'The library on Elm Street opened an hour late on Monday because the heating had failed over the weekend. ' +
  'Staff wrapped themselves in coats and handed out blankets to the few readers who came in anyway. ' +
  'By noon a technician had found the fault, a cracked valve in a boiler older than most of the staff. ' +
  'The council says a replacement is planned for next spring, though it said the same thing two years ago. ';

/** About `chars` characters of PROSE in numbered parts. */
export function proseOf(chars) {
  let out = '';
  for (let i = 1; out.length < chars; i++) out += `Part ${i}. ${PROSE}\n\n`;
  return out.slice(0, chars);
}

/** The shared datasets folder (holding aitext/), or undefined when it is absent. */
export function proseDatasetsRoot() {
  const root = datasetsRoot();
  return root !== undefined && existsSync(join(root, 'aitext')) ? root : undefined;
}

/** The human halves read, in this order; `keep` picks English rows. */
const HUMAN_SETS = [
  { name: 'fastdetectgpt', file: 'fastdetectgpt_open_models/exp_main.jsonl' }, // XSum news, WritingPrompts stories, SQuAD
  { name: 'hc3plus_si', file: 'hc3plus_si/val_hc3_si_en.jsonl' }, // CNN/DailyMail highlights, XSum, WMT, paraphrase sources
  { name: 'm4_llama2', file: 'm4_llama2/m4_llama2_examples.jsonl', keep: (row) => (row.lang ?? 'en') === 'en' }, // arXiv, Wikipedia, WikiHow, Reddit
  { name: 'binoculars_pubmed', file: 'binoculars_pubmed/pubmed_falcon7.jsonl' }, // PubMed
];

let cached;

/**
 * The distinct human-written English texts of the shared AI-text sets (`label: "human"` rows of fastdetectgpt
 * open models, hc3plus_si, m4_llama2 English and binoculars_pubmed), interleaved set by set (one text of each set in
 * turn) so that any stretch of them mixes news, stories, highlights, abstracts, how-tos and medical prose.
 * fastdetectgpt holds each human text up to five times cut to different lengths: texts opening with the same 80
 * characters are one text, its longest copy kept. hc3plus_si highlights written `word .\n` (tokenised) get `word.\n`.
 * Each item `{ text, set }`. Empty when the datasets are absent.
 */
export function humanDocuments() {
  if (cached) return cached;
  const root = proseDatasetsRoot();
  if (root === undefined) return (cached = []);
  const perSet = HUMAN_SETS.map(({ name, file, keep }) =>
    distinctHumanTexts(join(root, 'aitext', file), { keep, set: name, clean: (text) => text.replace(/ \.\n/g, '.\n').trim(), minLength: 100 }),
  );
  cached = [];
  for (let i = 0; perSet.some((list) => i < list.length); i++) {
    for (const list of perSet) if (i < list.length) cached.push({ text: list[i].text, set: list[i].set });
  }
  return cached;
}

/**
 * `count` real texts of about `chars` characters each, made of different documents (text k starts where text k - 1
 * stopped, from document `offset` on): documents joined by blank lines, the last one cut at a word boundary.
 * Returns `{ texts, next }`, `next` being the first document not used. Throws when the datasets are absent.
 */
export function realProse(chars, { count = 1, offset = 0 } = {}) {
  const documents = humanDocuments();
  if (documents.length === 0) throw new Error('the shared human texts were not found: set CONTENT_ANALYSIS_DATASETS');
  const texts = [];
  let at = offset;
  for (let k = 0; k < count; k++) {
    let out = '';
    while (out.length < chars) {
      if (at >= documents.length) throw new Error(`only ${documents.length} documents of human text`);
      out += (out ? '\n\n' : '') + documents[at++].text;
    }
    const cut = out.lastIndexOf(' ', chars);
    texts.push(out.slice(0, cut > chars * 0.9 ? cut : chars).trimEnd());
  }
  return { texts, next: at };
}

/** mulberry32: the small deterministic PRNG of the plagiarism corpus scripts. */
export { mulberry32 };

/** Where a paragraph is cut into sentences: after a full stop, question or exclamation mark (and any closing quote or
 * bracket) and white space, or after a line break; the pieces join back into the paragraph. */
const SENTENCE_END = /(?<=[.!?]["”’')\]]*\s+|\n)(?=\S)/;
const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu;

/**
 * A realistically edited copy of `text`, as an editor revising it would leave it. Sentence by sentence (`rate` is the
 * share of sentences touched, 0.2 by default): about half of the touched sentences get one to three word edits (a
 * word replaced by another word of the donor text, deleted, doubled by an inserted donor word, or its case flipped),
 * and the rest are deleted, followed by an inserted sentence of the donor text, or replaced by one; then `moves`
 * paragraphs (3 by default) are moved elsewhere. `donor` is other real prose (sentences and words come from it, so
 * nothing is made up). Returns `{ text, editedSentences, sentences }`.
 */
export function editProse(text, donor, { seed = 1, rate = 0.2, moves = 3 } = {}) {
  const rng = mulberry32(seed);
  const pick = (list) => list[Math.floor(rng() * list.length)];
  const donorSentences = donor.split(SENTENCE_END).map((s) => s.trim()).filter((s) => s.length > 30);
  const donorWords = donor.match(WORD) ?? [];
  let edited = 0;
  let total = 0;
  const paragraphs = text.split(/\n\n/).map((paragraph) => {
    const sentences = paragraph.split(SENTENCE_END);
    const out = [];
    for (const sentence of sentences) {
      total++;
      if (rng() >= rate) {
        out.push(sentence);
        continue;
      }
      edited++;
      const op = rng();
      const space = /\s*$/.exec(sentence)[0];
      if (op < 0.5) {
        let s = sentence;
        const edits = 1 + Math.floor(rng() * 3);
        for (let e = 0; e < edits; e++) {
          const words = [...s.matchAll(WORD)];
          if (words.length === 0) break;
          const w = pick(words);
          const before = s.slice(0, w.index);
          const after = s.slice(w.index + w[0].length);
          const kind = rng();
          if (kind < 0.4) s = before + pick(donorWords) + after;
          else if (kind < 0.7) s = before.replace(/\s+$/, ' ') + after.replace(/^\s+/, '');
          else if (kind < 0.9) s = `${before}${w[0]} ${pick(donorWords)}${after}`;
          else s = before + (w[0][0] === w[0][0].toUpperCase() ? w[0].toLowerCase() : w[0][0].toUpperCase() + w[0].slice(1)) + after;
        }
        out.push(s);
      } else if (op < 0.67) {
        // deleted
      } else if (op < 0.84) {
        out.push(sentence.replace(/\s*$/, ' '), pick(donorSentences) + space);
      } else {
        out.push(pick(donorSentences) + space);
      }
    }
    return out.join('');
  });
  for (let m = 0; m < moves && paragraphs.length > 2; m++) {
    const [moved] = paragraphs.splice(Math.floor(rng() * paragraphs.length), 1);
    paragraphs.splice(Math.floor(rng() * (paragraphs.length + 1)), 0, moved);
  }
  return { text: paragraphs.filter((p) => p.trim() !== '').join('\n\n'), editedSentences: edited, sentences: total };
}
