// PAN-style evaluation of @content-analysis/plagiarism (build it first: node_modules/.bin/tsc -b packages/plagiarism).
// Two corpora (see corpus.mjs and sameTopicCorpus.mjs): `pan`, sources on unrelated topics from the human texts of
// $CONTENT_ANALYSIS_DATASETS/aitext, and `same-topic`, families of essays, abstracts and reviews from the mirrors of
// $CONTENT_ANALYSIS_MIRRORS. Prints plagdet, precision, recall and granularity per obfuscation level, the share of
// documents without reuse that get a detection, false-positive characters and flagged cited quotations.
// Options: --corpus pan|same-topic|both (default both), --seed N, --sources N, --per-level N, --language auto, --dist DIR,
// --restructured N (documents of the second paraphrase generator, restructure.mjs, appended; default 0).
process.env.DOTENV_CONFIG_QUIET ??= 'true';
// --dist DIR evaluates another build of the package (e.g. a copy of dist made before a change).
const DIST = process.argv.includes('--dist') ? (await import('node:path')).resolve(process.argv[process.argv.indexOf('--dist') + 1]) : new URL('../../packages/plagiarism/dist', import.meta.url).pathname;
const { SourceIndex, analyzePlagiarism, wordNetLexicon } = await import(`${DIST}/index.js`);
const { buildCorpus, loadHumanTexts, datasetsPath } = await import('./corpus.mjs');
const { buildSameTopicCorpus, loadFamilies, saveCorpus } = await import('./sameTopicCorpus.mjs');
const { coveredLength, panMeasures } = await import('./measures.mjs');

const option = (name) => (process.argv.includes(`--${name}`) ? process.argv[process.argv.indexOf(`--${name}`) + 1] : undefined);
const arg = (name, fallback) => (option(name) === undefined ? fallback : Number(option(name)));
/** --language auto runs language detection on every document; the default is the corpus language. */
const LANGUAGE = option('language') ?? 'en';
const which = option('corpus') ?? 'both';
const lexicon = wordNetLexicon();
const f = (x) => x.toFixed(3);


/**
 * `countQuoted`: whether passages the checker reports as attributed quotations count as detections. The PAN corpus
 * counts them (its inserted news sentences may carry their own quotations, and its figures stay comparable with
 * earlier runs); the same-topic corpus does not, as the service does not count them either.
 */
async function evaluate(name, corpus, seed, countQuoted) {
  const started = performance.now();
  const index = SourceIndex.open();
  index.addMany(corpus.sources);
  console.log(`\n== ${name}: ${corpus.sources.length} sources, ${corpus.suspicious.length} suspicious documents (seed ${seed}), indexed in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const levels = [...new Set(corpus.suspicious.map((d) => d.level))];
  const byLevel = new Map(levels.map((l) => [l, { cases: [], detections: [], ms: 0, docs: 0, flagged: 0, detectedChars: 0, falseChars: 0 }]));
  let quotes = 0;
  let quotesFlagged = 0;
  // Detections that detect no case: on a case's text but aligned with another source (a text both sources take
  // from a third one), or outside every case.
  let wrongSource = 0;
  let outside = 0;
  for (const doc of corpus.suspicious) {
    const t0 = performance.now();
    const analysis = await analyzePlagiarism(doc.text, { index, language: LANGUAGE, bounds: { min: 0, max: 1e9 } });
    const bucket = byLevel.get(doc.level);
    bucket.ms += performance.now() - t0;
    bucket.docs++;
    for (const c of doc.cases) bucket.cases.push({ susp: doc.id, ...c });
    const found = analysis.matches.flatMap((match) => match.passages.filter((p) => countQuoted || !p.quoted).map((p) => ({
      susp: doc.id, src: match.found.document.url, suspStart: p.inputStart, suspEnd: p.inputEnd, srcStart: p.sourceStart, srcEnd: p.sourceEnd,
    })));
    bucket.detections.push(...found);
    for (const r of found) {
      const onCase = doc.cases.filter((c) => r.suspStart < c.suspEnd && r.suspEnd > c.suspStart);
      if (onCase.some((c) => c.src === r.src && r.srcStart < c.srcEnd && r.srcEnd > c.srcStart)) continue;
      if (onCase.length > 0) wrongSource++;
      else outside++;
    }
    if (found.length > 0) bucket.flagged++;
    const spans = found.map((r) => [r.suspStart, r.suspEnd]);
    const detected = coveredLength(spans, 0, doc.text.length);
    const inCases = doc.cases.reduce((sum, c) => sum + coveredLength(spans, c.suspStart, c.suspEnd), 0);
    bucket.detectedChars += detected;
    bucket.falseChars += detected - inCases;
    for (const q of doc.quotes ?? []) {
      quotes++;
      if (coveredLength(spans, q.suspStart, q.suspEnd) > 0) quotesFlagged++;
    }
  }
  console.log('level     docs  cases  detections  plagdet  precision  recall  granularity  flagged docs  false chars  ms/doc');
  const all = { cases: [], detections: [] };
  let falseChars = 0;
  let detectedChars = 0;
  for (const [level, b] of byLevel) {
    all.cases.push(...b.cases);
    all.detections.push(...b.detections);
    falseChars += b.falseChars;
    detectedChars += b.detectedChars;
    const m = panMeasures(b.cases, b.detections);
    const measures = b.cases.length === 0 ? ' '.repeat(38) : `${f(m.plagdet).padStart(7)}  ${f(m.precision).padStart(9)}  ${f(m.recall).padStart(6)}  ${f(m.granularity).padStart(11)}`;
    console.log(`${level.padEnd(9)} ${String(b.docs).padStart(4)}  ${String(m.cases).padStart(5)}  ${String(m.detections).padStart(10)}  ${measures}  ${`${b.flagged} (${(100 * b.flagged / b.docs).toFixed(1)} %)`.padStart(12)}  ${String(b.falseChars).padStart(11)}  ${(b.ms / b.docs).toFixed(1).padStart(6)}`);
  }
  const m = panMeasures(all.cases, all.detections);
  console.log(`${'overall'.padEnd(9)} ${String(corpus.suspicious.length).padStart(4)}  ${String(m.cases).padStart(5)}  ${String(m.detections).padStart(10)}  ${f(m.plagdet).padStart(7)}  ${f(m.precision).padStart(9)}  ${f(m.recall).padStart(6)}  ${f(m.granularity).padStart(11)}  ${''.padStart(12)}  ${String(falseChars).padStart(11)}`);
  const noReuse = [...byLevel].filter(([level]) => level === 'clean' || level === 'noreuse').map(([, b]) => b);
  const docs = noReuse.reduce((s, b) => s + b.docs, 0);
  const flagged = noReuse.reduce((s, b) => s + b.flagged, 0);
  console.log(`no-reuse documents flagged: ${flagged} of ${docs} (${(100 * flagged / Math.max(1, docs)).toFixed(1)} %); false-positive characters: ${falseChars} of ${detectedChars} detected (${(100 * falseChars / Math.max(1, detectedChars)).toFixed(1)} %)`
    + (quotes > 0 ? `; cited quotations flagged: ${quotesFlagged} of ${quotes}` : ''));
  console.log(`detections of no case: ${wrongSource + outside} of ${m.detections} (${wrongSource} on a case's text with another source, ${outside} outside every case)`);
  console.log(`total ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

if (which === 'pan' || which === 'both') {
  const texts = loadHumanTexts();
  if (texts === undefined) console.log(`SKIPPED pan: no datasets at ${datasetsPath()}/aitext (set CONTENT_ANALYSIS_DATASETS)`);
  else {
    const seed = arg('seed', 2024);
    await evaluate('pan (unrelated topics)', buildCorpus({ texts, lexicon, seed, sourceCount: arg('sources', 300), perLevel: arg('per-level', 25), restructured: arg('restructured', 0) }), seed, true);
  }
}
if (which === 'same-topic' || which === 'both') {
  const families = loadFamilies();
  if (typeof families === 'string') console.log(`SKIPPED same-topic: ${families}`);
  else {
    const seed = arg('seed', 2025);
    const corpus = buildSameTopicCorpus({ families, lexicon, seed, perLevel: arg('per-level', 40), restructured: arg('restructured', 0) });
    const file = saveCorpus(corpus, `same-topic-${seed}`);
    console.log(`\nsame-topic families: ${families.map((x) => `${x.name} ${x.texts.length}`).join(', ')}; written to ${file}`);
    await evaluate('same-topic', corpus, seed, false);
  }
}
