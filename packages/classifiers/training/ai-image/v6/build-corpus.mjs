// Builds the version 6 AI-image corpus: the images SOURCES picks from the vetted public repositories (copies made
// by the `fetch` tool under CONTENT_ANALYSIS_MIRRORS, default /work/.mirror, each `<owner>+<name>/repo`, a bare git
// directory) plus ../shared/datasets/images/ai-vs-real-train, into training/out/ai-image-v6/ (git-ignored):
// `images/<source>/<file>` and `manifest.csv` (one row per kept image: source, repository, commit, path, licence,
// label, family, width, height, format, sha256, dhash, split). `split` is `calibration` for the real photos held apart
// from all training to set the threshold (CALIBRATION_FRACTION of each source's, by a hash of the file name: what
// train.py holds apart and scripts/ai-image/evaluate.mjs measures robustness on), else `train`. Left out: files the
// copy lacks (4 MiB or more), files sharp cannot decode, images under 256 px on the shorter side (the API minimum),
// exact copies (SHA-256) and near copies (64-bit difference hash within 4 bits) across and within sources, keeping
// the first seen; an image whose near copy carries the other label is dropped on both sides. Also left out, before
// anything else: every file whose SHA-256 is in ../shared/datasets/reserved-images.sha256 (the reserved repositories
// and the evaluation images) or equals an image under ../shared/datasets/images outside ai-vs-real-train (the
// evaluation sets), and every near copy (difference hash within 4 bits) of such an evaluation image, so that no
// evaluation image is ever a training image; `duplicates.json` lists each file dropped this way and what it matched. A source's grids of several images are cut into tiles (`tiles` in sources.mjs; a
// tile's path is `<file>#tile<k>`). Usage: node training/ai-image/v6/build-corpus.mjs [--limit AI,REAL] [--only LIST]
// (version 8: --limit 80,150 --only training/ai-image/v8/corpus-files.txt; version 9: --limit 80,150, the full plan, whose
// 3,061 kept images training/ai-image/v9/corpus-files.txt lists for --only)
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import sharp from 'sharp';
import { MIN_SIDE, trainingImages } from '../datasets.mjs';
import { DATASETS_DIR } from '../../datasets.mjs';
import { SOURCES } from './sources.mjs';

const MIRRORS = process.env.CONTENT_ANALYSIS_MIRRORS ?? '/work/.mirror';
const OUT = resolve(import.meta.dirname, '../../out/ai-image-v6');
const NEAR_BITS = 4;
// `--limit AI,REAL` (version 8, built on 2 shared cores): at most AI files of each generator family and REAL of each
// kind of real photo per source (ai-vs-real-train is taken whole), the same deterministic sample as `limit`.
const at = process.argv.indexOf('--limit');
const LIMIT = at === -1 ? undefined : Object.fromEntries(process.argv[at + 1].split(',').map((n, i) => [i === 0 ? 'ai' : 'real', Number(n)]));
// `--only LIST`: only the candidates whose corpus file (`images/<source>/<name>`) LIST names, one a line (version 8
// was trained on the images whose features 2 shared cores computed in the time there was: training/ai-image/v8/corpus-files.txt).
const ot = process.argv.indexOf('--only');
const ONLY = ot === -1 ? undefined : new Set(readFileSync(process.argv[ot + 1], 'utf8').split('\n').filter(Boolean));
const CALIBRATION_FRACTION = 0.15;

/** The split of a kept image (see the header): the first 32 bits of SHA-256('calib' + file) as a fraction of 2^32. */
const splitOf = (row) =>
  row.label === 'real' && parseInt(createHash('sha256').update('calib' + row.file).digest('hex').slice(0, 8), 16) / 2 ** 32 < CALIBRATION_FRACTION
    ? 'calibration'
    : 'train';

const git = (dir, args) => execFileSync('git', ['--git-dir', dir, ...args], { maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'ignore'] });

/** Deterministic sample of `limit` items (by SHA-256 of the path), so reruns pick the same files. */
function sample(items, limit) {
  if (!limit || items.length <= limit) return items;
  const key = (p) => createHash('sha256').update(p).digest('hex');
  return [...items].sort((a, b) => key(a).localeCompare(key(b))).slice(0, limit).sort();
}

/** 64-bit difference hash (Krawetz): 9 x 8 grey thumbnail, one bit per horizontal neighbour comparison. */
async function dhash(bytes) {
  const px = await sharp(bytes).rotate().greyscale().resize(9, 8, { fit: 'fill', kernel: 'lanczos3' }).raw().toBuffer();
  let h = 0n;
  for (let y = 0; y < 8; y++) for (let x = 0; x < 8; x++) h = (h << 1n) | (px[y * 9 + x] < px[y * 9 + x + 1] ? 1n : 0n);
  return h;
}

/**
 * Near-copy lookup over the kept images (`items`, in the order kept; `add` appends): two 64-bit hashes within
 * NEAR_BITS (4) differ in at most 4 of the 5 bands below, so they agree exactly on at least one (pigeonhole); only
 * images sharing a band value are compared. `first(hash)` is the earliest kept image within NEAR_BITS, as a scan of
 * all of them in order would find.
 */
const BANDS = [[0n, 13n], [13n, 13n], [26n, 13n], [39n, 13n], [52n, 12n]];
class NearIndex {
  bands = BANDS.map(() => new Map());

  constructor(items) {
    this.items = items;
  }

  add(item) {
    const at = this.items.push(item) - 1;
    BANDS.forEach(([shift, bits], b) => {
      const key = (item.hash >> shift) & ((1n << bits) - 1n);
      if (!this.bands[b].has(key)) this.bands[b].set(key, []);
      this.bands[b].get(key).push(at);
    });
  }

  first(hash) {
    let best = Infinity;
    BANDS.forEach(([shift, bits], b) => {
      for (const at of this.bands[b].get((hash >> shift) & ((1n << bits) - 1n)) ?? []) {
        if (at < best && popcount(this.items[at].hash ^ hash) <= NEAR_BITS) best = at;
      }
    });
    return this.items[best];
  }
}

function popcount(v) {
  let n = 0;
  while (v) (v &= v - 1n), n++;
  return n;
}

/** Tile `index` (row by row) of an image cut into `grid` x `grid` equal tiles, as PNG (lossless). */
async function tileOf(bytes, grid, index) {
  const { width, height } = await sharp(bytes).metadata();
  const w = Math.floor(width / grid);
  const h = Math.floor(height / grid);
  return sharp(bytes).extract({ left: (index % grid) * w, top: Math.floor(index / grid) * h, width: w, height: h }).png().toBuffer();
}

/** Every file under `dir`, recursively. */
function* walk(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) yield* walk(join(dir, entry.name));
    else if (entry.isFile()) yield join(dir, entry.name);
  }
}

/**
 * What no training image may be (see the header): `sha` maps a SHA-256 to where it comes from (the reserved list or an
 * evaluation file), `near` holds the difference hashes of the evaluation images (every decodable image under
 * ../shared/datasets/images except the training set ai-vs-real-train).
 */
async function evaluationImages() {
  const sha = new Map();
  const listed = join(DATASETS_DIR, 'reserved-images.sha256');
  if (!existsSync(listed)) throw new Error(`${listed} not found: set CONTENT_ANALYSIS_DATASETS to the shared datasets folder`);
  for (const line of readFileSync(listed, 'utf8').split('\n')) {
    if (/^[0-9a-f]{64}$/.test(line.trim())) sha.set(line.trim(), 'reserved-images.sha256');
  }
  const near = [];
  for (const path of walk(join(DATASETS_DIR, 'images'))) {
    const name = relative(DATASETS_DIR, path);
    if (name.startsWith(join('images', 'ai-vs-real-train'))) continue;
    const bytes = readFileSync(path);
    sha.set(createHash('sha256').update(bytes).digest('hex'), name);
    try {
      near.push({ name, hash: await dhash(bytes) });
    } catch {
      // not an image sharp decodes (JSON, masks in other formats, ...): its SHA-256 is enough
    }
  }
  return { sha, near };
}

/** Candidate files of every source: {source, repo, commit, path, licence, label, family, read()}. */
function* candidates() {
  for (const source of SOURCES) {
    const dir = join(MIRRORS, source.repo.replace('/', '+'), 'repo');
    if (!existsSync(dir)) {
      console.log(`missing ${source.repo}: copy it with the fetch tool (github:${source.repo}) or set CONTENT_ANALYSIS_MIRRORS`);
      continue;
    }
    const head = git(dir, ['rev-parse', 'HEAD']).toString().trim();
    const commit = head.startsWith(source.commit) ? head : git(dir, ['rev-parse', `${source.commit}^{commit}`]).toString().trim();
    const files = git(dir, ['ls-tree', '-r', '--name-only', commit]).toString().split('\n').filter(Boolean);
    const read = (path) => git(dir, ['cat-file', 'blob', `${commit}:${path}`]);
    const context = source.prepare ? source.prepare((p) => read(p).toString('utf8'), files) : undefined;
    const picked = files.map((path) => ({ path, family: source.pick(path, context) })).filter((f) => f.family);
    const kept = new Set(sample(picked.map((f) => f.path), source.limit));
    if (LIMIT) {
      // --limit: at most LIMIT[label] files of each family (AI) or kind (real) of the source, by the same sample.
      for (const family of new Set(picked.map((f) => f.family))) {
        const mine = picked.filter((f) => f.family === family && kept.has(f.path)).map((f) => f.path);
        const keep = new Set(sample(mine, LIMIT[source.label]));
        for (const path of mine) if (!keep.has(path)) kept.delete(path);
      }
    }
    for (const { path, family } of picked.filter((f) => kept.has(f.path))) {
      const base = { source: source.id, repo: source.repo, commit, licence: source.licence, label: source.label, family };
      if (!source.tiles) {
        yield { ...base, path, read: () => read(path) };
        continue;
      }
      let grid; // read once for all its tiles
      for (const tile of source.tiles.keep) {
        yield { ...base, path: `${path}#tile${tile}`, read: () => tileOf((grid ??= read(path)), source.tiles.grid, tile) };
      }
    }
  }
  for (const r of trainingImages()) {
    yield {
      source: `avrt-${r.subset}`, repo: 'shared/datasets/images/ai-vs-real-train', commit: '', path: r.path.slice(DATASETS_DIR.length + 1),
      licence: 'see the subset README', label: r.label === 1 ? 'ai' : 'real', family: r.label === 1 ? r.family : 'benchmark photo',
      read: () => readFileSync(r.path),
    };
  }
}

rmSync(join(OUT, 'images'), { recursive: true, force: true });
mkdirSync(join(OUT, 'images'), { recursive: true });
const kept = [];
const nearIndex = new NearIndex(kept);
const bySha = new Map();
const dropped = { absent: 0, evaluation_exact: 0, evaluation_near: 0, undecodable: 0, small: 0, exact: 0, near: 0, cross_label: 0 };
const evaluation = await evaluationImages();
const duplicates = [];
const started = Date.now();
let seen = 0;
for (const c of candidates()) {
  if (ONLY && !ONLY.has(join('images', c.source, c.path.replace(/[^A-Za-z0-9._-]+/g, '_')))) continue;
  seen++;
  let bytes;
  try {
    bytes = await c.read();
  } catch {
    dropped.absent++; // the copy leaves out files of 4 MiB or more
    continue;
  }
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  if (evaluation.sha.has(sha256)) {
    dropped.evaluation_exact++;
    duplicates.push({ source: c.source, path: c.path, match: 'sha256', evaluation: evaluation.sha.get(sha256) });
    continue;
  }
  if (bySha.has(sha256)) {
    dropped.exact++;
    if (bySha.get(sha256).label !== c.label) bySha.get(sha256).conflict = true;
    continue;
  }
  let meta;
  let hash;
  try {
    meta = await sharp(bytes).metadata();
    hash = await dhash(bytes);
  } catch {
    dropped.undecodable++;
    continue;
  }
  const evaluationNear = evaluation.near.find((e) => popcount(e.hash ^ hash) <= NEAR_BITS);
  if (evaluationNear) {
    dropped.evaluation_near++;
    duplicates.push({ source: c.source, path: c.path, match: `dhash within ${NEAR_BITS} bits`, evaluation: evaluationNear.name });
    continue;
  }
  const { width, height } = meta.autoOrient ?? meta;
  if (Math.min(width, height) < MIN_SIDE) {
    dropped.small++;
    continue;
  }
  const near = nearIndex.first(hash);
  if (near) {
    dropped.near++;
    if (near.label !== c.label) near.conflict = true;
    continue;
  }
  const name = c.path.replace(/[^A-Za-z0-9._-]+/g, '_');
  const file = join('images', c.source, name);
  mkdirSync(join(OUT, 'images', c.source), { recursive: true });
  writeFileSync(join(OUT, file), bytes);
  const row = { ...c, file, width, height, format: meta.format, sha256, hash };
  delete row.read;
  nearIndex.add(row);
  bySha.set(sha256, row);
  if (seen % 500 === 0) console.log(`${seen} files, ${kept.length} kept, ${((Date.now() - started) / 1000).toFixed(0)} s`);
}
const rows = kept.filter((k) => !k.conflict);
dropped.cross_label = kept.length - rows.length;
for (const k of kept.filter((k) => k.conflict)) rmSync(join(OUT, k.file));
const columns = ['file', 'source', 'repo', 'commit', 'path', 'licence', 'label', 'family', 'width', 'height', 'format', 'sha256', 'dhash', 'split'];
for (const r of rows) r.split = splitOf(r);
const csv = (v) => (/[",\n]/.test(String(v)) ? `"${String(v).replaceAll('"', '""')}"` : String(v));
writeFileSync(
  join(OUT, 'manifest.csv'),
  [columns.join(','), ...rows.map((r) => columns.map((c) => csv(c === 'dhash' ? r.hash.toString(16).padStart(16, '0') : r[c])).join(','))].join('\n') + '\n',
);
const count = (key) => Object.fromEntries([...new Set(rows.map((r) => r[key]))].sort().map((v) => [v, rows.filter((r) => r[key] === v).length]));
const summary = {
  built: new Date().toISOString(), candidates: seen, kept: rows.length, dropped,
  by_label: count('label'),
  families: count('family'),
  by_source: count('source'),
};
for (const r of rows) delete r.hash;
writeFileSync(join(OUT, 'manifest.json'), JSON.stringify(summary, null, 1) + '\n');
writeFileSync(join(OUT, 'duplicates.json'), JSON.stringify(duplicates, null, 1) + '\n');
console.log(JSON.stringify(summary, null, 1));
