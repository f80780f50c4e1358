// Pages per second of @content-analysis/documents PDF and DOCX extraction, against the bare libraries underneath
// (pdf.js getTextContent without layout analysis; mammoth.extractRawText) measured in the same run, tinybench
// medians. The documents hold real prose: the first human texts of the shared AI-text sets (BBC news articles of
// XSum, benchmarks/lib/realInputs.mjs) up to 36,000 characters, one paragraph per line of a text, laid out as a
// two-column PDF with running head and folio and written as a DOCX of the same paragraphs (the project's prose,
// scripts/documents/texts.mjs, when the datasets are absent).
// Run after building: `node_modules/.bin/tsc -b packages/documents &&
//   CONTENT_ANALYSIS_DATASETS=../shared/datasets node benchmarks/documents/bench.mjs [--time MS]`.
import { createRequire } from 'node:module';
import { Bench } from 'tinybench';
import { extractDocx, extractPdf } from '../../packages/documents/dist/index.js';
import { buildPdf } from '../../scripts/documents/pdfWriter.mjs';
import { BODY_FONT, HEAD_FONT, layoutDocument } from '../../scripts/documents/layout.mjs';
import { MARSH, MARSH_TITLE } from '../../scripts/documents/texts.mjs';
import { writeZip } from '../../scripts/documents/zipWriter.mjs';
import { datasetsRoot, humanProse, machineLine } from '../lib/realInputs.mjs';

const packageRequire = createRequire(new URL('../../packages/documents/package.json', import.meta.url));
const pdfjs = await import(packageRequire.resolve('pdfjs-dist/legacy/build/pdf.mjs'));
const mammoth = packageRequire('mammoth');

/** A DOCX "page" for the page rate: 3,000 characters of text (about 500 words), stated in the output. */
const DOCX_PAGE_CHARACTERS = 3000;

const time = process.argv.includes('--time') ? Number(process.argv[process.argv.indexOf('--time') + 1]) : 2000;
// Real prose, in the PDF fonts' Latin-1 (typographic quotes and dashes written as ASCII; any other character
// outside Latin-1 dropped, for both documents alike).
const latin1 = (text) => text.replace(/[\u2018\u2019]/g, "'").replace(/[\u201c\u201d]/g, '"').replace(/[\u2013\u2014]/g, '-').replace(/[^\x00-\xff]/g, '');
const real = datasetsRoot() !== undefined;
const paragraphs = real
  ? humanProse(36_000).split(/\n+/).map((p) => latin1(p).replace(/\s+/g, ' ').trim()).filter((p) => p.length > 0)
  : Array.from({ length: 60 }, (_, index) => MARSH[index % MARSH.length]);
const inputs = real ? 'human prose of the shared AI-text sets (XSum BBC news), 36,000 characters' : 'the project\'s prose (datasets absent), repeated 7.5 times';
// A two-column PDF with running head and folio.
const pages = layoutDocument({
  pageSize: [480, 560], margin: 50, columns: 2, gutter: 20, fontSize: 10, leading: 12.5, paragraphGap: 7, indent: 0,
  titleLines: [real ? 'News of the week' : MARSH_TITLE], paragraphs, header: () => (real ? 'Weekly news digest' : 'Journal of Coastal Studies'), footer: (page, total) => `Page ${page} of ${total}`,
});
const pdf = buildPdf({ pageContents: pages, fonts: { F1: BODY_FONT, F2: HEAD_FONT }, mediaBox: [480, 560] });

// A DOCX with the same prose, one paragraph per w:p.
const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
const xml = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const body = paragraphs.map((text) => `<w:p><w:r><w:t xml:space="preserve">${xml(text)}</w:t></w:r></w:p>`).join('');
const docx = writeZip([
  { name: '[Content_Types].xml', data: '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>' },
  { name: '_rels/.rels', data: '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>' },
  { name: 'word/document.xml', data: `<?xml version="1.0"?><w:document ${W}><w:body>${body}</w:body></w:document>` },
]);

const pdfPages = (await extractPdf(pdf)).pages.length;
const docxPages = (await extractDocx(docx)).text.length / DOCX_PAGE_CHARACTERS;

async function pdfjsTextOnly() {
  const task = pdfjs.getDocument({ data: new Uint8Array(pdf), verbosity: 0, isEvalSupported: false, disableFontFace: true });
  const document = await task.promise;
  for (let number = 1; number <= document.numPages; number += 1) await (await document.getPage(number)).getTextContent();
  await task.destroy();
}

const bench = new Bench({ time, warmupTime: 300 });
bench
  .add('extractPdf (ours)', () => extractPdf(pdf))
  .add('pdf.js getTextContent (baseline)', pdfjsTextOnly)
  .add('extractDocx (ours)', () => extractDocx(docx))
  .add('mammoth.extractRawText (baseline)', () => mammoth.extractRawText({ buffer: docx }));
await bench.run();

const medianMs = (name) => {
  const task = bench.tasks.find((candidate) => candidate.name === name);
  if (task?.result?.state !== 'completed') throw new Error(`${name} did not complete`);
  return task.result.latency.p50;
};
const rows = [
  ['extractPdf (ours)', pdfPages], ['pdf.js getTextContent (baseline)', pdfPages],
  ['extractDocx (ours)', docxPages], ['mammoth.extractRawText (baseline)', docxPages],
].map(([name, count]) => ({ task: name, 'median ms': medianMs(name).toFixed(2), 'pages/s': (count / (medianMs(name) / 1000)).toFixed(0) }));
console.log(`documents benchmark; ${machineLine()}; tinybench medians, ${time} ms per task`);
console.log(`inputs: ${inputs}, ${paragraphs.length} paragraphs`);
console.log(`PDF: ${pdfPages} pages, ${pdf.length} bytes. DOCX: ${docx.length} bytes, ${docxPages.toFixed(1)} page equivalents of ${DOCX_PAGE_CHARACTERS} characters.`);
console.table(rows);
console.log(`extractPdf / pdf.js text only: ${(medianMs('extractPdf (ours)') / medianMs('pdf.js getTextContent (baseline)')).toFixed(2)}x the time`);
console.log(`extractDocx / mammoth raw text: ${(medianMs('extractDocx (ours)') / medianMs('mammoth.extractRawText (baseline)')).toFixed(2)}x the time`);
console.log(`at the end: ${machineLine()}`);
