// The seed files the fuzzer mutates: the images of fixtures/fuzz, the documents of fixtures/documents (PDF, DOCX,
// DOC, HTML, their texts, and the hostile files) and their texts as prose for the generated texts.
import { readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inflatingPdf, manyParagraphDocx, pixelHeavyPng } from './attacks.mjs';

const FIXTURES = fileURLToPath(new URL('../../../fixtures/', import.meta.url));

const CONTENT_TYPES = {
  '.pdf': 'application/pdf',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.doc': 'application/msword',
  '.html': 'text/html',
  '.txt': 'text/plain',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
};

// The attack shapes of issue 26, built (small on the wire, expensive once decoded): a DOCX of 1.5 million paragraphs,
// PDFs whose page content inflates to 1 GiB (also under /Subtype /Image), and a 7000 x 7000 PNG.
const ATTACK_DOCUMENTS = () => [
  { name: 'attack/many-paragraphs.docx', bytes: manyParagraphDocx(1_500_000), contentType: CONTENT_TYPES['.docx'] },
  { name: 'attack/inflating.pdf', bytes: inflatingPdf(1024 * 1024 * 1024), contentType: CONTENT_TYPES['.pdf'] },
  { name: 'attack/inflating-as-image.pdf', bytes: inflatingPdf(1024 * 1024 * 1024, { subtype: 'Image' }), contentType: CONTENT_TYPES['.pdf'] },
];
const ATTACK_IMAGES = () => [{ name: 'attack/7000x7000.png', bytes: pixelHeavyPng(7000, 7000), contentType: CONTENT_TYPES['.png'] }];

function filesIn(dir, keep) {
  return readdirSync(dir)
    .filter((name) => keep(extname(name)))
    .sort()
    .map((name) => ({ name, bytes: readFileSync(join(dir, name)), contentType: CONTENT_TYPES[extname(name)] }));
}

/**
 * `{texts, images, documents}`. With `hostile: false` the large hostile documents (2,000-page PDF, zip bombs) are
 * left out, for the quick run of the test suite.
 */
export function loadSeeds({ hostile = true } = {}) {
  const docs = join(FIXTURES, 'documents');
  const documents = filesIn(docs, (ext) => ext in CONTENT_TYPES);
  if (hostile) documents.push(...filesIn(join(docs, 'hostile'), () => true).map((f) => ({ ...f, name: `hostile/${f.name}` })), ...ATTACK_DOCUMENTS());
  else documents.push(...filesIn(join(docs, 'hostile'), (ext) => ext === '.pdf').filter((f) => f.bytes.length < 10_000).map((f) => ({ ...f, name: `hostile/${f.name}` })));
  return {
    texts: documents.filter((f) => f.name.endsWith('.txt')).map((f) => f.bytes.toString('utf8')),
    images: [...filesIn(join(FIXTURES, 'fuzz'), (ext) => ext !== '.md'), ...(hostile ? ATTACK_IMAGES() : [])],
    documents,
  };
}
