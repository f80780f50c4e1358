// Benchmark of @content-analysis/text-compare against jsdiff's diffWords and a plain diff-match-patch word diff.
// Run after building: `node_modules/.bin/tsc -b packages/text-compare && node benchmarks/text-compare/bench.mjs`.
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';
import { compareTexts } from '@content-analysis/text-compare';
import { diffWords } from 'diff';
import DiffMatchPatch from 'diff-match-patch';
import { Bench } from 'tinybench';

/** A baseline run once outside tinybench is killed after this long and reported as "> 30 s". */
const SLOW_TIMEOUT_MS = 30_000;
const EDIT_RATE = 0.1;
/** `--ours-only` skips the baselines (a quick check of our timings and match counts). */
const OURS_ONLY = process.argv.includes('--ours-only');

/** Plain diff-match-patch word diff: each word or separator becomes one character, then an exact diff. */
function dmpWordDiff(first, second) {
  const dmp = new DiffMatchPatch();
  dmp.Diff_Timeout = 0;
  const codes = new Map();
  const encode = (text) => {
    let out = '';
    for (const token of text.match(/[\p{L}\p{N}_']+|[^\p{L}\p{N}_']+/gu) ?? []) {
      let code = codes.get(token);
      if (code === undefined) {
        code = String.fromCharCode(codes.size + 1);
        codes.set(token, code);
      }
      out += code;
    }
    return out;
  };
  return dmp.diff_main(encode(first), encode(second), false);
}

const baselines = { jsdiff: (a, b) => diffWords(a, b), dmp: dmpWordDiff };

// ---- deterministic inputs -------------------------------------------------------------------------------

function mulberry32(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** 8000 made-up words drawn with Zipf-like frequencies (weight 1 / (rank + 2)), as in natural text. */
function makeVocabulary(rng) {
  const syllables = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'ti', 'vo', 'da', 'pe', 'zu', 'ho', 'gri', 'ben', 'tor',
    'an', 'el', 'is', 'or', 'um', 'que', 'sto', 'mar', 'fel'];
  const words = new Set();
  while (words.size < 8000) {
    const length = 1 + Math.floor(rng() * 3.2);
    let word = '';
    for (let i = 0; i < length; i++) word += syllables[Math.floor(rng() * syllables.length)];
    words.add(word);
  }
  const list = [...words];
  const cumulative = [];
  let total = 0;
  for (let r = 0; r < list.length; r++) cumulative.push((total += 1 / (r + 2)));
  return () => {
    const x = rng() * total;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return list[lo];
  };
}

/** Tokens `{word, after}`: sentences of 6 to 24 words, commas now and then, paragraphs of 3 to 8 sentences. */
function makeDocument(rng, draw, maxChars) {
  const tokens = [];
  let length = 0;
  let inSentence = 0;
  let sentenceLength = 6 + Math.floor(rng() * 19);
  let sentences = 0;
  let paragraphLength = 3 + Math.floor(rng() * 6);
  for (;;) {
    let word = draw();
    if (inSentence === 0) word = word[0].toUpperCase() + word.slice(1);
    let after = ' ';
    inSentence++;
    if (inSentence === sentenceLength) {
      inSentence = 0;
      sentenceLength = 6 + Math.floor(rng() * 19);
      sentences++;
      after = sentences % paragraphLength === 0 ? '.\n\n' : '. ';
    } else if (rng() < 0.06) {
      after = ', ';
    }
    if (length + word.length + after.length > maxChars) break;
    tokens.push({ word, after });
    length += word.length + after.length;
  }
  return tokens;
}

const render = (tokens) => tokens.map((t) => t.word + t.after).join('').trimEnd();

/** Edits about `rate` of the words (a third each replaced, deleted, or followed by an inserted word). */
function editDocument(rng, draw, tokens, rate) {
  const out = [];
  let untouched = 0;
  for (const token of tokens) {
    if (rng() >= rate) {
      out.push(token);
      untouched++;
      continue;
    }
    const op = rng();
    if (op < 1 / 3) {
      let word = draw();
      while (word.toLowerCase() === token.word.toLowerCase()) word = draw();
      out.push({ word, after: token.after });
    } else if (op < 2 / 3) {
      if (out.length > 0 && token.after !== ' ') out[out.length - 1] = { ...out[out.length - 1], after: token.after };
    } else {
      out.push(token, { word: draw(), after: ' ' });
      untouched++;
    }
  }
  return { tokens: out, untouched };
}

function makeInputs() {
  const rng = mulberry32(20240611);
  const draw = makeVocabulary(rng);
  const inputs = [];
  for (const [name, chars] of [['edited 1k', 1_000], ['edited 10k', 10_000], ['edited 120k', 120_000]]) {
    // Room for insertions, so that the edited text stays within the 120k limit too.
    const original = makeDocument(rng, draw, Math.round(chars * 0.96));
    const edited = editDocument(rng, draw, original, EDIT_RATE);
    inputs.push({ name, first: render(original), second: render(edited.tokens), untouched: edited.untouched });
  }
  inputs.push({
    name: 'unrelated 120k',
    first: render(makeDocument(rng, draw, 120_000)),
    second: render(makeDocument(rng, draw, 120_000)),
    untouched: null,
  });
  return inputs;
}

// ---- timing ---------------------------------------------------------------------------------------------

async function tinybenchMean(name, fn, expensive) {
  const bench = new Bench(expensive
    ? { time: 0, iterations: 5, warmupTime: 0, warmupIterations: 1 }
    : { time: 1000, iterations: 10, warmupTime: 200, warmupIterations: 3 });
  bench.add(name, fn);
  await bench.run();
  const result = bench.tasks[0].result;
  if (result.state !== 'completed') throw new Error(`${name}: ${result.state} ${result.error ?? ''}`);
  return result.latency.mean;
}

/** One run in a worker thread, killed after SLOW_TIMEOUT_MS: `{ms}` or `{timedOut: true}`. */
function timeOnceInWorker(baseline, first, second) {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL(import.meta.url), { workerData: { baseline, first, second } });
    const timer = setTimeout(() => {
      void worker.terminate();
      resolve({ timedOut: true });
    }, SLOW_TIMEOUT_MS);
    worker.once('message', (ms) => {
      clearTimeout(timer);
      void worker.terminate();
      resolve({ ms });
    });
    worker.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

const fmt = (ms) => (ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2));

async function main() {
  const inputs = makeInputs();
  const rows = [];
  const goals = {};
  for (const input of inputs) {
    const { first, second } = input;
    const ours = await tinybenchMean(`ours ${input.name}`, () => compareTexts(first, second), first.length > 50_000);
    const row = { input: input.name, chars: `${first.length}/${second.length}`, ours };
    for (const baseline of ['jsdiff', 'dmp']) {
      if (OURS_ONLY) {
        row[baseline] = { ms: NaN };
      } else if (input.untouched === null) {
        const once = await timeOnceInWorker(baseline, first, second);
        row[baseline] = once.timedOut ? { over: SLOW_TIMEOUT_MS } : { ms: once.ms, once: true };
      } else {
        row[baseline] = { ms: await tinybenchMean(`${baseline} ${input.name}`, () => baselines[baseline](first, second), first.length > 50_000) };
      }
    }
    const result = compareTexts(first, second);
    row.quality = input.untouched === null
      ? `matched ${result.first_text.matching_word_count} of ${result.first_text.total_word_count} (unrelated)`
      : `matched ${result.first_text.matching_word_count}, untouched ${input.untouched} of ${result.first_text.total_word_count}`;
    rows.push(row);
    goals[input.name] = ours;
  }

  const cell = (b) => (b.over ? `> ${b.over / 1000} s` : `${fmt(b.ms)}${b.once ? ' (1 run)' : ''}`);
  const ratio = (b, ours) => (b.over ? `> ${(b.over / ours).toFixed(0)}` : (b.ms / ours).toFixed(1));
  const table = rows.map((r) => ({
    input: r.input,
    chars: r.chars,
    'ours (mean ms)': fmt(r.ours),
    'jsdiff (ms)': cell(r.jsdiff),
    'dmp (ms)': cell(r.dmp),
    'jsdiff/ours': ratio(r.jsdiff, r.ours),
    'dmp/ours': ratio(r.dmp, r.ours),
    'words matched (ours)': r.quality,
  }));
  const columns = Object.keys(table[0]);
  const widths = columns.map((c) => Math.max(c.length, ...table.map((t) => t[c].length)));
  const line = (values) => `| ${values.map((v, i) => v.padEnd(widths[i])).join(' | ')} |`;
  console.log(line(columns));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const t of table) console.log(line(columns.map((c) => t[c])));
  console.log();
  const edited = goals['edited 120k'];
  const unrelated = goals['unrelated 120k'];
  console.log(`${edited < 200 ? 'PASS' : 'FAIL'} edited 120k: ${fmt(edited)} ms (goal < 200 ms)`);
  console.log(`${unrelated < 1000 ? 'PASS' : 'FAIL'} unrelated 120k: ${fmt(unrelated)} ms (goal < 1000 ms)`);
}

// A worker thread times one baseline run; the main thread runs the benchmark.
if (!isMainThread) {
  const { baseline, first, second } = workerData;
  const started = performance.now();
  baselines[baseline](first, second);
  parentPort.postMessage(performance.now() - started);
} else {
  await main();
}
