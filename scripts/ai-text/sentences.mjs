// Are the sentence-level answers consistent with the document score? On the English texts of
// $CONTENT_ANALYSIS_DATASETS/aitext (a quarter of them, 300-20,000 characters), the detector's sentence scores as
// shipped (`anchored`) against each sentence window scored on its own (`independent`, as 2.0.0 first shipped), in one
// run. Printed per way:
// - human documents that pass (score >= 50): share of their sentences marked (below 50), share with any marked;
// - AI documents flagged: share of their sentences marked, share with none marked;
// - mixed documents (a human fastdetectgpt text followed by an AI text of the same domain, 450 pairs): AI and human
//   sentences marked, AUROC of the sentence scores for telling the AI part's sentences from the human part's (all
//   sentences pooled, and the mean within each document).
// With --calibration profile.json the same with a deployment profile applied.
// Usage: node_modules/.bin/tsc -b packages/classifiers && node scripts/ai-text/sentences.mjs [--calibration profile.json]
import { readFileSync } from 'node:fs';
import { createAiTextDetector, HUMAN_SCORE_THRESHOLD } from '../../packages/classifiers/dist/index.js';
import { datasetsRoot, loadRows } from '../../packages/classifiers/training/datasets.mjs';
import { auroc } from '../lib/auroc.mjs';

const root = datasetsRoot();
if (root === undefined) {
  console.log('SKIPPED: datasets not found (set CONTENT_ANALYSIS_DATASETS to the folder holding aitext/)');
  process.exit(0);
}
const args = process.argv.slice(2);
const profilePath = args.includes('--calibration') ? args[args.indexOf('--calibration') + 1] : undefined;
const calibration = profilePath === undefined ? undefined : JSON.parse(readFileSync(profilePath, 'utf8'));
const detector = await createAiTextDetector(calibration === undefined ? {} : { calibration });
const rows = loadRows(root).filter((r) => r.language === 'en' && r.text.length >= 300 && r.text.length < 20_000);

async function detect(text, sentenceScores) {
  try {
    return await detector.detect(text, { language: 'en', sentenceScores });
  } catch {
    return undefined; // the detector refuses a few texts (no words); they are left out of both ways alike
  }
}

// A human text followed by an AI text of the same fastdetectgpt domain; sentences labelled by the part they start in.
const byDomain = {};
for (const r of rows) if (r.dataset === 'fastdetectgpt_open_models') ((byDomain[r.domain] ??= { human: [], ai: [] })[r.label ? 'ai' : 'human']).push(r);
const mixed = [];
for (const { human, ai } of Object.values(byDomain)) {
  for (let k = 0; k < 150 && human[k * 3] && ai[k * 7 + 1]; k++) {
    const first = human[k * 3].text.trim();
    mixed.push({ text: `${first}\n\n${ai[k * 7 + 1].text.trim()}`, cut: first.length });
  }
}
const partOf = (text, cut, sentences) => {
  let cursor = 0;
  return sentences.map((s) => {
    const at = text.indexOf(s.text.slice(0, 20), cursor);
    if (at >= 0) cursor = at;
    return cursor >= cut ? 1 : 0;
  });
};

const pct = (v) => `${(100 * v).toFixed(1)}%`;
console.log(`Sentence scores of AI-text ${detector.version}${profilePath ? ` with the profile ${profilePath}` : ''}, one quarter of the English rows`);
for (const way of ['anchored', 'independent']) {
  const human = { docs: 0, sentences: 0, marked: 0, any: 0 };
  const flagged = { docs: 0, share: 0, none: 0 };
  let i = 0;
  for (const r of rows) {
    if (i++ % 4 !== 0) continue;
    const result = await detect(r.text, way);
    if (result === undefined) continue;
    const marked = result.sentences.filter((s) => s.score < HUMAN_SCORE_THRESHOLD).length;
    if (r.label === 0 && result.score >= HUMAN_SCORE_THRESHOLD) {
      human.docs++;
      human.sentences += result.sentences.length;
      human.marked += marked;
      if (marked > 0) human.any++;
    }
    if (r.label === 1 && result.score < HUMAN_SCORE_THRESHOLD) {
      flagged.docs++;
      flagged.share += marked / result.sentences.length;
      if (marked === 0) flagged.none++;
    }
  }
  const scores = { ai: [], human: [] };
  let within = 0;
  let withinDocs = 0;
  const marks = { ai: [0, 0], human: [0, 0] };
  for (const m of mixed) {
    const result = await detect(m.text, way);
    if (result === undefined) continue;
    const parts = partOf(m.text, m.cut, result.sentences);
    const doc = { ai: [], human: [] };
    result.sentences.forEach((s, k) => {
      const side = parts[k] ? 'ai' : 'human';
      doc[side].push(100 - s.score);
      scores[side].push(100 - s.score);
      marks[side][0]++;
      if (s.score < HUMAN_SCORE_THRESHOLD) marks[side][1]++;
    });
    const a = auroc(doc.ai, doc.human);
    if (a !== null) {
      within += a;
      withinDocs++;
    }
  }
  console.log(`\n${way}:`);
  console.log(`  human documents passed: ${human.docs}; sentences marked ${pct(human.marked / human.sentences)}; documents with any marked ${pct(human.any / human.docs)}`);
  console.log(`  AI documents flagged: ${flagged.docs}; sentences marked ${pct(flagged.share / flagged.docs)} (mean per document); documents with none marked ${pct(flagged.none / flagged.docs)}`);
  console.log(`  mixed human + AI documents: ${mixed.length}; AI sentences marked ${pct(marks.ai[1] / marks.ai[0])}, human sentences marked ${pct(marks.human[1] / marks.human[0])}; ` +
    `sentence AUROC ${auroc(scores.ai, scores.human).toFixed(3)} (within a document ${(within / withinDocs).toFixed(3)})`);
}
