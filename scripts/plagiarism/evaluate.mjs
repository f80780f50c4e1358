// PAN-style evaluation of @content-analysis/plagiarism (build it first: node_modules/.bin/tsc -b packages/plagiarism).
// Prints plagdet, precision, recall and granularity per obfuscation level on a corpus generated from the human
// texts of $CONTENT_ANALYSIS_DATASETS/aitext (see corpus.mjs). Options: --seed N, --sources N, --per-level N, --language auto.
process.env.DOTENV_CONFIG_QUIET ??= 'true';
const { SourceIndex, analyzePlagiarism, wordNetLexicon } = await import('../../packages/plagiarism/dist/index.js');
const { buildCorpus, LEVELS, loadHumanTexts, datasetsPath } = await import('./corpus.mjs');
const { panMeasures } = await import('./measures.mjs');

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};

/** --language auto runs language detection on every document; the default is the corpus language. */
const LANGUAGE = process.argv.includes('--language') ? process.argv[process.argv.indexOf('--language') + 1] : 'en';
const texts = loadHumanTexts();
if (texts === undefined) {
  console.log(`SKIPPED: no datasets at ${datasetsPath()}/aitext (set CONTENT_ANALYSIS_DATASETS)`);
  process.exit(0);
}
const started = performance.now();
const corpus = buildCorpus({ texts, lexicon: wordNetLexicon(), seed: arg('seed', 2024), sourceCount: arg('sources', 300), perLevel: arg('per-level', 25) });
const index = SourceIndex.open();
index.addMany(corpus.sources);
console.log(`corpus: ${texts.length} human texts available, ${corpus.sources.length} sources, ${corpus.suspicious.length} suspicious documents (seed ${arg('seed', 2024)})`);

const byLevel = new Map([...LEVELS, 'clean'].map((l) => [l, { cases: [], detections: [], ms: 0 }]));
for (const doc of corpus.suspicious) {
  const t0 = performance.now();
  const analysis = await analyzePlagiarism(doc.text, { index, language: LANGUAGE, bounds: { min: 0, max: 1e9 } });
  const bucket = byLevel.get(doc.level);
  bucket.ms += performance.now() - t0;
  for (const c of doc.cases) bucket.cases.push({ susp: doc.id, ...c });
  for (const match of analysis.matches) {
    for (const p of match.passages) {
      bucket.detections.push({ susp: doc.id, src: match.found.document.url, suspStart: p.inputStart, suspEnd: p.inputEnd, srcStart: p.sourceStart, srcEnd: p.sourceEnd });
    }
  }
}

const f = (x) => x.toFixed(3);
console.log('\nlevel     cases  detections  plagdet  precision  recall  granularity  ms/doc');
const all = { cases: [], detections: [] };
for (const [level, { cases, detections, ms }] of byLevel) {
  all.cases.push(...cases);
  all.detections.push(...detections);
  const docs = corpus.suspicious.filter((d) => d.level === level).length;
  if (level === 'clean') {
    console.log(`${level.padEnd(9)} ${String(0).padStart(5)}  ${String(detections.length).padStart(10)}  (false detections in documents without plagiarism)        ${(ms / docs).toFixed(1)}`);
    continue;
  }
  const m = panMeasures(cases, detections);
  console.log(`${level.padEnd(9)} ${String(m.cases).padStart(5)}  ${String(m.detections).padStart(10)}  ${f(m.plagdet).padStart(7)}  ${f(m.precision).padStart(9)}  ${f(m.recall).padStart(6)}  ${f(m.granularity).padStart(11)}  ${(ms / docs).toFixed(1).padStart(6)}`);
}
const m = panMeasures(all.cases, all.detections);
console.log(`${'overall'.padEnd(9)} ${String(m.cases).padStart(5)}  ${String(m.detections).padStart(10)}  ${f(m.plagdet).padStart(7)}  ${f(m.precision).padStart(9)}  ${f(m.recall).padStart(6)}  ${f(m.granularity).padStart(11)}`);
console.log(`\ntotal ${(performance.now() - started) / 1000 | 0} s`);
