// Attributed quotations (issue 33, item 2): documents that quote their sources with an attribution, in ten styles
// (quotation marks of several conventions, block quotations marked with `>` or indented, reporting verbs, author-year
// and numbered citations, a reference list), each also carrying an unattributed verbatim copy of another source
// (a case); and control documents with a quotation in marks and no attribution (a case: copying in quotation marks
// still counts). Texts: the English human texts of $CONTENT_ANALYSIS_DATASETS/aitext (corpus.mjs); sources get an
// author name; hosts share no 8-word run with a source; a case's source range is the source's own characters from its
// first sentence to its last. Prints PAN precision / recall / plagdet of the counted detections (attributed
// quotations are no case), attributed quotations counted, unattributed quotations found, per style.
// Options: --seed N (default 2033), --docs N per style (default 10), --dist DIR, --details (each detection below
// precision 1 with the text outside its case, and each missed control: development seeds only).
process.env.DOTENV_CONFIG_QUIET ??= 'true';
import { resolve } from 'node:path';

const option = (name) => (process.argv.includes(`--${name}`) ? process.argv[process.argv.indexOf(`--${name}`) + 1] : undefined);
const DIST = option('dist') === undefined ? new URL('../../packages/plagiarism/dist', import.meta.url).pathname : resolve(option('dist'));
const { SourceIndex, analyzePlagiarism, detectLanguage } = await import(`${DIST}/index.js`);
const { loadHumanTexts, mulberry32, pick, sentencesOf, datasetsPath } = await import('./corpus.mjs');
const { coveredLength, panMeasures } = await import('./measures.mjs');
const { runsOf } = await import('./sameTopicCorpus.mjs');

const NAMES = ['Okafor', 'Lindqvist', 'Moreau', 'Tanaka', 'Brennan', 'Castillo', 'Novak', 'Haddad', 'Ferreira', 'Kowalski', 'Whitfield', 'Sato'];

/** Styles: (quote, name, year, ref) -> {text, references?}; the quotation's own text sits where `q` is. */
const STYLES = {
  'as X (year) wrote “”': (q, n, y) => `As ${n} (${y}) wrote, “${q}”`,
  '“” (X, year)': (q, n, y) => `“${q}” (${n}, ${y}).`,
  'X put it: ‘’': (q, n) => `${n} put it this way: ‘${q}’`,
  'according to X, "" [n]': (q, n, y, k) => `According to ${n}, "${q}" [${k}]`,
  'block > after X writes': (q, n) => `${n} writes:\n\n> ${q}\n\n`,
  'indented block, name': (q, n) => `In the book by ${n}:\n\n    ${q}\n\n`,
  '„“, X said': (q, n) => `„${q}“, ${n} said.`,
  '«», X noted': (q, n) => `«${q}», ${n} noted.`,
  '“”[n] + reference list': (q, n, y, k) => `“${q}”[${k}]`,
  'X (year) argues that “”': (q, n, y) => `${n} (${y}) argues that “${q}”`,
};

/**
 * A quotation's own double quotes, where the style quotes with double marks of the same form, become single ones, as
 * writers nest quotations ("... said: 'The news ...'"); left as they are, the straight quotes of a quoted statement
 * pair with the style's own (`"In a statement X said: "` reads as the quotation).
 */
function nested(text, style) {
  if (style.includes('"')) return text.replace(/"/g, "'");
  if (style.includes('“”')) return text.replace(/“/g, '‘').replace(/”/g, '’');
  return text;
}

function build(texts, seed, perStyle) {
  const rng = mulberry32(seed);
  const shuffled = texts.map((t) => [rng(), t]).sort((a, b) => a[0] - b[0]).map(([, t]) => t);
  const sources = shuffled.slice(0, 300).map((text, i) => ({ url: `https://quotes.example/source-${i}`, title: `Study ${i} of the collection`, author: `${pick(rng, ['A.', 'J.', 'M.', 'S.'])} ${NAMES[i % NAMES.length]}${i}`, text }));
  // A host shares no run of 8 words with a source (the news sets hold several texts of one story): its only reuse
  // is what is inserted.
  const sourceRuns = new Set(sources.flatMap((source) => [...runsOf(source.text)]));
  const hosts = shuffled.slice(300).filter((text) => ![...runsOf(text)].some((run) => sourceRuns.has(run)));
  const documents = [];
  let h = 0;
  const passage = (count) => {
    const source = pick(rng, sources);
    const sentences = sentencesOf(source.text);
    const first = Math.floor(rng() * Math.max(1, sentences.length - count));
    const chosen = sentences.slice(first, first + count);
    // The source's own characters from the first chosen sentence to the end of the last (joined sentences differ
    // from them where the source puts no space or several after a stop: "selection.10 additionally"; that text is
    // in no source, and its range was -1), with line breaks and runs of spaces made single spaces.
    const srcStart = source.text.indexOf(chosen[0]);
    const last = chosen[chosen.length - 1];
    const srcEnd = source.text.indexOf(last, srcStart) + last.length;
    return { source, text: source.text.slice(srcStart, srcEnd).replace(/\s+/g, ' '), srcStart, srcEnd };
  };
  const plan = [...Object.keys(STYLES).flatMap((style) => Array.from({ length: perStyle }, () => style)), ...Array.from({ length: perStyle * 2 }, () => 'control')];
  for (const style of plan) {
    const host = sentencesOf(hosts[h++ % hosts.length]).slice(0, 8);
    const quoted = passage(1 + Math.floor(rng() * 2));
    const copied = passage(2);
    const year = 1990 + Math.floor(rng() * 30);
    const name = quoted.source.author.split(' ').pop();
    const parts = host.map((text) => ({ text }));
    const quoteAt = 1 + Math.floor(rng() * (parts.length - 1));
    let text = '';
    const cases = [];
    const quotes = [];
    const add = (piece, kind, p, inner = p?.text) => {
      if (text.length > 0 && !text.endsWith('\n')) text += ' ';
      if (kind === undefined) {
        text += piece;
        return;
      }
      const at = text.length + piece.indexOf(inner);
      const entry = { susp: '', src: p.source.url, suspStart: at, suspEnd: at + inner.length, srcStart: p.srcStart, srcEnd: p.srcEnd };
      (kind === 'case' ? cases : quotes).push(entry);
      text += piece;
    };
    parts.forEach((part, i) => {
      if (i === quoteAt) {
        if (style === 'control') add(`“${quoted.text}”`, 'case', quoted);
        else add(STYLES[style](nested(quoted.text, style), name, year, 1 + Math.floor(rng() * 9)), 'quote', quoted, nested(quoted.text, style));
      }
      if (style !== 'control' && i === (quoteAt + 3) % parts.length) add(copied.text, 'case', copied);
      add(part.text);
    });
    if (style === '“”[n] + reference list') text += `\n\nReferences\n${quoted.source.author}. ${quoted.source.title}. ${year}.\n`;
    const id = `q-${documents.length}`;
    for (const c of [...cases, ...quotes]) c.susp = id;
    documents.push({ id, style, text, cases, quotes });
  }
  return { sources, documents };
}

const texts = loadHumanTexts();
if (texts === undefined) {
  console.log(`SKIPPED: no datasets at ${datasetsPath()}/aitext (set CONTENT_ANALYSIS_DATASETS)`);
} else {
  const seed = Number(option('seed') ?? 2033);
  // English only (the loader keeps texts mostly in ASCII letters: Indonesian news passes it, and two of its texts on
  // one match share their sentences).
  const english = texts.filter((text) => detectLanguage(text) === 'en');
  const { sources, documents } = build(english, seed, Number(option('docs') ?? 10));
  const index = SourceIndex.open();
  index.addMany(sources);
  const byStyle = new Map();
  const all = { cases: [], detections: [] };
  for (const doc of documents) {
    const analysis = await analyzePlagiarism(doc.text, { index, language: 'en', bounds: { min: 0, max: 1e9 } });
    const counted = analysis.matches.filter((m) => !m.cited).flatMap((m) => m.passages.filter((p) => !p.quoted).map((p) => ({
      susp: doc.id, src: m.found.document.url, suspStart: p.inputStart, suspEnd: p.inputEnd, srcStart: p.sourceStart, srcEnd: p.sourceEnd,
    })));
    const s = byStyle.get(doc.style) ?? { docs: 0, cases: [], detections: [], quotes: 0, quotesCounted: 0, controlsFound: 0 };
    byStyle.set(doc.style, s);
    s.docs++;
    s.cases.push(...doc.cases);
    s.detections.push(...counted);
    all.cases.push(...doc.cases);
    all.detections.push(...counted);
    const spans = counted.map((r) => [r.suspStart, r.suspEnd]);
    for (const q of doc.quotes) {
      s.quotes++;
      if (coveredLength(spans, q.suspStart, q.suspEnd) > 0) s.quotesCounted++;
    }
    if (process.argv.includes('--details')) {
      // Development only: every counted detection below precision 1, with what lies outside its case in the input
      // and in the source.
      for (const d of counted) {
        const p = panMeasures(doc.cases, [d]).precision;
        if (p >= 0.999) continue;
        const c = doc.cases.find((x) => x.src === d.src && x.suspStart < d.suspEnd && d.suspStart < x.suspEnd && x.srcStart < d.srcEnd && d.srcStart < x.srcEnd);
        const inQuote = doc.quotes.some((q) => q.suspStart < d.suspEnd && d.suspStart < q.suspEnd);
        const source = sources.find((x) => x.url === d.src);
        console.log(`--- ${doc.id} (${doc.style}) precision ${p.toFixed(3)}${inQuote ? ', overlaps the attributed quotation' : ''}; ${d.src}; input ${d.suspStart}-${d.suspEnd}, source ${d.srcStart}-${d.srcEnd}; case ${c === undefined ? 'none' : `input ${c.suspStart}-${c.suspEnd}, source ${c.srcStart}-${c.srcEnd}`}`);
        if (c === undefined) {
          console.log(`  input:  ${JSON.stringify(doc.text.slice(Math.max(0, d.suspStart - 120), d.suspStart))} [[${JSON.stringify(doc.text.slice(d.suspStart, d.suspEnd))}]] ${JSON.stringify(doc.text.slice(d.suspEnd, d.suspEnd + 80))}`);
          console.log(`  source: ${JSON.stringify(source.text.slice(d.srcStart, d.srcEnd))}`);
        } else {
          const out = (text, a, b, ca, cb) => `${a < ca ? `before case: ${JSON.stringify(text.slice(a, ca))} ` : ''}${b > cb ? `after case: ${JSON.stringify(text.slice(cb, b))}` : ''}`;
          console.log(`  input  ${out(doc.text, d.suspStart, d.suspEnd, c.suspStart, c.suspEnd)}`);
          console.log(`  source ${out(source.text, d.srcStart, d.srcEnd, c.srcStart, c.srcEnd)}`);
        }
      }
    }
    if (doc.style === 'control' && doc.cases.every((c) => coveredLength(spans, c.suspStart, c.suspEnd) > 0)) s.controlsFound++;
    else if (doc.style === 'control' && process.argv.includes('--details')) {
      const c = doc.cases[0];
      console.log(`--- ${doc.id} (control) missed: ${JSON.stringify(doc.text.slice(Math.max(0, c.suspStart - 150), c.suspEnd + 80))}`);
    }
  }
  const f = (x) => x.toFixed(3);
  console.log(`build ${DIST}; seed ${seed}; ${documents.length} documents; load ${(await import('node:os')).loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  console.log('| style | docs | precision | recall | plagdet | attributed quotations counted | unattributed quotations found |');
  console.log('|---|---|---|---|---|---|---|');
  for (const [style, s] of byStyle) {
    const m = panMeasures(s.cases, s.detections);
    console.log(`| ${style} | ${s.docs} | ${f(m.precision)} | ${f(m.recall)} | ${f(m.plagdet)} | ${style === 'control' ? '' : `${s.quotesCounted} of ${s.quotes}`} | ${style === 'control' ? `${s.controlsFound} of ${s.docs}` : ''} |`);
  }
  const m = panMeasures(all.cases, all.detections);
  const quotesCounted = [...byStyle.values()].reduce((sum, s) => sum + s.quotesCounted, 0);
  const quotes = [...byStyle.values()].reduce((sum, s) => sum + s.quotes, 0);
  console.log(`| overall | ${documents.length} | ${f(m.precision)} | ${f(m.recall)} | ${f(m.plagdet)} | ${quotesCounted} of ${quotes} | |`);
}
