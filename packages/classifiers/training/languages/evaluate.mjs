// Measures the exported language models through the package's runtime (languageDetector: the n-gram table read from
// float16, the ONNX head, the card's length buckets), on texts none of them was trained on:
// - holdout: the topic groups train.py leaves out of the shipped model (1 in 20, `shipped_holdout`);
// - every evaluation-only set of the corpus (es: AuTexTification 2023 test copy; de: 10kGNAD news, human only).
// A text is flagged when its human score is below 50, as the API reports it. Prints one table per language and
// writes out/languages/runtime-metrics.json.
// Usage (after build_corpus.py and train.py --export, with the package built):
//   node packages/classifiers/training/languages/evaluate.mjs [fr,de,es]
import { createHash } from 'node:crypto';
import { createReadStream, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { languageDetector, normalizeText, scoreOfLogit } from '../../dist/index.js';

const dir = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'out', 'languages');
const languages = (process.argv[2] ?? 'fr,de,es').split(',');
const holdout = (group) => BigInt(`0x${createHash('sha1').update(`ship${group}`).digest('hex')}`) % 20n === 0n;

/** AUROC of AI (positive) against human scores, higher = more AI (Mann-Whitney with ties counted half). */
function auroc(human, ai) {
  if (human.length === 0 || ai.length === 0) return null;
  const all = [...human.map((s) => [s, 0]), ...ai.map((s) => [s, 1])].sort((a, b) => a[0] - b[0]);
  let rankSum = 0;
  for (let i = 0; i < all.length;) {
    let j = i;
    while (j < all.length && all[j][0] === all[i][0]) j++;
    const rank = (i + j + 1) / 2;
    for (let k = i; k < j; k++) if (all[k][1] === 1) rankSum += rank;
    i = j;
  }
  return (rankSum - (ai.length * (ai.length + 1)) / 2) / (ai.length * human.length);
}

const sets = new Map();
for await (const line of createInterface({ input: createReadStream(resolve(dir, 'rows.jsonl')) })) {
  const r = JSON.parse(line);
  if (!languages.includes(r.language)) continue;
  const set = r.use === 'eval' ? r.source : holdout(r.group) ? 'holdout' : undefined;
  if (set === undefined) continue;
  const key = `${r.language}|${set}`;
  if (!sets.has(key)) sets.set(key, []);
  sets.get(key).push(r);
}

const out = {};
const started = Date.now();
for (const [key, rows] of [...sets].sort()) {
  const [language, set] = key.split('|');
  const detector = await languageDetector(language);
  const human = [];
  const ai = [];
  for (const r of rows) {
    const { logits } = await detector.score(normalizeText(r.text).text);
    const ainess = -logits[0]; // human log-odds, negated: higher = more machine-like
    (r.label === 'ai' ? ai : human).push(ainess);
  }
  const flagged = (xs) => (xs.length === 0 ? null : xs.filter((x) => scoreOfLogit(-x) < 50).length / xs.length);
  const m = {
    version: detector.version, n_human: human.length, n_ai: ai.length, auroc: auroc(human, ai),
    human_fpr: flagged(human), tpr: flagged(ai),
  };
  out[key] = m;
  const pct = (x) => (x === null ? '-' : `${(100 * x).toFixed(1)}%`);
  console.log(`${language} ${set.padEnd(8)} ${m.version}  human ${String(m.n_human).padStart(5)}  ai ${String(m.n_ai).padStart(5)}  ` +
    `AUROC ${m.auroc === null ? '-' : m.auroc.toFixed(3)}  TPR ${pct(m.tpr)}  human FPR ${pct(m.human_fpr)}`);
}
writeFileSync(resolve(dir, 'runtime-metrics.json'), `${JSON.stringify(out, null, 1)}\n`);
console.log(`${((Date.now() - started) / 1000).toFixed(1)} s`);
