// Real inputs for the benchmarks, read from the shared datasets (`CONTENT_ANALYSIS_DATASETS`, default
// `../shared/datasets` from the project root; never committed), and the machine line every benchmark prints.
import { existsSync, readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Bench } from 'tinybench';

export const projectRoot = fileURLToPath(new URL('../../', import.meta.url));

/** The shared datasets folder, or undefined when it is absent. */
export function datasetsRoot() {
  const root = resolve(projectRoot, process.env.CONTENT_ANALYSIS_DATASETS ?? '../shared/datasets');
  return existsSync(root) ? root : undefined;
}

/**
 * Camera photos at their own resolution (none resized or re-encoded), smallest first. Paths are relative to the
 * datasets folder; each set's README.txt has its origin and licence.
 */
export const CAMERA_PHOTOS = [
  { name: 'ImageNet jeep (1280 x 960)', path: 'images/ai-vs-real-train/imagenet-class-samples/real/n03594945_jeep.JPEG' },
  { name: 'Canon car interior (1600 x 1200)', path: 'images/exif-samples/jpg/tests/22-canon_tags.jpg' },
  { name: 'Nikon Z 9 building (4128 x 2752)', path: 'images/c2pa-public-testfiles/nikon-20221019-building.jpeg' },
  { name: 'Truepic phone camera (4032 x 3024)', path: 'images/c2pa-public-testfiles/truepic-20230212-camera.jpg' },
  { name: 'Canon DSLR (5184 x 3456)', path: 'images/exifr-fixtures/canon-dslr.jpg' },
];

/** The camera photos present, with their bytes; `names` (substrings) picks some. */
export function cameraPhotos(names) {
  const root = datasetsRoot();
  if (root === undefined) return [];
  return CAMERA_PHOTOS.filter((photo) => names === undefined || names.some((n) => photo.name.includes(n)))
    .map((photo) => ({ ...photo, file: join(root, photo.path) }))
    .filter((photo) => existsSync(photo.file))
    .map((photo) => ({ ...photo, bytes: readFileSync(photo.file) }));
}

/**
 * The distinct human-written English texts of the shared AI-text sets, in file order: BBC news (XSum), Reddit
 * WritingPrompts stories and SQuAD Wikipedia paragraphs (aitext/fastdetectgpt_open_models), arXiv abstracts,
 * Wikipedia, WikiHow and Reddit (aitext/m4_llama2, English rows) and PubMed answers (aitext/binoculars_pubmed), about
 * 1,474 texts and 2.8 M characters. fastdetectgpt holds each human text up to five times, cut to different lengths
 * (one per generator): texts that open with the same 80 characters are one text, its longest copy kept. Each item:
 * `{ text, set, domain }`. Empty when the datasets are absent.
 */
export function humanTexts() {
  const root = datasetsRoot();
  if (root === undefined) return [];
  const out = [];
  const seen = new Map(); // first 80 characters -> item
  const read = (file, set, keep) => out.push(...distinctHumanTexts(join(root, 'aitext', file), { keep, set, seen }));
  read('fastdetectgpt_open_models/exp_main.jsonl', 'fastdetectgpt');
  read('m4_llama2/m4_llama2_examples.jsonl', 'm4', (row) => (row.lang ?? 'en') === 'en');
  read('binoculars_pubmed/pubmed_falcon7.jsonl', 'pubmed');
  return out.map(({ text, set, row }) => ({ text, set, domain: row.domain ?? set }));
}

/**
 * The `label: "human"` rows of one JSONL file that `keep` accepts, as `{ text, set, row }` in file order, the text
 * passed through `clean` (default: trimmed) and dropped when shorter than `minLength`. Texts opening with the same 80
 * characters are one text, its longest copy kept; `seen` (first 80 characters -> item) may be shared between files,
 * so that a later file's longer copy replaces an earlier one's text. Nothing when the file is absent.
 */
export function distinctHumanTexts(path, { keep = () => true, set, clean = (text) => text.trim(), minLength = 0, seen = new Map() } = {}) {
  const out = [];
  if (!existsSync(path)) return out;
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const row = JSON.parse(line);
    if (row.label !== 'human' || !keep(row)) continue;
    const text = clean(row.text);
    if (text.length < minLength) continue;
    const key = text.slice(0, 80);
    const at = seen.get(key);
    if (at === undefined) {
      const item = { text, set, row };
      seen.set(key, item);
      out.push(item);
    } else if (text.length > at.text.length) at.text = text;
  }
  return out;
}

/** Distinct human texts joined by blank lines until `chars` characters (cut at a word boundary), from `offset` on. */
export function humanProse(chars, { offset = 0, texts = humanTexts() } = {}) {
  if (texts.length === 0) throw new Error('human texts not found: set CONTENT_ANALYSIS_DATASETS');
  let out = '';
  for (let i = offset; out.length < chars; i++) {
    if (i - offset >= texts.length) throw new Error(`only ${out.length} characters of human text`);
    out += (out ? '\n\n' : '') + texts[i % texts.length].text;
  }
  const cut = out.lastIndexOf(' ', chars);
  return out.slice(0, cut > chars * 0.9 ? cut : chars);
}

/** One line: the machine's load averages, cores and Node version. */
export function machineLine() {
  const [one, five, fifteen] = loadavg();
  return `load average ${one.toFixed(2)} / ${five.toFixed(2)} / ${fifteen.toFixed(2)} (1 / 5 / 15 min), ${cpus().length} cores, Node ${process.version}`;
}

/**
 * Runs tinybench over `tasks` (`[name, fn]`) and returns `{ name: { median, p99, samples } }` in ms. Tasks run one
 * after another, each for at least `time` ms and `iterations` runs after `warmupIterations`.
 */
export async function medians(tasks, { time = 1000, iterations = 10, warmupIterations = 2 } = {}) {
  const bench = new Bench({ time, iterations, warmupIterations, warmupTime: 0 });
  for (const [name, fn] of tasks) bench.add(name, fn);
  await bench.run();
  const out = {};
  for (const task of bench.tasks) {
    const result = task.result;
    if (result.state !== 'completed') throw new Error(`${task.name}: ${result.state} ${result.error ?? ''}`);
    out[task.name] = { median: result.latency.p50, p99: result.latency.p99, samples: result.latency.samples?.length ?? result.latency.samplesCount };
  }
  return out;
}
