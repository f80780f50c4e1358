// The seed files the fuzzer mutates: the images of fixtures/fuzz, the documents of fixtures/documents (PDF, DOCX,
// DOC, HTML, their texts, and the hostile files) and their texts as prose for the generated texts.
import { readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

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
  if (hostile) documents.push(...filesIn(join(docs, 'hostile'), () => true).map((f) => ({ ...f, name: `hostile/${f.name}` })));
  else documents.push(...filesIn(join(docs, 'hostile'), (ext) => ext === '.pdf').filter((f) => f.bytes.length < 10_000).map((f) => ({ ...f, name: `hostile/${f.name}` })));
  return {
    texts: documents.filter((f) => f.name.endsWith('.txt')).map((f) => f.bytes.toString('utf8')),
    images: filesIn(join(FIXTURES, 'fuzz'), (ext) => ext !== '.md'),
    documents,
  };
}
