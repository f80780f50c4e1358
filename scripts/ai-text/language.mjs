// How the AI-text detector's language identification (detectLanguage: franc among the API's languages) reads the
// texts of ../shared/datasets/aitext (300+ characters): counts per dataset, labelled language and detected code, and
// the English texts it does not read as English, with their opening. Then the declared-language check of the API
// (`contradictedLanguage` of the engine): every text sent with `language: 'en'`, how many are refused, per labelled
// language and by what franc reads.
// Usage: node_modules/.bin/tsc -b packages/engine && node scripts/ai-text/language.mjs
import { detectLanguage, normalizeText } from '../../packages/classifiers/dist/index.js';
import { contradictedLanguage } from '../../packages/engine/dist/index.js';
import { datasetsRoot, loadRows } from '../../packages/classifiers/training/datasets.mjs';

const root = datasetsRoot();
if (root === undefined) {
  console.log('SKIPPED: datasets not found (set CONTENT_ANALYSIS_DATASETS to the folder holding aitext/)');
  process.exit(0);
}
const rows = loadRows(root).filter((r) => r.text.length >= 300);
const counts = new Map();
const missed = [];
for (const r of rows) {
  const detected = detectLanguage(normalizeText(r.text).text);
  const key = `${r.dataset} ${r.language} -> ${detected}`;
  counts.set(key, (counts.get(key) ?? 0) + 1);
  if (r.language === 'en' && detected !== 'en') missed.push(`${r.dataset} read as ${detected}: ${JSON.stringify(r.text.slice(0, 120))}`);
}
for (const [key, n] of [...counts].sort()) console.log(key.padEnd(48), n);
const english = rows.filter((r) => r.language === 'en').length;
console.log(`English-labelled texts read as English: ${english - missed.length} of ${english}`);
for (const line of missed) console.log(`  ${line}`);
console.log('(m4_llama2 labels rows by the prompt language; many machine answers to German, Russian, Indonesian or Chinese prompts are in English.)');

// Declared English: refused where franc and the fact checker's function words agree the text is something else.
const declared = new Map();
const passedOther = [];
for (const r of rows) {
  const read = detectLanguage(normalizeText(r.text).text) === 'en' ? 'read as en' : 'read as another';
  const found = contradictedLanguage(r.text, 'en');
  const key = `${r.language} ${read}`;
  const entry = declared.get(key) ?? { texts: 0, refused: 0, as: new Map() };
  entry.texts++;
  if (found !== undefined) {
    entry.refused++;
    entry.as.set(found, (entry.as.get(found) ?? 0) + 1);
  } else if (read === 'read as another') passedOther.push(`${r.dataset} ${r.language}: ${JSON.stringify(r.text.slice(0, 100))}`);
  declared.set(key, entry);
}
console.log('\nSent with language "en": refused (400, LANGUAGE_MISMATCH) per labelled language and franc\'s reading');
for (const [key, e] of [...declared].sort()) {
  console.log(`${key.padEnd(26)} ${String(e.refused).padStart(6)} of ${String(e.texts).padEnd(6)} ${[...e.as].map(([c, n]) => `${c} ${n}`).join(', ')}`);
}
console.log('Read as another language by franc but scored as declared (the function words still read English):');
for (const line of passedOther) console.log(`  ${line}`);

// Per language: what the English detector's raw output would give on m4's non-English pairs (only texts franc reads
// in that language; m4's AI answers in English are left out). Not served: these languages are refused.
const { createAiTextScorer } = await import('../../packages/classifiers/dist/index.js');
const { auroc } = await import('../lib/auroc.mjs');
const scorer = await createAiTextScorer();
const card = JSON.parse((await import('node:fs')).readFileSync(new URL('../../packages/classifiers/models/ai-text/2.0.0/card.json', import.meta.url), 'utf8'));
const { humanScore } = await import('../../packages/classifiers/dist/index.js');
console.log('\nPer language (m4_llama2, human vs Llama-2-70B-chat, texts read in that language): 2.0.0\'s raw output, were it served');
console.log('language  human  AI  AUROC  TPR at the shipped threshold  human FPR there');
for (const language of ['de', 'ru', 'id', 'zh']) {
  const side = { 0: [], 1: [] };
  const flagged = { 0: 0, 1: 0 };
  for (const r of rows) {
    if (r.dataset !== 'm4_llama2' || r.language !== language) continue;
    const read = detectLanguage(normalizeText(r.text).text);
    if (read === 'en' || read === 'und') continue;
    const [whole] = await scorer.score(r.text);
    if (whole === undefined) continue;
    side[r.label].push(whole.logit);
    if (humanScore(whole.logit, whole.chars, card.calibration.buckets) < 50) flagged[r.label]++;
  }
  const a = auroc(side[1], side[0]);
  console.log(`${language.padEnd(9)} ${String(side[0].length).padStart(5)} ${String(side[1].length).padStart(4)}  ${a === null ? '  -  ' : a.toFixed(3)}  ` +
    `${(100 * flagged[1] / Math.max(1, side[1].length)).toFixed(1).padStart(27)}%  ${(100 * flagged[0] / Math.max(1, side[0].length)).toFixed(1).padStart(14)}%`);
}
