// Pages per second of @content-analysis/documents PDF and DOCX extraction, against the bare libraries underneath
// (pdf.js getTextContent without layout analysis; mammoth.extractRawText) measured in the same run.
// Run after building: `node_modules/.bin/tsc -b packages/documents && node benchmarks/documents/bench.mjs`.
import { createRequire } from 'node:module';
import { Bench } from 'tinybench';
import { extractDocx, extractPdf } from '../../packages/documents/dist/index.js';
import { buildPdf } from '../../scripts/documents/pdfWriter.mjs';
import { BODY_FONT, HEAD_FONT, layoutDocument } from '../../scripts/documents/layout.mjs';
import { MARSH, MARSH_TITLE } from '../../scripts/documents/texts.mjs';
import { writeZip } from '../../scripts/documents/zipWriter.mjs';

const packageRequire = createRequire(new URL('../../packages/documents/package.json', import.meta.url));
const pdfjs = await import(packageRequire.resolve('pdfjs-dist/legacy/build/pdf.mjs'));
const mammoth = packageRequire('mammoth');

/** A DOCX "page" for the page rate: 3,000 characters of text (about 500 words), stated in the output. */
const DOCX_PAGE_CHARACTERS = 3000;

// A two-column PDF (9 pages) with running head and folio: the fixture prose repeated 7.5 times.
const paragraphs = Array.from({ length: 60 }, (_, index) => MARSH[index % MARSH.length]);
const pages = layoutDocument({
  pageSize: [480, 560], margin: 50, columns: 2, gutter: 20, fontSize: 10, leading: 12.5, paragraphGap: 7, indent: 0,
  titleLines: [MARSH_TITLE], paragraphs, header: () => 'Journal of Coastal Studies', footer: (page, total) => `Page ${page} of ${total}`,
});
const pdf = buildPdf({ pageContents: pages, fonts: { F1: BODY_FONT, F2: HEAD_FONT }, mediaBox: [480, 560] });

// A DOCX with the same prose, one paragraph per w:p.
const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
const body = paragraphs.map((text) => `<w:p><w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`).join('');
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

const bench = new Bench({ time: 2000, warmupTime: 300 });
bench
  .add('extractPdf (ours)', () => extractPdf(pdf))
  .add('pdf.js getTextContent (baseline)', pdfjsTextOnly)
  .add('extractDocx (ours)', () => extractDocx(docx))
  .add('mammoth.extractRawText (baseline)', () => mammoth.extractRawText({ buffer: docx }));
await bench.run();

const meanMs = (name) => {
  const task = bench.tasks.find((candidate) => candidate.name === name);
  if (task?.result?.state !== 'completed') throw new Error(`${name} did not complete`);
  return task.result.latency.mean;
};
const rows = [
  ['extractPdf (ours)', pdfPages], ['pdf.js getTextContent (baseline)', pdfPages],
  ['extractDocx (ours)', docxPages], ['mammoth.extractRawText (baseline)', docxPages],
].map(([name, count]) => ({ task: name, 'mean ms': meanMs(name).toFixed(2), 'pages/s': (count / (meanMs(name) / 1000)).toFixed(0) }));
console.log(`PDF: ${pdfPages} pages, ${pdf.length} bytes. DOCX: ${docx.length} bytes, ${docxPages.toFixed(1)} page equivalents of ${DOCX_PAGE_CHARACTERS} characters.`);
console.table(rows);
console.log(`extractPdf / pdf.js text only: ${(meanMs('extractPdf (ours)') / meanMs('pdf.js getTextContent (baseline)')).toFixed(2)}x the time`);
console.log(`extractDocx / mammoth raw text: ${(meanMs('extractDocx (ours)') / meanMs('mammoth.extractRawText (baseline)')).toFixed(2)}x the time`);
