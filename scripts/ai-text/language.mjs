// How the AI-text detector's language identification (detectLanguage: franc among the API's languages) reads the
// texts of ../shared/datasets/aitext (300+ characters): counts per dataset, labelled language and detected code, and
// the English texts it does not read as English, with their opening.
// Usage: node_modules/.bin/tsc -b packages/classifiers && node scripts/ai-text/language.mjs
import { detectLanguage, normalizeText } from '../../packages/classifiers/dist/index.js';
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
