#!/usr/bin/env node
/**
 * Differential fuzzing of `compareTexts`: pairs of texts (real prose from the datasets, when present, else made-up
 * words, cut into lines and mutated by random edits) are compared by this package's build and, with `--old`, by
 * another build of it (say an earlier commit's `packages/text-compare/dist/index.js`); the complete results must be
 * deep-equal (JSON). Without `--old`, each result is checked against the same comparison repeated later, after other
 * comparisons of other sizes (state left in reused scratch arrays), and against the comparison of the same texts with
 * every '\n' written as ' ' (the same words at the same offsets, taken by another path), where the words stay the same.
 *
 *   node packages/text-compare/scripts/fuzz-compare.mjs --seed 1 --cases 2000 [--old /tmp/tc-old/.../index.js]
 *     [--new packages/text-compare/dist/index.js] [--datasets DIR] [--seconds 600] [--out DIR]
 *
 * A difference is written (texts, options, both results) to `--out` (default the system's temporary folder), with
 * the case shrunk as far as it still differs when compared right after the same preceding comparison.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { mulberry32 } from '../../../scripts/lib/random.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));

function parseArgs(argv) {
  const args = { seed: 1, cases: 1000, old: undefined, new: join(here, '../dist/index.js'), seconds: Infinity, out: undefined,
    datasets: process.env.CONTENT_ANALYSIS_DATASETS ?? join(here, '../../../../shared/datasets') };
  for (let i = 0; i < argv.length; i += 2) {
    const name = argv[i].replace(/^--/, '');
    if (!(name in args)) throw new Error(`unknown option ${argv[i]}`);
    args[name] = ['seed', 'cases', 'seconds'].includes(name) ? Number(argv[i + 1]) : argv[i + 1];
  }
  return args;
}


/** Texts of the aitext sets (human and machine), or none when the datasets are absent. */
function loadProse(dir) {
  const texts = [];
  const root = join(dir, 'aitext');
  if (!existsSync(root)) return texts;
  for (const set of readdirSync(root)) {
    for (const file of readdirSync(join(root, set))) {
      if (!file.endsWith('.jsonl')) continue;
      const lines = readFileSync(join(root, set, file), 'utf8').split('\n');
      for (const line of lines) {
        if (line.trim() === '') continue;
        try {
          const text = JSON.parse(line).text;
          if (typeof text === 'string' && text.length > 0) texts.push(text);
        } catch { /* not a record */ }
      }
    }
  }
  return texts;
}

// Pieces that exercise the word scanner: non-ASCII of several scripts, joiners, marks, numbers and abbreviations.
const INSERTS = [
  'café', 'naïve', 'résumé', 'Straße', 'Ærø', 'e\u0301', 'a\u0308\u0301', '\u0301', '\u0308x', '\u200d', '\u200c',
  '\u200b', '\ufeff', '\u00ad', '中文', '中文字符测试', '日本語の文章です', 'カタカナ', '한국어 문장', 'ภาษาไทยง่ายๆ',
  'русский текст', 'Ελληνικά', 'עברית', 'العربية', '👍', '👨\u200d👩\u200d👧', '🇫🇷', '👋🏽', '❤\ufe0f', '1,234.5',
  '12,345,678', '3.14159', '-42', '1e10', 'U.S.', 'U.S.A.', 'e.g.', 'i.e.', 'Ph.D.', "don't", 'don’t', "O'Brien",
  'rock’n’roll', 'the.cat.sat', 'a_b', '__', '_', 'foo:bar', 'x-ray', '“quoted”', '‘single’', '"plain"', '—', '–',
  '…', '…and', '\t', '\u00a0', '\u2028', '\u3000', '\u0085', '\r', '\ud800', '\udc00x', '𝔘𝔫𝔦𝔠𝔬𝔡𝔢', 'Ⅻ', 'ﬁne',
  'ＡＢＣ', '１２３', '$5', '50%', '#tag', '@user', 'http://example.com/a?b=c', 'A.B', '1.', '.5', "'", '’', ',', '.',
];
const CJK_LONG = '我们在这里讨论一个很长的中文句子，没有任何空格它应该被切分成很多个词语。而且这个句子还会继续写下去直到超过分段的长度限制为止';
const RU_WORDS = 'это очень длинный русский текст который пишется без перевода строки чтобы кусок для сегментатора стал длиннее пятисот единиц';

function pick(random, list) {
  return list[Math.floor(random() * list.length)];
}

function int(random, lo, hi) {
  return lo + Math.floor(random() * (hi - lo + 1));
}

/** Re-wraps `text` into lines of about `width` characters (keeping paragraph breaks) when `width` > 0. */
function wrap(text, width) {
  if (width <= 0) return text;
  return text.split(/\n+/).map((para) => {
    const out = [];
    let line = '';
    for (const word of para.split(' ')) {
      if (line.length > 0 && line.length + word.length + 1 > width) {
        out.push(line);
        line = word;
      } else line = line.length === 0 ? word : `${line} ${word}`;
    }
    out.push(line);
    return out.join('\n');
  }).join('\n\n');
}

const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'ti', 'vo', 'da', 'pe', 'zu', 'ho'];

function madeUpProse(random, chars) {
  let text = '';
  while (text.length < chars) {
    let word = '';
    for (let i = int(random, 1, 3); i > 0; i--) word += pick(random, SYLLABLES);
    text += word + (random() < 0.1 ? '.\n' : random() < 0.05 ? ', ' : ' ');
  }
  return text;
}

/** A base text of about `chars` characters: joined dataset texts (or made-up prose), re-wrapped at times. */
function baseText(random, prose, chars) {
  let text = '';
  if (random() < 0.15) {
    // Lines of long runs without white space (CJK, emoji, accented words glued together) between ASCII lines: the
    // segmenter's pieces reach the ends of lines and its length limits cut them.
    const lines = [];
    for (let length = 0; length < chars;) {
      const kind = random();
      let line;
      if (kind < 0.4) line = CJK_LONG.repeat(30).slice(int(random, 0, 59), int(random, 60, 1700));
      else if (kind < 0.55) line = Array.from({ length: int(random, 1, 300) }, () => pick(random, INSERTS)).join('');
      else if (kind < 0.7) line = RU_WORDS.repeat(10).slice(0, int(random, 1, 1200));
      else line = prose.length > 0 ? pick(random, prose).slice(0, int(random, 1, 300)) : madeUpProse(random, 80);
      if (random() < 0.3) line = `${line} ${pick(random, INSERTS)}`;
      lines.push(line);
      length += line.length + 1;
    }
    return lines.join(pick(random, ['\n', '\n', '\r\n', ' \n', '\n\n'])).slice(0, chars);
  }
  if (prose.length === 0) text = madeUpProse(random, chars);
  while (text.length < chars) text += (text.length > 0 ? pick(random, ['\n\n', '\n', ' ']) : '') + pick(random, prose);
  if (text.length > chars) {
    // Cut at a random offset near `chars`, sometimes mid-word.
    text = text.slice(random() < 0.3 ? int(random, 0, 20) : 0, chars);
  }
  const r = random();
  if (r < 0.45) text = wrap(text, int(random, 20, 100));
  else if (r < 0.55) text = wrap(text, int(random, 5, 20));
  if (random() < 0.4) {
    // Non-ASCII words at the ends and starts of lines, and here and there: segmenter pieces that reach the lines' ends.
    const density = pick(random, [0.02, 0.1, 0.3]);
    text = text.replace(/(\S+)(\s)/g, (all, word, space) => {
      if (random() >= (space === '\n' ? 3 * density : density)) return all;
      const piece = pick(random, INSERTS.slice(0, 30));
      return random() < 0.5 ? `${word}${piece}${space}` : `${word} ${piece}${space}`;
    });
  }
  return text;
}

/** Offsets of the starts of the words (runs of non-space) of `text`. */
function wordStarts(text) {
  const starts = [];
  const re = /\S+/g;
  let m;
  while ((m = re.exec(text)) !== null) starts.push([m.index, m.index + m[0].length]);
  return starts;
}

/** One random edit of `text`. */
function mutateOnce(random, text, prose) {
  const words = wordStarts(text);
  const w = words.length > 0 ? pick(random, words) : [0, 0];
  const at = int(random, 0, text.length);
  const lineBreaks = [];
  for (let i = text.indexOf('\n'); i !== -1 && lineBreaks.length < 4096; i = text.indexOf('\n', i + 1)) lineBreaks.push(i);
  const nl = lineBreaks.length > 0 ? pick(random, lineBreaks) : -1;
  const word = () => (random() < 0.5 && prose.length > 0 ? pick(random, pick(random, prose).split(/\s+/)) : pick(random, INSERTS));
  switch (int(random, 0, 27)) {
    case 0: return text.slice(0, w[0]) + word() + ' ' + text.slice(w[0]); // insert a word
    case 1: return text.slice(0, w[0]) + text.slice(Math.min(text.length, w[1] + 1)); // delete a word
    case 2: return text.slice(0, w[0]) + word() + text.slice(w[1]); // replace a word
    case 3: return nl === -1 ? text : text.slice(0, nl) + ' ' + text.slice(nl + 1); // join lines
    case 4: { // split a line
      const sp = text.indexOf(' ', at);
      return sp === -1 ? text : text.slice(0, sp) + '\n' + text.slice(sp + 1);
    }
    case 5: return text.replace(/\r?\n/g, '\r\n'); // CRLF
    case 6: return text.replace(/\r\n/g, '\n'); // LF
    case 7: return nl === -1 ? text : text.slice(0, nl) + '\r' + text.slice(nl); // one CRLF
    case 8: return text.slice(0, at) + text.slice(at).replace(/'/, '’').replace(/"/, '“').replace(/"/, '”'); // curly
    case 9: { // accent a letter (composed or combining)
      const m = /[aeiou]/.exec(text.slice(at));
      if (m === null) return text;
      const i = at + m.index;
      const accented = random() < 0.5 ? { a: 'á', e: 'é', i: 'í', o: 'ö', u: 'ü' }[text[i]] : text[i] + '\u0301';
      return text.slice(0, i) + accented + text.slice(i + 1);
    }
    case 10: return text.slice(0, at) + pick(random, INSERTS) + text.slice(at); // raw insert anywhere
    case 11: return text.slice(0, w[0]) + pick(random, INSERTS) + ' ' + text.slice(w[0]);
    case 12: // change a line's last word (its end piece), sometimes to non-ASCII
      return nl === -1 ? text + pick(random, INSERTS) : text.slice(0, nl) + pick(random, ['', 'é', '中', 's', '.', ' ', ' x', '👍']) + text.slice(nl);
    case 13: // non-ASCII at the start of the next line
      return nl === -1 ? text : text.slice(0, nl + 1) + pick(random, INSERTS) + pick(random, ['', ' ']) + text.slice(nl + 1);
    case 14: return nl === -1 ? text : text.slice(0, nl) + pick(random, [' ', '  ', '\t', '\u00a0', ' \r']) + text.slice(nl); // trailing space
    case 15: return nl === -1 ? ' ' + text : text.slice(0, nl + 1) + pick(random, [' ', '  ', '\t', '\u3000']) + text.slice(nl + 1); // leading
    case 16: return nl === -1 ? text + '\n' : text.slice(0, nl) + '\n'.repeat(int(random, 1, 3)) + text.slice(nl); // empty lines
    case 17: { // move a block of lines
      if (lineBreaks.length < 4) return text;
      const i = int(random, 0, lineBreaks.length - 3);
      const j = i + int(random, 1, Math.min(6, lineBreaks.length - i - 1));
      const block = text.slice(lineBreaks[i] + 1, lineBreaks[j] + 1);
      const rest = text.slice(0, lineBreaks[i] + 1) + text.slice(lineBreaks[j] + 1);
      const to = rest.indexOf('\n', int(random, 0, rest.length));
      return to === -1 ? rest + '\n' + block : rest.slice(0, to + 1) + block + rest.slice(to + 1);
    }
    case 18: return text.slice(0, at) + (random() < 0.5 ? CJK_LONG.repeat(int(random, 1, 30)) : RU_WORDS.repeat(int(random, 1, 8))) + text.slice(at);
    case 19: return text.slice(0, at) + text.slice(at).replace(/[a-z]/, (c) => c.toUpperCase()); // case
    case 20: return text.slice(0, at) + text.slice(Math.min(text.length, at + int(random, 1, 200))); // cut a stretch
    case 21: return text.slice(0, at) + pick(random, ['1,234.5', 'U.S.', 'e.g.', '3.5%', '2,000', 'No. 5']) + text.slice(at);
    case 22: return text.slice(0, w[0]) + text.slice(w[0], w[1]).split('').reverse().join('') + text.slice(w[1]);
    case 23: { // duplicate a line
      if (nl === -1) return text + '\n' + text;
      const prev = text.lastIndexOf('\n', nl - 1);
      return text.slice(0, nl + 1) + text.slice(prev + 1, nl + 1) + text.slice(nl + 1);
    }
    case 24: return text.slice(0, at) + text.slice(at, at + int(random, 1, 400)).normalize(random() < 0.5 ? 'NFD' : 'NFKC') + text.slice(at + 0);
    case 25: return text.slice(0, w[1]) + pick(random, ['.', ',', '!', '’s', "'s", ':', ';', '…']) + text.slice(w[1]); // punctuation
    case 26: return text.trim();
    default: return text.slice(0, at) + '\n' + text.slice(at);
  }
}

function mutate(random, text, prose, edits) {
  let out = text;
  for (let i = 0; i < edits; i++) out = mutateOnce(random, out, prose);
  return out;
}

const SIZES = [0, 1, 5, 20, 60, 200, 600, 2000, 6000, 20000, 60000, 119000];

/** A line for `structuredCase`: ASCII, or with pieces for the segmenter at its start, end or inside. */
function structuredLine(random, prose) {
  const ascii = () => (prose.length > 0 ? pick(random, prose).slice(0, int(random, 0, 80)).replace(/\s+/g, ' ')
    : madeUpProse(random, int(random, 0, 60)).replace(/\n/g, ' '));
  const run = () => {
    const unit = pick(random, ['é', '中', 'ж', 'e\u0301', '👍', 'ü.', '中，', 'é.é']);
    let out = unit.repeat(int(random, 1, pick(random, [4, 300, 450, 700])));
    if (random() < 0.5) { const at = int(random, 0, out.length); out = out.slice(0, at) + pick(random, ['.', '。', ',', '!']) + out.slice(at); }
    return out;
  };
  switch (int(random, 0, 6)) {
    case 0: case 1: return ascii();
    case 2: return `${ascii()} ${run()}`;
    case 3: return `${run()} ${ascii()}`;
    case 4: return `${ascii()} ${run()} ${ascii()}`;
    case 5: return `${ascii()}${pick(random, INSERTS)}${pick(random, ['', ' ', '  ', '\r'])}`;
    default: return run();
  }
}

/** A few lines, and a copy with lines replaced, edited inside or at their ends, inserted or dropped. */
function structuredCase(random, prose) {
  const lines = Array.from({ length: int(random, 1, 8) }, () => structuredLine(random, prose));
  const edited = [...lines];
  for (let e = int(random, 1, 3); e > 0; e--) {
    const k = int(random, 0, edited.length - 1);
    const line = edited[k] ?? '';
    const at = int(random, 0, line.length);
    switch (int(random, 0, 6)) {
      case 0: edited[k] = structuredLine(random, prose); break;
      case 1: edited[k] = line.slice(0, at) + pick(random, [' x ', 'é', ' 中 ', 'Y', '']) + line.slice(at + int(random, 0, 3)); break;
      case 2: edited.splice(k, 0, structuredLine(random, prose)); break;
      case 3: edited.splice(k, 1); break;
      case 4: edited[k] = line + pick(random, ['é', '中'.repeat(int(random, 1, 900)), ' x', '']); break;
      case 5: edited[k] = pick(random, ['é', '中'.repeat(int(random, 1, 900)), 'x ', '\u0301']) + line; break;
      default: edited[k] = line.replace(/ /, '  ');
    }
  }
  const sep = pick(random, ['\n', '\n', '\r\n', '\n\n']);
  return [lines.join(sep), edited.join(random() < 0.9 ? sep : '\n')];
}

/** One pair of texts and options. */
export function makeCase(random, prose) {
  if (random() < 0.3) {
    const [first, second] = structuredCase(random, prose);
    return random() < 0.5 ? { first, second, options: undefined } : { first: second, second: first, options: undefined };
  }
  const size = pick(random, SIZES) * (0.5 + random());
  const base = baseText(random, prose, Math.max(0, Math.round(size)));
  const r = random();
  let first = base;
  let second;
  if (r < 0.05) second = base; // identical
  else if (r < 0.1) second = baseText(random, prose, Math.round(size)); // unrelated
  else {
    const edits = random() < 0.5 ? int(random, 1, 5) : int(random, 1, Math.max(1, Math.round(base.length / 100)));
    second = mutate(random, base, prose, Math.min(edits, 400));
    if (random() < 0.3) first = mutate(random, base, prose, int(random, 1, 5));
  }
  if (random() < 0.5) [first, second] = [second, first];
  first = first.slice(0, 120_000);
  second = second.slice(0, 120_000);
  const options = random() < 0.8 ? undefined : {
    minAnchorWords: int(random, 1, 6), detectMoves: random() < 0.7, minMovedWords: int(random, 1, 10),
  };
  return { first, second, options };
}

function run(mod, c) {
  try {
    return JSON.stringify(mod.compareTexts(c.first, c.second, c.options));
  } catch (error) {
    return `throws ${error?.name}: ${error?.message}`;
  }
}

/** Shrinks a failing case (`fails(c)` true) by dropping lines, then stretches of characters, of either text. */
function shrink(c, fails) {
  let best = c;
  for (const unit of ['\n', '']) {
    for (const key of ['first', 'second']) {
      let parts = best[key].split(unit);
      for (let chunk = Math.max(1, parts.length >> 1); chunk >= 1; chunk >>= 1) {
        for (let i = 0; i < parts.length;) {
          const kept = [...parts.slice(0, i), ...parts.slice(i + chunk)];
          const candidate = { ...best, [key]: kept.join(unit) };
          if (fails(candidate)) {
            best = candidate;
            parts = kept;
          } else i += chunk;
        }
      }
    }
  }
  return best;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const now = await import(pathToFileURL(resolve(args.new)).href);
  const old = args.old === undefined ? undefined : await import(pathToFileURL(resolve(args.old)).href);
  const prose = loadProse(args.datasets);
  console.log(`seed ${args.seed}, ${args.cases} cases, ${prose.length} dataset texts, ` +
    (old === undefined ? 'properties only' : `old build ${args.old}`));
  const random = mulberry32(args.seed);
  const started = Date.now();
  const earlier = []; // [case, result] kept to repeat later
  let failures = 0;
  let chars = 0;
  let previous;
  let n = 0;
  const report = (kind, c, expected, actual, prev) => {
    failures++;
    const out = args.out ?? mkdtempSync(join(tmpdir(), 'tc-fuzz-'));
    mkdirSync(out, { recursive: true });
    const file = join(out, `fail-${args.seed}-${n}-${failures}.json`);
    const small = kind === 'old/new' ? shrink(c, (x) => {
      if (prev !== undefined) { run(now, prev); run(old, prev); }
      return run(now, x) !== run(old, x);
    }) : c;
    if (prev !== undefined) { run(now, prev); if (old) run(old, prev); }
    writeFileSync(file, JSON.stringify({ kind, seed: args.seed, case: n, original: c, shrunk: small, previous: prev,
      expected, actual, shrunkNew: run(now, small), shrunkOld: old ? run(old, small) : undefined }, null, 1));
    console.log(`case ${n}: ${kind} difference (first ${c.first.length}, second ${c.second.length} chars; shrunk to ` +
      `${small.first.length} / ${small.second.length}): ${file}`);
  };
  for (; n < args.cases && (Date.now() - started) / 1000 < args.seconds; n++) {
    // Every 7th case repeats an earlier one (after other comparisons of other sizes).
    const repeat = n % 7 === 6 && earlier.length > 0;
    const c = repeat ? pick(random, earlier)[0] : makeCase(random, prose);
    chars += c.first.length + c.second.length;
    const mine = run(now, c);
    if (repeat) {
      const then = earlier.find((e) => e[0] === c)[1];
      if (then !== mine) report('repeated', c, then, mine, previous);
    } else {
      if (earlier.length < 64) earlier.push([c, mine]);
      else if (random() < 0.1) earlier[int(random, 0, 63)] = [c, mine];
    }
    if (old !== undefined) {
      const theirs = run(old, c);
      if (theirs !== mine) report('old/new', c, theirs, mine, previous);
    } else if (c.first.includes('\n') || c.second.includes('\n')) {
      // The same words at the same offsets, unless a line starts with a mark the segmenter joins to white space.
      const flat = { ...c, first: c.first.replaceAll('\n', ' '), second: c.second.replaceAll('\n', ' ') };
      const sameWords = !/\n[\p{M}\p{Cf}\u200d]/u.test(c.first + '\n' + c.second);
      if (sameWords && run(now, flat) !== mine) report('newline as space', c, mine, run(now, flat), previous);
    }
    previous = c;
    if ((n + 1) % 500 === 0) {
      console.log(`${n + 1} cases, ${(chars / 1e6).toFixed(1)} M chars, ${failures} differences, ` +
        `${((Date.now() - started) / 1000).toFixed(0)} s`);
    }
  }
  console.log(`done: ${n} cases, ${(chars / 1e6).toFixed(1)} M chars, ${failures} differences, ` +
    `${((Date.now() - started) / 1000).toFixed(0)} s`);
  process.exitCode = failures > 0 ? 1 : 0;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
