// Readers of ../shared/datasets/factcheck for the training and evaluation scripts. Never copies data into the repo.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(fileURLToPath(new URL('../../..', import.meta.url)));

/** `$CONTENT_ANALYSIS_DATASETS/factcheck` (default `../shared/datasets` from the repo root), or null when absent. */
export function factcheckRoot() {
  const root = resolve(repoRoot, process.env.CONTENT_ANALYSIS_DATASETS ?? '../shared/datasets', 'factcheck');
  return existsSync(root) ? root : null;
}

export function requireFactcheckRoot() {
  const root = factcheckRoot();
  if (!root) {
    console.error('datasets not found: set CONTENT_ANALYSIS_DATASETS to the folder holding factcheck/ (skipping)');
    process.exit(0);
  }
  return root;
}

/** Stable 32-bit FNV-1a hash, used for honest hash splits (same text, same side). */
export function hash(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

function tsv(path, { header = true } = {}) {
  const lines = readFileSync(path, 'utf8').replace(/^\uFEFF/, '').split(/\r?\n/).filter((l) => l.length > 0);
  const rows = lines.map((l) => l.split('\t'));
  if (!header) return rows;
  const [names, ...rest] = rows;
  return rest.map((r) => Object.fromEntries(names.map((n, i) => [n, r[i] ?? ''])));
}

const PTB = { '-LRB-': '(', '-RRB-': ')', '-LSB-': '[', '-RSB-': ']', '-LCB-': '{', '-RCB-': '}', '``': '"', "''": '"' };
const unPtb = (text) => text.replace(/-LRB-|-RRB-|-LSB-|-RSB-|-LCB-|-RCB-|``|''/g, (m) => PTB[m]);

/**
 * NLI pairs: {source, split ('train' | 'test'), premise, hypothesis, label}, label 0 entailment, 1 neutral,
 * 2 contradiction, -1 "not entailment" (RTE: neutral or contradiction, trained as 1 - p(entailment)).
 */
export function nliPairs(root) {
  const pairs = [];
  const label3 = { entailment: 0, neutral: 1, contradiction: 2 };
  for (const r of tsv(join(root, 'snli_esnli_devtest/snli_devtest.tsv'))) {
    if (r.label in label3) pairs.push({ source: 'snli', split: r.split === 'test' ? 'test' : 'train', premise: r.premise, hypothesis: r.hypothesis, label: label3[r.label] });
  }
  for (const r of tsv(join(root, 'fever_nli_dev_covidfact/fever_dev_pairs.tsv'))) {
    pairs.push({ source: 'fever', split: hash(r.claim) % 5 === 0 ? 'test' : 'train', premise: unPtb(r.evidence), hypothesis: r.claim, label: r.label === 'SUPPORTS' ? 0 : 2 });
  }
  for (const line of readFileSync(join(root, 'breaking_nli/dataset.jsonl'), 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const r = JSON.parse(line);
    if (r.gold_label in label3) pairs.push({ source: 'breaking_nli', split: hash(r.sentence1) % 5 === 0 ? 'test' : 'train', premise: r.sentence1, hypothesis: r.sentence2, label: label3[r.gold_label] });
  }
  for (const [file, split] of [['adversarial_train_15k.tsv', 'train'], ['conj_dev.tsv', 'test']]) {
    for (const r of tsv(join(root, 'conjnli', file))) {
      if (r.Label in label3) pairs.push({ source: 'conjnli', split, premise: r.Premise, hypothesis: r.Hypothesis, label: label3[r.Label] });
    }
  }
  for (const [file, split] of [['train.tsv', 'train'], ['dev.tsv', 'test']]) {
    for (const r of tsv(join(root, 'rte_glue', file))) {
      pairs.push({ source: 'rte', split, premise: r.sentence1, hypothesis: r.sentence2, label: r.label === '0' ? 0 : -1 });
    }
  }
  return pairs;
}

/**
 * CLIMATE-FEVER's fixed split: 1 claim in 5 (by a hash of claim_id, 156 of 768) is the dev split, used ONLY to
 * choose the verdict vote thresholds (scripts/fact-check/chooseThresholds.mjs); the other 612 are the test split.
 */
export function climateFeverSplit(claim) {
  return hash(String(claim.claim_id)) % 5 === 0 ? 'dev' : 'test';
}

/** CLIMATE-FEVER claims with their evidence sentences. */
export function climateFever(root) {
  return readFileSync(join(root, 'climate-fever/climate-fever-dev.jsonl'), 'utf8')
    .split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
}

/**
 * Check-worthiness sentences: {source, split, doc, text, label}. Train: CT22 1B claim train + dev, CLEF 2020 tweets
 * (claim column) train + dev, ClaimRank (label: checked by at least one outlet), CLEF 2019 training debates.
 * Test: CT22 1B dev_test, CLEF 2020 tweets test-gold, CLEF 2019 test_annotated (documents not in training).
 */
export function checkWorthinessSentences(root) {
  const out = [];
  const ct22 = join(root, 'cw_clef2022_task1_en_tweets');
  for (const [file, split] of [['CT22_english_1B_claim_train.tsv', 'train'], ['CT22_english_1B_claim_dev.tsv', 'train'], ['CT22_english_1B_claim_dev_test.tsv', 'test']]) {
    for (const r of tsv(join(ct22, file))) out.push({ source: 'ct22_claim', split, doc: file, text: r.tweet_text, label: Number(r.class_label) });
  }
  const t20 = join(root, 'cw_clef2020_task1_tweets');
  for (const [file, split] of [['training_v2.tsv', 'train'], ['dev_v2.tsv', 'train'], ['test-gold.tsv', 'test']]) {
    for (const r of tsv(join(t20, file))) out.push({ source: 'clef20_tweets_claim', split, doc: file, text: r.tweet_text, label: Number(r.claim) });
  }
  const d19 = join(root, 'cw_clef2019_task1_debates/data');
  const testDocs = new Set(readdirSync(join(d19, 'test_annotated')));
  for (const file of readdirSync(join(d19, 'test_annotated'))) {
    for (const r of tsv(join(d19, 'test_annotated', file), { header: false })) {
      if (r[1] !== 'SYSTEM') out.push({ source: 'clef19_debates', split: 'test', doc: file, text: r[2] ?? '', label: Number(r[3]) });
    }
  }
  for (const file of readdirSync(join(d19, 'training'))) {
    if (testDocs.has(file)) continue;
    for (const r of tsv(join(d19, 'training', file), { header: false })) {
      if (r[1] !== 'SYSTEM') out.push({ source: 'clef19_debates', split: 'train', doc: file, text: r[2] ?? '', label: Number(r[3]) });
    }
  }
  const cr = join(root, 'cw_claimrank_gencheva2017');
  for (const file of readdirSync(cr).filter((f) => f.endsWith('.tsv'))) {
    for (const r of tsv(join(cr, file))) {
      const text = (r.Text ?? '').replace(/^"|"$/g, '').replace(/""/g, '"');
      if (r.Speaker !== 'SYSTEM' && text) out.push({ source: 'claimrank', split: 'train', doc: file, text, label: Number(r.ALL) >= 1 ? 1 : 0 });
    }
  }
  return out.filter((s) => s.text.trim().length > 0 && (s.label === 0 || s.label === 1));
}
