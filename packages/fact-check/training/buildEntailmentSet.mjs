// Builds the training set of the neural entailment model (2.0.0) into training/.data/nli/ (git-ignored) with a
// manifest: pairs, splits, counts per source / split / label, where every source came from.
//
// Sources: the shared sets of datasets.mjs (SNLI dev+test, FEVER dev gold evidence, Breaking NLI, ConjNLI, RTE), the
// FEVER neutral passages (fever_nei) and self pairs of feverNeutralPairs.mjs, the vetted public repositories of
// ../shared/datasets/SOURCES.md that the library's `fetch` copied (nyu-mll/semi-automatic-nli wiki sets,
// asaakyan/covidfact RTE-covidfact; pinned commits, read with git, skipped with a message when the copy is absent),
// and the augmentation of augmentPairs.mjs (training rows only).
//
// Splits, fixed before any training and never trained on: SNLI test, FEVER claims with hash(claim) % 5 == 0 (the
// same as 1.x's held-out FEVER), Breaking NLI premises with hash % 5 == 0, ConjNLI dev, RTE dev, the semi-automatic
// wiki test files, RTE-covidfact dev. Development (early stopping): training rows whose group (FEVER claim, premise
// otherwise) has (hash >>> 8) % 10 == 0. A training pair whose premise and hypothesis also form a test pair is dropped.
// CLIMATE-FEVER is not used here at all.
//
// Run: node packages/fact-check/training/buildEntailmentSet.mjs   (after tsc -b packages/fact-check; ~1 min)
// Env: CONTENT_ANALYSIS_DATASETS (default ../shared/datasets), FACT_CHECK_MIRRORS (default /work/.mirror).
process.env.DOTENV_CONFIG_QUIET = 'true';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { alignPair, entailmentFeatures, entailmentTokens, loadWordVectors } from '../dist/index.js';
import { augmentPairs } from './augmentPairs.mjs';
import { hash, nliPairs, requireFactcheckRoot } from './datasets.mjs';
import { feverNeutralPairs, feverSelfPairs } from './feverNeutralPairs.mjs';

const MIRRORS = process.env.FACT_CHECK_MIRRORS ?? '/work/.mirror';
const REPOSITORIES = {
  'nyu-mll/semi-automatic-nli': { commit: '853c480133141f1b737744dc7d6e2db2686578bb', licence: 'CC BY-SA (Wikipedia premises)' },
  'asaakyan/covidfact': { commit: 'ceeb613cde5a6c19dea4f2c165654e510ff52b10', licence: 'none stated (vetted in SOURCES.md)' },
};
const manifest = { built: new Date().toISOString().slice(0, 10), sources: [], counts: {}, skipped: [] };

function gitShow(repo, path) {
  const dir = join(MIRRORS, repo.replace('/', '+'), 'repo');
  if (!existsSync(dir)) return null;
  return execFileSync('git', ['--git-dir', dir, 'show', `${REPOSITORIES[repo].commit}:${path}`], { maxBuffer: 64 << 20 }).toString('utf8');
}

function fetchedPairs() {
  const pairs = [];
  const label3 = { e: 0, n: 1, c: 2 };
  for (const set of ['base_wiki', 'sim_wiki', 'translate_wiki']) {
    for (const split of ['train', 'test']) {
      const path = `data/${set}/${split}.jsonl`;
      const text = gitShow('nyu-mll/semi-automatic-nli', path);
      if (text === null) { manifest.skipped.push(`nyu-mll/semi-automatic-nli ${path}: no copy under ${MIRRORS} (run the library's fetch)`); continue; }
      let n = 0;
      for (const line of text.split('\n')) {
        if (!line.trim()) continue;
        const r = JSON.parse(line);
        if (!(r.label in label3)) continue;
        pairs.push({ source: 'semi_auto_wiki', split, premise: r.premise, hypothesis: r.hypothesis, label: label3[r.label] });
        n++;
      }
      manifest.sources.push({ repository: 'nyu-mll/semi-automatic-nli', commit: REPOSITORIES['nyu-mll/semi-automatic-nli'].commit, path, licence: REPOSITORIES['nyu-mll/semi-automatic-nli'].licence, pairs: n, split });
    }
  }
  for (const [file, split] of [['train.tsv', 'train'], ['dev.tsv', 'test']]) {
    const path = `RTE-covidfact/${file}`;
    const text = gitShow('asaakyan/covidfact', path);
    if (text === null) { manifest.skipped.push(`asaakyan/covidfact ${path}: no copy under ${MIRRORS}`); continue; }
    let n = 0;
    for (const line of text.split('\n').slice(1)) {
      const [, premise, hypothesis, label] = line.split('\t');
      if (!premise || !hypothesis || !label) continue;
      // not_entailment here is a counter-claim made by changing the true claim: trained as "not entailment" (-1).
      pairs.push({ source: 'covidfact', split, premise: premise.replace(/ > /g, ' '), hypothesis, label: label.trim() === 'entailment' ? 0 : -1 });
      n++;
    }
    manifest.sources.push({ repository: 'asaakyan/covidfact', commit: REPOSITORIES['asaakyan/covidfact'].commit, path, licence: REPOSITORIES['asaakyan/covidfact'].licence, pairs: n, split });
  }
  return pairs;
}

const root = requireFactcheckRoot();
const vectors = loadWordVectors();
const shared = nliPairs(root);
manifest.sources.push({ shared: `${root} (see each folder's README.txt)`, sets: ['snli_esnli_devtest', 'fever_nli_dev_covidfact', 'breaking_nli', 'conjnli', 'rte_glue'] });
const base = [...shared, ...feverNeutralPairs(shared), ...feverSelfPairs(shared), ...fetchedPairs()];
const all = [...base, ...augmentPairs(base)];

const squash = (text) => text.toLowerCase().replace(/\s+/g, ' ').trim();
const testKeys = new Set(all.filter((p) => p.split === 'test').map((p) => `${squash(p.premise)}\t${squash(p.hypothesis)}`));
const seen = new Set();
const rows = [];
let droppedOverlap = 0;
let droppedDuplicate = 0;
for (const p of all) {
  const key = `${squash(p.premise)}\t${squash(p.hypothesis)}`;
  if (p.split !== 'test' && testKeys.has(key)) { droppedOverlap++; continue; }
  if (seen.has(`${p.split}\t${key}`)) { droppedDuplicate++; continue; }
  seen.add(`${p.split}\t${key}`);
  const group = p.source.startsWith('fever') || p.origin?.startsWith('fever') ? p.hypothesis.replace(/ not\b/, '') : p.premise;
  const split = p.split === 'test' ? 'test' : (hash(group) >>> 8) % 10 === 0 ? 'dev' : 'train';
  const premise = p.premise.slice(0, 1500);
  rows.push({
    source: p.source, split, label: p.label,
    premise: entailmentTokens(premise, vectors), hypothesis: entailmentTokens(p.hypothesis, vectors),
    features: Array.from(entailmentFeatures(alignPair(p.hypothesis, premise, vectors)), (x) => Math.round(x * 1e5) / 1e5),
  });
}

const out = fileURLToPath(new URL('.data/nli/', import.meta.url));
mkdirSync(out, { recursive: true });
for (const split of ['train', 'dev', 'test']) {
  writeFileSync(join(out, `${split}.jsonl`), rows.filter((r) => r.split === split).map((r) => JSON.stringify(r)).join('\n') + '\n');
}
// The GloVe rows of every token in the set, for the training script (the model reads vectors, never ids).
const vocabulary = [...new Set(rows.flatMap((r) => [...r.premise, ...r.hypothesis]))].filter((w) => vectors.get(w)).sort();
const matrix = new Float32Array(vocabulary.length * 100);
vocabulary.forEach((w, i) => matrix.set(vectors.get(w), i * 100));
writeFileSync(join(out, 'vectors.f32'), Buffer.from(matrix.buffer));
writeFileSync(join(out, 'vocabulary.json'), JSON.stringify(vocabulary));

for (const r of rows) {
  const key = `${r.split}/${r.source}`;
  manifest.counts[key] ??= { pairs: 0, entailment: 0, neutral: 0, contradiction: 0, not_entailment: 0 };
  manifest.counts[key].pairs++;
  manifest.counts[key][['entailment', 'neutral', 'contradiction'][r.label] ?? 'not_entailment']++;
}
manifest.dropped = { trainPairAlsoInTest: droppedOverlap, duplicates: droppedDuplicate };
manifest.rows = Object.fromEntries(['train', 'dev', 'test'].map((s) => [s, rows.filter((r) => r.split === s).length]));
manifest.vocabulary = vocabulary.length;
writeFileSync(join(out, 'manifest.json'), JSON.stringify(manifest, null, 2));
console.log(JSON.stringify({ rows: manifest.rows, dropped: manifest.dropped, vocabulary: vocabulary.length, skipped: manifest.skipped }));
