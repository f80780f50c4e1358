// Benchmark of @content-analysis/text-compare on real prose, against diff-match-patch on word tokens and jsdiff's
// diffWords measured in the same run. Inputs: the shared human text sets (benchmarks/lib/prose.mjs).
// Run after building: `npm run setup` (or `node_modules/.bin/tsc -b packages/text-compare`), then
// `node benchmarks/text-compare/bench.mjs [--ours-only]`.
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { compareTexts } from '@content-analysis/text-compare';
import { diffWords } from 'diff';
import DiffMatchPatch from 'diff-match-patch';
import { Bench } from 'tinybench';
import { editProse, humanDocuments, realProse } from '../lib/prose.mjs';

/** A baseline run once outside tinybench (the unrelated pair) is killed after this long and shown as "> 60 s". */
const SLOW_TIMEOUT_MS = 60_000;
/** `--ours-only` skips the baselines (a quick check of our timings and match counts). */
const OURS_ONLY = process.argv.includes('--ours-only');
const TOKEN = /[\p{L}\p{N}_']+|[^\p{L}\p{N}_']+/gu;
const WORD_TOKEN = /^[\p{L}\p{N}_']+$/u;

/**
 * diff-match-patch on word tokens: each word or separator (maximal runs of letters, digits, _ and ', or of
 * anything else) is encoded as one character, then diff_main without time limit and without the line speed-up.
 * Returns the diff and the number of word tokens it keeps in common.
 */
function dmpWordDiff(first, second) {
  const dmp = new DiffMatchPatch();
  dmp.Diff_Timeout = 0;
  const codes = new Map();
  const words = new Set();
  const encode = (text) => {
    let out = '';
    for (const token of text.match(TOKEN) ?? []) {
      let code = codes.get(token);
      if (code === undefined) {
        code = String.fromCharCode(codes.size + 1);
        codes.set(token, code);
        if (WORD_TOKEN.test(token)) words.add(code);
      }
      out += code;
    }
    return out;
  };
  const diff = dmp.diff_main(encode(first), encode(second), false);
  let commonWords = 0;
  for (const [op, chars] of diff) if (op === 0) for (const c of chars) if (words.has(c)) commonWords++;
  return { diff, commonWords };
}

const baselines = { dmp: (a, b) => dmpWordDiff(a, b), jsdiff: (a, b) => diffWords(a, b) };

/** The string as a server holds it after JSON.parse: flat, not a slice or a rope of the corpus. */
const asReceived = (text) => JSON.parse(JSON.stringify(text));

/**
 * The pairs. Texts are distinct human documents of the shared sets joined by blank lines (news, stories, SQuAD
 * paragraphs, CNN/DailyMail highlights, arXiv abstracts, Wikipedia, WikiHow, Reddit, PubMed); no document is used
 * twice. The edited copies are made by editProse with a third, unused stretch of real prose as the donor of
 * inserted words and sentences. Originals of edited pairs are cut at 96% of the size so that the copy stays
 * within the 120,000-character limit.
 */
function makeInputs() {
  const inputs = [];
  let offset = 0;
  const take = (chars, count) => {
    const { texts, next } = realProse(chars, { count, offset });
    offset = next;
    return texts;
  };
  const edited = (name, chars, options) => {
    const [original, donor] = take(Math.round(chars * 0.96), 2);
    const copy = editProse(original, donor, options);
    if (copy.text.length > 120_000) throw new Error(`${name}: the edited copy has ${copy.text.length} characters`);
    inputs.push({
      name, first: asReceived(original), second: asReceived(copy.text),
      note: `${copy.editedSentences} of ${copy.sentences} sentences edited, ${options.moves} paragraphs moved`,
    });
  };
  edited('edited 1k', 1_000, { seed: 1, rate: 0.1, moves: 0 });
  edited('edited 10k', 10_000, { seed: 2, rate: 0.1, moves: 1 });
  edited('edited 120k', 120_000, { seed: 3, rate: 0.1, moves: 2 });
  edited('lightly edited 120k', 120_000, { seed: 4, rate: 0.05, moves: 0 });
  const [first, second] = take(119_000, 2);
  inputs.push({ name: 'unrelated 120k', first: asReceived(first), second: asReceived(second), note: 'two different real texts', unrelated: true });
  return { inputs, documents: offset };
}

// ---- timing ---------------------------------------------------------------------------------------------

/** Tinybench samples (ms) of `fn`: `iterations` runs after `warmup`, at least `time` ms. */
async function tinybenchSamples(name, fn, { time, iterations, warmup }) {
  const bench = new Bench({ time, iterations, warmupTime: 0, warmupIterations: warmup, retainSamples: true });
  bench.add(name, fn);
  await bench.run();
  const result = bench.tasks[0].result;
  if (result.state !== 'completed') throw new Error(`${name}: ${result.state} ${result.error ?? ''}`);
  return Array.from(result.latency.samples);
}

const median = (values) => {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** Rounds of tinybench runs, ours and then each baseline in every round, so that a change of load (the machine is
 * shared) falls on all of them alike; a baseline stops taking part once it has spent BASELINE_BUDGET_MS. Returns
 * `{ task: { ms (median of all samples), runs } }`. */
const ROUNDS = 5;
const BASELINE_BUDGET_MS = 20_000;
async function interleavedMedians(tasks, big) {
  const samples = Object.fromEntries(Object.keys(tasks).map((name) => [name, []]));
  const spent = Object.fromEntries(Object.keys(tasks).map((name) => [name, 0]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, fn] of Object.entries(tasks)) {
      const ours = name === 'ours';
      if (!ours && spent[name] > BASELINE_BUDGET_MS) continue;
      const options = ours
        ? { time: big ? 0 : 200, iterations: big ? 4 : 10, warmup: round === 0 ? 3 : 1 }
        : { time: big ? 0 : 200, iterations: big ? 1 : 3, warmup: round === 0 && !big ? 1 : 0 };
      const got = await tinybenchSamples(name, fn, options);
      samples[name].push(...got);
      spent[name] += got.reduce((x, y) => x + y, 0);
    }
  }
  return Object.fromEntries(Object.entries(samples).map(([name, list]) => [name, { ms: median(list), runs: list.length }]));
}

/** One run in a worker thread, killed after SLOW_TIMEOUT_MS: `{ms}` or `{over}`. */
function timeOnceInWorker(baseline, first, second) {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL(import.meta.url), { workerData: { baseline, first, second } });
    const timer = setTimeout(() => {
      void worker.terminate();
      resolve({ over: SLOW_TIMEOUT_MS });
    }, SLOW_TIMEOUT_MS);
    worker.once('message', (ms) => {
      clearTimeout(timer);
      void worker.terminate();
      resolve({ ms, once: true });
    });
    worker.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

const fmt = (ms) => (ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2));
const load = () => loadavg().map((l) => l.toFixed(2)).join(' / ');

async function main() {
  const started = load();
  const { inputs, documents } = makeInputs();
  const corpus = humanDocuments();
  console.log(`text-compare bench, Node ${process.version}, ${cpus().length} cores; load average (1 / 5 / 15 min) ${started} at the start`);
  console.log(`inputs: ${documents} of the ${corpus.length} distinct human texts of the shared AI-text sets, none used twice`);
  const rows = [];
  for (const input of inputs) {
    const { first, second } = input;
    const big = first.length > 50_000;
    const tasks = { ours: () => compareTexts(first, second) };
    if (!OURS_ONLY && !input.unrelated) for (const name of ['dmp', 'jsdiff']) tasks[name] = () => baselines[name](first, second);
    const timed = await interleavedMedians(tasks, big);
    const ours = timed.ours;
    const row = { input, ours };
    for (const baseline of ['dmp', 'jsdiff']) {
      if (OURS_ONLY) row[baseline] = { ms: NaN };
      else if (input.unrelated) row[baseline] = await timeOnceInWorker(baseline, first, second);
      else row[baseline] = timed[baseline];
    }
    // CPU time of the process per call (user + system, 20 calls): on a loaded machine, closer than wall time to
    // what a quiet one shows, since time spent waiting for a core is left out.
    const cpuBefore = process.cpuUsage();
    for (let i = 0; i < 20; i++) compareTexts(first, second);
    const cpu = process.cpuUsage(cpuBefore);
    row.oursCpu = (cpu.user + cpu.system) / 1000 / 20;
    const result = compareTexts(first, second);
    row.matched = `${result.first_text.matching_word_count} of ${result.first_text.total_word_count}`;
    row.similarity = result.similarity_score;
    row.dmpCommon = OURS_ONLY || input.unrelated ? '-' : String(dmpWordDiff(first, second).commonWords);
    rows.push(row);
    const runs = ['dmp', 'jsdiff'].map((b) => (row[b].runs ? `${b} ${row[b].runs}` : '')).filter(Boolean).join(', ');
    console.log(`  ${input.name}: ${input.note}; runs: ours ${ours.runs}${runs ? `, ${runs}` : ''}`);
  }

  const cell = (b) => (b.over ? `> ${b.over / 1000} s` : Number.isNaN(b.ms) ? '-' : `${fmt(b.ms)}${b.once ? ' (1 run)' : ''}`);
  const ratio = (b, ours) => (b.over ? `> ${(b.over / ours).toFixed(0)}` : Number.isNaN(b.ms) ? '-' : (b.ms / ours).toFixed(1));
  const table = rows.map((r) => ({
    input: r.input.name,
    chars: `${r.input.first.length} / ${r.input.second.length}`,
    'ours (median ms)': fmt(r.ours.ms),
    'ours CPU (ms)': fmt(r.oursCpu),
    'dmp words (ms)': cell(r.dmp),
    'jsdiff (ms)': cell(r.jsdiff),
    'dmp / ours': ratio(r.dmp, r.ours.ms),
    'jsdiff / ours': ratio(r.jsdiff, r.ours.ms),
    'words matched (ours)': r.matched,
    'dmp common words': r.dmpCommon,
    similarity: r.similarity.toFixed(2),
  }));
  const columns = Object.keys(table[0]);
  const widths = columns.map((c) => Math.max(c.length, ...table.map((t) => t[c].length)));
  const line = (values) => `| ${values.map((v, i) => v.padEnd(widths[i])).join(' | ')} |`;
  console.log();
  console.log(line(columns));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const t of table) console.log(line(columns.map((c) => t[c])));
  console.log();
  console.log(`load average ${started} at the start, ${load()} at the end`);
  const byName = Object.fromEntries(rows.map((r) => [r.input.name, r]));
  const edited = byName['edited 120k'];
  const unrelated = byName['unrelated 120k'];
  console.log(`${edited.ours.ms < 5 ? 'PASS' : 'FAIL'} edited 120k: ${fmt(edited.ours.ms)} ms (goal < 5 ms)`);
  console.log(`${unrelated.ours.ms < 20 ? 'PASS' : 'FAIL'} unrelated 120k: ${fmt(unrelated.ours.ms)} ms (goal < 20 ms)`);
  if (!OURS_ONLY) {
    for (const name of ['edited 120k', 'lightly edited 120k']) {
      const r = byName[name];
      const x = r.dmp.ms / r.ours.ms;
      console.log(`${x >= 15 ? 'PASS' : 'FAIL'} ${name}: ${x.toFixed(1)}x diff-match-patch on word tokens (goal >= 15x)`);
    }
  }
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
