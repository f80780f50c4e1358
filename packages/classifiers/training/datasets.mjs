// Reads ../shared/datasets/aitext (or $CONTENT_ANALYSIS_DATASETS/aitext), cleans the known artefacts each
// README.txt warns about, and assigns every row to a split by document group (never by row).
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** The shared datasets folder: $CONTENT_ANALYSIS_DATASETS (relative to the repository root), else ../shared/datasets. */
export const DATASETS_DIR = resolve(repoRoot, process.env.CONTENT_ANALYSIS_DATASETS ?? '../shared/datasets');

/** Folder holding aitext/, or undefined when the data sets are absent. */
export function datasetsRoot() {
  return existsSync(resolve(DATASETS_DIR, 'aitext')) ? DATASETS_DIR : undefined;
}

/**
 * Split of a group: 'resource' (language models and dictionaries are counted on it), 'train' (the classifier),
 * 'calib' (the length calibration of the human score), 'test' (never used before evaluation).
 * Datasets in HELD_OUT are test only: their generator families never reach any other split.
 */
export const HELD_OUT = new Set(['hc3plus_si', 'mgtbench_truthfulqa', 'binoculars_pubmed']);

function bucketOf(key) {
  return createHash('sha1').update(key).digest().readUInt32BE(0) % 100;
}

function splitOf(dataset, group) {
  if (HELD_OUT.has(dataset)) return 'test';
  const b = bucketOf(`${dataset}:${group}`);
  if (b < 35) return 'resource';
  if (b < 65) return 'train';
  if (b < 80) return 'calib';
  return 'test';
}

function readJsonl(path) {
  return readFileSync(path, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l));
}

// Families: the model family a generator belongs to (held-out reporting is per family).
function familyOf(generator) {
  if (generator == null) return 'human';
  if (/gpt-3\.5|chatgpt/i.test(generator)) return 'chatgpt';
  if (/llama/i.test(generator)) return 'llama-2';
  if (/falcon/i.test(generator)) return 'falcon';
  return 'open-2019-22'; // GPT-2, Neo, J, NeoX, OPT
}

// The AI text of fastdetectgpt continues the first ~30 tokens of its human pair: drop the shared prefix (cut at a
// word boundary) from both sides so that neither carries the other's words.
function stripSharedPrefix(human, ai) {
  let i = 0;
  while (i < human.length && i < ai.length && human[i] === ai[i]) i++;
  while (i > 0 && !/\s/.test(human[i - 1])) i--;
  return [human.slice(i), ai.slice(i)];
}

/**
 * Every usable row as {id, dataset, domain, language, family, generator, label (1 = ai), group, split, text}.
 * @param {string} root datasets root
 */
export function loadRows(root) {
  const dir = resolve(root, 'aitext');
  const rows = [];
  // The detector is English: other languages are evaluated (as unsupported) but never trained or calibrated on.
  const push = (row) =>
    rows.push({ ...row, split: row.language === 'en' ? splitOf(row.dataset, row.group) : 'test' });

  const fdg = readJsonl(resolve(dir, 'fastdetectgpt_open_models/exp_main.jsonl'));
  const byPair = new Map();
  for (const r of fdg) {
    const p = byPair.get(r.pair_id) ?? {};
    p[r.label] = r;
    byPair.set(r.pair_id, p);
  }
  const seenHuman = new Set();
  for (const [pairId, p] of byPair) {
    if (!p.human || !p.ai) continue;
    const [human, ai] = stripSharedPrefix(p.human.text, p.ai.text);
    const base = { dataset: 'fastdetectgpt_open_models', domain: p.ai.domain, language: 'en', group: p.ai.group };
    push({ ...base, id: `${pairId}:ai`, family: familyOf(p.ai.generator), generator: p.ai.generator, label: 1, text: ai });
    // The same human article is paired with five generators: keep one copy of each distinct text.
    if (!seenHuman.has(human)) {
      seenHuman.add(human);
      push({ ...base, id: `${pairId}:human`, family: 'human', generator: null, label: 0, text: human });
    }
  }

  for (const r of readJsonl(resolve(dir, 'm4_llama2/m4_llama2_examples.jsonl'))) {
    if (r.chat_preamble === true) continue; // "Sure, here's ..." is a trivial cue (README.txt)
    push({
      dataset: 'm4_llama2', domain: r.domain, language: r.lang, group: r.pair_id, id: `${r.pair_id}:${r.label}`,
      family: familyOf(r.generator), generator: r.generator, label: r.label === 'ai' ? 1 : 0,
      text: r.domain === 'wikihow' ? r.text.replace(/\.,/g, '.') : r.text,
    });
  }

  readJsonl(resolve(dir, 'hc3plus_si/val_hc3_si_en.jsonl')).forEach((r) => {
    push({
      dataset: 'hc3plus_si', domain: 'semantic-invariant', language: 'en', group: String(r.idx), id: `hc3:${r.idx}`,
      family: familyOf(r.generator), generator: r.generator, label: r.label === 'ai' ? 1 : 0,
      text: r.text.replace(/ \.\n/g, '.\n'), // tokenised CNN/DM highlight bullets, a human-only cue (README.txt)
    });
  });

  readJsonl(resolve(dir, 'binoculars_pubmed/pubmed_falcon7.jsonl')).forEach((r, i) => {
    push({
      dataset: 'binoculars_pubmed', domain: 'pubmed', language: 'en', group: String(r.pair_id ?? i), id: `bino:${i}`,
      family: familyOf(r.generator), generator: r.generator, label: r.label === 'ai' ? 1 : 0, text: r.text,
    });
  });

  readJsonl(resolve(dir, 'mgtbench_truthfulqa/truthfulqa_chatgpt.jsonl')).forEach((r, i) => {
    push({
      dataset: 'mgtbench_truthfulqa', domain: r.category ?? 'truthfulqa', language: 'en', group: r.pair_id,
      id: `tqa:${i}`, family: familyOf(r.generator), generator: r.generator, label: r.label === 'ai' ? 1 : 0,
      text: r.text,
    });
  });
  return rows;
}
